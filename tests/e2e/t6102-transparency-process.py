"""Transparency: process life that bypasses the usual paths behaves as uncaptured.

tests/progs/s-proclife.c: main() ends with pthread_exit() (with two threads still working, and
alone): the process must end when its last thread does, exit 0, its atexit handler run once, and
the capture be finalized with every call; the runtime's control thread must not keep it alive.
A child made by syscall(SYS_fork) or by clone() without CLONE_VM skips the pthread_atfork
handlers: it must not write into the parent's capture, and its exit() (which runs the runtime's
destructor) must not block.  Output and exit status equal the uncaptured run's.
"""
import signal

from xltest import *


def run_bounded(w, args, limit=60):
    """exaloop args in a session of its own, killed with its program after `limit` seconds."""
    x = subprocess.Popen([EXALOOP] + args, cwd=w.path, env=dict(os.environ, CI="1"), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        out, err = x.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(x.pid, signal.SIGKILL)
        x.communicate()
        return None
    sys.stdout.write("$ exaloop %s\n-> %d\n%s" % (" ".join(args), x.returncode, err))
    return subprocess.CompletedProcess(args, x.returncode, out, err)

EXPECT = {
    "pthread-exit": {"work": 300, "one_main": 1, "two_main": 1, "at_end": 1},
    "pthread-exit-alone": {"work": 10, "at_end": 1},
    "sysfork": {"before": 3, "after": 4, "child_work": 0, "child_main": 0, "at_end": 1},
    "clone": {"before": 3, "after": 4, "child_work": 0, "child_main": 0, "at_end": 1},
}

with Workdir() as w:
    app = os.path.join(w.path, "proclife")
    eq(w.run(["--profile", "build", prog("s-proclife.c"), "-o", app]).returncode, 0, "build s-proclife")
    for sc, counts in EXPECT.items():
        plain = subprocess.run([app, sc], cwd=w.path, stdout=subprocess.PIPE, text=True, timeout=60)
        p = run_bounded(w, ["--no-open", "profile", "exec", app, sc])
        if p is None:
            check(False, "%s: the captured program ends (it hung for 60 s)" % sc)
            continue
        eq(p.stdout, plain.stdout, "%s: output equals the uncaptured run's" % sc)
        eq((p.returncode, plain.returncode), (0, 0), "%s: exit status 0 with and without capture" % sc)
        s = w.summary()
        check(s.doc["run"]["finalized"] and s.doc["run"]["end_reason"] == "exit", "%s: capture finalized at exit" % sc)
        eq({f: s.calls(f) for f in counts}, counts, "%s: the capture holds exactly the process's own calls" % sc)
done()
