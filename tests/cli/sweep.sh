#!/usr/bin/env bash
# sweep.sh — `pips playtest --vary`, end to end: the grid of variants with
# one agent in every seat (the seat count follows the variant), the files
# (sweep.csv, one SVG per metric), the run's description in the report,
# whole numbers in the JSON, the --games limit, old records cleared, the
# exact value beside the measured rates, and the progress bar's time left
# (--progress: the bar, lines, none).
set -u
. "$(dirname "$0")/lib/common.sh"

"$PIPS" playtest icefrogs --seats random --games 4 --seed 2 --vary players=2,3 \
    --vary max_plies=4,300 --out "$tmp/s" >"$tmp/s.md" 2>"$tmp/s.err"
st=$?; check "a sweep over players and max_plies runs ($(tail -n 1 "$tmp/s.err"))" $st
n=$(wc -l <"$tmp/s/sweep.csv"); [ "$n" = 5 ]; check "sweep.csv: a header and 4 variants ($n lines)" $?
head -n 1 "$tmp/s/sweep.csv" | grep -q '^variant,players,max_plies,seats,games,mean_turns,mean_turns_lo,mean_turns_hi,mean_rounds,.*,seat1_score,.*,first_seat_advantage,.*draw_rate,.*mean_plies,median_plies,cap_rate,.*decisiveness,branching'
check "sweep.csv names the columns" $?
grep -q '^C,3,4,3,4,' "$tmp/s/sweep.csv"; check "variant C: 3 players, max_plies 4, 4 games" $?
python3 - "$tmp/s/sweep.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
# max_plies=4 stops every game at the cap; 300 lets random frogs finish some
assert [r["cap_rate"] for r in rows][0::2] == ["1.000000", "1.000000"], rows
assert rows[0]["seat3_score"] == "" and rows[2]["seat3_score"] != "", rows
PY
check "the cap rate and the absent third seat in sweep.csv" $?
for m in seat-scores first-seat-advantage draw-rate mean-plies median-plies cap-rate branching; do
    grep -q '^<svg ' "$tmp/s/sweep-$m.svg"; check "sweep-$m.svg written" $?
done
grep -q '^- command: `pips playtest icefrogs --seats random --games 4 --seed 2 --vary players=2,3' "$tmp/s/report.md"
check "the report records the command line" $?
grep -q '^- version: ' "$tmp/s/report.md" && grep -q '^- date: 20' "$tmp/s/report.md" && grep -q "^- machine: $(uname -s)" "$tmp/s/report.md"
check "the report records the version, date and machine" $?
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["run"]["command"].startswith("pips playtest"); assert r["run"]["version"] and r["run"]["date"] and r["run"]["machine"]' "$tmp/s/report.json"
check "report.json records the run" $?
! grep -Eq '"(games|wins|draws|losses|capped|unfinished)": [0-9]+\.0' "$tmp/s/report.json"
check "counts are integers in report.json" $?
grep -q '| p (Holm) |' "$tmp/s/report.md"; check "the comparisons carry Holm-adjusted p-values" $?
# the one agent holds every seat: 2 in A and B, 3 in C and D, in report.md as in report.json
grep -q '^1\. `random` (2 seats in A, B; 3 in C, D)$' "$tmp/s/report.md" &&
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit([v["agents"][0]["seats"] for v in r["variants"]] != [2, 2, 3, 3])' "$tmp/s/report.json"
check "the agent's seats per variant in the report header and report.json" $?
"$PIPS" playtest icefrogs --seats random --games 1 --vary players=2,3,4,5,6 --vary max_plies=2,3 \
    --exact-seconds 0 2>/dev/null | grep -q '^1\. `random` (2 to 6 seats, by variant)$'
check "and their range over many variants" $?

# ';' separates values that hold commas
"$PIPS" playtest icefrogs --seats random --games 2 --vary 'players=2;3' >"$tmp/semi.md" 2>&1
check "--vary with ';' between values" $?
grep -q '^- B: `players=3`' "$tmp/semi.md"; check "';' gives the variant players=3" $?

