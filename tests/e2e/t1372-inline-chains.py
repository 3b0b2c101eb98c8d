"""Inline chains: an instruction sample in code inlined at several levels, or inlined into a C++
function inside a namespace, counts at the line of the traced function that made the outermost
inlined call, with the whole chain, outermost first (docs/summary-json.md, "Samples").

- s-inline.c: host calls outer (always_inline), which calls inner (always_inline); inner's loop,
  outer's own loop and host's own loop do equal work.  samples.json gives every address of host
  in inlined code host's call line and the chain [outer] or [outer, inner], never a line of
  outer's or inner's own; functions[].lines has two thirds of host's samples at that line (within
  7 points), with the chains "outer" and "outer > inner"; functions[].inlined has outer at two
  thirds and inner at one; tree.sampled nests inner under outer under main > host.
- s-inlinexx.cc: app::run (in a namespace) gets a class member inlined, itself inlining a function
  template of a nested namespace; app::with_lambda an inlined lambda: half of each function's
  samples at its call line, with the chain in full; tree.sampled nests the template under the
  member under main > app::run.
"""
import json

from xltest import *


def chains(f, line):
    """{chain: samples} of one of f's lines."""
    return {c["name"]: c["samples"] for l in f["lines"] if l["line"] == line for c in l.get("inlined", [])}


def inlined(f, name):
    return 100.0 * sum(x["samples"] for x in f["inlined"] if x["name"] == name) / max(f["samples"], 1)


def sampled_nests(s, path):
    """The inlined sampled frames under the node of path, as {(name, ...outermost first): samples}."""
    n, sf, nodes = s.node(path), s.tree.get("sampled") or {}, len(s.tree["parent"])
    out = {}
    for k in range(len(sf.get("parent", []))):
        chain, p = [sf["name"][k]], sf["parent"][k]
        while p >= nodes:
            chain.insert(0, sf["name"][p - nodes])
            p = sf["parent"][p - nodes]
        if n is not None and p == n and sf["kind"][k] == "inlined":
            out[tuple(chain)] = sf["samples"][k]
    return out


def ips_of(cap, symbol):
    doc = json.load(open(os.path.join(cap, "samples.json")))
    return [x for x in doc["ips"] if x.get("symbol") == symbol and x.get("func")]


INL = prog("s-inline.c")
CALL, HOST, INNER, OUTER_CALL, OUTER = (line_of(INL, "/* LINE_%s */" % x)
                                        for x in ("CALL", "HOST", "INNER", "OUTER_CALL", "OUTER"))
XX = prog("s-inlinexx.cc")
RUN_CALL, RUN, MIX, STEP_LINE, LAMBDA_CALL, WITH, LAMBDA = (
    line_of(XX, "/* LINE_%s */" % x) for x in ("RUN_CALL", "RUN", "MIX", "STEP", "LAMBDA_CALL", "WITH", "LAMBDA"))
STEP = "app::Engine::step(long)"
MIXT = "unsigned long app::detail::mix<unsigned long>(unsigned long, long)"

