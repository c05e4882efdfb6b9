#!/usr/bin/env bash
# unix.sh — the `pips` command's Unix manners (issue 18): --version, help on
# stdout and usage errors on stderr for every command, `pips help CMD`,
# --key=value, strict `bench`, `replay` and boolean options, `analyze` from a
# record, NO_COLOR, replay navigation and the Noname board on 80x24.
set -u
. "$(dirname "$0")/lib/common.sh"
fails() { expect_exit 2 "$@"; } # fails NAME EXPECTED-IN-STDERR COMMAND...

# --version and version
v=$("$PIPS" --version); check "pips --version exits 0" $?
echo "$v" | head -n 1 | grep -Eq '^pips [0-9]+\.[0-9]+\.[0-9]+( \(git [^)]+\))?$'; st=$?; check "version line: $(echo "$v" | head -n 1)" $st
[ "$("$PIPS" version)" = "$v" ]; check "pips version = pips --version" $?

# Help: on stdout, exit 0, nothing on stderr, for every command; pips help CMD is the same.
cmds=$("$PIPS" --help | awk '/^commands:/ {on=1; next} /^$/ {on=0} on {print $1}')
[ "$(echo "$cmds" | wc -w)" -ge 12 ]; check "pips --help lists the commands" $?
for c in $cmds; do
    "$PIPS" "$c" --help >"$tmp/h1" 2>"$tmp/h1.err"; rc=$?
    [ $rc = 0 ] && [ ! -s "$tmp/h1.err" ] && head -n 1 "$tmp/h1" | grep -q "^usage: pips $c"
    check "pips $c --help: usage on stdout, exit 0" $?
    "$PIPS" help "$c" >"$tmp/h2" 2>&1; cmp -s "$tmp/h1" "$tmp/h2"; check "pips help $c = pips $c --help" $?
    "$PIPS" "$c" -h | cmp -s - "$tmp/h1"; check "pips $c -h = --help" $?
done

# Every command main.c dispatches has its entry in the help table.
for c in $(sed -n '/^static const command commands/,/^};/p' "$SRC/src/cli/main.c" | grep -o '{"[a-z-]*"' | tr -d '{"'); do
    echo "$cmds" | grep -qx "$c"; check "command $c is in the help table" $?
done

# Every long flag a command's code reads is in the help table (and so in the
# man page and completion): a flag added in src/cli without its help fails here.
allhelp=$(for c in $cmds; do "$PIPS" "$c" --help; done)
for flag in $(grep -ho '"--[a-z][a-z-]*"' "$SRC"/src/cli/cmd_*.c | tr -d '"' | grep -vx -- --help | sort -u); do
    echo "$allhelp" | grep -q -- "^  $flag\b"; check "$flag is documented in the help table" $?
done

# Usage errors: stderr, exit 2, nothing on stdout.
fails "rules without a game" "missing GAME" "$PIPS" rules
fails "replay without a file" "missing FILE" "$PIPS" replay
fails "solve without a game" "missing GAME" "$PIPS" solve
fails "perft without a depth" "missing DEPTH" "$PIPS" perft nimitz
fails "analyze without a position" "give one of" "$PIPS" analyze tictacdoh
fails "serve with an unknown flag" "unknown flag .--bogus." "$PIPS" serve --bogus x
fails "engine with an unknown flag" "unknown flag .--bogus." "$PIPS" engine --bogus
fails "list with an argument" "expected --json or FILE.lua" "$PIPS" list extra
fails "help of an unknown command" "unknown command" "$PIPS" help nosuch
fails "an unknown command" "unknown command" "$PIPS" nosuch
fails "play without a game" "usage" "$PIPS" play
fails "playtest without a game" "usage" "$PIPS" playtest

# bench: unknown games and flags are errors.
fails "bench chess" "unknown game 'chess'" "$PIPS" bench chess
fails "bench --help-me" "unknown flag '--help-me'" "$PIPS" bench --help-me
"$PIPS" bench tictacdoh >"$tmp/bench" 2>&1 && grep -q '^tictacdoh' "$tmp/bench" && grep -q '^total nodes: [1-9]' "$tmp/bench"
check "bench tictacdoh still runs" $?

