"""Faults: exaloop itself is signalled while the program runs.

- ^C in a terminal (SIGINT to the whole process group): the program gets it and dies,
  exaloop ignores it, still writes the report of what was captured and exits 130.
- SIGTERM to exaloop alone (a job manager): passed on to the program, same outcome, 143.
- SIGKILL to exaloop alone: exaloop cannot react; the program keeps running and keeps
  capturing, and `exaloop profile report` reads the capture afterwards.
"""
import signal
import time

from xltest import *

SIZE = 1000


def start(w, app, batches=50):
    e = dict(os.environ, CI="1")
    return subprocess.Popen([EXALOOP, "--no-open", "profile", "exec", app, "--batches", str(batches),
                             "--batch-size", str(SIZE), "--sleep-ms", "300"],
                            cwd=w.path, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def counts(s):
    p = s.paths()
    return (p.get(("main", "run_batch")), p.get(("main", "run_batch", "step")), p.get(("main", "nap")))


with Workdir() as w:
    app = os.path.join(w.path, "killme")
    eq(w.run(["--profile", "build", prog("s-killme.c"), "-o", app]).returncode, 0, "build s-killme")

    # ^C: SIGINT to exaloop's process group, as a terminal sends it
    x = start(w, app)
    for _ in range(3):
        x.stdout.readline()
    time.sleep(0.1)
    os.killpg(x.pid, signal.SIGINT)
    out, err = x.communicate(timeout=120)
    sys.stdout.write(err)
    eq(x.returncode, 130, "^C: exaloop exits with the program's 128+SIGINT")
    check("killed by signal 2 (Interrupt)" in err, "^C: one-line note of the signal")
    check(os.path.exists(os.path.join(w.latest(), "index.html")), "^C: report written")
    eq(counts(w.summary()), (3, 3 * SIZE, 3), "^C: everything up to batch 3 kept")

    # SIGTERM to exaloop only: forwarded to the program
    x = start(w, app)
    for _ in range(2):
        x.stdout.readline()
    time.sleep(0.1)
    os.kill(x.pid, signal.SIGTERM)
    out, err = x.communicate(timeout=120)
    sys.stdout.write(err)
    eq(x.returncode, 143, "SIGTERM to exaloop: exits 143 (program got SIGTERM)")
    check("killed by signal 15 (Terminated)" in err, "SIGTERM: one-line note")
    check(os.path.exists(os.path.join(w.latest(), "index.html")), "SIGTERM: report written")
    eq(counts(w.summary()), (2, 2 * SIZE, 2), "SIGTERM: everything up to batch 2 kept")

    # SIGKILL to exaloop only: the program finishes on its own; its capture is complete.
    n = len(w.captures())
    x = start(w, app, batches=4)
    x.stdout.readline()
    with open("/proc/%d/task/%d/children" % (x.pid, x.pid)) as f:
        kid = int(f.read().split()[0])
    os.kill(x.pid, signal.SIGKILL)
    x.wait(timeout=60)
    eq(x.returncode, -signal.SIGKILL, "SIGKILL: exaloop gone")
    rest = x.stdout.read()
    deadline = time.time() + 60
    while os.path.exists("/proc/%d" % kid) and time.time() < deadline:
        try:
            with open("/proc/%d/stat" % kid) as f:
                if f.read().split(")")[-1].split()[0] == "Z":
                    break
        except OSError:
            break
        time.sleep(0.05)
    check("done: batches=4 step=4000" in rest, "SIGKILL: the program ran to its end")
    eq(len(w.captures()), n + 1, "SIGKILL: the capture directory exists")
    p = subprocess.run([EXALOOP, "profile", "report", w.latest(), "--json"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=120)
    eq(p.returncode, 0, "SIGKILL: profile report reads the capture afterwards")
    s = Summary(json.loads(p.stdout))
    eq(counts(s), (4, 4 * SIZE, 3), "SIGKILL: complete counts of the whole run")
    check(s.doc["run"]["finalized"], "SIGKILL: the program finalized its own capture")
done()
