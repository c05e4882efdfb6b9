#!/usr/bin/env bash
# ladder_nplayer.sh — bench/ladder-nplayer.sh stopped and resumed: with
# OUT=DIR a rung stopped by SIGINT keeps its games there (exit 130, a line
# saying how to resume), the same command resumes it to the row of an
# uninterrupted run (its time columns aside) and then reuses finished rows
# without playing; without OUT a stop says OUT is needed to resume.
. "$(dirname "$0")/lib/common.sh"
LADDER=$SRC/bench/ladder-nplayer.sh
run() { RUNGS="hard medium" "$LADDER" "$PIPS" 12 nimitz:3; }
# a row's game columns: everything before the seconds a move
games_of() { grep '^| nimitz' "$1" | cut -d'|' -f1-10; }

run >"$tmp/full.md" 2>"$tmp/full.err"
check "an uninterrupted ladder runs ($(tail -n 1 "$tmp/full.err"))" $?
[ "$(grep -c '^| nimitz | 3 |' "$tmp/full.md")" = 2 ]; check "one row a rung" $?

# stop the ladder's whole process group (as ^C does) once the first rung has
# reported progress; job control gives the background run its own group
stop_after_progress() {
    set -m
    "$@" &
    local pid=$! i
    set +m
    for ((i = 0; i < 600; i++)); do
        grep -q '^pips playtest: [0-9]*/12 games' "$tmp/err" 2>/dev/null && break
        sleep 0.1
    done
    kill -INT -- -"$pid"
    wait "$pid"
}
stop_after_progress env OUT="$tmp/keep" RUNGS="hard medium" "$LADDER" "$PIPS" 12 nimitz:3 \
    >"$tmp/a.md" 2>"$tmp/err"
rc=$?
[ "$rc" = 130 ]; check "SIGINT stops the ladder with status 130 ($rc)" $?
grep -q "^ladder-nplayer: stopped; the same command with OUT=$tmp/keep resumes nimitz:3 hard" "$tmp/err"
check "and says how to resume" $?
[ -e "$tmp/keep/nimitz-3-hard-seed1-12/state.json" ] && [ -s "$tmp/keep/nimitz-3-hard-seed1-12/spent" ]
check "the stopped rung's games and time are kept in OUT" $?
! grep -q '^| nimitz' "$tmp/a.md"; check "no row for a stopped rung" $?

OUT="$tmp/keep" run >"$tmp/b.md" 2>"$tmp/b.err"
check "the same command resumes ($(tail -n 1 "$tmp/b.err"))" $?
grep -q '^ladder-nplayer: nimitz:3 hard (hard,medium,medium): 12 games, seed 1, resume ' "$tmp/b.err"
check "the hard rung is resumed, not replayed" $?
[ -n "$(games_of "$tmp/b.md")" ] && [ "$(games_of "$tmp/b.md")" = "$(games_of "$tmp/full.md")" ]
check "the resumed rows equal the uninterrupted ones" $?

OUT="$tmp/keep" run >"$tmp/c.md" 2>"$tmp/c.err"
check "a finished ladder runs again" $?
cmp -s "$tmp/b.md" "$tmp/c.md"; check "with the same rows" $?
[ "$(grep -c 'finished before, row from' "$tmp/c.err")" = 2 ] && ! grep -q '^pips playtest' "$tmp/c.err"
check "reused from OUT without playing a game" $?

stop_after_progress env RUNGS="hard" "$LADDER" "$PIPS" 12 nimitz:3 >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" = 130 ] && grep -q '^ladder-nplayer: stopped; give OUT=DIR to be able to resume a rung' "$tmp/err"
check "without OUT a stop says OUT is needed ($rc)" $?
finish
