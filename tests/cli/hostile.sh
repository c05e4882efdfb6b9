#!/bin/bash
# hostile.sh PIPS_BINARY SOURCE_DIR — `pips serve` against a hostile client
# (tests/hostile/hostile.c, built as pips_hostile beside pips): refused
# requests of every kind must be 4xx with a JSON error and change nothing,
# concurrent seat clients must see each legal move acknowledged exactly once,
# slow clients must not stall the others. Then the server is stopped with
# SIGTERM (must exit 0), the database checked with `PRAGMA integrity_check`
# when the sqlite3 CLI is there, and the acknowledged moves verified again
# after a restart. Bounded: under 20 s of attack (~8 s here), all on 127.0.0.1
# with a random free port and a temporary database.
set -u
PIPS=$1
HOSTILE=$(dirname "$PIPS")/pips_hostile
[ -x "$HOSTILE" ] || { echo "FAIL: $HOSTILE not built" >&2; exit 1; }
work=$(mktemp -d /tmp/pips-hostile-XXXXXX)
pid=
cleanup() { [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; [ -s "$work/err" ] && tail -5 "$work/err" >&2; exit 1; }

start() {
    : > "$work/out"
    "$PIPS" serve --port 0 --db "$work/pips.db" --web "$work/noweb" --ai-threads 1 \
        > "$work/out" 2> "$work/err" &
    pid=$!
    for _ in $(seq 200); do
        PORT=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$work/out")
        [ -n "$PORT" ] && return 0
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    fail "server did not start"
}

start
timeout 60 "$HOSTILE" run "$PORT" "$work/summary" "${PIPS_HOSTILE_SECONDS:-20}" \
    || fail "hostile client reported failures"
kill -0 "$pid" 2>/dev/null || fail "server died under attack"
kill -TERM "$pid"
wait "$pid" || fail "server did not stop cleanly on SIGTERM"
pid=
if command -v sqlite3 > /dev/null; then
    ic=$(sqlite3 "$work/pips.db" 'PRAGMA integrity_check;')
    [ "$ic" = ok ] || fail "integrity_check: $ic"
fi
start
timeout 60 "$HOSTILE" verify "$PORT" "$work/summary" || fail "moves differ after restart"
grep -q "broken" "$work/out" "$work/err" && fail "broken games after restart"
kill -TERM "$pid"
wait "$pid" || fail "server did not stop cleanly on SIGTERM (second run)"
pid=
echo "ok: hostile client"
