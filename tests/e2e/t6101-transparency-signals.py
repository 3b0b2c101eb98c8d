"""Transparency: a program that relies on its own signal mask behaves the same under capture.

tests/progs/s-signals.c blocks signals and takes them with sigwait, sigwaitinfo and a signalfd,
supervises children through a blocked SIGCHLD, keeps a handler out of a blocked section, and
runs an ITIMER_PROF handler that must only ever run on its (only) thread.  The runtime's control
thread must block every signal for its whole life, or the kernel hands such signals to it: the
program dies of the signal's default action, hangs, or runs a handler where it blocked it.
The whole program (20 rounds of each scenario) runs 20 times under capture in each of
--profile=all and --profile=memory, since which thread takes a signal is a race; output and
exit status must equal the uncaptured run's every time, and the capture must be complete.
"""
from xltest import *

REPS = 20
with Workdir() as w:
    for mode in ("all", "memory"):
        app = os.path.join(w.path, "sig-" + mode)
        eq(w.run(["--profile=" + mode, "build", prog("s-signals.c"), "-o", app]).returncode, 0, "build " + mode)
        plain = subprocess.run([app, "all", "20"], cwd=w.path, stdout=subprocess.PIPE, text=True, timeout=300)
        eq(plain.returncode, 0, "%s: uncaptured run exits 0" % mode)
        check("other_thread=0" in plain.stdout and "FAILED" not in plain.stdout, "%s: uncaptured run is clean" % mode)
        same = 0
        complete = 0
        for i in range(REPS):
            p = w.run(["--no-open", "profile", "exec", app, "all", "20"], timeout=300)
            if p.returncode == plain.returncode and p.stdout == plain.stdout:
                same += 1
            else:
                print("run %d differs: exit %d, stdout:\n%s" % (i, p.returncode, p.stdout))
            s = w.summary()
            ok = s.doc["run"]["finalized"] and s.doc["run"]["end_reason"] == "exit"
            if mode == "all":
                ok = ok and s.calls("work") == 6 * 20 and s.paths().get(("main", "run_sigprof", "spin")) == 40
            complete += ok
        eq(same, REPS, "%s: output and exit status equal the uncaptured run in every repetition" % mode)
        eq(complete, REPS, "%s: every capture finalized at exit%s" % (mode, " with every call" if mode == "all" else ""))
done()
