#!/usr/bin/env bash
# nimitz-boards.sh PIPS [SECONDS] — solves the small Nimitz boards of the
# table in docs/games/nimitz.md ("Solved outcomes for small boards"): every
# rectangle up to 12 cells, colours 2-5, one and two sets, normal and misere
# play, on one thread, each within SECONDS (default 120; a solve that runs
# out prints "-" for its value). Prints one Markdown row per solve: board,
# sets, colours, mode, value, positions stored, CPU seconds.
# Usage: bench/nimitz-boards.sh build/pips 120 > boards.md
set -u
PIPS=$1 LIMIT=${2:-120}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '| board | sets | colors | mode | value | positions | CPU s |\n|---|---|---|---|---|---|---|\n'
for board in 1x2 1x3 1x4 1x5 1x6 2x2 2x3 2x4 2x5 2x6 3x3 3x4; do
    for sets in 1 2; do
        for colors in 2 3 4 5; do
            for misere in false true; do
                mode=normal
                [ "$misere" = true ] && mode=misere
                /usr/bin/time -f '%U %S' -o "$out/time" "$PIPS" solve nimitz --threads 1 \
                    --time "$LIMIT" --opt board=$board --opt sets=$sets --opt colors=$colors \
                    --opt misere=$misere >"$out/solve" 2>/dev/null
                value=$(tail -n 1 "$out/solve")
                positions=$(sed -n 's/^positions: //p' "$out/solve")
                cpu=$(tail -n 1 "$out/time" | awk '{ printf "%.2f", $1 + $2 }')
                case $value in win | loss) ;; *) value=- positions=- ;; esac
                echo "| $board | $sets | $colors | $mode | $value | ${positions:--} | $cpu |"
            done
        done
    done
done
