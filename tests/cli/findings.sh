#!/usr/bin/env bash
# findings.sh — the findings pages' quick check: one reduced run per page
# (docs/findings/runs.tsv, the "quick" column) must give exactly the numbers
# pinned in tests/findings/, so a change that moves any of them fails the
# build that made it (scripts/findings.sh --quick regenerates the pins).
set -u
PIPS=$1 SRC=$2
"$SRC/scripts/findings.sh" --pips "$PIPS" --quick --check
