"""unshare and setns calls that need a single-threaded process work under capture.

The kernel refuses unshare(CLONE_NEWUSER), and setns into a user or mount namespace, in a process
with more than one thread (EINVAL).  exaloop's control thread runs from before main, so these
failed under capture in programs that are single-threaded without it (sandboxes, container
set-up).  The wrappers (src/rt/rt_wrap_ns.c) stop the control thread around such a call and start
it again.  tests/progs/s-unshare.c: setns into its own mount namespace, a forked child's
unshare(CLONE_NEWUSER), the parent's own, then 1000 calls and 32 MiB held for 400 ms.  Checked in
--profile=all, with --no-allocations (the wrappers are linked all the same) and --profile=memory:
output and exit status as uncaptured; the calls after the unshare counted exactly; the memory
samples go on after it (the control thread is back); no warning.
"""
from xltest import *

MiB = 1 << 20

with Workdir() as w:
    for mode, extra in (("all", []), ("all", ["--no-allocations"]), ("memory", [])):
        name = mode + "".join(extra)
        app = os.path.join(w.path, "unshare-" + name.replace("-", ""))
        eq(w.run(extra + ["--profile=" + mode, "build", "-release", prog("s-unshare.c"), "-o", app]).returncode, 0,
           "build (%s)" % name)
        plain = subprocess.run([app, "1000", "400"], stdout=subprocess.PIPE, text=True, timeout=60)
        eq(plain.returncode, 0, name + ": uncaptured run")
        if plain.stdout.count(": ok\n") != 3:
            print("note: this machine refuses some of the calls without exaloop too:\n" + plain.stdout)
        p = w.run(["--no-open", "profile", "exec", app, "1000", "400"])
        eq((p.returncode, p.stdout), (0, plain.stdout), name + ": output and exit status as uncaptured")
        s = w.summary()
        eq([x["kind"] for x in s.doc["warnings"]], [], name + ": no warning")
        rss = [v for v in s.doc["memory"]["samples"]["rss"] if v is not None]
        check(sum(1 for v in rss if v >= 32 * MiB) >= 2,
              name + ": memory samples go on after the unshare (%r MiB)" % [v // MiB for v in rss])
        if mode == "all":
            eq({f: s.calls(f) for f in ("main", "report", "step")}, {"main": 1, "report": 3, "step": 1000},
               name + ": every call, the child's report too")
done()
