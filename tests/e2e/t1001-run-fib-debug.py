"""run --profile on recursive fib (debug build): exact counts, paths, times, output."""
from xltest import *

with Workdir() as w:
    p = w.run(["--profile", "--no-open", "run", prog("s-fib.c"), "20"])
    eq(p.returncode, 0, "exit status")
    eq(p.stdout, "fib(20) = 6765\n", "program stdout passes through unchanged")
    check("compiled" in p.stderr and "application ran" in p.stderr, "compile and application time reported")
    check("index.html" in p.stderr, "report path printed")
    s = w.summary()
    eq(s.calls("fib"), 21891, "fib calls")
    eq(s.calls("main"), 1, "main calls")
    paths = s.paths()
    eq(paths.get(("main",)), 1, "path main")
    eq(paths.get(("main", "fib")), 1, "path main>fib")
    per_depth = [paths.get(("main",) + ("fib",) * d, 0) for d in range(1, 21)]
    eq(per_depth, [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2026, 3632, 5020, 4760, 2942, 1152, 274, 36, 2],
       "fib calls per depth")
    t = s.tree
    check(all(t["self_ns"][i] <= t["total_ns"][i] for i in range(len(t["self_ns"]))), "self <= total for every node")
    root = t["parent"].index(-1)
    eq(sum(t["self_ns"]), t["total_ns"][root], "sum of self == root total")
    fib = s.func("fib")
    check(fib["self_ns"] <= fib["total_ns"], "fib self <= total")
    check(fib["file"] and fib["file"].endswith("s-fib.c") and fib["line"] > 0, "fib has a source location")
    run = s.doc["run"]
    check(run["compile_time_ns"] > 0 and run["app_time_ns"] > 0, "compile and app times recorded")
    eq(run["exit_status"], 0, "exit status recorded")
    eq(run["args"], ["20"], "program arguments recorded")
    check(run["finalized"], "capture finalized")
    cap = w.latest()
    for f in ("index.html", "capture.xlc", "run.json", "symbols.json"):
        check(os.path.exists(os.path.join(cap, f)), "capture has " + f)
done()
