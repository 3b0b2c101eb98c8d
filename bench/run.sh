#!/bin/sh
# bench/run.sh - exaloop's overhead benchmark: one command, see bench/README.md.
#
#   bench/run.sh [-B BUILD_DIR] [-o OUT_DIR] [--quick] [--baseline-rev REV] [runner options...]
#
# Builds exaloop (CMake, in BUILD_DIR, default ./build-bench), builds every
# binary the configurations need into OUT_DIR/bin (default BUILD_DIR/bench),
# then runs bench/runner.py, which writes OUT_DIR/results.{json,md}.
# Runner options (passed through): --phases percall,base,memory,callgrind,e2e
# --fib-n N --fib-reps N --loans N --loans-reps N --base-reps N --no-slow
# --workloads fib,tailcall,loans --seed N.  --quick = --fib-reps 3 --loans-reps 2 --base-reps 3.
# --baseline-rev REV also builds the runtime as it was at git revision REV
# (src/rt/*.c, and its own trampolines when REV has them) and measures it as
# "exaloop-base".
set -eu

SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$SRC/build-bench
OUT=
PASS=
BASEREV=
while [ $# -gt 0 ]; do
	case $1 in
	-B) BUILD=$2; shift 2 ;;
	-o) OUT=$2; shift 2 ;;
	--quick) PASS="$PASS --fib-reps 3 --loans-reps 2 --base-reps 3"; shift ;;
	--baseline-rev) BASEREV=$2; shift 2 ;;
	-h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) PASS="$PASS $1"; shift ;;
	esac
done
OUT=${OUT:-$BUILD/bench}

need() {
	command -v "$1" >/dev/null 2>&1 && return 0
	echo "bench: '$1' not found; install it: $2" >&2
	exit 1
}
need clang-14 "apt-get install clang-14 libclang-rt-14-dev"
need python3 "apt-get install python3"
case " $PASS " in
*" --no-slow "*) ;;
*) need uftrace "apt-get install uftrace (or drop its configuration with --no-slow)" ;;
esac
need cmake "apt-get install cmake"
need nm "apt-get install binutils"
[ -e /usr/include/gc.h ] || { echo "bench: Boehm GC headers missing (examples/loans needs them): apt-get install libgc-dev" >&2; exit 1; }
command -v valgrind >/dev/null 2>&1 || echo "bench: valgrind not found: the callgrind phase is skipped (apt-get install valgrind)" >&2

echo "bench: building exaloop in $BUILD"
cmake -S "$SRC" -B "$BUILD" >/dev/null
cmake --build "$BUILD" -j2 --target exaloop exaloop_rt exaloop_xray >/dev/null
EXALOOP=$BUILD/bin/exaloop
SDK=$BUILD/lib/exaloop/profiling
mkdir -p "$OUT/bin"
BIN=$OUT/bin

CC=clang-14
# -gdwarf-4: valgrind 3.19 (callgrind phase) cannot read every DWARF 5 file clang 14 writes
XRAY="-O3 -gdwarf-4 -fxray-instrument -fxray-instruction-threshold=1"
WRAP="-Wl,--wrap=__xray_FunctionEntry,--wrap=__xray_FunctionExit,--wrap=__xray_FunctionTailExit"

