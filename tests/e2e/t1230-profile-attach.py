"""profile attach PID: capture from a program exaloop built that is already running uncaptured.

tests/progs/s-attach.c runs a loop (tick() once per iteration, then a 1 ms sleep) and a second
thread, logging each iteration's CLOCK_MONOTONIC time.  Started uncaptured, it is attached to for
2 s: exaloop calls the dormant runtime through ptrace, which opens a 2 s window, then unpatches,
ends its thread and lets go.  Checks:
 - tick's calls equal the iterations the program logged inside the window (its bounds put on the
   program's clock with the capture header's cal0_ns), within one;
 - while the program still runs after the window, it has its original threads and descriptors;
 - its output and exit status are those of an uncaptured run; the report says it was attached;
 - refusals, one line each, the process running on: a program exaloop did not build (exit 2), no
   such process (127), no permission (as another user: exit 1), a second attach (exit 1);
 - a process that ends during the window: the report is written with what was captured;
 - refused in one line: a stopped process, a replaced executable, global options attach would ignore
   or that clash with its own; the global --duration and --include otherwise stand for its own;
 - interrupted (SIGINT to exaloop): the window closes at once, the report is written, the program
   runs on with its own threads.
"""
from xltest import *
import re
import signal
import struct
import time

HDR_CAL0_NS = 80  # offsetof(struct xl_cap_header, cal0_ns), include/exaloop/xl_capture.h


def cal0_ns(capture):
    with open(os.path.join(capture, "capture.xlc"), "rb") as f:
        return struct.unpack_from("<Q", f.read(128), HDR_CAL0_NS)[0]


def start(app, log, secs):
    p = subprocess.Popen([app, log, str(secs)], stdout=subprocess.PIPE, text=True)
    check(p.stdout.readline() == "ready\n", "the program started")
    return p


def fds(pid):
    return sorted((fd, os.readlink("/proc/%d/fd/%s" % (pid, fd))) for fd in os.listdir("/proc/%d/fd" % pid))


