#!/usr/bin/env bash
# verify-counts.sh - check the call counts documented in tests/progs against LLVM XRay's
# own basic-mode logger (independent of exaloop).
#
# Usage: tests/progs/verify-counts.sh [-m debug|release|both] [-k] [PROGRAM...]
#   PROGRAM   names such as s-fib or s-fib.c (default: every program in tests/progs)
#   -m MODE   build mode(s) to check (default: both)
#   -k        keep the temporary directory (binaries and xray-log files)
#
# Each program is built in a temporary directory with
#   clang -fxray-instrument -fxray-instruction-threshold=1 {-O0 -g | -O3}
# and run (with its documented test arguments) under
#   XRAY_OPTIONS="patch_premain=true xray_mode=xray-basic verbosity=0 xray_logfile_base=TMP/..."
#   XRAY_BASIC_OPTIONS="func_duration_threshold_us=0 max_stack_depth=200000 [thread_buffer_size=1]"
# For each run it prints the exit status, stdout, and three views of the XRay log:
#   events   ENTER / EXIT / TAIL records per function, from `llvm-xray convert`.
#            ENTER = calls, and counts calls that never returned too (crash, exit, kill).
#   account  `llvm-xray account -sort=count -format=csv`: counts completed calls only.
#   paths    `llvm-xray stack -all-stacks -stack-format=flame -aggregation-type=count`,
#            per thread (threads with identical trees are merged). Counts are completed
#            calls, so a frame still open at the end shows 0. Runs of a recursive frame
#            are shortened to "fn*N". Long listings are cut after 40 paths.
#
# Notes on XRay basic mode that matter here:
#   - func_duration_threshold_us defaults to 5: without =0, short calls are dropped.
#   - max_stack_depth defaults to 64: deeper calls are dropped (s-deep needs more).
#   - Records are buffered per thread and written at thread exit. thread_buffer_size=1
#     writes each record at once. It is used for programs that end without flushing
#     (_exit, signals, SIGKILL, fork children). It also keeps the log in time order
#     across threads, which `llvm-xray account` needs.
#   - A forked child inherits the parent's unwritten buffer. With buffering, the child's
#     exit() writes the parent's pre-fork records a second time.
set -u

here=$(cd "$(dirname "$0")" && pwd)
modes="debug release"
keep=0
while getopts "m:kh" opt; do
    case $opt in
    m) case $OPTARG in
       debug | release) modes=$OPTARG ;;
       both) modes="debug release" ;;
       *) echo "verify-counts.sh: -m debug|release|both" >&2; exit 2 ;;
       esac ;;
    k) keep=1 ;;
    *) sed -n '2,12p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))

