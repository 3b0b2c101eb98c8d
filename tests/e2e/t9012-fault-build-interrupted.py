"""Faults: exaloop is stopped with SIGTERM while it compiles.

Whatever processes a compile is made of (the clang driver, and a `clang -cc1` child when the
driver does not run it in-process: it does not pass signals on, and a `-cc1` signalled through the
driver alone ran on as an orphan), each compiler runs as a process group of its own (objcache.c)
and the signal reaches all of it: exaloop exits 143 with one line, no compiler process is left, and
nothing is left in $TMPDIR (neither exaloop's build directory nor the compiler's temporaries).
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


def cmdline(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return f.read().split(b"\0")
    except OSError:
        return []


def descendants(root):
    kids = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open("/proc/%s/stat" % d) as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            kids.setdefault(ppid, []).append(int(d))
    out, todo = [], [root]
    while todo:
        p = todo.pop()
        for k in kids.get(p, []):
            out.append(k)
            todo.append(k)
    return out


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


with Workdir() as w:
    tmp = os.path.join(w.path, "tmp")
    os.mkdir(tmp)
    src = os.path.join(w.path, "big.c")
    source(src)
    # -fno-integrated-cc1: the driver runs `clang -cc1` as a child process of its own.
    for mode, extra in ((["--profile"], []), ([], []), (["--profile"], ["-fno-integrated-cc1"])):
        # Output to a file, not a pipe: an orphaned compiler would hold a pipe open.
        log = open(os.path.join(w.path, "stderr.txt"), "w+")
        x = subprocess.Popen([EXALOOP, "--no-open"] + mode + ["run", "-release"] + extra + [src], cwd=w.path,
                             env=dict(os.environ, CI="1", TMPDIR=tmp), stdout=subprocess.DEVNULL,
                             stderr=log, start_new_session=True)
        what = "SIGTERM while compiling (%s%s)" % ("profiling build" if mode else "plain build", " ".join([""] + extra))
        cc1 = None
        deadline = time.time() + 600
        while cc1 is None and time.time() < deadline and x.poll() is None:
            for p in descendants(x.pid):
                if src.encode() in cmdline(p) and (b"-cc1" in cmdline(p) or b"-c" in cmdline(p)):
                    cc1 = p
                    break
            time.sleep(0.05)
        check(cc1 is not None, what + ": the compiler seen running under exaloop")
        if cc1 is None:
            x.kill()
            x.wait()
            continue
        kids = [p for p in descendants(x.pid) if src.encode() in cmdline(p)]
        os.kill(x.pid, signal.SIGTERM)
        x.wait(timeout=300)
        log.seek(0)
        err = log.read()
        log.close()
        sys.stdout.write(err)
        eq(x.returncode, 143, what + ": exaloop exits 128+SIGTERM")
        check("compilation interrupted" in err, what + ": one line says the compilation was interrupted")
        # The signal reaches -cc1 at once; left alone it would compile for tens of seconds.
        deadline = time.time() + 5
        while any(alive(p) for p in kids) and time.time() < deadline:
            time.sleep(0.1)
        left = [p for p in kids if alive(p)]
        check(not left, what + ": no compiler process left running")
        for p in left:
            os.kill(p, signal.SIGKILL)   # do not leave an orphan to the machine
        eq(sorted(os.listdir(tmp)), [], what + ": nothing left in $TMPDIR")
        check(not os.path.exists(os.path.join(w.path, "profiles")) or not w.captures(),
              what + ": no capture directory")
done()
