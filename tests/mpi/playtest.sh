#!/usr/bin/env bash
# playtest.sh PIPS SOURCE_DIR — the MPI build: `mpirun -np K pips playtest`
# must write the same files as one process, for 2 and 3 local ranks: the
# same report.json (the run's description and timing aside), report.md
# (its Run and Timing sections aside), sweep.csv and SVG plots byte for
# byte, and the same records — for a plain playtest and for a sweep whose
# variants differ in seat count and have exact values.
set -u
PIPS=$1 SRC=${2:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if [ "$2" != 0 ]; then echo "FAIL: $1"; fail=1; else echo "ok: $1"; fi; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
strip() { python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))
r.pop("run", None); r.pop("timing", None)
print(json.dumps(r, sort_keys=True))' "$1"; }
# report.md without the sections that describe the run (date, machine, timing)
body() { sed '/^## Run$/,$d' "$1" | md5sum; }
records() { (cd "$1/records" && for f in *; do echo "$f"; grep -v '"started"\|"finished"' "$f"; done) | md5sum; }
same_files() { # DIR_A DIR_B LABEL
    [ "$(strip "$1/report.json")" = "$(strip "$2/report.json")" ]; check "$3: report.json equals the single-process one" $?
    [ "$(body "$1/report.md")" = "$(body "$2/report.md")" ]; check "$3: report.md equals it (run and timing aside)" $?
    local f diff=0
    for f in "$1"/*.svg "$1"/sweep.csv; do cmp -s "$f" "$2/$(basename "$f")" || { diff=1; echo "  differs: $(basename "$f")"; }; done
    check "$3: sweep.csv and every SVG are byte-identical" $diff
}

plain=(playtest tictacdoh --seats greedy,mcts:iters=200 --games 18 --seed 11 --records --exact-seconds 0)
sweep=(playtest nimitz --opt board=3x3 --seats mcts:iters=100 --games 10 --seed 5 --vary players=2,3
       --vary colors=2,3 --records --exact-seconds 20 --exact-mb 64)
"$PIPS" "${plain[@]}" --out "$tmp/one" >/dev/null 2>&1; check "single process" $?
"$PIPS" "${sweep[@]}" --out "$tmp/sone" >/dev/null 2>&1; check "single process sweep" $?
grep -q '"status": "solved"' "$tmp/sone/report.json"; check "the sweep has exact values" $?
for np in 2 3; do
    mpirun --oversubscribe -np $np "$PIPS" "${plain[@]}" --out "$tmp/mpi$np" >/dev/null 2>"$tmp/err$np"
    st=$?; check "mpirun -np $np ($(tail -n 1 "$tmp/err$np"))" $st
    same_files "$tmp/one" "$tmp/mpi$np" "$np ranks"
    [ "$(records "$tmp/one")" = "$(records "$tmp/mpi$np")" ]
    check "records from $np ranks equal the single-process records" $?
    mpirun --oversubscribe -np $np "$PIPS" "${sweep[@]}" --out "$tmp/smpi$np" >/dev/null 2>"$tmp/serr$np"
    st=$?; check "sweep under mpirun -np $np ($(tail -n 1 "$tmp/serr$np"))" $st
    same_files "$tmp/sone" "$tmp/smpi$np" "sweep, $np ranks"
    [ "$(records "$tmp/sone")" = "$(records "$tmp/smpi$np")" ]
    check "sweep records from $np ranks equal the single-process records" $?
    grep -q "^- MPI ranks: $np" "$tmp/smpi$np/report.md"; check "the report names the $np ranks" $?
done
# Lua (docs/lua.md): every rank loads the scripts itself; a sweep over rule scripts and a
# game written in Lua give the single process's files
lua_sweep=(playtest tictacdoh --seats greedy --games 12 --seed 3 --records --exact-seconds 0
           --vary "rules=none,$SRC/examples/rules/tictacdoh-small-first.lua")
lua_game=(playtest "$SRC/examples/games/overtop.lua" --seats greedy,random --games 10 --seed 2
          --records --exact-seconds 0)
for run in lua_sweep lua_game; do
    declare -n args=$run
    "$PIPS" "${args[@]}" --out "$tmp/${run}_one" >/dev/null 2>&1; check "$run: single process" $?
    mpirun --oversubscribe -np 2 "$PIPS" "${args[@]}" --out "$tmp/${run}_mpi" >/dev/null \
        2>"$tmp/${run}_err"
    st=$?; check "$run: mpirun -np 2 ($(tail -n 1 "$tmp/${run}_err"))" $st
    same_files "$tmp/${run}_one" "$tmp/${run}_mpi" "$run, 2 ranks"
    [ "$(records "$tmp/${run}_one")" = "$(records "$tmp/${run}_mpi")" ]
    check "$run: records from 2 ranks equal the single-process records" $?
done
exit $fail
