"""A function called from two parents shows as two call paths; tail calls; threads."""
from xltest import *

with Workdir() as w:
    p = w.run(["--profile", "--no-open", "run", prog("s-two-parents.c")])
    eq(p.returncode, 0, "exit status")
    paths = w.summary().paths()
    eq(paths.get(("main", "alpha", "leaf")), 3, "main>alpha>leaf")
    eq(paths.get(("main", "beta", "leaf")), 5, "main>beta>leaf")

    p = w.run(["--profile", "--no-open", "run", "-release", prog("s-tail.c")])
    paths = w.summary().paths()
    eq(paths.get(("main", "middle")), 6, "release: main>middle (tail exits)")
    eq(paths.get(("main", "leaf")), 8, "release: main>leaf (reached through tail calls)")
    eq(paths.get(("main", "relay")), 2, "release: main>relay")

    p = w.run(["--profile", "--no-open", "run", prog("s-threads.c"), "1000"])
    eq(p.returncode, 0, "threads: exit status")
    s = w.summary()
    workers = [t for t in s.doc["threads"] if t["name"].startswith("worker-")]
    eq(len(workers), 8, "8 named worker threads")
    for t in workers:
        pt = s.paths(t["index"])
        eq((pt.get(("thread_main", "work")), pt.get(("thread_main", "work", "step"))), (1000, 2000),
           "thread %s counts" % t["name"])
    eq(s.calls("work"), 8000, "work over all threads")
done()
