#!/usr/bin/env bash
# handoff.sh BUILD_DIR [GAMES] [SEED] — how many greedy-vs-greedy wins at three
# and four seats came from a hand-off (docs/ai.md, "Hand-offs at three seats
# and more"): runs BUILD_DIR/bench_handoff (tests/bench/handoff.c) on every
# game, seats rotated, and prints its counts with 95% Wilson intervals.
# SPECS="greedy" (default) sets the agent every seat plays.
# Usage: nice -n 10 bench/handoff.sh build 300 1
set -eu
BUILD=$1 N=${2:-300} SEED=${3:-1}
tool="$BUILD/bench_handoff"
[ -x "$tool" ] || { echo "no $tool: build the bench_handoff target first" >&2; exit 2; }
spec=${SPECS:-greedy}
seats() { local s=$spec; for ((i = 1; i < $1; i++)); do s+=",$spec"; done; echo "$s"; }
for game in tictacdoh icefrogs nimitz noname ziggurat; do
    for players in 3 4; do
        "$tool" "$game" "$N" "$SEED" "$(seats "$players")" "players=$players"
        echo
    done
done
