"""Hostile captures: references that share a record must not amplify work, memory or output.

A capture (format 4) is a header, a thread table and blocks (capture-format.md).  Every record
has exactly one reference: a thread-table entry, a node-chunk slot, a thread block's
func_table or alloc_first, the `next` of the block before it.  A crafted file whose references point many
times at one record used to be read once per reference: a 300 KB capture took 9.5 s and 640 MB
and gave a 235 MB index.html.  The reader now reads each byte at most once and refuses a capture
whose records share bytes, with one line naming the record, exit 3, and nothing written.

Made here from a real capture of s-paths (depth 6: 5,460 call paths, 2 node chunks, 10,920
timeline events, a function table):
- table:      128 thread-table entries point at the main thread's block;
- chunks:     the thread's second node-chunk slot points at its first chunk;
- timelines:  40 more (tiny, otherwise valid) threads whose timelines start at the main thread's;
- functions:  40 more tiny threads whose function tables are the main thread's;
- samples:    a memory-sample list whose blocks start every 64 bytes inside the first one's
              1,024 samples (forward links, so the loop guard alone does not stop it);
- overlap:    a node-chunk slot pointing into the thread's own block (another kind of record);
- allocations: 40 more tiny threads whose allocation records (alloc_first) are one block;
- isamples:   an instruction-sample block (format 6) linking to a block inside its own records;
- psamples:   a position-sample block inside an instruction-sample block's records;
- maps:       a mappings block whose next block starts inside its records.
The untouched capture still reads, with every call path, and so does one whose main thread has
that allocation block as its own (its record counted), and one whose instruction-sample record
claims more addresses than its block holds (that record and the rest of the block are skipped).
"""
import shutil
import struct

from xltest import *

HDR = 4096
H_VERSION, H_FLAGS, H_FILE_SIZE, H_ARENA_CURSOR, H_THREAD_COUNT, H_MEM_FIRST = 8, 32, 40, 56, 184, 192
H_MEM_MISSED = 200
H_ALLOC_REC_SIZE, FLAG_ALLOCS = 336, 0x200
TB_SLOT, TB_NODE_COUNT, TB_DEPTH, TB_TIMELINE_FIRST, TB_CHUNKS = 32, 160, 164, 168, 176
TB_FUNC_TABLE, TB_FUNC_SLOTS = 41136, 41144   # after stack[2048]; then the CPU times (version 3)
TB_ALLOC_FIRST = 41176                         # version 4: the allocation fields
TB_SIZE = 42280                                # version 7: tl_written after the timeline fields ends the block
H_TIMELINE_MODE, TL_LAST = 464, 3              # version 5
H_ISAMPLE_FIRST, H_PSAMPLE_FIRST, H_MAPS_FIRST = 600, 608, 616   # version 6: samples
BLOCK_ISAMPLES, BLOCK_PSAMPLES, BLOCK_MAPS, MAP_REC = 7, 8, 9, 256
BLK = 32  # struct xl_cap_block {kind, owner, size, next, count, capacity}
BLOCK_MEMORY, SAMPLE = 4, 72  # version 4: with capture_rss_bytes, alloc_bytes, alloc_calls
BLOCK_ALLOCS, ALLOC_REC = 5, 80  # struct xl_alloc_stat {node, func, owner, reserved, allocs, bytes, ...}


def u32(b, off):
    return struct.unpack_from("<I", b, off)[0]


def u64(b, off):
    return struct.unpack_from("<Q", b, off)[0]


def put64(b, off, v):
    struct.pack_into("<Q", b, off, v)


def put32(b, off, v):
    struct.pack_into("<I", b, off, v)


def variant(w, base, name, data):
    d = os.path.join(w.path, "hostile-" + name)
    shutil.copytree(base, d)
    if os.path.exists(os.path.join(d, "index.html")):
        os.remove(os.path.join(d, "index.html"))
    with open(os.path.join(d, "capture.xlc"), "wb") as f:
        f.write(data)
    return d


def grow(data, extra):
    """Append a block (64-byte aligned) and keep the header's sizes consistent; its offset."""
    start = (len(data) + 63) // 64 * 64
    data += b"\0" * (start - len(data)) + extra
    put64(data, H_FILE_SIZE, len(data))
    put64(data, H_ARENA_CURSOR, len(data))
    return start