# errors
out=$("$PIPS" playtest tictacdoh --seats random --games 2147483647 2>&1); [ $? = 2 ]
check "--games 2147483647 is refused" $?
grep -q 'from 1 to 100000000' <<<"$out"; check "and the message states the maximum ($out)" $?
out=$("$PIPS" playtest icefrogs --seats random,greedy --games 2 --vary players=2,3 2>&1); [ $? = 2 ]
check "two agents cannot fill a 3-player variant" $?
grep -q 'variant B (' <<<"$out"; check "the error names the variant ($out)" $?
"$PIPS" playtest icefrogs --seats random --games 2 --vary players 2>/dev/null; [ $? = 2 ]
check "--vary without values is refused" $?

# records of an earlier run are removed, with a message
"$PIPS" playtest tictacdoh --seats random --games 4 --records --out "$tmp/r" --exact-seconds 0 >/dev/null 2>&1
"$PIPS" playtest tictacdoh --seats random --games 2 --records --out "$tmp/r" --exact-seconds 0 >/dev/null 2>"$tmp/r.err"
check "a second run into the same folder" $?
grep -q 'removed 4 records of an earlier run' "$tmp/r.err"; check "it says it removed the 4 old records" $?
n=$(ls "$tmp/r/records" | wc -l); [ "$n" = 2 ]; check "only this run's 2 records remain ($n)" $?

# agents against the game: Nimitz 3x3, 3 colours is a proven first-player win
"$PIPS" playtest nimitz --opt board=3x3 --opt colors=3 --seats random --games 20 --seed 1 \
    >"$tmp/n.md" 2>&1
check "a Nimitz 3x3 playtest" $?
grep -q 'first mover (seat 1) wins with perfect play' "$tmp/n.md"; check "the report gives the exact value" $?
grep -q 'Warning: the agents disagree' "$tmp/n.md"; check "and warns that random agents disagree" $?

# a level across a players sweep plays each seat count's own spec (issue 24:
# Tic Tac Doh!'s hard differs at 3 and 4 seats), and the report says which
"$PIPS" playtest tictacdoh --seats hard --vary players=3,4 --games 2 --seed 1 --exact-seconds 0 \
    --records --out "$tmp/lv" >/dev/null 2>&1
check "a level over --vary players=3,4" $?
grep -q 'mcts:iters=3000,opp=greedy,settle=1' "$tmp/lv/records/B-000001.json" &&
    ! grep -q 'mcts:iters=1000,opp=greedy"' "$tmp/lv/records/B-000001.json"
check "the 4-seat variant's records name the 4-seat hard" $?
grep -q '^1\. `hard (by seat count)`' "$tmp/lv/report.md" &&
    grep -q '^Agent 1 plays `mcts:iters=3000,opp=greedy,settle=1` here\.' "$tmp/lv/report.md" &&
    grep -q '^Trust: not checked: 4 seats; these agents measured against greedy at this seat count: `mcts:iters=3000' "$tmp/lv/report.md"
check "the report names each variant's spec and its trust line" $?

# the progress bar (on a terminal) shows the time left
script -qec "$PIPS playtest tictacdoh --seats random --games 30 --exact-seconds 0" /dev/null \
    >"$tmp/tty.txt" 2>&1
grep -q '30/30 games, [0-9]*s left' "$tmp/tty.txt"; check "the progress bar shows the time left" $?
# --progress lines: a line at each tenth of the run, for logs and scripts
"$PIPS" playtest tictacdoh --seats random --games 30 --exact-seconds 0 --drama off \
    --progress lines >/dev/null 2>"$tmp/lines.txt"
st=$?
n=$(grep -c '^pips playtest: [0-9]*/30 games, [0-9]*s left$' "$tmp/lines.txt")
[ $st = 0 ] && [ "$n" = 9 ] &&
    tail -n 1 "$tmp/lines.txt" | grep -q '^pips playtest: 30/30 games, [0-9]*s in all$' &&
    ! grep -q $'\r' "$tmp/lines.txt"
check "--progress lines: nine lines with the time left, then the time in all ($n)" $?
script -qec "$PIPS playtest tictacdoh --seats random --games 30 --exact-seconds 0 --progress off" \
    /dev/null >"$tmp/tty.txt" 2>&1
! grep -q '/30 games, ' "$tmp/tty.txt"; check "--progress off draws no bar on a terminal" $?
"$PIPS" playtest tictacdoh --seats random --games 3 --progress always >/dev/null 2>"$tmp/bad.txt"
[ $? = 2 ] && grep -q "^pips playtest: --progress 'always': expected auto, bar, lines or off$" \
    "$tmp/bad.txt"
check "a bad --progress is refused with status 2, naming the choices" $?
exit $fail
