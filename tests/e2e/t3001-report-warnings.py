"""Capture-quality warnings provoked on purpose, each with the span it affects, in every output."""
from xltest import *
import signal
import time

with Workdir() as w:
    # threads: summed thread time exceeds the wall time of the capture
    w.run(["--profile", "--no-open", "run", prog("s-threads.c"), "20000"])
    s = w.summary()
    wt = s.warning("threads_exceed_wall")
    check(wt is not None and "exceeds" in wt["message"], "threads: summed time vs wall time warning")
    text = w.run(["profile", "report", w.latest(), "--text"]).stdout
    check("exceeds the capture's wall time" in text, "the text report shows it")

    # no traced function ran: include pattern matching a function that is never called
    src = os.path.join(w.path, "idle.c")
    open(src, "w").write('__attribute__((noinline)) int never(int x) { return x + 1; }\n'
                         'int main(int c, char **v) { (void)v; return c > 5 ? never(c) : 0; }\n')
    open(os.path.join(w.path, "exaloop.toml"), "w").write(
        '[targets.idle]\nsource = "idle.c"\n[targets.idle.profile]\ninclude = ["never"]\n'
        '[targets.stop]\nsource = "%s"\nargs = ["1.5"]\n[targets.stop.profile]\nmemory_interval = "10ms"\n' % prog("s-long.c"))
    w.run(["--profile", "--no-open", "--target", "idle", "run"])
    check(w.summary().warning("no_functions") is not None, "no traced function ran: warning")

    # memory samples missed: the program is stopped (SIGSTOP) for half a second
    e = dict(os.environ, CI="1")
    p = subprocess.Popen([EXALOOP, "--profile", "--no-open", "--target", "stop", "run"], cwd=w.path, env=e,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    child = None
    for _ in range(200):
        time.sleep(0.02)
        kids = subprocess.run(["pgrep", "-P", str(p.pid), "-x", "s-long"], stdout=subprocess.PIPE, text=True).stdout.split()
        if kids:
            child = int(kids[0])
            break
    time.sleep(0.4)
    if child:
        os.kill(child, signal.SIGSTOP)
        time.sleep(0.5)
        os.kill(child, signal.SIGCONT)
    out, err = p.communicate(timeout=60)
    eq(p.returncode, 0, "stopped program: exit status")
    wm = w.summary().warning("memory_samples_missed")
    check(child is not None and wm is not None, "missed memory samples: warning")

    # more threads than the capture has slots for (1024): counted and said.  Each thread takes
    # about 81 KiB of the buffer with its first events, so 1024 of them fit in 96 MiB.
    many = os.path.join(w.path, "many.c")
    open(many, "w").write(r'''
#include <pthread.h>
#include <stdio.h>
__attribute__((noinline)) static void *touch(void *arg) { __asm__ volatile("" ::: "memory"); return arg; }
int main(void) {
    for (int i = 0; i < 1100; i++) {
        pthread_t t;
        if (pthread_create(&t, NULL, touch, NULL) != 0) return 1;
        pthread_join(t, NULL);
    }
    puts("threads=1100");
    return 0;
}
''')
    open(os.path.join(w.path, "exaloop.toml"), "a").write(
        '[targets.many]\nsource = "many.c"\nbuild_args = ["-pthread"]\n[targets.many.profile]\nbuffer_size = "96MiB"\n')
    p = w.run(["--profile", "--no-open", "--target", "many", "run"])
    eq(p.returncode, 0, "1100 threads: exit status")
    s = w.summary()
    wt = s.warning("threads_full")
    check(wt is not None and "were not recorded" in wt["message"], "more than 1024 threads: warning with the count")
    eq(len(s.doc["threads"]), 1024, "1024 threads recorded")

    # every warning has a kind, a message and a span (null = whole run) in JSON; Chrome carries them too
    for cap in w.captures():
        s = w.summary(cap)
        for x in s.doc["warnings"]:
            check(set(x) >= {"kind", "severity", "message", "from_ns", "to_ns"}, "%s: warning fields" % x["kind"])
        tr = json.loads(w.run(["profile", "export", cap, "--format", "chrome"]).stdout)
        eq(len(tr["otherData"]["warnings"]), len(s.doc["warnings"]), "chrome export carries the warnings")
done()
