"""The timeline's modes (docs/cli.md: the timeline; docs/capture-format.md: xl_tl_mode).

s-timeline makes ROUNDS rounds of SHORT tick() calls (a few ns each) and one slow() call
(>= 300 us of spinning), so its calls are known by count and by duration:
- auto (default), in a 2 MiB buffer far too small for every call: the call tree has every call
  (its counts equal the program's own counters), nothing is dropped, every slow() call is in
  the timeline (Chrome export) from the first round to the last, the threshold history is
  recorded (rising, below slow()'s duration), and the reports say what was kept;
- auto in the default 64 MiB, a short busy run (4 million tick() in well under a second): the
  threshold rises early instead of keeping every call until half the budget is spent, so the
  capture file stays small (it was over 24 MiB) while every slow() call is still kept (a small run
  keeps every call: e2e.t4001's fib(20));
- timeline_min_duration = "100us": exactly the calls >= 100 us are kept (no tick(), every
  slow(), every kept call at least 100 us long), with one history entry at 100 us;
- first: today's behaviour, the timeline stops when its budget is spent (timeline_full);
- last: a program killed with SIGKILL keeps its final calls: the timeline starts late in the
  run and reaches its end; the calls before are in the call tree only; threads that start after
  others ended (s-sequential) keep calls too, taking the ended threads' oldest blocks.
"""
import signal
import time

from xltest import *

ROUNDS, SHORT = 2000, 2000
BUSY_ROUNDS, BUSY_SHORT = 500, 8000
SEQ_CALLS, SEQ_THREADS = 2000000, 5   # s-sequential: main's calls, then 5 threads one at a time


def export_chrome(w, cap):
    out = os.path.join(w.path, "trace.json")
    p = subprocess.run([EXALOOP, "profile", "export", cap, "--format", "chrome", "-o", out], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=300)
    eq(p.returncode, 0, "chrome export")
    with open(out) as f:
        return json.load(f)


def calls_named(trace, name):
    return sorted((e for e in trace["traceEvents"] if e.get("ph") == "X" and e["name"] == name),
                  key=lambda e: e["ts"])


def target(name, profile):
    return ('[targets.%s]\nsource = "%s"\nbuild_args = ["-O2"]\nargs = ["%d", "%d"]\n[targets.%s.profile]\n%s\n' %
            (name, prog("s-timeline.c"), ROUNDS, SHORT, name, profile))


