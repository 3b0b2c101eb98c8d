"""Transparency: exaloop's samplers leave a program that profiles itself as it was.

tests/progs/s-selfprof.c uses what profilers use: SIGPROF from setitimer(ITIMER_PROF) (it spins
until 200 ticks were handled) and perf_event_open of its own (a counting task-clock event, a sampling
cpu-clock event with its ring mapped), and prints the descriptor numbers those calls returned.  Under
capture the runtime's control thread opens a cpu-clock event per thread too, on a descriptor table
apart from the program's, and delivers no signal: the output must be the uncaptured run's, and the
capture must hold instruction samples of the same thread the program samples itself.
"""
from xltest import *

with Workdir() as w:
    app = os.path.join(w.path, "sigprof")
    eq(w.run(["--profile", "build", "-release", prog("s-selfprof.c"), "-o", app]).returncode, 0, "build s-selfprof")
    plain = subprocess.run([app, "200"], cwd=w.path, stdout=subprocess.PIPE, text=True, timeout=120)
    eq(plain.returncode, 0, "uncaptured run")
    check(plain.stdout.startswith("fds: count=3 sample=4\n"), "uncaptured: the lowest free descriptors: "
          + plain.stdout)
    for rate in ("1000", "10000"):
        p = w.run(["--no-open", "--sample-rate", rate, "profile", "exec", app, "200"])
        eq((p.returncode, p.stdout), (0, plain.stdout), "rate %s: output equals the uncaptured run's" % rate)
        s = w.summary()
        sm = s.doc["samples"]
        check(sm["status"] == "on" and sm["instruction"] > 0 and sm["threads"] == 1,
              "rate %s: the capture has instruction samples of the thread (%r)" % (rate, sm))
        eq(s.calls("report"), 1, "rate %s: capture complete" % rate)
        check(s.func("spin")["samples"] > 0, "rate %s: spin's lines are sampled (%d)" % (rate, s.func("spin")["samples"]))
done()
