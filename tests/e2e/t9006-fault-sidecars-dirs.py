"""Faults: the capture directory cannot be written; the sidecars are missing, malformed, stale
or from another binary.

- `profiles` cannot hold a capture (a file is in the way; a read-only file system, when root can
  mount one): one error line, exit 1, the program is not started (nothing is lost: it has not run).
- The runtime cannot create its file (the directory vanished): it says so in one line and the
  program runs uncaptured with its own status.
- `profile exec` refuses, in one line and with exit 2, an executable whose sidecars are missing,
  malformed, not regular files (a FIFO: no hang), stale (an older build of it) or from another
  binary, without running it.
- A capture directory whose symbols.json or run.json is missing or corrupt still reports
  (functions by XRay id, run facts unknown).
"""
import shutil

from xltest import *


def errors(stderr):
    return [l for l in stderr.splitlines() if l.startswith("exaloop: error:")]


def refused(p, what, code, pattern):
    eq(p.returncode, code, "%s: exit %d" % (what, code))
    e = errors(p.stderr)
    eq(len(e), 1, "%s: one error line" % what)
    check(e and pattern in e[0], "%s: the line says '%s'" % (what, pattern))
    eq(p.stdout, "", "%s: the program did not run" % what)


with Workdir() as w:
    # profiles/ is a file
    open(os.path.join(w.path, "profiles"), "w").close()
    p = w.run(["--profile", "--no-open", "run", prog("s-fib.c"), "5"])
    refused(p, "profiles is a file", 1, "cannot create")
    os.unlink(os.path.join(w.path, "profiles"))

    # a read-only file system (root only)
    ro = os.path.join(w.path, "ro")
    os.makedirs(ro)
    m = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", ro], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if m.returncode != 0:
        print("SKIP read-only file system: cannot mount a tmpfs (%s)" % m.stdout.strip())
    else:
        try:
            p = subprocess.run([EXALOOP, "--profile", "--no-open", "run", prog("s-fib.c"), "5"], cwd=ro,
                               env=dict(os.environ, CI="1"), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, timeout=300)
            sys.stdout.write(p.stderr)
            refused(p, "read-only file system", 1, "Read-only file system")
        finally:
            subprocess.run(["umount", "-l", ro])

    # profile exec: sidecars
    app = os.path.join(w.path, "app")
    other = os.path.join(w.path, "other")
    eq(w.run(["--profile", "build", prog("s-fib.c"), "-o", app]).returncode, 0, "build app")
    eq(w.run(["--profile", "build", prog("s-two-parents.c"), "-o", other]).returncode, 0, "build other")
    keep = os.path.join(w.path, "keep")
    os.makedirs(keep)
    for suffix in (".profile.json", ".symbols.json"):
        shutil.copy(app + suffix, keep)

    def restore():
        for suffix in (".profile.json", ".symbols.json"):
            shutil.copy(os.path.join(keep, "app" + suffix), app + suffix)

    n = len(w.captures())
    os.unlink(app + ".symbols.json")
    refused(w.run(["--no-open", "profile", "exec", app, "5"]), "symbols.json missing", 2, "app.symbols.json")
    restore()
    os.unlink(app + ".profile.json")
    refused(w.run(["--no-open", "profile", "exec", app, "5"]), "profile.json missing", 2, "is missing")
    restore()
    with open(app + ".profile.json", "r+") as f:
        f.truncate(40)
    refused(w.run(["--no-open", "profile", "exec", app, "5"]), "profile.json truncated", 2, "not a valid build sidecar")
    # a FIFO there (nobody writes it) must not hang exaloop
    os.unlink(app + ".profile.json")
    os.mkfifo(app + ".profile.json")
    refused(w.run(["--no-open", "profile", "exec", app, "5"], timeout=60), "profile.json a FIFO", 2,
            "not a regular file")
    os.unlink(app + ".profile.json")
    restore()
    with open(app + ".symbols.json", "r+") as f:
        f.truncate(60)
    refused(w.run(["--no-open", "profile", "exec", app, "5"]), "symbols.json truncated", 2, "invalid JSON")
    restore()
    shutil.copy(other + ".symbols.json", app + ".symbols.json")
    refused(w.run(["--no-open", "profile", "exec", app, "5"]), "symbols.json of another binary", 2, "does not belong")
    restore()
    shutil.copy(other + ".profile.json", app + ".profile.json")
    refused(w.run(["--no-open", "profile", "exec", app, "5"]), "profile.json of another binary", 2, "does not belong")
    restore()
    # stale: the program rebuilt from a changed source, the old sidecars put back
    src = os.path.join(w.path, "fib2.c")
    with open(prog("s-fib.c")) as f:
        open(src, "w").write(f.read() + "\n/* changed */\nint xl_changed_build = 1;\n")
    eq(w.run(["--profile", "build", src, "-o", app]).returncode, 0, "rebuild app from a changed source")
    restore()
    refused(w.run(["--no-open", "profile", "exec", app, "5"]), "stale sidecars", 2, "does not belong")
    eq(len(w.captures()), n, "refusals leave no capture directory")
    # and with the right sidecars it works
    eq(w.run(["--profile", "build", prog("s-fib.c"), "-o", app]).returncode, 0, "rebuild app")
    p = w.run(["--no-open", "profile", "exec", app, "5"])
    eq((p.returncode, p.stdout), (0, "fib(5) = 5\n"), "matching sidecars: the program runs")
    cap = w.latest()

    # a symbols.json of another build copied into the capture by hand: detected by the build id
    # the runtime wrote into the capture, names dropped rather than wrong
    good = w.summary(cap)
    eq(good.warning("symbols_mismatch"), None, "own symbols.json: no mismatch warning")
    eq(sorted(f["name"] for f in good.funcs if f["calls"]), ["fib", "main"], "own symbols.json: names")
    shutil.copy(os.path.join(cap, "symbols.json"), os.path.join(w.path, "own.symbols.json"))
    shutil.copy(other + ".symbols.json", os.path.join(cap, "symbols.json"))
    s = w.summary(cap)
    wm = s.warning("symbols_mismatch")
    check(wm is not None and "belongs to another build" in wm["message"], "foreign symbols.json: symbols_mismatch warning")
    check(all(f["name"].startswith("#") for f in s.funcs), "foreign symbols.json: functions named by XRay id")
    eq(sorted(f["calls"] for f in s.funcs), [1, 15], "foreign symbols.json: counts unchanged")

    # a capture directory with missing or corrupt sidecars still reports
    os.unlink(os.path.join(cap, "symbols.json"))
    with open(os.path.join(cap, "run.json"), "w") as f:
        f.write('{"schema": "exaloop.run/1", "exit_st')
    s = w.summary(cap)
    names = sorted(f["name"] for f in s.funcs)
    check(all(x.startswith("#") for x in names), "no symbols.json: functions named by XRay id (%s)" % names)
    eq(sorted(f["calls"] for f in s.funcs), [1, 15], "no symbols.json: counts unchanged")
    wm = s.warning("symbols_missing")
    check(wm is not None and "no symbols.json" in wm["message"], "no symbols.json: symbols_missing warning")
    eq(s.doc["run"]["exit_status"], None, "corrupt run.json: exit status unknown")
    os.unlink(os.path.join(cap, "run.json"))
    r = subprocess.run([EXALOOP, "profile", "report", cap, "--text"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=300)
    check(r.returncode == 0 and "exit status unknown" in r.stdout, "no run.json: text report, exit status unknown")

    # the runtime cannot create its capture file
    env = dict(os.environ, EXALOOP_CAPTURE_DIR=os.path.join(w.path, "gone"), EXALOOP_CAPTURE_MODE="all")
    p = subprocess.run(["sh", "-c", 'EXALOOP_CAPTURE_PID=$$ exec "$0" "$@"', app, "7"], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    sys.stdout.write(p.stderr)
    eq((p.returncode, p.stdout), (0, "fib(7) = 13\n"), "runtime, no directory: the program runs uncaptured")
    eq(p.stderr, "", "runtime, no directory: nothing on the program's stderr (there is nowhere to leave a note)")
done()