# --key=value for every long option, through the one shared splitter.
"$PIPS" play tictacdoh --seat random --seat random --seed 5 --record "$tmp/a.json" >/dev/null </dev/null
"$PIPS" play tictacdoh --seat=random --seat=random --seed=5 --record="$tmp/b.json" >/dev/null </dev/null
check "play --seat=random --seed=5 --record=F" $?
cmp -s <(grep -v '"started"\|"finished"' "$tmp/a.json") <(grep -v '"started"\|"finished"' "$tmp/b.json")
check "--key=value means --key value" $?
[ "$("$PIPS" perft nimitz 1 --opt=board=2x3 2>/dev/null)" = "$("$PIPS" perft nimitz 1 --opt board=2x3 2>/dev/null)" ]
check "perft --opt=K=V" $?
"$PIPS" playtest tictacdoh --seats=random,random --games=2 --seed=3 >/dev/null 2>&1
check "playtest --seats=a,b --games=2" $?
"$PIPS" analyze tictacdoh --state='0,0:LM 1,0:M 1,1:S' --agent=greedy --top=2 >/dev/null
check "analyze --state=TEXT --agent=SPEC --top=2" $?
fails "a switch given a value" "takes no value" "$PIPS" perft tictacdoh 1 --divide=1
"$PIPS" analyze tictacdoh --state --x=1 >/dev/null 2>"$tmp/err"; grep -q "state at char 0" "$tmp/err"
check "a value that looks like --k=v after an option stays whole" $?

# Boolean options: true or false only.
fails "misere=yes refused" "is not true or false" "$PIPS" perft nimitz 1 --opt misere=yes
fails "misere=1 refused" "is not true or false" "$PIPS" perft nimitz 1 --opt misere=1
"$PIPS" perft nimitz 1 --opt misere=true >/dev/null 2>&1; check "misere=true accepted" $?

# replay: strict about what a record says.
mk() { python3 - "$tmp/a.json" "$tmp/$1.json" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(r, open(sys.argv[2], "w"))
PY
}
mk contradict 'r["result"]["text"] = "O wins" if r["result"]["text"] != "O wins" else "X wins"'
mk returns 'r["result"]["returns"] = list(reversed(r["result"]["returns"])) if r["result"]["returns"][0] != r["result"]["returns"][1] else [1, 0]'
mk unknown 'r["winner"] = "me"'
mk superbot 'r["seats"][1] = "superbot"'
mk agentseat 'r["seats"][1] = "mcts:iters=100"'
"$PIPS" replay "$tmp/contradict.json" >/dev/null 2>"$tmp/err"; [ $? = 1 ] && grep -q "but the moves give" "$tmp/err"
st=$?; check "replay refuses a result text the moves contradict ($(cat "$tmp/err"))" $st
"$PIPS" replay "$tmp/returns.json" >/dev/null 2>"$tmp/err"; [ $? = 1 ] && grep -q "returns" "$tmp/err"
check "replay refuses returns the moves contradict" $?
"$PIPS" replay "$tmp/unknown.json" >/dev/null 2>"$tmp/err"; [ $? = 1 ] && grep -q "unknown key 'winner'" "$tmp/err"
check "replay refuses an unknown top-level key" $?
"$PIPS" replay "$tmp/superbot.json" >/dev/null 2>"$tmp/err"; [ $? = 1 ] && grep -q "seat 2 'superbot'" "$tmp/err"
st=$?; check "replay refuses a made-up seat ($(cat "$tmp/err"))" $st
"$PIPS" replay "$tmp/agentseat.json" >/dev/null; check "replay accepts an agent spec seat" $?
"$PIPS" replay "$tmp" >/dev/null 2>"$tmp/err"; [ $? = 1 ] && grep -q "is a directory" "$tmp/err"
st=$?; check "replay of a directory says so ($(cat "$tmp/err"))" $st

# analyze --record F --ply N: the same as --state with the position after N moves.
n=3
state=$(python3 - "$tmp/a.json" "$n" <<'PY' | "$PIPS" engine | awk '/^= / {last=$0} END {print substr(last, 3)}'
import json, sys
r = json.load(open(sys.argv[1]))
print("game " + r["game"])
for m in r["moves"][:int(sys.argv[2])]:
    print("play " + m)
print("state")
PY
)
a1=$("$PIPS" analyze tictacdoh --record "$tmp/a.json" --ply $n --agent alphabeta:depth=2 | sed 1d)
a2=$("$PIPS" analyze tictacdoh --state "$state" --agent alphabeta:depth=2 | sed 1d)
[ -n "$a1" ] && [ "$a1" = "$a2" ]; check "analyze --record --ply $n = analyze --state (position $state)" $?
fails "analyze --ply past the record's end" "has only" "$PIPS" analyze tictacdoh --record "$tmp/a.json" --ply 99
fails "analyze --record of another game" "is a record of tictacdoh" "$PIPS" analyze nimitz --record "$tmp/a.json"
fails "analyze --ply without --record" "needs --record" "$PIPS" analyze tictacdoh --state x --ply 1

