"""Exact timing names the functions whose self times its own cost per call makes uncertain.

bench/callers.c: many() calls unit() 2,000,000 times (5 steps of work each), in_place() does the same
work in one loop.  Each traced call costs the measured ns per call, partly in unit()'s time and partly in
many()'s, so both are named, with (calls to it + calls it makes) x that cost; in_place() (one call) and
main are not.  Programs whose calls are long (s-ratio) and --timing=sampled get no such note."""
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
    eq(w.run(["--profile", "--no-open", "run", "-release", CALLER, str(CALLS), "5"]).returncode, 0, "callers: run")
    s = w.summary()
    eq((s.calls("unit"), s.calls("many"), s.calls("in_place")), (CALLS, 1, 1), "callers: the program's own counts")
    n = s.note("call_cost")
    check(n is not None and n["topic"] == "run", "call-dense functions: a note in the run's topic")
    b = bounds(n) if n else {}
    check("unit" in b and "many" in b, "the callee and its caller are named: %r" % sorted(b))
    check("in_place" not in b and "main" not in b, "the same work without calls is not: %r" % sorted(b))
    per_call = s.doc["overhead"]["ns_per_call"]
    for name in ("unit", "many"):
        if name in b:
            want = CALLS * per_call  # unit: its 2,000,000 calls; many: the 2,000,000 it makes (and its own 1)
            check(abs(b[name][0] - want) <= 0.002 * want + 1e5,
                  "%s: bound is its calls and the calls it makes times %.1f ns (%.0f, want %.0f)" % (name, per_call,
                                                                                                   b[name][0], want))
            eq(abs(b[name][1] - s.func(name)["self_ns"]) <= 0.002 * s.func(name)["self_ns"] + 1e5, True,
               "%s: beside its self time" % name)
    check("--timing=sampled" in (n or {}).get("message", ""), "the note says what to use instead")
    text = w.run(["profile", "report", w.latest(), "--text"]).stdout
    check("self times of call-dense functions are uncertain" in text, "the text report shows it")

    eq(w.run(["--profile", "--no-open", "--timing=sampled", "run", "-release", CALLER, str(CALLS), "5"]).returncode,
       0, "callers, sampled timing: run")
    eq(w.summary().note("call_cost"), None, "sampled timing reads no clock per call: no note")

    eq(w.run(["--profile", "--no-open", "run", "-release", prog("s-ratio.c"), "40", "200000"]).returncode, 0,
       "s-ratio: run")
    eq(w.summary().note("call_cost"), None, "long calls: no note")
done()
