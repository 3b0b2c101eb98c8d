"""LevelDB 1.20 and Snappy (inside the npm registry's classic-level@1) under exaloop.

Built as a user would, by leveldb/build.sh: Snappy's three library files compiled with $CXX into
libsnappy.a (the package builds Snappy with node-gyp; it has no makefile), then LevelDB's own
Makefile (`make out-static/libleveldb.a`, OPT = its "profiling mode" -O2 -g2 -DNDEBUG), whose
build_detect_platform probes the compiler for <atomic>, <snappy.h> (found through CXXFLAGS) and
SSE4.2, then the driver linked against both.  Once by `exaloop --profile build -- sh build.sh`
(CC and CXX exaloop's wrappers, MAKEFLAGS too), once as the oracle with clang-14/clang++-14 and
XRAY_FLAGS' XRay flags on every compile and the link (compiler-rt's own runtime and trampolines).

leveldb/driver.cc: one thread puts 2,000 keys (single Puts and WriteBatches), gets, deletes,
iterates (forwards, backwards, Seek), takes and releases a snapshot, compacts with CompactRange
(which waits for the background thread's flushes and compactions), reopens the database twice
(log recovery) and prints what it read as checksums; no compaction starts by itself, so the calls
repeat run to run (see its header).  Checked: both builds detected the same platform; output and
status captured == uncaptured == the oracle build's; every traced function's calls == the entries
in XRay basic mode's log (by linkage name, as t-json.py; CondVar::Wait's, which the scheduler
decides, within 4), the 30 most-called named; the same per
thread: LevelDB's background thread is a thread of its own in the capture, with the flushes and
compactions (DBImpl::BackgroundCall, CompactMemTable, DoCompactionWork), and its calls equal its
entries in the log; under --timing=sampled the same counts, per thread too, and call paths.

LevelDB's background thread (PosixEnv::BGThreadWrapper) never exits: it is still blocked in
pthread_cond_wait when main returns.  exaloop's runtime puts each call in the thread's call tree in
the mapped capture as it happens, so nothing waits for the thread's exit: the finalizer (at the
process's exit) reads the running thread's name and CPU time, and the analyzer closes its one open
frame (BGThreadWrapper) at the capture's end.  The test checks that the thread was still running
(an open frame), that no warning says calls or threads were lost, that no event went unrecorded,
that the call tree holds every call of the function table, and that the thread's counts equal its
entries in the oracle's log.  compiler-rt's basic mode writes a thread's buffered records at the thread's exit, and at the
process's exit only the buffer of the thread that initialised it (main): the oracle therefore runs
with thread_buffer_size=1 (every record written at once), or the background thread's last records
would be missing from the log.
"""
import difflib

from rwtest import *

N = "2000"   # ~2.3 million calls, ~250,000 of them on the background thread; XRay's log ~140 MB
PACKAGE_DIRS = ("package/deps/leveldb/leveldb-1.20/", "package/deps/snappy/")
LEVELDB = os.path.join("deps", "leveldb", "leveldb-1.20")
# A count LevelDB's logic leaves to the scheduler: a waiter loops on its condition variable until
# the background thread's work is done (CompactRange, the destructor), and how many times it wakes
# before that depends on when the background thread signals.  Compared within a few, not exactly.
SCHEDULED = {"_ZN7leveldb4port7CondVar4WaitEv": 4}
LOST = ("nodes_full", "threads_full", "no_function_table", "truncated", "not_finalized", "corrupt_threads")
# the background thread's own work, by linkage name: none of it on the driver's thread
BACKGROUND = ["_ZN7leveldb6DBImpl14BackgroundCallEv", "_ZN7leveldb6DBImpl15CompactMemTableEv",
              "_ZN7leveldb6DBImpl16DoCompactionWorkEPNS0_15CompactionStateE"]
SNAPPY = ["_ZN6snappy11RawCompressEPKcmPcPm", "_ZN6snappy13RawUncompressEPKcmPc"]


def unpack(tgz, dest):
    """The package's deps/leveldb/leveldb-1.20 and deps/snappy, as dest/deps/..."""
    with tarfile.open(tgz) as t:
        members = [m for m in t.getmembers() if m.name.startswith(PACKAGE_DIRS) and (m.isfile() or m.isdir())]
        for m in members:
            m.name = m.name[len("package/"):]
        t.extractall(dest, members)


def platform(tree):
    """The PLATFORM_* lines build_detect_platform wrote (CC and CXX, which name the compilers, apart)."""
    out = {}
    with open(os.path.join(tree, LEVELDB, "build_config.mk")) as f:
        for line in f:
            name, _, value = line.rstrip("\n").partition("=")
            if name.startswith("PLATFORM"):
                out[name] = " ".join(value.split())
    return out


