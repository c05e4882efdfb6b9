#!/usr/bin/env bash
# build.sh — configures and builds pips in build/ (Release, warnings as errors).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPIPS_WERROR=ON >/dev/null
ninja -C build
