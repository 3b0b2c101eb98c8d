"""Exports: Chrome trace (strict nesting, names, counters, GC instants, truncation), folded stacks
(re-summed to the totals), JSON (schema) and text (golden, times normalised)."""
from xltest import *
import re

SCHEMA = json.load(open(os.path.join(SRC, "docs", "summary.schema.json")))


def export(w, fmt, extra=()):
    out = os.path.join(w.path, "out." + fmt)
    p = w.run(["profile", "export", w.latest(), "--format", fmt, "-o", out] + list(extra))
    eq(p.returncode, 0, "export --format " + fmt)
    return open(out, encoding="utf-8").read()


def check_chrome(trace, what):
    evs = trace["traceEvents"]
    xs = [e for e in evs if e["ph"] == "X"]
    check(len(xs) > 0, what + ": complete events present")
    by_tid = {}
    for e in xs:
        by_tid.setdefault(e["tid"], []).append(e)
    nested = True
    for tid, es in by_tid.items():
        es.sort(key=lambda e: (e["ts"], -e["dur"]))
        stack = []
        for e in es:
            while stack and e["ts"] >= stack[-1]["ts"] + stack[-1]["dur"] - 1e-3:
                stack.pop()
            if stack and e["ts"] + e["dur"] > stack[-1]["ts"] + stack[-1]["dur"] + 1e-3:
                nested = False
            stack.append(e)
    check(nested, what + ": events strictly nested per thread")
    names = {e["tid"]: e["args"]["name"] for e in evs if e["ph"] == "M" and e["name"] == "thread_name"}
    check(all(t in names for t in by_tid), what + ": every thread named")
    check(any(e["ph"] == "M" and e["name"] == "process_name" for e in evs), what + ": process named")
    return xs


