#!/usr/bin/env bash
# lua.sh — rule scripts and Lua games from the command line (docs/lua.md):
# --rules on perft, play, state and playtest (a sweep over scripts), a Lua
# game through perft, play, solve, list and rules, a broken script exiting 1
# with file, line, function and ply, and replay from the record's copy of
# the script with a warning when the file on disk differs.
set -u
PIPS=$1 SRC=$2
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { # check NAME CONDITION-RESULT
    if [ "$2" != 0 ]; then echo "FAIL: $1"; fail=1; else echo "ok: $1"; fi
}
NOJUMP=$SRC/examples/rules/icefrogs-no-jump-on-entry.lua
SMALL=$SRC/examples/rules/tictacdoh-small-first.lua
TTD=$SRC/examples/games/tictacdoh.lua
OVERTOP=$SRC/examples/games/overtop.lua

# ICF-R3, ICF-R5: 360 sequences of 3 plies become 288 without entering jumps
[ "$("$PIPS" perft icefrogs 3 | tail -n 1)" = 360 ]; check "plain perft 3" $?
[ "$("$PIPS" perft icefrogs 3 --rules "$NOJUMP" | tail -n 1)" = 288 ]; check "--rules perft 3" $?
[ "$("$PIPS" perft icefrogs 3 --opt rules="$NOJUMP" | tail -n 1)" = 288 ]
check "the option rules= is the same" $?
[ "$("$PIPS" perft tictacdoh 1 --rules "$SMALL" --divide | head -n 1)" = "S@0,0: 1" ]
check "--divide under a script" $?
"$PIPS" state tictacdoh --rules "$SMALL" --json | grep -q '"rules":"'
check "state --json names the script among the options" $?

# a Lua game through the tools
[ "$("$PIPS" perft "$TTD" 4 | tail -n 1)" = "$("$PIPS" perft tictacdoh 4 | tail -n 1)" ]
check "Lua Tic Tac Doh! perft 4 equals C" $?
"$PIPS" play "$OVERTOP" --seat random --seat greedy --record "$tmp/o.json" >"$tmp/out" 2>&1
check "play a Lua game with agents" $?
grep -q '"sha256"' "$tmp/o.json"; check "the record carries the script" $?
[ "$("$PIPS" solve "$OVERTOP" --opt cells=3 | tail -n 1)" = win ]; check "solve Overtop, 3 cells" $?
"$PIPS" list "$OVERTOP" | grep -q "cover the other player"; check "list shows the description" $?
"$PIPS" list --json "$OVERTOP" | grep -q '"key":"cells"'; check "list --json gives the schema" $?
"$PIPS" rules "$TTD" | grep -q "TTD-R1"; check "rules of a Lua game" $?

# a broken script: exit 1, file, line, function and ply
cat >"$tmp/broken.lua" <<'LUA'
description = "fails when asked about the second ply"
function legal(state, move)
  if state.view.placed == 1 then error("no second piece") end
  return true
end
LUA
"$PIPS" play tictacdoh --rules "$tmp/broken.lua" --seat random --seat random >/dev/null 2>"$tmp/err"
[ $? = 1 ]; check "a failing script exits 1" $?
grep -q "ply 2: .*broken.lua:3: in function 'legal': .*no second piece" "$tmp/err"
rc=$?
check "the message names ply, file, line and function: $(cat "$tmp/err")" $rc
"$PIPS" perft tictacdoh 3 --rules "$tmp/broken.lua" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q "broken.lua:3: in function 'legal'" "$tmp/err"
check "perft stops on a failing script with exit 1 (got $rc)" $?
printf 'while true do end\n' >"$tmp/loop.lua"
"$PIPS" perft tictacdoh 2 --rules "$tmp/loop.lua" --lua-steps 10000 >/dev/null 2>"$tmp/err"
[ $? != 0 ] && grep -q "instruction limit reached (10000 steps" "$tmp/err"
check "an endless loop at load time stops" $?
"$PIPS" perft tictacdoh 2 --rules "$tmp/nosuch.lua" >/dev/null 2>"$tmp/err"
[ $? != 0 ] && grep -q "nosuch.lua" "$tmp/err"; check "a missing script is an error" $?

