"""Instruction samples start with each thread (docs/cli.md, "Samples").

The sampler's perf event for a thread is opened by the control thread; it used to do so at its next
wake-up, up to 10 ms later under exact timing, so a short thread's first milliseconds had no
samples (8 threads of 30 ms: 18 % fewer than the same work on the main thread).  A thread's
registration now wakes the control thread.  s-threadstart.c runs the same spin() (about 5 ms) on
32 short threads, one after the other, then 32 times on the main thread: the threads' samples of
spin must be within 15 % of the main thread's (93-98 % with the wake-up on a machine at load 1.3,
71-74 % without it) (cpu-clock samples count CPU time, so the machine's load does not
change the ratio; only the control thread's wake-up latency does).
"""
from xltest import *

with Workdir() as w:
    p = w.run(["--no-open", "--sample-rate", "4000", "--profile", "run", "-release", prog("s-threadstart.c"),
               "32", "10000000"])
    eq(p.returncode, 0, "s-threadstart runs")
    s = w.summary()
    names = [f["name"] for f in s.funcs]
    t = s.tree
    on_main = on_workers = 0
    for i in range(len(t["parent"])):
        if t["func"][i] < 0 or names[t["func"][i]] != "spin":
            continue
        parent = names[t["func"][t["parent"][i]]] if t["func"][t["parent"][i]] >= 0 else None
        if parent == "main":
            on_main += t["samples"][i]
        elif parent == "worker":
            on_workers += t["samples"][i]
    eq((s.calls("spin"), s.calls("worker")), (64, 32), "the program's own counts")
    print("spin's samples: 32 threads %d, main thread %d" % (on_workers, on_main))
    check(on_main >= 200, "enough samples on the main thread's spin (%d)" % on_main)
    check(on_workers >= 0.85 * on_main, "the short threads' spin has the main thread's samples within 15 %% "
          "(%d against %d)" % (on_workers, on_main))
done()
