"""Transparency: a program that re-executes itself (same pid, same environment).

tests/progs/s-reexec.c execs itself twice; each image calls work() once more than the one
before.  Each exaloop-built image starts its own capture (exec-1/, exec-2/ in the capture
directory) and finalizes the previous image's as ended by "exec" (that image ran no destructor);
nothing is printed into the program's stderr; the report of each capture says which image of
which process it is and where the next one is.  The top capture's report merges the three images
(one process, three threads).
"""
from xltest import *

with Workdir() as w:
    app = os.path.join(w.path, "reexec")
    eq(w.run(["--profile", "build", prog("s-reexec.c"), "-o", app]).returncode, 0, "build s-reexec")
    plain = subprocess.run([app, "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    eq((plain.returncode, plain.stdout, plain.stderr), (0, "image 0: work=1\nimage 1: work=2\nimage 2: work=3\n", ""),
       "uncaptured run")
    p = w.run(["--no-open", "profile", "exec", app, "2"])
    eq((p.returncode, p.stdout), (0, plain.stdout), "output and exit status as uncaptured")
    eq([l for l in p.stderr.splitlines() if "capture disabled" in l or "File exists" in l], [],
       "no runtime message in the program's stderr")
    check("not finalized" not in p.stderr and "crash" not in p.stderr, "no crash reported")
    top = w.latest()
    s = w.summary(top)
    eq((s.doc["run"]["finalized"], s.doc["run"]["end_reason"]), (True, "exec"), "first image: finalized as exec")
    eq({f: s.calls(f) for f in ("main", "work", "reexec")}, {"main": 3, "work": 6, "reexec": 2},
       "the report merges the three images (work 1 + 2 + 3)")
    eq([(p["pid"], p["images"], p["status"], p["totals"]["threads"]) for p in s.doc["processes"]],
       [(s.doc["run"]["process"]["pid"], 3, "exit", 3)], "one process, three images, one thread each")
    wx = s.note("exec")
    check(wx is not None and wx["message"].endswith("/exec-1") and s.warning("exec") is None,
          "first image: a note says the next image is in the report, and where its capture is")
    proc = s.doc["run"]["process"]
    eq([(r["dir"], r["pid"], r["image"], r["end_reason"]) for r in proc["related"]],
       [("exec-1", proc["pid"], 1, "exec"), ("exec-2", proc["pid"], 2, "exit")], "the images are listed with their pid")
    for n, reason, work in ((1, "exec", 2), (2, "exit", 3)):
        s = w.summary(os.path.join(top, "exec-%d" % n))
        eq((s.doc["run"]["finalized"], s.doc["run"]["end_reason"]), (True, reason), "image %d: finalized (%s)" % (n, reason))
        eq((s.calls("main"), s.calls("work")), (1, work), "image %d: its own calls" % n)
        eq(s.doc["run"]["process"]["image"], n, "image %d: says which image it is" % n)
        check(s.warning("exec_image") is not None, "image %d: says it was started by exec" % n)
        check(s.warning("symbols_missing") is None and s.warning("symbols_mismatch") is None,
              "image %d: names from the run's symbols.json" % n)
        size = os.path.getsize(os.path.join(top, "exec-%d" % n, "capture.xlc"))
        check(size < 4 << 20, "image %d: capture trimmed (%d bytes)" % (n, size))
done()
