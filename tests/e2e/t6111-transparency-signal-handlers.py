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
    # A handler that siglongjmps out (an interpreter's timeout, a test harness's watchdog) leaves the
    # event it interrupted without returning to it: the thread's later events cannot be recorded.
    # Never silently: either every count is the program's, or a warning says the counts are short.
    jmp = os.path.join(w.path, "jmpalrm.c")
    open(jmp, "w").write(r"""
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#define NI static __attribute__((noinline))
static sigjmp_buf jb;
NI long leaf(long x) { __asm__ volatile("" : "+r"(x)); return x + 1; }
NI long after(long x) { __asm__ volatile("" : "+r"(x)); return x + 1; }
NI long final_work(long x) { __asm__ volatile("" : "+r"(x)); return x + 2; }
NI void on_alrm(int s) { (void)s; siglongjmp(jb, 1); }
int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alrm;
	sigaction(SIGALRM, &sa, 0);
	struct itimerval it = {{0, 500}, {0, 500}};
	setitimer(ITIMER_REAL, &it, 0);
	volatile int r = 0;
	volatile long a = 0;
	if (sigsetjmp(jb, 1)) {
		a = after(a);
		r++;
	}
	if (r < 50) {
		long x = 0;
		for (;;) x = leaf(x);
	}
	struct itimerval off = {{0, 0}, {0, 0}};
	setitimer(ITIMER_REAL, &off, 0);
	long f = 0;
	for (int i = 0; i < 1000; i++) f = final_work(f);
	printf("rounds=%d after=%ld final=%ld\n", r, a, f);
	return 0;
}
""")
    p = w.run(["--no-open", "--profile", "run", jmp])
    eq((p.returncode, p.stdout), (0, "rounds=50 after=50 final=2000\n"), "siglongjmp out of a handler: the program runs as ever")
    s = w.summary()
    exact = (s.calls("after"), s.calls("final_work")) == (50, 1000)
    wr = s.warning("reentry_lost")
    check(exact or (wr is not None and "without returning to it" in wr["message"]),
          "siglongjmp out of a handler: counts exact (%r), or a warning says they are short (%r)"
          % ((s.calls("after"), s.calls("final_work")), wr and wr["message"][:80]))
done()
