"""Transparency: a file-size limit (ulimit -f) below the capture's size.

The runtime reserves the whole capture file before main; past RLIMIT_FSIZE the kernel kills the
program with SIGXFSZ.  exaloop checks the limit before running: with room for a buffer of at least
1 MiB the capture is made smaller, else the program runs without capture; either way it says so in
one line.  The runtime guards itself too (a program started with the capture environment by other
means): it never writes to the program's stderr, and leaves its reason in runtime-notes.txt.
"""
from xltest import *


def limited(kib, cmd):
    return ["sh", "-c", 'ulimit -f %d; exec "$@"' % kib, "sh"] + cmd


with Workdir() as w:
    app = os.path.join(w.path, "fib")
    eq(w.run(["--profile", "build", prog("s-fib.c"), "-o", app]).returncode, 0, "build s-fib")
    plain = subprocess.run(limited(500, [app, "20"]), stdout=subprocess.PIPE, text=True)
    eq((plain.returncode, plain.stdout), (0, "fib(20) = 6765\n"), "uncaptured under ulimit -f 500")
    env = dict(os.environ, CI="1")

    # too small for any capture: runs uncaptured, one line says why
    p = subprocess.run(limited(500, [EXALOOP, "--no-open", "profile", "exec", app, "20"]), cwd=w.path, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    sys.stdout.write(p.stderr)
    eq((p.returncode, p.stdout), (0, plain.stdout), "ulimit -f 500: output and exit status as uncaptured")
    lines = [l for l in p.stderr.splitlines() if "ulimit -f" in l]
    eq(len(lines), 1, "ulimit -f 500: one line says why there is no capture")
    check(lines and "without capture" in lines[0], "ulimit -f 500: the line says the program ran without capture")
    eq(w.captures(), [], "ulimit -f 500: no capture directory left behind")

    # room for a smaller buffer: captured completely, one line says the buffer was reduced
    p = subprocess.run(limited(4096, [EXALOOP, "--no-open", "profile", "exec", app, "20"]), cwd=w.path, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    sys.stdout.write(p.stderr)
    eq((p.returncode, p.stdout), (0, plain.stdout), "ulimit -f 4096: output and exit status as uncaptured")
    eq(len([l for l in p.stderr.splitlines() if "ulimit -f" in l and "reduced" in l]), 1,
       "ulimit -f 4096: one line says the buffer was reduced")
    s = w.summary()
    eq(s.calls("fib"), 21891, "ulimit -f 4096: every call captured")
    check(s.doc["run"]["finalized"], "ulimit -f 4096: capture finalized")
    check(s.doc["run"]["settings"]["buffer_size"] < 4 << 20, "ulimit -f 4096: smaller buffer recorded")

    # the runtime alone (capture environment set by hand): no SIGXFSZ, nothing on stderr, a note
    d = os.path.join(w.path, "by-hand")
    os.mkdir(d)
    p = subprocess.run(["sh", "-c", 'ulimit -f 500; EXALOOP_CAPTURE_DIR="$1" EXALOOP_CAPTURE_PID=$$ exec "$2" 20',
                        "sh", d, app], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    eq((p.returncode, p.stdout, p.stderr), (0, plain.stdout, ""), "runtime alone: runs uncaptured, silent")
    with open(os.path.join(d, "runtime-notes.txt")) as f:
        note = f.read()
    check("ulimit -f" in note and note.count("\n") == 1, "runtime alone: the reason left for exaloop (%r)" % note)
done()
