#!/usr/bin/env python3
"""t1380: AArch64 programs built with `--arch aarch64` on an x86-64 host, run under qemu-user, captured
and reported (docs/cli.md, "Other architectures").

Needs what scripts/test-arm64.sh installs and builds (qemu-user, Debian's arm64 cross libc,
libclang-rt-14-dev:arm64, the SDK's aarch64/ runtime): CTest label `arm64`, left out of
scripts/test.sh.  Checks:
- exact call counts of s-fib (known by construction) equal the x86-64 run's, and LLVM XRay's own
  basic mode on the same AArch64 binary (an oracle that does not use exaloop);
- the lean trampolines (rt_tramp_aarch64.S) and compiler-rt's give the same counts and output;
- a make project built through the compiler wrappers gets the architecture and the rules too;
- the ARM64 tail-call rules: relay's optional tail call became a call (`bl middle`), hop's musttail
  stays a `b`, hop is excluded with a warning and its callee shows under main; memory builds: neither;
- exaloop's own qemu route (EXALOOP_QEMU=always) works, and is refused in one line without qemu;
- a crash (SIGSEGV) and a SIGKILL leave readable captures; the report (JSON, text, HTML) works on the
  host;
- C++: exact counts of s-cxx (members, templates, an anonymous namespace) and s-allocxx's allocations;
- `profile attach` is refused with --arch aarch64.
"""
import os
import shutil
import signal
import subprocess
import tempfile
import time

from xltest import EXALOOP, Workdir, check, done, eq, prog, xray_account, xray_basic_env

EM_AARCH64 = 183


def elf_machine(path):
    with open(path, "rb") as f:
        h = f.read(20)
    return h[18] | h[19] << 8 if h[:4] == b"\x7fELF" else -1


def qemu_prefix():
    """How to run an AArch64 program here outside exaloop: qemu-aarch64, with the cross sysroot as
    -L only when the multiarch loader is missing (never QEMU_LD_PREFIX for the whole test)."""
    q = shutil.which("qemu-aarch64") or shutil.which("qemu-aarch64-static")
    check(q is not None, "qemu-aarch64 is installed")
    cmd = [q or "qemu-aarch64"]
    if not os.path.exists("/lib/ld-linux-aarch64.so.1"):
        cmd += ["-L", "/usr/aarch64-linux-gnu"]
    return cmd


def basic_counts(exe, args):
    """LLVM XRay basic mode's counts of an AArch64 executable, run under qemu."""
    d = tempfile.mkdtemp(prefix="xl-xray-a64-")
    try:
        env = dict(os.environ)
        env.update(xray_basic_env(d))
        subprocess.run(qemu_prefix() + [exe] + list(args), env=env, stdout=subprocess.DEVNULL, check=True,
                       timeout=300)
        logs = [os.path.join(d, f) for f in os.listdir(d) if f.startswith("xray-log.")]
        return xray_account(exe, logs[0]) if logs else {}
    finally:
        shutil.rmtree(d, ignore_errors=True)


