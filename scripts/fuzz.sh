#!/usr/bin/env bash
# Fuzz exaloop's input readers with libFuzzer (tests/fuzz/README.md).
#
#   scripts/fuzz.sh --short [TARGET...]   ~60 s per target (CI)
#   scripts/fuzz.sh --long  [TARGET...]   ~30 min per target
#   scripts/fuzz.sh --time SECONDS [TARGET...]
#
# Builds build-fuzz/ with clang, libFuzzer, ASan and UBSan, then fuzzes each
# target starting from its seed corpus (tests/fuzz/corpus/<target>) and its
# regression corpus (tests/fuzz/regress/<target>).  New interesting inputs go to
# build-fuzz/corpus/<target> (not committed).  A crash stops with exit 1 and
# leaves the input in build-fuzz/crashes/<target>/: fix the bug, then copy the
# input into tests/fuzz/regress/<target>/ so that CTest fuzz.replay.<target>
# replays it from then on.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
case "${1:-}" in
--short) seconds=60; shift ;;
--long) seconds=1800; shift ;;
--time) seconds="$2"; shift 2 ;;
-h|--help) sed -n '2,15p' "$0"; exit 0 ;;
esac
all=(capture runjson symbols toml units)
targets=("$@")
if [ $# -eq 0 ]; then targets=("${all[@]}"); fi

cc=$(command -v clang-14 || command -v clang || true)
cxx=$(command -v clang++-14 || command -v clang++ || true)
if [ -z "$cc" ] || [ -z "$cxx" ]; then
	echo "fuzz.sh: clang is needed for libFuzzer" >&2
	exit 2
fi

# The fuzz targets are a project of their own (tests/fuzz/CMakeLists.txt pulls
# in the rest of exaloop), so this works whether or not the main build lists
# tests/fuzz.
cmake -S tests/fuzz -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
	-DEXALOOP_SANITIZE=ON -DEXALOOP_FUZZ=ON >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target "${targets[@]/#/fuzz-}"

export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

# Extra inputs for a target, if present on this machine (read only).
extra() {
	if [ "$1" = toml ] && [ -d tests/toml/toml-test/tests ]; then
		echo tests/toml/toml-test/tests/valid tests/toml/toml-test/tests/invalid
	fi
}

failed=0
for t in "${targets[@]}"; do
	corpus=build-fuzz/corpus/$t
	crashes=build-fuzz/crashes/$t
	mkdir -p "$corpus" "$crashes"
	echo "== fuzz-$t: ${seconds}s"
	# shellcheck disable=SC2046  # extra() prints zero or more directory names
	if ! build-fuzz/fuzz-"$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
		-max_len=65536 -print_final_stats=1 -artifact_prefix="$crashes/" \
		"$corpus" tests/fuzz/corpus/"$t" tests/fuzz/regress/"$t" $(extra "$t") \
		>build-fuzz/fuzz-"$t".log 2>&1; then
		echo "fuzz-$t FAILED: input in $crashes/, log in build-fuzz/fuzz-$t.log" >&2
		grep -E 'ERROR|runtime error|SUMMARY|Test unit written' build-fuzz/fuzz-"$t".log | head -20 >&2 || true
		failed=1
	else
		grep -E '^stat::number_of_executed_units|^#[0-9]+ +DONE' build-fuzz/fuzz-"$t".log | tail -2 || true
	fi
done
if [ "$failed" -ne 0 ]; then
	echo "fuzz.sh: crashes found" >&2
	exit 1
fi
echo "fuzz.sh: ${#targets[@]} target(s), no crash"
