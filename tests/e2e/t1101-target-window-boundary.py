"""A capture window that opens and closes while the program works: what it says about its edges.

tests/progs/s-window.c runs phase1() until 0.8 s, then phase2() until 2.0 s; each step() mallocs
and frees 64 bytes.  The target's window opens at 0.3 s (inside phase1) and lasts 1.0 s (closing
inside phase2).  A service profiled this way is the normal case, so:
 - the window the user configured is a note ("window"), not a warning;
 - phase1, open when the window opened, returns inside it: an exit without its entry, counted as
   a frame open at the start (totals.open_exits, note "open_at_start"), not as a repair: no
   warning repaired_exits (step may have been open too: 1 or 2 such exits);
 - the mallocs made before the window opened and after it closed are "outside the window"
   (allocations.outside_window), not "(not attributed)": at most one is unattributed (a step
   already running when the window opened, before the thread's first event), and the captured
   steps' mallocs are exactly the steps counted in the window.  Every malloc the program made
   is in the total (the program's own count).
The text report and the folded export name the outside allocations.  The same window from the
command line (profile exec --delay/--duration: report at the window's close), the other
window options overriding the target's keys one by one, and their errors: the TOML's units and
bounds, one line, exit 2.
"""
from xltest import *
import re


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def check_capture(s, out, tag):
    m = re.match(r"steps1=(\d+) steps2=(\d+) allocs=(\d+)$", out.strip())
    check(m is not None, tag + ": program output %r" % out)
    if not m:
        return
    a, b, n = map(int, m.groups())
    check(s.note("window") is not None and s.warning("window_partial") is None,
          tag + ": the configured window is a note")
    open_exits = s.doc["totals"]["open_exits"]
    check(1 <= open_exits <= 2, tag + ": phase1 (and maybe step) open at the start: %d" % open_exits)
    check(s.note("open_at_start") is not None, tag + ": ... said in a note")
    eq((s.warning("repaired_exits"), sum(t["repaired_exits"] for t in s.doc["threads"])), (None, 0),
       tag + ": no repair warning")
    eq((s.calls("phase1"), s.calls("phase2")), (0, 1), tag + ": phase1 entered before the window, phase2 inside")
    steps = s.calls("step")
    check(0 < steps < a + b, tag + ": only the window's steps (%d of %d)" % (steps, a + b))
    al = s.doc["allocations"]
    out_w = al.get("outside_window", {})
    # a step() running when the window opened may malloc before the thread's first traced event
    # in the window (no recorded position yet): that one is not attributed
    check(al["not_attributed"]["allocs"] <= 1, tag + ": at most one unattributed (%d)" % al["not_attributed"]["allocs"])
    # a step open at the window's edge may have allocated outside and been counted inside, or
    # the reverse: one step's malloc either way at each edge
    check(abs((al["total"]["allocs"] - out_w.get("allocs", 0)) - steps) <= 2,
          tag + ": attributed mallocs = captured steps (%d, %d)" % (al["total"]["allocs"] - out_w.get("allocs", 0), steps))
    check(out_w.get("allocs", 0) > 0, tag + ": mallocs outside the window counted as such")
    eq(al["total"]["allocs"], n, tag + ": every malloc of the program in the total")


with Workdir() as w:
    shutil.copy(prog("s-window.c"), w.path)
    write(os.path.join(w.path, "exaloop.toml"), """
[targets.win]
kind = "service"
source = "s-window.c"
args = ["800", "2000"]
[targets.win.profile]
mode = "all"
delay = "0.3s"
duration = "1s"
""")
    p = w.run(["--profile", "--no-open", "--target", "win", "run"])
    eq(p.returncode, 0, "toml window: exit status")
    cap = w.latest()
    s = w.summary(cap)
    check_capture(s, p.stdout, "toml window")
    text = w.run(["profile", "report", cap, "--text"]).stdout
    check("(outside the window):" in text, "text report names the allocations outside the window")
    folded = w.run(["profile", "export", cap, "--format", "folded", "--weight", "allocs", "-o", "-"]).stdout
    check(re.search(r"^\(outside the window\) \d+$", folded, re.M) is not None,
          "folded export: an '(outside the window)' line")

    # The same window from the command line, on a prebuilt program (profile exec): the report is
    # written when the window closes, as for a long-running target, and updated at exit.
    app = os.path.join(w.path, "win")
    eq(w.run(["--profile", "build", prog("s-window.c"), "-o", app]).returncode, 0, "build s-window")
    p = w.run(["--no-open", "--delay", "300ms", "--duration", "1s", "profile", "exec", app, "800", "2000"])
    eq(p.returncode, 0, "command-line window: exit status")
    check("capture window closed; the program keeps running" in p.stderr, "command-line window: report at its close")
    s = w.summary(w.latest())
    eq((s.doc["run"]["settings"]["delay_ns"], s.doc["run"]["settings"]["duration_ns"]), (300000000, 1000000000),
       "command-line window: its settings")
    check_capture(s, p.stdout, "command-line window")

    # --include replaces the target's list and repeats; --duration overrides the target's alone
    p = w.run(["--profile", "--no-open", "--target", "win", "--include", "phase*", "--include", "nothing*",
               "--duration", "1.2s", "--buffer-size", "8MiB", "--memory-interval", "20ms", "run"])
    eq(p.returncode, 0, "overrides: exit status")
    s = w.summary(w.latest())
    st = s.doc["run"]["settings"]
    eq(sorted(f["name"] for f in s.funcs), ["phase2"], "overrides: only the --include functions (phase1 was open)")
    eq((st["include"], st["delay_ns"], st["duration_ns"], st["buffer_size"], st["memory_interval_ns"]),
       (["phase*", "nothing*"], 300000000, 1200000000, 8 << 20, 20000000),
       "overrides: the command line's values, the file's delay")

    # the TOML's units and bounds, the same one-line errors, exit 2
    for args, msg in ((["--delay", "soon"], "invalid duration 'soon'"),
                      (["--duration", "-1s"], "for '--duration'"),
                      (["--buffer-size", "1KiB"], "'--buffer-size' must be at least 1MiB"),
                      (["--buffer-size", "65GiB"], "'--buffer-size' must be at most 64GiB"),
                      (["--memory-interval", "10us"], "'--memory-interval' must be at least 1ms"),
                      (["--include", ""], "empty pattern for '--include'")):
        p = w.run(args + ["profile", "exec", app])
        eq(p.returncode, 2, "%s: usage error" % " ".join(args))
        check(p.stderr.startswith("exaloop: error: ") and msg in p.stderr.splitlines()[0],
              "%s: one line naming the problem: %r" % (" ".join(args), p.stderr.splitlines()[:1]))
done()
