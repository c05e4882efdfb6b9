#!/bin/bash
# play.sh PIPS_BINARY SOURCE_DIR — `pips play` on the match driver (issues
# 13 and 18): hotseat take-backs, an over-long input line, the record path
# checked before the game, and Ctrl-C still writing the record.
set -u
PIPS=$1
tmp=$(mktemp -d /tmp/pips-play-XXXXXX)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fails=0
check() { if [ "$2" -eq 0 ]; then echo "ok: $1"; else echo "FAIL: $1"; fails=$((fails + 1)); fi; }

# Hotseat: O, to move, takes back X's move (the last move of a person),
# then X's undo finds nothing left to take back.
printf 'L@0,0\nundo\nstate\nundo\nquit\n' |
    "$PIPS" play tictacdoh --seat human --seat human --seed 1 >"$tmp/hot.out" 2>&1
grep -q '^seat 1> -$' "$tmp/hot.out"; check "O's undo takes back X's move (state is empty again)" $?
grep -q "cannot undo: no move of a person to take back" "$tmp/hot.out"
check "an undo at the start says there is nothing to take back" $?

# Against an agent, undo takes back the person's move and the reply.
printf 'L@0,0\nundo\nstate\nquit\n' |
    "$PIPS" play tictacdoh --seat human --seat random --seed 1 >"$tmp/agent.out" 2>&1
[ "$(grep -c '^seat 1> ' "$tmp/agent.out")" -ge 3 ] && grep -q '^seat 1> -$' "$tmp/agent.out"
check "undo against an agent takes back both moves" $?

# A line longer than the input buffer is one bad line: its tail is never played.
long=$(head -c 1023 /dev/zero | tr '\0' x)
printf '%sL@0,0\nstate\nquit\n' "$long" |
    "$PIPS" play tictacdoh --seat human --seat human --seed 1 >"$tmp/long.out" 2>&1
grep -q 'illegal: the line is longer than' "$tmp/long.out"; check "an over-long line is refused" $?
grep -q '^seat 1> -$' "$tmp/long.out"; check "its tail is not played" $?

# The record path is checked before the game starts.
start=$(date +%s)
msg=$(printf 'quit\n' | "$PIPS" play tictacdoh --seat random --seat random \
    --record /proc/nope/x.json 2>&1 >"$tmp/bad.out"); rc=$?
[ $rc -eq 2 ] && echo "$msg" | grep -q "cannot write the record" && ! grep -q 'result:' "$tmp/bad.out"
check "an unwritable --record fails before any move ($msg)" $?
"$PIPS" play tictacdoh --seat random --seat random --record "$tmp/fresh.json" </dev/null >/dev/null 2>&1
[ -s "$tmp/fresh.json" ]; check "a writable --record is written" $?

# Ctrl-C at the prompt ends the game and still writes what was played.
mkfifo "$tmp/in"
"$PIPS" play tictacdoh --seat human --seat random --seed 3 --record "$tmp/int.json" \
    <"$tmp/in" >"$tmp/int.out" 2>&1 &
pid=$!
exec 3>"$tmp/in"
printf 'L@0,0\n' >&3
for _ in $(seq 50); do [ "$(grep -c '^seat 1> ' "$tmp/int.out")" -ge 2 ] && break; sleep 0.1; done
kill -INT "$pid"
wait "$pid"; rc=$?
pid=
exec 3>&-
[ $rc -eq 130 ]; check "Ctrl-C exits 130 ($rc)" $?
node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1]));
         process.exit(r.moves.length === 2 && r.moves[0] === "L@0,0" ? 0 : 1)' "$tmp/int.json"
check "the interrupted game's record holds the two moves played" $?

[ $fails -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "all play checks passed"
