"""Heap allocations attributed to call paths: exact counts, bytes, frees,
leaks and peaks per path and per function, from programs whose allocations
are known (tests/progs/s-alloc.c, s-allocxx.cc, s-allocgc.c: their header
comments give the figures), in C (malloc family, a block freed by another
thread), C++ (new/delete in all forms, containers) and with libgc; memory
mode; the folded export weighted by bytes; and --no-allocations."""
import subprocess

from xltest import *


def path_allocs(s):
    """{path: (allocs, bytes, live, peak)} of the tree's nodes (self)."""
    t = s.tree
    names = [f["name"] for f in s.funcs]
    out, cache = {}, {}
    for i in range(len(t["parent"])):
        if t["parent"][i] < 0:
            cache[i] = ()
            p = ("(thread %d)" % t["thread"][i],)
        else:
            cache[i] = cache[t["parent"][i]] + (names[t["func"][i]],)
            p = cache[i]
        a = (t["alloc_calls"][i], t["alloc_bytes"][i], t["alloc_live"][i], t["alloc_peak"][i])
        if a[0]:
            out[p] = a
    return out


def subtree(s, prefix):
    """(allocs, bytes, live) of every path that starts with prefix."""
    tot = [0, 0, 0]
    for p, a in path_allocs(s).items():
        if p[: len(prefix)] == prefix:
            for k in range(3):
                tot[k] += a[k]
    return tuple(tot)


def falloc(s, name):
    a = s.func(name)["alloc"]
    return (a["allocs"], a["bytes"], a["frees"], a["freed_bytes"], a["live_bytes"])


C_PATHS = {
    ("main",): (1, 1000, 0, 1000),
    ("main", "alpha", "alloc_n"): (3, 120, 0, 120),
    ("main", "beta", "alloc_n"): (2, 80, 0, 80),
    ("main", "grow"): (4, 240, 0, 128),
    ("main", "leaky", "leak_inner"): (3, 804, 548, 756),
    ("worker",): (7, 70, 0, 70),
}
# -O3: alpha, beta and leaky end in tail calls, and a tail call is an exit
# (architecture.md): their callees' allocations are on main's paths.
C_PATHS_RELEASE = {
    ("main",): (1, 1000, 0, 1000),
    ("main", "alloc_n"): (5, 200, 0, 200),
    ("main", "grow"): (4, 240, 0, 128),
    ("main", "leak_inner"): (3, 804, 548, 756),
    ("worker",): (7, 70, 0, 70),
}

