"""Faults: the profiled program is stopped by SIGINT, SIGTERM or SIGKILL in the middle of its work.

tests/progs/s-killme.c prints "batch b done" after each batch and then naps, so the signal
lands at a known point: the capture must hold exactly b run_batch, b*S step and b nap calls
(the last nap entered, never left), exaloop must say so in one line and exit 128+N.
"""
import re
import signal
import time

from xltest import *


SIZE = 2000
with Workdir() as w:
    e = dict(os.environ, CI="1")
    # build once, capture three times through profile exec
    app = os.path.join(w.path, "killme")
    eq(w.run(["--profile", "build", prog("s-killme.c"), "-o", app]).returncode, 0, "build s-killme")
    for sig, b in ((signal.SIGINT, 2), (signal.SIGTERM, 3), (signal.SIGKILL, 4)):
        name = signal.Signals(sig).name
        x = subprocess.Popen([EXALOOP, "--no-open", "profile", "exec", app, "--batches", "50",
                              "--batch-size", str(SIZE), "--sleep-ms", "400"],
                             cwd=w.path, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        seen = ""
        for _ in range(b):
            seen = x.stdout.readline()
        eq(seen, "batch %d done: step=%d run_batch=%d\n" % (b, b * SIZE, b), "%s: batch %d printed" % (name, b))
        time.sleep(0.1)   # inside the nap that follows
        for k in children(x.pid):
            os.kill(k, sig)
        out, err = x.communicate(timeout=120)
        sys.stdout.write(err)
        eq(x.returncode, 128 + sig, "%s: exaloop exits 128+%d" % (name, sig))
        hits = [l for l in err.splitlines() if re.search(r"killed by signal %d \(" % sig, l)]
        eq(len(hits), 1, "%s: reported in one line" % name)
        s = w.summary()
        paths = s.paths()
        eq(paths.get(("main",)), 1, "%s: main" % name)
        eq(paths.get(("main", "run_batch")), b, "%s: run_batch = b" % name)
        eq(paths.get(("main", "run_batch", "step")), b * SIZE, "%s: step = b*S" % name)
        eq(paths.get(("main", "nap")), b, "%s: nap = b (last one never left)" % name)
        eq(s.doc["run"]["signal"], sig, "%s: signal in run metadata" % name)
        check(not s.doc["run"]["finalized"], "%s: not finalized" % name)
done()
