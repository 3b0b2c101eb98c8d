"""Frames unwound by C++ exceptions and longjmp (tests/progs s-throw.cc, s-longjmp.c).

A throw or a longjmp leaves traced frames without their exits.  What the catcher (or the setjmp
caller) calls next belongs under the catcher, not under the frames that are gone: exaloop closes
those frames, by their stack pointers, at the next entry, and counts them as unwound.
"""
import struct

from xltest import *

FLAG_UNWIND_TRACKED = 0x40   # xl_capture.h: the runtime keeps frames' stack pointers


def tracked(capture):
    with open(os.path.join(capture, "capture.xlc"), "rb") as f:
        return bool(struct.unpack_from("<I", f.read(64), 32)[0] & FLAG_UNWIND_TRACKED)


with Workdir() as w:
    for mode in ("debug", "release"):
        flags = ["-release"] if mode == "release" else []
        p = w.run(["--profile", "--no-open", "run"] + flags + [prog("s-throw.cc")])
        eq((p.returncode, p.stdout), (0, "caught=100 sum=105050\n"), "s-throw %s: output and status" % mode)
        check(tracked(w.latest()), "s-throw %s: catches exceptions, so frames' stack pointers are kept" % mode)
        s = w.summary()
        eq(s.paths(), {
            ("main",): 1,
            ("main", "guarded(long)"): 300,
            ("main", "guarded(long)", "middle(long)"): 300,
            ("main", "guarded(long)", "middle(long)", "inner(long)"): 300,
            ("main", "guarded(long)", "on_error(long)"): 100,
            ("main", "next_step(long)"): 300,
        }, "s-throw %s: the catcher's call is under the catcher" % mode)
        t = s.doc["threads"][0]
        eq((t["unwound_frames"], t["repaired_exits"], t["open_frames"]), (200, 0, 0),
           "s-throw %s: 2 frames unwound per throw, nothing repaired or left open" % mode)
        check(s.warning("repaired_exits") is not None, "s-throw %s: the unwound frames are reported" % mode)
        for f in s.funcs:
            check(0 <= f["self_ns"] <= f["total_ns"], "s-throw %s: %s self <= total" % (mode, f["name"]))

        p = w.run(["--profile", "--no-open", "run"] + flags + [prog("s-longjmp.c")])
        eq((p.returncode, p.stdout), (0, "jumps=100 sum=21600\n"), "s-longjmp %s: output and status" % mode)
        check(tracked(w.latest()), "s-longjmp %s: longjmps, so frames' stack pointers are kept" % mode)
        s = w.summary()
        eq(s.paths(), {
            ("main",): 1,
            ("main", "attempt"): 200,
            ("main", "attempt", "descend"): 200,
            ("main", "attempt", "descend", "descend"): 200,
            ("main", "attempt", "descend", "descend", "descend"): 200,
            ("main", "attempt", "recover"): 100,
            ("main", "after"): 200,
        }, "s-longjmp %s: recover is under attempt" % mode)
        t = s.doc["threads"][0]
        eq((t["unwound_frames"], t["repaired_exits"], t["open_frames"]), (300, 0, 0),
           "s-longjmp %s: 3 frames unwound per jump" % mode)

        # the Chrome trace stays strictly nested with the unwound frames closed early
        tr = json.loads(w.run(["profile", "export", w.latest(), "--format", "chrome"]).stdout)
        xs = sorted((e for e in tr["traceEvents"] if e["ph"] == "X"), key=lambda e: (e["ts"], -e["dur"]))
        stack, bad = [], 0
        for e in xs:
            while stack and stack[-1] <= e["ts"] + 0.0005:   # ends touching starts (float us)
                stack.pop()
            if stack and e["ts"] + e["dur"] > stack[-1] + 1:
                bad += 1
            stack.append(e["ts"] + e["dur"])
        eq((len(xs), bad), (1 + 200 + 600 + 100 + 200, 0), "s-longjmp %s: chrome events, strictly nested" % mode)
    # a program that neither catches nor jumps does not pay for it, and counts stay exact
    p = w.run(["--profile", "--no-open", "run", "-release", prog("s-fib.c"), "10"])
    eq(p.returncode, 0, "s-fib: exit status")
    check(not tracked(w.latest()), "s-fib: no unwinding imports, no stack-pointer tracking")
    p = w.run(["--profile", "--no-open", "run", "-release", prog("s-fib.c"), "10"], env={"EXALOOP_UNWIND_TRACKING": "1"})
    check(tracked(w.latest()), "s-fib: EXALOOP_UNWIND_TRACKING=1 turns tracking on")
    eq(w.summary().calls("fib"), 177, "s-fib with tracking: counts unchanged")

    # turned off for a program that unwinds: the old attribution, under the unwound frames
    p = w.run(["--profile", "--no-open", "run", prog("s-throw.cc")], env={"EXALOOP_UNWIND_TRACKING": "0"})
    check(not tracked(w.latest()), "s-throw: EXALOOP_UNWIND_TRACKING=0 turns tracking off")
    paths = w.summary().paths()
    eq(paths.get(("main", "guarded(long)", "middle(long)", "inner(long)", "on_error(long)")), 100,
       "s-throw without tracking: on_error lands under the unwound frames (what tracking fixes)")
done()
