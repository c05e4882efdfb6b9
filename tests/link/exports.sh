#!/usr/bin/env bash
# exports.sh LIBPIPS_SO SOURCE_DIR BUILD_DIR — libpips.so's dynamic symbol
# table is its public API exactly: every defined symbol is pips_* under the
# version node PIPS_0 (or the node itself), and every function the public
# headers declare (the headers an install ships) is exported.
set -u
so=$1 src=$2 build=$3
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { if [ "$2" != 0 ]; then echo "FAIL: $1"; fail=1; else echo "ok: $1"; fi; }

nm -D --defined-only "$so" | awk '{print $3}' | sed 's/@.*//' | sort -u >"$tmp/defined"
grep -v -e '^pips_' -e '^PIPS_0$' "$tmp/defined" >"$tmp/foreign"
[ ! -s "$tmp/foreign" ]; st=$?; check "only pips_* and PIPS_0 exported ($(wc -l <"$tmp/foreign") others: $(head -5 "$tmp/foreign" | tr '\n' ' '))" $st
grep -q '^PIPS_0$' "$tmp/defined"; check "the version node PIPS_0" $?
objdump -T "$so" | awk '$NF ~ /^pips_/ && $(NF-1) != "PIPS_0" {bad=1} END {exit bad}'
check "every pips_* symbol carries the version node" $?

# Functions declared by the public headers (static inline ones are not symbols).
for h in "$src"/include/pips/*.h; do
    [ "$(basename "$h")" = server.h ] && continue # the server's, not libpips'
    echo "#include <pips/$(basename "$h")>"
done >"$tmp/all.c"
cc -std=c11 -E -P -I"$src/include" -I"$build/include" "$tmp/all.c" $(pkg-config --cflags jansson) \
    | tr '\n' ' ' | tr ';{}' '\n\n\n' | grep -v -e 'static' -e 'typedef' \
    | grep -o '\bpips_[a-z0-9_]*[[:space:]]*(' | tr -d '( ' | sort -u >"$tmp/declared"
[ "$(wc -l <"$tmp/declared")" -gt 100 ]; st=$?; check "read $(wc -l <"$tmp/declared") declared functions" $st
comm -23 "$tmp/declared" "$tmp/defined" >"$tmp/missing"
[ ! -s "$tmp/missing" ]; st=$?; check "every declared function is exported (missing: $(tr '\n' ' ' <"$tmp/missing"))" $st
exit $fail
