#!/bin/bash
# faults.sh PIPS_BINARY SOURCE_DIR — `pips serve` under storage faults. Each
# fault must give a clear error (a 500 with a JSON error naming the cause,
# or a refusal to start with a message) or a clean recovery, never a crash,
# and afterwards every acknowledged move must be in the database, which must
# pass `PRAGMA integrity_check` (when the sqlite3 CLI is there).
#   1. missing directory: created on start; one that cannot be created
#      (under /proc) is refused with a message.
#   2. read-only database: a tmpfs remounted read-only (as root; we run as
#      root in CI, where chmod does not stop writes), else `chattr +i`, else
#      chmod for a non-root user.
#   3. disk full: a 1 MiB tmpfs filled up (root with mount only).
#   4. database locked by another process (the sqlite3 CLI holds a write
#      lock past the server's 5 s busy timeout).
#   5. kill -9 at random moments during streams of moves (and during
#      start-up), restart, repeat: acknowledged moves all present.
# As root the script re-runs itself in a private mount namespace
# (unshare -m), so its mounts vanish with it. A fault that cannot be set up
# here is skipped with a "skip:" line. PIPS_FAULTS_SEED fixes the kill times;
# PIPS_FAULTS_NO_MOUNT=1 tries the fallbacks used where mount is not allowed.
set -u
PIPS=$(realpath "$1")
HOSTILE=$(dirname "$PIPS")/pips_hostile
[ -x "$HOSTILE" ] || { echo "FAIL: $HOSTILE not built" >&2; exit 1; }
if [ "$(id -u)" = 0 ] && [ -z "${PIPS_FAULTS_NS:-}" ] &&
   unshare -m --propagation private true 2> /dev/null; then
    PIPS_FAULTS_NS=1 exec unshare -m --propagation private bash "$0" "$@"
fi
work=$(mktemp -d /tmp/pips-faults-XXXXXX)
pid=
locker=
cleanup() {
    [ -n "$pid" ] && kill -9 "$pid" 2> /dev/null
    [ -n "$locker" ] && kill "$locker" 2> /dev/null
    for m in "$work"/mnt-*; do mountpoint -q "$m" 2> /dev/null && umount -l "$m"; done
    [ -d "$work/ro" ] && chattr -i "$work/ro" "$work"/ro/* 2> /dev/null
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; [ -s "$work/err" ] && tail -5 "$work/err" >&2; exit 1; }
seed=${PIPS_FAULTS_SEED:-$$}
RANDOM=$seed
echo "faults: seed $seed"
have_sqlite3=false
command -v sqlite3 > /dev/null && have_sqlite3=true
can_mount=false
if [ "$(id -u)" = 0 ] && [ -z "${PIPS_FAULTS_NO_MOUNT:-}" ]; then
    mkdir -p "$work/mnt-probe"
    mount -t tmpfs -o size=64k tmpfs "$work/mnt-probe" 2> /dev/null && can_mount=true &&
        umount "$work/mnt-probe"
fi

# start DB: starts the server in the background; sets pid and PORT, or
# returns 1 (server exited; its stderr in $work/err)
start() {
    : > "$work/out"
    "$PIPS" serve --port 0 --db "$1" --web "$work/noweb" --ai-threads 1 \
        > "$work/out" 2> "$work/err" &
    pid=$!
    for _ in $(seq 200); do
        PORT=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$work/out")
        [ -n "$PORT" ] && return 0
        if ! kill -0 "$pid" 2> /dev/null; then
            wait "$pid"
            EXIT=$?
            pid=
            return 1
        fi
        sleep 0.05
    done
    fail "server did not start on $1"
}

stop() {
    kill -TERM "$pid"
    wait "$pid" || fail "server did not stop cleanly on SIGTERM"
    pid=
}

# http METHOD PATH BODY: sets STATUS and BODY
http() {
    exec 3<> "/dev/tcp/127.0.0.1/$PORT" || fail "cannot connect"
    printf '%s %s HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s' \
        "$1" "$2" "${#3}" "$3" >&3
    local resp
    resp=$(cat <&3)
    exec 3<&-
    STATUS=$(head -1 <<< "$resp" | cut -d' ' -f2)
    BODY=${resp#*$'\r\n\r\n'}
}

# new_game: a hotseat Tic Tac Doh! game; sets GID TOK0 TOK1
new_game() {
    http POST /api/games '{"game":"tictacdoh","seed":11}'
    [ "$STATUS" = 201 ] || fail "create: $STATUS $BODY"
    GID=$(sed -n 's/^{"id":\([0-9]*\),.*/\1/p' <<< "$BODY")
    TOK0=$(sed -n 's/.*"tokens":\["\([0-9a-f]*\)","\([0-9a-f]*\)"\].*/\1/p' <<< "$BODY")
    TOK1=$(sed -n 's/.*"tokens":\["\([0-9a-f]*\)","\([0-9a-f]*\)"\].*/\2/p' <<< "$BODY")
}

