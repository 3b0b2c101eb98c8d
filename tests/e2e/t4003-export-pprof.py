"""pprof export (--format pprof): read by `go tool pprof` (Debian's golang-go), an independent
reader, it holds the summary's call tree exactly: one sample per node with its calls and self time
(ns), its path leaf first, labelled with its thread's name, tid and the pid; the totals and the ten
largest self times of `go tool pprof -top` are those of `profile report --json`; allocations per
function (objects, bytes, bytes live at the end) are the summary's; functions carry their file and
line; time_nanos/duration_nanos are the capture window (protoc --decode_raw reads them exactly).
The file is gzip once, whatever OUT is named; --no-compress gives the bare message."""
import gzip
import shutil
from datetime import datetime, timezone

from xltest import *

GO = shutil.which("go")
PROTOC = shutil.which("protoc")


def go_env(home):
    """go writes nothing outside home and never uses the network."""
    e = dict(os.environ)
    e.update({"HOME": home, "GOPATH": os.path.join(home, "go"), "GOCACHE": os.path.join(home, "cache"),
              "GOENV": "off", "GOFLAGS": "", "GOPROXY": "off", "GOTOOLCHAIN": "local", "GOTELEMETRY": "off",
              "PPROF_TMPDIR": os.path.join(home, "pprof"), "PPROF_BINARY_PATH": os.path.join(home, "nobin")})
    return e


def pprof(w, args, path):
    p = subprocess.run([GO, "tool", "pprof"] + args + [path], env=go_env(w.gohome), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=600)
    eq((p.returncode, p.stderr.strip()[-300:]), (0, ""), "go tool pprof %s %s" % (" ".join(args), os.path.basename(path)))
    return p.stdout


def parse_raw(text):
    """`go tool pprof -raw`: {"types", "samples": [(values, location ids, {label: value})], "locs":
    {id: (name, file, line)}, "time"}."""
    out = {"types": [], "samples": [], "locs": {}, "time": None}
    part = None
    for line in text.splitlines():
        if line.startswith("Time: "):
            out["time"] = line[6:]
        elif line in ("Samples:", "Locations", "Mappings"):
            part = line
        elif part == "Samples:" and not out["types"]:
            out["types"] = [t.split("/")[0] for t in line.split()]
        elif part == "Samples:":
            m = re.match(r"^\s*(-?\d+(?:\s+-?\d+)*): ([\d ]*)$", line)
            if m:
                out["samples"].append(([int(v) for v in m.group(1).split()], [int(i) for i in m.group(2).split()], {}))
            else:
                for k, v in re.findall(r"(\w+):\[([^\]]*)\]", line):
                    out["samples"][-1][2][k] = v
        elif part == "Locations":
            m = re.match(r"^\s*(\d+): 0x[0-9a-f]+ M=\d+ (.*) (\S*):(\d+) s=\d+$", line)
            if m:
                out["locs"][int(m.group(1))] = (m.group(2), m.group(3), int(m.group(4)))
    return out


def flats(s):
    """Each function's flat wall time in the pprof export, from the summary: a traced function's
    self_ns less its sampled frames' estimates, and the sampled frames ("name (inlined)",
    "soname`name") with theirs (docs/cli.md: sampled frames)."""
    out = {f["name"]: f["self_ns"] for f in s.funcs if f["calls"]}
    tr = s.doc["tree"]
    sm = tr.get("sampled")
    if not sm:
        return out
    n = len(tr["parent"])
    traced = []
    for k in range(len(sm["parent"])):
        p = sm["parent"][k]
        t = p if p < n else traced[p - n]
        traced.append(t)
        if tr["parent"][t] < 0 or sm["est_ns"][k] <= 0:
            continue
        fn = s.doc["functions"][tr["func"][t]]["name"]
        out[fn] -= sm["est_ns"][k]
        name = (sm["name"][k] + " (inlined)" if sm["kind"][k] == "inlined"
                else "%s`%s" % (sm["library"][k] or "(program)", sm["name"][k]))
        out[name] = out.get(name, 0) + sm["est_ns"][k]
    return out


def by_path(raw):
    """{(tid, (root, ..., leaf)): [values...]} from the samples (leaf first in the file)."""
    out = {}
    for values, locs, labels in raw["samples"]:
        key = (int(labels.get("tid", -1)), tuple(raw["locs"][i][0] for i in reversed(locs)))
        out[key] = [a + b for a, b in zip(out.get(key, [0] * len(values)), values)]
    return out


