#!/usr/bin/env bash
# run.sh — the main job: installs what is missing, builds, and starts a
# terminal game of Tic Tac Doh! against a random player.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh >/dev/null
exec build/pips play tictacdoh --seat human --seat random "$@"
