"""Exact timing names the functions whose self times its own cost per call makes uncertain.

bench/callers.c: many() calls unit() 2,000,000 times (one step of work each), in_place() does the same
work in one loop.  Each traced call costs the measured ns per call, partly in unit()'s time and partly in
many()'s, so unit() is named, with (calls to it + calls it makes) x that cost (many() too when the machine
is quiet); in_place() (one call) and main are not.  Programs whose calls are long (s-ratio) or few (s-two-parents: 11 calls, however short) and
--timing=sampled get no such note."""
import re

from xltest import *

CALLER = os.path.join(SRC, "bench", "callers.c")
CALLS = 2000000


def bounds(note):
    """{function: (bound, self)} as the message states them, in ns."""
    unit = {"ns": 1, "us": 1e3, "µs": 1e3, "ms": 1e6, "s": 1e9}
    out = {}
    for m in re.finditer(r"(\w+) ([\d.]+) (ns|us|µs|ms|s) of its ([\d.]+) (ns|us|µs|ms|s) self", note["message"]):
        out[m.group(1)] = (float(m.group(2)) * unit[m.group(3)], float(m.group(4)) * unit[m.group(5)])
    return out


with Workdir() as w:
    eq(w.run(["--profile", "--no-open", "run", "-release", CALLER, str(CALLS), "1"]).returncode, 0, "callers: run")
    s = w.summary()
    eq((s.calls("unit"), s.calls("many"), s.calls("in_place")), (CALLS, 1, 1), "callers: the program's own counts")
    n = s.note("call_cost")
    check(n is not None and n["topic"] == "run", "call-dense functions: a note in the run's topic")
    b = bounds(n) if n else {}
    # unit(): one step of work a call, its calls cost the profiler 1.5 to 2 times its self time (1.5 at a
    # load of 15 on a 2-core machine); many()'s own time is its loop and what the profiler leaves in the
    # caller, so whether it is named depends on the load: checked against the rule, as every function
    per_call = s.doc["overhead"]["ns_per_call"]
    check("unit" in b, "the call-dense callee is named: %r" % sorted(b))
    check("in_place" not in b and "main" not in b, "the same work without calls is not: %r" % sorted(b))
    fs = [f for f in s.funcs if not f.get("more")]
    every = sum(max(f["self_ns"], 0) for f in fs)
    made = {"unit": 0, "many": CALLS, "in_place": 0, "main": 2}  # bench/callers.c's header
    for f in fs:
        calls = f["calls"] + made.get(f["name"], 0)
        unc = f["self_ns"] > 0 and f["cost_bound_ns"] >= 0.5 * f["self_ns"] and calls >= 1000
        eq(f.get("cost_uncertain"), unc, "%s: uncertain exactly when its bound (%d) is half its self time (%d) or "
           "more, for 1,000 calls to and from it or more (%d)" % (f["name"], f["cost_bound_ns"], f["self_ns"], calls))
        eq(f["name"] in b, unc and f["self_ns"] >= 0.01 * every, "%s: named exactly when uncertain and 1 %% of the "
           "self time or more" % f["name"])
        check(abs(f["cost_bound_ns"] - calls * per_call) <= 1 + 1e-6 * calls * per_call,
              "%s: cost_bound_ns is (calls + calls it makes) x %.1f ns (%d)" % (f["name"], per_call, f["cost_bound_ns"]))
    for name in b:
        f = s.func(name)
        check(abs(b[name][0] - f["cost_bound_ns"]) <= 0.002 * f["cost_bound_ns"] + 1e5
              and abs(b[name][1] - f["self_ns"]) <= 0.002 * f["self_ns"] + 1e5,
              "%s: the note states its bound and self time (%r)" % (name, b[name]))
    check("--timing=sampled" in (n or {}).get("message", ""), "the note says what to use instead")
    text = w.run(["profile", "report", w.latest(), "--text"]).stdout
    check("self times of call-dense functions are uncertain" in text, "the text report shows it")

    eq(w.run(["--profile", "--no-open", "--timing=sampled", "run", "-release", CALLER, str(CALLS), "1"]).returncode,
       0, "callers, sampled timing: run")
    eq(w.summary().note("call_cost"), None, "sampled timing reads no clock per call: no note")
    eq([f["name"] for f in w.summary().funcs if "cost_bound_ns" in f or "cost_uncertain" in f], [],
       "sampled timing: no function has a bound or a verdict")

    eq(w.run(["--profile", "--no-open", "run", "-release", prog("s-ratio.c"), "40", "200000"]).returncode, 0,
       "s-ratio: run")
    eq(w.summary().note("call_cost"), None, "long calls: no note")

    eq(w.run(["--profile", "--no-open", "run", prog("s-two-parents.c")]).returncode, 0, "s-two-parents: run")
    eq(w.summary().note("call_cost"), None, "11 calls: no note, however short they are")
done()
