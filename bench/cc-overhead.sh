#!/usr/bin/env bash
# The compiler wrappers' cost on a project's clean build (issue 12): a generated
# 100-file C project built by make -jJOBS, clean each time, three ways in
# interleaved rounds:
#   clang     make CC=clang-14                       (the project as it is)
#   xray      make CC=clang-14 + the wrappers' compile flags by hand
#             (-fxray-instrument -fxray-instruction-threshold=1)
#   wrapper   make CC="exaloop cc"                   (what a user runs)
# wrapper/xray is the wrappers' own cost (an exec per compile, runtime and
# sidecars at the one link); wrapper/clang adds what XRay costs the compiler.
# Medians of ROUNDS rounds, wall time and CPU time (user+sys of make and
# everything it ran: on a loaded machine the steadier of the two); the
# machine is shared: look at the spread.
#
#   bench/cc-overhead.sh [-B BUILD_DIR] [-j JOBS] [-n ROUNDS] [-f FILES]
set -euo pipefail
cd "$(dirname "$0")/.."
B=build JOBS=2 ROUNDS=7 FILES=100
while getopts B:j:n:f: o; do
	case $o in
	B) B=$OPTARG ;; j) JOBS=$OPTARG ;; n) ROUNDS=$OPTARG ;; f) FILES=$OPTARG ;;
	*) exit 2 ;;
	esac
done
EXALOOP=$(realpath "$B/bin/exaloop")
[ -x "$EXALOOP" ] || { echo "build exaloop first: cmake --build $B" >&2; exit 2; }
W=$(mktemp -d /tmp/xl-ccbench-XXXXXX)
trap 'rm -rf "$W"' EXIT

# The project: FILES sources of a few small functions each, one main.
python3 - "$W" "$FILES" <<'PY'
import sys
d, n = sys.argv[1], int(sys.argv[2])
objs = []
for i in range(n):
    with open("%s/f%03d.c" % (d, i), "w") as f:
        f.write("#include <stdio.h>\n#include <string.h>\n#include <stdlib.h>\n")
        for k in range(8):
            f.write("int f%03d_%d(int x) { char b[32]; snprintf(b, sizeof b, \"%%d\", x); "
                    "return (int)strlen(b) + x * %d; }\n" % (i, k, k + 1))
        f.write("int f%03d(int x) { int s = 0; for (int k = 0; k < x; k++) s += f%03d_%d(k); return s; }\n"
                % (i, i, i % 8))
    objs.append("f%03d.o" % i)
with open("%s/main.c" % d, "w") as f:
    for i in range(n):
        f.write("int f%03d(int);\n" % i)
    f.write("int main(void) { long s = 0;\n")
    for i in range(n):
        f.write("  s += f%03d(3);\n" % i)
    f.write("  return s == 0; }\n")
with open("%s/Makefile" % d, "w") as f:
    f.write("CFLAGS = -O2 -g\nOBJS = main.o %s\nprog: $(OBJS)\n\t$(CC) -o $@ $(OBJS)\n"
            "%%.o: %%.c\n\t$(CC) $(CFLAGS) -c -o $@ $<\nclean:\n\trm -f *.o prog prog.*.json\n" % " ".join(objs))
PY

XRAY="-fxray-instrument -fxray-instruction-threshold=1"
declare -A T C
TIMEFORMAT='%R %U %S'
one() {   # name, make arguments...: wall ms into T[name], CPU (user+sys of make and its children) into C[name]
	local name=$1 out
	shift
	make -s -C "$W" clean
	out=$({ time make -s -C "$W" -j"$JOBS" "$@" >/dev/null; } 2>&1 | tail -1)
	T[$name]+="$(echo "$out" | awk '{printf "%d", $1 * 1000}') "
	C[$name]+="$(echo "$out" | awk '{printf "%d", ($2 + $3) * 1000}') "
}
for r in $(seq "$ROUNDS"); do
	one clang CC=clang-14
	one xray CC="clang-14 $XRAY" LDFLAGS=
	one wrapper CC="$EXALOOP cc"
	[ -f "$W/prog.profile.json" ] || { echo "the wrapper build wrote no sidecar" >&2; exit 1; }
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
spread() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[1] "-" a[NR]}'; }
echo "clean build of $((FILES + 1)) files, make -j$JOBS, $ROUNDS rounds, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %10s %20s %10s %20s\n' "" "wall ms" "(range)" "CPU ms" "(range)"
for k in clang xray wrapper; do
	printf '%-8s %10s %20s %10s %20s\n' $k "$(echo "${T[$k]}" | median)" "($(echo "${T[$k]}" | spread))" \
		"$(echo "${C[$k]}" | median)" "($(echo "${C[$k]}" | spread))"
done
ratio() { awk -v a="$(echo "$1" | median)" -v b="$(echo "$2" | median)" 'BEGIN { printf "%.3f", a / b }'; }
echo "wall: wrapper / xray flags by hand $(ratio "${T[wrapper]}" "${T[xray]}"), wrapper / plain clang $(ratio "${T[wrapper]}" "${T[clang]}")"
echo "CPU:  wrapper / xray flags by hand $(ratio "${C[wrapper]}" "${C[xray]}"), wrapper / plain clang $(ratio "${C[wrapper]}" "${C[clang]}")"
