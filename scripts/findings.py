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
    <!-- /findings:table -->, and from the runs' report.json: seat win
    rates (findings:wins FOLDER), capped games and lengths of runs side by
    side (findings:lengths FOLDER FOLDER...), Nimitz's store
    (findings:nimitz-store FOLDER) and the exact values beside the measured
    scores (findings:exact FOLDER), each closed by <!-- /findings:KIND -->;
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
import json
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


def report_of(folder):
    """A run's report.json (None when the committed run has none)."""
    path = os.path.join(FINDINGS, folder, "report.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def varied_keys(report):
    return list(report["variants"][0]["varied"]) if report["variants"] else []


def rate_cell(x, digits=3):
    """A {value, lo, hi} object as 'V [LO, HI]'."""
    if not x or x.get("value") is None:
        return "-"
    return "%.*f [%.*f, %.*f]" % (digits, x["value"], digits, x["lo"], digits, x["hi"])


def missing_report(folder):
    return ("(The committed run has no report.json: `scripts/findings.sh %s` reruns it.)\n"
            % folder)


def wins_of(folder):
    """Each variant's seat win rates and draws (95% Wilson), with its length in
    turns and the games ended by a cap: from the run's report.json."""
    rep = report_of(folder)
    if rep is None:
        return missing_report(folder)
    keys = varied_keys(rep)
    seats = max(v["players"] for v in rep["variants"])
    head = ["variant"] + keys + ["games"] + ["seat %d wins" % (s + 1) for s in range(seats)]
    head += ["draws", "mean turns", "max turns", "capped"]
    nimitz = rep["game"] == "nimitz"  # and the share of games that emptied the store
    if nimitz:
        head.append("store ran out")
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for v in rep["variants"]:
        by_seat = {x["seat"]: x for x in v["seats"]}
        cells = [v["name"]] + [v["varied"][k] for k in keys] + [str(v["games"])]
        cells += [rate_cell(by_seat[s + 1]["win_rate"]) if s + 1 in by_seat else "-"
                  for s in range(seats)]
        cells += [rate_cell(v["draw_rate"]), "%.1f" % v["turns"]["mean"], str(v["turns"]["max"]),
                  "%d/%d" % (v["capped"], v["games"])]
        if nimitz:
            share = store_ran_out(v)[0]
            cells.append("?" if share is None else "%.2f" % share)
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def lengths_of(folders):
    """Side by side for runs over the same variants: each run's capped games and
    mean / max length in turns, from the runs' report.json."""
    reps = [report_of(fo) for fo in folders]
    for fo, rep in zip(folders, reps):
        if rep is None:
            return missing_report(fo)
    keys = varied_keys(reps[0])
    names = [os.path.basename(fo) for fo in folders]
    head = ["variant"] + keys
    for n in names:
        head += ["%s: capped" % n, "%s: mean / max turns" % n]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for i, v in enumerate(reps[0]["variants"]):
        cells = [v["name"]] + [v["varied"][k] for k in keys]
        for rep in reps:
            w = rep["variants"][i]
            if w["varied"] != v["varied"]:
                sys.exit("findings: %s: the runs' variants differ" % ", ".join(folders))
            cells += ["%d/%d" % (w["capped"], w["games"]),
                      "%.1f / %d" % (w["turns"]["mean"], w["turns"]["max"])]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def store_ran_out(v):
    """Nimitz: the share of a variant's games that placed every piece of the
    store (3 x sets x colours placements, a turn each), read from its turns
    histogram; None when a bin wider than one turn leaves it open."""
    opts = dict(kv.split("=", 1) for kv in v["options"].split() if "=" in kv)
    pieces = 3 * int(opts["sets"]) * int(opts["colors"])
    t = v["turns"]
    h = t["histogram"]
    if t["max"] < pieces:
        return 0.0, pieces
    if t["min"] >= pieces:
        return 1.0, pieces
    if h["width"] != 1:
        return None, pieces
    return h["counts"][pieces - h["first"]] / v["games"], pieces


def nimitz_store_of(folder):
    """A Nimitz sets x colours sweep: per setting and player count, the share
    of games in which the store ran out and (in brackets) the mean turns."""
    rep = report_of(folder)
    if rep is None:
        return missing_report(folder)
    players = sorted({int(v["players"]) for v in rep["variants"]})
    rows = {}
    for v in rep["variants"]:
        opts = dict(kv.split("=", 1) for kv in v["options"].split() if "=" in kv)
        share, pieces = store_ran_out(v)
        cell = "%s (%.1f)" % ("?" if share is None else "%.2f" % share, v["turns"]["mean"])
        key = (int(opts["sets"]), int(opts["colors"]), pieces)
        rows.setdefault(key, {})[int(v["players"])] = cell
    head = ["sets", "colours", "pieces in the store"] + ["%d players" % n for n in players]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for key in sorted(rows):
        out.append("| " + " | ".join([str(x) for x in key] +
                                     [rows[key].get(n, "-") for n in players]) + " |")
    return "\n".join(out) + "\n"


def exact_of(folder):
    """The two-player variants whose start the report's exact solve settled:
    the perfect-play result beside the first seat's measured score."""
    rep = report_of(folder)
    if rep is None:
        return missing_report(folder)
    keys = [k for k in varied_keys(rep) if k != "players"]
    words = {1.0: "first player wins", 0.5: "draw", 0.0: "first player loses"}
    head = keys + ["perfect play", "positions solved", "seat 1 score (measured)", "agrees"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for v in rep["variants"]:
        x = v.get("exact") or {}
        if v["players"] != 2 or x.get("status") != "solved":
            continue
        cells = [v["varied"][k] for k in keys]
        cells += [words.get(x.get("perfect_play_score"), str(x.get("value"))),
                  "{:,}".format(x["positions"]) if "positions" in x else "-",
                  rate_cell(x.get("measured_score")), "yes" if x.get("agrees") else "no"]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


BLOCKS = {"table": lambda args: table_of(args[0]), "wins": lambda args: wins_of(args[0]),
          "lengths": lengths_of, "nimitz-store": lambda args: nimitz_store_of(args[0]),
          "exact": lambda args: exact_of(args[0])}


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
        elif (stripped.startswith("<!-- findings:") and stripped.endswith("-->") and
              stripped.split()[1][len("findings:"):] in BLOCKS):
            kind = stripped.split()[1][len("findings:"):]
            end = "<!-- /findings:%s -->" % kind
            body = BLOCKS[kind](stripped[:-3].split()[2:])
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
