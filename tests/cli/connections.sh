#!/bin/bash
# connections.sh PIPS_BINARY SOURCE_DIR — `pips serve` with 1,000 idle
# connections and 200 event streams open: a move still completes quickly
# (median under 100 ms, none over a second) and every stream sees the last
# acknowledged move (tests/hostile/connections.c does the work).
set -u
PIPS=$1
CLIENT=$(dirname "$PIPS")/pips_connections
[ -x "$CLIENT" ] || { echo "FAIL: $CLIENT not built" >&2; exit 1; }
work=$(mktemp -d /tmp/pips-conns-XXXXXX)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
# 1,200 sockets on each side, and some to spare
ulimit -n 4096 2>/dev/null || ulimit -n "$(ulimit -Hn)"
. "$(dirname "$0")/lib/serve.sh"
start_server "$PIPS" "$work" || exit 1
"$CLIENT" "$PORT" 1000 200 20 || exit 1
# the server is still healthy and stops cleanly with every stream open
kill -TERM "$pid"
for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then echo "FAIL: server did not stop on SIGTERM" >&2; exit 1; fi
pid=
echo "ok"
