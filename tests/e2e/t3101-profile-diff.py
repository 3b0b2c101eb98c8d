"""profile diff: the same binary twice (changes near zero), a build whose hot() takes 3x as long
(hot ranks first, about +200 %, steady() about unchanged), a build where helper() was renamed (both
listed as one-sided), several runs per side (medians, ranges, significance), --normalize, --sort,
--top, --json against docs/diff.schema.json, --html, and bad input.

tests/progs/s-diff.c spends fixed durations (sleeps) and prints the elapsed time each function measured
itself.  Those figures are the oracle: the diff's medians and changes must match what the programs saw,
whatever the load on the machine did to them.  The nominal changes (+200 %, 0 %) hold only roughly on a
loaded machine, so they are checked with loose bounds; runs alternate between the builds."""
import re
import shutil

from xltest import *

SCHEMA = json.load(open(os.path.join(SRC, "docs", "diff.schema.json")))
SRCFILE = prog("s-diff.c")


def build(w, name, *defs):
    p = w.run(["--profile", "build", "-release"] + list(defs) + [SRCFILE, "-o", name])
    eq(p.returncode, 0, "build " + name)


OWN = {}   # dest -> the functions' own measurements per run: [{"hot": ns, "steady": ns, "helper": ns}]


def capture_runs(w, plan, n):
    """n captures of each (exe, dest) in plan, alternating between them (the machine's load then
    falls on both sides alike), moved into w/dest (a directory of runs)."""
    for exe, dest in plan:
        os.makedirs(os.path.join(w.path, dest), exist_ok=True)
        OWN[dest] = []
    for k in range(n):
        for exe, dest in plan:
            p = w.run(["profile", "exec", "./" + exe])
            eq(p.returncode, 0, "profile exec " + exe)
            m = re.search(r"hot_us=(\d+) steady_us=(\d+) helper_us=(\d+)", p.stdout)
            OWN[dest].append({"hot": int(m.group(1)) * 1000, "steady": int(m.group(2)) * 1000,
                              "helper": int(m.group(3)) * 1000} if m else {})
            os.rename(w.latest(), os.path.join(w.path, dest, "capture-run%d" % k))
    return [os.path.join(w.path, dest) for exe, dest in plan]


def median(v):
    v = sorted(v)
    return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2


def own(dest, name):
    """Median over the runs of what the function measured itself."""
    return median([r.get(name, 0) for r in OWN[dest]])


def own_total(dest):
    return median([sum(r.values()) for r in OWN[dest]])


def matches(x, base_dest, new_dest, name):
    """The diff's self times and change are the functions' own figures (medians over the runs):
    within 3 % + 1 ms (XRay's entry and exit, and clock reads, lie outside the function's own
    measurement) and the change within 6 points."""
    ob, on = own(base_dest, name), own(new_dest, name)
    close = all(abs(x["self_ns"][k] - v) <= 0.03 * v + 1e6 for k, v in (("base", ob), ("new", on)))
    want = 100.0 * (on / ob - 1)
    check(close and abs(x["self_ns"]["change_pct"] - want) <= 6,
          "%s: diff %r -> %r (%+.1f%%), the function measured %r -> %r (%+.1f%%)" % (
              name, x["self_ns"]["base"], x["self_ns"]["new"], x["self_ns"]["change_pct"], ob, on, want))


def diff_json(w, base, new, *extra):
    p = w.run(["profile", "diff", base, new, "--json"] + list(extra))
    eq(p.returncode, 0, "profile diff --json " + " ".join(extra))
    doc = json.loads(p.stdout)
    eq(validate(doc, SCHEMA), [], "diff document validates against docs/diff.schema.json")
    return doc


def fn(doc, name):
    for f in doc["functions"]:
        if f["name"] == name:
            return f
    return None


