#!/usr/bin/env python3
"""noname-eval-fit.py TRAIN_DIR SPLIT [TEST_DIR...] — does a fitted evaluation
of N-seat Noname positions name the eventual winner more often than the
shared evaluation's table part? (issue 24, docs/ai.md "Noname's max at four
seats: a fitted evaluation, checked offline").

Reads the game records of `pips playtest --out DIR --records` (DIR/records/
*.json, read back move by move with the Python package). Of TRAIN_DIR's
records in name order the first SPLIT games train and the rest are test
set 0; every TEST_DIR is one more test set. Only decisive games count (a
drawn game has no single winner to name); the positions are those before
every move, bucketed by T, the pieces left on the pads.

Per seat the features are: its table score's lead over the best other seat;
whether it is the expected last placer (the most pieces on its pad, of
those tied the last in turn order from the mover, as the evaluation's
last_placer); its pad count's lead; its pad's value; its natives on the
pad; its place in turn order from the mover (one-hot); the lead of the
table score with the last-placer bonus (14 points at four seats and more,
8 at three), which is the evaluation's own ranking; and from the table its
free value, its linked (negative) value, the value of its pieces subdued,
of its pieces under a partial attack (some other colour aims points below
the piece's value at it) and of the other colours' pieces under its own
partial attack. A conditional logit (P(seat p wins) = softmax over seats of
w . features, features scaled by their root mean square on the train set,
plain gradient ascent with a small L2 penalty) is fitted per T bucket.

Prints one markdown row per bucket: train positions, and per test set its
positions, the share where the evaluation's pick (the best table score
with the last-placer bonus; ties split) is the winner, the same for the
fitted model's pick, and the fitted weights. The evaluation's rule for a
mover whose last placement wins the game is not modelled (it decides only
the last turns).

Usage: PYTHONPATH=build/python /usr/bin/python3 bench/noname-eval-fit.py \\
           /tmp/h4 140 /tmp/pilot-seed1 /tmp/pilot-seed2
Environment: STEPS (gradient steps, default 250).
"""
import glob
import json
import math
import os
import sys

import pips

SIZE_VALUE = {"S": 1, "M": 2, "L": 3}
BUCKETS = [(1, 5), (6, 10), (11, 15), (16, 25), (26, 45), (46, 120)]
NAMES = ["lead", "lastplacer", "padlead", "padvalue", "natives", "next", "opposite",
         "previous", "evallead", "free", "linked", "subdued", "atrisk", "pressure"]


def seat_facts(view, mover):
    """Per seat: table score, pad count, pad value, natives, turn offset and
    the table sums named in the docstring."""
    seats, n = view["seats"], view["players"]
    colours = [s["colour"] for s in seats]
    table = {c: dict(free=0, linked=0, subdued=0, atrisk=0, pressure=0) for c in colours}
    for piece in view["pieces"]:
        c, value = piece["colour"], SIZE_VALUE[piece["size"]]
        if c in table:
            t = table[c]
            t["free"] += max(piece["score"], 0)
            t["linked"] += min(piece["score"], 0)
            if piece["subdued_by"]:
                t["subdued"] += value
            elif any(k != c and 0 < x < value for k, x in piece["points"].items()):
                t["atrisk"] += value
        if not piece["subdued_by"]:
            for k, x in piece["points"].items():
                if k != c and k in table and 0 < x < value:
                    table[k]["pressure"] += value
    facts = []
    for p, s in enumerate(seats):
        pad = s["pad"]
        facts.append(dict(score=s["score"], pad=sum(x["n"] for x in pad),
                          padvalue=sum(x["n"] * SIZE_VALUE[x["size"]] for x in pad),
                          natives=sum(x["n"] for x in pad if x["colour"] == s["colour"]),
                          offset=(p - mover) % n, **table[s["colour"]]))
    return facts


