#!/usr/bin/env bash
# solve.sh — `pips solve` end to end: values from the start and from any
# position (--state, --record --ply), the bounds every solve keeps (memory,
# time; exit status 3 naming the budget), progress on stderr, and games the
# solver refuses at once.
set -u
. "$(dirname "$0")/lib/common.sh"

small="--opt board=2x3 --opt colors=3"
"$PIPS" solve nimitz $small >"$tmp/start.out" 2>/dev/null; check "solve 2x3 colors=3 exits 0" $?
[ "$(tail -n 1 "$tmp/start.out")" = loss ]; check "2x3 colors=3 is a first-player loss" $?
grep -q '^no winning first move$' "$tmp/start.out"; check "a loss names no winning first move" $?

"$PIPS" solve nimitz --opt board=3x3 --opt colors=3 >"$tmp/w.out" 2>/dev/null
[ "$(tail -n 1 "$tmp/w.out")" = win ] && grep -q '^winning first move: ' "$tmp/w.out"
check "3x3 colors=3: win, with a winning first move" $?
move=$(sed -n 's/^winning first move: //p' "$tmp/w.out")
"$PIPS" solve nimitz --opt board=3x3 --opt colors=3 --state - >"$tmp/moves.out" 2>/dev/null
grep -qx "$move win" "$tmp/moves.out"; check "the named first move is listed as a win" $?
[ "$(tail -n 1 "$tmp/moves.out")" = win ]; check "--state: the value last" $?
n_moves=$("$PIPS" perft nimitz 1 --opt board=3x3 --opt colors=3 2>/dev/null | tail -n 1)
[ "$(sed '$d' "$tmp/moves.out" | grep -c -E ' (win|loss)$')" = "$n_moves" ]
check "--state: one line per legal move" $?

# A position after one move: its value is the loss the move was listed with.
first=$(grep -m1 ' loss$' "$tmp/moves.out" | cut -d' ' -f1)
"$PIPS" play nimitz --opt board=3x3 --opt colors=3 --seat random --seat random --seed 3 \
    --record "$tmp/g.json" </dev/null >/dev/null 2>&1
"$PIPS" solve nimitz --record "$tmp/g.json" --ply 2 >"$tmp/rec.out" 2>/dev/null
check "--record --ply exits 0" $?
last=$(tail -n 1 "$tmp/rec.out")
{ [ "$last" = win ] || [ "$last" = loss ]; } && [ "$(wc -l <"$tmp/rec.out")" -gt 1 ]
check "--record --ply: moves, then the value" $?
"$PIPS" solve nimitz --record "$tmp/g.json" --ply 999 >/dev/null 2>&1; [ $? -eq 2 ]
check "--ply past the record's end is refused" $?

"$PIPS" solve tictacdoh --state '0,0:LM 1,0:M 1,1:S' >"$tmp/ttd.out" 2>/dev/null
check "tictacdoh --state exits 0" $?
grep -q -E ' (win|loss|draw)$' "$tmp/ttd.out" && tail -n 1 "$tmp/ttd.out" | grep -q -x -E 'win|loss|draw'
check "tictacdoh --state: moves with values, the value last" $?

# --best: the position alone and one winning move, which the every-move
# listing agrees is a win; without a position it is refused
"$PIPS" solve nimitz --record "$tmp/g.json" --ply 2 --best >"$tmp/best.out" 2>/dev/null
check "--record --ply --best exits 0" $?
[ "$(tail -n 1 "$tmp/best.out")" = "$last" ] && [ "$(grep -c '@' "$tmp/best.out")" -le 1 ]
check "--best: the same value, no list of moves" $?
if [ "$last" = win ]; then
    best=$(sed -n 's/^winning move: //p' "$tmp/best.out")
    grep -qx "$best win" "$tmp/rec.out"
else
    grep -qx 'no winning move' "$tmp/best.out"
fi
check "--best: its winning move is listed as a win (or none for a loss)" $?
"$PIPS" solve nimitz --best >/dev/null 2>"$tmp/best.err"; [ $? -eq 2 ] && grep -q -- "--best goes with" "$tmp/best.err"
check "--best without a position is refused" $?

err=$("$PIPS" solve nimitz --opt board=3x3 --opt colors=4 --opt sets=2 --table-mb 1 2>&1 >/dev/null)
rc=$?
[ $rc -eq 3 ] && echo "$err" | grep -q "memory budget of 1 MB"
check "a tiny --table-mb fails with status 3 naming the budget" $?

err=$("$PIPS" solve nimitz --time 1.5 2>&1 >/dev/null)
rc=$?
[ $rc -eq 3 ] && echo "$err" | grep -q "time budget of 1.5 s" && echo "$err" | grep -q '^solving: .* positions/s, table '
check "--time stops the coaster with status 3, progress shown" $?

start=$(date +%s)
err=$("$PIPS" solve icefrogs 2>&1 >/dev/null)
rc=$?
[ $rc -eq 1 ] && echo "$err" | grep -q "too long to solve" && [ $(($(date +%s) - start)) -le 5 ]
check "icefrogs is refused at once" $?
"$PIPS" solve ziggurat >/dev/null 2>&1; [ $? -eq 1 ]; check "a game with dice is refused" $?
"$PIPS" solve --help | grep -q "at most 11264 MB"; check "--help names the default budget" $?

# NIM-R3's tree_orientation=free: solved on up to 9 cells (an orientation a
# level in the key), refused past that with the limit named
err=$("$PIPS" solve nimitz --opt board=2x5 --opt tree_orientation=free 2>&1 >/dev/null)
[ $? -eq 1 ] && echo "$err" | grep -q "tree_orientation=free, boards of up to 9 cells"
check "free trees past 9 cells are refused" $?
"$PIPS" solve nimitz --opt board=1x3 --opt tree_orientation=free --state 'a1:U:rL b1:NE:gMbS' \
    >"$tmp/free.out" 2>/dev/null
# 32 moves: oM, yM on a1 at level 2 in the 4 orientations but b1's level-2 E,
# and 6 pieces on c1 in the 4 orientations but b1's bottom N
[ $? -eq 0 ] && [ "$(grep -c '@' "$tmp/free.out")" -eq 32 ] && grep -q '^oM@a1:N win$' "$tmp/free.out" &&
    ! grep -q '@a1:E' "$tmp/free.out" && [ "$(tail -n 1 "$tmp/free.out")" = win ]
check "a free-tree position with two orientations is solved per move" $?

exit $fail
