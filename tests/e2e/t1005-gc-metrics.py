"""GC metrics present for a libgc program, unavailable (null + reason) for a plain one: a note beside the memory
figures, not a warning (a clean run of a plain C program shows no warning at all, in JSON, text or on stderr)."""
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
    check(s.warning("gc_unavailable") is None and s.note("gc_unavailable") is None, "no gc-unavailable note")

    p = w.run(["--profile", "--no-open", "run", prog("s-plain.c")])
    eq(p.returncode, 0, "plain program exit status")
    s = w.summary()
    m = s.doc["memory"]["summary"]
    for k in ("gc_heap", "gc_free", "gc_occupied", "gc_allocated", "gc_collections"):
        check(m[k]["value"] is None and "Boehm" in m[k]["reason"], k + " unavailable with a reason")
    check(all(v is None for v in s.doc["memory"]["samples"]["gc_heap"]), "GC samples are null, not 0")
    check(m["rss"]["value"] > 0, "RSS still measured")
    n = s.note("gc_unavailable")
    check(n is not None and n["topic"] == "memory" and "Boehm" in n["message"],
          "no GC: a note beside the memory chart: %r" % (n,))
    # a fact about the program, not a defect of the capture: a clean run of a plain C program has no warning
    # (a sampler that a loaded machine kept from running on time is a real capture-quality warning:
    # memory_samples_missed is the one a clean run may get)
    load = [x for x in s.doc["warnings"] if x["kind"] == "memory_samples_missed"]
    eq([x["kind"] for x in s.doc["warnings"] if x not in load], [], "plain C program: no capture-quality warning")
    text = w.run(["profile", "report", w.latest(), "--text"]).stdout
    check(("\nwarnings:" not in text or load) and "  note: GC metrics unavailable" in text,
          "text report: the GC note under memory, no warnings section")
    printed = [l for l in p.stderr.splitlines() if "warning" in l and "memory samples were missed" not in l]
    eq(printed, [], "exaloop printed no warning")
done()
