"""^C reaches the program and exaloop still reports; service targets; inherited environment;
output names; attached -isystem; a delay longer than the run; exec failures."""
from xltest import *
import re
import signal
import time

with Workdir() as w:
    # ^C from a terminal: SIGINT to the whole foreground process group
    e = dict(os.environ, CI="1")
    p = subprocess.Popen([EXALOOP, "--profile", "--no-open", "run", prog("s-long.c"), "20"], cwd=w.path, env=e,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    child = None
    for _ in range(300):
        time.sleep(0.02)
        kids = subprocess.run(["pgrep", "-P", str(p.pid), "-x", "s-long"], stdout=subprocess.PIPE, text=True).stdout.split()
        if kids:
            child = int(kids[0])
            break
    time.sleep(0.5)
    t0 = time.time()
    os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=60)
    print(err)
    check(child is not None, "^C: program started")
    check(time.time() - t0 < 10, "^C stops the program promptly")
    eq(p.returncode, 130, "^C: exaloop exits with the program's status (128+SIGINT)")
    check("killed by signal 2" in err, "^C: signal reported")
    s = w.summary()
    eq(s.doc["run"]["signal"], 2, "^C: signal recorded")
    check(s.calls("tick") > 0, "^C: what was captured is kept")
    check(os.path.exists(os.path.join(w.latest(), "index.html")), "^C: report written")

    # a service target without a duration is just waited for
    open(os.path.join(w.path, "exaloop.toml"), "w").write(
        '[targets.svc]\nkind = "service"\nsource = "%s"\nargs = ["3"]\n'
        '[targets.late]\nsource = "%s"\nargs = ["0.3"]\n[targets.late.profile]\ndelay = "5s"\nmemory_interval = "1s"\n'
        '[targets.win]\nsource = "%s"\n[targets.win.profile]\ndelay = "300ms"\nduration = "300ms"\n'
        % (prog("s-exit.c"), prog("s-long.c"), prog("s-long.c")))
    p = w.run(["--profile", "--no-open", "--target", "svc", "run"])
    eq(p.returncode, 3, "service: exit status")
    check("keeps running" not in p.stderr and "report updated" not in p.stderr, "service without duration: one report at exit")
    eq(w.summary().doc["run"]["exit_status"], 3, "service: status in the report")

    # a delay longer than the run
    p = w.run(["--profile", "--no-open", "--target", "late", "run"])
    eq(p.returncode, 0, "late window: exit status")
    s = w.summary()
    wn = s.warning("window_never_opened")
    check(wn is not None and "never opened" in wn["message"], "late window: warning says it never opened")
    # when the program ended: its application time, not the last memory sample (at 0 s here)
    m = re.search(r"the program ended at ([0-9.]+) s", wn["message"] if wn else "")
    check(m and float(m.group(1)) >= 0.29, "late window: says when the program ended (%r)" % (wn or {}).get("message"))
    eq(s.doc["run"]["window"]["duration_ns"], 0, "late window: empty window")
    check("never opened" in s.doc["memory"]["summary"]["rss"]["reason"], "late window: memory reason")
    check(s.warning("no_functions") is None, "late window: no misleading no-functions warning")

    # profile exec takes a target's capture settings (its window here) for a program built before
    app = os.path.join(w.path, "long-built")
    eq(w.run(["--profile", "build", prog("s-long.c"), "-o", app]).returncode, 0, "build s-long")
    p = w.run(["--no-open", "--target", "win", "profile", "exec", app, "1.2"])
    eq(p.returncode, 0, "profile exec --target: exit status")
    win = w.summary().doc["run"]["window"]
    check(250e6 <= win["start_ns"] <= 450e6 and 250e6 <= win["duration_ns"] <= 350e6,
          "profile exec --target: the target's 300 ms delay and duration (%r)" % win)
    # a capture read while its program still runs says so (not "the program stopped")
    bg = subprocess.Popen([EXALOOP, "--no-open", "profile", "exec", app, "2.5"], cwd=w.path,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)
    live = w.summary(w.latest()).warning("not_finalized")
    check(live is not None and "is still running and writing it" in live["message"],
          "a capture read while the program runs: said so (%r)" % (live or {}).get("message"))
    eq(bg.wait(timeout=60), 0, "... and the program ends as ever")
    eq(w.summary(w.latest()).warning("not_finalized"), None, "... its capture then finalized")
    # a duration the program did not last: the window note says it was cut short
    eq(w.run(["--no-open", "--delay", "100ms", "--duration", "5s", "profile", "exec", app, "0.4"]).returncode, 0,
       "window longer than the run")
    n = w.summary().note("window")
    check(n is not None and "duration 5.000 s, cut short: the program ended first" in n["message"],
          "... the window note says it was cut short (%r)" % (n or {}).get("message"))
    # found but not runnable: 126, as a shell says, before any word about sidecars
    os.chmod(app, 0o644)
    p = w.run(["--no-open", "profile", "exec", app, "0.1"])
    eq((p.returncode, p.stderr.strip()), (126, "exaloop: error: cannot run '%s': Permission denied" % app),
       "profile exec of a file without x: 126 (root too: no x bit at all)")
    os.chmod(app, 0o755)
    p = w.run(["--no-open", "--target", "nosuch", "profile", "exec", app, "0.1"])
    check(p.returncode == 2 and "nosuch" in p.stderr and len(p.stderr.strip().splitlines()) == 1,
          "profile exec --target with an unknown target: one line, exit 2 (%r)" % p.stderr)

    # an inherited capture environment does not leak into a run
    p = w.run(["--profile", "--no-open", "run", prog("s-fib.c"), "10"], env={"EXALOOP_INCLUDE_IDS": "999"})
    eq(w.summary().calls("fib"), 177, "inherited EXALOOP_INCLUDE_IDS is ignored")

    # output names: last suffix only, never an unrelated file
    src = os.path.join(w.path, "app.test.c")
    shutil.copy(prog("s-fib.c"), src)
    open(os.path.join(w.path, "app"), "w").write("#!/bin/sh\necho keep me\n")
    p = w.run(["build", src])
    eq(p.returncode, 0, "build app.test.c")
    check(os.path.exists(os.path.join(w.path, "app.test")), "output is app.test")
    eq(open(os.path.join(w.path, "app")).read(), "#!/bin/sh\necho keep me\n", "unrelated 'app' untouched")

    # attached values for -isystem / -include
    p = w.run(["--no-open", "run", "-isystem/usr/include", "-includestdio.h", prog("s-fib.c"), "5"])
    eq(p.returncode, 0, "-isystemDIR and -includeFILE accepted")

    # an executable that cannot be run leaves no empty capture behind
    app = os.path.join(w.path, "fib")
    w.run(["--profile", "build", prog("s-fib.c"), "-o", app])
    os.chmod(app, 0o644)
    n = len(w.captures())
    p = w.run(["--no-open", "profile", "exec", app])
    eq(p.returncode, 126, "not executable: 126")
    check("Permission denied" in p.stderr and "application ran" not in p.stderr, "one clear line")
    eq(len(w.captures()), n, "no empty capture directory left")
done()
