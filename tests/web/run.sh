#!/bin/bash
# run.sh PIPS_BINARY SOURCE_DIR BUILD_DIR — the browser tests for CTest.
# Exits 77 (skipped) when node, Debian's chromium or node_modules/playwright-core
# is missing; install them with: apt-get install -y nodejs chromium && npm ci.
PIPS=$1 SRC=$2 BUILD=$3
if ! command -v node > /dev/null; then
    echo "SKIP: node not found (apt-get install nodejs)"; exit 77
fi
if [ ! -x "${PIPS_CHROMIUM:-/usr/bin/chromium}" ]; then
    echo "SKIP: ${PIPS_CHROMIUM:-/usr/bin/chromium} not found (apt-get install chromium)"; exit 77
fi
if [ ! -d "$SRC/node_modules/playwright-core" ]; then
    echo "SKIP: $SRC/node_modules/playwright-core missing (run 'npm ci' in $SRC)"; exit 77
fi
cd "$SRC" && PIPS_BINARY=$PIPS PIPS_BUILD_DIR=$BUILD exec node --test tests/web/
