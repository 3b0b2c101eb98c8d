"""Faults: exaloop is stopped with SIGTERM (or ^C's SIGINT) while it compiles.

Whatever processes a compile is made of (the clang driver, and a `clang -cc1` child when the
driver does not run it in-process: it does not pass signals on, and a `-cc1` signalled through the
driver alone ran on as an orphan), each compiler runs as a process group of its own (process.c's pool)
and the signal reaches all of it, for every compiler of a parallel build too: exaloop exits 128+N with
one line, no compiler process is left, and nothing is left in $TMPDIR (neither exaloop's build
directory nor the compiler's temporaries).
"""
import signal
import time

from xltest import *

FUNCS = 1000   # tens of seconds of -O3 on one core; the test stops it as soon as -cc1 runs


def source(path):
    with open(path, "w") as f:
        f.write("#include <stdio.h>\n")
        for i in range(FUNCS):
            f.write("int f%d(int x){int s=0;for(int i=0;i<x;i++){s+=i*%d^(s>>3);if(s%%7==%d)s-=x;}return s;}\n"
                    % (i, i, i % 7))
        f.write("int main(int c,char**v){(void)v;int s=0;\n")
        for i in range(FUNCS):
            f.write("s+=f%d(c);\n" % i)
        f.write('printf("%d\\n",s);return 0;}\n')


def compilers(x, sources):
    """The compiler processes under exaloop x working on any of sources."""
    return [p for p in descendants(x.pid) if any(src.encode() in cmdline(p) for src in sources)]


with Workdir() as w:
    tmp = os.path.join(w.path, "tmp")
    os.mkdir(tmp)
    big = [os.path.join(w.path, name) for name in ("big.c", "big2.c", "big3.c")]
    for src in big:
        source(src)
    # -fno-integrated-cc1: the driver runs `clang -cc1` as a child process of its own.  The last case is a
    # parallel build (the process pool of process.c, -j3) stopped with ^C's signal: every compiler goes.
    cases = ((["--profile"], [], big[:1], signal.SIGTERM), ([], [], big[:1], signal.SIGTERM),
             (["--profile"], ["-fno-integrated-cc1"], big[:1], signal.SIGTERM),
             (["--profile"], ["-j3", "-fno-integrated-cc1"], big, signal.SIGINT))
    for mode, extra, srcs, sig in cases:
        # Output to a file, not a pipe: an orphaned compiler would hold a pipe open.
        log = open(os.path.join(w.path, "stderr.txt"), "w+")
        x = subprocess.Popen([EXALOOP, "--no-open"] + mode + ["run", "-release"] + extra + srcs, cwd=w.path,
                             env=dict(os.environ, CI="1", TMPDIR=tmp), stdout=subprocess.DEVNULL,
                             stderr=log, start_new_session=True)
        what = "%s while compiling %d source%s (%s%s)" % (signal.Signals(sig).name, len(srcs), "s" if len(srcs) > 1 else "",
                                                          "profiling build" if mode else "plain build",
                                                          " ".join([""] + extra))
        # Each source's compiler (the `-cc1` when it runs apart) seen running.
        seen = set()
        deadline = time.time() + 600
        while len(seen) < len(srcs) and time.time() < deadline and x.poll() is None:
            for p in descendants(x.pid):
                line = cmdline(p)
                for src in srcs:
                    if src.encode() in line and (b"-cc1" in line or b"-c" in line) and (
                            b"-cc1" in line or b"-fno-integrated-cc1" not in line):
                        seen.add(src)
            time.sleep(0.05)
        check(len(seen) == len(srcs), what + ": every compiler seen running under exaloop at once")
        if len(seen) < len(srcs):
            x.kill()
            x.wait()
            continue
        kids = compilers(x, srcs)
        os.kill(x.pid, sig)
        x.wait(timeout=300)
        log.seek(0)
        err = log.read()
        log.close()
        sys.stdout.write(err)
        eq(x.returncode, 128 + sig, what + ": exaloop exits 128+%s" % signal.Signals(sig).name)
        check("compilation interrupted" in err, what + ": one line says the compilation was interrupted")
        # The signal reaches -cc1 at once; left alone it would compile for tens of seconds.
        deadline = time.time() + 5
        while any(alive(p) for p in kids) and time.time() < deadline:
            time.sleep(0.1)
        left = [p for p in kids if alive(p)]
        check(not left, what + ": no compiler process left running (%d were)" % len(kids))
        for p in left:
            os.kill(p, signal.SIGKILL)   # do not leave an orphan to the machine
        eq(sorted(os.listdir(tmp)), [], what + ": nothing left in $TMPDIR")
        check(not os.path.exists(os.path.join(w.path, "profiles")) or not w.captures(),
              what + ": no capture directory")
done()
