#!/usr/bin/env python3
"""findings.py — the findings pages' numbers, reproduced (scripts/findings.sh).

Every run behind docs/findings lives in one manifest, docs/findings/runs.tsv
(page, folder, quick arguments, command). This script

  - regenerates: runs each command of the pages asked for (all by default;
    an argument with a '/' names one run, e.g. ziggurat/dice-4p-greedy)
    into docs/findings/FOLDER (report.md, report.json, sweep.csv, plots) and
    rewrites each page's generated blocks from them: the commands between
    <!-- findings:commands --> and <!-- /findings:commands -->, and the
    table of a run between <!-- findings:table FOLDER --> and
    <!-- /findings:table -->;
  - with --check: reruns into a scratch folder and compares every number of
    each run's sweep.csv with the committed one, naming each number that
    changed (page, run, variant, column, old and new value), and checks that
    each page's generated blocks match its committed data; exit status 1
    when anything differs;
  - with --render: runs nothing, and rewrites the pages' generated blocks
    from the committed runs;
  - with --quick: the reduced run of each page (its quick arguments replace
    the command's flags of the same names), pinned in tests/findings/; with
    --check that is the build's drift check (tests/cli/findings.sh).

Exit status: 0 all reproduced (or regenerated), 1 a number differs, 2 bad
usage or a run that failed.

Needs Python 3 (the standard library only: any python3 will do) and a built
pips command (--pips PATH, else build/pips). CI runs the quick check
(tests/cli/findings.sh).
"""
import csv
import io
import os
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FINDINGS = os.path.join(ROOT, "docs", "findings")
MANIFEST = os.path.join(FINDINGS, "runs.tsv")
QUICK_DIR = os.path.join(ROOT, "tests", "findings")


def read_manifest():
    runs = []
    with open(MANIFEST) as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) != 4 or not cols[3].startswith("pips "):
                sys.exit("%s:%d: expected page, folder, quick, command" % (MANIFEST, lineno))
            runs.append({"page": cols[0], "folder": cols[1], "quick": cols[2],
                         "command": cols[3]})
    return runs


def args_of(run, quick):
    """The pips arguments of a run (without 'pips'), quick ones replacing
    every flag of the same name."""
    args = shlex.split(run["command"])[1:]
    if not quick:
        return args
    extra = shlex.split(run["quick"])
    names = {a for a in extra if a.startswith("--")}
    out, i = [], 0
    while i < len(args):
        if args[i] in names:
            i += 2
            continue
        out.append(args[i])
        i += 1
    return out + extra


def quick_file(run):
    return os.path.join(QUICK_DIR, run["folder"].replace("/", "--") + ".csv")


def play(pips, args, out_dir):
    cmd = [pips] + args + ["--out", out_dir]
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.stderr.write("findings: failed (%d): %s\n%s" % (r.returncode, " ".join(cmd),
                                                            r.stderr[-2000:]))
        sys.exit(2)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def compare(run, old_path, new_path):
    """The numbers that changed, one text each."""
    where = "%s (%s)" % (run["page"], run["folder"])
    if not os.path.exists(old_path):
        return ["%s: no committed %s to compare with" % (where, os.path.relpath(old_path, ROOT))]
    old, new = read_csv(old_path), read_csv(new_path)
    diffs = []
    if len(old) != len(new):
        diffs.append("%s: %d variants, was %d" % (where, len(new), len(old)))
    for a, b in zip(old, new):
        for col in sorted(set(a) | set(b), key=lambda c: list(b).index(c) if c in b else 1e9):
            if a.get(col) != b.get(col):
                diffs.append("%s, variant %s, %s: was %s, now %s" % (
                    where, b.get("variant", "?"), col, a.get(col, "(no column)"),
                    b.get(col, "(no column)")))
    return diffs


# ---- the pages' generated blocks ----------------------------------------------------

def fmt(x, digits=2):
    return "-" if x in ("", None) else "%.*f" % (digits, float(x))


def interval(row, name, digits=2, prefix=None):
    """A figure with its interval: NAME, NAME_lo, NAME_hi (or PREFIX_lo/_hi)."""
    if not row.get(name):
        return "n/a"
    base = prefix or name
    return "%s [%s, %s]" % (fmt(row[name], digits), fmt(row[base + "_lo"], digits),
                            fmt(row[base + "_hi"], digits))


