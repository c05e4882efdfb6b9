#!/bin/bash
# play.sh PIPS_BINARY SOURCE_DIR — `pips play` on the match driver (issues
# 13, 18 and 29): hotseat take-backs, an over-long input line, the record
# path checked before the game, Ctrl-C still writing the record, records
# that are never overwritten without --force, survive SIGKILL (written after
# every move) and resume, and seeds up to 2^64-1.
set -u
. "$(dirname "$0")/lib/common.sh"
pid=
cleanup_hook() { [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; }

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

# moves FILE: how many moves the record holds (nothing when it is not JSON)
moves() { node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1]));
                   console.log(r.moves.length)' "$1" 2>/dev/null; }

# --record refuses a file that exists (exit 2, the file untouched) unless --force.
echo 'precious' >"$tmp/old.json"
expect_exit 2 "--record refuses an existing file" "exists; give --force" \
    "$PIPS" play tictacdoh --seat random --seat random --record "$tmp/old.json"
[ "$(cat "$tmp/old.json")" = precious ]; check "the existing file is untouched" $?
"$PIPS" play tictacdoh --seat random --seat random --record "$tmp/old.json" --force \
    </dev/null >/dev/null 2>&1 && [ "$(moves "$tmp/old.json")" -gt 0 ]
check "--force overwrites it with the new game" $?

# The record is written after every move: a game killed with SIGKILL keeps
# every move played, and replays. Seat 1 is fed through a pipe, seat 2 is an
# agent; kill after the person's third move has been answered.
mkfifo "$tmp/in9"
"$PIPS" play tictacdoh --seat human --seat random --seed 5 --record "$tmp/k.json" \
    <"$tmp/in9" >"$tmp/k.out" 2>&1 &
pid=$!
exec 4>"$tmp/in9"
printf 'L@0,0\n' >&4
for _ in $(seq 100); do [ "$(moves "$tmp/k.json")" = 2 ] && break; sleep 0.05; done
legal() { "$PIPS" analyze tictacdoh --record "$1" --agent random --seed 6 2>/dev/null | tail -n 1; }
m2=$(legal "$tmp/k.json")
printf '%s\n' "$m2" >&4
for _ in $(seq 100); do [ "$(moves "$tmp/k.json")" = 4 ] && break; sleep 0.05; done
{ kill -9 "$pid" && wait "$pid"; } 2>/dev/null
pid=
exec 4>&-
[ "$(moves "$tmp/k.json")" = 4 ]; check "after SIGKILL the record holds all 4 moves played" $?
"$PIPS" replay "$tmp/k.json" >"$tmp/k.replay" 2>&1; check "the killed game's record replays" $?
ls "$tmp" | grep -q '\.tmp$'; [ $? -ne 0 ]; check "no temporary file is left beside it" $?

# --resume continues it: the seats and seed from the record, two more moves,
# then quit; the record now holds 6 moves.
m3=$(legal "$tmp/k.json")
printf '%s\nquit\n' "$m3" | "$PIPS" play --resume "$tmp/k.json" >"$tmp/r.out" 2>&1
[ "$(moves "$tmp/k.json")" -ge 5 ] && grep -q "resuming .* after move 4" "$tmp/r.out"
st=$?; check "--resume plays on from move 5 and keeps writing the record ($(moves "$tmp/k.json") moves)" $st
grep -q '[0-9]\. seat 2 (random): ' "$tmp/r.out"; check "the record's agent seat plays on" $?
"$PIPS" play tictacdoh --seat random --seat random --record "$tmp/done.json" </dev/null >/dev/null 2>&1
expect_exit 2 "--resume of a finished game says it is over" "is over after" \
    "$PIPS" play --resume "$tmp/done.json"
expect_exit 1 "--resume of a missing file" "cannot open record" \
    "$PIPS" play --resume "$tmp/nothing.json"
expect_exit 2 "--resume with GAME is refused" "leave out GAME" \
    "$PIPS" play tictacdoh --resume "$tmp/k.json"
expect_exit 2 "--resume with --seed is refused" "leave out --seed" \
    "$PIPS" play --resume "$tmp/k.json" --seed 3
printf 'quit\n' | "$PIPS" play --resume "$tmp/k.json" --seat human --seat human >"$tmp/r2.out" 2>&1
grep -q 'seat 1> \|seat 2> ' "$tmp/r2.out"; check "--resume takes seats from --seat" $?

# A seed past 2^63-1 survives its record (written as digits) and resumes.
printf 'quit\n' | "$PIPS" play tictacdoh --seat human --seat random --seed 18446744073709551615 \
    --record "$tmp/big.json" >/dev/null 2>&1
grep -q '"seed": "18446744073709551615"' "$tmp/big.json" && "$PIPS" replay "$tmp/big.json" >/dev/null
check "the seed 2^64-1 round-trips through its record" $?
expect_exit 2 "a seed past 2^64-1 is refused with the range" "from 0 to 18446744073709551615" \
    "$PIPS" play tictacdoh --seed 18446744073709551616

finish
