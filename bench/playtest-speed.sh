#!/usr/bin/env bash
# playtest-speed.sh NEW [OLD] [GAMES] — the playtest lab's own cost: games
# per processor second of `pips playtest` self-play, per game, for two
# workloads where the lab's bookkeeping weighs most (random and greedy
# agents; one thread, exact solve off), with the drama and tension figures
# on (the default) and off. With OLD (a pips built from an earlier
# revision) its figure is printed beside and the ratio NEW/OLD. Each figure
# is the best of REPEAT (default 3) runs, to damp a loaded machine. Greedy
# plays GAMES/10 games (its Nimitz games cost 40 ms each).
# Usage: bench/playtest-speed.sh build/pips /tmp/base/build/pips 2000
set -u
NEW=$1 OLD=${2:-} N=${3:-2000}
REPEAT=${REPEAT:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# games per processor second: the best of REPEAT runs
rate() {
    local best=0 n=$1
    shift
    for _ in $(seq "$REPEAT"); do
        /usr/bin/time -f "%U %S" -o "$tmp/t" "$@" >/dev/null 2>&1 || { echo "failed"; return; }
        best=$(awk -v n="$n" -v b="$best" '{ s = $1 + $2; if (s < 0.005) s = 0.005; r = n / s;
                                             print (r > b ? r : b) }' "$tmp/t")
    done
    printf '%.0f' "$best"
}

printf '| game | agents | games/s, drama on | drama off |'
[ -n "$OLD" ] && printf ' before | on / before | off / before |'
printf '\n|---|---|---|---|'
[ -n "$OLD" ] && printf -- '---|---|---|'
printf '\n'
for game in tictacdoh nimitz icefrogs noname ziggurat; do
    for agent in random greedy; do
        n=$N
        [ "$agent" = greedy ] && n=$((N / 10))
        args=(playtest "$game" --seats "$agent" --games "$n" --seed 1 --exact-seconds 0)
        on=$(rate "$n" "$NEW" "${args[@]}")
        off=$(rate "$n" "$NEW" "${args[@]}" --drama off)
        printf '| %s | %s | %s | %s |' "$game" "$agent" "$on" "$off"
        if [ -n "$OLD" ]; then
            old=$(rate "$n" "$OLD" "${args[@]}")
            awk -v a="$on" -v b="$off" -v o="$old" \
                'BEGIN { printf " %s | %.2f | %.2f |", o, a / o, b / o }'
        fi
        printf '\n'
    done
done
