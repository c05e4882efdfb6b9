# serve.sh — sourced by the CLI tests that need a running `pips serve`
# (not a test itself: tests/cli/lib is outside the tests' glob).
# start_server PIPS WORKDIR: starts a server on a free port with its
# database in WORKDIR; sets pid and PORT, or prints why and returns 1.
start_server() {
    "$1" serve --port 0 --db "$2/pips.db" --web "$2/noweb" > "$2/out" 2> "$2/err" &
    pid=$!
    PORT=
    for _ in $(seq 100); do
        PORT=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$2/out")
        [ -n "$PORT" ] && return 0
        sleep 0.05
    done
    echo "FAIL: server did not start: $(cat "$2/err")" >&2
    return 1
}
