#!/usr/bin/env bash
# ladder-nplayer.sh PIPS GAMES [GAME:SEATS]... — the N-seat strength ladder
# (issue 24): each level plays as a lone agent against a field of the level
# below (medium vs easy, hard vs medium, max vs hard) and max also against a
# mixed field (one hard, the rest medium), with every seating played equally
# often (`--seatings all`: the lone agent takes every seat, the mixed field
# every order). GAMES is rounded up to a whole number of seatings. Prints
# one markdown row per rung: the lone agent's wins, its win rate with the
# 95% Wilson interval, the baseline 1/n, whether the rung holds (win rate
# >= 0.50 at 3 seats, >= 0.40 at 4, twice the baseline from 5; and the
# interval's lower bound above 1/n) and the lone agent's seconds per move:
# wall mean and worst, and an estimate of its processor seconds per move
# (the playtest's processor time, which runs one thread, shared out by each
# agent's wall time in moves), which a loaded machine inflates far less.
# Without GAME:SEATS it plays every game at 3 and 4 seats and IceFrogs and
# Nimitz also at 5 and 6. RUNGS="hard max" limits the rungs (easy medium
# hard max mixed name them by their lone agent; mixed is max vs the mixed
# field), SEED (default 1) and THREADS (default 1) set the playtest's.
# Progress goes to stderr: a line as each rung starts, and the playtest's
# line at every tenth of its games (and at least once a minute).
# OUT=DIR keeps each rung's playtest folder in DIR (GAME-N-RUNG-seedS-GAMES).
# A rung stopped by SIGINT or SIGTERM saves its games so far there, and the
# same command with the same OUT resumes it (`pips playtest --resume`) and
# reuses the rows of the rungs already finished; its time columns add the
# stopped part's. Without OUT the folders are temporary and a stopped rung
# is lost.
# Usage: nice -n 10 bench/ladder-nplayer.sh build/pips 200 tictacdoh:3 icefrogs:4
set -u
PIPS=$1 N=$2
shift 2
tables=("$@")
[ ${#tables[@]} -eq 0 ] && tables=(tictacdoh:3 tictacdoh:4 icefrogs:3 icefrogs:4 ziggurat:3
    ziggurat:4 noname:3 noname:4 nimitz:3 nimitz:4 icefrogs:5 icefrogs:6 nimitz:5 nimitz:6)
rungs=${RUNGS:-"medium hard max mixed"}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
keep=${OUT:-}
[ -z "$keep" ] || mkdir -p "$keep" || exit 2
stopped=0
trap 'stopped=1' INT TERM # the playtest stops at its next game and saves it
printf '| game | seats | lone | field | games | lone wins | lone win rate [95%%] | 1/n | holds | lone s/move mean / max | lone cpu s/move | wall |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|\n'
for table in "${tables[@]}"; do
    game=${table%%:*} n=${table##*:}
    for rung in $rungs; do
        case $rung in
        medium) lone=medium field=(easy) ;;
        hard) lone=hard field=(medium) ;;
        max) lone=max field=(hard) ;;
        mixed) lone=max field=(hard medium) ;;
        *) echo "unknown rung '$rung'" >&2; exit 2 ;;
        esac
        seats=$lone
        for ((s = 1; s < n; s++)); do
            f=${field[0]}
            [ ${#field[@]} -gt 1 ] && [ "$s" -gt 1 ] && f=${field[1]}
            seats="$seats,$f"
        done
        # distinct orders of the seat specs: n for a lone agent and an
        # identical field, n!/(n-2)! for lone + one hard + the rest medium
        orders=$n
        [ ${#field[@]} -gt 1 ] && orders=$((n * (n - 1)))
        games=$(((N + orders - 1) / orders * orders))
        dir=$out/r
        [ -z "$keep" ] || dir=$keep/$game-$n-$rung-seed${SEED:-1}-$games
        if [ -n "$keep" ] && [ -s "$dir/row.md" ] && [ ! -e "$dir/state.json" ]; then
            echo "ladder-nplayer: $game:$n $rung: finished before, row from $dir" >&2
            cat "$dir/row.md"
            continue
        fi
        # the time a stopped part of this rung took: wall and processor seconds
        spent_wall=0 spent_cpu=0
        where=(--out "$dir")
        if [ -e "$dir/state.json" ]; then
            where=(--resume "$dir")
            read -r spent_wall spent_cpu <"$dir/spent" 2>/dev/null || spent_wall=0 spent_cpu=0
        else
            rm -rf "$dir"
        fi
        start=$(date +%s)
        times >"$out/cpu0" # in this shell: a $(times) subshell has no children
        echo "ladder-nplayer: $game:$n $rung ($seats): $games games, seed ${SEED:-1}," \
            "${where[0]#--} $dir, started $(date -u +%H:%M:%S) UTC" >&2
        # the playtest's progress lines go on to stderr and into err for a
        # failure's row; tee -i outlives a ^C so the playtest can report its stop
        "$PIPS" playtest "$game" --opt "players=$n" --seats "$seats" --seatings all \
            --games "$games" --seed "${SEED:-1}" --threads "${THREADS:-1}" --exact-seconds 0 \
            --progress lines "${where[@]}" 2>&1 >/dev/null | tee -i "$out/err" >&2
        rc=${PIPESTATUS[0]}
        secs=$(($(date +%s) - start + spent_wall))
        times >"$out/cpu1"
        # processor seconds of this rung so far (`times`: "XmY.YYYs" columns)
        used=$(cat "$out/cpu0" "$out/cpu1" | awk -v before="$spent_cpu" '
            { t = 0; for (i = 1; i <= NF; i++) { split($i, p, "m"); t += 60 * p[1] + p[2] } }
            NR == 2 { t0 = t } NR == 4 { print t - t0 + before }')
        if [ "$rc" = 130 ]; then
            if [ -n "$keep" ] && [ -e "$dir/state.json" ]; then
                echo "$secs $used" >"$dir/spent"
                echo "ladder-nplayer: stopped; the same command with OUT=$keep resumes" \
                    "$game:$n $rung" >&2
            else
                echo "ladder-nplayer: stopped; give OUT=DIR to be able to resume a rung" >&2
            fi
            exit 130
        fi
        [ "$rc" -eq 0 ] ||
            { echo "| $game | $n | $seats | failed: $(tail -n 1 "$out/err") |"; continue; }
        /usr/bin/python3 - "$dir/report.json" "$game" "$n" "$rung" "$secs" "$used" \
            <<'PY' | tee "$out/row"
import json, sys
r = json.load(open(sys.argv[1]))
game, n, rung, secs = sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
played = sum(a["mean_move_seconds"] * a["moves"] for a in r["timing"]["agents"])
agents = r["variants"][0]["agents"]
lone, field = agents[0], agents[1:]
w = lone["win_rate"]
need = 0.50 if n == 3 else 0.40 if n == 4 else 2.0 / n
holds = "yes" if w["value"] >= need and w["lo"] > 1.0 / n else "no"
t = next(a for a in r["timing"]["agents"] if a["spec"] == lone["spec"])
share = t["mean_move_seconds"] * t["moves"] / played if played > 0 else 0
lone_cpu = float(sys.argv[6]) * share / max(t["moves"], 1)
fld = " + ".join(f"{a['spec']} x{a.get('seats', 1)}" for a in field)
print(f"| {game} | {n} | {lone['spec']} | {fld} | {int(lone['games'])} | {int(lone['wins'])} | "
      f"{w['value']:.3f} [{w['lo']:.3f}, {w['hi']:.3f}] | {1.0 / n:.3f} | {holds} | "
      f"{t['mean_move_seconds']:.4f} / {t['max_move_seconds']:.3f} | {lone_cpu:.4f} | {secs} s |")
PY
        [ -z "$keep" ] || cp "$out/row" "$dir/row.md"
        [ "$stopped" = 0 ] || { echo "ladder-nplayer: stopped after $game:$n $rung" >&2; exit 130; }
    done
done
