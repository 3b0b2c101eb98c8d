"""Stress: 32 threads call at full speed for 30 s under capture.

tests/progs/s-stress.c counts its own calls per thread and prints them; the capture must hold
exactly those counts on every thread's call tree (stress_main > work = W, > work > step = 2W),
however much of the timeline had to be dropped, and the report must be written.
Set XL_STRESS_SECONDS to run shorter or longer (default 30).
"""
import re

from xltest import *

THREADS = 32
SECONDS = os.environ.get("XL_STRESS_SECONDS", "30")

with Workdir() as w:
    p = w.run(["--profile", "--no-open", "run", "-release", "-pthread", prog("s-stress.c"), str(THREADS), SECONDS],
              timeout=900)
    eq(p.returncode, 0, "exit status")
    did = {m.group(1): int(m.group(2)) for m in re.finditer(r"^(stress-\d\d) work=(\d+) step=\d+$", p.stdout, re.M)}
    eq(len(did), THREADS, "the program printed its %d threads' counts" % THREADS)
    total = sum(did.values())
    check(("total threads=%d work=%d" % (THREADS, total)) in p.stdout, "the program's total (%d work calls)" % total)
    check(os.path.exists(os.path.join(w.latest(), "index.html")), "report written")
    s = w.summary()
    threads = {t["name"]: t["index"] for t in s.doc["threads"] if t["name"].startswith("stress-")}
    eq(sorted(threads), sorted(did), "every thread recorded under its name")
    wrong = []
    for name, n in sorted(did.items()):
        if name not in threads:
            continue
        pt = s.paths(threads[name])
        got = (pt.get(("stress_main",)), pt.get(("stress_main", "work")), pt.get(("stress_main", "work", "step")))
        if got != (1, n, 2 * n):
            wrong.append((name, got, (1, n, 2 * n)))
    eq(wrong, [], "per-thread counts equal the program's own (stress_main, work, step)")
    eq(s.calls("work"), total, "work calls over all threads")
    eq(s.calls("step"), 2 * total, "step calls over all threads")
    eq(s.paths().get(("main", "report")), 1, "main > report")
    check(s.warning("nodes_full") is None, "no call-tree space lost")
    tw = s.warning("timeline_full")
    print("timeline: %s" % (tw["message"][:200] if tw else "complete"))
done()
