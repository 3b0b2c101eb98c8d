#!/usr/bin/env python3
"""exaloop overhead benchmark runner (Python 3 standard library only).

Called by bench/run.sh after it built the binaries into OUT/bin.  Phases:

  percall  every configuration on fib, tailcall and loans (a smaller book), interleaved:
           ns of overhead per traced call and ratio to the plain build
  base     plain / XRay unpatched / memory-only capture on the default loans run
           (the "within 2%" and "within 1%" targets), interleaved
  memory   peak RSS of exaloop captures vs buffer_size and run length
  callgrind  instructions per call (deterministic; slope between two sizes)
  e2e      the whole command on a small run: `exaloop --no-open profile exec fib N`
           (capture, analysis, report written) against `uftrace record` and the
           plain build, interleaved; (exaloop - plain) / (uftrace - plain)

Method: each repetition runs every configuration once, in a shuffled order;
one warm-up pass first.  A run is fork + exec + wait4 in bin/xlb_run (wall
time around it, CPU time and peak RSS from the child's rusage); outputs are
checked against the plain build's.  Capture directories and trace logs are deleted after each run and
`sync` runs before the next (not timed).  ns/call = (median wall of the
config - median wall of the plain build) / exact call count.
"""
import argparse
import json
import os
import random
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

ap = argparse.ArgumentParser()
ap.add_argument("--out", required=True)
ap.add_argument("--exaloop", required=True)
ap.add_argument("--phases", default="percall,base,memory,callgrind")
ap.add_argument("--fib-n", type=int, default=32)
ap.add_argument("--fib-reps", type=int, default=11)
ap.add_argument("--loans", type=int, default=25000)
ap.add_argument("--loans-reps", type=int, default=5)
ap.add_argument("--base-reps", type=int, default=11)
ap.add_argument("--no-slow", action="store_true", help="skip XRay basic/FDR and uftrace")
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--workloads", default="fib,tailcall,loans", help="per-call workloads to time")
ap.add_argument("--tail-n", type=int, default=2000000, help="steps of the tailcall workload")
ap.add_argument("--e2e-n", type=int, default=30, help="fib N of the e2e phase")
ap.add_argument("--e2e-reps", type=int, default=5)
args = ap.parse_args()

OUT = os.path.abspath(args.out)
BIN = os.path.join(OUT, "bin")
WORK = os.path.join(OUT, "work")
os.makedirs(WORK, exist_ok=True)
random.seed(args.seed)
results = {"started": time.strftime("%Y-%m-%d %H:%M:%S"), "phases": {}}


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def note(msg):
    print(msg, flush=True)


# ---------------------------------------------------------------- running
class Run:
    """One process: fork, exec with env, wait4.  Optional per-run directory."""

    def __init__(self, argv, env=None, capture=False, cwd=None):
        self.argv, self.env, self.capture, self.cwd = argv, env or {}, capture, cwd


def run_once(spec, rundir):
    """Run through bin/xlb_run (wall time, rusage and peak RSS of the command alone)."""
    env = dict(os.environ)
    for k in [k for k in env if k.startswith(("EXALOOP_", "XRAY_", "XLB_"))]:
        del env[k]
    env.update({k: v.replace("@DIR@", rundir) for k, v in spec.env.items()})
    argv = [a.replace("@DIR@", rundir) for a in spec.argv]
    res = os.path.join(rundir, "xlb_run.result")
    launcher = [os.path.join(BIN, "xlb_run")]
    if spec.capture:
        env["EXALOOP_CAPTURE_DIR"] = os.path.join(rundir, "capture")
        launcher.append("--capture")
    p = subprocess.run(launcher + [res] + argv, cwd=rundir, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, errors="replace")
    if p.returncode != 0 or not os.path.exists(res):
        raise SystemExit("xlb_run failed for %s: %s" % (argv, p.stderr[-2000:]))
    with open(res) as f:
        wall_ns, user_us, sys_us, maxrss, status = (int(x) for x in f.read().split())
    os.unlink(res)
    return {"wall": wall_ns / 1e9, "user": user_us / 1e6, "sys": sys_us / 1e6, "maxrss_kb": maxrss,
            "status": status, "stdout": p.stdout, "stderr": p.stderr}


def fresh_rundir():
    d = tempfile.mkdtemp(prefix="run-", dir=WORK)
    os.makedirs(os.path.join(d, "capture"))
    return d


