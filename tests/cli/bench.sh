#!/usr/bin/env bash
# bench.sh — pins `pips bench`'s fingerprint: the last line's total node
# count (perft nodes and random-playout plies of every game's fixed
# workload) changes only when behaviour changes. When a change is meant to
# alter it, update the number here and say why in the commit.
set -u
PIPS=$1
EXPECTED='total nodes: 113825452'
last=$("$PIPS" bench | tail -n 1)
if [ "$last" != "$EXPECTED" ]; then
    echo "FAIL: pips bench fingerprint: got '$last', expected '$EXPECTED'"
    exit 1
fi
echo "ok: pips bench fingerprint ($EXPECTED)"