with Workdir() as w:
    with open(os.path.join(w.path, "exaloop.toml"), "w") as f:
        f.write(target("auto", 'buffer_size = "2MiB"') +
                target("fixed", 'buffer_size = "2MiB"\ntimeline_min_duration = "100us"') +
                target("first", 'buffer_size = "2MiB"\ntimeline = "first"') +
                '[targets.busy]\nsource = "%s"\nbuild_args = ["-O2"]\nargs = ["%d", "%d"]\n' % (
                    prog("s-timeline.c"), BUSY_ROUNDS, BUSY_SHORT) +
                '[targets.last]\nsource = "%s"\nbuild_args = ["-O2"]\nargs = ["1", "%d", "forever"]\n'
                '[targets.last.profile]\nbuffer_size = "2MiB"\ntimeline = "last"\n' % (prog("s-timeline.c"), SHORT))

    # auto: the whole run, short calls left out
    p = w.run(["--profile", "--no-open", "--target", "auto", "run"])
    eq(p.stdout, "rounds %d ticks %d\n" % (ROUNDS, ROUNDS * SHORT), "auto: the program's own counters")
    s = w.summary()
    eq((s.calls("main"), s.calls("tick"), s.calls("slow")), (1, ROUNDS * SHORT, ROUNDS),
       "auto: every call in the call tree")
    eq(s.paths().get(("main", "tick")), ROUNDS * SHORT, "auto: main > tick in the tree")
    tot = s.doc["totals"]
    eq(tot["dropped_events"], 0, "auto: nothing dropped")
    eq(s.warning("timeline_full"), None, "auto: no timeline-full warning")
    th = s.doc["threads"][0]["timeline"]
    eq(tot["timeline_events"] + 2 * th["short_calls"], tot["events"], "auto: each event kept, or its call left out")
    hist = th["history"]
    check(len(hist) >= 1, "auto: threshold history recorded (%d rises)" % len(hist))
    check(all(a["t_ns"] <= b["t_ns"] and 2 * a["threshold_ns"] - 1 <= b["threshold_ns"] <= 2 * a["threshold_ns"] + 1
              for a, b in zip(hist, hist[1:])), "auto: the threshold doubles at each rise: %s" % hist)
    check(0 < th["threshold_ns"] < 300000, "auto: final threshold %d ns, below slow()'s 300 us" % th["threshold_ns"])
    eq((th["threshold_ns"], th["since_ns"]), (hist[-1]["threshold_ns"], hist[-1]["t_ns"]), "auto: threshold = last rise")
    cap = w.latest()
    size = os.path.getsize(os.path.join(cap, "capture.xlc"))
    check(size <= (2 << 20) + 12288, "auto: capture file within the buffer (%d bytes)" % size)
    trace = export_chrome(w, cap)
    slows = calls_named(trace, "slow")
    eq(len(slows), ROUNDS, "auto: every slow() call in the timeline")
    check(all(e["dur"] >= 300 for e in slows), "auto: slow() calls last >= 300 us")
    win = s.doc["run"]["window"]
    span = (win["end_ns"] - win["start_ns"]) / 1000.0
    first_us, last_us = slows[0]["ts"] - win["start_ns"] / 1000.0, win["end_ns"] / 1000.0 - (slows[-1]["ts"] + slows[-1]["dur"])
    check(first_us < 0.05 * span and last_us < 0.05 * span,
          "auto: the timeline spans the window (first slow() %.0f us after its start, last %.0f us before its end, "
          "of %.0f us)" % (first_us, last_us, span))
    kept = [k for k in trace["otherData"]["timeline_kept"] if k["threshold_ns"] > 0]
    eq(len(kept), 1, "auto: the Chrome export states the threshold")
    eq(kept[0]["note"], th["note"], "auto: the same note in the export and the summary")
    check(th["note"].startswith("calls \u2265 ") and " after " in th["note"], "auto: note %r" % th["note"])
    note = s.note("timeline")
    check(note is not None and note["topic"] == "timeline" and th["note"] in note["message"],
          "auto: a note beside the timeline, not a warning: %r" % (note and note["message"]))
    eq(s.warning("timeline"), None, "auto: not among the warnings")
    t = subprocess.run([EXALOOP, "profile", "report", cap, "--text"], stdout=subprocess.PIPE, text=True)
    check(("keeps s-timeline: " + th["note"]) in t.stdout and "timeline buffer full" not in t.stdout,
          "auto: the text report says what the timeline kept")
    errs = validate(s.doc, json.load(open(os.path.join(SRC, "docs", "summary.schema.json"))))
    eq(errs, [], "auto: summary validates")

    # auto, default buffer, a short busy run: small capture, every slow() still kept
    p = w.run(["--profile", "--no-open", "--target", "busy", "run"])
    eq(p.stdout, "rounds %d ticks %d\n" % (BUSY_ROUNDS, BUSY_ROUNDS * BUSY_SHORT), "busy: the program's own counters")
    s = w.summary()
    eq(s.calls("tick"), BUSY_ROUNDS * BUSY_SHORT, "busy: every call in the call tree")
    th = s.doc["threads"][0]["timeline"]
    win = s.doc["run"]["window"]
    check(0 < th["history"][0]["t_ns"] - win["start_ns"] < 0.1 * (win["end_ns"] - win["start_ns"]),
          "busy: the threshold rose early: %s" % th["history"][:2])
    size = os.path.getsize(os.path.join(w.latest(), "capture.xlc"))
    check(size < 8 << 20, "busy: the capture file stays small (%d bytes)" % size)
    slows = calls_named(export_chrome(w, w.latest()), "slow")
    eq(len(slows), BUSY_ROUNDS, "busy: every slow() call in the timeline")

    # a fixed threshold: exactly the calls >= 100 us
    p = w.run(["--profile", "--no-open", "--target", "fixed", "run"])
    s = w.summary()
    eq((s.calls("tick"), s.calls("slow")), (ROUNDS * SHORT, ROUNDS), "fixed: every call in the call tree")
    th = s.doc["threads"][0]["timeline"]
    eq(len(th["history"]), 1, "fixed: one threshold")
    check(abs(th["threshold_ns"] - 100000) <= 100, "fixed: threshold 100 us (%d ns)" % th["threshold_ns"])
    eq(s.doc["run"]["settings"]["timeline_min_ns"], 100000, "fixed: setting recorded")
    trace = export_chrome(w, w.latest())
    xs = [e for e in trace["traceEvents"] if e.get("ph") == "X"]
    # A tick() the scheduler preempted can last 100 us too (a loaded machine): kept, rightly.
    kept_ticks = len(calls_named(trace, "tick"))
    eq(th["short_calls"] + kept_ticks, ROUNDS * SHORT, "fixed: every tick() left out but %d preempted ones" %
       kept_ticks)
    check(kept_ticks < ROUNDS * SHORT // 1000, "fixed: few tick() calls last 100 us")
    eq((len(calls_named(trace, "slow")), len(calls_named(trace, "main"))), (ROUNDS, 1),
       "fixed: every slow() and main in the timeline")
    check(all(e["dur"] >= 99.9 for e in xs), "fixed: every kept call lasted >= 100 us")
    check(th["note"].startswith("calls \u2265 100.0 us") and "after" not in th["note"], "fixed: note %r" % th["note"])

    # first: the first calls until the budget is spent
    p = w.run(["--profile", "--no-open", "--target", "first", "run"])
    s = w.summary()
    eq((s.calls("tick"), s.calls("slow")), (ROUNDS * SHORT, ROUNDS), "first: every call in the call tree")
    tw = s.warning("timeline_full")
    check(tw is not None and s.doc["totals"]["dropped_events"] > 0, "first: the timeline ran out")
    eq(s.doc["threads"][0]["timeline"]["short_calls"], 0, "first: nothing left out for being short")
    trace = export_chrome(w, w.latest())
    check(0 < len(calls_named(trace, "slow")) < ROUNDS // 2, "first: only the first slow() calls (%d)" %
          len(calls_named(trace, "slow")))

    # last: killed with SIGKILL, the final calls are kept
    e = dict(os.environ, CI="1", EXALOOP_CACHE_DIR=w.cache)
    x = subprocess.Popen([EXALOOP, "--profile", "--no-open", "--target", "last", "run"], cwd=w.path, env=e,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen = 0
    while seen < 1500:
        line = x.stdout.readline()
        if not line:
            break
        seen = int(line.split()[1])
    kids = []
    try:
        with open("/proc/%d/task/%d/children" % (x.pid, x.pid)) as f:
            kids = [int(k) for k in f.read().split()]
    except OSError:
        pass
    eq(len(kids), 1, "last: one program process (after %d rounds)" % seen)
    for k in kids:
        os.kill(k, signal.SIGKILL)
    out, err = x.communicate(timeout=300)
    sys.stdout.write(err)
    eq(x.returncode, 128 + signal.SIGKILL, "last: killed")
    s = w.summary()
    check(not s.doc["run"]["finalized"], "last: capture not finalized")
    slow_calls = s.calls("slow")
    check(slow_calls >= seen and s.calls("tick") >= seen * SHORT, "last: the call tree has every call (%d slow())" %
          slow_calls)
    th = s.doc["threads"][0]["timeline"]
    check(th["recycled_blocks"] > 0, "last: the timeline reused its oldest blocks (%d)" % th["recycled_blocks"])
    trace = export_chrome(w, w.latest())
    slows = calls_named(trace, "slow")
    end_us = s.doc["run"]["window"]["end_ns"] / 1000.0
    start_us = s.doc["run"]["window"]["start_ns"] / 1000.0
    check(0 < len(slows) < slow_calls, "last: the timeline keeps the last %d of %d slow() calls" %
          (len(slows), slow_calls))
    check(slows[0]["ts"] > start_us + 0.3 * (end_us - start_us), "last: its first calls were overwritten")
    check(end_us - (slows[-1]["ts"] + slows[-1]["dur"]) < 50000,
          "last: it reaches the kill (last slow() ends %.0f us before)" % (end_us - slows[-1]["ts"] - slows[-1]["dur"]))
    ticks = calls_named(trace, "tick")
    check(len(ticks) > 0 and all(t["ts"] >= slows[0]["ts"] - 2000 for t in ticks),
          "last: the ticks kept are the recent ones (%d)" % len(ticks))
    check("the most recent from" in th["note"], "last: note %r" % th["note"])
    unfinished = [ev for ev in trace["traceEvents"] if ev.get("ph") == "X" and ev["name"] == "main"]
    eq(unfinished, [], "last: main, entered before the kept part and never left, is not drawn")

    # last, threads that start one after another: each takes its share of the budget when it
    # starts, so the later ones take the oldest blocks of those that ended (without that, the
    # fourth and later threads kept nothing: "timeline buffer full")
    with open(os.path.join(w.path, "exaloop.toml"), "w") as f:
        f.write('[targets.seq]\nsource = "%s"\nbuild_args = ["-O2", "-lpthread"]\nargs = ["%d", "%d"]\n'
                '[targets.seq.profile]\ntimeline = "last"\n' % (prog("s-sequential.c"), SEQ_CALLS, SEQ_THREADS))
    p = w.run(["--profile", "--no-open", "--target", "seq", "run"])
    eq(p.stdout, "steps %d\n" % (SEQ_CALLS * (SEQ_THREADS + 1)), "sequential: the program's own counter")
    s = w.summary()
    eq(s.calls("step"), SEQ_CALLS * (SEQ_THREADS + 1), "sequential: every call in the call tree")
    eq(s.warning("timeline_full"), None, "sequential: no timeline-full warning")
    ths = s.doc["threads"]
    eq(len(ths), SEQ_THREADS + 1, "sequential: main and %d threads" % SEQ_THREADS)
    check(all(t["timeline_events"] > 0 and t["dropped_events"] == 0 for t in ths),
          "sequential: every thread keeps calls, none dropped: %s" %
          [(t["timeline_events"], t["dropped_events"]) for t in ths])
    last_t = max(ths, key=lambda t: t["start_ns"])
    check(last_t["timeline_events"] >= 100000 and "the most recent from" in last_t["timeline"]["note"],
          "sequential: the last thread keeps its most recent calls (%d events of %d; %s)" %
          (last_t["timeline_events"], 2 * SEQ_CALLS, last_t["timeline"]["note"]))
    trace = export_chrome(w, w.latest())
    tids = {e["tid"] for e in trace["traceEvents"] if e.get("ph") == "X" and e["name"] == "step"}
    eq(len(tids), SEQ_THREADS + 1, "sequential: step() calls of every thread in the Chrome export")
done()