with Workdir() as w:
    app = os.path.join(w.path, "attach-me")
    eq(w.run(["--profile", "build", prog("s-attach.c"), "-o", app]).returncode, 0, "build s-attach")
    log = os.path.join(w.path, "iterations.log")
    p = start(app, log, 5)
    time.sleep(0.5)
    threads0, fds0 = len(os.listdir("/proc/%d/task" % p.pid)), fds(p.pid)
    a = w.run(["--no-open", "profile", "attach", str(p.pid), "--duration", "2s"])
    eq(a.returncode, 0, "attach: exit status")
    check(re.search(r"attached to process %d at [0-9.]+ m?s of its run" % p.pid, a.stderr) is not None,
          "attach: says when it attached")
    check(p.poll() is None, "the program runs on after the window")
    eq((len(os.listdir("/proc/%d/task" % p.pid)), fds(p.pid)), (threads0, fds0),
       "after the window: the program's own threads and descriptors, nothing more")
    out = p.stdout.read()
    eq(p.wait(), 0, "the program's exit status, as uncaptured")
    check(re.match(r"iterations=\d+ threads=2\n$", out) is not None, "the program's output: %r" % out)
    cap = w.latest()
    s = w.summary(cap)
    win = s.doc["run"]["window"]
    origin = cal0_ns(cap)
    lo, hi = origin + win["start_ns"], origin + win["end_ns"]
    times = [int(l.split()[1]) for l in open(log)]
    inside = sum(1 for t in times if lo <= t <= hi)
    check(inside >= 200, "iterations inside the window: %d" % inside)
    check(abs(s.calls("tick") - inside) <= 1, "tick calls %d = iterations in the window %d, within one"
          % (s.calls("tick"), inside))
    check(s.calls("work") > 0 and len(s.doc["threads"]) == 2, "the second thread is captured too")
    check(s.note("attached") is not None and s.warning("repaired_exits") is None,
          "the report says it was attached, and warns of nothing for it")
    eq(s.doc["run"]["app_time_ns"], None, "no application time: exaloop saw a part of the run")
    check(os.path.exists(os.path.join(cap, "index.html")), "the report is written")

    # refusals: one line, the exit code, and the process runs on
    plain = subprocess.Popen(["sleep", "30"])
    r = w.run(["--no-open", "profile", "attach", str(plain.pid)])
    eq(r.returncode, 2, "a program exaloop did not build: exit 2")
    check("has no exaloop profiling runtime" in r.stderr.splitlines()[0], "... says so: %r" % r.stderr.splitlines()[:1])
    check(plain.poll() is None, "... and it runs on")
    plain.kill()
    plain.wait()
    r = w.run(["--no-open", "profile", "attach", "12abc"])
    eq(r.returncode, 2, "not a process id: exit 2")
    gone = subprocess.Popen(["true"])
    gone.wait()
    r = w.run(["--no-open", "profile", "attach", str(gone.pid)])
    eq((r.returncode, r.stderr.strip()), (127, "exaloop: error: no process %d" % gone.pid), "no such process: exit 127")

    p = start(app, log, 3)
    if shutil.which("setpriv") and os.geteuid() == 0:
        exe = os.environ.get("EXALOOP") or os.path.join(SRC, "build", "bin", "exaloop")
        r = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", exe, "--no-open",
                            "profile", "attach", str(p.pid)], cwd="/tmp", capture_output=True, text=True)
        eq(r.returncode, 1, "another user's process: exit 1")
        check(r.stderr.startswith("exaloop: error: ") and "ermission" in r.stderr.splitlines()[0],
              "... one line naming the permission: %r" % r.stderr.splitlines()[:1])
    else:
        print("note: the permission refusal is not checked (needs root and setpriv)")
    check(p.poll() is None, "... and it runs on")
    # attached once, then again: the runtime takes one attach per run of a process
    eq(w.run(["--no-open", "profile", "attach", str(p.pid), "--duration", "300ms"]).returncode, 0, "first attach")
    r = w.run(["--no-open", "profile", "attach", str(p.pid), "--duration", "300ms"])
    eq(r.returncode, 1, "a second attach: exit 1")
    check("attached to before" in r.stderr, "... says why: %r" % r.stderr.splitlines()[:1])
    eq(p.wait(), 0, "the program ends as uncaptured")

    # the process ends during the window: what was captured is reported
    p = start(app, log, 1.5)
    time.sleep(0.3)
    r = w.run(["--no-open", "profile", "attach", str(p.pid), "--duration", "5s"])
    eq(r.returncode, 0, "ended during the window: exit status")
    check("ended during the capture" in r.stderr, "... says so")
    eq(p.wait(), 0, "... the program's own status")
    s = w.summary(w.latest())
    check(s.calls("tick") > 100, "... its calls until the end are reported (%d)" % s.calls("tick"))

    # a stopped process: refused at once (it would wait for SIGCONT, and its window run long)
    p = start(app, log, 4)
    os.kill(p.pid, signal.SIGSTOP)
    for _ in range(500):  # the stop takes effect when the process is next scheduled
        if open("/proc/%d/stat" % p.pid).read().rsplit(")", 1)[1].split()[0] == "T":
            break
        time.sleep(0.01)
    r = w.run(["--no-open", "profile", "attach", str(p.pid), "--duration", "300ms"], timeout=60)
    eq((r.returncode, r.stderr.strip()), (2, "exaloop: error: process %d is stopped (SIGSTOP, or a job-control stop): "
                                            "continue it first (kill -CONT %d), then attach" % (p.pid, p.pid)),
       "a stopped process: refused in one line")
    os.kill(p.pid, signal.SIGCONT)
    # the global capture options: --duration and --include as the command's own, not both, and
    # none that attach would ignore
    pid = str(p.pid)
    for args, msg in (
            (["--delay", "1s", "profile", "attach", pid], "--delay: 'profile attach' captures from the moment it attaches"),
            (["--duration", "1s", "profile", "attach", pid, "--duration", "2s"], "--duration twice"),
            (["--duration", "0s", "profile", "attach", pid], "--duration 0s: 'profile attach' needs a window to end"),
            (["--include", "tick", "profile", "attach", pid, "--include", "work"], "--include both before"),
            (["--target", "t", "profile", "attach", pid], "--target: a target's settings are for run, build")):
        r = w.run(["--no-open"] + args)
        check(r.returncode == 2 and r.stderr.startswith("exaloop: error: " + msg) and len(r.stderr.splitlines()) == 1,
              "%s: refused in one line (%d: %r)" % (" ".join(args[:2]), r.returncode, r.stderr))
    # interrupted (^C): the window closes now and the report is written; the program runs on
    a = subprocess.Popen([EXALOOP, "--no-open", "--duration", "1h", "--include", "tick", "profile", "attach", pid],
                         cwd=w.path, stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)
    a.send_signal(signal.SIGINT)
    try:
        err = a.communicate(timeout=20)[1]
    except subprocess.TimeoutExpired:
        a.kill()
        err = a.communicate()[1]
    check(a.returncode == 0 and "interrupted: closing the capture window now" in err and "let go of process" in err,
          "^C during attach: the window closes, exit 0 (%r: %r)" % (a.returncode, err))
    check(p.poll() is None and len(os.listdir("/proc/%d/task" % p.pid)) == 2,
          "... the program runs on with its own threads only")
    s = w.summary(w.latest())
    check(s.calls("tick") > 100 and s.calls("work") == 0 and os.path.exists(os.path.join(w.latest(), "index.html")),
          "... the report of the global --include's functions (tick %d, work %d)" % (s.calls("tick"), s.calls("work")))
    eq(p.wait(), 0, "... and it ends as uncaptured")

    # the executable replaced after the process started (a rebuild): said so, not "no runtime"
    copy = os.path.join(w.path, "attach-copy")
    shutil.copy(app, copy)
    for side in (".profile.json", ".symbols.json"):
        shutil.copy(app + side, copy + side)
    p = start(copy, log, 3)
    os.unlink(copy)
    shutil.copy(app, copy)
    r = w.run(["--no-open", "profile", "attach", str(p.pid)])
    check(r.returncode == 2 and "the executable of process %d was replaced or deleted after it started" % p.pid in r.stderr,
          "a replaced executable: refused, saying so (%r)" % r.stderr)
    eq(p.wait(), 0, "... and it runs on")
done()
