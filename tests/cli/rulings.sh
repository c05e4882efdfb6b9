#!/usr/bin/env bash
# rulings.sh — every ruling id the engine cites (NIM-R4, ZIG-R13, ...) is
# explained in the repository, in the game's page docs/games/GAME.md: an
# entry that starts with the id in bold ("- **TTD-R3** On a stack...") or a
# parenthesised citation next to the explanation ("(ZIG-R13, R14)", "(NON §6,
# R6–R10)"); and no reader is sent to shared/rules/, which is not
# part of a clone: `pips rules`, the README, docs/ and source headers.
set -u
PIPS=$1 SRC=$2
python3 - "$PIPS" "$SRC" <<'PY'
import glob, os, re, subprocess, sys
pips, src = sys.argv[1], sys.argv[2]
pages = {"NIM": "nimitz", "ZIG": "ziggurat", "ICF": "icefrogs", "TTD": "tictacdoh", "NON": "noname"}
fails = 0
def check(name, cond):
    global fails
    print(("ok: " if cond else "FAIL: ") + name)
    fails += not cond

cited = set()
for path in glob.glob(os.path.join(src, "src", "**", "*.*"), recursive=True):
    if path.endswith((".c", ".h", ".inc")):
        cited |= set(re.findall(r"\b(NIM|ZIG|ICF|TTD|NON)-R(\d+)\b", open(path).read()))

def explained(prefix, text):
    """Rule numbers in bold entries and parenthesised citations of this game."""
    nums = {int(n) for n in re.findall(r"\*\*" + prefix + r"-R(\d+)", text)}
    for group in re.findall(r"\(([^()]*)\)", text):
        if not re.search(prefix + r"(-| §)", group):
            continue
        for a, b in re.findall(r"R(\d+)\s*(?:\.\.|-|–)\s*R(\d+)", group):
            nums |= set(range(int(a), int(b) + 1))
        nums |= {int(n) for n in re.findall(r"R(\d+)", group)}
    return nums

for prefix, page in sorted(pages.items()):
    text = open(os.path.join(src, "docs", "games", page + ".md")).read()
    have = explained(prefix, text)
    missing = sorted(int(n) for p, n in cited if p == prefix and int(n) not in have)
    check("docs/games/%s.md explains every %s ruling the code cites%s" % (
        page, prefix, "" if not missing else " (missing: %s)" % ", ".join(
            "%s-R%d" % (prefix, n) for n in missing)), not missing)
check("the code cites rulings of every game", {p for p, _ in cited} == set(pages))

def pointers(path):
    return [i + 1 for i, l in enumerate(open(path, errors="replace")) if "shared/rules" in l]
files = [os.path.join(src, "README.md")] + glob.glob(os.path.join(src, "docs", "**", "*.md"), recursive=True)
for path in glob.glob(os.path.join(src, "src", "**", "*.*"), recursive=True) + \
        glob.glob(os.path.join(src, "include", "**", "*.h"), recursive=True) + \
        glob.glob(os.path.join(src, "tests", "*.c"), recursive=False):
    files.append(path)
bad = ["%s:%s" % (os.path.relpath(f, src), n) for f in files for n in pointers(f)]
check("no pointer to shared/rules in the README, docs/, src/, include/ or tests/%s" % (
    "" if not bad else " (" + ", ".join(bad) + ")"), not bad)
for game in pages.values():
    out = subprocess.run([pips, "rules", game], capture_output=True, text=True).stdout
    check("pips rules %s points to docs/games, never shared/rules" % game,
          "shared/rules" not in out)
sys.exit(1 if fails else 0)
PY