def thread_calls(capture_dir, s, aliases):
    """{thread index: {key: calls}} from a summary's call tree, keyed as calls_by_linkage keys."""
    link = linkage_names(capture_dir)
    keys = []
    for f in s.funcs:
        name = link.get(f["xray_id"], f["name"])
        keys.append(aliases.get(name, name))
    out = collections.defaultdict(collections.Counter)
    t = s.tree
    for func, thread, calls in zip(t["func"], t["thread"], t["calls"]):
        if func is not None and func >= 0:
            out[thread][keys[func]] += calls
    return out


def same_output(p, plain, what):
    """p exited 0 and printed what the uncaptured run printed (else the differing lines are shown)."""
    if p.returncode != 0 or p.stdout != plain.stdout:
        print("  exit status %d; output against the uncaptured run's:" % p.returncode)
        for line in list(difflib.unified_diff(plain.stdout.splitlines(), p.stdout.splitlines(), lineterm=""))[:30]:
            print("    " + line)
    check(p.returncode == 0 and p.stdout == plain.stdout, what)


def differing(got, oracle, shown, label):
    """The functions whose counts differ (SCHEDULED ones by more than their slack)."""
    diff = sorted(k for k in set(got) | set(oracle) if abs(got.get(k, 0) - oracle.get(k, 0)) > SCHEDULED.get(k, 0))
    for k in diff[:20]:
        print("  %s differs: %s: exaloop %d, XRay %d" % (label, shown.get(k, k)[:140], got.get(k, 0), oracle.get(k, 0)))
    return diff


def check_complete(s, label):
    """No call or thread lost: what a thread still running at the exit must not cost."""
    kinds = sorted(x["kind"] for x in s.doc.get("warnings", []))
    eq([k for k in kinds if k in LOST], [], "%s: no warning of lost calls or threads (warnings: %s)"
       % (label, ", ".join(kinds) or "none"))
    tot = s.doc["totals"]
    eq((tot["unrecorded_events"], tot["threads_not_recorded"]), (0, 0), label + ": no event or thread unrecorded")
    tree_calls = sum(c for c, f in zip(s.tree["calls"], s.tree["func"]) if f is not None and f >= 0)
    eq(tree_calls, sum(f["calls"] for f in s.funcs), label + ": every call of the function table is in the call tree")


def check_threads(s, cap, aliases, oracle_threads, label):
    """The driver's thread and the background thread, each against its own thread in XRay's log.
    Returns the background thread's index (None without one)."""
    threads = s.doc["threads"]
    eq(len(threads), 2, "%s: two threads, the driver's and LevelDB's background thread" % label)
    main = [t["index"] for t in threads if t["tid"] == t["process"]]
    other = [t["index"] for t in threads if t["tid"] != t["process"]]
    if len(oracle_threads) != 2 or len(main) != 1 or len(other) != 1:
        check(False, "%s: one main thread and one other, here and in XRay's log (%d threads)" % (label, len(oracle_threads)))
        return None
    per = thread_calls(cap, s, aliases)
    _, shown = calls_by_linkage(cap, s, aliases)
    for what, i, o in (("driver's thread", main[0], list(oracle_threads.values())[0]),
                       ("background thread", other[0], list(oracle_threads.values())[1])):
        diff = differing(per[i], o, shown, what)
        eq(len(diff), 0, "%s: the %s's calls of every function (%d functions, %d calls) == its entries in XRay's log"
           % (label, what, len(o), sum(o.values())))
    bg, fg = per[other[0]], per[main[0]]
    eq([k for k in BACKGROUND if bg[k] == 0 or fg[k] != 0], [],
       "%s: the flushes and compactions ran on the background thread only (%s)"
       % (label, ", ".join("%s %d" % (shown.get(k, k), bg[k]) for k in BACKGROUND)))
    return other[0]


