"""Faults: the profiled program segfaults, aborts, or deadlocks and is killed after a timeout.

Each time exaloop says what happened in one line, exits with the program's status
(128+N for signal N, docs/cli.md), and keeps every call captured before the end.
"""
import re
import signal
import time

from xltest import *


def one_line(stderr, pattern, what):
    hits = [l for l in stderr.splitlines() if re.search(pattern, l)]
    eq(len(hits), 1, what + ": reported in one line")


with Workdir() as w:
    # SIGSEGV in crash() after 100 work() calls
    p = w.run(["--profile", "--no-open", "run", prog("s-segv.c"), "100"])
    eq(p.returncode, 128 + signal.SIGSEGV, "segv: exit status 139")
    one_line(p.stderr, r"killed by signal 11 \(Segmentation fault\)", "segv")
    s = w.summary()
    eq(s.paths().get(("main", "work")), 100, "segv: main > work")
    eq(s.paths().get(("main", "crash")), 1, "segv: main > crash (entered, never left)")
    check(not s.doc["run"]["finalized"], "segv: capture marked not finalized")
    eq(s.doc["run"]["signal"], 11, "segv: signal in run metadata")
    check(os.path.exists(os.path.join(w.latest(), "index.html")), "segv: report written")

    # SIGABRT in give_up()
    p = w.run(["--profile", "--no-open", "run", prog("s-abort.c"), "250"])
    eq(p.returncode, 128 + signal.SIGABRT, "abort: exit status 134")
    one_line(p.stderr, r"killed by signal 6 \(Aborted\)", "abort")
    check("s-abort: giving up" in p.stderr, "abort: the program's own stderr kept")
    s = w.summary()
    eq(s.paths().get(("main", "work")), 250, "abort: main > work")
    eq(s.paths().get(("main", "give_up")), 1, "abort: main > give_up")

    # A deadlock: the test plays the CI timeout and SIGKILLs the hung program.
    e = dict(os.environ, CI="1")
    x = subprocess.Popen([EXALOOP, "--profile", "--no-open", "run", "-pthread", prog("s-deadlock.c"), "300"],
                         cwd=w.path, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = [x.stdout.readline(), x.stdout.readline()]
    eq(lines, ["progress: work=300\n", "deadlocked\n"], "deadlock: the program hangs where expected")
    # hung for 1.5 s: the runtime re-reads running threads' names every 0.5 s
    time.sleep(1.5)
    kids = children(x.pid)
    eq(len(kids), 1, "deadlock: one program process")
    for k in kids:
        os.kill(k, signal.SIGKILL)
    out, err = x.communicate(timeout=120)
    sys.stdout.write(err)
    eq(x.returncode, 128 + signal.SIGKILL, "deadlock: exit status 137 after SIGKILL")
    one_line(err, r"killed by signal 9 \(Killed\)", "deadlock")
    s = w.summary()
    eq(s.paths().get(("main", "work")), 300, "deadlock: main > work")
    # Threads are found by their root function; the names they gave themselves after their
    # first call are there although the program was killed.
    roots = {}
    for i, parent in enumerate(s.tree["parent"]):
        if parent >= 0 and s.tree["parent"][parent] < 0:
            roots[s.funcs[s.tree["func"][i]]["name"]] = s.tree["thread"][i]
    for side in ("left", "right"):
        t = roots.get(side + "_main")
        check(t is not None, "deadlock: thread %s recorded" % side)
        if t is not None:
            eq(s.paths(t).get(("%s_main" % side, "hold")), 1, "deadlock: %s_main > hold" % side)
            eq(s.doc["threads"][t]["name"], side, "deadlock: the name thread %s gave itself" % side)
    nf = s.warning("not_finalized")
    check(nf is not None and "5 open frames" in nf["message"],
          "deadlock: the 5 frames still open (main, left_main > hold, right_main > hold) closed at the end")
done()
