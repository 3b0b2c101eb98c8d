"""Transparency: the runtime's file descriptors are invisible to the program.

tests/progs/s-fds.c checks what POSIX promises a program about its descriptors: its first open()
returns 3; a stdin closed at exec stays closed; after it closes every descriptor and opens a file
(or dup2s a file over descriptor 3 and over any descriptor that refers to /proc/<pid>/statm), that
file is its own.  The runtime reads /proc/self/statm for the RSS samples: from a high,
close-on-exec descriptor that it checks before every read, so the RSS stays measured and true
(the fake file claims 3.8 GiB; the program holds 64 MiB).
Output and exit status must equal the uncaptured run's.  The names of running threads are re-read
from /proc/self/task/<tid>/comm by a short-lived runtime thread with a descriptor table of its own,
so a program thread that opens files meanwhile still gets the lowest free descriptor (s-lowfd.c).
"""
from xltest import *

GiB = 1 << 30
MiB = 1 << 20


def closed_stdin(cmd):
    """cmd run with descriptor 0 closed at exec."""
    return ["sh", "-c", 'exec 0<&-; exec "$@"', "sh"] + cmd


with Workdir() as w:
    app = os.path.join(w.path, "fds")
    eq(w.run(["--profile", "build", prog("s-fds.c"), "-o", app]).returncode, 0, "build s-fds")
    for sc in ("first", "stdin", "closeall", "dup2"):
        plain_cmd = [app, sc]
        cap_cmd = [EXALOOP, "--no-open", "profile", "exec", app, sc]
        if sc == "stdin":
            plain_cmd, cap_cmd = closed_stdin(plain_cmd), closed_stdin(cap_cmd)
        plain = subprocess.run(plain_cmd, cwd=w.path, stdout=subprocess.PIPE, text=True, timeout=120)
        p = subprocess.run(cap_cmd, cwd=w.path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=300, env=dict(os.environ, CI="1"))
        sys.stdout.write(p.stderr)
        eq(p.stdout, plain.stdout, "%s: output equals the uncaptured run's" % sc)
        eq((p.returncode, plain.returncode), (0, 0), "%s: exit status 0 with and without capture" % sc)
        s = w.summary()
        eq(s.calls("work"), 10, "%s: capture complete" % sc)
        rss = s.doc["memory"]["samples"]["rss"]
        check(len(rss) >= 3 and all(v is not None for v in rss), "%s: every RSS sample measured (%r)" % (sc, rss))
        check(all(v is None or v < GiB for v in rss), "%s: no RSS from the program's own file (%r)" % (sc, rss))
        if sc in ("closeall", "dup2"):
            check(max(v or 0 for v in rss) >= 48 * MiB, "%s: the 64 MiB the program holds are seen" % sc)
    eq(plain.stdout.split()[0], "dup2:", "the last scenario ran")

    # The thread-name refresh (every 0.5 s while the window is open) reads /proc/self/task/<tid>/comm
    # of each running thread.  A thread that opens /dev/null in a loop must get the lowest free
    # descriptor every time while 8 named idle threads are refreshed (s-lowfd: was 5 other numbers
    # in 3 s).  3 s = 6 refresh rounds of 10 threads, twice.
    app = os.path.join(w.path, "lowfd")
    eq(w.run(["--profile", "build", prog("s-lowfd.c"), "-o", app]).returncode, 0, "build s-lowfd")
    plain = subprocess.run([app, "3"], stdout=subprocess.PIPE, text=True, timeout=120)
    eq((plain.returncode, plain.stdout), (0, "idle=8 unexpected=0\n"), "lowfd: uncaptured")
    for rep in range(2):
        p = w.run(["--no-open", "profile", "exec", app, "3"])
        eq((p.returncode, p.stdout), (0, plain.stdout), "lowfd %d: every open got the lowest free descriptor" % rep)
        names = sorted(t["name"] for t in w.summary().doc["threads"])
        eq(names, sorted(["lowfd", "lowfd"] + ["idle-%d" % k for k in range(8)]),
           "lowfd %d: the names the threads gave themselves" % rep)
done()
