"""Capture-quality warnings provoked on purpose, each with the span it affects, in every output."""
from xltest import *
import gzip
import signal
import time

with Workdir() as w:
    # threads: summed thread time exceeds the wall time of the capture.  Each worker
    # must live long against the run's start and end (about 15 ms each): with 1.5 ms
    # workers the sum beat the wall by 5 ms here and lost on a slower CI start.
    w.run(["--profile", "--no-open", "run", prog("s-threads.c"), "200000"])
    s = w.summary()
    check(s.warning("threads_exceed_wall") is None, "threads: overlapping lives are not a capture-quality warning")
    wt = s.note("threads_exceed_wall")
    check(wt is not None and "exceeds" in wt["message"] and wt["topic"] == "threads",
          "threads: summed time vs wall time note")
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
    # about 88 KiB of the buffer with its first events (less once the timeline's share is spent), so
    # 1024 of them fit in 96 MiB.
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
    # main + 1100 threads: the 77 not recorded made 2 events each (touch's entry and exit), counted
    # at their exit
    eq((s.doc["totals"]["threads_not_recorded"], s.doc["totals"]["unrecorded_events"]), (77, 154),
       "threads beyond the table: counted with their events")
    check(wt is not None and "at least 154 events" in wt["message"], "threads_full says how many events were not recorded")

    # threads that find no room left in a small buffer: counted, with their events
    crowd = os.path.join(w.path, "crowd.c")
    open(crowd, "w").write(r'''
#include <pthread.h>
#include <stdio.h>
__attribute__((noinline)) static int work(int x) { __asm__ volatile("" ::: "memory"); return x + 1; }
__attribute__((noinline)) static void *worker(void *arg) {
    int x = 0;
    for (int i = 0; i < 10; i++) x = work(x);
    return arg;
}
int main(void) {
    for (int i = 0; i < 40; i++) {
        pthread_t t;
        if (pthread_create(&t, NULL, worker, NULL) != 0) return 1;
        pthread_join(t, NULL);
    }
    puts("threads=40");
    return 0;
}
''')
    open(os.path.join(w.path, "exaloop.toml"), "a").write(
        '[targets.crowd]\nsource = "crowd.c"\nbuild_args = ["-pthread"]\n[targets.crowd.profile]\nbuffer_size = "1MiB"\n')
    p = w.run(["--profile", "--no-open", "--target", "crowd", "run"])
    eq((p.returncode, p.stdout), (0, "threads=40\n"), "crowded buffer: the program runs normally")
    s = w.summary()
    recorded = len(s.doc["threads"])
    missing = s.doc["totals"]["threads_not_recorded"]
    check(0 < missing < 41, "crowded buffer: some threads not recorded (%d of 41)" % missing)
    eq(recorded + missing, 41, "crowded buffer: recorded + not recorded = main + 40 workers")
    eq(s.doc["totals"]["unrecorded_events"], 22 * missing, "crowded buffer: 22 events (worker + 10 work calls) per missing thread")
    eq(s.calls("work"), 10 * (recorded - 1), "crowded buffer: recorded threads complete")
    wn = s.warning("nodes_full")
    check(wn is not None and ("%d threads that started after that were not recorded (they made at least %d events)"
                              % (missing, 22 * missing)) in wn["message"], "crowded buffer: nodes_full says threads and events")

    # XRay cannot patch: a seccomp filter (installed for all threads before the window opens at
    # 100 ms) refuses mprotect with PROT_EXEC, which patching the code needs.  The program runs
    # normally, memory is still captured, and the warning says why there are no function events.
    nopatch = os.path.join(w.path, "nopatch.c")
    open(nopatch, "w").write(r'''
#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
__attribute__((noinline)) static int work(int x) { __asm__ volatile("" ::: "memory"); return x + 1; }
int main(void) {
    struct sock_filter f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mprotect, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[2])),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {sizeof(f) / sizeof(f[0]), f};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
        syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog)) {
        perror("seccomp");
        return 2;
    }
    struct timespec ts = {0, 300000000};
    nanosleep(&ts, NULL);
    int x = 0;
    for (int i = 0; i < 1000; i++) x = work(x);
    printf("work=%d\n", x);
    return 0;
}
''')
    open(os.path.join(w.path, "exaloop.toml"), "a").write(
        '[targets.nopatch]\nsource = "nopatch.c"\n[targets.nopatch.profile]\ndelay = "100ms"\n'
        'memory_interval = "20ms"\n')
    p = w.run(["--profile", "--no-open", "--target", "nopatch", "run"])
    eq((p.returncode, p.stdout), (0, "work=1000\n"), "patching refused: the program runs normally")
    s = w.summary()
    wp = s.warning("patch_failed")
    check(wp is not None and "could not patch" in wp["message"], "patching refused: patch_failed warning")
    check("could not patch" in p.stderr, "patching refused: said on the run's stderr")
    check(s.warning("no_functions") is None, "patching refused: no second, misleading no_functions warning")
    eq([f["name"] for f in s.funcs if f["calls"]], [], "patching refused: no function events")
    check(any(v for v in s.doc["memory"]["samples"]["rss"]), "patching refused: memory is still captured")

    # every warning has a kind, a message and a span (null = whole run) in JSON; Chrome carries them too
    for cap in w.captures():
        s = w.summary(cap)
        for x in s.doc["warnings"]:
            check(set(x) >= {"kind", "severity", "message", "from_ns", "to_ns"}, "%s: warning fields" % x["kind"])
        tr = json.loads(w.run(["profile", "export", cap, "--format", "chrome"]).stdout)
        eq(len(tr["otherData"]["warnings"]), len(s.doc["warnings"]), "chrome export carries the warnings")
        if s.doc["warnings"] and s.doc["run"]["mode"] != "memory":   # pprof: its comments
            pb = os.path.join(w.path, "w.pb.gz")
            eq(w.run(["profile", "export", cap, "--format", "pprof", "-o", pb]).returncode, 0, "pprof export")
            raw = gzip.decompress(open(pb, "rb").read())
            check(all(("warning (%s): " % x["kind"]).encode() in raw for x in s.doc["warnings"]),
                  "pprof export carries the warnings: %r" % [x["kind"] for x in s.doc["warnings"]])
done()
