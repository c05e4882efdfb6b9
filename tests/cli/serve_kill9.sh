#!/bin/bash
# serve_kill9.sh PIPS_BINARY SOURCE_DIR — durability of `pips serve`: play
# moves through the HTTP API, kill the server with SIGKILL, restart it on the
# same database and check that every acknowledged move is there, in order,
# and that the seat tokens still work. Plain bash (/dev/tcp), no curl needed.
set -u
PIPS=$1
work=$(mktemp -d /tmp/pips-kill9-XXXXXX)
pid=
cleanup() { [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

start() {
    : > "$work/out"
    "$PIPS" serve --port 0 --db "$work/pips.db" --web "$work/noweb" > "$work/out" 2> "$work/err" &
    pid=$!
    for _ in $(seq 100); do
        PORT=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$work/out")
        [ -n "$PORT" ] && return 0
        sleep 0.05
    done
    cat "$work/err" >&2
    fail "server did not start"
}

# http METHOD PATH BODY: sets STATUS and BODY
http() {
    exec 3<>"/dev/tcp/127.0.0.1/$PORT" || fail "cannot connect"
    printf '%s %s HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s' \
        "$1" "$2" "${#3}" "$3" >&3
    local resp
    resp=$(cat <&3)
    exec 3<&-
    STATUS=$(head -1 <<< "$resp" | cut -d' ' -f2)
    BODY=${resp#*$'\r\n\r\n'}
}

start
http POST /api/games '{"game":"tictacdoh","seats":["human","human"],"seed":1}'
[ "$STATUS" = 201 ] || fail "create: $STATUS $BODY"
id=$(sed -n 's/^{"id":\([0-9]*\),.*/\1/p' <<< "$BODY")
tok0=$(sed -n 's/.*"tokens":\["\([0-9a-f]*\)","\([0-9a-f]*\)"\].*/\1/p' <<< "$BODY")
tok1=$(sed -n 's/.*"tokens":\["\([0-9a-f]*\)","\([0-9a-f]*\)"\].*/\2/p' <<< "$BODY")
[ -n "$id" ] && [ -n "$tok0" ] && [ -n "$tok1" ] || fail "create: cannot read id/tokens: $BODY"

# Play the first legal move each turn until the game ends or 12 moves.
acked=()
view=$BODY
for i in $(seq 0 11); do
    http GET "/api/games/$id" ""
    grep -q '"over":true' <<< "$BODY" && break
    # a spread of legal moves (always the first would end Tic Tac Doh! in 3)
    legal=$(sed -n 's/.*"legal":\[\([^]]*\)\].*/\1/p' <<< "$BODY" | tr -d '"' | tr ',' ' ')
    read -r -a list <<< "$(sed 's/@\([-0-9]*\) \([-0-9]*\)/@\1,\2/g' <<< "$legal")"
    [ ${#list[@]} -gt 0 ] || fail "no legal move listed: $BODY"
    mv=${list[$(( (i * 7 + 3) % ${#list[@]} ))]}
    if [ $((i % 2)) = 0 ]; then tok=$tok0; else tok=$tok1; fi
    http POST "/api/games/$id/moves" "{\"move\":\"$mv\",\"token\":\"$tok\"}"
    [ "$STATUS" = 200 ] || fail "move $mv: $STATUS $BODY"
    acked+=("$mv")
done
[ ${#acked[@]} -ge 3 ] || fail "too few moves played (${#acked[@]})"

kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null || true
pid=
start
http GET "/api/games/$id" ""
[ "$STATUS" = 200 ] || fail "game $id missing after restart: $STATUS $BODY"
got=$(grep -o '"text":"[^"]*","seat"' <<< "$BODY" | sed 's/"text":"\([^"]*\)".*/\1/' | tr '\n' ' ')
want="${acked[*]} "
[ "$got" = "$want" ] || fail "moves after restart: '$got', acknowledged: '$want'"

# The tokens survive: the right seat can move, the wrong one cannot.
n=${#acked[@]}
if grep -q '"over":false' <<< "$BODY"; then
    mv=$(sed -n 's/.*"legal":\["\([^"]*\)".*/\1/p' <<< "$BODY")
    if [ $((n % 2)) = 0 ]; then good=$tok0; bad=$tok1; else good=$tok1; bad=$tok0; fi
    http POST "/api/games/$id/moves" "{\"move\":\"$mv\",\"token\":\"$bad\"}"
    [ "$STATUS" = 403 ] || fail "wrong token after restart: $STATUS $BODY"
    http POST "/api/games/$id/moves" "{\"move\":\"$mv\",\"token\":\"$good\"}"
    [ "$STATUS" = 200 ] || fail "right token after restart: $STATUS $BODY"
fi
kill -TERM "$pid"
wait "$pid" || fail "server did not stop cleanly on SIGTERM"
pid=
echo "ok: $n acknowledged moves survived kill -9: ${acked[*]}"
