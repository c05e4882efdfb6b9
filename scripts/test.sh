#!/usr/bin/env bash
# test.sh — installs what is missing, then builds and runs every test twice:
# a Release build with -Werror, and an ASan+UBSan build; Debug builds with
# gcc and clang must compile without warnings too.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
jobs=$(nproc)
# scripts/deps.sh installed chromium and playwright-core: the browser tests must run.
export PIPS_REQUIRE_BROWSER=${PIPS_REQUIRE_BROWSER:-1}

echo "== Release build (-Wall -Wextra -Werror)"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPIPS_WERROR=ON >/dev/null
ninja -C build
(cd build && ctest --output-on-failure -j"$jobs")

echo "== Debug builds with gcc and clang (-Werror; compiled, not run: without"
echo "   optimisation, and with the other compiler, different warnings fire)"
cmake -S . -B build-debug -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPIPS_WERROR=ON >/dev/null
ninja -C build-debug
cmake -S . -B build-clang -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
    -DPIPS_WERROR=ON >/dev/null
ninja -C build-clang

echo "== ASan+UBSan build"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPIPS_WERROR=ON \
    -DPIPS_SANITIZE=ON >/dev/null
ninja -C build-asan
(cd build-asan && PIPS_INVARIANT_GAMES=${PIPS_ASAN_INVARIANT_GAMES:-1000} \
    ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j"$jobs")
echo "== fuzz corpus replay (clang, libFuzzer + ASan + UBSan)"
cmake -S . -B build-fuzz -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DPIPS_FUZZ=ON >/dev/null
ninja -C build-fuzz
(cd build-fuzz && ctest --output-on-failure -R '^corpus_' -j"$jobs")
echo "== MPI build: the playtest lab over 2 and 3 local ranks"
cmake -S . -B build-mpi -G Ninja -DCMAKE_BUILD_TYPE=Release -DPIPS_WERROR=ON -DPIPS_MPI=ON >/dev/null
ninja -C build-mpi pips-cli
(cd build-mpi && ctest --output-on-failure -R '^mpi_')
echo "== all tests passed"
