#!/usr/bin/env bash
# Quick start, step 1: install what a fresh Debian 12 machine lacks, build
# exaloop, and profile the bundled example.  Safe to run again.
#
#   ./scripts/setup.sh            # everything
#   ./scripts/setup.sh --deps     # only install packages
#   ./scripts/setup.sh --build    # only configure + build
set -euo pipefail
cd "$(dirname "$0")/.."

want_deps=1 want_build=1 want_example=1
case "${1:-}" in
  --deps) want_build=0 want_example=0 ;;
  --build) want_deps=0 want_example=0 ;;
  "") ;;
  *) echo "usage: $0 [--deps|--build]" >&2; exit 2 ;;
esac

# Debian packages: compiler + XRay runtime, build tools, libraries, and what
# the test suite drives (llvm-xray, python3, Chromium for the report tests;
# clang-format-14 for scripts/check-format.sh; nlohmann-json3-dev for the
# realworld C++ test; protobuf-compiler: protoc decodes the Perfetto export in
# the tests; golang-go: `go tool pprof` reads the pprof export in the tests;
# librdkafka-dev: the Kafka client and mock cluster of examples/events;
# dpkg-dev: dpkg-shlibdeps computes the Debian package's library Depends).
packages=(
  clang-14 libclang-rt-14-dev llvm-14 clang-format-14 cmake make gcc g++ pkg-config dpkg-dev
  libgc-dev libelf-dev libdw-dev libjansson-dev libcmocka-dev zlib1g-dev protobuf-compiler
  python3 procps chromium nlohmann-json3-dev golang-go librdkafka-dev
)

sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if [ $want_deps = 1 ]; then
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  command -v node >/dev/null && command -v npm >/dev/null || missing+=(nodejs npm)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    sudo_ apt-get update -qq
    sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
  # clang 14 is the compiler exaloop drives; make sure `clang` resolves.
  command -v clang >/dev/null || export PATH="/usr/lib/llvm-14/bin:$PATH"
  # Browser tests: playwright-core only (it uses Debian's Chromium; no download).
  if [ -f tests/browser/package-lock.json ]; then
    (cd tests/browser && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
  fi
fi

if [ $want_build = 1 ]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
  cmake --build build -j"$(nproc)"
fi

if [ $want_example = 1 ]; then
  echo
  echo "setup: profiling the bundled example (examples/loans)"
  mkdir -p build/example
  build/bin/exaloop --profile run -release -lgc -lm examples/loans/loans.c build/example/loans_report.csv
fi
