#!/usr/bin/env bash
# ladder.sh — `pips ladder` end to end: one line per agent best first, the
# files --out writes, the same ratings for any --threads, clear errors.
set -u
. "$(dirname "$0")/lib/common.sh"

"$PIPS" ladder tictacdoh --agents random,greedy,mcts:iters=200,threads=2 --games 10 --seed 5 \
    --threads 1 --out "$tmp/a" >"$tmp/one.txt" 2>/dev/null
check "ladder runs" $?
[ "$(grep -c '^[0-9]' "$tmp/one.txt")" = 3 ]; check "one line per agent" $?
tail -n 1 "$tmp/one.txt" | grep -q ' random$'; check "random rated last" $?
awk '/^[0-9]/ { e = $2 + 0; if (n++ && e > last) bad = 1; last = e } END { exit bad }' "$tmp/one.txt"
check "best first" $?
grep -q 'mcts:iters=200,threads=2' "$tmp/one.txt"; check "an agent's own parameters kept" $?
for f in ratings.txt ratings.csv pairs.csv ratings.svg; do
    [ -s "$tmp/a/$f" ]; check "--out writes $f" $?
done
[ "$(wc -l <"$tmp/a/pairs.csv")" = 4 ]; check "pairs.csv has the three pairs" $?
"$PIPS" ladder tictacdoh --agents random,greedy,mcts:iters=200,threads=2 --games 10 --seed 5 \
    --threads 2 >"$tmp/two.txt" 2>/dev/null
cmp -s "$tmp/one.txt" "$tmp/two.txt"; check "same ratings for 1 and 2 threads" $?
"$PIPS" ladder tictacdoh --agents random --games 2 >/dev/null 2>"$tmp/err"; [ $? = 2 ] &&
    grep -q 'agents' "$tmp/err"; check "one agent is refused" $?
"$PIPS" ladder tictacdoh --agents random,nosuch --games 2 >/dev/null 2>"$tmp/err"; [ $? = 2 ] &&
    grep -q "unknown agent 'nosuch'" "$tmp/err"; check "a bad agent is named" $?
"$PIPS" ladder tictacdoh --agents random,greedy --prior -1 >/dev/null 2>&1; [ $? = 2 ]
check "a bad prior is refused" $?
# every seating equally often: 7 games a table become 12 at three seats (6
# orders of the agents) and 8 at two (2 rotations), and the output says so
"$PIPS" ladder tictacdoh --opt players=3 --agents random,greedy,mcts:iters=10 --games 7 \
    --out "$tmp/r3" >"$tmp/r3.txt" 2>/dev/null
check "a three-seat ladder runs" $?
grep -q '^# Tic Tac Doh! (players=3 stashes=1): 3 agents, 1 tables of 3 seats x 12 games' "$tmp/r3.txt" &&
    grep -q '^# 7 games a table rounded up to 12, a whole number of its 6 seatings (orders of its agents)' "$tmp/r3.txt"
check "7 games at three seats round up to 12, and it says so" $?
awk -F, 'NR > 1 && $3 != 12 { bad = 1 } END { exit bad || NR != 4 }' "$tmp/r3/pairs.csv"
check "every pair met in the 12 games" $?
"$PIPS" ladder tictacdoh --agents random,greedy --games 7 >"$tmp/r2.txt" 2>/dev/null &&
    grep -q '^# 7 games a table rounded up to 8, a whole number of its 2 seatings (rotations)' "$tmp/r2.txt"
check "7 games at two seats round up to 8" $?
! grep -q 'rounded up' "$tmp/one.txt"; check "10 games at two seats are whole seatings: no note" $?
exit $fail
