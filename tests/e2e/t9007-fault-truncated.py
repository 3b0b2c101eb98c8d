"""Faults: a capture cut off at every offset.

A capture copied only in part, or cut by a full disk, must never crash the analyzer:
`exaloop profile report --json` either succeeds with what it recovered (never more calls than
the whole capture has, and a "truncated" warning) or fails with exit 3 and one error line.

Two small captures (the repacked seeds of the fuzz corpus: s-fib and s-segv) cut at every
offset past the header (thread table, thread blocks, call-tree nodes, timeline and memory blocks)
and, inside the header, at its ends and every 61st byte; and a full-size capture of s-segv made
here, cut at every block boundary (+-1) plus every 1009th byte.
"""
import concurrent.futures
import struct

from xltest import *

SEEDS = os.path.join(SRC, "tests", "fuzz", "corpus", "capture")


def report(capdir):
    p = subprocess.run([EXALOOP, "profile", "report", capdir, "--json"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def calls(doc):
    """Calls per XRay id (cut copies have no symbols.json, so no names)."""
    return {f["xray_id"]: f["calls"] for f in doc["functions"]}


def boundaries(data):
    """File offsets where a block or a record group starts, read from the capture's own links."""
    out = {4096, 4096 + 8, 12288}
    nthreads = min(struct.unpack_from("<I", data, 184)[0], 1024)
    for i in range(nthreads):
        tb = struct.unpack_from("<Q", data, 4096 + 8 * i)[0]
        if not tb or tb + 8368 > len(data):
            continue
        out.update({tb, tb + 176, tb + 8368})
        count = struct.unpack_from("<I", data, tb + 160)[0]
        for c in range((count + 4095) // 4096):
            chunk = struct.unpack_from("<Q", data, tb + 176 + 8 * c)[0]
            out.update({chunk - 32, chunk, chunk + 32 * min(count - 4096 * c, 4096)})
        tl = struct.unpack_from("<Q", data, tb + 168)[0]
        if tl:
            out.update({tl, tl + 32})
    mem = struct.unpack_from("<Q", data, 192)[0]
    if mem:
        out.update({mem, mem + 32})
    return out


def sweep(w, name, data, offsets, full):
    """Report data cut at each offset; returns (recovered, refused)."""
    bad = []
    results = {"ok": 0, "refused": 0}

    def one(off):
        d = os.path.join(w.path, "%s-%d" % (name, off))
        os.makedirs(d)
        with open(os.path.join(d, "capture.xlc"), "wb") as f:
            f.write(data[:off])
        rc, out, err = report(d)
        shutil.rmtree(d, ignore_errors=True)
        if rc == 0:
            try:
                doc = json.loads(out)
            except ValueError as e:
                return off, "invalid JSON (%s)" % e
            got = calls(doc)
            over = [f for f, n in got.items() if n > full.get(f, 0)]
            if over:
                return off, "more calls than the whole capture: %s" % over
            if off < len(data) and not any(x["kind"] == "truncated" for x in doc["warnings"]):
                return off, "no 'truncated' warning"
            if "statm could not be read" in json.dumps(doc.get("memory")):
                return off, "memory unavailable blamed on /proc/self/statm (the samples were cut off)"
            if off < len(data) and any(x["kind"] == "no_functions" for x in doc["warnings"]):
                return off, "'no traced function ran' about a capture whose calls were cut off"
            return off, "ok"
        lines = err.splitlines()
        if rc == 3 and len(lines) == 1 and lines[0].startswith("exaloop: error:"):
            return off, "refused"
        return off, "exit %d, stderr %r" % (rc, err[-300:])

    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        for off, what in pool.map(one, sorted(offsets)):
            if what in results:
                results[what] += 1
            else:
                bad.append((off, what))
    eq(bad[:5], [], "%s: every cut reads or is refused in one line (%d offsets)" % (name, len(offsets)))
    print("%s: %d cuts recovered data, %d refused" % (name, results["ok"], results["refused"]))
    return results["ok"], results["refused"]


with Workdir() as w:
    # two repacked captures, every offset
    for seed in ("fib.xlc", "segv.xlc"):
        with open(os.path.join(SEEDS, seed), "rb") as f:
            data = f.read()
        whole = os.path.join(w.path, "whole-" + seed)
        os.makedirs(whole)
        shutil.copy(os.path.join(SEEDS, seed), os.path.join(whole, "capture.xlc"))
        rc, out, err = report(whole)
        eq(rc, 0, seed + ": the whole capture reads")
        full = calls(json.loads(out))
        # Inside the header a cut is refused for one reason (the file is shorter than the
        # header), so its first and last bytes and a stride of it do; past it, every byte.
        inside = set(range(0, 64)) | set(range(64, 4096, 61)) | set(range(4096 - 8, 4096))
        ok, refused = sweep(w, seed, data, inside | set(range(4096, len(data) + 1)), full)
        eq(refused, len(inside), seed + ": refused exactly the cuts inside the 4096-byte header")
        if seed == "fib.xlc":
            # cut right after the header: it reads, with no thread, and --thread says so
            bare = os.path.join(w.path, "bare")
            os.makedirs(bare)
            with open(os.path.join(bare, "capture.xlc"), "wb") as f:
                f.write(data[:4096])
            p = subprocess.run([EXALOOP, "profile", "report", bare, "--text", "--thread", "0"],
                               capture_output=True, text=True, timeout=120)
            eq((p.returncode, p.stderr.strip()), (2, "exaloop: error: no thread 0 in this capture: it recorded no "
                                                   "thread (drop --thread)"), "header only: --thread 0 says why")

    # a full-size capture of a crash, at block boundaries and a stride
    p = w.run(["--profile", "--no-open", "run", prog("s-segv.c"), "1000"])
    eq(p.returncode, 139, "s-segv captured")
    cap = w.latest()
    with open(os.path.join(cap, "capture.xlc"), "rb") as f:
        data = f.read()
    rc, out, err = report(cap)
    work = Summary(json.loads(out)).func("work")["xray_id"]
    os.unlink(os.path.join(cap, "symbols.json"))
    rc, out, err = report(cap)
    full = calls(json.loads(out))
    eq(full.get(work), 1000, "s-segv: whole capture has work = 1000")
    offs = set(range(0, len(data), 1009)) | {len(data)}
    for b in boundaries(data):
        offs.update(o for o in (b - 1, b, b + 1) if 0 <= o <= len(data))
    ok, refused = sweep(w, "s-segv", data, offs, full)
    check(ok > 0 and refused > 0, "s-segv: some cuts recover data, cuts in the header are refused")
    # cut just after the last call-tree byte (losing memory samples and timeline events that
    # follow it): every call is still there.  The memory block is allocated by the control thread
    # and may land before or after the main thread's blocks, so the cut is taken from the links.
    tree_end = 0
    for i in range(min(struct.unpack_from("<I", data, 184)[0], 1024)):
        tb = struct.unpack_from("<Q", data, 4096 + 8 * i)[0]
        if not tb:
            continue
        tree_end = max(tree_end, tb + 8368)
        count = struct.unpack_from("<I", data, tb + 160)[0]
        for c in range((count + 4095) // 4096):
            chunk = struct.unpack_from("<Q", data, tb + 176 + 8 * c)[0]
            tree_end = max(tree_end, chunk + 32 * min(count - 4096 * c, 4096))
    mem = struct.unpack_from("<Q", data, 192)[0]
    cut = max(tree_end, mem) if mem else tree_end
    check(0 < cut < len(data), "s-segv: the call trees end before the end of the capture")
    d = os.path.join(w.path, "after-trees")
    os.makedirs(d)
    with open(os.path.join(d, "capture.xlc"), "wb") as f:
        f.write(data[:cut])
    rc, out, err = report(d)
    eq(rc, 0, "cut after the call trees: reads")
    if rc == 0:
        eq(calls(json.loads(out)).get(work), 1000, "cut after the call trees: every call recovered")
done()
