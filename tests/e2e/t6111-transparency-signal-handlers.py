"""Traced calls made by signal handlers in the middle of traced code are all counted.

tests/progs/s-sigprof.c calls leaf() in a tight loop while SIGPROF (setitimer, every 200 us
of CPU time) and SIGUSR1 (from a helper thread, on a sigaltstack) interrupt it; the handlers
call traced functions.  Most signals land while the thread is inside a traced event (the
runtime's hot path): the handlers' events are then deferred and taken into the tree at the
thread's next event.  The capture's counts must equal the program's own: on_prof P,
prof_work 2P, on_usr1 U, usr1_work U, leaf L, with nothing lost and no warning.  (Before
deferral such events were dropped without a word: 49 of 300 on_prof calls were kept.)

With WORK = 40 prof_work calls per SIGPROF (82 events per handler run, more than the 64 the
runtime keeps for one event), handler runs that land inside an event cannot be kept: they
are dropped whole and counted (threads[].reentry_lost, warning reentry_lost), so the
capture's on_prof calls plus the lost runs equal the program's count exactly.
Both with exaloop's trampolines and compiler-rt's (EXALOOP_STOCK_TRAMPOLINES=1).
"""
import re
from xltest import *

RUN_EVENTS = 2 + 2 * 40  # on_prof's entry and exit, 40 prof_work calls

with Workdir() as w:
    for stock in (False, True):
        env = {"EXALOOP_STOCK_TRAMPOLINES": "1"} if stock else None
        tag = "stock trampolines" if stock else "exaloop trampolines"
        app = os.path.join(w.path, "sigprof-stock" if stock else "sigprof")
        eq(w.run(["--profile", "build", "-release", prog("s-sigprof.c"), "-o", app], env=env).returncode, 0,
           "build (%s)" % tag)

        p = w.run(["--no-open", "profile", "exec", app])
        eq(p.returncode, 0, tag + ": exit status")
        m = re.match(r"prof=(\d+) usr1=(\d+) nested=(\d+) loop=(\d+)$", p.stdout.strip())
        check(m is not None, tag + ": program output: %r" % p.stdout)
        if not m:
            continue
        prof, usr1, nested, loop = map(int, m.groups())
        s = w.summary(w.latest())
        eq({f: s.calls(f) for f in ("main", "leaf", "on_prof", "prof_work", "on_usr1", "usr1_work")},
           {"main": 1, "leaf": loop, "on_prof": prof, "prof_work": 2 * prof, "on_usr1": usr1, "usr1_work": usr1},
           tag + ": every handler call counted (%d nested)" % nested)
        eq((sum(t["reentry_lost"] for t in s.doc["threads"]), s.warning("reentry_lost")), (0, None),
           tag + ": nothing lost, no warning")

        p = w.run(["--no-open", "profile", "exec", app, "100", "40", "0"])
        eq(p.returncode, 0, tag + ": heavy handler: exit status")
        m = re.match(r"prof=(\d+) usr1=0 nested=0 loop=(\d+)$", p.stdout.strip())
        check(m is not None, tag + ": heavy handler: program output: %r" % p.stdout)
        if not m:
            continue
        prof, loop = map(int, m.groups())
        s = w.summary(w.latest())
        lost = sum(t["reentry_lost"] for t in s.doc["threads"])
        kept = s.calls("on_prof")
        eq(lost % RUN_EVENTS, 0, tag + ": heavy handler: whole runs lost (%d events)" % lost)
        eq((kept + lost // RUN_EVENTS, s.calls("prof_work"), s.calls("leaf")), (prof, 40 * kept, loop),
           tag + ": heavy handler: kept runs plus lost runs equal the program's count")
        check(lost > 0, tag + ": heavy handler: some runs landed inside an event (%d lost of %d)"
              % (lost // RUN_EVENTS, prof))
        wr = s.warning("reentry_lost")
        check(wr is not None and str(lost) in wr["message"], tag + ": heavy handler: the loss is a warning")
done()
