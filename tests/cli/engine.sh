#!/usr/bin/env bash
# engine.sh — `pips engine` (docs/engine-protocol.md) driven as a client
# program would: a whole game of every kind (all five games, Ziggurat's dice
# both rolled by the engine and named by `play`), the reply framing, errors
# that leave the position unchanged, and a seed that replays a session.
set -u
PIPS=$1
python3 - "$PIPS" <<'PY'
import subprocess, sys

pips = sys.argv[1]
fails = 0

def check(name, cond):
    global fails
    print(("ok: " if cond else "FAIL: ") + name)
    if not cond:
        fails += 1

class Engine:
    def __init__(self, *args):
        self.p = subprocess.Popen([pips, "engine", *args], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)
        self.transcript = []

    def ask(self, line):
        """Sends one command; returns (ok, lines of the reply)."""
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        first = self.p.stdout.readline()
        assert first[:2] in ("= ", "? "), "reply to %r starts %r" % (line, first)
        lines = [first[2:].rstrip("\n")]
        while True:
            nxt = self.p.stdout.readline()
            assert nxt != "", "reply to %r not ended by an empty line" % line
            if nxt == "\n":
                break
            lines.append(nxt.rstrip("\n"))
        self.transcript.append((line, first[:2], lines))
        return first[:2] == "= ", lines

    def ok(self, line):
        good, lines = self.ask(line)
        assert good, "%r failed: %s" % (line, lines)
        return lines

    def close(self):
        self.ask("quit")
        self.p.stdin.close()
        return self.p.wait(timeout=30)

games = [("tictacdoh", ""), ("nimitz", ""), ("icefrogs", ""),
         ("ziggurat", " players=2 max_turns=60"), ("noname", "")]

def play_game(name, opts, seed):
    e = Engine("--seed", str(seed))
    e.ok("game " + name + opts)
    plies = rolls = named = 0
    while True:
        turn = e.ok("turn")[0]
        if turn == "over":
            break
        if turn == "chance":
            outcomes = e.ok("legal")
            if rolls % 2:
                # name the outcome: the engine must play exactly that one
                want = outcomes[-1].split()[0]
                got = e.ok("play " + want)[0]
                assert got == want, (got, want)
                named += 1
            else:
                e.ok("roll")
            rolls += 1
        elif plies % 3 == 0:
            legal = e.ok("legal")
            e.ok("play " + legal[len(legal) // 2])
        else:
            e.ok("genmove random")
        plies += 1
        assert plies < 5000, "game does not end"
    result = e.ok("result")
    e.close()
    return plies, rolls, named, result, [t for t in e.transcript]

for name, opts in games:
    try:
        plies, rolls, named, result, tr = play_game(name, opts, 7)
        check("%s: a whole game through the engine (%d plies, %d dice, result %s)"
              % (name, plies, rolls, result[0]), plies > 0 and result[0] != "not over"
              and result[-1].startswith("returns "))
        if name == "ziggurat":
            check("ziggurat: dice rolled by the engine and named by play",
                  rolls >= 4 and named >= 2)
        again = play_game(name, opts, 7)[4]
        check("%s: the same seed replays the same session" % name, again == tr)
    except Exception as ex:  # a protocol violation
        check("%s: %s" % (name, ex), False)

e = Engine()
good, lines = e.ask("legal")
check("a command before 'game' is an error", not good)
good, lines = e.ask("frobnicate")
check("an unknown command is an error naming it", not good and "frobnicate" in lines[0])
names = e.ok("list_commands")
check("list_commands lists the required commands",
      all(c in names for c in ["list_commands", "name", "version", "game", "state", "legal",
                               "play", "undo", "genmove", "analyze", "result", "quit"]))
check("name is pips", e.ok("name") == ["pips"])
ver = e.ok("version")[0]
check("version is the command's (%s)" % ver,
      subprocess.run([pips, "--version"], capture_output=True, text=True).stdout.split()[1] == ver)
good, lines = e.ask("game chess")
check("an unknown game is an error", not good and "chess" in lines[0])
good, lines = e.ask("game nimitz misere=maybe")
check("a bad option is an error", not good and "misere" in lines[0])
e.ok("game tictacdoh")
e.ok("play L@0,0")
before = e.ok("state")
good, lines = e.ask("play L@0,0")
check("an illegal move is refused with the ruling", not good and "TTD-R3" in lines[0])
check("a refused move leaves the position", e.ok("state") == before)
e.ok("undo")
check("undo takes the move back", e.ok("state") != before)
good, _ = e.ask("undo")
check("undo at the start is an error", not good)
e.ok("state 0,0:LM 1,0:M 1,1:S")
check("state TEXT sets the position", e.ok("state") == ["0,0:LM 1,0:M 1,1:S"])
good, lines = e.ask("state 9,9:Q")
check("a bad state text is an error", not good)
check("and leaves the position", e.ok("state") == ["0,0:LM 1,0:M 1,1:S"])
ranked = e.ok("analyze alphabeta:depth=2")
check("analyze ranks moves best first (%d moves)" % len(ranked),
      len(ranked) > 1 and all(len(l.split()) == 3 for l in ranked))
check("genmove plays a move", e.ok("genmove greedy")[0] != "")
board = e.ok("showboard")
check("showboard draws the board without blank lines", len(board) > 3)
check("quit ends the engine with exit 0", e.close() == 0)

# Over-long and odd lines: each is one bad line, never split.
out = subprocess.run([pips, "engine"], input="x" * 2000 + "play L@0,0\n\n# comment\nname\n",
                     capture_output=True, text=True).stdout
check("an over-long line is one error, then the next command runs",
      out.startswith("? unknown command") and out.count("\n\n") == 2 and out.endswith("= pips\n\n"))
sys.exit(1 if fails else 0)
PY
