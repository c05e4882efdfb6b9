#!/bin/bash
# frontends.sh PIPS_BINARY SOURCE_DIR — the match driver's contract (issue
# 13): the same game, options, seats and seed give the same moves in
# `pips play`, `pips playtest` (its only game) and `pips serve` (POST
# /api/games with every seat an agent), for every game, dice included.
set -u
PIPS=$1
work=$(mktemp -d /tmp/pips-frontends-XXXXXX)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v node >/dev/null || fail "node is needed to read JSON (scripts/deps.sh installs it)"
command -v curl >/dev/null || fail "curl is needed (scripts/deps.sh installs it)"

# moves FILE: the record's moves, one per line
moves() { node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1]));
                   console.log(r.moves.join("\n"))' "$1"; }

. "$(dirname "$0")/lib/serve.sh"
start_server "$PIPS" "$work" || exit 1
api="http://127.0.0.1:$PORT/api"

# check GAME SEED OPTIONS_JSON SEAT... (OPTIONS_JSON as in the API; the
# same options go to the CLI as --opt)
check() {
    local game=$1 seed=$2 opts=$3
    shift 3
    local seats=("$@") cli_opts=() seat_args=() json_seats
    while IFS= read -r kv; do [ -n "$kv" ] && cli_opts+=(--opt "$kv"); done < <(node -e '
        for (const [k, v] of Object.entries(JSON.parse(process.argv[1]))) console.log(k + "=" + v)' "$opts")
    for s in "${seats[@]}"; do seat_args+=(--seat "$s"); done
    json_seats=$(node -e 'console.log(JSON.stringify(process.argv.slice(1)))' "${seats[@]}")
    local d="$work/$game"
    mkdir -p "$d"
    "$PIPS" play "$game" "${cli_opts[@]}" "${seat_args[@]}" --seed "$seed" --record "$d/play.json" \
        > "$d/play.out" 2>&1 < /dev/null || fail "$game: pips play: $(tail -3 "$d/play.out")"
    local IFS=,
    "$PIPS" playtest "$game" "${cli_opts[@]}" --seats "${seats[*]}" --games 1 --seed "$seed" \
        --records --out "$d/pt" > "$d/pt.out" 2>&1 || fail "$game: pips playtest: $(tail -3 "$d/pt.out")"
    unset IFS
    local created id
    created=$(curl -sS -X POST "$api/games" -H 'Content-Type: application/json' \
        -d "{\"game\":\"$game\",\"options\":$opts,\"seats\":$json_seats,\"seed\":$seed}")
    id=$(node -e 'const r=JSON.parse(process.argv[1]); if (!r.id) { console.error(process.argv[1]); process.exit(1) } console.log(r.id)' "$created") \
        || fail "$game: POST /api/games: $created"
    for _ in $(seq 1200); do
        curl -sS "$api/games/$id" > "$d/view.json"
        node -e 'const v=JSON.parse(require("fs").readFileSync(process.argv[1]));
                 if (v.ai_error) { console.error(v.ai_error); process.exit(2) }
                 process.exit(v.over ? 0 : 1)' "$d/view.json"
        case $? in 0) break ;; 2) fail "$game: the server's agent failed" ;; esac
        sleep 0.1
    done
    curl -sS "$api/games/$id/record" > "$d/serve.json"
    moves "$d/play.json" > "$d/play.moves"
    moves "$d/pt/records/A-000001.json" > "$d/pt.moves"
    moves "$d/serve.json" > "$d/serve.moves"
    local n
    n=$(wc -l < "$d/play.moves")
    [ "$n" -gt 2 ] || fail "$game: only $n moves played"
    cmp -s "$d/play.moves" "$d/pt.moves" || fail "$game: play and playtest differ: $(diff "$d/play.moves" "$d/pt.moves" | head -5)"
    cmp -s "$d/play.moves" "$d/serve.moves" || fail "$game: play and serve differ: $(diff "$d/play.moves" "$d/serve.moves" | head -5)"
    echo "ok $game: $n moves, identical in play, playtest and serve"
}

check tictacdoh 11 '{}' mcts:iters=300 greedy
check nimitz 12 '{"board":"3x3","colors":3}' mcts:iters=200 alphabeta:depth=2
check icefrogs 13 '{}' greedy mcts:iters=60
check ziggurat 14 '{"players":2}' random expectimax:depth=1
check noname 15 '{}' greedy mcts:iters=40
echo "all front ends agree"
