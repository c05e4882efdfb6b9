#!/usr/bin/env bash
# ai.sh — `pips analyze`, `pips playtest` and AI seats in `pips play`, end to
# end: forced wins found, reports identical across thread counts, records
# that replay, clear errors for bad specs.
set -u
. "$(dirname "$0")/lib/common.sh"

# X to move completes M, tree(L,M), M: the best move must be an immediate win.
best=$("$PIPS" analyze tictacdoh --state '0,0:LM 1,0:M 1,1:S' --agent alphabeta:depth=3 2>/dev/null | tail -n 1)
[ -n "$best" ]; check "analyze prints a best move ($best)" $?
top=$("$PIPS" analyze tictacdoh --state '0,0:LM 1,0:M 1,1:S' --agent alphabeta:depth=3 --top 1 2>/dev/null | grep '^1 ')
awk '{ exit !($3 == "win") }' <<<"$top"; check "the best move is a proven win ($top)" $?
# MCTS lists by value with its visits beside: values never rise down the list
"$PIPS" analyze tictacdoh --state '0,0:L' --agent mcts:iters=2000 --seed 2 2>/dev/null |
    awk '/^[0-9]+ / && NF == 4 { x = $3 == "win" ? 1 : $3 == "loss" ? 0 : $3 == "draw" ? 0.5 : $3 + 0
                                 if (n++ && x > last + 1e-9) bad = 1; last = x; v += $4 }
         END { exit bad || n < 2 || v != 2000 }'
check "mcts analysis sorted by value, visits sum to the budget" $?
"$PIPS" analyze tictacdoh --state 'bogus' >/dev/null 2>&1; [ $? -ne 0 ]; check "analyze rejects a bad state" $?
# mcts draws=8 on Noname (moves sampled 16 at a time) ranks every merged root
# move: more than the 32 rows an analysis was once cut to.
"$PIPS" playtest noname --seats greedy,greedy --games 1 --seed 1 --exact-seconds 0 --out "$tmp/nn" --records >/dev/null 2>&1
rows=$("$PIPS" analyze noname --record "$tmp/nn/records/A-000001.json" --ply 4 --agent mcts:iters=300,draws=8 2>/dev/null | grep -c '^[0-9]')
[ "$rows" -gt 32 ]; check "analyze lists every root move of draws=8 ($rows rows)" $?
"$PIPS" analyze tictacdoh --state '-' --agent nosuch >/dev/null 2>&1; [ $? -ne 0 ]; check "analyze rejects an unknown agent" $?

