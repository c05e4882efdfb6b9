#!/usr/bin/env bash
# terminal.sh — the terminal's second pass (issue 29): messages (one prefix,
# escaped control bytes and non-UTF-8, ranges, levels given parameters),
# `pips agents`, case-insensitive game names, `replay -`, `rules` wrapped
# with piece sizes and a docs page that exists, `pips moves` filtered and
# grouped, and levels printed with their spec in play, analyze, ladder and
# playtest.
set -u
. "$(dirname "$0")/lib/common.sh"

# Messages: control characters and bytes that are not UTF-8 come out escaped.
bad=$(printf 'x\033[31m\xffy')
"$PIPS" play "$bad" >/dev/null 2>"$tmp/err"
grep -qF "unknown game 'x\\x1b[31m\\xffy'" "$tmp/err" && ! grep -q $'\033' "$tmp/err"
st=$?; check "an escape sequence and a bad byte in input are escaped ($(cat "$tmp/err"))" $st
"$PIPS" analyze $'x\x07\xe2\x82' --state - >/dev/null 2>"$tmp/err"
grep -qF '\x07\xe2\x82' "$tmp/err"; st=$?; check "a cut UTF-8 sequence is escaped ($(cat "$tmp/err"))" $st
printf 'L@\0330,0\nquit\n' | "$PIPS" play tictacdoh --seat human --seat human >"$tmp/out" 2>&1
grep -qF "illegal: move 'L@\x1b0,0'" "$tmp/out" && ! grep -q $'\033' "$tmp/out"
check "play's 'illegal:' line escapes the typed line" $?
printf 'game tictacdoh\nplay L@\033x\n' | "$PIPS" engine >"$tmp/out" 2>&1
grep -qF "? move 'L@\x1bx'" "$tmp/out" && ! grep -q $'\033' "$tmp/out"
check "the engine's '?' replies escape the input they quote" $?
"$PIPS" analyze 'Tic Tac Doh! é' --state - >/dev/null 2>"$tmp/err"
grep -q "unknown game 'Tic Tac Doh! é'" "$tmp/err"; check "valid UTF-8 stays as it is" $?
expect_exit 2 "serve's numbers give their range" "--max-think '0': expected a whole number from 1 to 3600" \
    "$PIPS" serve --max-think 0
expect_exit 2 "solve's numbers give their range" "--ply '-1': expected a whole number from 0 to" \
    "$PIPS" solve tictacdoh --record x.json --ply -1
expect_exit 2 "seeds past 2^64-1 are refused with the range" "from 0 to 18446744073709551615" \
    "$PIPS" analyze tictacdoh --state - --seed 99999999999999999999
expect_exit 2 "--top gives its range" "expected a whole number from 1 to 1000000" \
    "$PIPS" analyze tictacdoh --state - --top 0
expect_exit 2 "--ply gives its range" "expected a whole number from 0 to" \
    "$PIPS" analyze tictacdoh --record x.json --ply -1
expect_exit 2 "a level given parameters says levels take none and names its kind" \
    "a level takes no parameters; 'hard' stands for 'mcts:iters=1000' in tictacdoh" \
    "$PIPS" analyze tictacdoh --state - --agent hard:depth=3
expect_exit 2 "an unknown agent lists oracle among the kinds" "mcts, oracle, brs; levels" \
    "$PIPS" analyze tictacdoh --state - --agent nosuch
for cmd in "play nosuch" "rules nosuch" "analyze nosuch --state -" "ladder nosuch --agents a,b" \
    "moves nosuch"; do
    # shellcheck disable=SC2086
    "$PIPS" $cmd </dev/null >/dev/null 2>"$tmp/err"
    ! grep -q 'pips[^:]*: pips' "$tmp/err" && [ "$(grep -c 'pips' "$tmp/err")" -ge 1 ]
    st=$?; check "one 'pips' prefix: pips $cmd ($(head -n 1 "$tmp/err"))" $st
done

# pips agents: every kind with its parameters, levels with their specs.
"$PIPS" agents >"$tmp/agents" 2>&1; check "pips agents exits 0" $?
# every kind docs/ai.md's table describes (| `kind` | parameters |)
kinds=$(sed -n 's/^| `\([a-z]*\)` | .*/\1/p' "$SRC/docs/ai.md" | sort -u)
[ "$(echo $kinds | wc -w)" -ge 7 ]; st=$?; check "docs/ai.md names the kinds ($(echo $kinds))" $st
for kind in $kinds; do
    grep -q "^$kind: " "$tmp/agents"; check "pips agents lists $kind" $?
done
grep -q 'fallback=SPEC' "$tmp/agents" && grep -q 'iters=N (1000)' "$tmp/agents"
check "with its parameters and defaults" $?
grep -q '^    hard (mcts:iters=1000)$' "$tmp/agents"; check "levels with their spec" $?
"$PIPS" agents ZIGGURAT --opt players=2 | grep -q '^  ziggurat:$'
check "pips agents GAME --opt: that game only" $?

