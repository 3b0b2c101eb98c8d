"""Calls still open when the program is killed are in the timeline (capture format 7).

The runtime stores a call's ENTRY record only when the call is kept, with its EXIT (docs/
capture-format.md, tl_written): frames that entered and never left have no record, and the
reader shows them from the thread's stack. s-open is SIGKILLed inside main > outer > inner:
- fresh: nothing ended, nothing stored; the Chrome export still has main, outer and inner,
  each once, unfinished, nested in order;
- kept: 20 kept() calls of 2 ms ended inside outer first (storing main's and outer's ENTRY
  records before theirs); the three open calls appear once each (no duplicate of a stored
  entry), the 20 kept() calls complete and inside outer, inner after the last of them.
"""
import signal
import time

from xltest import *


def run_killed(w, mode):
    x = subprocess.Popen([EXALOOP, "--profile", "--no-open", "run", prog("s-open.c"), mode], cwd=w.path,
                         env=dict(os.environ, CI="1"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    eq(x.stdout.readline(), "ready\n", mode + ": the program reached inner()")
    time.sleep(0.5)
    kids = children(x.pid)
    eq(len(kids), 1, mode + ": one program process")
    for k in kids:
        os.kill(k, signal.SIGKILL)
    out, err = x.communicate(timeout=120)
    sys.stdout.write(err)
    eq(x.returncode, 128 + signal.SIGKILL, mode + ": exit status 137")
    cap = w.latest()
    trace_path = os.path.join(w.path, mode + ".json")
    p = subprocess.run([EXALOOP, "profile", "export", cap, "--format", "chrome", "-o", trace_path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    eq(p.returncode, 0, mode + ": chrome export")
    with open(trace_path) as f:
        trace = json.load(f)
    return [e for e in trace["traceEvents"] if e.get("ph") == "X"]


def named(events, name):
    return sorted((e for e in events if e["name"] == name), key=lambda e: e["ts"])


with Workdir() as w:
    for mode in ("fresh", "kept"):
        ev = run_killed(w, mode)
        opened = {}
        for name in ("main", "outer", "inner"):
            calls = named(ev, name)
            eq(len(calls), 1, "%s: %s once in the timeline" % (mode, name))
            if calls:
                opened[name] = calls[0]
                check(calls[0].get("args", {}).get("unfinished"), "%s: %s unfinished" % (mode, name))
        if len(opened) == 3:
            m, o, i = opened["main"], opened["outer"], opened["inner"]
            check(m["ts"] <= o["ts"] <= i["ts"], "%s: entered in order main, outer, inner (%s)" %
                  (mode, [m["ts"], o["ts"], i["ts"]]))
            check(i["ts"] + i["dur"] <= o["ts"] + o["dur"] + 1 and o["ts"] + o["dur"] <= m["ts"] + m["dur"] + 1,
                  "%s: nested" % mode)
            # closed at the last time the capture saw (the memory samples, every 100 ms; a loaded
            # machine may starve it), not at its own entry
            check(i["dur"] >= 100000, "%s: inner open until near the kill, 0.5 s later (%.0f us)" % (mode, i["dur"]))
        kept = named(ev, "kept")
        if mode == "fresh":
            eq(len(kept), 0, "fresh: no kept() call")
            continue
        eq(len(kept), 20, "kept: 20 kept() calls in the timeline")
        check(all(not k.get("args", {}).get("unfinished") and k["dur"] >= 1900 for k in kept),
              "kept: every kept() call complete, 2 ms long")
        if len(opened) == 3 and kept:
            check(kept[0]["ts"] >= opened["outer"]["ts"] and kept[-1]["ts"] + kept[-1]["dur"] <= opened["inner"]["ts"],
                  "kept: the kept() calls inside outer, before inner")
done()
