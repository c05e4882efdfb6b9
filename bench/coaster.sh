#!/usr/bin/env bash
# coaster.sh PIPS [THREADS] — the Martian Coaster benchmark (issue 14): solves
# the coaster (3x3, one set, five colours) in normal and in misere play with
# `pips solve nimitz --threads THREADS` (default 2; table by free memory) and
# prints per mode the value, the winning first move, positions stored, wall
# and CPU seconds, peak resident memory and the load average before the run
# (the machine is shared: say how busy it was). The target is 60 s wall and
# under 12 GiB resident per solve on the 2-core build machine.
# Usage: bench/coaster.sh build/pips 2
set -u
PIPS=$1 THREADS=${2:-2}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '| mode | value | winning first move | positions | wall s | CPU s | peak RSS GiB | load before |\n|---|---|---|---|---|---|---|---|\n'
for misere in false true; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -f '%e %U %S %M' -o "$out/time" \
        "$PIPS" solve nimitz --threads "$THREADS" --opt misere=$misere >"$out/solve" 2>"$out/err" ||
        { echo "| misere=$misere | failed: $(tail -n 1 "$out/err") |"; continue; }
    read -r wall user sys rss <"$out/time"
    value=$(tail -n 1 "$out/solve")
    move=$(sed -n 's/^winning first move: //p' "$out/solve")
    positions=$(sed -n 's/^positions: //p' "$out/solve")
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }')
    gib=$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1048576 }')
    echo "| misere=$misere | $value | ${move:--} | $positions | $wall | $cpu | $gib | $load |"
done
