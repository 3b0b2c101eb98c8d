#!/usr/bin/env python3
"""Where each timing mode puts the profiler's own per-call cost (issue 21), measured, not asserted.

bench/callers.c: many() calls unit() CALLS times, unit() does UNITS steps of work, in_place() does
the same CALLS x UNITS steps in one loop.  By construction unit()'s self time equals in_place()'s
and many()'s is its loop only.  For each source of times the table gives many()'s and unit()'s self
time as a multiple of in_place()'s (the truth: about 0 and 1):

- exact:   `exaloop --profile run -release` (a clock read at every entry and exit);
- sampled: the same with `--timing=sampled` (calls counted, times from position samples);
- perf:    `perf record` of a plain build with the same flags (no instrumentation; skipped when perf
           is missing or refused), the independent reference.

Usage: bench/attribution.py [--exaloop build/bin/exaloop] [--reps 3] [--calls N] [--units N]
Prints a Markdown table (median and range over the repetitions).  About 2 s a repetition.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROG = os.path.join(SRC, "bench", "callers.c")
FUNCS = ("many", "unit", "in_place")


def ratios(self_ns):
    base = self_ns["in_place"] or 1
    return (self_ns["many"] / base, self_ns["unit"] / base)


def exaloop_ratios(x, work, args, extra):
    shutil.rmtree(os.path.join(work, "profiles"), ignore_errors=True)
    subprocess.run([x, "--no-open"] + extra + ["--profile", "run", "-release", PROG] + args, cwd=work, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    d = os.path.join(work, "profiles")
    cap = os.path.join(d, sorted(os.listdir(d))[-1])
    doc = json.loads(subprocess.run([x, "profile", "report", cap, "--json"], stdout=subprocess.PIPE, text=True,
                                    check=True).stdout)
    f = {g["name"]: g["self_ns"] for g in doc["functions"]}
    return ratios({n: f.get(n, 0) for n in FUNCS})


def perf_ratios(exe, work, args):
    data = os.path.join(work, "perf.data")
    r = subprocess.run(["perf", "record", "-F", "10000", "-o", data, exe] + args, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    if r.returncode != 0:
        return None
    rep = subprocess.run(["perf", "report", "-i", data, "--sort", "sym", "--stdio", "-F", "overhead,sym"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    share = {}
    for line in rep.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[\.\]\s+(\S+)", line)
        if m and m.group(2) in FUNCS:
            share[m.group(2)] = float(m.group(1))
    return ratios({n: share.get(n, 0.0) for n in FUNCS}) if "in_place" in share else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exaloop", default=os.path.join(SRC, "build", "bin", "exaloop"))
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--calls", type=int, default=2000000)
    ap.add_argument("--units", type=int, default=20)
    a = ap.parse_args()
    args = [str(a.calls), str(a.units)]
    rows = {"exact": [], "sampled (4 kHz)": [], "perf, plain build": []}
    with tempfile.TemporaryDirectory(prefix="xl-attr-") as work:
        plain = os.path.join(work, "callers.plain")
        subprocess.run(["clang", "-O3", "-g", "-fno-omit-frame-pointer", PROG, "-o", plain], check=True)
        have_perf = shutil.which("perf") is not None
        for _ in range(a.reps):
            rows["exact"].append(exaloop_ratios(a.exaloop, work, args, []))
            rows["sampled (4 kHz)"].append(exaloop_ratios(a.exaloop, work, args,
                                                          ["--timing=sampled", "--sample-rate", "4000"]))
            p = perf_ratios(plain, work, args) if have_perf else None
            if p:
                rows["perf, plain build"].append(p)
    print("| times from | many() ÷ in_place() | unit() ÷ in_place() |")
    print("|---|---|---|")
    print("| construction | ≈ 0 (its loop) | 1 |")
    for name, v in rows.items():
        if not v:
            print("| %s | (not measured) | |" % name)
            continue
        cells = []
        for k in range(2):
            xs = [r[k] for r in v]
            cells.append("%.2f (%.2f–%.2f)" % (statistics.median(xs), min(xs), max(xs)))
        print("| %s | %s | %s |" % (name, cells[0], cells[1]))
    print("\n%d repetitions, CALLS %d, UNITS %d, load %s" % (a.reps, a.calls, a.units,
                                                            " ".join("%.2f" % x for x in os.getloadavg())))


if __name__ == "__main__":
    main()
