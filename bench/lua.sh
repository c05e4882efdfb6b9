#!/usr/bin/env bash
# lua.sh BUILD_DIR [SECONDS] — rule scripts and Lua games against native C
# (issue 26, docs/lua.md): random playouts/s of every built-in game natively,
# with a one-line move-only `legal` script and with one that reads state.view,
# as ratios; then the Lua Tic Tac Doh! against the C one (playouts/s and perft
# nodes/s). Every figure comes from the same run of build/bench_lua, SECONDS
# (default 1) of processor time each, on one core (rates per processor second,
# so other work on a shared machine counts less); the load average before the
# run is printed too.
# Usage: bench/lua.sh build 1
set -eu
BUILD=${1:-build} SECONDS_EACH=${2:-1}
SRC=$(cd "$(dirname "$0")/.." && pwd)
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$BUILD/bench_lua" "$SRC" "$SECONDS_EACH"
