"""Samples: lines inside a function, from instruction samples the control thread takes (docs/cli.md,
"Samples"; capture format 6).

- s-lines.c does its work on known lines in known ratios: two_loops runs 3N steps on LINE_A and N on
  LINE_B (75 % / 25 % of its own samples, within 5 points), with_inline N steps on LINE_C and N in an
  always_inline helper called on LINE_D (50 % / 50 %, the helper's samples at the call site, and the
  helper listed as inlined).  Each sample's call chain lands on the exact path (main > two_loops).
- s-libcall.c spends its time in libc's memcpy (no frame pointer) called from copier: its samples
  land on main > copier, not on main, whose frame the kernel's walk shows instead, and libc's code
  is a sampled library frame there with most of copier's self time.
- s-tailwait.c: samples in a function reached by a tail call land on its path (the caller's frame put
  back from the return address is taken out again); a library frame of a function that also sleeps
  gets the time the copying took as the program measured it, and the sleep stays the function's.
- Sampled frames (tree.sampled): step_n, inlined into with_inline, at 50 % of its self time; the
  folded export's step_n_[i] line, its estimate taken off with_inline's own line.
  `profile report --lines` prints the lines with their source text; `--no-source` leaves it out; it
  takes C++ names as the table shows them or without their parameters (s-linesxx.cc), and a function
  whose samples are all in a library it called says so.
- A real seccomp filter refusing perf_event_open (l-noperf.c) gives the note "line data
  unavailable: <why>" and leaves every call, path and other warning as a normal capture has them.
- --no-samples takes none; bad rates are refused.
"""
import json
import re

from xltest import *


def node_samples(s, path):
    i = s.node(path)
    return None if i is None else s.tree["samples"][i]


def sampled_under(s, path):
    """The sampled frames (tree.sampled) right under the node of path: [(kind, name, library,
    samples, est_ns)]."""
    n, sf = s.node(path), s.tree.get("sampled") or {}
    return [(sf["kind"][k], sf["name"][k], sf["library"][k], sf["samples"][k], sf["est_ns"][k])
            for k in range(len(sf.get("parent", []))) if n is not None and sf["parent"][k] == n]


def kinds(items, drop=()):
    return sorted(x["kind"] for x in items if x["kind"] not in drop)


LINES = prog("s-lines.c")
A, B, C, D = (line_of(LINES, "/* LINE_%s */" % x) for x in "ABCD")

