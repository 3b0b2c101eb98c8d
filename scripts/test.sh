#!/usr/bin/env bash
# Quick start, step 2: build if needed and run the whole test suite.
# Extra arguments go to ctest (e.g. -L unit, -R e2e.run).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d build ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)" "$@"