# Terminal behaviour through a pseudo-terminal: NO_COLOR and replay navigation.
python3 - "$PIPS" "$tmp/a.json" <<'PY'
import os, pty, select, sys, time
pips, rec = sys.argv[1], sys.argv[2]
fails = 0
def check(name, cond):
    global fails
    print(("ok: " if cond else "FAIL: ") + name)
    fails += not cond

def run(args, env_extra, keys):
    pid, fd = pty.fork()
    if pid == 0:
        env = dict(os.environ, **env_extra)
        env.pop("NO_COLOR", None) if "NO_COLOR" not in env_extra else None
        os.execve(pips, [pips] + args, env)
    out = b""
    for k in keys + [None]:
        deadline = time.time() + 5
        while time.time() < deadline:
            r, _, _ = select.select([fd], [], [], 0.2)
            if not r:
                if out.endswith(b"] ") or out.endswith(b"> "):
                    break
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                break
            out += chunk
        if k is not None:
            os.write(fd, k)
    os.waitpid(pid, 0)
    return out.decode(errors="replace")

coloured = run(["play", "nimitz", "--seat", "random", "--seat", "random", "--seed", "2"], {}, [])
plain = run(["play", "nimitz", "--seat", "random", "--seat", "random", "--seed", "2"], {"NO_COLOR": "1"}, [])
check("a terminal gets colour", "\033[" in coloured)
check("NO_COLOR=1 turns colour off on a terminal", "\033[" not in plain and "result:" in plain)

out = run(["replay", rec], {}, [b"x\n", b"99\n", b"-1\n", b"2\n", b"q\n"])
check("replay refuses a bad key with a message", "'x': type Enter or n" in out)
check("out-of-range and negative numbers are refused", "'99':" in out and "'-1':" in out)
positions = [l for l in out.splitlines() if l.startswith("position after")]
check("bad keys never step (positions: %s)" % [p.split(" of")[0][15:] for p in positions],
      [p.split()[2] for p in positions[:5]] == ["0", "0", "0", "0", "2"])
sys.exit(1 if fails else 0)
PY
[ $? = 0 ]; check "terminal checks" $?

# Noname on an 80x24 terminal: the board with its legend, and suggestions that never wrap mid-move.
"$PIPS" play noname --seat random --seat random --seed 3 </dev/null >"$tmp/nn"
printf 'suggest\nquit\n' | "$PIPS" play noname --seat human --seat random >"$tmp/sug"
python3 - "$tmp/nn" "$tmp/sug" <<'PY'
import re, sys
fails = 0
def check(name, cond):
    global fails
    print(("ok: " if cond else "FAIL: ") + name)
    fails += not cond
lines = open(sys.argv[1]).read().splitlines()
borders = [i for i, l in enumerate(lines) if re.fullmatch(r"\+[-+]+\+", l)]
top, bottom = borders[-2], borders[-1]
ruler, legend = lines[bottom + 1], lines[bottom + 2]
board = lines[top:bottom + 3]
width = max(len(l) for l in board)
check("Noname board, its mm rulers and legend fit 80x24 (%d x %d)" % (width, len(board)),
      legend.startswith("table ") and width <= 80 and len(board) <= 24)
# the mm scale: x values under ticks of the bottom border, y values beside the right border
check("Noname's drawing has a mm scale: %r" % ruler,
      re.fullmatch(r" 0 +100 +200 +300 +400 +500 +600 mm", ruler) is not None
      and lines[bottom].count("+") == 2 + 5
      and lines[top + 1].endswith("+ 600") and lines[bottom - 1].endswith("+ 0"))
text = open(sys.argv[2]).read()
listing = text.split("suggested moves", 1)[1].split("seat 1>", 1)[0].splitlines()[1:]
# grouped by piece (pips moves): "rM (5): 480.0,450.0/U 177.8,392.7/U63.3 ..."
words = [w for w in " ".join(listing).split()
         if not re.fullmatch(r"[rygbkwpocx][SML]|\(\d+\):", w)]
move = re.compile(r"[0-9.]+,[0-9.]+(/U[0-9.]*|>[0-9.]+)")
check("suggestions: %d moves on %d lines, each under 80 columns, none split"
      % (len(words), len(listing)),
      len(words) >= 8 and all(len(l) < 80 for l in listing) and all(move.fullmatch(w) for w in words))
sys.exit(1 if fails else 0)
PY
[ $? = 0 ]; check "noname terminal checks" $?
exit $fail
