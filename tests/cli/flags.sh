#!/usr/bin/env bash
# flags.sh — the commands that read their flags from a table
# (cli_parse_flags: skill, ladder, playtest, moves, state, agents, solve,
# analyze, play, serve, perft): each bad
# flag is refused with exit 2, the same message in each command, before any
# game is played; and the flags still reach the run.
set -u
. "$(dirname "$0")/lib/common.sh"

# the command lines each needs besides the flag under test
base() {
    case $1 in
    skill) echo "skill tictacdoh --agent mcts --budgets 2,4" ;;
    ladder) echo "ladder tictacdoh --agents random,greedy" ;;
    playtest) echo "playtest tictacdoh --seats random" ;;
    esac
}
opts17=""
for k in $(seq 17); do opts17="$opts17 --opt max_turns=$k"; done
for cmd in skill ladder playtest; do
    b=$(base $cmd)
    # shellcheck disable=SC2086
    {
        expect_exit 2 "$cmd: a flag missing its value" \
            "^pips $cmd: unknown flag '--games' (or a missing value)" "$PIPS" $b --games
        expect_exit 2 "$cmd: a bad --seed" "^pips $cmd: --seed 'x': expected a whole number from 0" \
            "$PIPS" $b --seed x
        expect_exit 2 "$cmd: a bad --threads" \
            "^pips $cmd: --threads '65': expected a whole number from 1 to 64" "$PIPS" $b --threads 65
        expect_exit 2 "$cmd: --opt without KEY=VALUE" "^pips $cmd: --opt needs KEY=VALUE" \
            "$PIPS" $b --opt
        expect_exit 2 "$cmd: a second GAME" "^pips $cmd: unexpected argument 'nimitz'" \
            "$PIPS" $b nimitz
        expect_exit 2 "$cmd: a misspelt flag" "^pips $cmd: unknown flag '--seeds'" \
            "$PIPS" $b --seeds 3
    }
done
# shellcheck disable=SC2086
{
    expect_exit 2 "skill: too many --opt" "^pips skill: too many --opt (at most 16)" \
        "$PIPS" $(base skill) $opts17
    expect_exit 2 "ladder: too many --opt" "^pips ladder: too many --opt (at most 16)" \
        "$PIPS" $(base ladder) $opts17
    expect_exit 2 "skill: a bad --exact-seconds" \
        "^pips skill: --exact-seconds '-1': expected seconds from 0 (off) to 86400" \
        "$PIPS" $(base skill) --exact-seconds -1
    expect_exit 2 "ladder: a bad --prior" \
        "^pips ladder: --prior '2000': expected a number of games in 0..1000" \
        "$PIPS" $(base ladder) --prior 2000
    expect_exit 2 "playtest: a bad --drama" "^pips playtest: --drama 'maybe': expected on or off" \
        "$PIPS" $(base playtest) --drama maybe
    expect_exit 2 "playtest: a bad --seatings" \
        "^pips playtest: --seatings 'some': expected rotate, all or fixed" \
        "$PIPS" $(base playtest) --seatings some
    expect_exit 2 "playtest: a bad --threshold" \
        "^pips playtest: --threshold '0.5': expected a number between 0.5 and 1" \
        "$PIPS" $(base playtest) --threshold 0.5
    expect_exit 2 "playtest: --vary without its values" "^pips playtest: --vary needs KEY=V1,V2,..." \
        "$PIPS" $(base playtest) --vary
    expect_exit 2 "playtest: --vs-opt without KEY=VALUE" "^pips playtest: --vs-opt needs KEY=VALUE" \
        "$PIPS" $(base playtest) --vs-opt
}

# the position commands read theirs the same way
for cmd in "moves tictacdoh" "state tictacdoh" "agents tictacdoh"; do
    name=${cmd%% *}
    # shellcheck disable=SC2086
    {
        expect_exit 2 "$name: --opt without KEY=VALUE" "^pips $name: --opt needs KEY=VALUE" \
            "$PIPS" $cmd --opt
        expect_exit 2 "$name: too many --opt" "^pips $name: too many --opt (at most 16)" \
            "$PIPS" $cmd $opts17
        expect_exit 2 "$name: a second GAME" "^pips $name: unexpected argument 'nimitz'" \
            "$PIPS" $cmd nimitz
    }
