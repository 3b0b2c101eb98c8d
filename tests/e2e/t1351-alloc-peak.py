"""Peak live bytes per call path: exact figures from a program whose
allocation lifetimes are known (tests/progs/s-allocpeak.c: its header comment
gives them): a peak later allocations do not reach again, a peak freed and
then exceeded, a leak, one function on two paths, two threads on one path.
The JSON summary's tree (alloc_peak, per thread), its functions (the largest
peak of one of their paths, path_peak_bytes), the schema, the text report's
"path peak" column, and the HTML report's embedded tree (compact: alloc_peak
follows alloc_at)."""
import json
import re

from xltest import *

SCHEMA = json.load(open(os.path.join(SRC, "docs", "summary.schema.json")))

# (allocs, bytes, live, peak) per path; a path two threads share has one entry per thread
PATHS = {
    ("main", "churn"): [(15, 15000, 0, 10000)],
    ("main", "sawtooth"): [(13, 13000, 0, 7000)],
    ("main", "leaker"): [(3, 1300, 800, 1000)],
    ("main", "one", "hold"): [(2, 2000, 0, 2000)],
    ("main", "two", "hold"): [(5, 5000, 0, 5000)],
    ("worker", "wchurn"): [(3, 3000, 0, 3000), (5, 5000, 0, 5000)],
}
# (allocs, bytes, live, path_peak_bytes) per function
FUNCS = {
    "churn": (15, 15000, 0, 10000),
    "sawtooth": (13, 13000, 0, 7000),
    "leaker": (3, 1300, 800, 1000),
    "hold": (7, 7000, 0, 5000),
    "wchurn": (8, 8000, 0, 5000),
}


def tree_paths(t, names):
    """{path: sorted [(allocs, bytes, live, peak)]} of the nodes that allocated, one per thread."""
    parent = t["parent"] if "parent" in t else [i - u if u else -1 for i, u in enumerate(t["parent_up"])]
    n = len(parent)
    if "alloc_at" in t:  # compact (the HTML report): the nodes that allocated, as distances
        at, i = [], 0
        for d in t["alloc_at"]:
            i += d
            at.append(i)
    else:
        at = list(range(n))
    cols = [dict(zip(at, t[c])) for c in ("alloc_calls", "alloc_bytes", "alloc_live", "alloc_peak")]
    out, path = {}, {}
    for i in range(n):
        path[i] = () if parent[i] < 0 else path[parent[i]] + (names[t["func"][i]],)
        a = tuple(c.get(i, 0) for c in cols)
        if a[0]:
            out.setdefault(path[i], []).append(a)
    return {p: sorted(v) for p, v in out.items()}


def tree_threads(t):
    """Each node's thread: the column, or the compact form's runs ([thread, count, ...])."""
    if "thread" in t:
        return t["thread"]
    out, runs = [], t["thread_runs"]
    for k in range(0, len(runs), 2):
        out += [runs[k]] * runs[k + 1]
    return out


with Workdir() as w:
    for mode in ("-debug", "-release"):
        p = w.run(["--profile", "--no-open", "run", mode, "-lpthread", prog("s-allocpeak.c")])
        eq(p.returncode, 0, "s-allocpeak %s exit status" % mode)
        eq(p.stdout, "peak done\n", "s-allocpeak %s output" % mode)
        s = w.summary()
        eq(validate(s.doc, SCHEMA), [], "summary validates against the schema (%s)" % mode)
        names = [f["name"] for f in s.funcs]
        eq(tree_paths(s.tree, names), PATHS, "allocations, live and peak live bytes per path (%s)" % mode)
        got = {}
        for f in s.funcs:
            a = f["alloc"]
            if a["allocs"]:
                got[f["name"]] = (a["allocs"], a["bytes"], a["live_bytes"], a["path_peak_bytes"])
        eq(got, FUNCS, "per function: the largest peak of one of its paths (%s)" % mode)
        al = s.doc["allocations"]
        eq((al["total"]["allocs"], al["total"]["bytes"], al["total"]["live_bytes"]), (46, 44300, 800),
           "totals (%s)" % mode)
        check("peak_live_bytes" not in al["total"] and "path_peak_bytes" not in al["total"],
              "the run's totals carry no peak: paths' peaks do not add up")
        eq(al["not_attributed"]["allocs"], 0, "every allocation attributed (%s)" % mode)

        # The text report: the "path peak" column beside each function that allocated.
        text = w.run(["profile", "report", w.latest(), "--text", "--sort", "alloc"])
        eq(text.returncode, 0, "report --text --sort alloc (%s)" % mode)
        head, _, body = text.stdout.partition(" path peak  function\n")
        check(head.rstrip().endswith("live"), "text: a 'path peak' column after 'live'")
        rows = {}
        for r in body.split("\n\n")[0].splitlines():
            c = r.split()
            # allocs, bytes, freed, live, path peak: sizes are "<number> <unit>"
            rows[c[-1]] = " ".join(c[7:9])
        eq(rows, {"churn": "9.8 KiB", "sawtooth": "6.8 KiB", "wchurn": "4.9 KiB", "hold": "4.9 KiB",
                  "leaker": "1000 B"}, "text: each function's largest path peak (%s)" % mode)

        # The HTML report's embedded summary (compact tree): the same peaks per path.
        page = open(os.path.join(w.latest(), "index.html"), encoding="utf-8").read()
        m = re.search(r'<script type="application/json" id="xl-data">(.*?)</script>', page, re.S)
        check(m is not None, "the report embeds its summary")
        if m:
            doc = json.loads(m.group(1))
            check("parent_up" in doc["tree"] and "alloc_at" in doc["tree"], "the report's tree is compact")
            eq(tree_paths(doc["tree"], [f["name"] for f in doc["functions"]]), PATHS,
               "report: peak live bytes per path in the embedded tree (%s)" % mode)
            eq(tree_threads(doc["tree"]), s.tree["thread"],
               "report: the embedded tree's threads (column or runs) are the summary's (%s)" % mode)
done()
