"""The bundled example at its default size and settings, as ./scripts/setup.sh runs it: the timeline
(auto) spans the whole run, the first and last calls it kept within 1 % of the window's start and
end, with no "timeline buffer full" warning and no other warning (a loaded machine may miss memory
samples); the timeline note says the threshold that was reached; the call tree still counts every
call (the program's own loops: one loan_expected_loss per loan per scenario); the capture file is no
larger than the buffer."""
from xltest import *

LOANS, SCENARIOS = 250000, 96   # loans.c's defaults

with Workdir() as w:
    csv = os.path.join(w.path, "out.csv")
    p = w.run(["--profile", "--no-open", "run", "-release", "-lgc", "-lm",
               os.path.join(SRC, "examples", "loans", "loans.c"), csv], timeout=600)
    eq(p.returncode, 0, "exit status")
    check("loans: %d\nscenarios: %d\n" % (LOANS, SCENARIOS) in p.stdout, "the default size: " + p.stdout[:40])
    s = w.summary()
    eq(s.calls("loan_expected_loss"), LOANS * SCENARIOS, "every call in the call tree")
    # (memory samples missed: a sampler that could not run on time on a loaded machine, not the timeline)
    eq([x["kind"] for x in s.doc["warnings"] if x["kind"] != "memory_samples_missed"], [], "no warning")
    eq(s.warning("timeline_full"), None, "no timeline-full warning")
    eq(s.doc["totals"]["dropped_events"], 0, "nothing dropped from the timeline")
    th = s.doc["threads"][0]["timeline"]
    note = [n for n in s.doc["notes"] if n["kind"] == "timeline"]
    eq(len(note), 1, "one timeline note")
    text = note[0]["message"] if note else ""
    check(th["threshold_ns"] > 0 and ("calls ≥ " in text), "the note says the threshold: " + text)
    check("%d ns" % th["threshold_ns"] in text or "%.1f us" % (th["threshold_ns"] / 1000) in text,
          "the note's threshold is the thread's (%d ns): %s" % (th["threshold_ns"], text))

    cap = w.latest()
    size = os.path.getsize(os.path.join(cap, "capture.xlc"))
    buffer = s.doc["run"]["settings"]["buffer_size"]
    check(size <= buffer + 12288, "capture file within the buffer (%d bytes of %d)" % (size, buffer))

    out = os.path.join(w.path, "trace.json")
    p = w.run(["profile", "export", cap, "--format", "chrome", "-o", out])
    eq(p.returncode, 0, "chrome export")
    with open(out) as f:
        ev = [e for e in json.load(f)["traceEvents"] if e.get("ph") == "X"]
    # every kept call, and enough of them to show the run (about 90,000: the calls of >= 0.4 us)
    eq(len(ev), s.doc["threads"][0]["timeline_events"] // 2, "every kept call in the export")
    check(len(ev) > 50000, "%d calls in the timeline" % len(ev))
    win = s.doc["run"]["window"]
    span = (win["end_ns"] - win["start_ns"]) / 1000.0
    first = min(e["ts"] for e in ev) - win["start_ns"] / 1000.0
    last = win["end_ns"] / 1000.0 - max(e["ts"] + e["dur"] for e in ev)
    check(0 <= first < 0.01 * span and 0 <= last < 0.01 * span,
          "the timeline spans the window: first call %.0f us after its start, last ends %.0f us before its end, "
          "of %.0f us" % (first, last, span))
done()
