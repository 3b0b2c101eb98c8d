"""The program's exit status, _exit and signal deaths come through; crashes keep their data."""
from xltest import *

with Workdir() as w:
    p = w.run(["--profile", "--no-open", "run", prog("s-exit.c"), "3"])
    eq(p.returncode, 3, "exit(3) -> exaloop exits 3")
    check("work done: calls=5" in p.stdout, "stdout kept")
    s = w.summary()
    eq(s.calls("work"), 5, "work calls")
    check(s.doc["run"]["finalized"], "exit() still finalizes")

    p = w.run(["--profile", "--no-open", "run", prog("s-exit.c"), "--raw", "4"])
    eq(p.returncode, 4, "_exit(4) -> exaloop exits 4")
    s = w.summary()
    eq(s.calls("work"), 5, "_exit: work calls kept")
    check(not s.doc["run"]["finalized"], "_exit: capture not finalized")
    check(s.warning("not_finalized") is not None, "_exit: not-finalized warning")

    p = w.run(["--profile", "--no-open", "run", prog("s-segv.c"), "100"])
    eq(p.returncode, 128 + 11, "SIGSEGV -> 139")
    check("progress: work=100" in p.stdout, "segv: output before the crash kept")
    s = w.summary()
    eq(s.calls("work"), 100, "segv: work calls up to the crash")
    eq(s.doc["run"]["signal"], 11, "segv: signal recorded")
    w_ = s.warning("not_finalized")
    check(w_ is not None and "open frame" in w_["message"], "segv: warning says open frames were closed")
    check(os.path.exists(os.path.join(w.latest(), "index.html")), "segv: report written")

    p = w.run(["--profile", "--no-open", "run", prog("s-abort.c"), "100"])
    eq(p.returncode, 128 + 6, "SIGABRT -> 134")
    eq(w.summary().calls("work"), 100, "abort: work calls")

    p = w.run(["--no-open", "run", prog("s-exit.c"), "9"])
    eq(p.returncode, 9, "without --profile: exit status kept")
    check("work done" in p.stdout, "without --profile: output kept")
    n = len(w.captures())
    w.run(["run", prog("s-fib.c"), "5"])
    eq(len(w.captures()), n, "without --profile: no capture")
done()
