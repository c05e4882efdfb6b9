#!/usr/bin/env bash
# ladder.sh PIPS GAME GAMES [--opt K=V]... — the strength ladder benchmark:
# each agent plays the one below it GAMES times (seats rotated, seeded) and
# the stronger side's score (draws half) is printed with its 95% Wilson
# interval. Usage: bench/ladder.sh build/pips nimitz 200
set -u
PIPS=$1 GAME=$2 N=$3
shift 3
opts=("$@")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pairs=("greedy,random" "mcts:iters=1000,greedy" "mcts:iters=10000,mcts:iters=1000")
[ -n "${LADDER_EXTRA:-}" ] && pairs+=("$LADDER_EXTRA")
printf '| game | A vs B | games | A wins | draws | A losses | A score [95%%] | time |\n|---|---|---|---|---|---|---|---|\n'
for pair in "${pairs[@]}"; do
    start=$(date +%s)
    "$PIPS" playtest "$GAME" "${opts[@]}" --seats "$pair" --games "$N" --seed 1 --threads 2 \
        --out "$out/r" >/dev/null 2>"$out/err" || { echo "| $GAME | $pair | failed: $(tail -n 1 "$out/err") |"; continue; }
    secs=$(( $(date +%s) - start ))
    python3 - "$out/r/report.json" "$GAME ${opts[*]}" "$secs" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
a, b = r["variants"][0]["agents"][0], r["variants"][0]["agents"][1]
s = a["score"]
print(f"| {sys.argv[2]} | {a['spec']} vs {b['spec']} | {int(a['games'])} | {int(a['wins'])} | "
      f"{int(a['draws'])} | {int(a['losses'])} | {s['value']:.3f} [{s['lo']:.3f}, {s['hi']:.3f}] | {sys.argv[3]} s |")
PY
done
