#!/usr/bin/env python3
"""bench/qemu_arm64.py - exaloop's per-call cost on AArch64 under qemu-user (docs/benchmarks.md).

    bench/qemu_arm64.py [--exaloop build/bin/exaloop] [--n 28] [--reps 5]

Needs what scripts/test-arm64.sh sets up (qemu-user, the arm64 cross packages, the SDK's aarch64/
runtime).  Builds bench/fib.c for AArch64 four ways and runs each --reps times through qemu-aarch64
(explicitly, so binfmt_misc is not needed), measuring the CPU time (user + system) of the program
alone, which a loaded machine disturbs less than wall time (exaloop's control thread is included); the capture environment is
set the way exaloop sets it (the pid is the shell's, which execs qemu).  The cost per call is the
slope between fib(N-3) and fib(N) (median times), so qemu's start-up and code translation, which
do not grow with the calls, drop out; the table gives it as ns per call over the plain build's
slope.  Emulated time: only for comparing the configurations with each other, never with native
figures.
"""
import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile

SRC = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def qemu():
    q = shutil.which("qemu-aarch64") or sys.exit("qemu-aarch64 not found: run scripts/test-arm64.sh")
    return [q] + ([] if os.path.exists("/lib/ld-linux-aarch64.so.1") else ["-L", "/usr/aarch64-linux-gnu"])


def build(xl, work):
    fib = os.path.join(SRC, "bench", "fib.c")
    out = {}
    out["plain"] = os.path.join(work, "fib-plain")
    subprocess.run(["clang-14", "--target=aarch64-linux-gnu", "-O3", "-g", fib, "-o", out["plain"]], check=True)
    for name, env in (("lean", {}), ("stock", {"EXALOOP_STOCK_TRAMPOLINES": "1"})):
        out[name] = os.path.join(work, "fib-" + name)
        e = dict(os.environ, **env)
        subprocess.run([xl, "--arch", "aarch64", "--profile", "build", "-release", fib, "-o", out[name]],
                       check=True, env=e, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return out


def run(exe, n, capture, work):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EXALOOP_", "XRAY_"))}
    if capture:
        d = tempfile.mkdtemp(dir=work)
        env.update({"EXALOOP_CAPTURE_DIR": d, "EXALOOP_CAPTURE_MODE": "all", "EXALOOP_SAMPLE_RATE": "0"})
        cmd = ["sh", "-c", 'EXALOOP_CAPTURE_PID=$$ exec "$@"', "sh"] + qemu() + [exe, str(n)]
    else:
        cmd = qemu() + [exe, str(n)]
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, text=True, check=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    if capture:
        shutil.rmtree(d, ignore_errors=True)
    return t, p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exaloop", default=os.path.join(SRC, "build", "bin", "exaloop"))
    ap.add_argument("--n", type=int, default=28)
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="xl-qemu-bench-")
    try:
        exe = build(a.exaloop, work)
        configs = [("plain build", exe["plain"], False),
                   ("XRay compiled in, not patched (exaloop build, no capture)", exe["lean"], False),
                   ("**exaloop full capture**, exaloop's trampolines", exe["lean"], True),
                   ("exaloop full capture, compiler-rt's trampolines", exe["stock"], True)]
        rows = []
        for name, path, cap in configs:
            med = []
            for n in (a.n - 3, a.n):
                times, calls = [], 0
                for _ in range(a.reps):
                    t, out = run(path, n, cap, work)
                    times.append(t)
                    calls = int(out.split("calls=")[1]) + 1
                med.append((statistics.median(times), calls))
            slope = (med[1][0] - med[0][0]) / (med[1][1] - med[0][1])
            rows.append((name, med[1][0], slope, med[1][1]))
        base = rows[0]
        print("fib(%d) under qemu-aarch64 (emulated): %d calls (slope from fib(%d)), %d repetitions, median\n"
              % (a.n, base[3], a.n - 3, a.reps))
        print("| configuration | CPU time, fib(%d) | ns/call over plain |" % a.n)
        print("|---|---|---|")
        for name, t, slope, _ in rows:
            per = "—" if name == base[0] else "%.0f" % ((slope - base[2]) * 1e9)
            print("| %s | %.3f s | %s |" % (name, t, per))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
