"""Faults: the disk is full before the capture, fills up while capturing, or while writing the report.

Needs a small tmpfs (mounted here when running as root; skipped otherwise, saying so).

- Too little space for the capture buffer: exaloop says so in one line and runs the program
  without capture, with its output and exit status.  Driving the program directly, the runtime
  itself says so in one line (it reserves the buffer at start) and runs the program uncaptured.
- The program fills the disk while being captured: the capture buffer was reserved up front,
  so the capture is complete and the report is written afterwards (trimming the capture frees
  the space it did not use).
- The disk is full when the report is written: one-line error, exit 1, no partial file left, and
  the capture stays readable (`--json` to stdout works; the HTML works once there is room).
"""
import errno
import re

from xltest import *


def mount_tmpfs(path, size):
    os.makedirs(path)
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", path],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode == 0, p.stdout.strip()


def umount(path):
    subprocess.run(["umount", "-l", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def fill(path):
    """Fill the file system of path; returns the bytes written."""
    n = 0
    with open(path, "wb", buffering=0) as f:
        block = b"x" * 65536
        try:
            while True:
                n += f.write(block)
        except OSError as e:
            if e.errno != errno.ENOSPC:
                raise
        try:
            while True:
                n += f.write(b"x")
        except OSError:
            pass
    return n


def error_lines(stderr):
    return [l for l in stderr.splitlines() if l.startswith("exaloop: error:")]


if os.geteuid() != 0:
    print("SKIP: not root: cannot mount a small tmpfs to fill (run as root to test full disks)")
    done()

mounts = []
with Workdir() as w:
    small = os.path.join(w.path, "small")
    ok, why = mount_tmpfs(small, "2m")
    if not ok:
        print("SKIP: cannot mount a tmpfs here (%s)" % why)
        shutil.rmtree(w.path, ignore_errors=True)
        done()
    mounts.append(small)
    try:
        # 1. Not enough space for the 64 MiB buffer: one line, the program runs uncaptured.
        e = dict(os.environ, CI="1")
        p = subprocess.run([EXALOOP, "--profile", "--no-open", "run", prog("s-fib.c"), "10"], cwd=small, env=e,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
        sys.stdout.write(p.stderr)
        eq((p.returncode, p.stdout), (0, "fib(10) = 55\n"), "no space: the program ran with its output and status")
        errs = error_lines(p.stderr)
        eq(len(errs), 1, "no space: one error line")
        check(errs and "not enough space for a capture" in errs[0] and "running without capture" in errs[0],
              "no space: the line says why and what happens")
        eq(os.listdir(os.path.join(small, "profiles")), [], "no space: no capture directory left behind")

        # 1b. The same, the program driven directly: the runtime never writes to the program's
        # stderr; it leaves its one line in runtime-notes.txt for exaloop.
        app = os.path.join(w.path, "fib")
        eq(w.run(["--profile", "build", prog("s-fib.c"), "-o", app]).returncode, 0, "build s-fib")
        cap = os.path.join(small, "direct")
        os.makedirs(cap)
        env = dict(os.environ, EXALOOP_CAPTURE_DIR=cap, EXALOOP_CAPTURE_MODE="all", EXALOOP_BUFFER_SIZE=str(64 << 20))
        p = subprocess.run(["sh", "-c", 'EXALOOP_CAPTURE_PID=$$ exec "$0" "$@"', app, "12"], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
        sys.stdout.write(p.stderr)
        eq((p.returncode, p.stdout), (0, "fib(12) = 144\n"), "runtime, no space: the program ran normally")
        eq(p.stderr, "", "runtime, no space: nothing on the program's stderr")
        with open(os.path.join(cap, "runtime-notes.txt")) as f:
            lines = f.read().splitlines()
        eq(len(lines), 1, "runtime, no space: one line left for exaloop")
        check(lines and re.match(r"capture disabled: cannot reserve \d+ bytes for '.*': No space left on device",
                                 lines[0]), "runtime, no space: the line says why")
        eq(os.listdir(cap), ["runtime-notes.txt"], "runtime, no space: no partial capture file")
        os.unlink(os.path.join(cap, "runtime-notes.txt"))

        # 3. The disk fills up while the report is written (1 MiB buffer: the capture fits).
        shutil.copy(app + ".symbols.json", os.path.join(cap, "symbols.json"))
        env["EXALOOP_BUFFER_SIZE"] = str(1 << 20)
        p = subprocess.run(["sh", "-c", 'EXALOOP_CAPTURE_PID=$$ exec "$0" "$@"', app, "12"], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
        eq((p.returncode, p.stderr), (0, ""), "report, disk full: captured with a 1 MiB buffer")
        filler = os.path.join(small, "filler")
        fill(filler)
        before = sorted(os.listdir(cap))
        r = subprocess.run([EXALOOP, "--no-open", "profile", "report", cap], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=300)
        sys.stdout.write(r.stderr)
        eq(r.returncode, 1, "report, disk full: exit 1 (an output could not be written)")
        errs = error_lines(r.stderr)
        eq(len(errs), 1, "report, disk full: one error line")
        check(errs and "index.html" in errs[0] and "No space left on device" in errs[0],
              "report, disk full: the line names the file and the reason")
        eq(sorted(os.listdir(cap)), before, "report, disk full: no partial or temporary file left")
        x = subprocess.run([EXALOOP, "profile", "export", cap, "--format", "chrome", "-o",
                            os.path.join(cap, "trace.json")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=300)
        eq((x.returncode, len(error_lines(x.stderr))), (1, 1), "export, disk full: exit 1, one error line")
        r = subprocess.run([EXALOOP, "profile", "report", cap, "--json"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=300)
        eq(r.returncode, 0, "report, disk full: the capture still reads (--json to stdout)")
        if r.returncode == 0:
            eq(Summary(json.loads(r.stdout)).calls("fib"), 465, "report, disk full: fib calls (2*F(13)-1)")
        os.unlink(filler)
        r = subprocess.run([EXALOOP, "--no-open", "profile", "report", cap], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=300)
        eq(r.returncode, 0, "report, space again: the HTML report is written")

        # 2. The program fills the disk while it is captured.
        big = os.path.join(w.path, "big")
        ok, why = mount_tmpfs(big, "80m")
        check(ok, "mount an 80 MiB tmpfs (%s)" % why)
        if ok:
            mounts.append(big)
            p = subprocess.run([EXALOOP, "--profile", "--no-open", "run", prog("s-fill.c"), "junk", "100"],
                               cwd=big, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               timeout=300)
            sys.stdout.write(p.stderr)
            eq(p.returncode, 0, "filling: exit status 0 (the program stopped at ENOSPC)")
            check("error=No space left on device" in p.stdout and "done: work=200" in p.stdout,
                  "filling: the program filled the disk and carried on")
            eq(error_lines(p.stderr), [], "filling: no exaloop error")
            caps = sorted(glob.glob(os.path.join(big, "profiles", "capture-*")))
            eq(len(caps), 1, "filling: one capture")
            if caps:
                check(os.path.exists(os.path.join(caps[0], "index.html")), "filling: report written after the run")
                s = w.summary(caps[0])
                eq((s.paths().get(("main", "work")), s.paths().get(("main", "fill"))), (200, 1),
                   "filling: every call captured through the full disk")
                check(s.doc["run"]["finalized"], "filling: capture finalized")
    finally:
        for m in reversed(mounts):
            umount(m)
done()
