#!/usr/bin/env bash
# Heap allocation capture's cost (issue 16): bench/alloc.c (about 10.6 M
# allocation calls and as many frees by default) five ways, in interleaved
# rounds, CPU time (user+sys) of the program alone (the machine is shared:
# wall time there mostly measures the other users):
#   plain      clang-14 -O2, no exaloop
#   xray       exaloop's build, captured with EXALOOP_ALLOCATIONS=0 (calls traced, allocations not)
#   allocs     the same binary captured with allocations (the default)
#   massif     valgrind --tool=massif on plain
#   heaptrack  heaptrack on plain (when installed)
# allocs - xray is what recording the allocations adds; divided by the
# allocation calls, the cost per allocation (its free included).
#
#   bench/alloc.sh [-B BUILD_DIR] [-n ROUNDS] [-r ALLOC_ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
B=build ROUNDS=5 N=10000000
while getopts B:n:r: o; do
	case $o in
	B) B=$OPTARG ;; n) ROUNDS=$OPTARG ;; r) N=$OPTARG ;;
	*) exit 2 ;;
	esac
done
EXALOOP=$(realpath "$B/bin/exaloop")
[ -x "$EXALOOP" ] || { echo "build exaloop first: cmake --build $B" >&2; exit 2; }
W=$(mktemp -d /tmp/xl-allocbench-XXXXXX)
trap 'rm -rf "$W"' EXIT
clang-14 -O2 -o "$W/plain" bench/alloc.c
(cd "$W" && "$EXALOOP" --profile build -release "$OLDPWD/bench/alloc.c" -o xl >/dev/null 2>&1)
CALLS=$("$W/plain" "$N" | sed 's/allocs=\([0-9]*\).*/\1/')

cpu() { # prints user+sys seconds of the command
	/usr/bin/time -f "%U %S" "$@" 2>&1 >/dev/null | tail -1 | awk '{print $1 + $2}'
}
# captured ALLOCATIONS: xl captured into a fresh directory (the capture
# environment names the shell's pid, which exec keeps)
cat >"$W/captured" <<'SH'
#!/bin/sh
rm -rf "$W/cap" && mkdir "$W/cap"
export EXALOOP_CAPTURE_DIR="$W/cap" EXALOOP_CAPTURE_PID=$$ EXALOOP_ALLOCATIONS=$1
exec "$W/xl" "$N"
SH
chmod +x "$W/captured"
export W N
declare -A T
configs="plain xray allocs massif"
command -v heaptrack >/dev/null && configs="$configs heaptrack"
for r in $(seq "$ROUNDS"); do
	for c in $configs; do
		case $c in
		plain) t=$(cpu "$W/plain" "$N") ;;
		xray) t=$(cpu "$W/captured" 0) ;;
		allocs) t=$(cpu "$W/captured" 1) ;;
		massif) t=$(cpu valgrind --tool=massif --massif-out-file="$W/massif.out" "$W/plain" "$N") ;;
		heaptrack) t=$(cpu heaptrack -o "$W/ht" "$W/plain" "$N") ;;
		esac
		T[$c]="${T[$c]:-} $t"
	done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "allocation calls: $CALLS, rounds: $ROUNDS, load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-10s %10s %12s %10s\n" config "cpu s" "ns/alloc" "x plain"
P=$(echo "${T[plain]}" | median)
for c in $configs; do
	m=$(echo "${T[$c]}" | median)
	awk -v m="$m" -v p="$P" -v n="$CALLS" -v c="$c" 'BEGIN {printf "%-10s %10.3f %12.1f %10.2f\n", c, m, m * 1e9 / n, m / p}'
done
X=$(echo "${T[xray]}" | median) A=$(echo "${T[allocs]}" | median)
awk -v x="$X" -v a="$A" -v n="$CALLS" 'BEGIN {printf "recording allocations adds %.1f ns per allocation (allocs - xray)\n", (a - x) * 1e9 / n}'