def tiny_threads(d, orig, tb0, chunk0, n, **fields):
    """n more threads, each a whole thread block with its own one-node chunk (a copy of the main
    thread's root), no open frames and no function table unless fields say otherwise."""
    root = bytes(orig[chunk0 - BLK:chunk0 + 32])   # the chunk's block header and the root node
    first = u32(d, H_THREAD_COUNT)
    for k in range(first, first + n):
        nb = grow(d, bytearray(root))
        put32(d, nb + 24, 1)   # count
        put32(d, nb + 28, 1)   # capacity
        tb = bytearray(orig[tb0:tb0 + TB_SIZE])
        put32(tb, TB_SLOT, k)
        put32(tb, TB_NODE_COUNT, 1)
        put32(tb, TB_DEPTH, 0)
        put64(tb, TB_CHUNKS, nb + BLK)
        put64(tb, TB_TIMELINE_FIRST, fields.get("timeline", 0))
        put64(tb, TB_FUNC_TABLE, fields.get("func_table", 0))
        put32(tb, TB_FUNC_SLOTS, fields.get("func_slots", 0))
        put64(tb, TB_ALLOC_FIRST, fields.get("allocs", 0))
        put64(d, HDR + 8 * k, grow(d, tb))
    put32(d, H_THREAD_COUNT, first + n)


def refused(w, d, record):
    """Every reader refuses d: exit 3, one line naming the record, nothing written."""
    size = os.path.getsize(os.path.join(d, "capture.xlc"))
    for args, out in ((["profile", "report", d, "--json"], None),
                      (["profile", "report", d, "-o", os.path.join(w.path, "r.html")], "r.html"),
                      (["profile", "export", d, "--format", "chrome", "-o", os.path.join(w.path, "t.json")],
                       "t.json")):
        p = w.run(args, timeout=600)
        what = "%s: %s" % (os.path.basename(d), " ".join(args[:2]) + (" -o " + out if out else " --json"))
        eq(p.returncode, 3, what + ": exit 3")
        lines = p.stderr.strip().splitlines()
        eq(len(lines), 1, what + ": one line")
        line = lines[0] if lines else ""
        check("is corrupt" in line and "shares its bytes with another record" in line,
              what + ": says the capture breaks the format's rules")
        check(record in line, what + ": names the record (%s): %s" % (record, line))
        check(p.stdout == "", what + ": nothing on stdout (%d bytes)" % len(p.stdout))
        if out:
            path = os.path.join(w.path, out)
            check(not os.path.exists(path), what + ": no output written (%d bytes, the capture %d)"
                  % (os.path.getsize(path) if os.path.exists(path) else 0, size))
            if os.path.exists(path):
                os.remove(path)
        check(not os.path.exists(os.path.join(d, "index.html")), what + ": no index.html")
    return size


