#!/usr/bin/env bash
# run.sh — the main job: installs what is missing, builds, and starts the web
# server (`pips serve`), printing the URL to open. Extra arguments go to
# `pips serve`, e.g. scripts/run.sh --port 9000 --bind 0.0.0.0 for LAN play.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh >/dev/null
exec build/pips serve "$@"
