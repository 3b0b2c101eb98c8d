#!/usr/bin/env bash
# Quick start, step 2: build if needed and run the whole test suite.
# Extra arguments go to ctest (e.g. -L unit, -R e2e.run).  The AArch64 tests
# (label arm64) need qemu and cross packages: scripts/test-arm64.sh runs them.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d build ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)" -LE arm64 "$@"