# playtest sweeps over scripts; a failing script names the game and its seed
"$PIPS" playtest tictacdoh --seats random --games 20 --vary "rules=none,$SMALL" \
    --out "$tmp/sweep" >/dev/null 2>&1
check "playtest --vary rules=none,FILE" $?
grep -q "tictacdoh-small-first.lua" "$tmp/sweep/report.md"; check "the report names the script" $?
"$PIPS" playtest tictacdoh --seats random --games 5 --rules "$tmp/broken.lua" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q "game 1 (seed [0-9]*): ply 2: .*no second piece" "$tmp/err"
rc=$?
check "playtest stops at the failing game with its seed: $(cat "$tmp/err")" $rc
# a script failing in a later game: the partial report of the games before it
cat >"$tmp/late.lua" <<'LUA'
function legal(state, move)
  if move == "S@2,2" then error("no corner") end
  return true
end
LUA
"$PIPS" playtest tictacdoh --seats random --games 50 --rules "$tmp/late.lua" \
    --out "$tmp/late" >"$tmp/late.md" 2>"$tmp/err"
rc=$?
[ $rc = 1 ]; check "a playtest whose script fails mid-run exits 1 (got $rc)" $?
grep -q "game 7 (seed 13064056694810536063): ply 3: .*late.lua:2: in function 'legal': no corner" \
    "$tmp/err"
rc=$?
check "it names the game and its seed: $(cat "$tmp/err")" $rc
grep -q '"partial": *true' "$tmp/late/report.json"; check "report.json says partial" $?
grep -q '"failure": *"game 7 (seed' "$tmp/late/report.json"; check "report.json names the failure" $?
grep -q "stopped after 6 of its 50 games because a script failed" "$tmp/late.md"
check "the report covers the six games before it" $?
[ ! -e "$tmp/late/state.json" ]; check "no state to resume a failed run" $?

# skill depth under a rule script and of a Lua game
"$PIPS" skill tictacdoh --rules "$SMALL" --agent mcts --budgets 5,50 --games 4 >"$tmp/sk" 2>&1
rc=$?
[ $rc = 0 ] && grep -q "^5 50 4 " "$tmp/sk" && grep -q "tictacdoh-small-first.lua" "$tmp/sk"
check "skill --rules FILE.lua (got $rc)" $?
"$PIPS" skill "$OVERTOP" --agent mcts --budgets 5,50 --games 4 >"$tmp/sk" 2>&1
rc=$?
[ $rc = 0 ] && grep -q "^# Overtop" "$tmp/sk" && grep -q "^5 50 4 " "$tmp/sk"
check "skill of a Lua game (got $rc)" $?
"$PIPS" skill tictacdoh --rules "$tmp/late.lua" --agent mcts --budgets 5,50 --games 20 \
    >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q "late.lua:2: in function 'legal': no corner" "$tmp/err"
check "skill stops with exit 1 when the script fails (got $rc)" $?

# replay runs the record's copy; a changed file on disk is reported
cp "$SMALL" "$tmp/small.lua"
"$PIPS" play tictacdoh --rules "$tmp/small.lua" --seat random --seat random \
    --record "$tmp/r.json" >/dev/null 2>&1
"$PIPS" replay "$tmp/r.json" </dev/null >"$tmp/a" 2>"$tmp/err"
check "replay" $?
[ ! -s "$tmp/err" ]; check "no warning while the file is the same" $?
echo "function legal() return false end" >"$tmp/small.lua"
"$PIPS" replay "$tmp/r.json" </dev/null >"$tmp/b" 2>"$tmp/err"
check "replay after the file changed" $?
grep -q "differs from the record's copy" "$tmp/err"; check "warns about the changed file" $?
cmp -s "$tmp/a" "$tmp/b"; check "and replays the same game" $?
exit $fail