# Game names are case-insensitive; the canonical name is what is stored.
"$PIPS" state TicTacDoh --json | grep -q '"game":"tictacdoh"'; check "TicTacDoh is tictacdoh" $?
"$PIPS" perft NIMITZ 1 2>/dev/null | tail -n 1 | grep -qx 675; check "NIMITZ is nimitz" $?

# replay - reads the record on stdin.
"$PIPS" play tictacdoh --seat random --seat random --seed 4 --record "$tmp/g.json" \
    </dev/null >"$tmp/play.out" 2>&1
"$PIPS" replay - <"$tmp/g.json" >"$tmp/replay.out"; check "replay - exits 0" $?
[ "$(grep '^result:' "$tmp/play.out")" = "$(grep '^result:' "$tmp/replay.out")" ]
check "replay - reaches the game's result" $?
echo '{' | "$PIPS" replay - >/dev/null 2>"$tmp/err"; [ $? = 1 ] && grep -q 'invalid JSON' "$tmp/err"
st=$?; check "replay - names a bad record ($(cat "$tmp/err"))" $st

# rules: 80 columns off a terminal, the pieces in mm, a docs page that exists.
for g in tictacdoh icefrogs ziggurat noname nimitz; do
    "$PIPS" rules $g >"$tmp/rules"
    long=$(awk 'length($0) > 80' "$tmp/rules" | wc -l)
    page=$(tail -n 2 "$tmp/rules" | tr '\n' ' ' | grep -o '/[^ ]*\.md')
    [ "$long" = 0 ] && grep -q 'small S 14.3 x 25.4 mm' "$tmp/rules" && [ -f "$page" ]
    check "rules $g: no line past 80 columns ($long), sizes in mm, its page $page exists" $?
done
grep -q '^NIM-R4 Neighbours' <("$PIPS" rules nimitz); check "a ruling still opens its paragraph" $?

# pips moves: filtered and grouped (Nimitz by piece, then cell with poses).
"$PIPS" moves nimitz >"$tmp/moves"
head -n 1 "$tmp/moves" | grep -q '^# Nimitz, seat 1 to move: 675 legal moves$'
check "moves: the heading counts all 675" $?
grep -q '^rL (45): a1:U,N,E,S,W b1:U,N,E,S,W' "$tmp/moves"; check "grouped by piece and cell" $?
"$PIPS" moves nimitz --filter 'rL@b2' >"$tmp/moves"
head -n 1 "$tmp/moves" | grep -q "675 legal moves, 5 with 'rL@b2'" &&
    [ "$(sed -n 2p "$tmp/moves")" = "rL (5): b2:U,N,E,S,W" ]
check "--filter keeps the matching moves" $?
[ "$("$PIPS" moves nimitz --flat | wc -l)" = 675 ]; check "--flat: one move a line" $?
"$PIPS" moves nimitz --state 'b2:U:rL' --flat --filter oM@b2 | grep -qx 'oM@b2:U'
check "from --state: a piece on a stack" $?
"$PIPS" moves noname | head -n 1 | grep -q 'suggested moves'; check "noname's moves are suggestions" $?
mv=$("$PIPS" moves noname --flat | tail -n 1)
printf '%s\nstate\nquit\n' "$mv" | "$PIPS" play noname --seat human --seat human >"$tmp/nn" 2>&1
! grep -q illegal "$tmp/nn" && grep -q "#1 " "$tmp/nn"
check "noname's listed moves keep their notation ($mv plays)" $?
expect_exit 2 "moves: a bad --state" "--state" "$PIPS" moves nimitz --state 'zz'

# Levels print with their spec: play, analyze, ladder, playtest.
"$PIPS" play tictacdoh --seat easy --seat medium --seed 1 </dev/null >"$tmp/p.out"
grep -q '^1\. seat 1 (easy (mcts:iters=200)): ' "$tmp/p.out" &&
    grep -q '^2\. seat 2 (medium (greedy)): ' "$tmp/p.out"
check "play numbers moves as records and names levels with their spec" $?
"$PIPS" analyze tictacdoh --state - --agent hard | head -n 1 | grep -q 'agent hard (mcts:iters=1000)'
check "analyze names the level with its spec" $?
"$PIPS" analyze tictacdoh --record "$tmp/g.json" --ply 2 --agent medium | head -n 1 |
    grep -q '^# Tic Tac Doh!, move 3: seat 1 to move, agent medium (greedy)'
check "analyze from a record numbers the move to play as records do" $?
"$PIPS" ladder tictacdoh --agents random,easy --games 2 2>/dev/null | grep -q ' easy (mcts:iters=200)$'
check "ladder names the level with its spec" $?
"$PIPS" playtest tictacdoh --seats easy,random --games 2 2>/dev/null | grep -q 'easy (mcts:iters=200)'
check "playtest names the level with its spec" $?

finish
