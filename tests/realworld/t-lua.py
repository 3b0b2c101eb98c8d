"""Lua 5.4.7 (../shared/realworld/lua-5.4.7, read-only: copied first) under exaloop.

The interpreter is built with `exaloop --profile build -release` from every core and library
source and lua.c.  Checked:
- its own test suite (`lua -e"_U=true" all.lua` in testes/) prints the same under capture as
  uncaptured, with the same exit status, except the lines that differ between two uncaptured
  runs too (MASKS: clock readings, what the time-seeded math.random drew, and memory totals,
  which depend on the string-hash seed Lua mixes from the time and addresses);
  no call is lost at the default buffer (no warning of lost calls or threads, and the call tree
  holds every call of the function table), and the report (index.html) stays under 5 MB;
  the report's peak RSS of the program (the capture buffer apart) is the uncaptured run's
  (/usr/bin/time %M) within 4 MiB + 10 % (the runtime's own pages stay in it: t1007);
- the samples' line view of the interpreter loop (lua/loop.lua, interpreter work without calls):
  luaV_execute's instruction samples fall on the lines of its opcode dispatch (the switch from
  `vmdispatch` to its end in lvm.c), and `profile report --lines luaV_execute` names them with
  their source text (`setobj2s`, `op_arith`…);
- lua/counts.lua: the calls of eight library functions equal what the script's own logic
  implies (see its header).  XRay's account is no oracle here: it drops records at Lua's
  longjmps, and Lua hashes by address, so two binaries' whole-program counts differ anyway.
  Under --timing=sampled the same counts.
"""
from rwtest import *

LUA = lua_sources()
MASKS = [
    ("clock", re.compile(r"^(time: |total time: )")),
    ("clock", re.compile(r"^(sorting|re-sorting|Invert-sorting) .* msec")),
    ("clock", re.compile(r"^test done on ")),
    ("random", re.compile(r"^random seeds: ")),
    ("random", re.compile(r"^(float|integer) random range in ")),
    ("random", re.compile(r"^testing short-circuit optimizations \([01]\)$")),   # math.random(0, 1)
    ("hash seed", re.compile(r"^\s*---- total memory: ")),
]
N = 2000


def masked(text):
    out = []
    for line in text.split("\n"):
        for why, rx in MASKS:
            if rx.search(line):
                line = "<%s: %s>" % (why, rx.pattern)
                break
        out.append(line)
    return "\n".join(out)