with Workdir() as w:
    for mode in ("-debug", "-release"):
        p = w.run(["--profile", "--no-open", "run", mode, prog("s-alloc.c")])
        eq(p.returncode, 0, "s-alloc %s exit status" % mode)
        eq(p.stdout, "allocs done 42\n", "s-alloc %s output" % mode)
        s = w.summary()
        al = s.doc["allocations"]
        eq(al["recorded"], True, "allocations recorded (%s)" % mode)
        eq(path_allocs(s), C_PATHS if mode == "-debug" else C_PATHS_RELEASE,
           "C: allocations, bytes, live and peak per path (%s)" % mode)
        eq(falloc(s, "alloc_n"), (5, 200, 5, 200, 0), "C: alloc_n's allocations over both its paths")
        eq(falloc(s, "leak_inner"), (3, 804, 1, 256, 548), "C: leak_inner leaks 548 bytes")
        eq(falloc(s, "worker"), (7, 70, 7, 70, 0), "C: worker's blocks freed by main count as freed")
        t = al["total"]
        eq((t["allocs"], t["bytes"], t["frees"], t["freed_bytes"], t["live_bytes"]), (20, 2314, 18, 1766, 548),
           "C: totals equal what the program allocated")
        eq(al["not_attributed"]["allocs"], 0, "C: every allocation attributed")
        eq(al["unmatched_frees"], 0, "C: every free matched")
        if mode == "-debug":
            cap = w.latest()

    folded = w.run(["profile", "export", cap, "--format", "folded", "--weight", "bytes"])
    eq(folded.returncode, 0, "folded --weight bytes")
    lines = dict(l.rsplit(" ", 1) for l in folded.stdout.splitlines())
    eq(lines.get("main;leaky;leak_inner"), "804", "folded: leak_inner's path weighs its bytes")
    eq(sum(int(v) for v in lines.values()), 2314, "folded: the weights add up to the bytes allocated")
    text = w.run(["profile", "report", cap, "--text", "--sort", "alloc"])
    check("heap allocations: 20 (2.3 KiB), 18 freed, 548 B live at exit" in text.stdout, "text: the totals")
    rows = text.stdout.split("path peak  function\n", 1)[-1].split("\n\n")[0].splitlines()
    eq([r.split()[-1] for r in rows], ["main", "leak_inner", "grow", "alloc_n", "worker"],
       "text: functions by bytes allocated")

    # Memory mode: no call paths, every allocation in "(not attributed)".
    p = w.run(["--profile=memory", "--no-open", "run", prog("s-alloc.c")])
    eq(p.returncode, 0, "s-alloc memory mode exit status")
    al = w.summary().doc["allocations"]
    na = al["not_attributed"]
    eq((na["allocs"], na["bytes"], na["live_bytes"]), (20, 2314, 548), "memory mode: all allocations, not attributed")

    # C++: operator new/delete in every form and containers.
    p = w.run(["--profile", "--no-open", "run", prog("s-allocxx.cc")])
    eq(p.returncode, 0, "s-allocxx exit status")
    eq(p.stdout, "sum 5605\n", "s-allocxx output")
    s = w.summary()
    eq(subtree(s, ("main", "nodes()")), (5, 120, 24), "C++: new Node x5, one leaked")
    eq(subtree(s, ("main", "arrays()")), (2, 47, 0), "C++: new[] and nothrow new[]")
    eq(subtree(s, ("main", "aligned()")), (1, 64, 0), "C++: aligned new")
    eq(subtree(s, ("main", "vec()")), (1, 400, 0), "C++: vector reserve(100)")
    eq(subtree(s, ("main", "mapfill()")), (3, 120, 0), "C++: map with 3 nodes")
    t = s.doc["allocations"]["total"]
    eq((t["allocs"], t["bytes"], t["live_bytes"]), (12, 751, 24), "C++: totals")

    # Boehm GC beside malloc.
    p = w.run(["--profile", "--no-open", "run", "-lgc", prog("s-allocgc.c")])
    eq(p.returncode, 0, "s-allocgc exit status")
    s = w.summary()
    pa = path_allocs(s)
    eq(pa.get(("main", "gc_make"))[:3], (10, 320, 0), "GC: GC_MALLOC x10")
    eq(pa.get(("main", "gc_atomic"))[:3], (4, 400, 0), "GC: GC_MALLOC_ATOMIC x4")
    eq(pa.get(("main", "mixed"))[:3], (2, 80, 0), "GC: malloc + GC_MALLOC")
    al = s.doc["allocations"]
    eq((al["total"]["allocs"], al["total"]["bytes"], al["total"]["gc_bytes"]), (16, 800, 736), "GC: totals")
    eq(al["gc_frees"], 1, "GC: GC_FREE counted")

    # Off: the link does not wrap, the capture says so.
    p = w.run(["--profile", "--no-allocations", "build", prog("s-alloc.c"), "-o", "noalloc"])
    eq(p.returncode, 0, "build --no-allocations")
    syms = subprocess.run(["nm", os.path.join(w.path, "noalloc")], capture_output=True, text=True).stdout
    check("__wrap_malloc" not in syms, "--no-allocations: malloc is not wrapped")
    p = w.run(["--profile", "--no-allocations", "--no-open", "run", prog("s-alloc.c")])
    eq(p.returncode, 0, "run --no-allocations")
    eq(w.summary().doc["allocations"]["recorded"], False, "--no-allocations: nothing recorded")

    # exaloop.toml: allocations = false in the target's profile table; a value that is no boolean.
    with open(os.path.join(w.path, "exaloop.toml"), "w") as f:
        f.write('[targets.a]\nsource = "%s"\n[targets.a.profile]\nallocations = false\n'
                '[targets.b]\nsource = "%s"\n[targets.b.profile]\nallocations = "no"\n' % (prog("s-alloc.c"), prog("s-alloc.c")))
    p = w.run(["--profile", "--no-open", "--target", "a", "run"])
    eq(p.returncode, 0, "target with allocations = false runs")
    eq(w.summary().doc["allocations"]["recorded"], False, "allocations = false: nothing recorded")
    p = w.run(["--profile", "--no-open", "--target", "b", "run"])
    eq(p.returncode, 2, "allocations = \"no\" is a usage error")
    check("expected true or false for 'allocations'" in p.stderr, "allocations = \"no\": says what it expects")
done()
