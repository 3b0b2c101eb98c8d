"""Perfetto export (--format perfetto): decoded by protoc, an independent decoder, against
tests/perfetto/perfetto_subset.proto (the fields of Perfetto's protos the export uses), it holds
exactly the Chrome export's calls: per thread the same names, starts and durations (ns, the Chrome
trace's microseconds x 1000), and the same thread names; packets follow Perfetto's sequence rules
(incremental state cleared first, interned names sent before use, every packet that relies on
the sequence's state flagged). Bad captures and unwritable outputs fail like the other formats."""
import ast
import shutil
import zlib

from xltest import *

SCHEMA_DIR = os.path.join(SRC, "tests", "perfetto")
PROTOC = shutil.which("protoc")
SLICE_BEGIN, SLICE_END, INSTANT = 1, 2, 3
CLEARED, NEEDS_STATE = 1, 2
BOOTTIME = 6


def parse_text(text):
    """protoc's text format -> nested lists of (field, value); a message is a list."""
    root, stack = [], []
    cur = root
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if line == "}":
            cur = stack.pop()
        elif line.endswith("{"):
            sub = []
            cur.append((line[:-1].strip(), sub))
            stack.append(cur)
            cur = sub
        else:
            key, _, val = line.partition(": ")
            if val.startswith('"'):
                val = ast.literal_eval("b" + val)
                if key != "compressed_packets":
                    val = val.decode("utf-8", "replace")
            elif val in ("true", "false"):
                val = val == "true"
            else:
                val = int(val)
            cur.append((key, val))
    return root


def get(msg, key, default=None):
    for k, v in msg:
        if k == key:
            return v
    return default


def every(msg, key):
    return [v for k, v in msg if k == key]