with Workdir() as w:
    tgz = npm_package("classic-level@1", "classic-level-1.")
    xl, xr = os.path.join(w.path, "xl"), os.path.join(w.path, "xray")
    for tree in (xl, xr):
        unpack(tgz, tree)
        shutil.copy(os.path.join(HERE, "leveldb", "driver.cc"), tree)
    shutil.copy(os.path.join(HERE, "leveldb", "build.sh"), w.path)
    xray = " ".join(f for f in XRAY_FLAGS if f.startswith("-fxray"))
    (xrc, _, xerr), (crc, _, _) = build_both(
        w.path, ["--", "sh", "build.sh", "xl"],
        ["env", "CC=clang-14", "CXX=clang++-14", "XRAY=" + xray, "sh", "build.sh", "xray"])
    eq((xrc, crc), (0, 0), "leveldb: exaloop build (make through the wrappers) and plain XRay build succeed")
    if failures:
        done()
    check("1 instrumented executable" in xerr and "  xl/driver\n" in xerr,
          "leveldb: exaloop's build lists the driver, the one executable it linked")
    got_conf, want_conf = platform(xl), platform(xr)
    for k in sorted(set(got_conf) | set(want_conf)):
        if got_conf.get(k) != want_conf.get(k):
            print("  %s: through exaloop's wrappers %r, through clang++-14 %r" % (k, got_conf.get(k), want_conf.get(k)))
    check(got_conf == want_conf, "leveldb: build_detect_platform finds the same platform through exaloop's wrappers "
          "as through clang++-14 (its probes compile and link `-x c++ -` from stdin)")
    check("-DSNAPPY" in want_conf.get("PLATFORM_CXXFLAGS", ""), "leveldb: LevelDB found the package's Snappy")

    args = ["db", N]
    plain = run(["./driver"] + args, xl)
    eq(plain.returncode, 0, "leveldb: uncaptured run exits 0")
    check(plain.stdout.endswith("done\n") and plain.stdout.count(" yes\n") == 2 and " NO\n" not in plain.stdout,
          "leveldb: the driver ran every phase, and the snapshot kept what it was taken on")
    again = run(["./driver"] + args, xl)
    same_output(again, plain, "leveldb: two uncaptured runs print the same")
    p, cap = capture(xl, ["./driver"] + args)
    same_output(p, plain, "leveldb: captured output and status == uncaptured")
    eq(p.stderr.split("exaloop:")[0], plain.stderr, "leveldb: the program's stderr is the same captured")
    px, log = xray_log("./driver", args, xr, basic_options="thread_buffer_size=1")
    same_output(px, plain, "leveldb: the XRay oracle build prints the same")
    if cap is None or log is None:
        check(False, "leveldb: a capture (%s) and an XRay log (%s)" % (cap, log))
        done()

    oracle_threads, aliases = xray_entries(os.path.join(xr, "driver"), log, by_thread=True)
    os.remove(log)
    oracle = collections.Counter()
    for c in oracle_threads.values():
        oracle.update(c)
    print("leveldb: XRay's log: %d calls in %d functions, on %d threads"
          % (sum(oracle.values()), len(oracle), len(oracle_threads)))
    check(all(oracle[k] > 0 for k in SNAPPY), "leveldb: the oracle compressed and uncompressed blocks with Snappy (%s)"
          % ", ".join("%s %d" % (k, oracle[k]) for k in SNAPPY))

    s = summary(cap)
    got, shown = calls_by_linkage(cap, s, aliases)
    compare_top("leveldb", got, oracle, shown=shown)
    every = set(got) | set(oracle)
    eq(len(differing(got, oracle, shown, "calls")), 0, "leveldb: every traced function's calls (%d functions, %d calls) "
       "== XRay entries" % (len(every), sum(oracle.values())))
    bg = check_threads(s, cap, aliases, oracle_threads, "leveldb")
    check_complete(s, "leveldb")
    if bg is not None:
        t = s.doc["threads"]
        check(t[bg]["open_frames"] >= 1 and t[1 - bg]["open_frames"] == 0,
              "leveldb: the background thread was still running at the exit (open frames: %d; the driver's: %d)"
              % (t[bg]["open_frames"], t[1 - bg]["open_frames"]))

    # --timing=sampled (calls counted without the clock): the same counts, per thread too, and paths
    p, scap = capture(xl, ["./driver"] + args, options=["--timing=sampled"])
    same_output(p, plain, "leveldb, sampled timing: captured output and status == uncaptured")
    if scap is None:
        done()
    ss = summary(scap)
    eq(ss.doc["run"]["timing"], "sampled", "leveldb, sampled timing: recorded as such")
    sgot, _ = calls_by_linkage(scap, ss, aliases)
    eq(len(differing(sgot, oracle, shown, "sampled calls")), 0,
       "leveldb, sampled timing: every traced function's calls (%d functions) == XRay entries" % len(every))
    check_threads(ss, scap, aliases, oracle_threads, "leveldb, sampled timing")
    check_complete(ss, "leveldb, sampled timing")
    traced = lambda x: {k: c for k, c in x.paths().items() if c}  # sampled frames have no calls
    a, b = traced(s), traced(ss)
    # (a path that ends in CondVar::Wait counts the scheduler's wake-ups: within a few)
    diff = [k for k in set(a) | set(b)
            if abs(a.get(k, 0) - b.get(k, 0)) > (4 if k[-1] == "leveldb::port::CondVar::Wait()" else 0)]
    for k in diff[:5]:
        print("  path differs: %s: exact %s, sampled %s" % (" > ".join(x[:40] for x in k[-4:]), a.get(k), b.get(k)))
    eq(len(diff), 0, "leveldb, sampled timing: every call path's count (%d paths) == exact timing's" % len(a))
done()
