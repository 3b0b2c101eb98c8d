#!/usr/bin/env python3
"""Regenerate the capture, run.json and symbols.json seed corpora from real captures.

    EXALOOP=build/bin/exaloop tests/fuzz/make_seeds.py [NAME...]

With names, only those seeds are made (the others keep the format they were made in: the
seeds of format 2 stay, so that the reader of older captures is fuzzed too).

Profiles a few tests/progs programs (normal exits, a crash, _exit, threads, deep
recursion) and writes each capture repacked into a compact file of a few KB:
the same header, thread table, thread blocks, call-tree nodes, the first
timeline events and memory samples, with the blocks moved next to each other.
A thread block is kept only as far as the analyzer needs it (its counters and
the node-chunk slots in use, plus its open frames when it has some), so the
seeds stay small and every kind of block is in them.  The run.json and
symbols.json of the same captures become the sidecar seeds.
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.abspath(os.path.join(HERE, "..", ".."))
PROGS = os.path.join(SRC, "tests", "progs")
EXALOOP = os.environ.get("EXALOOP") or os.path.join(SRC, "build", "bin", "exaloop")

HDR = 4096
# offsets in struct xl_cap_header and struct xl_thread_block (include/exaloop/xl_capture.h)
H_FILE_SIZE, H_THREAD_COUNT, H_MEM_FIRST = 40, 184, 192
TB_NODE_COUNT, TB_DEPTH, TB_TIMELINE_FIRST, TB_CHUNKS, TB_STACK = 160, 164, 168, 176, 8368
# version 2: after stack[2048], the per-function table's offset and size
TB_FUNC_TABLE, TB_FUNC_SLOTS, TB_TREE_BOUNDED, TB_SIZE = 41136, 41144, 41148, 41152
TB_ALLOC_FIRST = 41176   # version 4: a thread's allocation blocks
# the thread block's and a memory sample's size by format version (3: CPU times and
# capture_rss; 4: allocation fields)
TB_SIZES, SAMPLE_SIZES = {2: TB_SIZE, 3: 41176, 4: 41216}, {2: 48, 3: 56, 4: 72}
ALLOC_REC = 80
H_VERSION, H_FLAGS, FLAG_TREE_BOUNDED = 8, 32, 0x80
FUNC_MORE, FRAME_MORE = -1, 0x80000000   # a "(more call paths)" node's func, its frames' node bit
NODES_PER_CHUNK = 4096
MAX_EVENTS = 48        # timeline events kept per thread
MAX_SAMPLES = 6

WHOLE = ("deep", "bounded")   # whole thread blocks and function tables (not fib, segv: t9007 cuts those at every offset)
RUNS = [
    ("fib", ["s-fib.c", "6"]),
    ("two-parents", ["s-two-parents.c"]),
    ("threads", ["s-threads.c", "20"]),
    ("segv", ["s-segv.c", "5"]),
    ("exit-raw", ["s-exit.c", "--raw", "4"]),
    ("deep", ["s-deep.c", "40"]),
    ("tail-release", ["-release", "s-tail.c"]),
    ("cxx", ["s-cxx.cc"]),
    ("bounded", ["s-segv.c", "5"]),   # made bounded by bound() below
    ("alloc", ["s-alloc.c"]),         # format 4: allocation records of two threads
]
WHOLE += ("alloc",)


def u32(b, off):
    return struct.unpack_from("<I", b, off)[0]


def u64(b, off):
    return struct.unpack_from("<Q", b, off)[0]


def align(n, a=64):
    return (n + a - 1) // a * a


def repack(data, whole_blocks=False):
    """A compact copy of a capture (bytes) with the same contents, as far as the analyzer reads them.

    whole_blocks: keep every thread block whole, with its per-function table (version 2), so
    that the reader of those tables is fuzzed too (a block cut before them reads as having none)."""
    hdr = bytearray(data[:HDR])
    version = u32(data, H_VERSION)
    tb_size = TB_SIZES.get(min(version, 4), TB_SIZE)
    nthreads = min(u32(data, H_THREAD_COUNT), 1024)
    out = bytearray(HDR + align(max(nthreads, 1) * 8))
    out[:HDR] = hdr

    def put(blob):
        off = len(out)
        out.extend(blob)
        out.extend(b"\0" * (align(len(out)) - len(out)))
        return off

    table = [u64(data, HDR + 8 * i) for i in range(nthreads)]
    for i, tb_off in enumerate(table):
        if not tb_off:
            continue
        count = u32(data, tb_off + TB_NODE_COUNT)
        depth = min(u32(data, tb_off + TB_DEPTH), 2048)
        nchunks = (count + NODES_PER_CHUNK - 1) // NODES_PER_CHUNK
        keep = TB_STACK + 16 * depth if depth else TB_CHUNKS + 8 * max(nchunks, 1)
        full = whole_blocks and u32(data, H_VERSION) >= 2
        tb = bytearray(data[tb_off:tb_off + (tb_size if full else keep)])
        new_tb = put(tb)
        ft, slots = u64(data, tb_off + TB_FUNC_TABLE), u32(data, tb_off + TB_FUNC_SLOTS)
        if full and ft:
            struct.pack_into("<Q", out, new_tb + TB_FUNC_TABLE, put(data[ft:ft + 32 * slots]))
        # allocation blocks (version 4), each cut to its published records
        link, a = new_tb + TB_ALLOC_FIRST, u64(data, tb_off + TB_ALLOC_FIRST) if full and version >= 4 else 0
        while a:
            n = u32(data, a + 24)
            blk = bytearray(data[a:a + 32 + ALLOC_REC * n])
            struct.pack_into("<Q", blk, 16, 0)
            struct.pack_into("<II", blk, 24, n, n)
            struct.pack_into("<Q", blk, 8, len(blk))
            new_blk = put(blk)
            struct.pack_into("<Q", out, link, new_blk)
            link, a = new_blk + 16, u64(data, a + 16)
        # node chunks: only the published nodes
        for c in range(nchunks):
            chunk_off = u64(data, tb_off + TB_CHUNKS + 8 * c)   # first node (block header before it)
            n = min(NODES_PER_CHUNK, count - c * NODES_PER_CHUNK)
            blk = bytearray(data[chunk_off - 32:chunk_off + 32 * n])
            struct.pack_into("<II", blk, 24, n, n)                # count, capacity
            struct.pack_into("<Q", blk, 8, len(blk))              # size
            new_chunk = put(blk) + 32
            struct.pack_into("<Q", out, new_tb + TB_CHUNKS + 8 * c, new_chunk)
        # the first timeline block, cut to MAX_EVENTS
        tl = u64(data, tb_off + TB_TIMELINE_FIRST)
        if tl:
            n = min(u32(data, tl + 24), MAX_EVENTS)
            blk = bytearray(data[tl:tl + 32 + 16 * n])
            struct.pack_into("<Q", blk, 16, 0)                    # next
            struct.pack_into("<II", blk, 24, n, n)
            struct.pack_into("<Q", blk, 8, len(blk))
            struct.pack_into("<Q", out, new_tb + TB_TIMELINE_FIRST, put(blk))
        struct.pack_into("<Q", out, HDR + 8 * i, new_tb)
    # memory samples: the first block, cut to MAX_SAMPLES
    mem = u64(data, H_MEM_FIRST)
    if mem:
        n = min(u32(data, mem + 24), MAX_SAMPLES)
        blk = bytearray(data[mem:mem + 32 + SAMPLE_SIZES.get(min(version, 4), 48) * n])
        struct.pack_into("<Q", blk, 16, 0)
        struct.pack_into("<II", blk, 24, n, n)
        struct.pack_into("<Q", blk, 8, len(blk))
        struct.pack_into("<Q", out, H_MEM_FIRST, put(blk))
    struct.pack_into("<QQQ", out, H_FILE_SIZE, len(out), u64(data, H_FILE_SIZE + 8), len(out))  # file_size, arena_off, cursor
    return bytes(out)


def bound(data):
    """A bounded call tree (version 2) made of a whole-block capture, for the readers of
    "(more call paths)" nodes, of frames inside them and of function tables with something in them,
    which no seed-sized real run has (its node space must fill a buffer of 1 MiB or more): every
    leaf of the first thread's tree becomes a "(more call paths)" node, the leaf's calls and time
    go to its function's record in the table (self and total: the caller has a regular node), open
    frames in such a leaf are marked as inside it, and the block and header say the tree is bounded."""
    out = bytearray(data)
    tb = u64(out, HDR)
    count = u32(out, tb + TB_NODE_COUNT)
    nodes = u64(out, tb + TB_CHUNKS)                    # the first chunk: all nodes of a small tree
    ft, slots = u64(out, tb + TB_FUNC_TABLE), u32(out, tb + TB_FUNC_SLOTS)
    assert ft and count <= NODES_PER_CHUNK, "bound() needs a small tree and a function table"
    parents = {u32(out, nodes + 32 * n + 4) for n in range(1, count)}
    leaves = [n for n in range(1, count) if n not in parents]
    for n in leaves:
        node = nodes + 32 * n
        func = struct.unpack_from("<i", out, node)[0]
        calls, ticks = u64(out, node + 16), u64(out, node + 24)
        struct.pack_into("<i", out, node, FUNC_MORE)
        if 0 < func < slots:
            rec = ft + 32 * func
            struct.pack_into("<QQQ", out, rec, u64(out, rec) + calls, u64(out, rec + 8) + ticks,
                             u64(out, rec + 16) + ticks)
    for i in range(min(u32(out, tb + TB_DEPTH), 2048)):
        frame = tb + TB_STACK + 16 * i
        if u32(out, frame) in leaves:
            struct.pack_into("<I", out, frame, u32(out, frame) | FRAME_MORE)
    struct.pack_into("<I", out, tb + TB_TREE_BOUNDED, 1)
    struct.pack_into("<I", out, H_FLAGS, u32(out, H_FLAGS) | FLAG_TREE_BOUNDED)
    return bytes(out)


def main():
    work = tempfile.mkdtemp(prefix="xl-seeds-")
    try:
        for name, args in RUNS:
            if sys.argv[1:] and name not in sys.argv[1:]:
                continue
            args = [a if not a.endswith((".c", ".cc")) else os.path.join(PROGS, a) for a in args]
            env = dict(os.environ, CI="1")
            subprocess.run([EXALOOP, "--profile", "--no-open", "run"] + args, cwd=work, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            caps = sorted(os.listdir(os.path.join(work, "profiles")))
            cap = os.path.join(work, "profiles", caps[-1])
            with open(os.path.join(cap, "capture.xlc"), "rb") as f:
                packed = repack(f.read(), whole_blocks=name in WHOLE)
            if name == "bounded":
                packed = bound(packed)
            with open(os.path.join(HERE, "corpus", "capture", name + ".xlc"), "wb") as f:
                f.write(packed)
            shutil.copy(os.path.join(cap, "run.json"), os.path.join(HERE, "corpus", "runjson", name + ".json"))
            if name in ("fib", "cxx", "threads"):
                shutil.copy(os.path.join(cap, "symbols.json"),
                            os.path.join(HERE, "corpus", "symbols", name + ".json"))
            print("%-14s %6d bytes" % (name, len(packed)))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
