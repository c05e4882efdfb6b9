#!/usr/bin/env bash
# state.sh — `pips state`: the drawing and state text, and --json's state
# object {"game", "options", "to_move", "over", "view", "state"} for every
# game (parsed, keys and some values of each game's view checked), and a bad
# --state failing clearly with a non-zero exit.
set -u
. "$(dirname "$0")/lib/common.sh"

"$PIPS" state --help | grep -q usage; check "state --help" $?
"$PIPS" state tictacdoh --state '0,0:LM' | grep -q '^state: 0,0:LM$'
check "without --json: the drawing, then the state text" $?

# view_check NAME PYTHON-ASSERTIONS ARGS...: runs pips state ARGS --json and
# the assertions with o (the object) and v (its view) bound.
view_check() {
    local name=$1 asserts=$2
    shift 2
    "$PIPS" state "$@" --json >"$tmp/out.json" 2>"$tmp/err"
    local rc=$?
    python3 - "$tmp/out.json" "$asserts" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
assert list(o) == ["game", "options", "to_move", "over", "view", "state"], list(o)
v = o["view"]
for k in ("players", "chance", "result"):
    assert k in v, k
exec(sys.argv[2])
PY
    local py=$?
    [ $rc = 0 ] && [ $py = 0 ]
    check "state --json: $name" $?
}

view_check "tictacdoh start" '
assert o["game"] == "tictacdoh" and o["to_move"] == 0 and o["over"] is False
assert o["state"] == "-" and v["cells"] == [] and v["stash"] == {"S": 5, "M": 5, "L": 5}
' tictacdoh
view_check "tictacdoh stacks, stash and line (TTD-R3..R5)" '
assert o["over"] is True and o["to_move"] is None and v["returns"] == [1.0, 0.0]
c = {(e["x"], e["y"]): e for e in v["cells"]}
assert c[(0, 0)]["stack"] == ["L", "M"] and c[(0, 0)]["kind"] == "tree" and c[(0, 0)]["counts_as"] == "LM"
assert c[(2, 0)]["kind"] == "nest" and c[(2, 0)]["counts_as"] == "M"
assert v["stash"] == {"S": 4, "M": 2, "L": 4} and v["placed"] == 5
assert sorted(map(tuple, v["line"])) == [(0, 0), (1, 0), (2, 0)], v["line"]
' tictacdoh --state '0,0:LM 1,0:M 2,0:SM'
view_check "icefrogs 3 players: cells, starts, stacks, supplies (ICF-R1, R2)" '
assert o["options"]["players"] == "3" and v["players"] == 3 and len(v["cells"]) == 37
c = {e["name"]: e for e in v["cells"]}
assert [c[n]["start"] for n in ("a1", "g1", "g7")] == [0, 1, 2] and c["i1"]["start"] is None
assert (c["a1"]["x"], c["a1"]["row"], c["c1"]["x"], c["c7"]["x"]) == (6, 0, 0, 12)
assert c["e3"]["stack"] == [{"seat": 0, "size": "L"}, {"seat": 1, "size": "M"}, {"seat": 1, "size": "S"}]
assert v["supply"][1] == {"S": 3, "M": 4, "L": 5} and v["ply"] == 12 and o["to_move"] == 0
' icefrogs --opt players=3 --state 'b1:2S e3:1L2M2S ply=12 passes=0'
view_check "nimitz holes, stacks and store (NIM-R2, R3)" '
assert (v["rows"], v["cols"]) == (2, 3) and [c["name"] for c in v["cells"]] == ["a1", "c1", "a2", "b2", "c2"]
c = {e["name"]: e for e in v["cells"]}
assert c["a1"]["orient"] == "N" and c["a1"]["stack"] == [{"colour": "r", "size": "L"}, {"colour": "o", "size": "M"}]
assert c["c2"]["orient"] is None and v["colours"] == ["r", "o", "y"] and v["sets"] == 2
left = {e["colour"] + e["size"]: e["left"] for e in v["store"]}
assert len(left) == 9 and left["rL"] == 1 and left["oM"] == 1 and left["yS"] == 2
' nimitz --opt board='###/#.#' --opt colors=3 --opt sets=2 --state 'a1:N:rLoM'
view_check "ziggurat start: squares, stations, seats, roll (ZIG-R1, R2)" '
assert v["chance"] is True and o["to_move"] is None and v["phase"] == "roll" and v["dice"] is None
s = {e["name"]: e for e in v["squares"]}
assert len(s) == 68 and s["h0"]["start"] == "R" and s["e4"]["goal"] == "R" and s["g1"]["wall"] == "R"
assert s["e4"]["level"] == 4 and s["a1"]["level"] == 1 and s["h0"]["pile"] == [{"colour": "R", "queen": False}] * 3
assert v["seats"] == [["R"], ["B"], ["Y"], ["G"]] and v["turn_order"] == ["R", "B", "Y", "G"] and v["mover"] == "R"
' ziggurat
view_check "ziggurat two colours, dice after a roll" '
assert v["seats"] == [["R", "Y"], ["G", "B"]] and v["phase"] == "step" and o["to_move"] == 0
assert v["dice"] == {"move": 4, "action": "W", "action_name": "Wild", "move_unused": True,
    "action_unused": False, "plain_only": False, "action_rerolled": False}, v["dice"]
' ziggurat --opt players=2 --opt mode=two_colour --state 'mover=R phase=step move=4 action=W flags=M turns=0 result=- | h0:R,R,R i8:G,G,G a9:Y,Y,Y @1:B,B,B'
view_check "noname: table, layout, pads, pieces with targets (NON-R5, R17)" '
assert v["table"] == {"width": 600.0, "height": 400.0}
assert v["layout"]["base"] == {"S": 14.3, "M": 19.8, "L": 25.4} and v["layout"]["face"]["L"] == 46.3
p = {e["id"]: e for e in v["pieces"]}
assert p[2]["lying"] is True and p[2]["target"] == 1 and abs(p[2]["hit_mm"] - 187.3) < 1e-3
assert p[1]["subdued_by"] == "b" and len(p[1]["corners"]) == 4 and len(p[2]["corners"]) == 3
assert [s["colour"] for s in v["seats"]] == ["r", "b"] and v["to_move_colour"] == "r"
assert v["last_id"] == 2 and v["turn"] == 3 and v["scores"] == [0, 3]
' noname --opt table=600x400 --state 'players=2 capture_to=colour multi_attacker=colour turn_cap=300 table=600.0x400.0 first_player=1 seats r,b turn 3 to r passes 0 pads r:rS5,rM5,rL4 b:bS5,bM5,bL4 table #1 rL@300.0,300.0/U #2 bL@100.0,300.0>0.0'

# Bad input: a clear message naming --state, a non-zero exit, nothing on stdout.
out=$("$PIPS" state tictacdoh --state '0,0:QQ' --json 2>"$tmp/err"); rc=$?
[ $rc -ne 0 ] && [ -z "$out" ] && grep -q '^pips state: --state: ' "$tmp/err"
check "a bad --state fails with a message naming it" $?
"$PIPS" state nosuch --json >/dev/null 2>&1; [ $? -ne 0 ]; check "an unknown game fails" $?
"$PIPS" state tictacdoh --json --bogus >/dev/null 2>&1; [ $? -ne 0 ]; check "an unknown flag fails" $?
exit $fail
