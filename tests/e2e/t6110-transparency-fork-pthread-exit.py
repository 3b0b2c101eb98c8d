"""A forked child whose only thread ends with pthread_exit() ends, as uncaptured.

tests/progs/s-forkexit.c: a thread forks; in the child that thread is the only one, calls
child_work() 7 times and returns from its thread function.  The process must then end with
status 0.  exaloop's control thread in the child (started at the child's first traced event,
or at once in memory-only runs) must leave once it is the last thread: if it stays, the child
never ends and the parent, which polls waitpid() for 20 s, says "child still running" and
exits 1.  In every mode: output and exit status equal the uncaptured run's, the child's capture
is finalized at its exit, and (function modes) holds its 7 calls.  The same for the main thread
of a captured process (s-forkexit forks from a second thread, so the child's main thread is a
copy of that one, not of the parent's main thread).
"""
from xltest import *

with Workdir() as w:
    for mode in ("all", "xray", "memory"):
        app = os.path.join(w.path, "forkexit-" + mode)
        eq(w.run(["--profile=" + mode, "build", "-release", prog("s-forkexit.c"), "-o", app]).returncode, 0,
           "build (%s)" % mode)
        plain = subprocess.run([app], stdout=subprocess.PIPE, text=True, timeout=60)
        eq((plain.returncode, plain.stdout), (0, "child: work=7\nparent: child ended status=0 parent_work=3\n"),
           mode + ": uncaptured")
        p = w.run(["--no-open", "profile", "exec", app], timeout=120)
        eq((p.returncode, p.stdout), (0, plain.stdout), mode + ": the child ended; output and status as uncaptured")
        top = w.latest()
        s = w.summary(top)
        kids = [r for r in s.doc["run"]["process"]["related"] if r["kind"] == "fork_child"]
        eq(len(kids), 1, mode + ": the child is captured")
        if not kids:
            continue
        c = w.summary(os.path.join(top, kids[0]["dir"]))
        eq((c.doc["run"]["finalized"], c.doc["run"]["end_reason"]), (True, "exit"),
           mode + ": the child's capture is finalized at its exit")
        if mode != "memory":
            eq((c.calls("child_work"), c.calls("parent_work")), (7, 0), mode + ": the child's own calls")
            sp = w.summary(top, ["--process", str(s.doc["run"]["process"]["pid"])])
            eq((sp.calls("parent_work"), sp.calls("child_work")), (3, 0), mode + ": the parent's own calls")
            eq((s.calls("parent_work"), s.calls("child_work")), (3, 7), mode + ": the report: both processes'")
done()
