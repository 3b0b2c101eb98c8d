"""GC metrics present for a libgc program, unavailable (null + reason) for a plain one."""
from xltest import *

with Workdir() as w:
    p = w.run(["--profile", "--no-open", "run", "-lgc", prog("s-gc.c"), "50", "20000"])
    eq(p.returncode, 0, "gc program exit status")
    s = w.summary()
    m = s.doc["memory"]["summary"]
    check(m["gc_heap"]["value"] and m["gc_heap"]["value"] > 0, "GC heap measured")
    check(m["gc_free"]["value"] is not None, "GC free measured")
    check(m["gc_allocated"]["value"] and m["gc_allocated"]["delta"] > 0, "GC allocated grows in the capture")
    check(m["gc_collections"]["value"] and m["gc_collections"]["delta"] > 0, "GC collections counted")
    check(m["rss"]["value"] > 0 and m["peak_rss"]["value"] >= m["rss"]["max"], "RSS and peak RSS")
    eq(s.calls("make_node"), 1000000, "make_node calls")
    check(s.warning("gc_unavailable") is None, "no gc-unavailable warning")

    p = w.run(["--profile", "--no-open", "run", prog("s-plain.c")])
    eq(p.returncode, 0, "plain program exit status")
    s = w.summary()
    m = s.doc["memory"]["summary"]
    for k in ("gc_heap", "gc_free", "gc_occupied", "gc_allocated", "gc_collections"):
        check(m[k]["value"] is None and "Boehm" in m[k]["reason"], k + " unavailable with a reason")
    check(all(v is None for v in s.doc["memory"]["samples"]["gc_heap"]), "GC samples are null, not 0")
    check(m["rss"]["value"] > 0, "RSS still measured")
    check(s.warning("gc_unavailable") is not None, "gc-unavailable warning")
done()
