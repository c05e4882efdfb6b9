#!/usr/bin/env bash
# playtest-speed.sh NEW [OLD] — what the lab's turns, drama and distinct games
# cost a playtest: games per processor second of `pips playtest` self-play for
# each game and agent kind (random, greedy, mcts:iters=100; the game's default
# options, one thread, exact solve off), with drama on (the default) and with
# `--drama off` (turns and distinct games stay on: they have no switch), and
# on / off. With OLD, a pips built from a revision before the lab had turns,
# drama and distinct games (commit a4880f2), its games/s ("before") and on /
# before as well; its agents are that revision's, so only the random rows
# compare like with like. Drama on is the default: every game up to 1000
# games a variant, beyond that 1000 games spread evenly (docs/playtest.md,
# "Speed"); random Nimitz and Tic Tac Doh! are also run with `--drama-every 1`
# (drama in every game, the cost the default's sample avoids).
# Each figure is the best of REPEAT (default 3) runs, timed by the processor
# time the run used (getrusage of the child, so a loaded machine disturbs it
# less than wall time would). SCALE (default 1) multiplies the game counts.
# Usage: nice -n 5 bench/playtest-speed.sh build/pips /tmp/base/build/pips
set -u
NEW=$1 OLD=${2:-}
REPEAT=${REPEAT:-3} SCALE=${SCALE:-1}
PY=$(command -v python3 || echo /usr/bin/python3)

# games per processor second: the best of REPEAT runs of the command
rate() {
    local n=$1
    shift
    "$PY" - "$n" "$REPEAT" "$@" <<'EOF'
import resource, subprocess, sys
n, repeat, cmd = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
best = None
for _ in range(repeat):
    t0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode:
        print("failed")
        sys.exit(0)
    s = max(t1.ru_utime + t1.ru_stime - t0.ru_utime - t0.ru_stime, 1e-6)
    best = s if best is None or s < best else best
print("%.0f" % (n / best))
EOF
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0 && a > 0) printf "%.2f", a / b; else printf "-" }'; }

# game, agent, games (RUNS replaces the list): each run about a second, idle
RUNS=${RUNS:-"tictacdoh random 200000
tictacdoh greedy 4000
tictacdoh mcts:iters=100 1000
nimitz random 20000
nimitz greedy 40
nimitz mcts:iters=100 60
icefrogs random 16000
icefrogs greedy 4000
icefrogs mcts:iters=100 800
noname random 2000
noname greedy 400
noname mcts:iters=100 60
ziggurat random 1000
ziggurat greedy 80
ziggurat mcts:iters=100 50"}

printf '| game | agents | games | games/s, drama on | drama off | on / off |'
[ -n "$OLD" ] && printf ' before | on / before |'
printf '\n|---|---|---|---|---|---|'
[ -n "$OLD" ] && printf -- '---|---|'
printf '\n'
row() { # game agent games label extra-args...
    local game=$1 agent=$2 n=$3 label=$4
    shift 4
    local args=(playtest "$game" --seats "$agent" --games "$n" --seed 1 --threads 1
                --exact-seconds 0)
    local on off
    on=$(rate "$n" "$NEW" "${args[@]}" "$@")
    off=$(rate "$n" "$NEW" "${args[@]}" --drama off)
    printf '| %s | %s | %s | %s | %s | %s |' "$game" "$label" "$n" "$on" "$off" "$(ratio "$on" "$off")"
    if [ -n "$OLD" ]; then
        local old
        old=$(rate "$n" "$OLD" "${args[@]}")
        printf ' %s | %s |' "$old" "$(ratio "$on" "$old")"
    fi
    printf '\n'
}
while read -r game agent n; do
    n=$((n * SCALE))
    row "$game" "$agent" "$n" "$agent"
    case "$game $agent" in
    "nimitz random" | "tictacdoh random")
        row "$game" "$agent" "$n" "random, --drama-every 1" --drama-every 1 ;;
    esac
done <<<"$RUNS"