with Workdir() as w:
    # 1. nested inlining in C.  3 x 100M steps at 5 kHz: some 3,000 samples of host here, a share
    # good to about a point
    p = w.run(["--no-open", "--sample-rate", "5000", "--profile", "run", "-release", INL, "100000000"])
    eq(p.returncode, 0, "s-inline runs")
    cap = w.latest()
    s = w.summary(cap)
    host = s.func("host")
    check(host is not None and host["samples"] >= 600, "enough samples of host: %r" % (host and host["samples"]))
    host = host or {"samples": 0, "lines": [], "inlined": []}
    ips = ips_of(cap, "host")
    inl = [x for x in ips if x.get("inline")]
    check(inl and all(x.get("line") == CALL for x in inl),
          "samples.json: host's addresses in inlined code are at its call line %d: %r"
          % (CALL, sorted(set(x.get("line") for x in inl))))
    eq(sorted(set(tuple(x["inline"]) for x in inl)), [("outer",), ("outer", "inner")],
       "samples.json: their chains, outermost first")
    check(not any(x.get("line") in (INNER, OUTER_CALL, OUTER) for x in ips),
          "samples.json: no address of host at a line of outer's or inner's own")
    sc, sh = line_share(host, CALL), line_share(host, HOST)
    check(abs(sc - 200 / 3.0) <= 7 and abs(sh - 100 / 3.0) <= 7,
          "host: its call line %.1f%% (66.7), its own loop %.1f%% (33.3)" % (sc, sh))
    ch = chains(host, CALL)
    check(set(ch) == {"outer", "outer > inner"} and abs(100.0 * ch["outer > inner"] / max(host["samples"], 1) - 100 / 3.0) <= 7,
          "host's call line: the chains outer and outer > inner (a third of host's samples): %r" % ch)
    io, ii = inlined(host, "outer"), inlined(host, "inner")
    check(abs(io - 200 / 3.0) <= 7 and abs(ii - 100 / 3.0) <= 7,
          "host: outer inlined with %.1f%% of its samples (66.7), inner %.1f%% (33.3): %r" % (io, ii, host["inlined"]))
    nests = sampled_nests(s, ("main", "host"))
    check(set(nests) == {("outer",), ("outer", "inner")} and nests[("outer", "inner")] == ch.get("outer > inner"),
          "tree.sampled: inner under outer under main > host, with the chain's samples: %r" % nests)

    # 2. C++: functions in a namespace, a member, a template and a lambda inlined into them
    p = w.run(["--no-open", "--sample-rate", "5000", "--profile", "run", "-release", XX, "100000000"])
    eq(p.returncode, 0, "s-inlinexx runs")
    cap = w.latest()
    s = w.summary(cap)
    run, lam = s.func("app::run(long)"), s.func("app::with_lambda(long)")
    check(run and lam and run["samples"] >= 400 and lam["samples"] >= 400,
          "enough samples: %r" % [(f["name"], f["samples"]) for f in s.funcs])
    empty = {"samples": 0, "lines": [], "inlined": []}
    run, lam = run or empty, lam or empty
    sc, sr = line_share(run, RUN_CALL), line_share(run, RUN)
    check(abs(sc - 50) <= 7 and abs(sr - 50) <= 7, "app::run: its call line %.1f%% (50), its own loop %.1f%% (50)"
          % (sc, sr))
    eq(list(chains(run, RUN_CALL)), [STEP + " > " + MIXT], "app::run's call line: the chain in full")
    eq(sorted(x["name"] for x in run["inlined"]), sorted([STEP, MIXT]), "app::run: the member and the template inlined")
    check(not any(x.get("line") in (MIX, STEP_LINE) for x in ips_of(cap, "app::run(long)")),
          "samples.json: no address of app::run at a line of mix's or step's")
    eq(sorted(sampled_nests(s, ("main", "app::run(long)"))), [(STEP,), (STEP, MIXT)],
       "tree.sampled: the template under the member under main > app::run")
    sc, sw = line_share(lam, LAMBDA_CALL), line_share(lam, WITH)
    check(abs(sc - 50) <= 7 and abs(sw - 50) <= 7,
          "app::with_lambda: its call line %.1f%% (50), its own loop %.1f%% (50)" % (sc, sw))
    lc = list(chains(lam, LAMBDA_CALL))
    check(len(lc) == 1 and lc[0].startswith("app::with_lambda(long)::") and "operator()" in lc[0] and " > " not in lc[0],
          "app::with_lambda's call line: the lambda's operator() inlined: %r" % lc)
    check(not any(x.get("line") == LAMBDA for x in ips_of(cap, "app::with_lambda(long)")),
          "samples.json: no address of app::with_lambda at the lambda's own line")
done()