def summary_paths(s):
    """{(tid, path): [calls, self_ns]} from the summary's tree (nodes with either)."""
    t, names, tids = s.tree, [f["name"] for f in s.funcs], [th["tid"] for th in s.doc["threads"]]
    path, out = {}, {}
    for i in range(len(t["parent"])):
        if t["parent"][i] < 0:
            path[i] = ()
            continue
        path[i] = path[t["parent"][i]] + (names[t["func"][i]],)
        if t["calls"][i] or t["self_ns"][i]:
            key = (tids[t["thread"][i]], path[i])
            prev = out.get(key, [0, 0])
            out[key] = [prev[0] + t["calls"][i], prev[1] + t["self_ns"][i]]
    return out


def top(w, path, index, n=None, unit=None):
    """`go tool pprof -top`: [(flat, cum, name)] with values as integers in the unit asked for."""
    args = ["-top", "-nodefraction=0", "-sample_index=" + index] + (["-nodecount=%d" % n] if n else [])
    text = pprof(w, args + (["-unit=" + unit] if unit else []), path)
    total = re.search(r"Total samples = (\d+)", text)
    rows = [(int(m.group(1)), int(m.group(2)), m.group(3)) for m in
            re.finditer(r"^\s*(\d+)[a-zA-Z]*\s+\S+%\s+\S+%\s+(\d+)[a-zA-Z]*\s+\S+%\s+(.+)$", text, re.M)]
    return rows, int(total.group(1)) if total else None


def decode_raw(path):
    """protoc --decode_raw of the gunzipped profile: {field: [values]} of the top-level scalars."""
    data = gzip.open(path).read()
    p = subprocess.run([PROTOC, "--decode_raw"], input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=300)
    eq(p.returncode, 0, "protoc --decode_raw")
    out, depth = {}, 0
    for line in p.stdout.decode("utf-8", "replace").splitlines():
        s = line.strip()
        if s.endswith("{"):
            depth += 1
        elif s == "}":
            depth -= 1
        elif depth == 0 and ": " in s:
            k, v = s.split(": ", 1)
            out.setdefault(int(k), []).append(v)
    return out


def export(w, name, extra=()):
    out = os.path.join(w.path, name)
    p = w.run(["profile", "export", w.latest(), "--format", "pprof", "-o", out] + list(extra))
    eq(p.returncode, 0, "export --format pprof -o " + name)
    return out


check(GO is not None, "go installed (scripts/setup.sh installs golang-go: go tool pprof)")
check(PROTOC is not None, "protoc installed (scripts/setup.sh installs protobuf-compiler)")
if GO is None or PROTOC is None:
    done()

