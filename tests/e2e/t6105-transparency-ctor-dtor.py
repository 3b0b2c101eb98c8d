"""Transparency: calls made in constructors and destructors are captured.

tests/progs/s-ctor.c calls traced functions from a constructor with priority 200, a default
constructor, main and a destructor, and prints what each did.  The runtime starts in a
priority-101 constructor (the earliest a program may use) and finalizes in a priority-101
destructor (the last of the executable's), so every one of these calls is in the capture, each
constructor and destructor a root of the main thread.  LLVM XRay's basic mode on a plain clang
build (compiler-rt's runtime and trampolines, nothing of exaloop), the independent oracle, sees
setup > early and main > work (its logger starts after the priority constructor and writes its log
before the destructors run): those counts must agree; the others are the counts the program itself
prints.
"""
from xltest import *

with Workdir() as w:
    app = os.path.join(w.path, "ctor")
    eq(w.run(["--profile", "build", prog("s-ctor.c"), "-o", app]).returncode, 0, "build s-ctor")
    plain = subprocess.run([app], stdout=subprocess.PIPE, text=True, timeout=60)
    eq(plain.stdout, "main: work=5\nctor: early=3 early_prio=2\ndtor: late=4\n", "uncaptured output")
    p = w.run(["--no-open", "profile", "exec", app])
    eq((p.returncode, p.stdout), (0, plain.stdout), "output and exit status as uncaptured")
    s = w.summary()
    check(s.doc["run"]["finalized"] and s.doc["run"]["end_reason"] == "exit", "capture finalized at exit")
    paths = s.paths()
    eq({k: paths.get(k) for k in [("setup_prio",), ("setup_prio", "early_prio"), ("setup",), ("setup", "early"),
                                  ("main",), ("main", "work"), ("teardown",), ("teardown", "late")]},
       {("setup_prio",): 1, ("setup_prio", "early_prio"): 2, ("setup",): 1, ("setup", "early"): 3,
        ("main",): 1, ("main", "work"): 5, ("teardown",): 1, ("teardown", "late"): 4},
       "constructors, main and destructor: every call, each on its own root")
    oracle = os.path.join(w.path, "ctor-xray")
    subprocess.run(["clang-14", "-O0", "-g", "-fxray-instrument", "-fxray-instruction-threshold=1", prog("s-ctor.c"),
                    "-o", oracle], check=True)
    # basic mode's default depth: with a deeper shadow stack (10,000 entries or more) compiler-rt 14
    # crashes in the destructor's first event (basicLoggingHandleArg0EmulateTSC, its thread data gone)
    xr = xray_basic_counts(oracle, max_depth=64)
    eq(sorted(xr), ["early", "main", "setup", "work"], "XRay basic mode sees the default constructor and main")
    eq({f: s.calls(f) for f in xr}, xr, "the calls XRay basic mode sees agree")
done()