def measure(spec, keep=False):
    d = fresh_rundir()
    r = run_once(spec, d)
    if keep:
        r["dir"] = d
    else:
        shutil.rmtree(d, ignore_errors=True)
        os.sync()
    return r


# ---------------------------------------------------------------- workloads and configs
def workloads(loans_n):
    return {
        "fib": {"bin": "fib", "args": [str(args.fib_n)], "desc": "fib(%d): recursive, barrier against tail recursion" % args.fib_n},
        "tailcall": {"bin": "tailcall", "args": [str(args.tail_n)],
                     "desc": "tailcall %d: 6-argument indirect tail calls through r11" % args.tail_n},
        "loans": {"bin": "loans", "args": ["--loans", str(loans_n), "out.csv"],
                  "desc": "examples/loans --loans %d (96 scenarios), release" % loans_n},
    }


CAP = {"EXALOOP_CAPTURE_MODE": "all"}


def configs(w, slow=True, big_buffer=0):
    b = lambda kind: os.path.join(BIN, "%s.%s" % (w["bin"], kind))
    a = w["args"]
    c = [
        ("plain", "plain build (exaloop build -release)", Run([b("plain")] + a)),
        ("unpatched", "XRay compiled in, not patched (exaloop build, run without capture)", Run([b("xl")] + a)),
        ("empty-stock", "patched, empty handler, compiler-rt trampolines", Run([b("tr-stock")] + a, {"XLB_TRACER": "empty"})),
        ("empty-lean", "patched, empty handler, exaloop trampolines", Run([b("tr-lean")] + a, {"XLB_TRACER": "empty"})),
        ("rdtsc-lean", "patched, rdtsc per event only, exaloop trampolines", Run([b("tr-lean")] + a, {"XLB_TRACER": "rdtsc"})),
        ("exaloop", "exaloop full capture (aggregate + timeline, 64 MiB buffer, samples at 1 kHz)",
         Run([b("xl")] + a, CAP, capture=True)),
        ("exaloop-nosamples", "exaloop full capture without samples (EXALOOP_SAMPLE_RATE=0)",
         Run([b("xl")] + a, dict(CAP, EXALOOP_SAMPLE_RATE="0"), capture=True)),
        ("exaloop-sampled", "exaloop --timing=sampled: calls counted, times from 1 kHz position samples",
         Run([b("xl")] + a, dict(CAP, EXALOOP_TIMING="sampled"), capture=True)),
    ]
    if os.path.exists(b("xl-nofp")):
        c += [("unpatched-nofp", "unpatched, built with -fomit-frame-pointer (no frame pointers)",
               Run([b("xl-nofp")] + a)),
              ("exaloop-nofp", "exaloop full capture without samples of the -fomit-frame-pointer build",
               Run([b("xl-nofp")] + a, dict(CAP, EXALOOP_SAMPLE_RATE="0"), capture=True))]
    if os.path.exists(b("xl-base")):
        c.append(("exaloop-base", "exaloop full capture, runtime of the --baseline-rev revision",
                  Run([b("xl-base")] + a, CAP, capture=True)))
    c.append(("exaloop-nopf", "exaloop full capture, 64 MiB, no background prefault (EXALOOP_NO_PREFAULT=1)",
              Run([b("xl")] + a, dict(CAP, EXALOOP_NO_PREFAULT="1"), capture=True)))
    if big_buffer:
        c.append(("exaloop-bigbuf", "exaloop full capture, buffer %d MiB: timeline never full" % (big_buffer >> 20),
                  Run([b("xl")] + a, dict(CAP, EXALOOP_BUFFER_SIZE=str(big_buffer)), capture=True)))
    c += [
        ("exaloop-stock", "exaloop full capture, compiler-rt trampolines (EXALOOP_STOCK_TRAMPOLINES=1)",
         Run([b("xl-stock")] + a, CAP, capture=True)),
        ("memory", "exaloop memory-only capture (memory build, 100 ms interval)",
         Run([b("xl-mem")] + a, {"EXALOOP_CAPTURE_MODE": "memory"}, capture=True)),
    ]
    if slow:
        c += [
            ("xray-fdr", "LLVM XRay FDR mode (programmatic init, all events, 1 GiB buffer)",
             Run([b("tr-stock")] + a, {"XLB_TRACER": "fdr", "XRAY_OPTIONS": "verbosity=0 xray_logfile_base=@DIR@/xray-log."})),
            ("xray-basic", "LLVM XRay basic mode (func_duration_threshold_us=0)",
             Run([b("tr-stock")] + a, {"XRAY_OPTIONS": "patch_premain=true xray_mode=xray-basic verbosity=0 xray_logfile_base=@DIR@/xray-log.",
                                       "XRAY_BASIC_OPTIONS": "func_duration_threshold_us=0"})),
            ("uftrace", "uftrace record --no-libcall (clang -pg build)",
             Run(["/usr/bin/env", "uftrace", "record", "--no-libcall", "-d", "@DIR@/uftrace.data", b("pg")] + a)),
        ]
    return c


