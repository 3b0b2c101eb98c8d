#!/usr/bin/env bash
# The unit and end-to-end suites under AddressSanitizer + UndefinedBehaviorSanitizer
# (build-asan/, CMake option EXALOOP_SANITIZE=ON), with zero reports allowed: every
# report aborts the process that hit it, so the test fails.  The runtime library
# (src/rt) stays uninstrumented on purpose: it is linked into profiled programs.
# Extra arguments go to ctest (e.g. -R t1004).
set -euo pipefail
cd "$(dirname "$0")/.."

# Reports abort (non-zero exit) instead of printing and carrying on; leaks count.
export ASAN_OPTIONS="abort_on_error=1:halt_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

# Warnings are the normal builds' job (-Werror in .ci/run): gcc's sanitizer builds
# warn differently (e.g. -Wformat-truncation), which must not hide the reports.
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEXALOOP_SANITIZE=ON -DEXALOOP_WERROR=OFF >/dev/null
cmake --build build-asan -j"$(nproc)"
ctest --test-dir build-asan --output-on-failure -j"$(nproc)" -L 'unit|e2e' -LE arm64 "$@"