# try_move: GET the game, send its first legal move with the right token;
# sets VIEW (before), MOVE, STATUS, BODY; returns 1 when the game is over
try_move() {
    http GET "/api/games/$GID" ""
    [ "$STATUS" = 200 ] || fail "GET game $GID: $STATUS $BODY"
    VIEW=$BODY
    grep -q '"over":true' <<< "$VIEW" && return 1
    local n
    n=$(sed -n 's/.*"n_moves":\([0-9]*\),.*/\1/p' <<< "$VIEW")
    MOVE=$(sed -n 's/.*"legal":\["\([^"]*\)".*/\1/p' <<< "$VIEW")
    local tok=$TOK0
    [ $((n % 2)) = 1 ] && tok=$TOK1
    http POST "/api/games/$GID/moves" "{\"move\":\"$MOVE\",\"token\":\"$tok\",\"ply\":$n}"
    return 0
}

# moves_of: the move texts of game $GID, space separated
moves_of() {
    http GET "/api/games/$GID" ""
    [ "$STATUS" = 200 ] || fail "GET game $GID: $STATUS $BODY"
    grep -o '"text":"[^"]*","seat"' <<< "$BODY" | sed 's/"text":"\([^"]*\)".*/\1/' | tr '\n' ' '
}

integrity() {
    $have_sqlite3 || return 0
    local ic
    ic=$(sqlite3 "$1" 'PRAGMA integrity_check;' 2>&1)
    [ "$ic" = ok ] || fail "integrity_check of $1: $ic"
}

# a 500 must be a JSON error naming the cause
expect_500() {
    [ "$STATUS" = 500 ] || fail "$1: expected 500, got $STATUS $BODY"
    grep -q '^{"error":"' <<< "$BODY" || fail "$1: 500 without a JSON error: $BODY"
    grep -qiE "$2" <<< "$BODY" || fail "$1: error does not name the cause ($2): $BODY"
}

# ---- 1. missing directory ------------------------------------------------
start "$work/new/sub/dir/pips.db" || fail "missing directory not created: $(cat "$work/err")"
new_game
try_move && [ "$STATUS" = 200 ] || fail "move in a new directory: $STATUS"
stop
integrity "$work/new/sub/dir/pips.db"
if start /proc/pips-no-such-dir/pips.db; then
    fail "server started with its database under /proc"
fi
[ "$EXIT" -ge 1 ] && [ "$EXIT" -lt 128 ] || fail "uncreatable directory: exit $EXIT"
grep -q "pips serve:" "$work/err" || fail "uncreatable directory: no message"
echo "ok: missing directory (created; under /proc: '$(head -1 "$work/err")')"

# ---- 2. read-only database -------------------------------------------------
ro_method=
mkdir -p "$work/mnt-ro"
if $can_mount && mount -t tmpfs -o size=4m tmpfs "$work/mnt-ro"; then
    ro_method="read-only tmpfs remount"
    rodir=$work/mnt-ro
else
    rodir=$work/ro
    mkdir -p "$rodir"
fi
start "$rodir/pips.db" || fail "cannot start on $rodir"
new_game
acked=()
for _ in 1 2 3; do
    try_move && [ "$STATUS" = 200 ] || fail "move before read-only: $STATUS $BODY"
    acked+=("$MOVE")
