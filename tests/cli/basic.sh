#!/usr/bin/env bash
# basic.sh — the `pips` command's manners and subcommands, end to end:
# exit codes, last-line contracts, records and their validation.
set -u
. "$(dirname "$0")/lib/common.sh"

"$PIPS" --help >/dev/null; check "pips --help exits 0" $?
"$PIPS" nosuch >/dev/null 2>&1; [ $? -ne 0 ]; check "unknown command fails" $?
for cmd in list rules play replay perft solve bench; do
    "$PIPS" $cmd --help | grep -q usage; check "$cmd --help" $?
done
"$PIPS" list | grep -q '^tictacdoh'; check "list shows tictacdoh" $?
"$PIPS" rules tictacdoh | grep -q 'TTD-R7'; check "rules cite ruling ids" $?
# The option schema: every option of every game has a type, a default that
# passes its own type, and a description.
"$PIPS" list --json >"$tmp/schema.json"; check "list --json exits 0" $?
python3 - "$tmp/schema.json" <<'PY'
import json, re, sys
doc = json.load(open(sys.argv[1]))
names = [g["name"] for g in doc["games"]]
assert names and len(names) == len(set(names)), names
for g in doc["games"]:
    for o in g["options"]:
        where = g["name"] + " " + o["key"]
        assert o["type"] in ("int", "bool", "choice", "text"), where
        assert isinstance(o["default"], str) and o["description"], where
        d = o["default"]
        if o["type"] == "int":
            assert d in o.get("words", []) or o["min"] <= int(d) <= o["max"], where
        elif o["type"] == "bool":
            assert d in ("true", "false"), where
        elif o["type"] == "choice":
            assert d in o["choices"], where
        else:
            assert o["pattern"], where
PY
check "list --json: type, default, description for every option" $?
"$PIPS" list --bogus >/dev/null 2>&1; [ $? -ne 0 ]; check "list rejects an unknown flag" $?
# The experimental player counts (TTD-R8, ICF-R10): the generic solver refuses more than two.
msg=$("$PIPS" solve tictacdoh --opt players=3 2>&1 >/dev/null); rc=$?
[ $rc -ne 0 ] && echo "$msg" | grep -q "exactly 2 players"; check "solve refuses 3-player Tic Tac Doh! ($msg)" $?
[ "$("$PIPS" perft icefrogs 6 --opt players=6 2>/dev/null | tail -n 1)" = 46656 ]
check "icefrogs players=6 perft(6)" $?
"$PIPS" rules nosuch >/dev/null 2>&1; [ $? -ne 0 ]; check "rules of unknown game fails" $?

[ "$("$PIPS" perft tictacdoh 3 2>/dev/null | tail -n 1)" = 2666 ]; check "perft last line is the count" $?
sum=$("$PIPS" perft tictacdoh 3 --divide 2>/dev/null | sed '$d' | awk -F': ' '{s+=$2} END {print s}')
[ "$sum" = 2666 ]; check "divide sums to perft" $?
"$PIPS" perft tictacdoh x >/dev/null 2>&1; [ $? -ne 0 ]; check "perft rejects a bad depth" $?
err=$("$PIPS" perft tictacdoh 2 --opt colour=red 2>&1 >/dev/null); [ $? -ne 0 ] && echo "$err" | grep -q "colour"
check "perft rejects an unknown option by name" $?

"$PIPS" play tictacdoh --seat random --seat random --seed 5 --record "$tmp/g.json" </dev/null >"$tmp/play.out"
check "a game with no human seat plays itself" $?
grep -q 'result: ' "$tmp/play.out"; check "play prints the result" $?
"$PIPS" replay "$tmp/g.json" >"$tmp/replay.out"; check "replay accepts its own record" $?
[ "$(grep 'result:' "$tmp/play.out")" = "$(grep 'result:' "$tmp/replay.out")" ]; check "replay reaches the same result" $?
"$PIPS" play tictacdoh --seat random --seat random --seed 5 --record "$tmp/g2.json" </dev/null >/dev/null
cmp -s <(grep -v '"started"\|"finished"' "$tmp/g.json") <(grep -v '"started"\|"finished"' "$tmp/g2.json")
check "the same seed plays the same game" $?

# Corrupt the third move: replay must fail and name it.
python3 - "$tmp/g.json" "$tmp/bad.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["moves"][2] = "L@2,2"
json.dump(r, open(sys.argv[2], "w"))
PY
msg=$("$PIPS" replay "$tmp/bad.json" 2>&1 >/dev/null); rc=$?
[ $rc -ne 0 ] && echo "$msg" | grep -q "move 3"; check "replay names the first bad move ($msg)" $?
"$PIPS" replay "$tmp/missing.json" >/dev/null 2>&1; [ $? -ne 0 ]; check "replay of a missing file fails" $?

# A human game over stdin: an illegal move is refused, then undo and hint work.
printf 'M@2,2\nL@0,0\nundo\nS@0,0\nmoves\nquit\n' | "$PIPS" play tictacdoh --seat human --seat random >"$tmp/human.out"
grep -q 'illegal: ' "$tmp/human.out"; check "play refuses an illegal move" $?
grep -q 'legal moves' "$tmp/human.out"; check "play lists legal moves" $?

printf 'suggest\nrS@100,100/U\nquit\n' | "$PIPS" play noname --seat human --seat random >"$tmp/noname.out"
grep -q 'suggested moves' "$tmp/noname.out" && grep -q '(random): ' "$tmp/noname.out"
check "noname in the terminal: suggest, then a typed placement" $?
for g in nimitz icefrogs ziggurat noname; do
    opt=(); [ $g = ziggurat ] && opt=(--opt players=2 --opt max_turns=200)
    "$PIPS" play $g "${opt[@]}" --seat random --seat random --seed 3 --record "$tmp/$g.json" </dev/null >/dev/null
    check "$g plays itself to the end" $?
    "$PIPS" replay "$tmp/$g.json" >/dev/null; check "$g record replays" $?
done
[ "$("$PIPS" perft nimitz 2 2>/dev/null | tail -n 1)" = 312300 ]; check "nimitz perft(2) from the rulings" $?
[ "$("$PIPS" perft icefrogs 3 --opt players=3 2>/dev/null | tail -n 1)" = 216 ]; check "icefrogs 3-player perft(3)" $?
[ "$("$PIPS" perft ziggurat 1 2>/dev/null | tail -n 1)" = 64 ]; check "ziggurat perft(1) = opening-roll outcomes" $?
"$PIPS" perft noname 1 >/dev/null 2>&1; [ $? -ne 0 ]; check "perft refuses a continuous game" $?
[ "$("$PIPS" solve nimitz --opt board=1x3 --opt colors=3 2>/dev/null | tail -n 1)" = win ]; check "solve a small nimitz" $?
"$PIPS" solve ziggurat >/dev/null 2>&1; [ $? -ne 0 ]; check "solve refuses a game with chance" $?
[ "$("$PIPS" solve tictacdoh 2>/dev/null | tail -n 1)" = draw ]; check "solve: Tic Tac Doh! is a draw" $?
"$PIPS" bench tictacdoh | tail -n 1 | grep -q '^total nodes: [0-9]'; check "bench prints a total" $?
exit $fail