done
for cmd in moves state; do
    expect_exit 2 "$cmd: --state missing its value" \
        "^pips $cmd: unknown flag '--state' (or a missing value)" "$PIPS" $cmd tictacdoh --state
done
# (the start has three moves up to symmetry: S@0,0 M@0,0 L@0,0)
"$PIPS" moves tictacdoh --flat --filter L@ >"$tmp/moves.txt" 2>&1
[ "$(cat "$tmp/moves.txt")" = "L@0,0" ]; st=$?
check "moves: --flat and --filter reach it ($(head -c 80 "$tmp/moves.txt"))" $st
"$PIPS" state tictacdoh --json --state "0,0:L" >"$tmp/state.json" 2>&1
/usr/bin/python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/state.json"
check "state: --json and --state reach it" $?

# solve, analyze, play, serve and perft read theirs from tables too: the same
# messages for a missing value, a bad one, a list without its value or past
# its cap, and an argument too many
opts33=""
for k in $(seq 33); do opts33="$opts33 --opt max_turns=$k"; done
for cmd in "solve tictacdoh" "analyze tictacdoh --state -" "play tictacdoh" "perft tictacdoh 1"; do
    name=${cmd%% *}
    many=$opts17
    [ "$name" = analyze ] && many=$opts33 # analyze keeps room for 32
    # shellcheck disable=SC2086
    {
        expect_exit 2 "$name: --opt without KEY=VALUE" "^pips $name: --opt needs KEY=VALUE" \
            "$PIPS" $cmd --opt
        expect_exit 2 "$name: too many --opt" "^pips $name: too many --opt (at most" \
            "$PIPS" $cmd $many
        expect_exit 2 "$name: an argument too many" "^pips $name: unexpected argument 'extra'" \
            "$PIPS" $cmd extra
    }
done
expect_exit 2 "solve: a flag missing its value" \
    "^pips solve: unknown flag '--threads' (or a missing value)" "$PIPS" solve tictacdoh --threads
expect_exit 2 "solve: a bad --time" "^pips solve: --time '0': expected a number of seconds > 0" \
    "$PIPS" solve tictacdoh --time 0
expect_exit 2 "solve: a bad --table-mb" \
    "^pips solve: --table-mb '0': expected a whole number from 1 to 1048576" \
    "$PIPS" solve tictacdoh --table-mb 0
expect_exit 2 "solve: a bad --ply" "^pips solve: --ply 'x': expected a whole number from 0" \
    "$PIPS" solve tictacdoh --record r.json --ply x
expect_exit 2 "analyze: a bad --seed" "^pips analyze: --seed 'x': expected a whole number from 0" \
    "$PIPS" analyze tictacdoh --state - --seed x
expect_exit 2 "analyze: a flag missing its value" \
    "^pips analyze: unknown flag '--agent' (or a missing value)" "$PIPS" analyze tictacdoh --agent
expect_exit 2 "play: --seat without its value" "^pips play: --seat needs human or an agent spec" \
    "$PIPS" play tictacdoh --seat
expect_exit 2 "play: more --seat than a game has" "^pips play: too many --seat (at most 8)" \
    "$PIPS" play tictacdoh $(printf -- '--seat random %.0s' $(seq 9))
expect_exit 2 "play: a bad --seed" "^pips play: --seed 'x': expected a whole number from 0" \
    "$PIPS" play tictacdoh --seed x
expect_exit 2 "serve: a bad --sync" "^pips serve: --sync 'sometimes': expected full or normal" \
    "$PIPS" serve --sync sometimes
expect_exit 2 "serve: a flag missing its value" \
    "^pips serve: unknown flag '--db' (or a missing value)" "$PIPS" serve --db
