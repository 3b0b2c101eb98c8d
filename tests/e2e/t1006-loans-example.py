"""The bundled example (small size): structure, GC metrics, RSS above the GC heap, CSV written."""
from xltest import *

with Workdir() as w:
    csv = os.path.join(w.path, "out.csv")
    p = w.run(["--profile", "--no-open", "run", "-release", "-lgc", "-lm",
               os.path.join(SRC, "examples", "loans", "loans.c"), "--loans", "20000", "--scenarios", "8", csv])
    eq(p.returncode, 0, "exit status")
    check(os.path.getsize(csv) > 0, "CSV report written")
    check("worst scenario" in p.stdout, "summary printed")
    s = w.summary()
    names = {f["name"] for f in s.funcs}
    for fn in ("main", "portfolio_stress", "loan_expected_loss", "stressed_pd", "summarize_scenario"):
        check(fn in names, fn + " traced")
    eq(s.calls("portfolio_stress"), 8, "one stress run per scenario")
    eq(s.calls("loan_expected_loss"), 20000 * 8, "one expected loss per loan per scenario")
    m = s.doc["memory"]["summary"]
    check(m["gc_heap"]["value"] and m["gc_heap"]["value"] > 0, "GC heap present")
    check(m["rss"]["max"] > m["gc_heap"]["max"], "RSS larger than the GC heap")
    size = os.path.getsize(os.path.join(w.latest(), "index.html"))
    check(size < 1_000_000, "report well under 1 MB (%d bytes)" % size)
done()
