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
exit $fail
