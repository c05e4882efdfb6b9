#!/usr/bin/env bash
# ladder.sh PIPS GAME GAMES [--opt K=V]... — the strength ladder benchmark:
# each level plays the one below it GAMES times (seats rotated, seed 1) and
# the upper side's score (draws half) is printed with its 95% Wilson
# interval. The rungs are the game's own levels (medium vs easy, hard vs
# medium, max vs hard, as its definition sets them); LADDER_PAIRS="A,B;C,D"
# replaces them with explicit pairs, LADDER_EXTRA adds one pair, and
# THREADS (default 1) sets the playtest's worker threads.
# Usage: bench/ladder.sh build/pips nimitz 200
set -u
PIPS=$1 GAME=$2 N=$3
shift 3
opts=("$@")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if [ -n "${LADDER_PAIRS:-}" ]; then
    IFS=';' read -r -a pairs <<<"$LADDER_PAIRS"
else
    pairs=("medium,easy" "hard,medium" "max,hard")
fi
[ -n "${LADDER_EXTRA:-}" ] && pairs+=("$LADDER_EXTRA")
printf '| game | A vs B | games | A wins | draws | A losses | A score [95%%] | A s/move mean / max | time |\n|---|---|---|---|---|---|---|---|---|\n'
for pair in "${pairs[@]}"; do
    start=$(date +%s)
    "$PIPS" playtest "$GAME" "${opts[@]}" --seats "$pair" --games "$N" --seed 1 \
        --threads "${THREADS:-1}" --exact-seconds 0 --out "$out/r" >/dev/null 2>"$out/err" ||
        { echo "| $GAME | $pair | failed: $(tail -n 1 "$out/err") |"; continue; }
    secs=$(( $(date +%s) - start ))
    python3 - "$out/r/report.json" "$GAME ${opts[*]}" "$secs" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
a, b = r["variants"][0]["agents"][0], r["variants"][0]["agents"][1]
s = a["score"]
ta = r["timing"]["agents"][0]
t = f"{ta['mean_move_seconds']:.3f} / {ta['max_move_seconds']:.3f} s"
print(f"| {sys.argv[2]} | {a['spec']} vs {b['spec']} | {int(a['games'])} | {int(a['wins'])} | "
      f"{int(a['draws'])} | {int(a['losses'])} | {s['value']:.3f} [{s['lo']:.3f}, {s['hi']:.3f}] | {t} | {sys.argv[3]} s |")
PY
done