with Workdir() as w:
    # two parents, debug: known structure for golden text and exact chrome events
    p = w.run(["--profile", "--no-open", "run", prog("s-two-parents.c")])
    trace = json.loads(export(w, "chrome"))
    xs = check_chrome(trace, "two-parents")
    eq(sorted((e["name"]) for e in xs),
       sorted(["main", "alpha", "beta"] + ["leaf"] * 8), "two-parents: one complete event per call")
    check(trace["otherData"]["timeline_truncated"] is False, "two-parents: timeline complete")
    eq(trace["otherData"]["timing"], "exact", "two-parents: the run's timing")
    pid = w.summary().doc["run"]["process"]["pid"]
    eq(sorted({e["pid"] for e in trace["traceEvents"] if "pid" in e}), [pid], "two-parents: the process's own pid")
    # compact events: where a function is defined is said once, in otherData.functions
    fns = trace["otherData"]["functions"]
    byname = {f["name"]: f for f in fns}
    check(all(e["name"] in byname for e in xs), "two-parents: every event's name is in otherData.functions")
    check(byname["leaf"]["file"].endswith("s-two-parents.c") and byname["leaf"]["line"] > 0,
          "two-parents: functions table gives leaf's file and line")
    check(not any("file" in e.get("args", {}) or "cat" in e for e in xs), "two-parents: no file or category per event")

    folded = export(w, "folded")
    s = w.summary()
    total = sum(int(l.rsplit(" ", 1)[1]) for l in folded.splitlines())
    eq(total, sum(t["total_ns"] for t in s.doc["threads"]), "folded stacks re-sum to the threads' total time")
    check(any(l.startswith("main;alpha;leaf ") for l in folded.splitlines()), "folded has main;alpha;leaf")
    check(any(l.startswith("main;beta;leaf ") for l in folded.splitlines()), "folded has main;beta;leaf")

    doc = json.loads(export(w, "json"))
    errs = validate(doc, SCHEMA)
    eq(errs, [], "JSON summary validates against docs/summary.schema.json")

    text = export(w, "text", ["--sort", "calls"])
    norm = re.sub(r"-?\d+(\.\d+)? (ns|us|ms|s)\b", "T", text)
    norm = re.sub(r"\d+\.\d%", "P%", norm)
    norm = re.sub(r"\d+(\.\d+)? (B|KiB|MiB|GiB)", "M", norm)
    norm = re.sub(r"/\S*/(s-two-parents\.c)", r"\1", norm)
    norm = re.sub(r"command: .*", "command: X", norm)
    norm = re.sub(r"process \d+ \(parent \d+\)", "process P (parent P)", norm)
    norm = re.sub(r"\d+ events", "N events", norm)
    norm = re.sub(r"about \d+ ns per traced call \((measured|typical)\), \d+ calls: roughly T?[\d.]+%", "OVERHEAD", norm)
    norm = re.sub(r"roughly P%", "OVERHEAD", norm)
    # the runtime measures its cost per call where it can (TSC clock): "measured", else "typical"
    norm = re.sub(r"per traced call \((measured|typical)\)", "per traced call (K)", norm)
    norm = re.sub(r"M \(max M\)", "M", norm)
    norm = re.sub(r"[ ]+", " ", norm)   # column widths follow the values
    golden = os.path.join(SRC, "tests", "golden", "text", "two-parents.txt")
    if os.environ.get("XL_UPDATE_GOLDEN"):
        open(golden, "w").write(norm)
    eq(norm, open(golden).read(), "text report matches tests/golden/text/two-parents.txt")

    # golden files for the other emitters, times normalised
    def golden_check(name, content):
        path = os.path.join(SRC, "tests", "golden", name)
        if os.environ.get("XL_UPDATE_GOLDEN"):
            os.makedirs(os.path.dirname(path), exist_ok=True)
            open(path, "w").write(content)
        eq(content, open(path).read(), "matches tests/golden/" + name)

    golden_check("folded/two-parents.txt",
                 "".join(sorted(re.sub(r" \d+$", " N", l) + "\n" for l in folded.splitlines())))
    jdoc = json.loads(export(w, "json"))
    shape = {
        "functions": sorted((f["name"], os.path.basename(f["file"] or ""), f["line"], f["calls"]) for f in jdoc["functions"]),
        "paths": sorted(["/".join(k) + " x%d" % v for k, v in Summary(jdoc).paths().items()]),
        "threads": [(t["index"], t["events"], t["timeline_events"], t["dropped_events"]) for t in jdoc["threads"]],
        "warnings": sorted(x["kind"] for x in jdoc["warnings"]),
        "notes": sorted((x["kind"], x["topic"]) for x in jdoc["notes"]),
        "run": {k: jdoc["run"][k] for k in ("exit_status", "signal", "mode", "finalized", "end_reason", "args")},
        "memory": sorted(k for k, v in jdoc["memory"]["summary"].items() if v["value"] is None),
    }
    golden_check("json/two-parents.json", json.dumps(shape, indent=1, sort_keys=True) + "\n")
    ctrace = json.loads(export(w, "chrome"))
    seq = [(e["ph"], e["name"]) for e in sorted((e for e in ctrace["traceEvents"] if e["ph"] in "XM"),
                                                key=lambda e: (e["ph"] != "M", e.get("ts", 0), -e.get("dur", 0)))]
    golden_check("chrome/two-parents.json", json.dumps(seq, indent=0) + "\n")
    # a name ending in .gz: the same trace, gzip-compressed
    gz = os.path.join(w.path, "trace.json.gz")
    eq(w.run(["profile", "export", w.latest(), "--format", "chrome", "-o", gz]).returncode, 0, "export to .json.gz")
    with open(gz, "rb") as f:
        eq(f.read(2), b"\x1f\x8b", ".json.gz: gzip magic")
    import gzip
    eq(json.loads(gzip.open(gz).read().decode("utf-8")), ctrace, ".json.gz: the same trace as the plain export")

    # GC program: counters per series and GC collections as instants
    # sample often so collections fall between samples even in a short run
    open(os.path.join(w.path, "exaloop.toml"), "w").write(
        '[targets.gc]\nsource = "%s"\nbuild_args = ["-lgc"]\nargs = ["30", "20000"]\n'
        '[targets.gc.profile]\nmemory_interval = "2ms"\n' % prog("s-gc.c"))
    w.run(["--profile", "--no-open", "--target", "gc", "run"])
    trace = json.loads(export(w, "chrome"))
    check_chrome(trace, "gc")
    counters = {e["name"] for e in trace["traceEvents"] if e["ph"] == "C"}
    check({"RSS", "GC heap", "GC free", "GC occupied estimate", "GC allocated"} <= counters, "counter series: %s" % counters)
    check(any(e["ph"] == "i" and e["name"] == "GC collection" for e in trace["traceEvents"]), "GC collections as instants")
    errs = validate(json.loads(export(w, "json")), SCHEMA)
    eq(errs, [], "gc JSON validates")

    # threads: one track per thread, nesting per thread
    w.run(["--profile", "--no-open", "run", prog("s-threads.c"), "200"])
    trace = json.loads(export(w, "chrome"))
    xs = check_chrome(trace, "threads")
    eq(len({e["tid"] for e in xs}), 9, "threads: 9 tracks")
    eq(sum(1 for e in xs if e["name"] == "work"), 1600, "threads: every work call in the trace")
    check(validate(json.loads(export(w, "json")), SCHEMA) == [], "threads JSON validates")

    # a truncated timeline says so; a crash's open frames are closed
    open(os.path.join(w.path, "exaloop.toml"), "w").write(
        '[targets.t]\nsource = "%s"\nargs = ["23"]\n[targets.t.profile]\nbuffer_size = "1MiB"\ntimeline = "first"\n' % prog("s-fib.c"))
    w.run(["--profile", "--no-open", "--target", "t", "run"])
    trace = json.loads(export(w, "chrome"))
    check_chrome(trace, "truncated")
    check(trace["otherData"]["timeline_truncated"] is True and trace["otherData"]["timeline_truncated_from_us"] > 0,
          "truncated timeline flagged with its time")
    # the HTML report keeps each thread's longest calls over its whole timeline: with room for 1,000 of
    # s-fib 20's 21,892 calls, exactly the calls at least min_dur_ns long (the Chrome export, which
    # writes every recorded call, is the oracle), callers with their callees
    w.run(["--profile", "--no-open", "run", prog("s-fib.c"), "20"])
    every = [e for e in json.loads(export(w, "chrome"))["traceEvents"] if e["ph"] == "X"]
    eq(len(every), 21892, "fib 20: every call in the Chrome export (main and 21,891 fib)")
    page = os.path.join(w.path, "thin.html")
    eq(w.run(["profile", "report", w.latest(), "--timeline-calls", "1000", "-o", page]).returncode, 0, "report --timeline-calls")
    data = re.search(r'<script type="application/json" id="xl-data">(.*?)</script>', open(page).read(), re.S)
    th = json.loads(data.group(1))["timeline"]["threads"][0]
    kept, floor = th["dur_ns"], th["min_dur_ns"]
    longer = sum(1 for e in every if round(e["dur"] * 1000) >= floor)
    check(0 < len(kept) <= 1000 and floor > 0, "fib 20: at most 1,000 calls kept, from %d ns (%d)" % (floor, len(kept)))
    eq((len(kept), th["recorded_calls"]), (longer, 21892), "fib 20: the report keeps exactly the calls >= min_dur_ns")
    starts, t = [], 0
    for g in th["start_gap_ns"]:
        t += g
        starts.append(t)
    depth = th["depth"]
    check(all((starts[k - 1], depth[k - 1]) <= (starts[k], depth[k]) for k in range(1, len(kept))),
          "fib 20: the kept calls by start, a caller before a callee entered at the same ns")
    check(all(depth[k] == depth[0] or any(depth[j] == depth[k] - 1 and starts[j] <= starts[k] and
                                            starts[k] + kept[k] <= starts[j] + kept[j] for j in range(k))
              for k in range(len(kept))), "fib 20: every kept call's caller is kept")
    eq(max(d for d in (round(e["dur"] * 1000) for e in every) if d < floor) + 1, floor,
       "fib 20: min_dur_ns is one more than the longest call left out")

    # two static functions named helper (one per file): their events say which one (args.fn)
    eq(w.run(["--profile", "--no-open", "run"] + same_name_helpers(w.path)).returncode, 0, "same names: run")
    trace = json.loads(export(w, "chrome"))
    fns = trace["otherData"]["functions"]
    per_file = {}
    for e in trace["traceEvents"]:
        if e["ph"] == "X" and e["name"] == "helper":
            f = fns[e["args"]["fn"]] if "fn" in e.get("args", {}) else {"file": "?"}
            per_file[os.path.basename(f["file"] or "?")] = per_file.get(os.path.basename(f["file"] or "?"), 0) + 1
    eq(per_file, {"same_a.c": 3, "same_b.c": 5}, "same names: each helper event names its function (args.fn)")
    check(not any("args" in e for e in trace["traceEvents"] if e["ph"] == "X" and e["name"] in ("main", "other")),
          "same names: unique names carry no args")

    w.run(["--profile", "--no-open", "run", prog("s-segv.c"), "50"])
    trace = json.loads(export(w, "chrome"))
    xs = check_chrome(trace, "segv")
    eq(sum(1 for e in xs if e["name"] == "work"), 50, "segv: calls up to the crash")
    check(any(e["name"] == "main" and e.get("args", {}).get("unfinished") for e in xs), "segv: main closed as unfinished")
    check(validate(json.loads(export(w, "json")), SCHEMA) == [], "segv JSON validates")
done()