# The runtime of an earlier revision, for before/after numbers.
BASELIB=
BASEXRAY=
BASEWRAP=
if [ -n "$BASEREV" ]; then
	base=$OUT/base-rt
	rm -rf "$base"
	mkdir -p "$base"
	mkdir -p "$base/include/exaloop"
	for f in $(git -C "$SRC" ls-tree --name-only "$BASEREV" src/rt/ | grep -E '\.[chS]$'); do
		git -C "$SRC" show "$BASEREV:$f" > "$base/$(basename "$f")"
	done
	for f in $(git -C "$SRC" ls-tree --name-only "$BASEREV" include/exaloop/ | grep -E '\.h$'); do
		git -C "$SRC" show "$BASEREV:$f" > "$base/include/exaloop/$(basename "$f")"
	done
	# the flags src/rt/CMakeLists.txt gives the hot path, for revisions that have one
	hot="-fomit-frame-pointer -mgeneral-regs-only -fno-stack-protector -fcf-protection=none"
	for f in "$base"/*.c; do
		case $(basename "$f") in
		rt_hot.c|rt_arena.c) extra=$hot ;;
		rt_wrap_cxx.c) extra="-fno-omit-frame-pointer -fexceptions" ;;
		*) extra=-fno-omit-frame-pointer ;;
		esac
		# shellcheck disable=SC2086
		gcc -std=gnu17 -O2 -g -DNDEBUG -fPIC -fno-builtin $extra -I"$base" -I"$base/include" -c "$f" -o "${f%.c}.o"
	done
	# The wrappers of allocation and exec functions (rt_wrap_*.c) go into an
	# archive of their own, linked as an ordinary one with a --wrap for each
	# function it wraps, as exaloop links its libexaloop_alloc.a: only the
	# wrappers of functions the program calls are pulled in.
	wraps=$(ls "$base"/rt_wrap_*.o 2>/dev/null || true)
	# shellcheck disable=SC2086
	ar rcs "$base/libexaloop_rt.a" $(ls "$base"/*.o | grep -v '/rt_wrap_')
	BASELIB=$base/libexaloop_rt.a
	if [ -n "$wraps" ]; then
		# shellcheck disable=SC2086
		ar rcs "$base/libexaloop_alloc.a" $wraps
		BASEWRAP=$(nm "$base/libexaloop_alloc.a" | awk '$2 == "T" && $3 ~ /^__wrap_/ { sub(/^__wrap_/, "", $3); printf "-Wl,--wrap=%s ", $3 }')
		BASEWRAP="$BASEWRAP $base/libexaloop_alloc.a"
	fi
	if [ -f "$base/rt_tramp_x86_64.S" ] && [ "$(uname -m)" = x86_64 ]; then
		gcc -c "$base/rt_tramp_x86_64.S" -o "$base/tramp.o"
		ar rcs "$base/libexaloop_xray.a" "$base/tramp.o"
		BASEXRAY="$WRAP $base/libexaloop_xray.a"
	fi
	echo "bench: baseline runtime from $BASEREV ($(git -C "$SRC" rev-parse --short "$BASEREV"))"
fi

build() {   # build NAME SOURCE LIBS...
	name=$1 src=$2
	shift 2
	echo "bench: building $name"
	"$EXALOOP" build -release "$@" "$src" -o "$BIN/$name.plain" >/dev/null
	"$EXALOOP" --profile build -release "$@" "$src" -o "$BIN/$name.xl" >/dev/null
	# without the frame pointers profiling builds keep for the samples' call chains
	"$EXALOOP" --profile build -release -fomit-frame-pointer "$@" "$src" -o "$BIN/$name.xl-nofp" >/dev/null
	EXALOOP_STOCK_TRAMPOLINES=1 "$EXALOOP" --profile build -release "$@" "$src" -o "$BIN/$name.xl-stock" >/dev/null
	"$EXALOOP" --profile=memory build -release "$@" "$src" -o "$BIN/$name.xl-mem" >/dev/null
	# shellcheck disable=SC2086
	$CC $XRAY "$src" "$SRC/bench/xray_tracer.c" "$@" -o "$BIN/$name.tr-stock"
	# shellcheck disable=SC2086
	$CC $XRAY -DXLB_LEAN "$src" "$SRC/bench/xray_tracer.c" "$@" $WRAP "$SDK/libexaloop_xray.a" -o "$BIN/$name.tr-lean"
	$CC -O3 -gdwarf-4 -pg "$src" "$@" -o "$BIN/$name.pg"
	rm -f "$BIN/$name.xl-base"
	if [ -n "$BASELIB" ]; then
		# shellcheck disable=SC2086
		$CC $XRAY "$src" -Wl,--whole-archive "$BASELIB" -Wl,--no-whole-archive $BASEXRAY $BASEWRAP "$@" -pthread -o "$BIN/$name.xl-base"
	fi
	nm "$BIN/$name.xl" | grep -q __wrap___xray_FunctionEntry || { echo "bench: $name.xl lacks exaloop's trampolines" >&2; exit 1; }
	if nm "$BIN/$name.xl-stock" | grep -q __wrap___xray_FunctionEntry; then
		echo "bench: $name.xl-stock has exaloop's trampolines" >&2
		exit 1
	fi
}
$CC -O2 -Wall -Wextra -Werror "$SRC/bench/xlb_run.c" -o "$BIN/xlb_run"
build fib "$SRC/bench/fib.c"
build tailcall "$SRC/bench/tailcall.c"
build loans "$SRC/examples/loans/loans.c" -lgc -lm

{
	echo "date: $(date '+%Y-%m-%d %H:%M:%S %z')"
	echo "host: $(uname -srm)"
	echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) CPUs, $(grep -m1 'cpu MHz' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') MHz"
	echo "virtualization: $(grep -q hypervisor /proc/cpuinfo && echo "guest ($(lscpu 2>/dev/null | sed -n 's/^Hypervisor vendor: *//p'))" || echo none)"
	echo "clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)"
	echo "memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
	echo "compiler: $($CC --version | head -1)"
	echo "uftrace: $(uftrace --version 2>/dev/null | head -1)"
	echo "exaloop: $(git -C "$SRC" rev-parse --short HEAD 2>/dev/null)$(git -C "$SRC" diff --quiet -- src 2>/dev/null || echo ' (+ local changes)')"
	echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$OUT/machine.txt"
cat "$OUT/machine.txt"

# shellcheck disable=SC2086
exec python3 "$SRC/bench/runner.py" --out "$OUT" --exaloop "$EXALOOP" $PASS
