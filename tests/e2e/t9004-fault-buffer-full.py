"""Faults: the capture buffer runs out, for the timeline and for the call trees.

The CLI always asks for a 64 MiB buffer, so the program is driven directly with the
environment exaloop sets (src/cli/session.c) and a 1 MiB buffer, then reported with
`exaloop profile report DIR --json`.

- Timeline full (s-fib 22: 114,624 events): the timeline stops, the call tree stays
  complete (fib = 2*F(23)-1 = 57,313 calls), the warning says when the timeline stopped,
  and the Chrome export says it was truncated.
- Call-tree space full (s-paths 8: 87,380 distinct call paths): the calls that found no
  node are counted, so recorded calls + lost calls = calls made, and the warning says so.
"""
import re

from xltest import *


def drive(w, app, args, name, buffer_size=1 << 20):
    """Run app with the capture environment; returns (CompletedProcess, capture dir)."""
    cap = os.path.join(w.path, name)
    os.makedirs(cap)
    shutil.copy(app + ".symbols.json", os.path.join(cap, "symbols.json"))
    env = dict(os.environ, EXALOOP_CAPTURE_DIR=cap, EXALOOP_CAPTURE_MODE="all",
               EXALOOP_BUFFER_SIZE=str(buffer_size), EXALOOP_MEMORY_INTERVAL_NS="10000000",
               EXALOOP_DELAY_NS="0", EXALOOP_DURATION_NS="0")
    p = subprocess.run(["sh", "-c", 'EXALOOP_CAPTURE_PID=$$ exec "$0" "$@"', app] + list(args), cwd=w.path,
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    sys.stdout.write("$ %s %s -> %d\n%s" % (app, " ".join(args), p.returncode, p.stderr))
    return p, cap


def report(cap, *extra):
    return subprocess.run([EXALOOP, "profile", "report", cap] + list(extra), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=300)


with Workdir() as w:
    fib = os.path.join(w.path, "fib")
    paths = os.path.join(w.path, "paths")
    eq(w.run(["--profile", "build", prog("s-fib.c"), "-o", fib]).returncode, 0, "build s-fib")
    eq(w.run(["--profile", "build", prog("s-paths.c"), "-o", paths]).returncode, 0, "build s-paths")

    # Timeline full, call tree complete
    p, cap = drive(w, fib, ["22"], "timeline")
    eq((p.returncode, p.stdout), (0, "fib(22) = 17711\n"), "timeline: the program ran normally")
    eq(p.stderr, "", "timeline: the runtime printed nothing")
    r = report(cap, "--json")
    eq(r.returncode, 0, "timeline: report --json")
    s = Summary(json.loads(r.stdout))
    eq(s.calls("fib"), 57313, "timeline: fib calls complete (2*F(23)-1)")
    tw = s.warning("timeline_full")
    check(tw is not None and "dropped" in tw["message"] and tw["from_ns"] >= 0,
          "timeline: warning with the time the timeline stopped")
    check(tw is not None and "call tree and function table are complete" in tw["message"],
          "timeline: warning says the call tree is complete")
    check(s.warning("nodes_full") is None, "timeline: no call-tree warning")
    c = subprocess.run([EXALOOP, "profile", "export", cap, "--format", "chrome"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=300)
    eq(c.returncode, 0, "timeline: chrome export")
    other = json.loads(c.stdout)["otherData"]
    check(other["timeline_truncated"] and other["dropped_events"] > 0, "timeline: chrome export says truncated")
    t = report(cap, "--text")
    check(t.returncode == 0 and "timeline buffer full" in t.stdout, "timeline: text report shows the warning")

    # Call-tree space full
    p, cap = drive(w, paths, ["8"], "nodes")
    eq((p.returncode, p.stdout), (0, "depth=8 paths=87380 calls=87380\n"), "nodes: the program ran normally")
    r = report(cap, "--json")
    eq(r.returncode, 0, "nodes: report --json")
    s = Summary(json.loads(r.stdout))
    nw = s.warning("nodes_full")
    check(nw is not None, "nodes: call-tree warning")
    lost = int(re.search(r"(\d+) events could not be placed", nw["message"]).group(1)) if nw else -1
    recorded = sum(s.calls(f) for f in ("a", "b", "c", "d"))
    check(0 < recorded < 87380, "nodes: part of the calls recorded (%d)" % recorded)
    eq(recorded + lost, 87380, "nodes: recorded + lost calls = calls made")
    eq(s.calls("main"), 1, "nodes: main recorded")
    tw = s.warning("timeline_full")
    check(tw is None or "call tree and function table are complete" not in tw["message"],
          "nodes: the timeline warning does not claim a complete call tree")

    # The same programs with the default 64 MiB buffer: nothing lost
    p, cap = drive(w, paths, ["8"], "nodes-64m", 64 << 20)
    s = Summary(json.loads(report(cap, "--json").stdout))
    eq(sum(s.calls(f) for f in ("a", "b", "c", "d")), 87380, "64 MiB: every call recorded")
    check(s.warning("nodes_full") is None, "64 MiB: no call-tree warning")
done()