# Same seed, same report, whatever --threads (timing aside).
"$PIPS" playtest tictacdoh --seats greedy,mcts:iters=200 --games 12 --seed 3 --exact-seconds 0 --threads 1 --out "$tmp/a" --records >/dev/null 2>&1
check "playtest runs (1 thread)" $?
"$PIPS" playtest tictacdoh --seats greedy,mcts:iters=200 --games 12 --seed 3 --exact-seconds 0 --threads 2 --out "$tmp/b" >/dev/null 2>&1
check "playtest runs (2 threads)" $?
strip() { python3 -c 'import json,sys
def clean(v):
    if isinstance(v, dict):
        return {k: clean(x) for k, x in v.items() if "time" not in k and "second" not in k and "rate" not in k and k not in ("threads", "run")}
    if isinstance(v, list):
        return [clean(x) for x in v]
    return v
print(json.dumps(clean(json.load(open(sys.argv[1]))), sort_keys=True))' "$1"; }
[ "$(strip "$tmp/a/report.json")" = "$(strip "$tmp/b/report.json")" ]; check "report identical for 1 and 2 threads" $?
for f in report.md seats.svg lengths.svg; do [ -s "$tmp/a/$f" ]; check "playtest wrote $f" $?; done
n=$(ls "$tmp/a/records" | wc -l); [ "$n" = 12 ]; check "one record per game ($n)" $?
"$PIPS" replay "$(ls "$tmp/a/records"/* | head -n 1)" >/dev/null; check "a playtest record replays" $?
"$PIPS" playtest tictacdoh --seats greedy,random,greedy --games 2 >/dev/null 2>&1; [ $? -ne 0 ]; check "playtest needs one agent per seat (or one for all)" $?

# A variant comparison and a game with chance.
"$PIPS" playtest ziggurat --opt players=2 --opt max_turns=60 --seats random,greedy --games 4 --seed 1 \
    --vs-opt move_die=d6 >"$tmp/zig.md" 2>/dev/null
check "playtest --vs-opt on Ziggurat" $?
grep -q 'move_die' "$tmp/zig.md"; check "the comparison names the variant" $?

# AI seats in play, and hint.
"$PIPS" play nimitz --opt board=2x2 --opt colors=2 --seat greedy --seat mcts:iters=100 --seed 2 </dev/null | grep -q 'result: '
check "play with AI seats only runs to the end" $?
printf 'hint\nquit\n' | "$PIPS" play tictacdoh --seat human --seat random >"$tmp/hint.out"
grep -q '^seat 1> hint from hard (mcts:iters=[0-9]*), best first:$' "$tmp/hint.out" &&
    grep -Eq '^  [LMS]@-?[0-9]+,-?[0-9]+ (0\.[0-9]+|1\.0000|win|loss|draw)$' "$tmp/hint.out"
check "hint names its agent with the level's spec and lists moves with values" $?
grep -q "^(value: what the move is worth to the seat playing it, its expected return: 0 a loss, 1 a win" "$tmp/hint.out"
check "hint says what its values are" $?

# A seat spec longer than 63 characters once normalised (seats held no more
# once, refused at game 1) plays, and the records keep it whole; one too long
# or bad is refused before any game, naming the seat and the spec.
long='oracle:time=1,positions=100000,threads=1,fallback=mcts:iters=300'
norm='oracle:time=1,positions=100000,table_mb=256,threads=1,fallback=mcts:iters=300'
"$PIPS" playtest tictacdoh --seats "$long",random --games 2 --seed 1 --exact-seconds 0 \
    --records --out "$tmp/long" >/dev/null 2>"$tmp/long.err"
check "playtest plays a seat spec of ${#norm} characters" $?
python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["seats"] != [sys.argv[2], "random"])' \
    "$tmp/long/records/A-000001.json" "$norm" &&
    "$PIPS" replay "$tmp/long/records/A-000001.json" >/dev/null
check "its record names the spec whole and replays" $?
# fallback= comes last and takes the rest of the spec: a fallback with its
# own parameters plays and reads back; a bad one is refused before any game.
nested='oracle:positions=2000,book=0,fallback=mcts:iters=300,opp=greedy'
"$PIPS" playtest tictacdoh --seats "$nested",random --games 2 --seed 1 --exact-seconds 0 \
    --records --out "$tmp/nested" >/dev/null 2>&1 &&
    python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["seats"][0] != sys.argv[2])' \
        "$tmp/nested/records/A-000001.json" \
        'oracle:positions=2000,table_mb=256,threads=1,book=0,fallback=mcts:iters=300,opp=greedy'
check "an oracle whose fallback has two parameters plays and its record keeps both" $?
expect_exit 2 "a bad fallback is refused before any game, naming it" \
    "^pips playtest: seat 1: agent .*oracle fallback 'mcts:iters=300,bogus=1' (fallback= comes last" \
    "$PIPS" playtest tictacdoh --seats oracle:fallback=mcts:iters=300,bogus=1,random --games 2 \
    --out "$tmp/bad_fallback"
[ ! -e "$tmp/bad_fallback" ]; check "nothing written for the refused fallback" $?
too_long="mcts:iters=10$(printf ',c=1%.0s' $(seq 1 70))"
expect_exit 2 "a spec over 255 characters is refused before any game, naming seat and spec" \
    "^pips playtest: seat 2: agent 'mcts:iters=10,c=1,c=1.*longer than 255 characters" \
    "$PIPS" playtest tictacdoh --seats random,"$too_long" --games 2 --out "$tmp/too_long"
[ ! -e "$tmp/too_long" ]; check "nothing written for the refused spec" $?
expect_exit 2 "a bad spec is refused before any game, naming seat and spec" \
    "^pips playtest: seat 2: agent 'mcts:iters=10,cc=1': mcts: unknown parameter 'cc'" \
    "$PIPS" playtest tictacdoh --seats random,mcts:iters=10,cc=1 --games 2
expect_exit 2 "pips play names the seat and the start of a spec too long for it" \
    "seat 2: 'mcts:iters=10,c=1,.*' is longer than 255 characters" \
    "$PIPS" play tictacdoh --seat random --seat "$too_long"

exit $fail