for tool in clang clang++ llvm-xray; do
    command -v "$tool" >/dev/null || { echo "verify-counts.sh: $tool not found" >&2; exit 1; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/verify-counts.XXXXXX")
if [ "$keep" = 0 ]; then
    trap 'rm -rf "$tmp"' EXIT
else
    echo "keeping $tmp"
fi

# Runs: program | arguments | flags (buffer1: thread_buffer_size=1; kill3: SIGKILL after batch 3)
runs=(
    "s-fib||"
    "s-fib|5|"
    "s-two-parents||"
    "s-mutual||"
    "s-tail||"
    "s-musttail||"
    "s-fnptr||"
    "s-threads||buffer1"
    "s-exit||buffer1"
    "s-exit|--raw|buffer1"
    "s-segv||buffer1"
    "s-abort||buffer1"
    "s-killme|--sleep-ms 10|"
    "s-killme|--sleep-ms 2000|buffer1 kill3"
    "s-fork||buffer1"
    "s-fork|--child-exit|buffer1"
    "s-forkvec||buffer1"
    "s-forkexit||buffer1"
    "s-cputime|sleep 2 3 10|buffer1"
    "s-touch|1 5 10|"
    "s-gc||"
    "s-plain||"
    "s-deep||"
    "s-long|1|"
    "s-batch||"
    "s-cxx||"
    "s-throw||"
    "s-longjmp||"
    "s-tailptr||"
    "s-returns||"
    "s-signals|all 5|buffer1"
    "s-fds|first|"
    "s-proclife|pthread-exit|buffer1"
    "s-proclife|clone|buffer1"
    "s-ctor||"
    "s-lines|1000|"
    "s-libcall|2|"
)

wanted() { # name [requested...]
    local name=$1 want
    shift
    [ $# -eq 0 ] && return 0
    for want in "$@"; do
        want=${want##*/}
        [ "${want%.c*}" = "$name" ] && return 0
    done
    return 1
}

source_of() {
    if [ -f "$here/$1.c" ]; then echo "$here/$1.c"; else echo "$here/$1.cc"; fi
}

build() { # name mode -> path of the binary (empty on failure)
    local name=$1 mode=$2 src out cc opt libs
    src=$(source_of "$name")
    out="$tmp/$mode/$name"
    if [ ! -x "$out" ]; then
        mkdir -p "$tmp/$mode"
        case $src in *.cc) cc=clang++ ;; *) cc=clang ;; esac
        if [ "$mode" = debug ]; then opt="-O0 -g"; else opt="-O3"; fi
        libs="-pthread"
        grep -q '#include <gc.h>' "$src" && libs="$libs -lgc"
        # shellcheck disable=SC2086
        $cc $opt -fxray-instrument -fxray-instruction-threshold=1 "$src" -o "$out" $libs \
            >"$out.build.log" 2>&1 || { cat "$out.build.log" >&2; return 1; }
    fi
    echo "$out"
}

quiet() { grep -v 'Unable to determine CPU frequency' || true; }

# Per-thread flame stacks: merge identical threads, shorten recursion, cap the listing.
show_paths() {
    sort | awk '
    function collapse(path,    n, parts, i, out, run) {
        n = split(path, parts, ";")
        out = ""; run = 1
        for (i = 1; i <= n; i++) {
            if (i < n && parts[i + 1] == parts[i]) { run++; continue }
            out = out (out == "" ? "" : ";") parts[i] (run > 1 ? "*" run : "")
            run = 1
        }
        return out
    }
    {
        i = index($0, ";"); t = substr($0, 1, i - 1); rest = substr($0, i + 1)
        j = match(rest, /; [0-9]+$/)
        path = substr(rest, 1, j - 1); count = substr(rest, j + 2)
        if (!(t in seen)) { seen[t] = 1; order[++n] = t }
        lines[t] = lines[t] sprintf("      %10s  %s\n", count, collapse(path))
        nl[t]++
    }
    END {
        for (k = 1; k <= n; k++) {
            b = lines[order[k]]
            if (!(b in cnt)) { ub[++u] = b; bl[b] = nl[order[k]] }
            cnt[b]++
        }
        for (k = 1; k <= u; k++) {
            b = ub[k]
            printf "    %d thread%s:\n", cnt[b], (cnt[b] > 1 ? "s" : "")
            if (bl[b] > 40) {
                m = split(b, ls, "\n")
                for (x = 1; x <= 40; x++) print ls[x]
                printf "      ... %d more paths\n", bl[b] - 40
            } else {
                printf "%s", b
            }
        }
    }'
}

show_events() {
    awk '
    /kind: function-/ {
        name = $0
        sub(/.*function: /, "", name); sub(/, cpu: .*/, "", name)
        gsub(/^'\''|'\''$/, "", name)
        kind = $0; sub(/.*kind: /, "", kind); sub(/,.*/, "", kind)
        if (!(name in seen)) { seen[name] = 1; order[++n] = name }
        if (kind == "function-enter") enter[name]++
        else if (kind == "function-exit") leave[name]++
        else if (kind == "function-tail-exit") tail[name]++
    }
    END {
        printf "    %10s %10s %10s  %s\n", "ENTER", "EXIT", "TAIL", "function"
        for (k = 1; k <= n; k++) {
            f = order[k]
            printf "    %10d %10d %10d  %s\n", enter[f], leave[f], tail[f], f
        }
    }'
}

run_one() { # name args flags mode
    local name=$1 args=$2 flags=$3 mode=$4 bin dir opts status log pid
    bin=$(build "$name" "$mode") || { echo "*** build failed: $name ($mode)"; return 1; }
    dir=$(mktemp -d "$tmp/run.XXXXXX")
    opts="func_duration_threshold_us=0 max_stack_depth=200000"
    case " $flags " in *" buffer1 "*) opts="$opts thread_buffer_size=1" ;; esac

    echo "=== $name ${args:+$args }($mode)"
    # shellcheck disable=SC2086
    XRAY_OPTIONS="patch_premain=true xray_mode=xray-basic verbosity=0 xray_logfile_base=$dir/xray-log." \
        XRAY_BASIC_OPTIONS="$opts" "$bin" $args >"$dir/stdout" 2>"$dir/stderr" &
    pid=$!
    case " $flags " in
    *" kill3 "*)
        for _ in $(seq 1 400); do
            grep -q '^batch 3 done' "$dir/stdout" && break
            sleep 0.05
        done
        kill -KILL "$pid" 2>/dev/null
        echo "  (sent SIGKILL after \"batch 3 done\")" ;;
    esac
    wait "$pid" 2>/dev/null
    status=$?
    if [ "$status" -gt 128 ]; then
        echo "  exit: killed by signal $((status - 128))"
    else
        echo "  exit: $status"
    fi
    echo "  stdout:"
    sed 's/^/    /' "$dir/stdout"
    if grep -qv 'Unable to determine CPU frequency' "$dir/stderr"; then
        echo "  stderr:"
        quiet <"$dir/stderr" | sed 's/^/    /'
    fi
    for log in "$dir"/xray-log.*; do
        if [ ! -s "$log" ]; then
            echo "  (no XRay log written)"
            continue
        fi
        echo "  events (llvm-xray convert):"
        llvm-xray convert -instr_map="$bin" -output-format=yaml -symbolize "$log" 2>&1 | quiet | show_events
        echo "  account (completed calls):"
        llvm-xray account -instr_map="$bin" -sort=count -format=csv -keep-going "$log" 2>&1 | quiet |
            awk -F, '/^[0-9]/ { match($0, /"[^"]*"$/); printf "    %10s  %s\n", $2, substr($0, RSTART + 1, RLENGTH - 2) }'
        echo "  paths (completed calls per call path, per thread):"
        llvm-xray stack -instr_map="$bin" -all-stacks -stack-format=flame -aggregation-type=count "$log" 2>&1 |
            quiet | grep ';' | show_paths
    done
    [ "$keep" = 1 ] || rm -rf "$dir"
    echo
}

for spec in "${runs[@]}"; do
    IFS='|' read -r name args flags <<<"$spec"
    wanted "$name" "$@" || continue
    for mode in $modes; do
        run_one "$name" "$args" "$flags" "$mode"
    done
done