expect_exit 2 "serve: an operand" "^pips serve: unexpected argument 'extra'" "$PIPS" serve extra
expect_exit 2 "serve: a bad --per-ip-connections" \
    "^pips serve: --per-ip-connections '4001': expected a whole number from 0 to 4000" \
    "$PIPS" serve --per-ip-connections 4001
# and the flags reach the work
"$PIPS" solve nimitz --opt board=2x2 --opt colors=2 --threads 1 --table-mb 16 \
    >"$tmp/solve.txt" 2>&1 && [ "$(tail -n 1 "$tmp/solve.txt")" = loss ]
check "solve: --opt, --threads and --table-mb reach it (2x2 Nimitz, 2 colours: a loss)" $?
"$PIPS" solve tictacdoh --state '0,0:LM 1,0:M 1,1:S' --best --threads 1 >"$tmp/best.txt" 2>&1 &&
    grep -q '^winning move: ' "$tmp/best.txt" && [ "$(tail -n 1 "$tmp/best.txt")" = win ]
check "solve: --state and --best reach it" $?
[ "$("$PIPS" analyze tictacdoh --state - --agent greedy --top 1 --seed 2 2>/dev/null | grep -c '^[0-9]')" = 1 ]
check "analyze: --agent, --top and --seed reach it" $?
three=$("$PIPS" perft icefrogs 3 --opt players=3 2>/dev/null | tail -n 1)
sum=$("$PIPS" perft icefrogs 3 --opt players=3 --divide 2>/dev/null | sed '$d' |
    awk -F': ' '{ s += $2 } END { print s }')
[ "$three" = 216 ] && [ "$sum" = 216 ]
check "perft: --opt and --divide reach it (3-player IceFrogs perft(3) $three, divided $sum)" $?
"$PIPS" play tictacdoh --seat greedy --seat random --seed 4 --record "$tmp/g.json" >/dev/null 2>&1 &&
    "$PIPS" play tictacdoh --seat greedy --seat random --seed 4 --record "$tmp/g.json" --force \
        >/dev/null 2>&1 &&
    /usr/bin/python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit((r["seed"], r["seats"]) != (4, ["greedy", "random"]))' "$tmp/g.json"
check "play: --seat, --seed, --record and --force reach it" $?

# lists longer than a run takes (checked before any game)
many=$(printf 'random,%.0s' $(seq 16))greedy
expect_exit 2 "ladder: more than 16 agents" "^pips ladder: at most 16 agents" \
    "$PIPS" ladder tictacdoh --agents "$many"
expect_exit 2 "playtest: more seats than a game can have" "^pips playtest: at most 8 seats" \
    "$PIPS" playtest tictacdoh --seats "$many"

# the flags reach the run: numbers, a switch, choices and lists
for drama in on off; do
    "$PIPS" playtest tictacdoh --seats random,greedy --games 4 --seed 3 --fixed-seats \
        --drama $drama --opt stashes=1 --vs-opt stashes=2 --out "$tmp/$drama" >/dev/null 2>"$tmp/err"
    st=$?
    check "playtest --drama $drama runs ($(head -n 1 "$tmp/err"))" $st
done
/usr/bin/python3 - "$tmp/on/report.json" "$tmp/off/report.json" <<'PY'
import json, sys
on, off = (json.load(open(p)) for p in sys.argv[1:])
assert (on["seed"], on["games"]) == (3, 4), "--seed or --games lost"
assert on["fixed_seats"] and on["seatings"] == "fixed", "--fixed-seats lost"
assert [v["options"] for v in on["variants"]] == ["players=2 stashes=1", "players=2 stashes=2"], [v["options"] for v in on["variants"]]
lead = lambda r: r["variants"][0]["drama"]["lead_changes"]["value"]
assert lead(on) > 0 and lead(off) is None, "--drama off not applied (n/a): %s %s" % (lead(on), lead(off))
PY
check "--seed, --games, --fixed-seats, --opt, --vs-opt and --drama reach the report" $?
"$PIPS" playtest tictacdoh --seats random --games 3 --seed 9 --records >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q -- "--records needs --out DIR" "$tmp/err"; check "--records is a switch (needs --out)" $?
finish
