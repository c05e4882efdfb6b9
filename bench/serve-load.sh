#!/bin/bash
# serve-load.sh — the server's load scenarios, each against a fresh
# `pips serve` (temporary database, --sync normal unless SYNC=full), run by
# the load generator bench/loadgen, and one table of the results.
#
#   bench/serve-load.sh [BUILD_DIR=build] [SECONDS=10]
#   PIPS=/path/to/other/pips bench/serve-load.sh   # the same load on another build
#   SCENARIOS="plain rules" bench/serve-load.sh    # a subset
#
# Scenarios (moves: hotseat Tic Tac Doh! games over 16 keep-alive clients,
# each choosing its moves from `legal`; latency from the scheduled send):
#   plain    500 moves/s
#   idle     500 moves/s with 1,000 idle connections open
#   rules    200 moves/s beside 8 clients fetching GET /api/rules in a loop
#   hints    200 moves/s beside 8 clients asking perfect-play hints in a loop
#   uploads  200 moves/s beside a stream of 50 record uploads a second
# The load generator runs on the same machine: it is part of the load. Run
# it under `nice -n 10` on a shared machine and state the load average
# printed at the end beside any figure taken from it.
set -u
BUILD=${1:-build}
SECONDS_EACH=${2:-10}
PIPS=${PIPS:-$BUILD/pips}
LOADGEN=${LOADGEN:-$BUILD/loadgen}
SYNC=${SYNC:-normal}
SCENARIOS=${SCENARIOS:-"plain idle rules hints uploads"}
for f in "$PIPS" "$LOADGEN"; do
    [ -x "$f" ] || { echo "serve-load.sh: $f not built (ninja -C $BUILD pips loadgen)" >&2; exit 1; }
done
ulimit -n 4096 2>/dev/null || ulimit -n "$(ulimit -Hn)"
work=$(mktemp -d /tmp/pips-serve-load-XXXXXX)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

start_server() {
    rm -f "$work"/pips.db*
    : > "$work/out"
    "$PIPS" serve --port 0 --db "$work/pips.db" --web "$work/noweb" --sync "$SYNC" \
        > "$work/out" 2> "$work/err" &
    pid=$!
    for _ in $(seq 200); do
        PORT=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$work/out")
        [ -n "$PORT" ] && return 0
        sleep 0.05
    done
    cat "$work/err" >&2
    echo "serve-load.sh: the server did not start" >&2
    exit 1
}

stop_server() {
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    pid=
}

# scenario NAME -> loadgen arguments
args_of() {
    case $1 in
    plain) echo "--rate 500" ;;
    idle) echo "--rate 500 --idle 1000" ;;
    rules) echo "--rate 200 --rules 8" ;;
    hints) echo "--rate 200 --hints 8" ;;
    uploads) echo "--rate 200 --uploads 50" ;;
    *) echo "serve-load.sh: unknown scenario '$1'" >&2; exit 2 ;;
    esac
}

# the value of KEY in a RESULT line
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<< "$1"; }

echo "pips serve under load: $(nproc) cores, load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "server: $PIPS (--sync $SYNC), ${SECONDS_EACH} s per scenario, 16 move clients"
echo
printf '| %-8s | %6s | %8s | %7s | %7s | %7s | %7s | %7s | %6s | %-38s |\n' \
    scenario asked achieved p50 p90 p99 p99.9 max errors "flood: req/s, ok / 429 / 503"
printf '|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|\n' ---------- -------- ---------- --------- \
    --------- --------- --------- --------- -------- ----------------------------------------
status=0
for sc in $SCENARIOS; do
    a=$(args_of "$sc") || exit 2
    start_server
    # shellcheck disable=SC2086
    out=$("$LOADGEN" --port "$PORT" --seconds "$SECONDS_EACH" $a 2>&1)
    rc=$?
    stop_server
    line=$(grep '^RESULT' <<< "$out")
    if [ -z "$line" ]; then
        echo "serve-load.sh: $sc: no result" >&2
        echo "$out" >&2
        status=1
        continue
    fi
    [ $rc -eq 0 ] || status=1
    flood=-
    for k in rules hints uploads; do
        v=$(field "$line" "${k}_per_s")
        [ -n "$v" ] && flood="$k $v/s, $(field "$line" "${k}_ok") / $(field "$line" "${k}_429") / $(field "$line" "${k}_503")"
    done
    printf '| %-8s | %6s | %8s | %7s | %7s | %7s | %7s | %7s | %6s | %-38s |\n' "$sc" \
        "$(field "$line" asked)" "$(field "$line" rate)" "$(field "$line" p50)" \
        "$(field "$line" p90)" "$(field "$line" p99)" "$(field "$line" p999)" \
        "$(field "$line" max)" "$(field "$line" errors)" "$flood"
done
echo
echo "latencies in ms from the scheduled send; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
