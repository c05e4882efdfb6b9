#!/usr/bin/env bash
# deps.sh — installs what pips needs from Debian's packages (and npm for the
# browser tests when package.json exists). Installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential clang cmake ninja-build pkg-config curl libjansson-dev libcmocka-dev
          libopenmpi-dev openmpi-bin groff-base bsdextrautils)
[ "${PIPS_BROWSER_DEPS:-1}" = 1 ] && [ -f package.json ] && packages+=(chromium)
[ -d src/server ] && packages+=(libmicrohttpd-dev libsqlite3-dev sqlite3)
# Lua 5.4 for rule scripts; zlib for the server's gzip; Debian's python3 with cffi and pytest
# for `import pips` (the PATH's python3 may be another build without cffi: tests use /usr/bin/python3).
packages+=(liblua5.4-dev zlib1g-dev python3 python3-cffi python3-pytest)
# zsh and fish: tests/cli/completion.sh checks their generated completion scripts
packages+=(zsh fish)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}"
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [ -f package-lock.json ] && ! command -v npm >/dev/null; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nodejs npm >/dev/null
fi
if [ -f package-lock.json ] && [ ! -d node_modules/playwright-core ]; then
    npm ci --no-audit --no-fund >/dev/null
fi
