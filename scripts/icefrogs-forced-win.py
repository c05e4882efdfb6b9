#!/usr/bin/env python3
"""Can seat 1 of IceFrogs win by its K-th move whatever the other seats do?

A depth-limited search over `pips engine` (legal / play / undo / result), used by
docs/findings/icefrogs-players.md. Usage:

    scripts/icefrogs-forced-win.py PIPS PLAYERS K [ROLES]

ROLES has one letter per seat 2..PLAYERS: A (the seat plays against seat 1: every move must
still lose to seat 1) or E (the seat may help: one move that lets seat 1 win is enough).
The default, all A, is the paranoid search: every other seat defends together. A seat that
wins on its own move refutes the line. Prints, for each first move of seat 1, whether it
forces a win by ply (K-1)*PLAYERS+1.
"""
import subprocess
import sys


def main():
    pips, players, k = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    roles = sys.argv[4] if len(sys.argv) > 4 else "A" * (players - 1)
    if len(roles) != players - 1 or set(roles) - set("AE"):
        sys.exit("ROLES needs one letter A or E for each seat 2..PLAYERS")
    engine = subprocess.Popen([pips, "engine"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, bufsize=1)
    calls = 0

    def command(line):
        nonlocal calls
        calls += 1
        engine.stdin.write(line + "\n")
        engine.stdin.flush()
        reply = []
        while True:
            text = engine.stdout.readline()
            if text in ("\n", ""):
                break
            reply.append(text.rstrip("\n"))
        if not reply or not reply[0].startswith("="):
            raise RuntimeError(f"{line}: {reply}")
        reply[0] = reply[0][2:]
        return [r for r in reply if r]

    def winner():
        """None while the game goes on, else the winning seat (0 for a draw)."""
        text = " ".join(command("result"))
        if text == "not over":
            return None
        returns = [float(x) for x in text.split("returns")[1].split()]
        return returns.index(1.0) + 1 if 1.0 in returns else 0

    def seat1_wins(ply, limit):
        seat = int(command("turn")[0])
        helping = seat == 1 or roles[seat - 2] == "E"
        for move in command("legal"):
            command("play " + move)
            w = winner()
            good = w == 1 or (w is None and ply + 1 < limit and seat1_wins(ply + 1, limit))
            command("undo")
            if helping and good:
                return True
            if not helping and not good:
                return False
        return not helping

    command(f"game icefrogs players={players}")
    limit = (k - 1) * players + 1
    for move in command("legal"):
        command("play " + move)
        forced = seat1_wins(1, limit)
        command("undo")
        print(f"players={players} roles={roles} first move {move}: "
              f"seat 1 wins by ply {limit}: {'yes' if forced else 'no'}", flush=True)
    print(f"engine commands: {calls}")


if __name__ == "__main__":
    main()