def norm(out):
    return out


def call_count(w):
    r = measure(Run([os.path.join(BIN, w["bin"] + ".tr-stock")] + w["args"], {"XLB_TRACER": "count"}))
    for line in r["stderr"].splitlines():
        if line.startswith("xlb-calls "):
            return int(line.split()[1])
    raise SystemExit("cannot count calls of %s: %s" % (w["bin"], r["stderr"]))


def capture_calls(w):
    """Run one exaloop capture and read back the total call count."""
    r = measure(Run([os.path.join(BIN, w["bin"] + ".xl")] + w["args"], CAP, capture=True), keep=True)
    cap = os.path.join(r["dir"], "capture")
    p = subprocess.run([args.exaloop, "profile", "report", cap, "--json"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    shutil.rmtree(r["dir"], ignore_errors=True)
    if p.returncode != 0:
        raise SystemExit("profile report failed: " + p.stderr)
    doc = json.loads(p.stdout)
    return sum(f["calls"] for f in doc["functions"])


def q(xs, p):
    xs = sorted(xs)
    k = (len(xs) - 1) * p
    lo = int(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def interleaved(name, cfgs, reps, calls):
    note("== %s: %d configs x %d repetitions (load %s)" % (name, len(cfgs), reps, loadavg()))
    load_before = loadavg()
    ref_out = None
    samples = {cid: [] for cid, _, _ in cfgs}
    # warm-up (and output check).  A configuration that fails here is left out and reported
    # (the baseline runtime of an earlier revision may crash on a workload a fix was made for).
    failed = {}
    for cid, _, spec in list(cfgs):
        r = measure(spec)
        if r["status"] != 0 and cid == "exaloop-base":
            note("   %s/%s failed (status %d): left out" % (name, cid, r["status"]))
            failed[cid] = r["status"]
            cfgs = [c for c in cfgs if c[0] != cid]
            continue
        if r["status"] != 0:
            raise SystemExit("%s/%s failed (status %d): %s" % (name, cid, r["status"], r["stderr"][-2000:]))
        if cid == "plain":
            ref_out = r["stdout"]
        elif norm(r["stdout"]) != norm(ref_out):
            raise SystemExit("%s/%s: output differs from the plain build:\n%s" % (name, cid, r["stdout"]))
    for rep in range(reps):
        order = list(cfgs)
        random.shuffle(order)
        for cid, _, spec in order:
            samples[cid].append(measure(spec))
        note("   rep %d/%d done (load %s)" % (rep + 1, reps, loadavg()))
    base = statistics.median(s["wall"] for s in samples["plain"])
    rows = []
    for cid, label, _ in cfgs:
        walls = [s["wall"] for s in samples[cid]]
        cpu = [s["user"] + s["sys"] for s in samples[cid]]
        med = statistics.median(walls)
        row = {
            "id": cid, "label": label, "median_wall_s": med, "ratio": med / base,
            "median_cpu_s": statistics.median(cpu),
            "median_maxrss_kb": statistics.median(s["maxrss_kb"] for s in samples[cid]),
            "walls": walls,
        }
        if calls:  # per-call figures only where the workload's calls are known (not the whole command)
            per = [(x - base) / calls * 1e9 for x in walls]
            row.update({"ns_per_call": (med - base) / calls * 1e9,
                        "ns_per_call_q1": q(per, 0.25), "ns_per_call_q3": q(per, 0.75)})
        rows.append(row)
    return {"calls": calls, "reps": reps, "load_before": load_before, "load_after": loadavg(), "rows": rows,
            "failed": failed}


# ---------------------------------------------------------------- phases
phases = args.phases.split(",")

if "percall" in phases:
    out = {}
    for key, w in workloads(args.loans).items():
        if key not in args.workloads.split(","):
            continue
        calls = call_count(w)
        cap = capture_calls(w)
        note("%s: %d calls (XRay count); exaloop capture recorded %d" % (key, calls, cap))
        if cap != calls:
            raise SystemExit("%s: exaloop's capture has %d calls, XRay counted %d" % (key, cap, calls))
        # a buffer whose timeline (3/4 of it) holds every event
        big = 1 << 20
        while big * 3 // 4 < calls * 2 * 16 + (8 << 20):
            big <<= 1
        cfgs = configs(w, slow=not args.no_slow, big_buffer=big)
        reps = args.loans_reps if key == "loans" else args.fib_reps
        res = interleaved(key, cfgs, reps, calls)
        res["desc"] = w["desc"]
        out[key] = res
    results["phases"]["percall"] = out

if "base" in phases:
    w = workloads(250000)["loans"]
    w["args"] = ["out.csv"]
    w["desc"] = "examples/loans, default run (250,000 loans, 96 scenarios), release"
    calls = call_count(w)
    cfgs = [c for c in configs(w, slow=False) if c[0] in ("plain", "unpatched", "memory")]
    # memory-only capture of the XRay build too (the runtime is linked, nothing patched)
    cfgs.append(("memory-xray", "exaloop memory-only capture of the XRay build",
                 Run([os.path.join(BIN, "loans.xl"), "out.csv"], {"EXALOOP_CAPTURE_MODE": "memory"}, capture=True)))
    res = interleaved("loans-default", cfgs, args.base_reps, calls)
    res["desc"] = w["desc"]
    results["phases"]["base"] = res

if "memory" in phases:
    note("== memory: peak RSS vs buffer_size and run length (load %s)" % loadavg())
    rows = []
    fib = os.path.join(BIN, "fib")
    for n in (30, 34, 36):
        plain = measure(Run([fib + ".plain", str(n)]))
        unp = measure(Run([fib + ".xl", str(n)]))
        for buf_mib in (4, 64, 256):
            env = dict(CAP, EXALOOP_BUFFER_SIZE=str(buf_mib << 20))
            r = measure(Run([fib + ".xl", str(n)], env, capture=True), keep=True)
            capf = os.path.join(r["dir"], "capture", "capture.xlc")
            with open(capf, "rb") as f:
                hdr = f.read(96)
            # xl_cap_header: magic[8], 8 u32, then file_size, arena_off, arena_cursor (u64)
            file_size, arena_off, cursor = struct.unpack_from("<QQQ", hdr, 40)
            shutil.rmtree(r["dir"], ignore_errors=True)
            os.sync()
            rows.append({"fib_n": n, "buffer_mib": buf_mib, "plain_kb": plain["maxrss_kb"],
                         "unpatched_kb": unp["maxrss_kb"], "capture_kb": r["maxrss_kb"],
                         "used_bytes": cursor, "file_size": file_size, "wall_s": r["wall"]})
            note("   fib(%d) buffer %d MiB: peak RSS %d KiB (plain %d, unpatched %d), capture used %.1f MiB"
                 % (n, buf_mib, r["maxrss_kb"], plain["maxrss_kb"], unp["maxrss_kb"], cursor / 1048576))
    results["phases"]["memory"] = {"rows": rows}

if "e2e" in phases:
    fib = os.path.join(BIN, "fib")
    n = [str(args.e2e_n)]
    cfgs = [("plain", "plain build", Run([fib + ".plain"] + n)),
            ("exaloop", "exaloop --no-open profile exec (capture, analysis, index.html)",
             Run([args.exaloop, "--no-open", "profile", "exec", fib + ".xl"] + n)),
            ("exaloop-sampled", "the same with --timing=sampled",
             Run([args.exaloop, "--no-open", "--timing=sampled", "profile", "exec", fib + ".xl"] + n))]
    if shutil.which("uftrace"):
        cfgs.append(("uftrace", "uftrace record --no-libcall (clang -pg build)",
                     Run(["/usr/bin/env", "uftrace", "record", "--no-libcall", "-d", "@DIR@/uftrace.data", fib + ".pg"] + n)))
    res = interleaved("e2e-fib%d" % args.e2e_n, cfgs, args.e2e_reps, None)
    res["desc"] = "the whole command, fib(%d)" % args.e2e_n
    results["phases"]["e2e"] = res

if "callgrind" in phases and shutil.which("valgrind"):
    # per workload: the program's own call count (its "calls=" output) at two sizes
    sizes = {"fib": (20, 25), "tailcall": (2000, 20000)}
    rows = []
    for prog, (small, large) in sizes.items():
        note("== callgrind: instructions per call, slope between %s(%d) and %s(%d)" % (prog, small, prog, large))
        exe = os.path.join(BIN, prog)
        kinds = [("plain", "plain", {}, False), ("unpatched", "xl", {}, False),
                 ("empty-stock", "tr-stock", {"XLB_TRACER": "empty"}, False),
                 ("empty-lean", "tr-lean", {"XLB_TRACER": "empty"}, False),
                 ("rdtsc-lean", "tr-lean", {"XLB_TRACER": "rdtsc"}, False),
                 ("exaloop", "xl", CAP, True), ("exaloop-stock", "xl-stock", CAP, True),
                 # the timeline's threshold: "first" never compares against a non-zero one, a 1 s
                 # threshold takes every call out of the timeline (a rewind per call)
                 ("exaloop-first", "xl", dict(CAP, EXALOOP_TIMELINE="first"), True),
                 ("exaloop-drop-all", "xl", dict(CAP, EXALOOP_TIMELINE_MIN_NS="1000000000"), True)]
        if os.path.exists(exe + ".xl-base"):
            kinds.append(("exaloop-base", "xl-base", CAP, True))
        # the samples (1 kHz in "exaloop") and the frame pointers profiling builds keep
        kinds.append(("exaloop-nosamples", "xl", dict(CAP, EXALOOP_SAMPLE_RATE="0"), True))
        kinds.append(("exaloop-sampled", "xl", dict(CAP, EXALOOP_TIMING="sampled"), True))
        if os.path.exists(exe + ".xl-nofp"):
            kinds += [("unpatched-nofp", "xl-nofp", {}, False),
                      ("exaloop-nofp", "xl-nofp", dict(CAP, EXALOOP_SAMPLE_RATE="0"), True)]
        prow = []
        for cid, kind, env, cap in kinds:
            ir, calls = [], []
            for n in (small, large):
                d = fresh_rundir()
                cg = os.path.join(d, "cg.out")
                r = run_once(Run(["/usr/bin/env", "valgrind", "--tool=callgrind", "--smc-check=all",
                                  "--callgrind-out-file=" + cg, exe + "." + kind, str(n)], env, capture=cap), d)
                tot = None
                for line in r["stderr"].splitlines():
                    if "Collected :" in line:
                        tot = int(line.split(":")[-1].strip())
                shutil.rmtree(d, ignore_errors=True)
                if r["status"] != 0 and cid == "exaloop-base":
                    tot = None
                    break
                if tot is None:
                    raise SystemExit("callgrind failed for %s %s: %s" % (prog, cid, r["stderr"][-1000:]))
                ir.append(tot)
                calls.append(int(r["stdout"].split("calls=")[1].split()[0]))
            if len(ir) < 2:
                prow.append({"workload": prog, "id": cid, "instr_per_call": None, "status": r["status"]})
                note("   %-14s failed (status %d)" % (cid, r["status"]))
                continue
            per = (ir[1] - ir[0]) / (calls[1] - calls[0])
            prow.append({"workload": prog, "id": cid, "instr_per_call": per})
            note("   %-14s %.1f instructions per call" % (cid, per))
        for r in prow:
            if r["instr_per_call"] is not None:
                r["extra"] = r["instr_per_call"] - prow[0]["instr_per_call"]
        rows += prow
    results["phases"]["callgrind"] = {"rows": rows}

results["finished"] = time.strftime("%Y-%m-%d %H:%M:%S")
with open(os.path.join(OUT, "results.json"), "w") as f:
    json.dump(results, f, indent=1)


# ---------------------------------------------------------------- report
def fmt_table(res):
    lines = ["| config | median wall | ratio | ns/call (IQR) | CPU s | peak RSS |",
             "|---|---|---|---|---|---|"]
    for r in res["rows"]:
        ns = "—" if r["id"] == "plain" else "%.1f (%.1f–%.1f)" % (r["ns_per_call"], r["ns_per_call_q1"], r["ns_per_call_q3"])
        lines.append("| %s: %s | %.3f s | %.2fx | %s | %.3f | %.1f MiB |" % (
            r["id"], r["label"], r["median_wall_s"], r["ratio"], ns, r["median_cpu_s"], r["median_maxrss_kb"] / 1024))
    return "\n".join(lines)


md = ["# exaloop bench results (%s to %s)" % (results["started"], results["finished"]), ""]
pc = results["phases"].get("percall", {})
for key, res in pc.items():
    md += ["## %s — %s" % (key, res["desc"]), "",
           "%d traced calls, %d repetitions, load %s before / %s after." % (res["calls"], res["reps"], res["load_before"], res["load_after"]), "",
           fmt_table(res), ""]
    for cid, status in res.get("failed", {}).items():
        md += ["%s: the program failed (status %d) and was left out." % (cid, status), ""]
    # the clock floor (issue 25): a capture's ns per call over rdtsc-lean's, the same run
    per = {r["id"]: r["ns_per_call"] for r in res["rows"]}
    if per.get("rdtsc-lean", 0) > 0:
        md += ["%s over the clock floor (ns/call ÷ rdtsc-lean's %.1f): %s." % (
            key, per["rdtsc-lean"], ", ".join("%s %.2fx" % (c, per[c] / per["rdtsc-lean"])
                                            for c in ("exaloop", "exaloop-nosamples", "exaloop-sampled") if c in per)), ""]
if "base" in results["phases"]:
    res = results["phases"]["base"]
    md += ["## near-zero configs — %s" % res["desc"], "",
           "%d traced calls (when patched), %d repetitions, load %s before / %s after." % (res["calls"], res["reps"], res["load_before"], res["load_after"]), "",
           fmt_table(res), ""]
if "e2e" in results["phases"]:
    res = results["phases"]["e2e"]
    med = {r["id"]: r["median_wall_s"] for r in res["rows"]}
    md += ["## e2e — %s" % res["desc"], "", "%d repetitions, load %s before / %s after." % (
        res["reps"], res["load_before"], res["load_after"]), "", "| config | median wall | IQR |", "|---|---|---|"]
    for r in res["rows"]:
        md.append("| %s: %s | %.3f s | %.3f–%.3f s |" % (r["id"], r["label"], r["median_wall_s"], q(r["walls"], 0.25),
                                                        q(r["walls"], 0.75)))
    if "uftrace" in med and med["uftrace"] > med["plain"]:
        md += ["", "(exaloop − plain) ÷ (uftrace − plain): %s." % ", ".join(
            "%s %.2f" % (c, (med[c] - med["plain"]) / (med["uftrace"] - med["plain"]))
            for c in ("exaloop", "exaloop-sampled"))]
    md.append("")
if "memory" in results["phases"]:
    md += ["## memory: peak RSS of fib under exaloop capture", "",
           "| fib N | buffer | peak RSS plain | unpatched | with capture | capture − unpatched | capture bytes used |",
           "|---|---|---|---|---|---|---|"]
    for r in results["phases"]["memory"]["rows"]:
        md.append("| %d | %d MiB | %.1f MiB | %.1f MiB | %.1f MiB | %.1f MiB | %.1f MiB |" % (
            r["fib_n"], r["buffer_mib"], r["plain_kb"] / 1024, r["unpatched_kb"] / 1024, r["capture_kb"] / 1024,
            (r["capture_kb"] - r["unpatched_kb"]) / 1024, r["used_bytes"] / 1048576))
    md.append("")
if "callgrind" in results["phases"]:
    md += ["## callgrind: instructions per call", "", "| workload | config | instructions/call | extra over plain |",
           "|---|---|---|---|"]
    for r in results["phases"]["callgrind"]["rows"]:
        if r["instr_per_call"] is None:
            md.append("| %s | %s | failed (status %d) | |" % (r["workload"], r["id"], r["status"]))
        else:
            md.append("| %s | %s | %.1f | %+.1f |" % (r["workload"], r["id"], r["instr_per_call"], r["extra"]))
    md.append("")
with open(os.path.join(OUT, "results.md"), "w") as f:
    f.write("\n".join(md))
print("\n".join(md))
