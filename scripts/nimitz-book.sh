#!/usr/bin/env bash
# nimitz-book.sh PIPS [THREADS] — regenerates the entries of
# src/games/nimitz/nimitz_book.inc, the positions of the coaster (the default
# Nimitz: 3x3, 5 colours, one set, two players) proven lost for the player
# to move, for normal play and misere:
#   1. every first move is solved (`pips solve nimitz --state -`); each
#      winning one leaves a lost position, listed once per class;
#   2. after each losing first move, one winning reply is found
#      (`pips solve ... --best`) and the position it leaves is listed.
# First moves fall into 9 classes: colours and orientations are only
# compared for equality, so only the size and the cell's place (corner,
# edge, centre) tell them apart; red on a1, a2 and b2 stands for each.
# Prints the C initialisers on stdout; about 10 minutes on 2 threads.
set -eu
PIPS=$1 THREADS=${2:-2}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
record() { # MISERE MOVE...: a coaster record playing these moves
    local misere=$1 sep="" m
    shift
    printf '{"format":"pips-record","version":1,"game":"nimitz","options":{"misere":"%s"},' "$misere"
    printf '"seats":["human","human"],"seed":1,"moves":['
    for m in "$@"; do printf '%s"%s"' "$sep" "$m"; sep=,; done
    printf ']}\n'
}
for misere in false true; do
    "$PIPS" solve nimitz --state - --threads "$THREADS" --opt misere=$misere \
        >"$dir/first" 2>/dev/null
    for size in S M L; do
        for cell in a1 a2 b2; do
            first="r$size@$cell:N"
            value=$(awk -v m="$first" '$1 == m { print $2 }' "$dir/first")
            case $value in
            win) echo "    {$misere, {\"$first\", NULL}}," ;;
            loss)
                record "$misere" "$first" >"$dir/record.json"
                reply=$("$PIPS" solve nimitz --record "$dir/record.json" --ply 1 --best \
                    --threads "$THREADS" 2>/dev/null | sed -n 's/^winning move: //p')
                [ -n "$reply" ] || { echo "no winning reply to $first" >&2; exit 1; }
                echo "    {$misere, {\"$first\", \"$reply\"}},"
                ;;
            *) echo "first move $first not solved" >&2; exit 1 ;;
            esac
        done
    done
done
