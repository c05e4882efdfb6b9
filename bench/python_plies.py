#!/usr/bin/env python3
"""Plies per second of a Python loop of State.moves / State.play over random
games, for every game, and pips.perft beside the command's (C speed).

    PYTHONPATH=build/python /usr/bin/python3 bench/python_plies.py [SECONDS_PER_GAME] [PIPS]

Each game is played from the start to the end with moves drawn by Python's
random.Random(seed), game after game, for about SECONDS_PER_GAME (default 3)
seconds of processor time; the figures are plies played per second of wall
clock and per second of the process's processor time (user + system). On a
shared machine the wall-clock figure measures the load as much as the loop;
the processor-time one is the loop's own speed. With PIPS (the command),
perft of each game's bench depth is timed in Python and in the command.
"""
import random
import subprocess
import sys
import time

import pips

PERFT = {"tictacdoh": 6, "nimitz": 3, "icefrogs": 7, "ziggurat": 6}


def loop(game, seconds):
    rng = random.Random(1)
    plies = games = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    while time.process_time() - cpu_start < seconds:
        state = game.start()
        while not state.over:
            state.play(rng.choice(state.moves()))
            plies += 1
        games += 1
    return plies, games, time.perf_counter() - start, time.process_time() - cpu_start


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    command = sys.argv[2] if len(sys.argv) > 2 else None
    print(f"libpips {pips.version()}, Python {sys.version.split()[0]}")
    print(f"{'game':<10} {'plies/s':>9} {'plies/cpu-s':>11} {'plies':>9} {'games':>6}")
    for name in pips.games():
        plies, games, spent, cpu = loop(pips.Game(name), seconds)
        print(f"{name:<10} {plies / spent:>9.0f} {plies / cpu:>11.0f} {plies:>9} {games:>6}")
    if command:
        print(f"{'perft':<14} {'python s':>9} {'command s':>10}")
        for name, depth in PERFT.items():
            start = time.perf_counter()
            count = pips.perft(name, depth)
            py = time.perf_counter() - start
            start = time.perf_counter()
            out = subprocess.run([command, "perft", name, str(depth)], capture_output=True,
                                 text=True, check=True).stdout
            cli = time.perf_counter() - start
            assert str(count) in out, (name, count, out)
            print(f"{name} {depth:<5} {py:>9.3f} {cli:>10.3f}  ({count} sequences)")


if __name__ == "__main__":
    main()
