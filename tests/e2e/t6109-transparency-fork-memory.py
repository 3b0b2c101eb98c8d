"""Forked children get their own memory samples and the run's capture window, in every mode.

tests/progs/s-forkmem.c forks one child that writes every byte of 64 MiB, holds them for 600 ms
(tick() every 10 ms) and exits; the parent waits.  The child's capture (child-<pid>/) has its own
RSS samples, every 100 ms: at least 64 MiB at their peak, and at least 4 samples; its function
counts are the child's own (touch 1, hold 1, tick 60).  In --profile=memory runs the child is
captured too (it was not: memory-only runs had no child captures), with the same RSS.  With a
300 ms window (kind "service", duration), the child's capture is finalized by the window, like
the parent's, before the child's 60 ticks are done.  The child's heap allocation (64 MiB) is in its
capture (--profile=all), not the parent's.  Output and exit status as uncaptured.
"""
from xltest import *

MiB = 1 << 20

with Workdir() as w:
    for mode in ("all", "memory"):
        app = os.path.join(w.path, "forkmem-" + mode)
        eq(w.run(["--profile=" + mode, "build", prog("s-forkmem.c"), "-o", app]).returncode, 0, "build (%s)" % mode)
        plain = subprocess.run([app, "64", "600"], stdout=subprocess.PIPE, text=True, timeout=60)
        eq((plain.returncode, plain.stdout), (0, "child: touched=64 status=0\n"), mode + ": uncaptured")
        p = w.run(["--no-open", "profile", "exec", app, "64", "600"])
        eq((p.returncode, p.stdout), (0, plain.stdout), mode + ": output and exit status as uncaptured")
        top = w.latest()
        s = w.summary(top)
        kids = [r for r in s.doc["run"]["process"]["related"] if r["kind"] == "fork_child"]
        eq(len(kids), 1, mode + ": the child is captured")
        check(s.note("fork_children") is not None and s.warning("fork_children") is None,
              mode + ": the parent's report names its child (a note: the child is in the report)")
        ppid = s.doc["run"]["process"]["pid"]
        eq(sorted(p["pid"] for p in s.doc["processes"]), sorted([ppid] + [r["pid"] for r in kids]),
           mode + ": the report's processes: the parent and its child")
        sp = w.summary(top, ["--process", str(ppid)])
        if not kids:
            continue
        c = w.summary(os.path.join(top, kids[0]["dir"]))
        eq((c.doc["run"]["mode"], c.doc["run"]["finalized"], c.doc["run"]["end_reason"]), (mode, True, "exit"),
           mode + ": the child's capture, finalized at its exit")
        rss = [v for v in c.doc["memory"]["samples"]["rss"] if v is not None]
        check(len(rss) >= 4, mode + ": the child's RSS sampled every interval (%d samples)" % len(rss))
        check(bool(rss) and max(rss) >= 64 * MiB, mode + ": the child's RSS peak >= 64 MiB (%r)" % (max(rss or [0]) // MiB))
        peak = c.doc["memory"]["summary"]["peak_rss"]["value"]
        check(peak is not None and peak >= 64 * MiB, mode + ": the child's peak RSS >= 64 MiB (%r)" % peak)
        prss = [v for v in s.doc["memory"]["samples"]["rss"] if v is not None]
        check(bool(prss) and max(prss) < 64 * MiB, mode + ": the parent's RSS does not include the child's")
        check(c.warning("fork_child") is not None, mode + ": the child's report says whose it is")
        # its heap allocation (touch's malloc of 64 MiB) is the child's, on its call path; the parent
        # made none.  (A memory-only child's capture begins one interval after the fork, after
        # touch's malloc: allocations before it are not in any capture.)
        ca, pa = c.doc["allocations"], sp.doc["allocations"]
        if mode == "all":
            eq((ca["recorded"], ca["total"]["allocs"], ca["total"]["bytes"], ca["not_attributed"]["allocs"]),
               (True, 1, 64 * MiB, 0), mode + ": the child's allocation, attributed")
        eq(pa["total"]["allocs"], 0, mode + ": the parent's allocations do not include the child's")
        eq(s.doc["allocations"]["total"]["allocs"], ca["total"]["allocs"], mode + ": the merged report's are the child's")
        if mode == "all":
            eq({f: c.calls(f) for f in ("main", "spawn", "touch", "hold", "tick")},
               {"main": 0, "spawn": 0, "touch": 1, "hold": 1, "tick": 60}, "the child's own calls")

    # the run's window closes for the child too
    open(os.path.join(w.path, "exaloop.toml"), "w").write(
        '[targets.fm]\nkind = "service"\nsource = "%s"\nargs = ["16", "1500"]\n'
        '[targets.fm.profile]\nduration = "300ms"\nmemory_interval = "50ms"\n' % prog("s-forkmem.c"))
    p = w.run(["--profile", "--no-open", "--target", "fm", "run"], timeout=600)
    eq((p.returncode, p.stdout), (0, "child: touched=16 status=0\n"), "window: output and exit status")
    top = w.latest()
    s = w.summary(top)
    eq(s.doc["run"]["end_reason"], "window", "window: the parent's capture closed by the window")
    kids = [r for r in s.doc["run"]["process"]["related"] if r["kind"] == "fork_child"]
    eq(len(kids), 1, "window: the child is captured")
    if kids:
        c = w.summary(os.path.join(top, kids[0]["dir"]))
        eq((c.doc["run"]["finalized"], c.doc["run"]["end_reason"]), (True, "window"),
           "window: the child's capture closed by the run's window")
        check(c.calls("tick") < 150, "window: the child's ticks after the window are not counted (%d)" % c.calls("tick"))
done()
