#!/usr/bin/env bash
# playtest.sh PIPS SOURCE_DIR — the MPI build: `mpirun -np K pips playtest`
# must give the same report (timing aside) and the same records as one
# process, for 2 and 3 local ranks.
set -u
PIPS=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if [ "$2" != 0 ]; then echo "FAIL: $1"; fail=1; else echo "ok: $1"; fi; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
args=(playtest tictacdoh --seats greedy,mcts:iters=200 --games 18 --seed 11 --records)
"$PIPS" "${args[@]}" --out "$tmp/one" >/dev/null 2>&1; check "single process" $?
strip() { python3 -c 'import json,sys
def clean(v):
    if isinstance(v, dict):
        return {k: clean(x) for k, x in v.items() if "time" not in k and "second" not in k and "rate" not in k and k not in ("threads", "ranks")}
    if isinstance(v, list):
        return [clean(x) for x in v]
    return v
print(json.dumps(clean(json.load(open(sys.argv[1]))), sort_keys=True))' "$1"; }
records() { (cd "$1/records" && for f in *; do grep -v '"started"\|"finished"' "$f"; done) | md5sum; }
for np in 2 3; do
    mpirun --oversubscribe -np $np "$PIPS" "${args[@]}" --out "$tmp/mpi$np" >/dev/null 2>"$tmp/err$np"
    check "mpirun -np $np ($(tail -n 1 "$tmp/err$np"))" $?
    [ "$(strip "$tmp/one/report.json")" = "$(strip "$tmp/mpi$np/report.json")" ]
    check "report from $np ranks equals the single-process report" $?
    [ "$(records "$tmp/one")" = "$(records "$tmp/mpi$np")" ]
    check "records from $np ranks equal the single-process records" $?
done
exit $fail
