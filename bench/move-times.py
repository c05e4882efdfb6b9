#!/usr/bin/env python3
"""move-times.py GAME SEATS GAMES LONE FIELD... — the time budget check of
issue 24: each agent's wall and processor seconds per move, mean and worst.

Plays GAMES games of GAME with SEATS players through libpips (the Python
package): the lone agent LONE takes seat g mod SEATS in game g, the FIELD
specs fill the other seats in the order given (the last one repeated), every
agent observes every move (as in `pips playtest`, so opp=adapt sees who
plays off the greedy policy), agents are seeded by game and seat, and dice
are rolled from a generator seeded by SEED. One game runs at a time on this
thread, so the processor time of a move (time.process_time: every thread
of the process) is the agent's own, threads=2 included, and a loaded machine
inflates it far less than the wall time. Prints one markdown row per
distinct spec: moves, wall mean / worst, processor mean / worst, and the
load average before and after.

Usage: PYTHONPATH=build/python /usr/bin/python3 bench/move-times.py \
           nimitz 3 12 max hard            # the level names resolve per seat count
Environment: SEED (default 1), OPT=key=value,key=value (game options).
"""
import os
import random
import sys
import time

import pips


def main(argv):
    if len(argv) < 5:
        sys.exit(__doc__)
    game_name, seats, games = argv[0], int(argv[1]), int(argv[2])
    lone, field = argv[3], argv[4:]
    seed = int(os.environ.get("SEED", "1"))
    options = dict(kv.split("=", 1) for kv in os.environ.get("OPT", "").split(",") if kv)
    options["players"] = str(seats)
    game = pips.Game(game_name, **options)
    rng = random.Random(seed)
    stats = {}  # spec -> [moves, wall sum, wall max, cpu sum, cpu max]
    load0 = os.getloadavg()
    for g in range(games):
        lone_seat = g % seats
        specs, k = [], 0
        for s in range(seats):
            if s == lone_seat:
                specs.append(lone)
            else:
                specs.append(field[min(k, len(field) - 1)])
                k += 1
        agents = [pips.Agent(spec, game, seed=seed * 1000003 + g * 64 + s)
                  for s, spec in enumerate(specs)]
        state = game.start()
        while not state.over:
            who = state.to_move
            if who == pips.CHANCE:
                outcomes = state.chance_outcomes()
                move = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                w0, c0 = time.perf_counter(), time.process_time()
                move = agents[who].choose(state)
                wall, cpu = time.perf_counter() - w0, time.process_time() - c0
                st = stats.setdefault(agents[who].spec, [0, 0.0, 0.0, 0.0, 0.0])
                st[0] += 1
                st[1] += wall
                st[2] = max(st[2], wall)
                st[3] += cpu
                st[4] = max(st[4], cpu)
            for a in agents:
                pips._lib.pips_agent_observe(a._handle, state._ptr, move)
            state.play(move)
    load1 = os.getloadavg()
    print("| game | seats | spec | games | moves | wall s/move mean / worst "
          "| processor s/move mean / worst | load average |")
    print("|---|---|---|---|---|---|---|---|")
    for spec, (n, ws, wm, cs, cm) in stats.items():
        print(f"| {game_name} | {seats} | {spec} | {games} | {n} | {ws / n:.3f} / {wm:.3f} "
              f"| {cs / n:.3f} / {cm:.3f} | {load0[0]:.1f} -> {load1[0]:.1f} |")


# pips_agent_observe is not in the package's declarations (the package has
# no observe method); declared here for this script only.
pips._ffi.cdef("void pips_agent_observe(pips_agent *a, const void *state_before, "
               "uint64_t m);")

if __name__ == "__main__":
    main(sys.argv[1:])
