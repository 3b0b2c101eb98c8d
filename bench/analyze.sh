#!/usr/bin/env bash
# Analysis speed: exaloop's report/export vs `llvm-xray account` (XRay basic-mode
# log) and `uftrace report` (uftrace record of a -pg build), same workload,
# same run.  Workload: bench/gen_tree.py (large call tree, ~10M events).
#
#   bench/analyze.sh [DEPTH [WALKS [REPS]]]     (defaults 16 38 3)
#
# Prints a markdown table: wall seconds (median of REPS), max RSS, and events
# per second for each analysis.  Needs a built tree (cmake --build build),
# clang-14, gcc, llvm-xray and uftrace.
set -euo pipefail
cd "$(dirname "$0")/.."
EXALOOP=${EXALOOP:-$PWD/build/bin/exaloop}
DEPTH=${1:-16} WALKS=${2:-38} REPS=${3:-3}
work=$(mktemp -d /tmp/xl-bench-analyze-XXXXXX)
trap 'rm -rf "$work"' EXIT
python3 bench/gen_tree.py "$work/tree.c"
cd "$work"

calls=$(( WALKS * ((2 << DEPTH) - 1) ))
events=$(( calls * 2 ))
echo "workload: depth $DEPTH x $WALKS walks = $calls calls, $events events" >&2

# exaloop: a target with a buffer big enough for the whole timeline
bytes=$(( events * 16 * 4 / 3 + (64 << 20) ))
cat > exaloop.toml <<EOT
[targets.tree]
source = "tree.c"
codon_args = ["-release"]
args = ["$DEPTH", "$WALKS"]
[targets.tree.profile]
buffer_size = "$(( bytes >> 20 ))MiB"
EOT
CI=1 "$EXALOOP" --profile --no-open --target tree run >/dev/null 2>"$work/exaloop.log"
cap=$(ls -d profiles/capture-* | tail -1)

# XRay basic mode, full log (threshold 0)
clang-14 -O3 -fxray-instrument -fxray-instruction-threshold=1 tree.c -o tree-xray
XRAY_OPTIONS="patch_premain=true xray_mode=xray-basic verbosity=0 xray_logfile_base=$work/xray-log." \
  XRAY_BASIC_OPTIONS="func_duration_threshold_us=0" ./tree-xray "$DEPTH" "$WALKS" >/dev/null 2>&1
xlog=$(ls "$work"/xray-log.* | head -1)

# uftrace, gcc -pg
gcc -O3 -pg tree.c -o tree-pg
uftrace record --no-libcall -d "$work/uftrace.data" ./tree-pg "$DEPTH" "$WALKS" >/dev/null 2>&1

measure() {  # name command... -> "name seconds maxrss_kb" (median wall over REPS)
  local name=$1; shift
  local ts=() rss=0
  for _ in $(seq "$REPS"); do
    local t0=$EPOCHREALTIME
    /usr/bin/time -f "%M" -o "$work/t" "$@" >/dev/null 2>&1
    local t1=$EPOCHREALTIME
    read -r m < "$work/t"
    ts+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')"); [ "$m" -gt "$rss" ] && rss=$m
  done
  local med
  med=$(printf '%s\n' "${ts[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "$name $med $rss"
}

{
  measure "exaloop profile report --text" "$EXALOOP" profile report "$cap" --text
  measure "exaloop profile report --json" "$EXALOOP" profile report "$cap" --json
  measure "exaloop profile export --format folded" "$EXALOOP" profile export "$cap" --format folded -o "$work/f.txt"
  measure "exaloop profile export --format chrome" "$EXALOOP" profile export "$cap" --format chrome -o "$work/t.json"
  measure "exaloop profile export --format html" "$EXALOOP" profile export "$cap" --format html -o "$work/r.html"
  measure "llvm-xray account (basic log)" llvm-xray account -instr_map=./tree-xray "$xlog"
  measure "uftrace report" uftrace report -d "$work/uftrace.data"
} > "$work/results"

timeline=$("$EXALOOP" profile report "$cap" --json | python3 -c 'import json,sys; d=json.load(sys.stdin)["totals"]; print(d["timeline_events"], d["nodes"])')
read -r tl nodes <<< "$timeline"
echo "| analysis | wall s (median of $REPS) | max RSS | M events/s |"
echo "|---|---|---|---|"
while read -r line; do
  name=${line% * *}; rest=${line##"$name "}; read -r sec rss <<< "$rest"
  awk -v n="$name" -v s="$sec" -v r="$rss" -v e="$events" \
    'BEGIN { printf "| %s | %.3f | %.1f MiB | %.1f |\n", n, s, r/1024, (s > 0 ? e/s/1e6 : 0) }'
done < "$work/results"
echo
echo "events: $events ($tl in exaloop's timeline), call-tree nodes: $nodes; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
