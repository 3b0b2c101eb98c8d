"""nlohmann::json (Debian's nlohmann-json3-dev, header-only) under exaloop.

The library's templates, its virtual SAX interface (json_sax, subclassed by the driver) and
its exceptions (parse_error, type_error, out_of_range, and the driver's own exception thrown
from a SAX callback through the library's parse loop) run in json/driver.cc.  Checked:
captured output and status == uncaptured; the 30 most-called functions' counts == the entries
in LLVM XRay basic mode's log of a plain clang build (entries, since frames unwound by a throw
never exit: `llvm-xray account` cannot read such a log), then every function's, and named out
the driver's handlers and the library's exception classes; the throws unwound frames and
exaloop closed them; under --timing=sampled the same counts and call paths; every function's short name (at most 100 characters) holds its own name as
the DWARF names it, and no two functions share one.  Functions are matched by linkage name: exaloop and llvm-xray demangle
with different demanglers (libstdc++'s and LLVM's: `decltype(nullptr)` vs `std::nullptr_t`).
"""
from rwtest import *

RECORDS = "200"   # ~2.4 million calls: XRay's log stays ~150 MB
HEADER = "/usr/include/nlohmann/json.hpp"

with Workdir() as w:
    if not os.path.exists(HEADER):
        check(False, "%s is installed (Debian package nlohmann-json3-dev; scripts/setup.sh --deps)" % HEADER)
        done()
    shutil.copy(os.path.join(HERE, "json", "driver.cc"), w.path)
    (xrc, _, _), (crc, _, _) = build_both(
        w.path, ["-release", "-std=c++17", "driver.cc", "-o", "driver-xl"],
        ["clang++-14"] + XRAY_FLAGS + ["-std=c++17", "driver.cc", "-o", "driver-xray"])
    eq((xrc, crc), (0, 0), "json: exaloop build and plain XRay build succeed")
    if failures:
        done()

    plain = run(["./driver-xl", RECORDS], w.path)
    eq(plain.returncode, 0, "json: uncaptured run exits 0")
    check("roundtrip=equal" in plain.stdout and "parse_error.101=60" in plain.stdout
          and "type_error=" in plain.stdout and "quota: stopped=" in plain.stdout,
          "json: the driver ran every part (round trip, parse errors, type errors, quota)")
    p, cap = capture(w.path, ["./driver-xl", RECORDS])
    eq((p.returncode, p.stdout), (0, plain.stdout), "json: captured output and status == uncaptured")
    px, log = xray_log("./driver-xray", [RECORDS], w.path)
    eq((px.returncode, px.stdout), (0, plain.stdout), "json: the XRay oracle build prints the same")
    if cap is None or log is None:
        check(False, "json: a capture (%s) and an XRay log (%s)" % (cap, log))
        done()

    s = summary(cap)
    oracle, aliases = xray_entries(os.path.join(w.path, "driver-xray"), log)
    got, shown = calls_by_linkage(cap, s, aliases)
    compare_top("json", got, oracle, shown=shown)
    every = set(got) | set(oracle)
    eq(sum(1 for k in every if got.get(k, 0) != oracle.get(k, 0)), 0,
       "json: every traced function's calls (%d functions) == XRay entries" % len(every))

    # functions on exception paths and the virtual SAX handlers: every one, entries
    pattern = re.compile(r"Tally::|Limited::|Quota::|::(parse_error|type_error|out_of_range|exception)::")
    names = sorted(k for k in got if pattern.search(shown[k]))
    diff = [(k, got[k], oracle.get(k, 0)) for k in names if got[k] != oracle.get(k, 0)]
    for k, g, o in diff:
        print("  differs: %s: exaloop %d, XRay entries %d" % (shown[k][:160], g, o))
    check(len(names) >= 15, "json: handler and exception functions found in the oracle (%d)" % len(names))
    eq(len(diff), 0, "json: calls of the SAX handlers and exception classes (%d functions) == XRay entries"
       % len(names))
    throws = [k for k in names if "Limited::key" in shown[k]]
    check(throws and got.get(throws[0], 0) > 0, "json: the throwing SAX callback was called (%s)"
          % (throws and got.get(throws[0], 0)))

    # C++ names (docs/cli.md, Function names; issue 26): the library's names run to thousands of
    # characters; every short name is at most 100 and holds the function's own name as the DWARF
    # names it (DW_AT_name, which no demangler wrote), and different names have different short names
    longest = max(s.funcs, key=lambda f: len(f["name"]))
    check(len(longest["name"]) > 2000, "json: names of thousands of characters (the longest: %d, shown as %s)"
          % (len(longest["name"]), longest["short_name"]))
    own = dwarf_own_names(os.path.join(w.path, "driver-xl"))
    link = linkage_names(cap)
    named = [(f, own.get(link.get(f["xray_id"]))) for f in s.funcs if f["name"] != "main"]
    known = [(f, o) for f, o in named if o]
    check(len(known) >= 0.95 * len(named), "json: DWARF names %d of the %d C++ functions" % (len(known), len(named)))
    eq([f["short_name"] for f in s.funcs if len(f["short_name"]) > 100], [],
       "json: every short name is at most 100 characters")
    eq([(o, f["short_name"]) for f, o in known if o not in f["short_name"]], [],
       "json: every short name holds the function's own name (%d functions)" % len(known))
    first = {}
    for f in s.funcs:
        first.setdefault(f["short_name"], f["name"])
    eq([f["short_name"] for f in s.funcs if first[f["short_name"]] != f["name"]], [],
       "json: different names have different short names")
    for f in sorted(s.funcs, key=lambda f: -f["self_ns"])[:5]:
        print("  top self time: %s (%d characters in full)" % (f["short_name"], len(f["name"])))

    t = s.doc["threads"][0]
    check(t["unwound_frames"] > 0, "json: throws unwound traced frames (%d), closed by exaloop" % t["unwound_frames"])
    eq(t["open_frames"], 0, "json: no frame left open")

    # --timing=sampled (calls counted without the clock): the same counts, XRay's entries again, and
    # every call path's count the exact capture's, throws and unwinding included
    p, scap = capture(w.path, ["./driver-xl", RECORDS], options=["--timing=sampled"])
    eq((p.returncode, p.stdout), (0, plain.stdout), "json, sampled timing: captured output and status == uncaptured")
    if scap is None:
        done()
    ss = summary(scap)
    eq(ss.doc["run"]["timing"], "sampled", "json, sampled timing: recorded as such")
    sgot, _ = calls_by_linkage(scap, ss, aliases)
    every = set(sgot) | set(oracle)
    eq(sum(1 for k in every if sgot.get(k, 0) != oracle.get(k, 0)), 0,
       "json, sampled timing: every traced function's calls (%d functions) == XRay entries" % len(every))
    traced = lambda x: {k: c for k, c in x.paths().items() if c}  # sampled frames have no calls
    a, b = traced(s), traced(ss)
    diff = [k for k in set(a) | set(b) if a.get(k) != b.get(k)]
    for k in diff[:5]:
        print("  path differs: %s: exact %s, sampled %s" % (" > ".join(x[:40] for x in k[-4:]), a.get(k), b.get(k)))
    eq(len(diff), 0, "json, sampled timing: every call path's count (%d paths) == exact timing's" % len(a))
    eq(ss.doc["threads"][0]["unwound_frames"], t["unwound_frames"], "json, sampled timing: the same frames unwound")
done()
