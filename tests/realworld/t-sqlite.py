"""SQLite (the amalgamation in the npm registry's better-sqlite3@12) under exaloop.

sqlite/driver.c creates, fills (20,000 rows), indexes, queries, groups and sorts an in-memory
database through a custom collation and custom functions (sqlite/callbacks.c).  SQLite calls the
collation by an indirect tail call with five arguments (vdbeCompareMemString: `jmp *%r11` right
after the tail sled), the shape issue 10 found exaloop's tail trampoline breaking.  Checked:
captured output and status == uncaptured; the 30 most-called functions' counts == LLVM XRay
basic mode's (`llvm-xray account`) on a plain clang build of the same sources and flags, and so
are every other function's and, named out, the driver's callbacks'.  exaloop's build run under
XRay's basic mode (another handler: the trampolines' full path, where issue 10 saw the collation
replaced by the handler and "database disk image is malformed") prints the same too, and so does
the same objects linked with compiler-rt's trampolines (EXALOOP_STOCK_TRAMPOLINES=1), captured
with the same counts.
"""
from rwtest import *

DEFINES = ["-DSQLITE_THREADSAFE=0", "-DSQLITE_OMIT_LOAD_EXTENSION"]
SOURCES = ["sqlite3.c", "driver.c", "callbacks.c"]
CALLBACKS = ["rune_compare", "score_func", "spread_step", "spread_final", "fold_row"]

with Workdir() as w:
    tgz = npm_package("better-sqlite3@12", "better-sqlite3-12.")
    extract(tgz, ["package/deps/sqlite3/sqlite3.c", "package/deps/sqlite3/sqlite3.h"], w.path)
    for f in ("driver.c", "callbacks.c", "callbacks.h"):
        shutil.copy(os.path.join(HERE, "sqlite", f), w.path)
    (xrc, _, _), (crc, _, _) = build_both(
        w.path, ["-release"] + DEFINES + SOURCES + ["-lm", "-o", "sqlite-xl"],
        ["clang-14"] + XRAY_FLAGS + DEFINES + SOURCES + ["-lm", "-o", "sqlite-xray"])
    eq((xrc, crc), (0, 0), "sqlite: exaloop build and plain XRay build succeed")
    if failures:
        done()

    dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "--disassemble=vdbeCompareMemString",
                          os.path.join(w.path, "sqlite-xl")], stdout=subprocess.PIPE, text=True).stdout
    check(re.search(r"jmp\s+\*%r11", dis) is not None,
          "sqlite: vdbeCompareMemString tail-calls the collation through r11 (the shape under test)")

    plain = run(["./sqlite-xl"], w.path)
    eq(plain.returncode, 0, "sqlite: uncaptured run exits 0")
    check(", 20000 rows" in plain.stdout and plain.stdout.rstrip().endswith("-- integrity\nok"),
          "sqlite: the driver filled 20,000 rows and the database passed its integrity check")
    p, cap = capture(w.path, ["./sqlite-xl"])
    eq((p.returncode, p.stdout), (0, plain.stdout), "sqlite: captured output and status == uncaptured")
    # exaloop's trampolines with a foreign handler; basic mode's default depth and 5 us threshold
    # keep its log small (every event still goes through the handler)
    d = tempfile.mkdtemp(prefix="xray-full-", dir=w.path)
    pf = run(["./sqlite-xl"], w.path,
             env={"XRAY_OPTIONS": xray_basic_env(d)["XRAY_OPTIONS"], "XRAY_BASIC_OPTIONS": ""})
    shutil.rmtree(d, ignore_errors=True)
    eq((pf.returncode, pf.stdout), (0, plain.stdout), "sqlite: exaloop's build under XRay basic mode prints the same")
    px, log = xray_log("./sqlite-xray", [], w.path)
    eq((px.returncode, px.stdout), (0, plain.stdout), "sqlite: the XRay oracle build prints the same")
    if cap is None or log is None:
        check(False, "sqlite: a capture (%s) and an XRay log (%s)" % (cap, log))
        done()

    oracle = xray_account(os.path.join(w.path, "sqlite-xray"), log)
    os.remove(log)   # ~650 MB
    got = calls_by_name(summary(cap))
    compare_top("sqlite", got, oracle)
    every = set(got) | set(oracle)
    eq(sum(1 for k in every if got.get(k, 0) != oracle.get(k, 0)), 0,
       "sqlite: every traced function's calls (%d functions, %d calls) == XRay's"
       % (len(every), sum(oracle.values())))
    eq({f: got.get(f, 0) for f in CALLBACKS}, {f: oracle.get(f, 0) for f in CALLBACKS},
       "sqlite: the callbacks' calls equal XRay's")
    check(oracle.get("rune_compare", 0) > 100000, "sqlite: the collation was called (%d)" % oracle.get("rune_compare", 0))

    # The same build linked with compiler-rt's trampolines (the objects come from the cache)
    p = run([xltest.EXALOOP, "--profile", "build", "-release"] + DEFINES + SOURCES + ["-lm", "-o", "sqlite-stock"],
            w.path, env={"EXALOOP_STOCK_TRAMPOLINES": "1"})
    syms = subprocess.run(["nm", os.path.join(w.path, "sqlite-stock")], stdout=subprocess.PIPE, text=True).stdout
    check(p.returncode == 0 and "__wrap___xray_FunctionTailExit" not in syms,
          "sqlite: a build on compiler-rt's trampolines (EXALOOP_STOCK_TRAMPOLINES=1)")
    p, cap = capture(w.path, ["./sqlite-stock"])
    eq((p.returncode, p.stdout), (0, plain.stdout), "sqlite, compiler-rt's trampolines: captured output and status")
    got = calls_by_name(summary(cap)) if cap else {}
    eq(sum(1 for k in set(got) | set(oracle) if got.get(k, 0) != oracle.get(k, 0)), 0,
       "sqlite, compiler-rt's trampolines: every traced function's calls == XRay's")
done()
