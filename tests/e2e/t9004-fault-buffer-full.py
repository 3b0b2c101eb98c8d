"""Faults: the capture buffer runs out, for the timeline and for the call trees.

The CLI always asks for a 64 MiB buffer, so the program is driven directly with the
environment exaloop sets (src/cli/session.c), a 1 MiB buffer and the timeline mode "first"
(the one whose timeline stops when its budget is spent), then reported with
`exaloop profile report DIR --json`.

- Timeline full (s-fib 22: 114,624 events): the timeline stops, the call tree stays
  complete (fib = 2*F(23)-1 = 57,313 calls), the warning says when the timeline stopped,
  and the Chrome export says it was truncated.
- Call-tree space full (s-paths 8: 87,380 distinct call paths): the tree is bounded, paths
  first seen after that go to "(more call paths)" nodes below their callers, so the calls in
  the tree = calls made, the function table is exact, and the warning says how many calls
  went to such nodes.
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
               EXALOOP_DELAY_NS="0", EXALOOP_DURATION_NS="0", EXALOOP_TIMELINE="first")
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

    # Call-tree space full: the tree is bounded, no call is lost.  s-paths' logic gives the
    # counts: every path below main entered once, a..d each 21,845 times.
    p, cap = drive(w, paths, ["8"], "nodes")
    eq((p.returncode, p.stdout), (0, "depth=8 paths=87380 calls=87380\n"), "nodes: the program ran normally")
    r = report(cap, "--json")
    eq(r.returncode, 0, "nodes: report --json")
    doc = json.loads(r.stdout)
    s = Summary(doc)
    check(s.warning("nodes_full") is None, "nodes: no call lost (no nodes_full warning)")
    for f in ("a", "b", "c", "d"):
        eq(s.calls(f), 21845, "nodes: function table exact for %s" % f)
    eq(s.calls("main"), 1, "nodes: main recorded")
    names = [f["name"] for f in doc["functions"]]
    more = [i for i, f in enumerate(doc["functions"]) if f.get("more")]
    eq(len(more), 1, "nodes: one \"(more call paths)\" entry in functions[]")
    eq(names[more[0]] if more else None, "(more call paths)", "nodes: its name")
    tree = doc["tree"]
    in_more = sum(c for c, f in zip(tree["calls"], tree["func"]) if f in more)
    in_tree = sum(c for c, par in zip(tree["calls"], tree["parent"]) if par >= 0)
    eq(in_tree, 87380 + 1, "nodes: calls in the tree (with \"(more call paths)\") = calls made + main")
    check(0 < in_more < 87380, "nodes: part of the calls in \"(more call paths)\" nodes (%d)" % in_more)
    eq(doc["totals"]["more_calls"], in_more, "nodes: totals.more_calls")
    eq(doc["threads"][0]["more_calls"], in_more, "nodes: the thread's more_calls")
    eq(doc["threads"][0]["nodeless_calls"], 0, "nodes: every call has a node")
    check(doc["threads"][0]["tree_bounded"], "nodes: the thread's tree is bounded")
    bw = s.warning("tree_bounded")
    check(bw is not None and ("%d calls on call paths first seen after that" % in_more) in bw["message"]
          and "the function table counts every call" in bw["message"], "nodes: tree_bounded warning with the count")
    # Every path's time is kept: the root's total is the sum of the tree's self times.
    root = tree["parent"].index(-1)
    selfsum = sum(x for x, par in zip(tree["self_ns"], tree["parent"]) if par >= 0)
    check(abs(selfsum + tree["self_ns"][root] - tree["total_ns"][root]) <= len(tree["parent"]),
          "nodes: self times add up to the thread's total")
    t = report(cap, "--text")
    check(t.returncode == 0 and "(more call paths)" in t.stdout and "(more call paths)  " not in t.stdout,
          "nodes: text report: the warning names the nodes, the function table has no such row")
    folded = subprocess.run([EXALOOP, "profile", "export", cap, "--format", "folded"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, timeout=300)
    check(folded.returncode == 0 and ";(more call paths) " in folded.stdout, "nodes: folded stacks show the node")
    tw = s.warning("timeline_full")
    check(tw is None or "call tree and function table are complete" not in tw["message"],
          "nodes: the timeline warning does not claim a complete call tree")

    # The same programs with the default 64 MiB buffer: nothing lost
    p, cap = drive(w, paths, ["8"], "nodes-64m", 64 << 20)
    s = Summary(json.loads(report(cap, "--json").stdout))
    eq(sum(s.calls(f) for f in ("a", "b", "c", "d")), 87380, "64 MiB: every call recorded")
    check(s.warning("nodes_full") is None, "64 MiB: no call-tree warning")
done()
