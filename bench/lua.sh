#!/usr/bin/env bash
# lua.sh BUILD_DIR [SECONDS] [solve] — rule scripts and Lua games against
# native C (issue 26, docs/lua.md): random playouts/s of every built-in game
# natively, with a one-line move-only `legal` script and with one that reads
# state.view, as ratios; then the Lua Tic Tac Doh! against the C one
# (playouts/s and perft nodes/s). Every figure comes from the same run of
# build/bench_lua, SECONDS (default 1) of processor time each, on one core
# (rates per processor second, so other work on a shared machine counts
# less); the load average before the run is printed too.
# With `solve` it then solves the Lua Tic Tac Doh! (2 players, 1 stash) with
# the generic solver on one thread and prints its processor time and the
# answer (a draw, as the C game's); SOLVE_MB (default 6144) is the table's
# budget: the generic solver stores whole states (state_bytes each).
# Usage: bench/lua.sh build 1 [solve]
set -eu
BUILD=${1:-build} SECONDS_EACH=${2:-1}
SRC=$(cd "$(dirname "$0")/.." && pwd)
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$BUILD/bench_lua" "$SRC" "$SECONDS_EACH"
if [ "${3:-}" = solve ]; then
    echo
    echo "solving examples/games/tictacdoh.lua (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    out=$(mktemp)
    trap 'rm -f "$out"' EXIT
    rc=0
    /usr/bin/time -f "processor time: %U s user, %S s system; peak memory %M KiB" \
        "$BUILD/pips" solve "$SRC/examples/games/tictacdoh.lua" --threads 1 \
        --table-mb "${SOLVE_MB:-6144}" >"$out" 2>&1 || rc=$?
    grep -v '^solving:' "$out" | tail -n 4
    grep '^solving:' "$out" | tail -n 1
    echo "exit status $rc"
fi
