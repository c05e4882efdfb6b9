#!/usr/bin/env bash
# python.sh PIPS SOURCE_DIR PYTHONPATH — every Python script of the repository
# runs, on a small workload whose answer is known: scripts/icefrogs-forced-win.py
# (`import pips`; docs/findings/icefrogs-players.md quotes it), bench/python_plies.py
# (`import pips`, which also checks pips.perft against the command's),
# bench/predict-moves.py (a deterministic seat predicts itself on every move),
# bench/noname-eval-fit.py (a row for every bucket; no records: an error),
# bench/move-times.py (a row for every spec).
# scripts/findings.py runs in tests/cli/findings.sh.
set -u
pips=$1 src=$2 pypath=$3
python=${PIPS_PYTHON:-/usr/bin/python3}
fail=0
check() { if [ "$2" != 0 ]; then echo "FAIL: $1"; fail=1; else echo "ok: $1"; fi; }

out=$("$python" "$src/scripts/icefrogs-forced-win.py" "$pips" 4 2 AAA)
check "icefrogs-forced-win.py runs (4 players, paranoid)" $?
! grep -q ': yes' <<<"$out"; check "4 players, everyone defends: no forced win by move 2" $?
out=$("$python" "$src/scripts/icefrogs-forced-win.py" "$pips" 4 2 EAA)
[ "$(grep ': yes' <<<"$out" | grep -o 'move [SML]+b1' | sort | tr '\n' ' ')" = "move L+b1 move M+b1 move S+b1 " ]
check "4 players, seat 2 helps: a forced win after S/M/L+b1 exactly" $?
grep -q '^library calls: 4073 ' <<<"$out"
check "the same search as over \`pips engine\` (4073 calls, as many as its commands)" $?
out=$(env -u PYTHONPATH "$python" "$src/scripts/icefrogs-forced-win.py" "$pips" 4 2 AEE)
[ "$(grep -c ': no$' <<<"$out")" = 6 ]
check "without PYTHONPATH it finds the package beside the command (4 players, AEE: no)" $?

out=$(PYTHONPATH=$pypath "$python" "$src/bench/python_plies.py" 0.2 "$pips")
check "bench/python_plies.py runs (perft equal to the command's)" $?
[ "$(grep -cE '^(tictacdoh|icefrogs|ziggurat|noname|nimitz) +[0-9]+ ' <<<"$out")" -ge 9 ]
check "it reports every game's plies/s and perft" $?

records=$(mktemp -d)
trap 'rm -rf "$records"' EXIT
"$pips" playtest tictacdoh --seats alphabeta:depth=2,random --games 4 --seed 1 \
    --out "$records" --records >/dev/null
out=$(PYTHONPATH=$pypath "$python" "$src/bench/predict-moves.py" "$records/records" \
    alphabeta:depth=2 0 40 alphabeta:depth=2 random)
check "bench/predict-moves.py runs" $?
grep -q '^| alphabeta:depth=2 | 12 | 12 | 1.000 ' <<<"$out"
check "a deterministic seat predicts all 12 of its own moves from other seeds" $?
grep -qE '^\| random \| 12 \| ([0-9]|1[01]) \|' <<<"$out"
check "random predicts fewer of them" $?
out=$(PYTHONPATH=$pypath "$python" "$src/bench/predict-moves.py" "$records/records" greedy 0 40 \
    random 2>&1)
[ $? = 1 ] && grep -q "no move of a seat 'greedy'" <<<"$out"
check "no move of the named seat: an error that says so" $?
out=$(PYTHONPATH=$pypath "$python" "$src/bench/predict-moves.py" "$records/records" nosuch 0 40 \
    random 2>&1)
[ $? = 1 ] && grep -q "SEAT_SPEC 'nosuch'" <<<"$out"
check "a seat spec that is no agent: an error that names it" $?
"$pips" playtest tictacdoh --seats greedy,random --games 2 --seed 1 --out "$records" --records \
    >/dev/null
out=$(PYTHONPATH=$pypath "$python" "$src/bench/predict-moves.py" "$records/records" medium 0 40 \
    greedy)
grep -qE '^2 records, [1-9][0-9]* positions of .medium.' <<<"$out"
check "a level name matches the spec it resolves to (medium: greedy)" $?

"$pips" playtest noname --opt players=4 --seats greedy --games 8 --seed 1 --out "$records" \
    --records >/dev/null
out=$(STEPS=20 PYTHONPATH=$pypath "$python" "$src/bench/noname-eval-fit.py" "$records" 6)
check "bench/noname-eval-fit.py runs" $?
[ "$(grep -cE '^\| [0-9]+-[0-9]+ \| [1-9][0-9]* \| [1-9][0-9]*, 0\.[0-9]{3}, [01]\.[0-9]{3} \|' <<<"$out")" = 6 ]
check "it fits and tests every one of its six buckets" $?
out=$(PYTHONPATH=$pypath "$python" "$src/bench/noname-eval-fit.py" "$records/none" 6 2>&1)
[ $? = 1 ] && grep -q "no records" <<<"$out"
check "a folder without records: an error that says so" $?
out=$(PYTHONPATH=$pypath "$python" "$src/bench/noname-eval-fit.py" "$records" 8 2>&1)
[ $? = 1 ] && grep -q "SPLIT must be between 1 and 7" <<<"$out"
check "a split that leaves no test games: an error" $?
out=$(PYTHONPATH=$pypath "$python" "$src/bench/move-times.py" tictacdoh 2 2 greedy random)
check "bench/move-times.py runs" $?
[ "$(grep -cE '^\| tictacdoh \| 2 \| (greedy|random) \| 2 \| [1-9][0-9]* \|' <<<"$out")" = 2 ]
check "it times both specs' moves over the 2 games" $?
exit $fail