def decode(path):
    with open(path, "rb") as f:
        p = subprocess.run([PROTOC, "--decode=perfetto.protos.Trace", "-I", SCHEMA_DIR, "perfetto_subset.proto"],
                           stdin=f, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    eq((p.returncode, p.stderr.strip()), (0, ""), "protoc --decode=perfetto.protos.Trace")
    with open(path, "rb") as f:
        raw = subprocess.run([PROTOC, "--decode_raw"], stdin=f, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, timeout=600)
    eq(raw.returncode, 0, "protoc --decode_raw")
    # --decode_raw shows fields the schema does not know: every field the export writes must be in it
    unknown = [l for l in p.stdout.splitlines() if re.match(r"\s*\d+[ :]", l)]
    eq(unknown[:3], [], "no field outside perfetto_subset.proto")
    return [v for k, v in parse_text(p.stdout) if k == "packet"]


def slices(packets, what):
    """Replay the packets as Perfetto's rules say; returns ({tid: [(name, start, dur, unfinished)]},
    {tid: thread name}, metadata event)."""
    tracks, names_by_tid, meta = {}, {}, None
    for pk in packets:
        td = get(pk, "track_descriptor")
        if td is not None and get(td, "thread") is not None:
            th = get(td, "thread")
            tracks[get(td, "uuid")] = get(th, "tid")
            names_by_tid[get(th, "tid")] = get(th, "thread_name")
    iids = {}                # iid -> name, over the whole trace: an iid never names two strings
    seqs = {}                # sequence id -> state
    out = {}
    bad = []
    for n, pk in enumerate(packets):
        seq = get(pk, "trusted_packet_sequence_id")
        flags = get(pk, "sequence_flags", 0)
        te = get(pk, "track_event")
        if get(pk, "track_descriptor") is not None:
            continue
        if te is not None and get(te, "type") == INSTANT:
            meta = te
            continue
        if seq is None:
            bad.append("packet %d without a sequence id" % n)
            continue
        if flags & CLEARED:
            if seq in seqs:
                bad.append("sequence %d cleared twice" % seq)
            d = get(pk, "trace_packet_defaults")
            clocks = every(get(pk, "clock_snapshot", []), "clocks")
            inc = [c for c in clocks if get(c, "is_incremental")]
            base = [c for c in clocks if get(c, "clock_id") == BOOTTIME]
            if len(inc) != 1 or len(base) != 1 or not 64 <= get(inc[0], "clock_id") <= 127:
                bad.append("sequence %d: no incremental user clock anchored to BOOTTIME" % seq)
                continue
            clock = get(inc[0], "clock_id")
            if get(d, "timestamp_clock_id") != clock:
                bad.append("sequence %d: defaults do not use the incremental clock" % seq)
            seqs[seq] = {"clock": clock, "offset": get(base[0], "timestamp") - get(inc[0], "timestamp"),
                         "value": get(inc[0], "timestamp"),
                         "track": get(get(d, "track_event_defaults"), "track_uuid"), "names": set(), "stack": []}
            continue
        st = seqs.get(seq)
        if st is None or not flags & NEEDS_STATE:
            bad.append("packet %d: sequence %s used without cleared state or without the flag" % (n, seq))
            continue
        for e in every(get(pk, "interned_data", []), "event_names"):
            iid, name = get(e, "iid"), get(e, "name")
            if iid == 0 or iids.get(iid, name) != name:
                bad.append("iid %d names %r and %r" % (iid, iids.get(iid), name))
            iids[iid] = name
            st["names"].add(iid)
        cid = get(pk, "timestamp_clock_id", st["clock"])
        if cid == st["clock"]:
            st["value"] += get(pk, "timestamp")
            ts = st["value"] + st["offset"]
        elif cid == BOOTTIME:
            ts = get(pk, "timestamp")
        else:
            bad.append("packet %d: clock %d" % (n, cid))
            continue
        tid = tracks.get(get(te, "track_uuid", st["track"]))
        ann = {get(a, "name"): a for a in every(te, "debug_annotations")}
        if get(te, "type") == SLICE_BEGIN:
            iid = get(te, "name_iid")
            if iid not in st["names"]:
                bad.append("packet %d: name iid %s not interned on sequence %d" % (n, iid, seq))
            st["stack"].append((iids.get(iid, "?"), ts))
        elif get(te, "type") == SLICE_END:
            if not st["stack"]:
                bad.append("packet %d: END without BEGIN" % n)
                continue
            name, start = st["stack"].pop()
            out.setdefault(tid, []).append((name, start, ts - start, "unfinished" in ann))
        else:
            bad.append("packet %d: track event type %s" % (n, get(te, "type")))
    bad += ["sequence %d ends with %d open slices" % (s, len(v["stack"])) for s, v in seqs.items() if v["stack"]]
    eq(bad[:5], [], what + ": packets follow the sequence rules")
    return out, names_by_tid, meta


def chrome_calls(trace):
    out = {}
    for e in trace["traceEvents"]:
        if e["ph"] == "X":
            # ns written as microseconds with 3 decimals: x 1000 and rounded, the exact ns again
            out.setdefault(e["tid"], []).append((e["name"], round(e["ts"] * 1000), round(e["dur"] * 1000),
                                                 bool(e.get("args", {}).get("unfinished"))))
    names = {e["tid"]: e["args"]["name"] for e in trace["traceEvents"] if e["ph"] == "M" and e["name"] == "thread_name"}
    return out, names


def inflate(path, what):
    """The packets of a compressed export: protoc reads the outer Trace (every packet holds only
    compressed_packets), Python's zlib inflates each chunk; returns the packets' bytes."""
    with open(path, "rb") as f:
        p = subprocess.run([PROTOC, "--decode=perfetto.protos.Trace", "-I", SCHEMA_DIR, "perfetto_subset.proto"],
                           stdin=f, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    eq(p.returncode, 0, what + ": protoc reads the compressed trace")
    outer = [v for k, v in parse_text(p.stdout) if k == "packet"]
    eq(sorted({tuple(k for k, _ in pk) for pk in outer}), [("compressed_packets",)],
       what + ": every outer packet is one compressed_packets")
    chunks = [get(pk, "compressed_packets") for pk in outer]
    check(all(len(c) < 512000 for c in chunks), what + ": each compressed packet under 512 KB (trace_packet.proto)")
    return b"".join(zlib.decompress(c) for c in chunks), len(chunks)


def compare(w, what, expect_calls=None):
    zf = os.path.join(w.path, "t.pftrace")
    eq(w.run(["profile", "export", w.latest(), "--format", "perfetto", "-o", zf]).returncode, 0, what + ": export")
    pf = os.path.join(w.path, "u.pftrace")
    eq(w.run(["profile", "export", w.latest(), "--format", "perfetto", "--no-compress", "-o", pf]).returncode, 0,
       what + ": export --no-compress")
    packets, nchunks = inflate(zf, what)
    check(packets == open(pf, "rb").read(), "%s: the %d compressed chunks inflate to the --no-compress trace"
          % (what, nchunks))
    cj = os.path.join(w.path, "t.json")
    eq(w.run(["profile", "export", w.latest(), "--format", "chrome", "-o", cj]).returncode, 0, what + ": chrome export")
    got, tnames, meta = slices(decode(pf), what)
    want, cnames = chrome_calls(json.load(open(cj)))
    eq(tnames, cnames, what + ": the same threads, the same names")
    for tid in sorted(set(got) | set(want)):
        a, b = sorted(got.get(tid, [])), sorted(want.get(tid, []))
        check(a == b, "%s: thread %d: %d slices equal the Chrome export's %d calls (first: %r / %r)"
              % (what, tid, len(a), len(b), a[:1], b[:1]))
    ncalls = sum(len(v) for v in got.values())
    if expect_calls is not None:
        counts = {}
        for v in got.values():
            for c in v:
                counts[c[0]] = counts.get(c[0], 0) + 1
        eq({k: counts.get(k) for k in expect_calls}, expect_calls, what + ": slices per function")
    return got, meta, (os.path.getsize(pf), os.path.getsize(zf)), ncalls


check(PROTOC is not None, "protoc installed (scripts/setup.sh installs protobuf-compiler)")
if PROTOC is None:
    done()

with Workdir() as w:
    # two parents (known calls): main 1, alpha 1, beta 1, leaf 8
    eq(w.run(["--profile", "--no-open", "run", prog("s-two-parents.c")]).returncode, 0, "two-parents: run")
    got, meta, size, n = compare(w, "two-parents", {"main": 1, "alpha": 1, "beta": 1, "leaf": 8})
    check(meta is not None and get(meta, "name") == "exaloop capture", "two-parents: metadata event")
    ann = {get(a, "name"): a for a in every(meta or [], "debug_annotations")}
    eq(get(ann.get("timeline_truncated", []), "bool_value"), False, "two-parents: metadata says the timeline is whole")
    eq(get(ann.get("finalized", []), "bool_value"), True, "two-parents: metadata says finalized")
    fns = [dict(zip(every(f, "dict_keys"), [get(v, "string_value", get(v, "int_value")) for v in every(f, "dict_values")]))
           for f in every(get(ann.get("functions", []), "nested_value", []), "array_values")]
    eq(get(ann.get("timeline_mode", []), "string_value"), "auto", "two-parents: metadata gives the timeline mode")
    kept = [get(v, "string_value") for v in every(get(ann.get("timeline_kept", []), "nested_value", []), "array_values")]
    summ = w.summary()
    eq(kept, ["%d: %s" % (t["tid"], t["timeline"]["note"]) for t in summ.doc["threads"]],
       "two-parents: metadata says what each thread's timeline kept, as the summary")
    leaf = [f for f in fns if f.get("name") == "leaf"]
    check(len(leaf) == 1 and leaf[0]["file"].endswith("s-two-parents.c") and leaf[0]["line"] > 0,
          "two-parents: metadata functions give leaf's file and line: %r" % leaf)

    # a name ending in .gz: the same trace, gzip-compressed (as every format)
    gz = os.path.join(w.path, "t.pftrace.gz")
    eq(w.run(["profile", "export", w.latest(), "--format", "perfetto", "-o", gz]).returncode, 0, "export to .pftrace.gz")
    import gzip
    check(gzip.open(gz).read() == open(os.path.join(w.path, "t.pftrace"), "rb").read(),
          ".pftrace.gz: the same trace, compressed")

    # every path of a 4-ary tree, depth 7: 21,844 calls, each entered once (s-paths), and 4 + 4^2 + ... names
    eq(w.run(["--profile", "--no-open", "run", prog("s-paths.c"), "7"]).returncode, 0, "paths: run")
    got, meta, size, n = compare(w, "paths")
    eq(n, 21845, "paths: main and 21,844 path calls")
    print("paths: %d calls; %d bytes (%.1f a call), compressed %d (%.1f a call)"
          % (n, size[0], size[0] / n, size[1], size[1] / n))
    check(size[0] < 40 * n and size[1] < 10 * n,
          "paths: under 40 bytes a call, 10 compressed (sanity bounds; docs/benchmarks.md has the figures)")

    # threads: one track per thread, each named
    eq(w.run(["--profile", "--no-open", "run", prog("s-threads.c"), "200"]).returncode, 0, "threads: run")
    got, meta, size, n = compare(w, "threads", {"work": 1600, "step": 3200, "thread_main": 8})
    eq(len(got), 9, "threads: 9 tracks with slices")

    # a crash: frames that never returned are closed at the end, marked unfinished
    w.run(["--profile", "--no-open", "run", prog("s-segv.c"), "50"])
    got, meta, size, n = compare(w, "segv", {"work": 50, "main": 1, "crash": 1})
    eq(sorted(c[0] for v in got.values() for c in v if c[3]), ["crash", "main"], "segv: main and crash unfinished")

    # a truncated timeline (1 MiB buffer): frames closed where the thread's timeline stops
    open(os.path.join(w.path, "exaloop.toml"), "w").write(
        '[targets.t]\nsource = "%s"\nargs = ["23"]\n[targets.t.profile]\nbuffer_size = "1MiB"\ntimeline = "first"\n' % prog("s-fib.c"))
    w.run(["--profile", "--no-open", "--target", "t", "run"])
    got, meta, size, n = compare(w, "truncated")
    ann = {get(a, "name"): a for a in every(meta or [], "debug_annotations")}
    check(get(ann.get("timeline_truncated", []), "bool_value") is True
          and get(ann.get("timeline_truncated_from_ns", []), "uint_value", 0) > 0, "truncated: metadata says where")

    # a "last" timeline that reused its blocks (2 MiB, 1.2 M events): main's entry was overwritten,
    # its exit kept, so main begins at the ring's first record, named from its exit, as in Chrome
    open(os.path.join(w.path, "exaloop.toml"), "w").write(
        '[targets.r]\nsource = "%s"\nargs = ["300", "2000"]\n[targets.r.profile]\nbuffer_size = "2MiB"\n'
        'timeline = "last"\n' % prog("s-timeline.c"))
    eq(w.run(["--profile", "--no-open", "--target", "r", "run"]).returncode, 0, "ring: run")
    check(w.summary().doc["threads"][0]["timeline"]["recycled_blocks"] > 0, "ring: the timeline reused its blocks")
    got, meta, size, n = compare(w, "ring")
    mains = [c for v in got.values() for c in v if c[0] == "main"]
    eq(len(mains), 1, "ring: main, entered before the ring's first record, is one slice: %r" % mains[:2])

    # two static functions named helper: their slices say which (fn = index in the metadata's functions)
    eq(w.run(["--profile", "--no-open", "run"] + same_name_helpers(w.path)).returncode, 0, "same names: run")
    pf = os.path.join(w.path, "same.pftrace")
    eq(w.run(["profile", "export", w.latest(), "--format", "perfetto", "--no-compress", "-o", pf]).returncode, 0,
       "same names: export")
    packets = decode(pf)
    meta = [get(p, "track_event") for p in packets if get(get(p, "track_event", []), "type") == INSTANT][0]
    ann = {get(a, "name"): a for a in every(meta, "debug_annotations")}
    files = [os.path.basename(get(every(f, "dict_values")[1], "string_value"))
             for f in every(get(ann["functions"], "nested_value"), "array_values")]
    per_file = {}
    for p in packets:
        te = get(p, "track_event", [])
        if get(te, "type") == SLICE_BEGIN:
            fn = [get(a, "int_value") for a in every(te, "debug_annotations") if get(a, "name") == "fn"]
            if fn:
                per_file[files[fn[0]]] = per_file.get(files[fn[0]], 0) + 1
    eq(per_file, {"same_a.c": 3, "same_b.c": 5}, "same names: each helper slice names its function (fn)")

    # bad inputs: like the other formats
    cap = w.latest()
    bad = os.path.join(w.path, "bad-capture")
    shutil.copytree(cap, bad)
    with open(os.path.join(bad, "capture.xlc"), "r+b") as f:
        f.write(b"this is not a capture file" * 8)
    for fmt in ("chrome", "perfetto"):
        out = os.path.join(w.path, "bad." + fmt)
        p = w.run(["profile", "export", bad, "--format", fmt, "-o", out])
        eq((p.returncode, len(p.stderr.strip().splitlines()), os.path.exists(out)), (3, 1, False),
           "corrupt capture, %s: exit 3, one line, nothing written" % fmt)
    for target, code, what in ((os.path.join(w.path, "no-such-dir", "t.pftrace"), 1, "a missing directory"),
                               ("/dev/full", 1, "a full device")):
        p = w.run(["profile", "export", cap, "--format", "perfetto", "-o", target])
        c = w.run(["profile", "export", cap, "--format", "chrome", "-o", target])
        eq((p.returncode, len(p.stderr.strip().splitlines())), (code, 1), "-o %s: exit %d, one line" % (what, code))
        eq(p.stderr.replace("perfetto", "F"), c.stderr.replace("chrome", "F"), "-o %s: the Chrome export's message" % what)
done()
