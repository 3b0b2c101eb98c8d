"""Capture engine behaviour: inert without the environment, fork, clock fallback, deep recursion,
format version refusal."""
from xltest import *
import struct

with Workdir() as w:
    # Inert unless asked: a profiling build run plainly starts no thread and writes nothing.
    src = os.path.join(w.path, "inert.c")
    open(src, "w").write(r'''
#include <dirent.h>
#include <stdio.h>
__attribute__((noinline)) static int f(int x) { __asm__ volatile("" : "+r"(x)); return x + 1; }
int main(void) {
    int n = 0, s = 0;
    for (int i = 0; i < 1000; i++) s += f(i);
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    while ((e = readdir(d))) n += e->d_name[0] != '.';
    closedir(d);
    printf("threads=%d sum=%d\n", n, s);
    return 0;
}
''')
    app = os.path.join(w.path, "inert")
    eq(w.run(["--profile", "build", src, "-o", app]).returncode, 0, "build inert probe")
    before = set(os.listdir(w.path))
    p = subprocess.run([app], cwd=w.path, stdout=subprocess.PIPE, text=True)
    eq(p.stdout, "threads=1 sum=500500\n", "without capture: one thread, normal output")
    eq(set(os.listdir(w.path)), before, "without capture: nothing written")
    p = w.run(["--no-open", "profile", "exec", app])
    eq(p.stdout, "threads=2 sum=500500\n", "with capture: the control thread exists")
    # another pid with the environment set (an inherited environment) stays inert
    env = dict(os.environ, EXALOOP_CAPTURE_DIR=os.path.join(w.path, "elsewhere"), EXALOOP_CAPTURE_PID="1")
    p = subprocess.run([app], cwd=w.path, stdout=subprocess.PIPE, text=True, env=env)
    eq(p.stdout, "threads=1 sum=500500\n", "environment for another pid: inert")
    check(not os.path.exists(os.path.join(w.path, "elsewhere")), "environment for another pid: nothing written")

    # fork without exec: the parent's capture is intact, the child's events are not in it
    p = w.run(["--profile", "--no-open", "run", prog("s-fork.c")])
    eq(p.returncode, 0, "fork: exit status")
    check("child: child_work=5" in p.stdout, "fork: child ran")
    s = w.summary(args=["--process", str(w.summary().doc["run"]["process"]["pid"])])
    paths = s.paths()
    eq((paths.get(("main", "before")), paths.get(("main", "after"))), (3, 4), "fork: parent's counts")
    eq(s.calls("child_work"), 0, "fork: child's calls not in the parent's process")
    check(s.doc["run"]["finalized"], "fork: parent's capture finalized")
    eq(len(s.doc["threads"]), 1, "fork: one thread")
    p = w.run(["--profile", "--no-open", "run", prog("s-fork.c"), "--child-exit"])
    s = w.summary()
    eq((s.paths().get(("main", "before")), s.paths().get(("main", "after"))), (3, 4),
       "fork with exit() in the child: parent's counts intact")
    check(s.doc["run"]["finalized"] and s.doc["run"]["end_reason"] == "exit", "fork --child-exit: child did not finalize the parent's capture")

    # clock fallback: same counts, and the report says which clock
    p = w.run(["--profile", "--no-open", "run", prog("s-fib.c"), "15"], env={"EXALOOP_CLOCK": "monotonic"})
    s = w.summary()
    eq(s.doc["run"]["clock"], "monotonic", "clock fallback recorded")
    check(s.warning("clock_fallback") is not None, "clock fallback warning")
    eq(s.calls("fib"), 1973, "clock fallback: counts unchanged")
    w.run(["--profile", "--no-open", "run", prog("s-fib.c"), "15"])
    eq(w.summary().doc["run"]["clock"], "tsc", "TSC used by default")

    # deeper than the shadow stack: counted, and said
    p = w.run(["--profile", "--no-open", "run", prog("s-deep.c"), "5000"])
    eq(p.returncode, 0, "deep recursion runs")
    s = w.summary()
    check(s.warning("deep_recursion") is not None, "deep recursion warning")
    check(s.calls("descend") >= 2000, "deep recursion: kept frames counted")

    # a capture from a newer exaloop is refused with exit 3 and one line
    cap = w.latest()
    with open(os.path.join(cap, "capture.xlc"), "r+b") as f:
        f.seek(8)
        f.write(struct.pack("<I", 99))
    p = w.run(["profile", "report", cap, "--text"])
    eq(p.returncode, 3, "newer format version: exit 3")
    check("format version 99" in p.stderr and "upgrade exaloop" in p.stderr and p.stderr.count("\n") == 1,
          "newer version: one line saying what to do")
    with open(os.path.join(cap, "capture.xlc"), "r+b") as f:
        f.write(b"NOTACAPT")
    p = w.run(["profile", "report", cap, "--json"])
    check(p.returncode == 3 and "not an exaloop capture" in p.stderr, "bad magic: exit 3")
done()