with Workdir() as w:
    build(w, "base")
    build(w, "slow", "-DSLOW=3")
    build(w, "ren", "-DRENAMED")
    b, b2, s = capture_runs(w, [("base", "base-runs"), ("base", "base-again"), ("slow", "slow-runs")], 5)
    one_b = sorted(glob.glob(os.path.join(b, "capture-*")))[0]
    one_r = capture_runs(w, [("ren", "ren-runs")], 1)[0]

    # The same binary: every function paired, counts equal, changes small.
    doc = diff_json(w, b, b2)
    eq(doc["base"]["runs"], 5, "five base runs")
    eq(sorted(f["name"] for f in doc["functions"]), ["helper", "hot", "main", "steady"], "functions paired")
    check(all(f["status"] == "both" for f in doc["functions"]), "no one-sided function for the same binary")
    eq([fn(doc, n)["calls"]["change"] for n in ("hot", "steady", "helper", "main")], [0, 0, 0, 0],
       "call counts unchanged")
    for n in ("hot", "steady"):
        matches(fn(doc, n), "base-runs", "base-again", n)
        p = fn(doc, n)["self_ns"]["change_pct"]
        check(abs(p) < 50, "same binary: %s self change %r%% near zero (loose: within 50)" % (n, p))
    check(fn(doc, "hot")["significant"] in (True, False), "significance judged with several runs")
    check(fn(doc, "hot")["self_ns"]["base_range"] is not None, "ranges present with several runs")

    # hot() made 3x slower: first by self change, about +200 %; the others near zero.
    doc = diff_json(w, b, s)
    eq(doc["functions"][0]["name"], "hot", "the 3x function ranks first by self-time change")
    for n in ("hot", "steady", "helper"):
        matches(fn(doc, n), "base-runs", "slow-runs", n)
    h = fn(doc, "hot")["self_ns"]
    check(80 <= h["change_pct"] <= 400, "hot self change %r%% is about +200%% (loose: 80..400)" % h["change_pct"])
    st = fn(doc, "steady")["self_ns"]
    check(abs(st["change_pct"]) < 50, "steady self change %r%% near zero (loose: within 50)" % st["change_pct"])
    check(abs(st["change"]) < 0.5 * h["change"], "steady's change is small next to hot's")
    eq(fn(doc, "hot")["calls"]["change"], 0, "hot calls unchanged")
    # tree: main > hot carries the change, the root sums the threads
    t = doc["tree"]
    names = [f["name"] for f in doc["functions"]]
    hot_nodes = [i for i in range(len(t["parent"])) if t["func"][i] >= 0 and names[t["func"][i]] == "hot"]
    eq(len(hot_nodes), 1, "one call path to hot")
    i = hot_nodes[0]
    eq(names[t["func"][t["parent"][i]]], "main", "hot's path is main > hot")
    check(t["total_new_ns"][i] > 1.5 * t["total_base_ns"][i], "hot's node total grew")
    eq((t["calls_base"][i], t["calls_new"][i]), (5, 5), "hot's node calls (5 rounds)")

    # Text: the table ranks hot first and says which times were used.
    p = w.run(["profile", "diff", b, s, "--top", "2"])
    eq(p.returncode, 0, "profile diff (text)")
    rows = [l for l in p.stdout.splitlines() if "s-diff.c:" in l]
    eq(len(rows), 2, "--top 2 shows two rows")
    check(rows and rows[0].split()[-2] == "hot", "text ranks hot first")
    check("times: absolute" in p.stdout, "text says times are absolute")
    check("5 runs, medians" in p.stdout, "text says the sides are medians of 5 runs")
    check("(2 more; --top 0 shows all)" in p.stdout, "text says how many rows were left out")

    # --normalize: base scaled to new's thread time, said in the output; the changes are changes of
    # shares, as the functions' own figures give them.
    doc = diff_json(w, b, s, "--normalize")
    eq(doc["normalized"], True, "normalized flag")
    scale = own_total("slow-runs") / own_total("base-runs")
    check(abs(doc["scale"] / scale - 1) < 0.05, "scale %r is new's time over base's (%.3f)" % (doc["scale"], scale))
    check(abs(doc["totals"]["thread_ns"]["change_pct"]) < 0.01, "normalized thread times equal")
    for n in ("hot", "steady"):
        want = 100.0 * (own("slow-runs", n) / (own("base-runs", n) * scale) - 1)
        p = fn(doc, n)["self_ns"]["change_pct"]
        check(abs(p - want) <= 8, "normalized %s change %r%% is the change of its share (%+.1f%%)" % (n, p, want))
    p = w.run(["profile", "diff", b, s, "--normalize"])
    check("times: normalized" in p.stdout, "text says times are normalized")

    # --sort calls / total
    doc = diff_json(w, b, s, "--sort", "total")
    eq(doc["sort"], "total", "sort recorded")
    eq(sorted(f["name"] for f in doc["functions"][:2]), ["hot", "main"], "by total change main and hot rank first")

    # Renamed function: one-sided entries on both sides.
    doc = diff_json(w, one_b, one_r)
    eq(fn(doc, "helper")["status"], "base_only", "helper only in base")
    eq(fn(doc, "helper_renamed")["status"], "new_only", "helper_renamed only in new")
    eq(fn(doc, "helper")["calls"]["base"], 5, "helper's base calls")
    eq(fn(doc, "helper")["calls"]["new"], None, "helper's new calls are null")
    eq(fn(doc, "helper_renamed")["calls"]["change"], 5, "helper_renamed's change counts from 0")
    eq(fn(doc, "hot")["status"], "both", "hot still paired")
    eq(fn(doc, "hot")["significant"], None, "significance unknown with one run per side")
    p = w.run(["profile", "diff", one_b, one_r])
    check(any("helper_renamed" in l and "[only in new]" in l for l in p.stdout.splitlines()), "text: only in new")
    check(any(" helper " in l and "[only in base]" in l for l in p.stdout.splitlines()), "text: only in base")

    # --html -o: one self-contained page with the document inside.
    out = os.path.join(w.path, "diff.html")
    p = w.run(["profile", "diff", b, s, "--html", "-o", out])
    eq(p.returncode, 0, "profile diff --html")
    html = open(out, encoding="utf-8").read()
    check('"schema":"exaloop.diff/1"' in html, "page embeds the diff document")
    check("Content-Security-Policy" in html and "'unsafe-inline'" not in html, "page has the report's CSP")
    check(not re.search(r"<(script|link|img)[^>]+(src|href)=\"https?:", html), "page loads nothing")

    # Bad input: one-line errors with the documented codes.
    p = w.run(["profile", "diff", b])
    eq(p.returncode, 2, "one capture: usage error")
    check("needs two captures" in p.stderr, "message says two captures are needed")
    p = w.run(["profile", "diff", b, os.path.join(w.path, "nope")])
    eq(p.returncode, 3, "missing capture: capture error")
    os.makedirs(os.path.join(w.path, "empty"))
    p = w.run(["profile", "diff", b, os.path.join(w.path, "empty")])
    eq(p.returncode, 3, "directory without captures: capture error")
    check("holds no capture" in p.stderr, "message names the empty directory")
    p = w.run(["profile", "diff", b, s, "--sort", "avg"])
    eq(p.returncode, 2, "bad sort key")
    p = w.run(["profile", "diff", b, s, "--bogus"])
    eq(p.returncode, 2, "unknown option")

    # A capture that lost data: in a directory of runs it is left out of the medians, and said so
    # (a cut capture would count as a run of zeros); alone, its warnings come with the diff.
    mixed = os.path.join(w.path, "mixed")
    good = sorted(os.listdir(s))
    os.makedirs(mixed)
    shutil.copytree(os.path.join(s, good[0]), os.path.join(mixed, "a-good"))
    shutil.copytree(os.path.join(s, good[1]), os.path.join(mixed, "b-cut"))
    os.truncate(os.path.join(mixed, "b-cut", "capture.xlc"), 4096)
    p = w.run(["profile", "diff", b, mixed, "--json"])
    doc = json.loads(p.stdout) if p.returncode == 0 else {}
    check(p.returncode == 0 and "left out of the medians of '%s': %s" % (mixed, os.path.join(mixed, "b-cut")) in p.stderr,
          "a cut run is left out of the medians, and said (%d: %r)" % (p.returncode, p.stderr[-300:]))
    eq((doc.get("new") or {}).get("runs"), 1, "the side's medians come from the whole run alone")
    eq(validate(doc, SCHEMA), [], "diff document validates against docs/diff.schema.json")
    eq(fn(doc, "hot")["calls"]["new"] if fn(doc, "hot") else None, w.summary(os.path.join(mixed, "a-good")).calls("hot"),
       "hot's calls are the whole run's, not a median with zeros")
    p = w.run(["profile", "diff", b, os.path.join(mixed, "b-cut"), "--json"])
    doc = json.loads(p.stdout) if p.returncode == 0 else {}
    kinds = [x["kind"] for x in (doc.get("new") or {}).get("warnings", [])]
    check(p.returncode == 0 and "truncated" in kinds and "capture file truncated" in p.stderr,
          "a cut capture alone: its warnings in the document and on stderr (%r)" % kinds)
    # a forked child that ends with _exit leaves its own capture not finalized: the run is whole, and
    # stays in the medians (the warning is the child's, "process N: ...")
    forks = os.path.join(w.path, "forks")
    os.makedirs(forks)
    eq(w.run(["--profile", "build", prog("s-fork.c"), "-o", "sfork"]).returncode, 0, "build s-fork")
    for k in range(2):
        eq(w.run(["profile", "exec", "./sfork"]).returncode, 0, "s-fork run %d" % k)
        os.rename(w.latest(), os.path.join(forks, "capture-run%d" % k))
    p = w.run(["profile", "diff", forks, forks, "--json"])
    doc = json.loads(p.stdout) if p.returncode == 0 else {}
    check(p.returncode == 0 and (doc.get("base") or {}).get("runs") == 2 and "left out" not in p.stderr,
          "runs whose forked child was not finalized stay in the medians (%d: %r)" % (p.returncode, p.stderr[-200:]))
    os.makedirs(os.path.join(w.path, "allcut"))
    shutil.copytree(os.path.join(mixed, "b-cut"), os.path.join(w.path, "allcut", "b-cut"))
    shutil.copytree(os.path.join(mixed, "b-cut"), os.path.join(w.path, "allcut", "c-cut"))
    p = w.run(["profile", "diff", b, os.path.join(w.path, "allcut")])
    check(p.returncode == 3 and "holds no capture that is whole" in p.stderr, "every run cut: exit 3 and why")
done()