done
stop
if [ -n "$ro_method" ] && ! mount -o remount,ro "$work/mnt-ro" 2> /dev/null; then
    ro_method= # mounted but not remountable: no read-only test on it
    echo "note: cannot remount the tmpfs read-only"
elif [ -n "$ro_method" ]; then
    :
elif [ "$(id -u)" = 0 ] && chattr +i "$rodir"/pips.db* "$rodir" 2> /dev/null; then
    ro_method="chattr +i on the file and its directory"
elif [ "$(id -u)" != 0 ]; then
    chmod a-w "$rodir"/pips.db* "$rodir"
    ro_method="chmod a-w"
fi
if [ -z "$ro_method" ]; then
    echo "skip: read-only database (no mount, chattr or non-root user here)"
else
    if start "$rodir/pips.db"; then
        # started read-only: games are served, every write is refused clearly
        [ "$(moves_of)" = "${acked[*]} " ] || fail "read-only: moves '$(moves_of)'"
        before=$(moves_of)
        try_move
        expect_500 "move on a read-only database" "read.?only|readonly"
        [ "$(moves_of)" = "$before" ] || fail "read-only: a refused move changed the game"
        http POST /api/games '{"game":"tictacdoh"}'
        expect_500 "create on a read-only database" "read.?only|readonly"
        stop
        echo "ok: read-only database ($ro_method): served, writes refused with 500"
    else
        [ "$EXIT" -ge 1 ] && [ "$EXIT" -lt 128 ] || fail "read-only: exit $EXIT"
        grep -qiE "not writable: (read-only file system|operation not permitted|permission denied)" "$work/err" ||
            fail "read-only: unclear message: $(cat "$work/err")"
        echo "ok: read-only database ($ro_method): refused at start: $(head -1 "$work/err")"
    fi
    case $ro_method in
        read-only*) mount -o remount,rw "$work/mnt-ro" ;;
        chattr*) chattr -i "$rodir" "$rodir"/pips.db* ;;
        chmod*) chmod u+w "$rodir" "$rodir"/pips.db* ;;
    esac
    start "$rodir/pips.db" || fail "cannot restart after read-only"
    [ "$(moves_of)" = "${acked[*]} " ] || fail "after read-only: moves '$(moves_of)'"
    stop
    integrity "$rodir/pips.db"
fi

# ---- 3. disk full --------------------------------------------------------------
mkdir -p "$work/mnt-full"
if $can_mount && mount -t tmpfs -o size=1m tmpfs "$work/mnt-full"; then
    start "$work/mnt-full/pips.db" || fail "cannot start on the small tmpfs"
    new_game
    acked=()
    try_move && [ "$STATUS" = 200 ] || fail "first move: $STATUS"
    acked+=("$MOVE")
    dd if=/dev/zero of="$work/mnt-full/filler" bs=4k 2> /dev/null
    full=false
    for _ in $(seq 100); do
        try_move || { new_game; continue; }
        if [ "$STATUS" = 200 ]; then
            acked+=("$MOVE")
            continue
        fi
        expect_500 "move on a full disk" "full"
        fullmsg=$BODY
        [ "$(moves_of)" = "${acked[*]} " ] || fail "disk full: the refused move changed the game"
        full=true
        break
    done
    $full || fail "disk full: 100 moves went through on a full 1 MiB tmpfs"
    http GET /api/rules ""
    [ "$STATUS" = 200 ] || fail "disk full: reads fail too ($STATUS)"
    rm -f "$work/mnt-full/filler"
    try_move && [ "$STATUS" = 200 ] || fail "after freeing space: $STATUS $BODY"
    acked+=("$MOVE")
    stop
    integrity "$work/mnt-full/pips.db"
    start "$work/mnt-full/pips.db" || fail "cannot restart after disk full"
    [ "$(moves_of)" = "${acked[*]} " ] || fail "after disk full: '$(moves_of)' vs '${acked[*]} '"
    stop
    umount "$work/mnt-full"
    echo "ok: disk full (1 MiB tmpfs): 500 $fullmsg; recovered, ${#acked[@]} moves kept"
else
    echo "skip: disk full (needs root and mount for a small tmpfs)"
fi