with Workdir() as w:
    p = w.run(["--profile", "run", prog("s-paths.c"), "6"])
    eq(p.returncode, 0, "capture s-paths 6")
    base = w.latest()
    with open(os.path.join(base, "capture.xlc"), "rb") as f:
        orig = bytearray(f.read())
    s = w.summary(base)
    eq(len(s.tree["parent"]), 5460 + 2, "the real capture: 5,460 call paths, main and the root")

    eq(u32(orig, H_VERSION), 7, "format version 7 (the offsets above are its)")
    check(u32(orig, H_FLAGS) & FLAG_ALLOCS and u32(orig, H_ALLOC_REC_SIZE) == ALLOC_REC,
          "allocations recorded (their fields are read)")
    nthreads = u32(orig, H_THREAD_COUNT)
    tb0 = u64(orig, HDR)
    chunk0 = u64(orig, tb0 + TB_CHUNKS)
    ft0, slots0 = u64(orig, tb0 + TB_FUNC_TABLE), u32(orig, tb0 + TB_FUNC_SLOTS)
    tl0 = u64(orig, tb0 + TB_TIMELINE_FIRST)
    eq((nthreads, u32(orig, tb0 + TB_NODE_COUNT) > 4096), (1, True), "one thread, two node chunks")
    check(ft0 > 0 and slots0 >= 6 and tl0 > 0, "the thread has a function table and a timeline")

    # 1. 128 table entries at the same thread block
    d = bytearray(orig)
    put32(d, H_THREAD_COUNT, 128)
    for i in range(128):
        put64(d, HDR + 8 * i, tb0)
    refused(w, variant(w, base, "table", d), "a thread block")

    # 2. one chunk in two slots
    d = bytearray(orig)
    put64(d, tb0 + TB_CHUNKS + 8, chunk0)
    refused(w, variant(w, base, "chunks", d), "a node chunk")

    # 3. 40 tiny threads sharing the main thread's timeline
    d = bytearray(orig)
    tiny_threads(d, orig, tb0, chunk0, 40, timeline=tl0)
    refused(w, variant(w, base, "timelines", d), "a timeline block")

    # 4. 40 tiny threads sharing the main thread's function table
    d = bytearray(orig)
    tiny_threads(d, orig, tb0, chunk0, 40, func_table=ft0, func_slots=slots0)
    refused(w, variant(w, base, "functions", d), "a function table")

    # 5. memory samples: a block of 1,024 samples every 64 bytes, each linking to the next
    d = bytearray(orig)
    n = 1024
    region = bytearray(BLK + SAMPLE * n + 64 * 800)
    for i in range(800):
        struct.pack_into("<IIQQII", region, 64 * i, BLOCK_MEMORY, 0, BLK + SAMPLE * n, 0, n, n)
    start = grow(d, region)
    for i in range(800):
        put64(d, start + 64 * i + 16, start + 64 * (i + 1) if i < 799 else 0)
    put64(d, H_MEM_FIRST, start)
    refused(w, variant(w, base, "samples", d), "a memory-sample block")

    # 6. a node chunk inside the thread's own block (its open-frame stack)
    d = bytearray(orig)
    put64(d, tb0 + TB_CHUNKS + 8, tb0 + 8192 + BLK)
    refused(w, variant(w, base, "overlap", d), "a node chunk")

    # 7. 40 tiny threads whose allocation records are one block (one record: node 0, 1 x 1000 bytes)
    def alloc_block():
        blk = bytearray(BLK + ALLOC_REC)
        struct.pack_into("<IIQQII", blk, 0, BLOCK_ALLOCS, 0, len(blk), 0, 1, 1)
        struct.pack_into("<IiIIQQ", blk, BLK, 0, 0, 0, 0, 1, 1000)
        return blk
    d = bytearray(orig)
    ab = grow(d, alloc_block())
    tiny_threads(d, orig, tb0, chunk0, 40, allocs=ab)
    refused(w, variant(w, base, "allocations", d), "an allocation block")

    # 8. a "last" timeline (a ring, whose links may go back) that loops to its first block
    blocks = []
    off = tl0
    while off:
        blocks.append(off)
        off = u64(orig, off + 16)
    check(len(blocks) >= 3, "the timeline has %d blocks (3 or more)" % len(blocks))
    d = bytearray(orig)
    put32(d, H_TIMELINE_MODE, TL_LAST)
    put64(d, blocks[-1] + 16, blocks[0])
    refused(w, variant(w, base, "ring-loop", d), "a timeline block")

    # 9. instruction samples: a block of 64 words (two records), whose next block starts 128 bytes
    # into it (a valid-looking header written over the second record's addresses)
    def isample_block(records, words=64):
        blk = bytearray(BLK + 8 * words)
        struct.pack_into("<IIQQII", blk, 0, BLOCK_ISAMPLES, 0, len(blk), 0, words, words)
        at = BLK
        for t, nips in records:
            struct.pack_into("<QIHH", blk, at, t, 0, nips, 0)
            for k in range(nips):
                struct.pack_into("<Q", blk, at + 16 + 8 * k, 0x1000 + k)
            at += 16 + 8 * nips
        return blk
    d = bytearray(orig)
    ib = grow(d, isample_block([(1, 2), (2, 58)]))
    inner = ib + 128
    struct.pack_into("<IIQQII", d, inner, BLOCK_ISAMPLES, 0, BLK + 8 * 8, 0, 8, 8)
    put64(d, ib + 16, inner)
    put64(d, H_ISAMPLE_FIRST, ib)
    refused(w, variant(w, base, "isamples", d), "an instruction-sample block")

    # 10. a position-sample block inside the instruction-sample block's records
    d = bytearray(orig)
    ib = grow(d, isample_block([(1, 2), (2, 58)]))
    struct.pack_into("<IIQQII", d, ib + 128, BLOCK_PSAMPLES, 0, BLK + 16 * 4, 0, 4, 4)
    put64(d, H_ISAMPLE_FIRST, ib)
    put64(d, H_PSAMPLE_FIRST, ib + 128)
    refused(w, variant(w, base, "psamples", d), "a position-sample block")

    # 11. two mappings blocks, the second starting inside the first's records
    d = bytearray(orig)
    mb = bytearray(BLK + MAP_REC * 4)
    struct.pack_into("<IIQQII", mb, 0, BLOCK_MAPS, 0, len(mb), 0, 4, 4)
    for k in range(4):
        struct.pack_into("<QQQII", mb, BLK + MAP_REC * k, 0x1000 * (k + 1), 0x1000 * (k + 2), 0, 0, 0)
    at = grow(d, mb)
    struct.pack_into("<IIQQII", d, at + BLK + MAP_REC, BLOCK_MAPS, 0, len(mb), 0, 1, 1)
    put64(d, at + 16, at + BLK + MAP_REC)
    put64(d, H_MAPS_FIRST, at)
    refused(w, variant(w, base, "maps", d), "a mappings block")

    # the real capture still reads, every call path in it
    p = w.run(["profile", "report", base, "--json"])
    eq(p.returncode, 0, "the untouched capture reads")
    eq(len(w.summary(base).tree["parent"]), 5460 + 2, "the untouched capture: every call path")
    # and so does a legitimate capture with the tiny threads (each its own records)
    d = bytearray(orig)
    tiny_threads(d, orig, tb0, chunk0, 40)
    legit = variant(w, base, "tiny-threads", d)
    p = w.run(["profile", "report", legit, "--json"])
    eq(p.returncode, 0, "41 threads, each with its own records, read: " + p.stderr.strip())
    eq(len(w.summary(legit).doc["threads"]), 41, "41 threads")
    # and one whose main thread has the allocation block as its own: its record is counted
    d = bytearray(orig)
    put64(d, tb0 + TB_ALLOC_FIRST, grow(d, alloc_block()))
    own = variant(w, base, "own-allocations", d)
    p = w.run(["profile", "report", own, "--json"])
    eq(p.returncode, 0, "the main thread's own allocation block reads: " + p.stderr.strip())
    before = w.summary(base).doc["allocations"]["total"]
    after = w.summary(own).doc["allocations"]["total"]
    eq((after["allocs"] - before["allocs"], after["bytes"] - before["bytes"]), (1, 1000),
       "its record is counted: one more allocation of 1,000 bytes")

    # and an instruction-sample block whose second record claims more addresses than the block holds:
    # the first record is read, the rest of the block skipped, the capture reads
    d = bytearray(orig)
    ib = grow(d, isample_block([(1, 2), (2, 58)]))
    struct.pack_into("<H", d, ib + BLK + 16 + 16 + 12, 100)   # the second record's nips: 100 > 58
    put64(d, H_ISAMPLE_FIRST, ib)
    bad_rec = variant(w, base, "isample-record", d)
    p = w.run(["profile", "report", bad_rec, "--json"])
    eq(p.returncode, 0, "a record longer than its block: the capture reads: " + p.stderr.strip())
    eq(w.summary(bad_rec).doc["samples"]["instruction"], 1, "a record longer than its block: the one before it read")

    # and a ring that reused its oldest block: the first block moved to the end of the list (a link
    # back), which the reader follows in a "last" timeline: no fewer calls than the list in order (a
    # walk that stopped at the link back would lose the block's calls)
    def chrome_calls(d):
        out = os.path.join(w.path, "ring.json")
        p = w.run(["profile", "export", d, "--format", "chrome", "-o", out])
        eq(p.returncode, 0, "export " + os.path.basename(d) + ": " + p.stderr.strip())
        with open(out) as f:
            return sum(1 for e in json.load(f)["traceEvents"] if e.get("ph") == "X")
    d = bytearray(orig)
    put32(d, H_TIMELINE_MODE, TL_LAST)
    in_order = chrome_calls(variant(w, base, "ring-in-order", d))
    put64(d, tb0 + TB_TIMELINE_FIRST, blocks[1])
    put64(d, blocks[-1] + 16, blocks[0])
    put64(d, blocks[0] + 16, 0)
    rotated = chrome_calls(variant(w, base, "ring-rotated", d))
    check(in_order > 1000 and rotated >= in_order,
          "a rotated ring's calls: %d, in order %d" % (rotated, in_order))

    # a damaged header counter (missed memory samples, offset 200: all ones) is no count: said so
    d = bytearray(orig)
    put64(d, H_MEM_MISSED, 2**64 - 1)
    doc = w.summary(variant(w, base, "missed-all-ones", d)).doc
    kinds = [x["kind"] for x in doc["warnings"]]
    check("corrupt_header" in kinds and "memory_samples_missed" not in kinds,
          "an impossible missed-sample count: the header is damaged, not 18446744073709551615 samples missed (%r)"
          % kinds)
done()