with Workdir() as w:
    schema = json.load(open(os.path.join(SRC, "docs", "summary.schema.json")))
    # 1. lines in known ratios.  60M steps at 5 kHz: about 4,000 samples of two_loops here, so a
    # share is good to about a point; a busy machine gives fewer, still enough (checked below).
    p = w.run(["--no-open", "--sample-rate", "5000", "--profile", "run", "-release", LINES, "60000000"])
    eq(p.returncode, 0, "s-lines runs")
    check("reports contain source paths and source text and function names" in p.stderr,
          "the notice says the capture holds source text")
    cap = w.latest()
    s = w.summary(cap)
    check(not validate(s.doc, schema), "the summary matches its schema: %s" % validate(s.doc, schema)[:3])
    sm = s.doc["samples"]
    eq((sm["rate"], sm["status"], sm["resolved"], sm["reason"]), (5000, "on", True, None), "samples taken")
    eq(s.doc["run"]["settings"]["sample_rate"], 5000, "settings.sample_rate")
    check(sm["position"] > 0, "position samples taken (%d)" % sm["position"])
    two, inl = s.func("two_loops"), s.func("with_inline")
    check(two["samples"] >= 800 and inl["samples"] >= 400,
          "enough samples: two_loops %d, with_inline %d" % (two["samples"], inl["samples"]))
    sa, sb = line_share(two, A), line_share(two, B)
    check(abs(sa - 75) <= 5 and abs(sb - 25) <= 5, "two_loops: LINE_A %.1f%% (75), LINE_B %.1f%% (25)" % (sa, sb))
    check(sa + sb >= 98, "two_loops: its samples are on its two loop lines (%.1f%%)" % (sa + sb))
    sc, sd = line_share(inl, C), line_share(inl, D)
    check(abs(sc - 50) <= 7 and abs(sd - 50) <= 7, "with_inline: LINE_C %.1f%%, LINE_D %.1f%% (the inlined "
          "helper's samples at its call site)" % (sc, sd))
    check(not any(l["line"] == line_of(LINES, "/* LINE_E */") for l in inl["lines"]),
          "with_inline: no samples at the helper's own line (LINE_E)")
    helper = [x for x in inl["inlined"] if x["name"] == "step_n"]
    check(helper and abs(100.0 * helper[0]["samples"] / inl["samples"] - sd) <= 2,
          "with_inline: step_n listed as inlined with LINE_D's samples (%r)" % inl["inlined"])
    eq((two["inlined"], s.func("main")["samples"]), ([], 0), "nothing inlined in two_loops; main does no work")
    ns = node_samples(s, ("main", "two_loops"))
    check(ns is not None and ns >= 0.99 * two["samples"],
          "the samples of two_loops are on the path main > two_loops (%r of %d)" % (ns, two["samples"]))
    eq(node_samples(s, ("main",)), 0, "main's own path has none")
    check(sm["matched"] >= 0.98 * sm["instruction"], "samples matched to a call path: %d of %d"
          % (sm["matched"], sm["instruction"]))
    # the inlined helper as a sampled frame on with_inline's path: half its self time (its samples
    # x the period, stretched by the time the thread waited for a core on a busy machine), within
    # it; no calls, and the tree's exact times untouched
    under = sampled_under(s, ("main", "with_inline"))
    inl_node = s.node(("main", "with_inline"))
    helper = [x for x in under if x[:3] == ("inlined", "step_n", None)]
    self_ns = s.tree["self_ns"][inl_node]
    check(len(helper) == 1 and abs(100.0 * helper[0][4] / self_ns - 50) <= 7 and helper[0][4] <= self_ns,
          "tree.sampled: step_n inlined on main > with_inline at 50 %% (within 7 points) of its self "
          "time (%d ns): %r" % (self_ns, under))
    check(not sampled_under(s, ("main", "two_loops")) or all(x[0] == "library" for x in sampled_under(s, ("main", "two_loops"))),
          "tree.sampled: nothing inlined on main > two_loops")
    folded = w.run(["profile", "export", cap, "--format", "folded"]).stdout
    fl = dict(l.rsplit(" ", 1) for l in folded.splitlines())
    check(helper and int(fl.get("main;with_inline;step_n_[i]", 0)) == helper[0][4]
          and int(fl.get("main;with_inline", 0)) == self_ns - sum(x[4] for x in under),
          "folded: step_n_[i] on with_inline with its estimate, taken off with_inline's line")
    eq(sum(int(v) for v in fl.values()),
       sum(x for i, x in enumerate(s.tree["self_ns"]) if s.tree["parent"][i] >= 0),
       "folded: the lines still add up to the traced frames' self time")
    # the Chrome export's sampling members: each instruction sample at its innermost frame
    out = os.path.join(w.path, "lines.trace.json")
    eq(w.run(["profile", "export", cap, "--format", "chrome", "-o", out]).returncode, 0, "chrome export")
    tr = json.load(open(out))
    sf = tr.get("stackFrames", {})
    inl = [k for k, v in sf.items() if v["name"] == "step_n (inlined)" and v["category"] == "sampled"]
    check(len(inl) == 1 and sf.get(sf[inl[0]].get("parent"), {}).get("name") == "with_inline"
          and sf[sf[inl[0]]["parent"]]["category"] == "traced",
          "chrome: step_n (inlined) is a sampled stack frame under with_inline's traced one")
    eq(sum(1 for x in tr.get("samples", []) if inl and x["sf"] == inl[0]), helper[0][3] if helper else -1,
       "chrome: as many samples on it as tree.sampled counts")
    eq(len(tr.get("samples", [])) <= s.doc["samples"]["instruction"], True, "chrome: no more samples than taken")

    # a traced function whose time is in libc's memcpy, which keeps no frame pointer: the kernel's
    # walk skips copier, the analysis puts it back from main's direct call of it (s-libcall.c)
    eq(w.run(["--no-open", "--sample-rate", "4000", "--profile", "run", "-release", prog("s-libcall.c"), "600"]).returncode, 0,
       "s-libcall runs")
    lc = w.summary()
    p = w.run(["profile", "report", w.latest(), "--lines", "copier"])
    # (copier's own code is a few instructions: none of the samples, or one or two)
    check(re.search(r"(no line data: no instruction sample fell in its own code; \d+ of the \d+ on its call paths "
                    r"were|^  and \d+ samples on its call paths) in untraced code it called, most in libc\.so\.6 ",
                    p.stdout, re.M) is not None,
          "--lines copier: its samples are in libc, and it says so:\n" + p.stdout)
    total = lc.doc["samples"]["instruction"]
    on_copier, on_main = node_samples(lc, ("main", "copier")), node_samples(lc, ("main",))
    own_main = lc.func("main")["samples"]
    check(total >= 200 and on_copier >= 0.5 * total, "s-libcall: the memcpy samples are on main > copier (%r of %d)"
          % (on_copier, total))
    check(on_main <= own_main + 0.05 * total, "s-libcall: main's path keeps its own samples only (%r, its code %d)"
          % (on_main, own_main))
    # memcpy as a sampled library frame on copier's path, with most of copier's self time
    under = sampled_under(lc, ("main", "copier"))
    libc = [x for x in under if x[0] == "library" and x[2] == "libc.so.6"]
    cself = lc.tree["self_ns"][lc.node(("main", "copier"))]
    check(libc and 0.6 * cself <= sum(x[4] for x in libc) <= cself,
          "s-libcall: libc.so.6 frames on main > copier hold most of its self time (%r of %d ns)" % (under, cself))

    # s-tailwait.c: work() reached by a tail call from caller(), whose frame is gone when work runs
    # (the tree has main > work); waiter() copies with memcpy, then sleeps 300 ms
    p = w.run(["--no-open", "--sample-rate", "4000", "--profile", "run", "-release", prog("s-tailwait.c"),
               "200000000", "60", "300"])
    eq(p.returncode, 0, "s-tailwait runs")
    m = re.search(r"copy_cpu_ns=(\d+) copy_ns=(\d+)", p.stdout)
    tw = w.summary()
    work = tw.func("work")
    on_work = node_samples(tw, ("main", "work"))
    check(work["samples"] >= 100 and on_work is not None and on_work >= 0.95 * work["samples"],
          "s-tailwait: work's samples are on main > work after caller's tail call (%r of %d)" % (on_work, work["samples"]))
    check(tw.doc["samples"]["matched"] >= 0.95 * tw.doc["samples"]["instruction"] and tw.note("samples_unplaced") is None,
          "s-tailwait: samples matched to a call path (%d of %d)" % (tw.doc["samples"]["matched"], tw.doc["samples"]["instruction"]))
    # the copy's libc frames get the time it took (between its thread CPU time and its elapsed time,
    # as the program measured them: on a busy machine it waits for a core too), the sleep stays
    # waiter's own
    under = sampled_under(tw, ("main", "waiter"))
    est = sum(x[4] for x in under if x[0] == "library" and x[2] == "libc.so.6")
    wself = tw.tree["self_ns"][tw.node(("main", "waiter"))]
    cpu, took = (int(m.group(1)), int(m.group(2))) if m else (-1, -1)
    check(m and 0.7 * cpu - 2e6 <= est <= 1.3 * took + 2e6 and wself - est >= 250e6,
          "s-tailwait: libc's frames under waiter estimate the copy (%d ns; it took %d ns of CPU, %d ns "
          "elapsed) and leave the 300 ms sleep to waiter (%d ns self)" % (est, cpu, took, wself))

    # the line view, with the capture's own source text (the binary is gone: run deleted it)
    p = w.run(["profile", "report", cap, "--lines", "two_loops"])
    eq(p.returncode, 0, "--lines two_loops")
    rows = [l for l in p.stdout.splitlines() if re.match(r"^\s+\d+\s+\d+\s+[\d.]+%", l)]
    check(len(rows) >= 2 and rows[0].split()[0] == str(A) and "LINE_A" in rows[0] and "LINE_B" in rows[1]
          and all(float(r.split()[2].rstrip("%")) < 1 for r in rows[2:]),
          "--lines: LINE_A first, then LINE_B, with their source text (other lines under 1 %):\n" + p.stdout)
    p = w.run(["profile", "report", cap, "--lines", "with_inline", "--top", "1"])
    check("inlined: step_n" in p.stdout and "(1 more line)" in p.stdout, "--lines --top 1, inlined list")
    p = w.run(["profile", "report", cap, "--lines", "with_inline"])
    check(re.search(r"^\s+%d\s.*LINE_D.*\[inlined: step_n\]$" % D, p.stdout, re.M) is not None,
          "--lines: LINE_D says step_n is inlined there:\n" + p.stdout)
    # the HTML report embeds the source text, not with --no-source
    for extra, has in (([], True), (["--no-source"], False)):
        out = os.path.join(w.path, "x.html")
        eq(w.run(["profile", "export", cap, "--format", "html", "-o", out] + extra).returncode, 0, "export html %r" % extra)
        check(("LINE_A" in open(out).read()) == has, "export html %r: source text %s" % (extra, "in" if has else "left out"))
    p = w.run(["profile", "report", cap, "--lines", "no_such_function"])
    check(p.returncode == 2 and "no function named 'no_such_function'" in p.stderr, "--lines: unknown name, exit 2")
    p = w.run(["profile", "report", cap, "--lines", "main"])
    check("no line data: no instruction sample fell in its own code" in p.stdout, "--lines main: says why none")

    # C++ names: --lines takes the table's short name, the full name, the qualified name without its
    # parameters (every overload) and a trailing part of it after "::"
    eq(w.run(["--no-open", "--sample-rate", "2000", "--profile", "run", "-release", prog("s-linesxx.cc"),
              "60000000"]).returncode, 0, "s-linesxx runs")
    xx = w.latest()
    shown = {f["name"]: f["short_name"] for f in w.summary(xx).funcs if "spin" in f["name"]}
    spin = "unsigned long app::detail::spin<unsigned long>(unsigned long, long)"
    for arg, want in ((shown.get(spin, "?"), [spin]), (spin, [spin]), ("app::detail::spin", [spin]), ("spin", [spin]),
                      ("ns::over", ["ns::over(long)", "ns::over(double)"]), ("over", ["ns::over(long)", "ns::over(double)"]),
                      ("ns::over(double)", ["ns::over(double)"])):
        p = w.run(["profile", "report", xx, "--lines", arg])
        got = [l.split("  (")[0] for l in p.stdout.splitlines() if l and not l.startswith(" ")]
        eq((p.returncode, sorted(got)), (0, sorted(want)), "--lines %r names %r" % (arg, want))
    for arg in ("detail", "ns::ove", "pin"):
        eq(w.run(["profile", "report", xx, "--lines", arg]).returncode, 2, "--lines %r names no function" % arg)

    # 2. --no-source: line numbers, no text
    p = w.run(["--no-open", "--no-source", "--sample-rate", "2000", "--profile", "run", "-release", LINES, "20000000"])
    check("reports contain source paths and function names" in p.stderr, "--no-source: the usual notice")
    doc = json.load(open(os.path.join(w.latest(), "samples.json")))
    eq(doc["sources"], [], "--no-source: no source text in samples.json")
    p = w.run(["profile", "report", w.latest(), "--lines", "two_loops"])
    check("LINE_A" not in p.stdout and re.search(r"^\s+%d\s+\d+" % A, p.stdout, re.M),
          "--no-source: --lines has line %d without its text" % A)

    # 3. perf_event_open refused by a seccomp filter: the note, and nothing else changes (fib 27: long enough, about
    # 0.1 s, for the sampler's first step to come before the program ends)
    launcher = os.path.join(w.path, "l-noperf")
    eq(w.run(["build", prog("l-noperf.c"), "-o", launcher]).returncode, 0, "build l-noperf")
    eq(w.run(["--no-open", "--profile", "run", "-release", prog("s-fib.c"), "27"]).returncode, 0, "s-fib")
    base = w.summary()
    for err, name in ((13, "EACCES"), (38, "ENOSYS")):
        p = subprocess.run([launcher, str(err), EXALOOP, "--no-open", "--profile", "run", "-release",
                            prog("s-fib.c"), "27"], cwd=w.path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=300, env=dict(os.environ, CI="1"))
        sys.stdout.write(p.stderr)
        eq((p.returncode, p.stdout), (0, "fib(27) = 196418\n"), "%s: the program runs as ever" % name)
        s = w.summary()
        n = s.note("line_data_unavailable")
        check(n is not None and n["message"].startswith("line data unavailable: the kernel refused perf_event_open (%s"
                                                        % name), "%s: the note says why: %r" % (name, n))
        eq((s.doc["samples"]["status"], s.doc["samples"]["instruction"]), ("refused", 0), "%s: no instruction samples"
           % name)
        check(s.doc["samples"]["position"] > 0, "%s: position samples still taken" % name)
        check(s.paths() == base.paths(), "%s: every call path and count as without the filter (%d paths)"
              % (name, len(base.paths())))
        eq(kinds(s.doc["warnings"]), kinds(base.doc["warnings"]), "%s: the same warnings" % name)
        # (call_cost compares self times, which grow with the machine's load, with a fixed cost: it
        # may come and go between two runs of fib)
        eq(kinds(s.doc["notes"], ("line_data_unavailable", "call_cost")), kinds(base.doc["notes"], ("call_cost",)),
           "%s: the same other notes"
           % name)
        p = w.run(["profile", "report", w.latest(), "--text"])
        check("line data unavailable: the kernel refused perf_event_open (%s" % name in p.stdout,
              "%s: the text report shows the note" % name)
        p = w.run(["profile", "report", w.latest(), "--lines", "fib"])
        check("no line data: the kernel refused perf_event_open" in p.stdout, "%s: --lines says why" % name)
    eq(base.note("line_data_unavailable"), None, "no note when samples are taken")

    # 4. --no-samples, sample_rate = 0 and bad rates
    eq(w.run(["--no-open", "--no-samples", "--profile", "run", "-release", prog("s-fib.c"), "22"]).returncode, 0,
       "--no-samples")
    s = w.summary()
    eq((s.doc["samples"]["status"], s.doc["samples"]["instruction"], s.doc["samples"]["position"]), ("off", 0, 0),
       "--no-samples: none taken")
    check(not os.path.exists(os.path.join(w.latest(), "samples.json")) and s.note("line_data_unavailable") is None,
          "--no-samples: no samples.json, no note")
    for bad in ("0", "10001", "1k", "-5"):
        p = w.run(["--sample-rate", bad, "--profile", "run", prog("s-fib.c")])
        check(p.returncode == 2 and "invalid sample rate '%s'" % bad in p.stderr, "--sample-rate %s refused" % bad)
    shutil.copy(prog("s-fib.c"), w.path)
    with open(os.path.join(w.path, "exaloop.toml"), "w") as f:
        f.write('[targets.slow]\nsource = "s-fib.c"\nargs = ["22"]\n[targets.slow.profile]\nsample_rate = 250\n'
                '[targets.none]\nsource = "s-fib.c"\nargs = ["22"]\n[targets.none.profile]\nsample_rate = 0\n'
                '[targets.bad]\nsource = "s-fib.c"\n[targets.bad.profile]\nsample_rate = 20000\n')
    eq(w.run(["--no-open", "--profile", "--target", "slow", "run"]).returncode, 0, "sample_rate = 250")
    eq(w.summary().doc["samples"]["rate"], 250, "sample_rate from exaloop.toml")
    eq(w.run(["--no-open", "--sample-rate", "300", "--profile", "--target", "slow", "run"]).returncode, 0, "override")
    eq(w.summary().doc["samples"]["rate"], 300, "--sample-rate over exaloop.toml")
    eq(w.run(["--no-open", "--profile", "--target", "none", "run"]).returncode, 0, "sample_rate = 0")
    eq(w.summary().doc["samples"]["status"], "off", "sample_rate = 0: none")
    p = w.run(["--profile", "--target", "bad", "run"])
    check(p.returncode != 0 and "sample_rate" in p.stderr and "exaloop.toml:" in p.stderr,
          "sample_rate = 20000 refused with its place: " + p.stderr.strip())
    # the profiler's own code in the executable: library frames of "(exaloop)", not the program's
    eq(w.run(["--no-open", "--sample-rate", "4000", "--profile", "run", "-release", prog("s-fib.c"), "30"]).returncode, 0,
       "s-fib 30 runs")
    sm = w.summary().doc["tree"].get("sampled") or {"name": [], "library": [], "kind": []}
    own = [(n, l) for n, l, k in zip(sm["name"], sm["library"], sm["kind"]) if k == "library" and
           (n.startswith("rt__") or n.startswith("__wrap___xray_"))]
    check(own and all(l == "(exaloop)" for n, l in own),
          "s-fib: the capture's own code inside fib is named (exaloop): %r" % sorted(set(own))[:6])
    # ... its local functions too, whatever their names (counted_entry and counted_exit are the
    # hot path's under --timing=sampled): by their source file, never "(program)" code
    eq(w.run(["--no-open", "--timing=sampled", "--sample-rate", "4000", "--profile", "run", "-release", prog("s-fib.c"),
              "30"]).returncode, 0, "s-fib 30, sampled timing, runs")
    sm = w.summary().doc["tree"].get("sampled") or {"name": [], "library": [], "kind": []}
    counted = [(n, l) for n, l, k in zip(sm["name"], sm["library"], sm["kind"]) if k == "library" and
               n.startswith("counted_")]
    check(counted and all(l == "(exaloop)" for n, l in counted),
          "s-fib, sampled timing: the hot path's static functions are (exaloop)'s: %r" % sorted(set(counted)))
    rt = json.load(open(os.path.join(w.latest(), "samples.json")))
    check(any(a.get("runtime") is True and a.get("symbol", "").startswith("counted_") for a in rt["ips"]),
          "samples.json marks them runtime")
done()