with Workdir() as w:
    w.gohome = os.path.join(w.path, "gohome")
    os.makedirs(w.gohome)

    # 8 worker threads (thread_main 1 > work 200 > step 400 each) and main: every node a sample
    eq(w.run(["--profile", "--no-open", "run", prog("s-threads.c"), "200"]).returncode, 0, "threads: run")
    s = w.summary()
    pb = export(w, "threads.pb.gz")
    raw = parse_raw(pprof(w, ["-raw"], pb))
    eq(raw["types"], ["calls", "wall", "alloc_objects", "alloc_space", "inuse_space"], "threads: sample types")
    got = {k: v[:2] for k, v in by_path(raw).items()}
    want = summary_paths(s)
    eq(len(got), len(want), "threads: one sample per call path and thread (%d)" % len(want))
    check(got == want, "threads: every sample's thread, path (leaf first), calls and self ns are the tree's")
    tids = {t["tid"]: t["name"] for t in s.doc["threads"]}
    pid = s.doc["run"]["process"]["pid"]
    eq(sorted({(int(l["tid"]), l.get("thread"), int(l["pid"])) for v, i, l in raw["samples"]}),
       sorted((tid, name, pid) for tid, name in tids.items()), "threads: labels thread, tid, pid per thread")
    eq(sorted(n for n in tids.values() if n.startswith("worker-")), ["worker-%d" % k for k in range(8)],
       "threads: the workers' own names")
    eq(sum(got.get((tid, ("thread_main", "work", "step")), [0])[0] for tid in tids), 3200,
       "threads: step under thread_main > work, 8 x 400")
    traces = pprof(w, ["-traces", "-sample_index=calls"], pb).split("-----------+")
    steps = [t for t in traces if re.search(r"^\s+400\s+step\n\s+work\n\s+thread_main\s*$", t, re.M)]
    eq(sorted(re.search(r"thread:\s+(\S+)", t).group(1) for t in steps), ["worker-%d" % k for k in range(8)],
       "threads: -traces, one step > work > thread_main trace per worker, labelled")
    fns = {f["name"]: f for f in s.funcs}
    eq({n: (f, l) for n, f, l in raw["locs"].values()},
       {n: (fns[n]["file"], fns[n]["line"]) for n, f, l in raw["locs"].values()},
       "threads: each location's function has the summary's file and line")
    check(all(l > 0 and f.endswith("s-threads.c") for n, f, l in raw["locs"].values()), "threads: files and lines")

    # the window: time_nanos and duration_nanos exactly (protoc), the time also as pprof shows it
    fields = decode_raw(pb)
    win = s.doc["run"]["window"]
    eq(int(fields[10][0]), win["duration_ns"], "threads: duration_nanos is the capture window's")
    started = datetime.strptime(s.doc["run"]["started_at"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    t_ns = int(fields[9][0])
    check(0 <= t_ns / 1e9 - started.timestamp() < 10, "threads: time_nanos %d within 10 s after started_at %s"
          % (t_ns, s.doc["run"]["started_at"]))
    check(raw["time"] and raw["time"].startswith(datetime.fromtimestamp(t_ns // 10**9, timezone.utc)
                                                 .strftime("%Y-%m-%d %H:%M:%S")), "threads: pprof shows that time")
    strings = [v for v in fields.get(6, [])]
    eq(strings[:1], ['""'], "threads: string_table[0] is empty")

    # one file whatever it is named: OUT.gz is not gzipped twice; --no-compress is the bare message
    data = open(pb, "rb").read()
    bare = gzip.decompress(data)
    check(data[:2] == b"\x1f\x8b" and bare[:2] != b"\x1f\x8b", "threads: gzip once")
    check(open(export(w, "threads.pprof"), "rb").read() == data, "threads: the same bytes without .gz in the name")
    nc = export(w, "threads.pb", ["--no-compress"])
    check(open(nc, "rb").read() == bare, "threads: --no-compress, the message itself")
    eq(by_path(parse_raw(pprof(w, ["-raw"], nc))), by_path(raw), "threads: pprof reads the bare message alike")
    ncgz = export(w, "threads-nc.pb.gz", ["--no-compress"])
    check(gzip.open(ncgz).read() == bare, "threads: --no-compress to OUT.gz: gzipped by the name, once")

    # --thread I: that thread's samples only
    worker3 = [i for i, t in enumerate(s.doc["threads"]) if t["name"] == "worker-3"][0]
    one = parse_raw(pprof(w, ["-raw"], export(w, "w3.pb.gz", ["--thread", str(worker3)])))
    eq({l.get("thread") for v, i, l in one["samples"]}, {"worker-3"}, "--thread: only worker-3's samples")
    eq(sum(v[0] for v, i, l in one["samples"]), 601, "--thread: its 601 calls")

    # the bundled example, release: totals and the ten largest self times are the summary's
    eq(w.run(["--profile", "--no-open", "run", "-release", "-lgc", "-lm", os.path.join(SRC, "examples", "loans", "loans.c"),
              "--loans", "20000", "--scenarios", "8", os.path.join(w.path, "out.csv")]).returncode, 0, "loans: run")
    s = w.summary()
    pb = export(w, "loans.pb.gz")
    rows, total = top(w, pb, "wall", unit="ns")
    eq(total, sum(f["self_ns"] for f in s.funcs), "loans: total self ns (pprof -top) is the summary's")
    fl = flats(s)
    check(any("`" in k for k in fl), "loans: library code (libm) as sampled frames: %r" % sorted(k for k in fl if "`" in k))
    ten = sorted(fl.items(), key=lambda kv: -kv[1])[:10]
    rows10, _ = top(w, pb, "wall", n=10, unit="ns")
    eq([r[0] for r in rows10], [v for k, v in ten],
       "loans: -top's ten flat ns are the summary's ten self_ns (less sampled frames) and sampled frames")
    # ... of the same functions; sampled frames with as many samples have the same estimate, so
    # functions tied with the tenth may be listed in either order
    cut = ten[-1][1]
    names10 = {r[2] for r in rows10}
    check({k for k, v in fl.items() if v > cut} <= names10 <= {k for k, v in fl.items() if v >= cut},
          "loans: ... of the same functions (ties at the tenth, %d ns, either way): %r" % (cut, sorted(names10)))
    eq(sorted((r[2], r[1]) for r in rows if r[2] in {f["name"] for f in s.funcs}),
       sorted((f["name"], f["total_ns"]) for f in s.funcs if f["calls"]),
       "loans: cum per traced function is the summary's total (recursion once)")
    raw = parse_raw(pprof(w, ["-raw"], pb))
    lib = [(v, l) for v, ids, l in raw["samples"] if "`" in raw["locs"][ids[0]][0]]
    check(lib and all(v[0] == 0 and l.get("sampled") == "library" for v, l in lib),
          "loans: library frames are samples of no call, labelled sampled:[library] (%d)" % len(lib))
    rows, total = top(w, pb, "calls")
    eq(total, sum(f["calls"] for f in s.funcs), "loans: total calls (pprof -top) is the summary's")
    eq(sorted((r[2], r[0]) for r in rows if r[0]), sorted((f["name"], f["calls"]) for f in s.funcs if f["calls"]),
       "loans: calls per function")
    nodes = s.doc["totals"]["nodes"]
    print("loans: %d nodes, %d functions: %d bytes gzipped (%.1f a node), %d bare (%.1f a node)"
          % (nodes, len(s.funcs), len(data := open(pb, "rb").read()), len(data) / nodes, len(gzip.decompress(data)),
             len(gzip.decompress(data)) / nodes))

    # allocations (s-alloc: known sizes, a 548-byte leak, a worker thread): per function and in all
    eq(w.run(["--profile", "--no-open", "run", prog("s-alloc.c")]).returncode, 0, "alloc: run")
    s = w.summary()
    pb = export(w, "alloc.pb.gz")
    tot = s.doc["allocations"]["total"]
    for index, key, unit in (("alloc_objects", "allocs", None), ("alloc_space", "bytes", "B"),
                             ("inuse_space", "live_bytes", "B")):
        rows, total = top(w, pb, index, unit=unit)
        eq(total, tot[key], "alloc: %s in all is the summary's %s" % (index, key))
        eq(sorted((r[2], r[0]) for r in rows if r[0]), sorted((f["name"], f["alloc"][key]) for f in s.funcs
                                                                if f["alloc"][key]),
           "alloc: %s per function is the summary's %s" % (index, key))
    eq(tot["live_bytes"], 548, "alloc: the program's 548-byte leak")

    # two static functions named helper, one per file: two functions, each with its own file
    eq(w.run(["--profile", "--no-open", "run"] + same_name_helpers(w.path)).returncode, 0, "same names: run")
    raw = parse_raw(pprof(w, ["-raw"], export(w, "same.pb.gz")))
    calls = {}
    for values, locs, labels in raw["samples"]:
        name, file, line = raw["locs"][locs[0]]
        if name == "helper":
            calls[os.path.basename(file)] = calls.get(os.path.basename(file), 0) + values[0]
    eq(calls, {"same_a.c": 3, "same_b.c": 5}, "same names: each helper's calls under its own file")

    # a bounded call tree (s-paths 8 in a 1 MiB buffer): the calls beyond the bound are in "(more call
    # paths)" frames below their callers, as in the tree; the totals are still the summary's
    open(os.path.join(w.path, "exaloop.toml"), "w").write(
        '[targets.p]\nsource = "%s"\nargs = ["8"]\n[targets.p.profile]\nbuffer_size = "1MiB"\n' % prog("s-paths.c"))
    eq(w.run(["--profile", "--no-open", "--target", "p", "run"]).returncode, 0, "bounded: run")
    s = w.summary()
    more = s.doc["totals"]["more_calls"]
    check(more > 0, "bounded: the tree is bounded (%d calls in \"(more call paths)\" nodes)" % more)
    pb = export(w, "bounded.pb.gz")
    raw = parse_raw(pprof(w, ["-raw"], pb))
    eq(sum(v[0] for v, i, l in raw["samples"]), sum(f["calls"] for f in s.funcs), "bounded: total calls")
    # the function table's self times come from the runtime's per-function records, converted from ticks
    # apart from the "(more call paths)" nodes' times: each conversion rounds once
    got_ns, want_ns = sum(v[1] for v, i, l in raw["samples"]), sum(f["self_ns"] for f in s.funcs)
    check(abs(got_ns - want_ns) <= len(s.funcs) + s.doc["totals"]["more_nodes"],
          "bounded: total self ns %d == %d within rounding (1 ns a function and a node)" % (got_ns, want_ns))
    eq(sum(v[0] for v, i, l in raw["samples"] if raw["locs"][i[0]][0] == "(more call paths)"), more,
       "bounded: the \"(more call paths)\" frames hold totals.more_calls")
    got = {k: v[:2] for k, v in by_path(raw).items()}
    check(got == summary_paths(s), "bounded: every sample is a node of the tree, \"(more call paths)\" ones too")
    comments = pprof(w, ["-comments"], pb)
    check("%d calls on paths beyond the bound" % more in comments, "bounded: a comment says so: " + comments.strip())

    # bad inputs: like the other formats
    p = w.run(["profile", "export", w.latest(), "--format", "pprof", "-o", "/dev/full"])
    eq((p.returncode, len(p.stderr.strip().splitlines())), (1, 1), "-o /dev/full: exit 1, one line")
    p = w.run(["profile", "export", w.latest(), "--format", "folded", "--no-compress"])
    check(p.returncode == 2 and "perfetto or pprof" in p.stderr, "--no-compress with folded: a usage error")
done()
