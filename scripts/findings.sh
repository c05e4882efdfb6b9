#!/usr/bin/env bash
# findings.sh [--pips PATH] [--check] [--quick] [PAGE...] — regenerates the
# numbers of the docs/findings pages from their manifest (docs/findings/runs.tsv),
# or with --check reruns and names every number that changed. See
# scripts/findings.py. Heavy: the full runs take hours on a shared 2-core
# machine; run them under `nice -n 10`.
exec python3 "$(dirname "$0")/findings.py" "$@"