def features(facts):
    """The feature rows of every seat, and the evaluation's adjusted scores."""
    n = len(facts)
    most = max(f["pad"] for f in facts)
    last = max((p for p in range(n) if facts[p]["pad"] == most), key=lambda p: facts[p]["offset"])
    bonus = 8 if n == 3 else 14
    adjusted = [f["score"] + (bonus if p == last else 0) for p, f in enumerate(facts)]
    rows = []
    for p, f in enumerate(facts):
        others = [q for q in range(n) if q != p]
        rows.append([f["score"] - max(facts[q]["score"] for q in others), float(p == last),
                     f["pad"] - max(facts[q]["pad"] for q in others), f["padvalue"], f["natives"],
                     float(f["offset"] == 1), float(f["offset"] == n // 2 and n % 2 == 0),
                     float(f["offset"] == n - 1),
                     adjusted[p] - max(adjusted[q] for q in others), f["free"], f["linked"],
                     f["subdued"], f["atrisk"], f["pressure"]])
    return rows, adjusted


def positions(paths):
    """(T, feature rows, adjusted scores, winner) of every position of the
    decisive games among the records."""
    out = []
    for path in paths:
        rec = json.load(open(path))
        game = pips.Game(rec["game"], **rec["options"])
        state = game.start()
        seen = []
        for text in rec["moves"]:
            if state.over:
                break
            view = state.view()["view"]
            facts = seat_facts(view, state.to_move)
            t = sum(f["pad"] for f in facts)
            if t > 0:
                seen.append((t, *features(facts)))
            state.play(state.parse(text))
        if not state.over:
            continue
        returns = state.returns
        winners = [p for p, r in enumerate(returns) if r >= max(returns) - 1e-9]
        if len(winners) == 1:
            out.extend((t, rows, adj, winners[0]) for t, rows, adj in seen)
    return out


def fit(data, k, steps, rate=0.3, l2=1e-3):
    w = [0.0] * k
    for _ in range(steps):
        grad = [0.0] * k
        for rows, winner in data:
            z = [sum(a * b for a, b in zip(w, x)) for x in rows]
            top = max(z)
            e = [math.exp(v - top) for v in z]
            total = sum(e)
            for p, x in enumerate(rows):
                d = (p == winner) - e[p] / total
                for j in range(k):
                    grad[j] += d * x[j]
        for j in range(k):
            w[j] += rate * (grad[j] / len(data) - l2 * w[j])
    return w


def hit_share(data, values):
    """Share of positions where the best of values(...) is the winner; ties split."""
    hits = 0.0
    for rows, adjusted, winner in data:
        v = values(rows, adjusted)
        top = [p for p in range(len(v)) if v[p] >= max(v) - 1e-12]
        hits += (winner in top) / len(top)
    return hits / len(data) if data else float("nan")


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    folders = [argv[0]] + argv[2:]
    found = {d: sorted(glob.glob(os.path.join(d, "records", "*.json"))) for d in folders}
    for d in folders:
        if not found[d]:
            sys.exit(f"noname-eval-fit: no records (records/*.json) in {d}")
    records = found[argv[0]]
    split = int(argv[1])
    if not 0 < split < len(records):
        sys.exit(f"noname-eval-fit: SPLIT must be between 1 and {len(records) - 1} "
                 f"({len(records)} records in {argv[0]})")
    steps = int(os.environ.get("STEPS", "250"))
    train = positions(records[:split])
    tests = [positions(records[split:])]
    tests += [positions(found[d]) for d in argv[2:]]
    print("| T | train positions | " +
          " | ".join(f"test {i}: positions, evaluation, fitted" for i in range(len(tests))) +
          " | weights (" + ", ".join(NAMES) + ") |")
    print("|---|---|" + "---|" * len(tests) + "---|")
    k = len(NAMES)
    for lo, hi in BUCKETS:
        tr = [(rows, w) for t, rows, _, w in train if lo <= t <= hi]
        if not tr:
            continue
        scale = [max(1e-9, math.sqrt(sum(x[j] ** 2 for rows, _ in tr for x in rows) /
                                     sum(len(rows) for rows, _ in tr))) for j in range(k)]
        tr = [([[x[j] / scale[j] for j in range(k)] for x in rows], w) for rows, w in tr]
        w = fit(tr, k, steps)
        cells = []
        for test in tests:
            te = [([[x[j] / scale[j] for j in range(k)] for x in rows], adj, win)
                  for t, rows, adj, win in test if lo <= t <= hi]
            evaluation = hit_share(te, lambda rows, adj: adj)
            fitted = hit_share(te, lambda rows, adj: [sum(a * b for a, b in zip(w, x)) for x in rows])
            cells.append(f"{len(te)}, {evaluation:.3f}, {fitted:.3f}")
        print(f"| {lo}-{hi} | {len(tr)} | " + " | ".join(cells) + " | " +
              " ".join(f"{x:+.2f}" for x in w) + " |", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