# ---- 4. database locked by another process ----------------------------------------
if $have_sqlite3; then
    db=$work/locked.db
    start "$db" || fail "cannot start"
    new_game
    try_move && [ "$STATUS" = 200 ] || fail "move before the lock: $STATUS"
    acked=("$MOVE")
    # hold the write lock for 8 s: longer than the server's 5 s busy timeout
    (echo "BEGIN IMMEDIATE; INSERT INTO moves SELECT game_id, ply + 1000, text FROM moves;"
     sleep 8; echo "ROLLBACK;") | sqlite3 "$db" &
    locker=$!
    sleep 0.5
    t0=$(date +%s%N)
    (try_move; printf '%s\n%s\n' "$STATUS" "$BODY" > "$work/locked.out") &
    mover=$!
    sleep 0.5
    t1=$(date +%s%N)
    http GET /api/rules ""
    t2=$(date +%s%N)
    [ "$STATUS" = 200 ] || fail "locked: other requests fail ($STATUS)"
    [ $(( (t2 - t1) / 1000000 )) -lt 2000 ] || fail "locked: GET /api/rules took $(( (t2 - t1) / 1000000 )) ms"
    wait "$mover"
    waited=$(( ($(date +%s%N) - t0) / 1000000 ))
    STATUS=$(head -1 "$work/locked.out")
    BODY=$(sed -n 2p "$work/locked.out")
    expect_500 "move while the database is locked" "locked|busy"
    lockmsg=$BODY
    [ "$(moves_of)" = "${acked[*]} " ] || fail "locked: the refused move changed the game"
    wait "$locker"
    locker=
    try_move && [ "$STATUS" = 200 ] || fail "after the lock: $STATUS $BODY"
    acked+=("$MOVE")
    [ "$(moves_of)" = "${acked[*]} " ] || fail "locked: moves '$(moves_of)'"
    stop
    integrity "$db"
    echo "ok: database locked by sqlite3 for 8 s: 500 $lockmsg after $waited ms; other requests answered meanwhile; recovered"
else
    echo "skip: database locked (no sqlite3 CLI; test_hardening_server covers it in-process)"
fi

# ---- 5. kill -9 at random moments -----------------------------------------------------
db=$work/kill.db
summary=$work/kill.summary
kills=0
startup_kills=0
for round in $(seq 12); do
    if [ $((round % 4)) = 0 ]; then
        # during start-up (replaying every stored game)
        "$PIPS" serve --port 0 --db "$db" --web "$work/noweb" > /dev/null 2>&1 &
        pid=$!
        sleep "0.0$((RANDOM % 10))"
        kill -9 "$pid" 2> /dev/null
        wait "$pid" 2> /dev/null
        pid=
        startup_kills=$((startup_kills + 1))
        integrity "$db"
        continue
    fi
    start "$db" || fail "restart $round: $(cat "$work/err")"
    grep -q "failed to replay" "$work/err" && fail "round $round: $(cat "$work/err")"
    if [ -f "$summary" ]; then
        "$HOSTILE" verify "$PORT" "$summary" 1 > "$work/verify.out" ||
            fail "round $round: $(cat "$work/verify.out")"
    fi
    "$HOSTILE" stream "$PORT" "$summary" 10 > "$work/stream.out" &
    client=$!
    delay=$((100 + RANDOM % 1100))
    sleep "$((delay / 1000)).$(printf %03d $((delay % 1000)))"
    kill -9 "$pid"
    wait "$pid" 2> /dev/null
    pid=
    wait "$client" || fail "round $round stream: $(cat "$work/stream.out")"
    kills=$((kills + 1))
    integrity "$db"
done
start "$db" || fail "final restart: $(cat "$work/err")"
grep -q "failed to replay" "$work/err" && fail "final: $(cat "$work/err")"
"$HOSTILE" verify "$PORT" "$summary" 1 > "$work/verify.out" || fail "final: $(cat "$work/verify.out")"
stop
integrity "$db"
acked_total=$(awk '{ n += $4 } END { print n }' "$summary")
games_total=$(wc -l < "$summary")
echo "ok: kill -9: $kills kills during move streams and $startup_kills during start-up; $acked_total acknowledged moves in $games_total games all present"
echo "ok: faults"