def disasm(exe, symbol):
    out = subprocess.run(["llvm-objdump-14", "-d", "--no-show-raw-insn", "--disassemble-symbols=" + symbol, exe],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    return [l.split("\t", 1)[1] if "\t" in l else l for l in out.splitlines() if l.startswith(" ")]


def fib_counts(w):
    """s-fib 20 under `--arch aarch64` and natively: output, counts, paths."""
    a = w.run(["--arch", "aarch64", "--profile", "--no-samples", "run", "-release", prog("s-fib.c"), "20"])
    eq((a.returncode, a.stdout), (0, "fib(20) = 6765\n"), "aarch64 run: output and status")
    sa = w.summary()
    eq((sa.calls("main"), sa.calls("fib")), (1, 21891), "aarch64 run: main 1, fib 2*F(21)-1")
    eq(sa.paths().get(("main", "fib")), 1, "aarch64 run: main > fib once")
    n = w.run(["--profile", "--no-samples", "run", "-release", prog("s-fib.c"), "20"])
    eq(n.returncode, 0, "x86-64 run")
    sn = w.summary()
    check(sa.paths() == sn.paths(), "aarch64 call paths equal the x86-64 run's (%d paths)" % len(sn.paths()))
    t = w.run(["profile", "report", w.latest(), "--text"])
    check(t.returncode == 0 and "fib" in t.stdout, "text report of the aarch64 capture")
    check(os.path.exists(os.path.join(w.latest(), "index.html")), "HTML report of the aarch64 capture")


def exec_and_oracle(w):
    """build + profile exec (the ELF header says AArch64: no --arch needed), against XRay basic mode."""
    exe = os.path.join(w.path, "fib-a64")
    b = w.run(["--arch", "arm64", "--profile", "build", "-release", prog("s-fib.c"), "-o", exe])
    eq(b.returncode, 0, "arm64 alias: build")
    eq(elf_machine(exe), EM_AARCH64, "the built program is AArch64")
    syms = subprocess.run(["llvm-nm-14", exe], stdout=subprocess.PIPE, text=True).stdout
    check("__wrap___xray_FunctionEntry" in syms, "exaloop's AArch64 trampolines are linked")
    x = w.run(["--no-samples", "profile", "exec", exe, "12"])
    eq((x.returncode, x.stdout), (0, "fib(12) = 144\n"), "profile exec under qemu")
    s = w.summary()
    eq(s.calls("fib"), 465, "profile exec: fib(12) calls")
    # exaloop's own qemu route (what runs where no binfmt_misc entry exists): forced, it works, and
    # without qemu in PATH it stops with one line, which shows the route was taken
    x = w.run(["--no-samples", "profile", "exec", exe, "12"], env={"EXALOOP_QEMU": "always"})
    eq((x.returncode, x.stdout, w.summary().calls("fib")), (0, "fib(12) = 144\n", 465),
       "profile exec through exaloop's qemu-aarch64 route")
    bare = os.path.join(w.path, "bin-no-qemu")  # an empty PATH: profile exec needs no tool
    os.makedirs(bare, exist_ok=True)
    x = w.run(["--no-samples", "profile", "exec", exe, "12"], env={"EXALOOP_QEMU": "always", "PATH": bare})
    check(x.returncode != 0 and "needs 'qemu-aarch64' to run here" in x.stderr,
          "forced qemu route without qemu: refused with one line (%r)" % x.stderr.strip()[-120:])
    eq({k: v for k, v in basic_counts(exe, ["12"]).items() if k in ("main", "fib")},
       {"main": 1, "fib": 465}, "XRay basic mode on the same binary agrees")
    stock = os.path.join(w.path, "fib-a64-stock")
    b = w.run(["--arch", "aarch64", "--profile", "build", "-release", prog("s-fib.c"), "-o", stock],
              env={"EXALOOP_STOCK_TRAMPOLINES": "1"})
    eq(b.returncode, 0, "build with compiler-rt's trampolines")
    x = w.run(["--no-samples", "profile", "exec", stock, "12"])
    eq((x.returncode, x.stdout, w.summary().calls("fib")), (0, "fib(12) = 144\n", 465),
       "compiler-rt's trampolines: same output and counts")


def tail_rules(w):
    exe = os.path.join(w.path, "mt-a64")
    b = w.run(["--arch", "aarch64", "--profile", "build", "-release", prog("s-musttail.c"), "-o", exe])
    eq(b.returncode, 0, "musttail build")
    warn = [l for l in b.stderr.splitlines() if "'hop' makes musttail calls" in l]
    eq(len(warn), 1, "one warning for hop, the musttail function")
    hop_line = [i + 1 for i, l in enumerate(open(prog("s-musttail.c"))) if "long hop(" in l][0]
    check(len(warn) == 1 and ("s-musttail.c:%d: 'hop'" % hop_line) in warn[0],
          "the warning is compiler-style, with hop's file and line (%d)" % hop_line)
    check(all("relay" not in l and "middle" not in l for l in b.stderr.splitlines() if "musttail" in l),
          "no warning for functions without musttail calls")
    relay, hop = disasm(exe, "relay"), disasm(exe, "hop")
    check(any(l.startswith("bl") and "middle" in l for l in relay), "relay calls middle with bl (no tail call)")
    check(any(l.startswith("b\t") and "leaf" in l for l in hop), "hop's musttail call stays a b")
    x = w.run(["--no-samples", "profile", "exec", exe])
    eq((x.returncode, x.stdout), (0, "musttail=45 relay=9\n"), "musttail program output")
    p = w.summary().paths()
    eq({k: v for k, v in p.items() if k}, {("main",): 1, ("main", "leaf"): 5, ("main", "relay"): 3,
                                           ("main", "relay", "middle"): 3},
       "hop untraced: leaf under main; relay > middle an ordinary call")
    m = w.run(["--arch", "aarch64", "--profile=memory", "build", "-release", prog("s-musttail.c"), "-o",
               exe + "-mem"])
    eq(m.returncode, 0, "memory build")
    check("musttail" not in m.stderr, "memory build: no musttail warning")
    check(any(l.startswith("b\t") and "middle" in l for l in disasm(exe + "-mem", "relay")),
          "memory build: relay keeps its tail call")


def project_build(w):
    """A make project through the compiler wrappers: --arch reaches them (EXALOOP_ARCH)."""
    d = os.path.join(w.path, "mk")
    os.makedirs(d)
    shutil.copy(prog("s-musttail.c"), d)
    with open(os.path.join(d, "Makefile"), "w") as f:
        f.write("app: s-musttail.o\n\t$(CC) -o app s-musttail.o\n"
                "s-musttail.o: s-musttail.c\n\t$(CC) -O2 -c s-musttail.c\n")
    b = w.run(["--arch", "aarch64", "--profile", "build", "--", "make", "-C", d])
    eq(b.returncode, 0, "make project build with --arch aarch64")
    check("'hop' makes musttail calls" in b.stderr, "the wrappers warn about hop too")
    exe = os.path.join(d, "app")
    eq(elf_machine(exe), EM_AARCH64, "the wrappers built an AArch64 program")
    x = w.run(["--no-samples", "profile", "exec", exe])
    eq((x.returncode, x.stdout), (0, "musttail=45 relay=9\n"), "project program under qemu")
    eq(w.summary().calls("leaf"), 5, "project program: leaf 5 calls")


def killed(w):
    """SIGKILL after "batch 3 done" (s-killme): the capture keeps what the program recorded."""
    exe = os.path.join(w.path, "killme-a64")
    eq(w.run(["--arch", "aarch64", "--profile", "build", "-release", prog("s-killme.c"), "-o", exe]).returncode, 0,
       "s-killme build")
    e = dict(os.environ, CI="1", EXALOOP_CACHE_DIR=w.cache)
    x = subprocess.Popen([EXALOOP, "--no-samples", "profile", "exec", exe, "--batch-size", "100", "--sleep-ms",
                          "2000"], cwd=w.path, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for _ in range(3):
        x.stdout.readline()
    time.sleep(1.0)  # "batch 3 done" comes before the nap is entered; the nap lasts 2 s: 1 s either side
    with open("/proc/%d/task/%d/children" % (x.pid, x.pid)) as f:
        kids = [int(k) for k in f.read().split()]
    for k in kids:
        os.kill(k, signal.SIGKILL)
    x.communicate(timeout=120)
    eq((len(kids), x.returncode), (1, 128 + 9), "SIGKILL in the nap after batch 3: exaloop exits 137")
    s = w.summary()
    eq((s.calls("run_batch"), s.calls("step"), s.calls("nap")), (3, 300, 3),
       "killed capture: run_batch 3, step 300, nap 3")


def cxx(w):
    """C++ with the AArch64 C++ library (libstdc++-12-dev-arm64-cross): s-cxx's counts and s-allocxx's
    allocations, both known by construction (debug builds: -O0 elides no new/delete pair)."""
    r = w.run(["--arch", "aarch64", "--profile", "--no-samples", "run", prog("s-cxx.cc")])
    eq((r.returncode, r.stdout), (0, "balance=37.5 scaled=12 posts=5\n"), "C++ under qemu: output and status")
    want = {"main": 1, "bank::Ledger::Ledger(double)": 1, "bank::Ledger::post(double)": 5,
            "double bank::risk::scale<double>(double, double)": 5, "int bank::risk::scale<int>(int, int)": 3,
            "bank::Ledger::operator+=(double)": 2, "(anonymous namespace)::report(bank::Ledger const&, int)": 1,
            "bank::Ledger::balance() const": 1, "bank::Ledger::posts() const": 1}
    s = w.summary()
    eq({k: s.calls(k) for k in want}, want, "C++ aarch64 capture: every member and template, counted")
    a = w.run(["--arch", "aarch64", "--profile", "--no-samples", "run", prog("s-allocxx.cc")])
    eq((a.returncode, a.stdout), (0, "sum 5605\n"), "C++ allocations under qemu: output and status")
    t = w.summary().doc["allocations"]["total"]
    eq((t["allocs"], t["bytes"], t["live_bytes"]), (12, 751, 24),
       "operator new/delete wrapped on AArch64: 12 allocations, 751 bytes, 24 leaked")


def crash_and_limits(w):
    c = w.run(["--arch", "aarch64", "--profile", "--no-samples", "run", "-release", prog("s-segv.c"), "50"])
    eq(c.returncode, 128 + 11, "SIGSEGV under qemu: exaloop exits 139")
    s = w.summary()
    eq((s.calls("work"), s.calls("crash")), (50, 1), "crash capture: work 50, crash 1")
    killed(w)
    a = w.run(["--arch", "aarch64", "profile", "attach", "1"])
    eq(a.returncode, 2, "profile attach refused with --arch aarch64")


with Workdir() as w:
    fib_counts(w)
    exec_and_oracle(w)
    tail_rules(w)
    project_build(w)
    cxx(w)
    crash_and_limits(w)
done()
