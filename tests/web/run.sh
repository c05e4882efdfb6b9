#!/bin/bash
# run.sh PIPS_BINARY SOURCE_DIR BUILD_DIR — the browser tests for CTest.
# Exits 77 (skipped, or 1 under PIPS_REQUIRE_BROWSER=1) when node, Debian's chromium or node_modules/playwright-core
# is missing; install them with: apt-get install -y nodejs chromium && npm ci.
PIPS=$1 SRC=$2 BUILD=$3
# In CI (PIPS_REQUIRE_BROWSER=1) a missing piece is a failure, not a skip.
skip=77
[ "${PIPS_REQUIRE_BROWSER:-0}" = 1 ] && skip=1
if ! command -v node > /dev/null; then
    echo "SKIP: node not found (apt-get install nodejs)"; exit $skip
fi
if [ ! -x "${PIPS_CHROMIUM:-/usr/bin/chromium}" ]; then
    echo "SKIP: ${PIPS_CHROMIUM:-/usr/bin/chromium} not found (apt-get install chromium)"; exit $skip
fi
if [ ! -d "$SRC/node_modules/playwright-core" ]; then
    echo "SKIP: $SRC/node_modules/playwright-core missing (run 'npm ci' in $SRC)"; exit $skip
fi
cd "$SRC" && PIPS_BINARY=$PIPS PIPS_BUILD_DIR=$BUILD exec node --test tests/web/
