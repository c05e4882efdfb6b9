#!/usr/bin/env python3
"""predict-moves.py RECORDS SEAT_SPEC FIRST LAST SPEC... — how well each
agent SPEC predicts the moves a field actually played (issue 24: what an
opponent model can know of the seats it models).

Replays every game record in the folder RECORDS (`pips playtest --out DIR
--records`, then DIR/records) and, at every ply from FIRST to LAST (0-based,
both included) where a seat whose spec is SEAT_SPEC moved (a level name such as
hard matches the spec it resolves to at the record's seat count), asks each
SPEC for its move at that position (a fresh agent, seeded by the record's
file and the ply, so a run replays) and counts it a hit when the position
after it equals the one after the recorded move up to the game's symmetries
(State.canonical: Nimitz, Tic Tac Doh!, IceFrogs; in other games the same
move). Naming SEAT_SPEC itself among the SPECs measures how far that seat
predicts itself from another seed: the ceiling of any model of it. Prints
one markdown row per SPEC: positions, hits, the hit rate with its 95%
Wilson interval, hits by ply, and processor milliseconds a move.

Usage: PYTHONPATH=build/python /usr/bin/python3 bench/predict-moves.py \\
           out/records 'mcts:iters=1000,evals=15000,opp=greedy,settle=1' 4 11 \\
           greedy 'mcts:iters=100,opp=greedy' 'mcts:iters=1000,evals=15000,opp=greedy,settle=1'
"""
import json
import os
import sys
import time

import pips


def wilson(hits, n, z=1.96):
    """The 95% Wilson interval of hits in n, from the library's pips_wilson
    (the interval every pips report prints)."""
    lo, hi = pips._ffi.new("double *"), pips._ffi.new("double *")
    pips._lib.pips_wilson(hits / n, n, z, lo, hi)
    return lo[0], hi[0]


def position_key(state):
    """The position up to symmetry where the game has symmetries, else its text."""
    try:
        return state.canonical().text()
    except pips.Error:
        return state.text()


def main(argv):
    if len(argv) < 5:
        sys.exit(__doc__)
    folder, seat_spec, first, last, specs = argv[0], argv[1], int(argv[2]), int(argv[3]), argv[4:]
    hits = {s: {} for s in specs}
    cpu = {s: 0.0 for s in specs}
    asked = {}
    files = sorted(f for f in os.listdir(folder) if f.endswith(".json"))
    if not files:
        sys.exit(f"predict-moves: no records (*.json) in {folder}")
    for index, name in enumerate(files):
        with open(os.path.join(folder, name)) as f:
            record = json.load(f)
        game = pips.Game(record["game"], **record["options"])
        try:
            names = {seat_spec, pips.Agent(seat_spec, game).spec}
        except pips.Error as e:
            sys.exit(f"predict-moves: SEAT_SPEC '{seat_spec}': {e}")
        modelled = {seat for seat, spec in enumerate(record["seats"]) if spec in names}
        state = game.start()
        for ply, move in enumerate(record["moves"]):
            if first <= ply <= last and state.to_move in modelled:
                truth = position_key(state.child(move))
                asked[ply] = asked.get(ply, 0) + 1
                for spec in specs:
                    agent = pips.Agent(spec, game, seed=1000 * index + ply)
                    start = time.process_time()
                    guess = agent.choose(state)
                    cpu[spec] += time.process_time() - start
                    hit = position_key(state.child(guess)) == truth
                    hits[spec][ply] = hits[spec].get(ply, 0) + hit
            state.play(move)
    n = sum(asked.values())
    if n == 0:
        sys.exit(f"predict-moves: no move of a seat '{seat_spec}' at plies {first}-{last}")
    print(f"{len(files)} records, {n} positions of '{seat_spec}' at plies {first}-{last}\n")
    print("| spec | positions | hits | hit rate [95%] | hits by ply | cpu ms/move |")
    print("|---|---|---|---|---|---|")
    for spec in specs:
        h = sum(hits[spec].values())
        lo, hi = wilson(h, n)
        by_ply = " ".join(f"{p}:{hits[spec].get(p, 0)}/{asked[p]}" for p in sorted(asked))
        print(f"| {spec} | {n} | {h} | {h / n:.3f} [{lo:.3f}, {hi:.3f}] | {by_ply} | "
              f"{1000 * cpu[spec] / n:.1f} |")


# pips_wilson (pips/lab.h) is not in the package's declarations; declared
# here for this script only, as move-times.py declares what it needs.
pips._ffi.cdef("void pips_wilson(double p_hat, double n, double z, double *lo, double *hi);")

if __name__ == "__main__":
    main(sys.argv[1:])