def expected_counts(n, compares):
    """counts.lua's header, as code: D = 40, R = N // 50, C = N // 20, Y = 7, S = N // 25."""
    d, r, c, y, s = 40, n // 50, n // 20, 7, n // 25
    return {"str_format": n, "luaB_pcall": n + (d + 1) * r + c * (y // 2),
            "luaB_error": (n + 1) // 2 + (d + 1) * r, "luaB_cocreate": c, "luaB_coresume": c * (y + 1),
            "luaB_yield": c * y, "sort": s, "math_abs": 2 * compares}


with Workdir() as w:
    if not os.path.isfile(os.path.join(LUA, "lua.c")):
        check(False, "Lua sources at %s (shared/realworld beside the checkout; XL_REALWORLD_LUA overrides)" % LUA)
        done()
    src = os.path.join(w.path, "lua")
    shutil.copytree(LUA, src)
    for root, dirs, files in os.walk(src):
        for x in dirs + files:
            os.chmod(os.path.join(root, x), 0o755 if x in dirs or x == "all" else 0o644)
    os.chmod(src, 0o755)
    sources = sorted(f for f in os.listdir(src) if f.endswith(".c") and f != "onelua.c")
    p = run([xltest.EXALOOP, "--profile", "build", "-release", "-std=c99", "-DLUA_USE_LINUX"] + sources
            + ["-lm", "-ldl", "-o", "lua"], src)
    eq(p.returncode, 0, "lua: exaloop build of %d sources" % len(sources))
    if failures:
        done()

    testes = os.path.join(src, "testes")
    suite = ["../lua", "-e_U=true", "all.lua"]
    timed = os.path.exists("/usr/bin/time")
    plain = run((["/usr/bin/time", "-f", "xl-maxrss-kib=%M"] if timed else []) + suite, testes)
    plain_rss = None
    m = re.search(r"xl-maxrss-kib=(\d+)\n?$", plain.stderr) if timed else None
    if m:
        plain_rss = int(m.group(1)) * 1024
        plain.stderr = plain.stderr[:m.start()]
    eq(plain.returncode, 0, "lua suite: uncaptured run exits 0")
    check("final OK !!!" in plain.stdout, "lua suite: uncaptured run ends with 'final OK !!!'")
    p, cap = capture(testes, suite)
    eq(p.returncode, plain.returncode, "lua suite: captured exit status == uncaptured")
    eq(masked(p.stdout), masked(plain.stdout), "lua suite: captured stdout == uncaptured (masked lines aside)")
    eq(p.stderr.split("exaloop:")[0], plain.stderr, "lua suite: the program's stderr is the same captured")
    if cap is None:
        check(False, "lua suite: a capture")
        done()
    s = summary(cap)
    kinds = sorted(x["kind"] for x in s.doc.get("warnings", []))
    lost = [k for k in kinds if k in ("nodes_full", "threads_full", "no_function_table", "truncated",
                                       "not_finalized", "corrupt_threads")]
    eq(lost, [], "lua suite: no warning of lost calls or threads (warnings: %s)" % ", ".join(kinds))
    tree_calls = sum(c for c, f in zip(s.tree["calls"], s.tree["func"]) if f is not None and f >= 0)
    table_calls = sum(f["calls"] for f in s.funcs)
    eq(tree_calls, table_calls, "lua suite: every call of the function table is in the call tree")
    html = os.path.join(cap, "index.html")
    size = os.path.getsize(html) if os.path.isfile(html) else -1
    check(0 < size < 5 * 1000 * 1000, "lua suite: index.html is under 5 MB (%d bytes)" % size)
    mem = s.doc["memory"]["summary"]
    peak, share = mem["program_peak_rss"]["value"], mem["program_peak_rss"]["profiler_rss"]
    print("lua suite: peak RSS uncaptured %s, captured: program %s + profiler %s, process %s"
          % (plain_rss, peak, share, mem["peak_rss"]["value"]))
    if plain_rss:
        check(peak is not None and abs(peak - plain_rss) <= 4 * 2**20 + plain_rss // 10,
              "lua suite: the program's peak RSS %s is the uncaptured %d within 4 MiB + 10%%" % (peak, plain_rss))
    check(s.calls("luaV_execute") > 1000, "lua suite: the interpreter loop is in the table (%d calls)"
          % s.calls("luaV_execute"))

    # the line view of the interpreter loop (loop.lua: no calls, all interpreter): its samples are
    # on the opcode switch's lines.  Samples at an address the line table gives line 0 (code the
    # compiler made of several lines, such as the computed goto's dispatch) have no line.
    p, cap = capture(src, ["./lua", os.path.join(HERE, "lua", "loop.lua"), "10000000"])
    eq(p.returncode, 0, "lua loop: captured run exits 0")
    lvm = os.path.join(src, "lvm.c")
    text = open(lvm).read().split("\n")
    first = next(i for i, l in enumerate(text, 1) if "vmdispatch (GET_OPCODE(i))" in l)
    last = next(i for i, l in enumerate(text, 1) if i > first and "vmcase(OP_EXTRAARG)" in l) + 4
    ex = summary(cap).func("luaV_execute") if cap else None
    lines = [l for l in ex.get("lines", []) if l["line"]] if ex else []
    with_line = sum(l["samples"] for l in lines)
    inside = sum(l["samples"] for l in lines if first <= l["line"] <= last)
    check(with_line >= 200 and inside >= 0.9 * with_line,
          "lua loop: luaV_execute's samples with a line are on its dispatch lines %d..%d: %d of %d (of %d in all)"
          % (first, last, inside, with_line, ex.get("samples", 0) if ex else 0))
    p = run([xltest.EXALOOP, "profile", "report", cap, "--lines", "luaV_execute", "--top", "10"], src)
    rows = [r for r in p.stdout.splitlines() if re.match(r"^\s+\d+\s+\d+\s+[\d.]+%", r)]
    named = [r for r in rows if first <= int(r.split()[0]) <= last and len(r.split(None, 3)) == 4]
    check(len(rows) >= 8 and len(named) >= len(rows) - 1,
          "lua loop: --lines luaV_execute: the hottest lines are dispatch lines with their text:\n" + p.stdout)

    script = os.path.join(HERE, "lua", "counts.lua")
    plain = run(["./lua", script, str(N)], src)
    eq(plain.returncode, 0, "lua counts: uncaptured run exits 0")
    p, cap = capture(src, ["./lua", script, str(N)])
    eq((p.returncode, p.stdout), (0, plain.stdout), "lua counts: captured output and status == uncaptured")
    m = re.search(r"^compares\t(\d+)$", plain.stdout, re.M)
    check(m is not None, "lua counts: the script printed its comparison count")
    if cap is None or m is None:
        done()
    want = expected_counts(N, int(m.group(1)))
    got = calls_by_name(summary(cap))
    eq({k: got.get(k, 0) for k in want}, want, "lua counts: library calls == what counts.lua's logic implies")

    # --timing=sampled (calls counted without the clock): the same counts, through pcall's longjmps
    # and coroutine switches (the counting paths' unwinding).  Whole call paths are no oracle here:
    # Lua hashes by address, so two exact runs' table-insertion paths differ too.
    p, cap = capture(src, ["./lua", script, str(N)], options=["--timing=sampled"])
    eq((p.returncode, p.stdout), (0, plain.stdout), "lua counts, sampled timing: output and status == uncaptured")
    if cap is None:
        done()
    sampled = summary(cap)
    eq(sampled.doc["run"]["timing"], "sampled", "lua counts, sampled timing: recorded as such")
    got = calls_by_name(sampled)
    eq({k: got.get(k, 0) for k in want}, want, "lua counts, sampled timing: library calls == the script's logic")
done()