def table_of(folder):
    """A run's sweep table, lengths in turns first."""
    rows = read_csv(os.path.join(FINDINGS, folder, "sweep.csv"))
    if not rows:
        return ""
    if "mean_turns" not in rows[0]:
        return ("(The committed run predates the lab's turns and drama figures: "
                "`scripts/findings.sh %s` reruns it. Its report: [report.md](%s/report.md).)\n"
                % (folder, folder))
    fixed = ["variant", "seats", "games"]
    keys = []
    for c in rows[0]:
        if c in fixed:
            continue
        if c == "seats" or c.startswith("mean_turns"):
            break
        keys.append(c)
    seats = max(int(r["seats"]) for r in rows)
    head = ["variant"] + keys + ["games", "mean turns [95%]", "mean rounds", "median turns"]
    head += ["seat %d score" % (s + 1) for s in range(seats)]
    head += ["draw rate", "mean decisions", "cap rate", "lead changes", "comeback rate",
             "drama", "uncertainty", "distinct games"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [r["variant"]] + [r[k] for k in keys] + [r["games"], interval(r, "mean_turns", 1),
                                                         fmt(r["mean_rounds"], 1),
                                                         fmt(r["median_turns"], 1)]
        cells += [interval(r, "seat%d_score" % (s + 1), 3, "seat%d" % (s + 1))
                  if r.get("seat%d_score" % (s + 1)) else "-" for s in range(seats)]
        cells += [interval(r, "draw_rate", 3), fmt(r["mean_plies"], 1), interval(r, "cap_rate", 3),
                  interval(r, "lead_changes", 2), interval(r, "comeback_rate", 3),
                  interval(r, "drama", 3), interval(r, "uncertainty", 3), r["distinct_games"]]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def commands_of(page, runs):
    lines = ["```sh"]
    for run in runs:
        if run["page"] != page:
            continue
        sub = run["folder"].split("/", 1)[1] if "/" in run["folder"] else run["folder"]
        lines.append("pips " + " ".join(shlex.quote(a) for a in args_of(run, False))
                     + " --out %s/" % sub)
    lines.append("```")
    return "\n".join(lines) + "\n"


def render_page(text, page, runs):
    """The page with its generated blocks rewritten."""
    out, i = [], 0
    lines = text.splitlines(keepends=True)
    while i < len(lines):
        line = lines[i]
        out.append(line)
        stripped = line.strip()
        if stripped == "<!-- findings:commands -->":
            end = "<!-- /findings:commands -->"
            body = commands_of(page, runs)
        elif stripped.startswith("<!-- findings:table ") and stripped.endswith("-->"):
            end = "<!-- /findings:table -->"
            body = table_of(stripped[len("<!-- findings:table "):-3].strip())
        else:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and lines[j].strip() != end:
            j += 1
        if j == len(lines):
            sys.exit("findings: %s.md: %s has no %s" % (page, stripped, end))
        out.append(body)
        out.append(lines[j])
        i = j + 1
    return "".join(out)


def main(argv):
    pips, check, quick, pages = os.path.join(ROOT, "build", "pips"), False, False, []
    folders = []  # single runs (FOLDER under docs/findings), instead of whole pages
    render_only = False  # rewrite the pages' blocks from the committed runs, running nothing
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--pips" and i + 1 < len(argv):
            pips = os.path.abspath(argv[i + 1])
            i += 1
        elif a == "--check":
            check = True
        elif a == "--quick":
            quick = True
        elif a == "--render":
            render_only = True
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        elif a.startswith("-"):
            sys.stderr.write("findings: unknown flag %s\n" % a)
            return 2
        elif "/" in a and not a.endswith(".md"):
            folders.append(a.rstrip("/"))
        else:
            pages.append(a[:-3] if a.endswith(".md") else os.path.basename(a))
        i += 1
    runs = read_manifest()
    known = sorted({r["page"] for r in runs})
    for p in pages:
        if p not in known:
            sys.stderr.write("findings: no page %s (pages: %s)\n" % (p, ", ".join(known)))
            return 2
    for fo in folders:
        if fo not in {r["folder"] for r in runs}:
            sys.stderr.write("findings: no run %s in %s\n" % (fo, MANIFEST))
            return 2
    pages += sorted({r["page"] for r in runs if r["folder"] in folders} - set(pages))
    pages = pages or known
    chosen = [r for r in runs if r["page"] in pages and (not quick or r["quick"] != "-")
              and (not folders or r["folder"] in folders) and not render_only]
    if not os.access(pips, os.X_OK):
        sys.stderr.write("findings: no pips at %s (build first, or give --pips PATH)\n" % pips)
        return 2
    diffs = []
    with tempfile.TemporaryDirectory() as tmp:
        for n, run in enumerate(chosen):
            args = args_of(run, quick)
            if check or quick:
                out = os.path.join(tmp, "run%d" % n)
            else:
                out = os.path.join(FINDINGS, run["folder"])
            print("findings: %s%s: pips %s" % (run["folder"], " (quick)" if quick else "",
                                               " ".join(shlex.quote(a) for a in args)),
                  flush=True)
            play(pips, args, out)
            fresh = os.path.join(out, "sweep.csv")
            pinned = quick_file(run) if quick else os.path.join(FINDINGS, run["folder"],
                                                                  "sweep.csv")
            if check:
                diffs += compare(run, pinned, fresh)
            elif quick:
                os.makedirs(QUICK_DIR, exist_ok=True)
                with open(fresh) as src, open(pinned, "w") as dst:
                    dst.write(src.read())
    if not quick:
        for page in pages:
            path = os.path.join(FINDINGS, page + ".md")
            with open(path) as f:
                text = f.read()
            fresh = render_page(text, page, runs)
            if check and fresh != text:
                diffs.append("%s.md: its generated blocks do not match the committed runs "
                             "(run scripts/findings.sh %s)" % (page, page))
            elif not check and fresh != text:
                with open(path, "w") as f:
                    f.write(fresh)
    for d in diffs:
        print("CHANGED: " + d)
    if check:
        print("findings: %d number%s changed" % (len(diffs), "" if len(diffs) == 1 else "s")
              if diffs else "findings: every number reproduced")
        if diffs and quick:
            print("findings: if the change is meant, pin the new numbers with "
                  "scripts/findings.sh --quick and say in docs/findings which pages it moves")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
