#!/usr/bin/env python3
"""Can seat 1 of IceFrogs win by its K-th move whatever the other seats do?

A depth-limited search over `import pips` (moves / play / undo / returns), used by
docs/findings/icefrogs-players.md. Usage:

    scripts/icefrogs-forced-win.py PIPS PLAYERS K [ROLES]

ROLES has one letter per seat 2..PLAYERS: A (the seat plays against seat 1: every move must
still lose to seat 1) or E (the seat may help: one move that lets seat 1 win is enough).
The default, all A, is the paranoid search: every other seat defends together. A seat that
wins on its own move refutes the line. Prints, for each first move of seat 1, whether it
forces a win by ply (K-1)*PLAYERS+1.

PIPS is the command of the build or install whose library the search uses: when `import
pips` does not find the package on its own (PYTHONPATH), it is taken from beside the command
(build/pips -> build/python; PREFIX/bin/pips -> PREFIX/lib*/python3*/site-packages). It needs
Debian's python3-cffi (/usr/bin/python3; scripts/deps.sh installs it).
"""
import glob
import os
import sys


def import_pips(command):
    """The pips package: from sys.path, else the one beside the command."""
    try:
        import pips
        return pips
    except ImportError:
        pass
    bindir = os.path.dirname(os.path.abspath(command))
    prefix = os.path.dirname(bindir)
    places = [os.path.join(bindir, "python")]  # a build tree
    places += sorted(glob.glob(os.path.join(prefix, "lib*", "python3*", "site-packages")))
    places += sorted(glob.glob(os.path.join(prefix, "lib", "*", "python3*", "site-packages")))
    for place in places:
        if os.path.isfile(os.path.join(place, "pips", "__init__.py")):
            sys.path.insert(0, place)
            import pips
            return pips
    sys.exit(f"no `import pips` beside {command} (looked in {', '.join(places)}); "
             "set PYTHONPATH to the package's directory")


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__.split("Usage:")[1].split("ROLES has")[0].strip())
    command, players, k = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    roles = sys.argv[4] if len(sys.argv) > 4 else "A" * (players - 1)
    if len(roles) != players - 1 or set(roles) - set("AE"):
        sys.exit("ROLES needs one letter A or E for each seat 2..PLAYERS")
    pips = import_pips(command)
    state = pips.Game("icefrogs", players=players).start()
    calls = 0  # moves, play, undo, result and turn calls (the engine commands they replace)

    def winner():
        """None while the game goes on, else the winning seat (0 for a draw)."""
        nonlocal calls
        calls += 1
        returns = state.returns
        if returns is None:
            return None
        return returns.index(1.0) + 1 if 1.0 in returns else 0

    def seat1_wins(ply, limit):
        nonlocal calls
        calls += 2  # turn, legal
        seat = state.to_move + 1
        helping = seat == 1 or roles[seat - 2] == "E"
        for move in state.moves():
            state.play(move)
            w = winner()
            good = w == 1 or (w is None and ply + 1 < limit and seat1_wins(ply + 1, limit))
            state.undo()
            calls += 2  # play, undo
            if helping and good:
                return True
            if not helping and not good:
                return False
        return not helping

    calls += 2  # game, legal
    limit = (k - 1) * players + 1
    for move in state.moves():
        text = state.move_text(move)
        state.play(move)
        forced = seat1_wins(1, limit)
        state.undo()
        calls += 2
        print(f"players={players} roles={roles} first move {text}: "
              f"seat 1 wins by ply {limit}: {'yes' if forced else 'no'}", flush=True)
    print(f"library calls: {calls} (as many as `pips engine` commands before)")


if __name__ == "__main__":
    main()
