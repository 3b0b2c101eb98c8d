"""Command-line rules: option order, program args untouched, compile errors, Codon, -shared, C++, exit codes."""
import re
import shutil

from xltest import *

with Workdir() as w:
    p = w.run(["run", "--profile", prog("s-fib.c")])
    eq(p.returncode, 2, "--profile after run: usage error")
    check("'--profile' must come before 'run': exaloop --profile run" in p.stderr, "message shows the right order")
    p = w.run(["build", "--profile=memory", prog("s-fib.c")])
    check(p.returncode == 2 and "must come before 'build'" in p.stderr, "--profile=memory after build")
    # Every global option (as 'exaloop --help' lists them) after the command: refused with the order it goes
    # in, never taken for an unknown build option (run/build once knew only some of them: globals.c)
    usage = w.run(["--help"]).stdout.split("commands:")[0]
    globals_ = re.findall(r"^  --([a-z-]+)( [A-Z]+|\[=[A-Z]+\])?", usage, re.M)
    names = [n for n, _ in globals_ if n != "help"]
    check({"profile", "no-open", "target", "timeline", "timeline-min-duration", "version"} <= set(names),
          "the usage lists the global options: %s" % names)
    for name, value in globals_:
        if name == "help":
            continue
        given = ["--" + name] + (["x"] if value.startswith(" ") else [])
        for cmd in ("run", "build"):
            p = w.run([cmd] + given + [prog("s-fib.c")])
            check(p.returncode == 2 and "'--%s' must come before '%s': exaloop %s %s ..." % (name, cmd, " ".join(given), cmd)
                  in p.stderr and "unknown build option" not in p.stderr, "%s %s: %s" % (cmd, " ".join(given), p.stderr.strip()))
    p = w.run(["run", "--timeline", "last", prog("s-fib.c")])
    check(p.returncode == 2 and "'--timeline' must come before 'run': exaloop --timeline last run ..." in p.stderr,
          "run --timeline last x.c: " + p.stderr.strip())
    p = w.run(["--profile", "--no-open", "run", "-x", prog("s-fib.c")])
    check(p.returncode == 2 and "unknown build option '-x'" in p.stderr, "unknown build option: exit 2")
    p = w.run(["--frobnicate", "run", prog("s-fib.c")])
    eq(p.returncode, 2, "unknown global option: exit 2")
    p = w.run(["rnu"])
    check(p.returncode == 2 and "did you mean 'run'" in p.stderr, "unknown command gets a suggestion")

    # program arguments that look like exaloop's or the compiler's flags pass through untouched
    echo = os.path.join(w.path, "echo.c")
    open(echo, "w").write('#include <stdio.h>\nint main(int c, char **v) { for (int i = 1; i < c; i++) printf("[%s]", v[i]); printf("\\n"); return 0; }\n')
    p = w.run(["--profile", "--no-open", "run", echo, "--profile", "-release", "--no-open", "-o", "x", "--", "a b"])
    eq(p.stdout, "[--profile][-release][--no-open][-o][x][--][a b]\n", "program args untouched")
    eq(w.summary().doc["run"]["args"], ["--profile", "-release", "--no-open", "-o", "x", "--", "a b"], "args recorded")

    # stdin passes through
    cat = os.path.join(w.path, "cat.c")
    open(cat, "w").write('#include <stdio.h>\nint main(void) { int c; while ((c = getchar()) != EOF) putchar(c); return 0; }\n')
    p = subprocess.run([EXALOOP, "--profile", "--no-open", "run", cat], cwd=w.path, input="hello\nworld\n",
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    eq(p.stdout, "hello\nworld\n", "stdin reaches the program")

    # compile errors: the compiler's diagnostics, exit 125
    broken = os.path.join(w.path, "broken.c")
    open(broken, "w").write("int main(void) { return undefined_thing; }\n")
    p = w.run(["--profile", "--no-open", "run", broken])
    eq(p.returncode, 125, "compile error: exit 125")
    check("undefined_thing" in p.stderr and "compilation failed" in p.stderr, "diagnostics and a one-line error")
    p = w.run(["--profile", "run", os.path.join(w.path, "app.codon")])
    check(p.returncode == 125 and "Codon" in p.stderr and "no Codon toolchain" in p.stderr, "a .codon source is refused clearly")
    p = w.run(["--profile", "run", "-shared", prog("s-fib.c")])
    check(p.returncode == 2 and "standalone applications" in p.stderr, "-shared with --profile is refused")
    p = w.run(["--profile", "run", os.path.join(w.path, "missing.c")])
    check(p.returncode == 125 and "cannot read source" in p.stderr, "missing source: exit 125")

    # C++: clang++, demangled names
    p = w.run(["--profile", "--no-open", "run", prog("s-cxx.cc")])
    eq(p.returncode, 0, "C++ program runs")
    names = [f["name"] for f in w.summary().funcs]
    check(any("::" in n and "(" in n for n in names), "C++ names are demangled: %s" % names)
    check(not any(n.startswith("_Z") for n in names), "no mangled names")

    # build + plain run + profile exec; sidecar checks
    app = os.path.join(w.path, "fib")
    p = w.run(["--profile", "build", "-release", prog("s-fib.c"), "-o", app])
    eq(p.returncode, 0, "build")
    for side in (".profile.json", ".symbols.json"):
        check(os.path.exists(app + side), "sidecar " + side)
    sidecar = json.load(open(app + ".profile.json"))
    for k in ("mode", "build_id", "compiler", "compiler_version", "sdk_version", "flags", "sources", "build_time_ns"):
        check(k in sidecar, "profile.json has " + k)
    n = len(w.captures())
    plain = subprocess.run([app, "10"], stdout=subprocess.PIPE, text=True, cwd=w.path)
    eq(plain.stdout, "fib(10) = 55\n", "./app alone runs")
    eq(len(w.captures()), n, "./app alone captures nothing")
    check(not os.path.exists(os.path.join(w.path, "profiles")) or len(w.captures()) == n, "no capture dir")
    p = w.run(["--no-open", "profile", "exec", app, "10"])
    eq(p.returncode, 0, "profile exec")
    eq(w.summary().calls("fib"), 177, "profile exec captures fib(10)")
    check(w.summary().doc["run"]["compile_time_ns"] is None, "profile exec: no compile time")

    other = os.path.join(w.path, "other")
    w.run(["--profile", "build", prog("s-two-parents.c"), "-o", other])
    shutil.copy(other + ".symbols.json", app + ".symbols.json")
    p = w.run(["--no-open", "profile", "exec", app, "10"])
    check(p.returncode == 2 and "does not belong" in p.stderr, "symbols sidecar from another binary is refused")
    shutil.copy(other + ".profile.json", app + ".profile.json")
    p = w.run(["--no-open", "profile", "exec", app, "10"])
    check(p.returncode == 2 and "does not belong" in p.stderr, "profile sidecar from another binary is refused")
    os.remove(app + ".profile.json")
    p = w.run(["--no-open", "profile", "exec", app, "10"])
    check(p.returncode == 2 and "was not built with" in p.stderr, "missing sidecars are explained")
    plainexe = os.path.join(w.path, "plainfib")
    w.run(["build", prog("s-fib.c"), "-o", plainexe])
    p = w.run(["--no-open", "profile", "exec", plainexe])
    check(p.returncode == 2 and "not built with" in p.stderr, "an executable not built for profiling is refused")
    mem = os.path.join(w.path, "memfib")
    w.run(["--profile=memory", "build", prog("s-fib.c"), "-o", mem])
    p = w.run(["--profile=xray", "--no-open", "profile", "exec", mem])
    check(p.returncode == 2 and "memory only" in p.stderr, "a memory build cannot trace functions")
    p = w.run(["--no-open", "profile", "exec", mem, "5"])
    eq(p.returncode, 0, "a memory build captures memory")
    eq(w.summary().doc["run"]["mode"], "memory", "mode from the build sidecar")
    p = w.run(["profile", "exec", os.path.join(w.path, "nope")])
    eq(p.returncode, 127, "missing program: 127")

    # report/export argument errors
    p = w.run(["profile", "report", os.path.join(w.path, "no-capture")])
    eq(p.returncode, 3, "missing capture: exit 3")
    p = w.run(["profile", "report", w.latest(), "--sort", "size"])
    check(p.returncode == 2 and "invalid sort key" in p.stderr, "bad --sort")
    p = w.run(["profile", "export", w.latest(), "--format", "pdf"])
    check(p.returncode == 2 and "unknown format 'pdf'" in p.stderr, "bad --format")
    p = w.run(["profile", "report", w.latest(), "--text", "--thread", "7"])
    check(p.returncode == 2 and "no thread 7" in p.stderr, "bad --thread")
    # a capture option without --profile (there is no capture to set): one line, exit 2, nothing run
    for opt in (["--delay", "1s"], ["--timing", "sampled"], ["--include", "nomatch*"], ["--no-source"],
                ["--sample-rate", "500"]):
        for cmd in (["run", prog("s-plain.c")], ["build", prog("s-plain.c"), "-o", os.path.join(w.path, "nobuild")]):
            p = w.run(["--no-open"] + opt + cmd)
            check(p.returncode == 2 and "%s sets the capture" % opt[0] in p.stderr and "--profile" in p.stderr
                  and len(p.stderr.strip().splitlines()) == 1 and p.stdout == ""
                  and not os.path.exists(os.path.join(w.path, "nobuild")),
                  "%s %s without --profile: one line, exit 2, nothing built or run (%d: %r)"
                  % (" ".join(opt), cmd[0], p.returncode, p.stderr))
    # -o naming an input would replace the source with the program: refused, the source kept
    src = os.path.join(w.path, "keep.c")
    shutil.copy(prog("s-plain.c"), src)
    before_src = open(src, "rb").read()
    for out in (src, os.path.join(w.path, ".", "keep.c")):
        p = w.run(["build", src, "-o", out])
        check(p.returncode == 2 and "is the input" in p.stderr and len(p.stderr.strip().splitlines()) == 1,
              "build -o %s: one line, exit 2 (%d: %r)" % (os.path.relpath(out, w.path), p.returncode, p.stderr))
        eq(open(src, "rb").read(), before_src, "build -o the input: the source is unchanged")
    # --pgo with its profile forgotten would read the source as the profile
    p = w.run(["build", "--pgo", prog("s-plain.c"), "-o", os.path.join(w.path, "pgoless")])
    check(p.returncode == 2 and "'--pgo' needs a profile before the sources" in p.stderr
          and len(p.stderr.strip().splitlines()) == 1, "--pgo SOURCE: one line, exit 2 (%r)" % p.stderr)
    # a global option after a profile command: where it goes, as run and build say it
    for args, first in ((["profile", "report", w.latest(), "--no-open"],
                         "exaloop: error: '--no-open' must come before 'profile report': exaloop --no-open profile report ..."),
                        (["profile", "exec", "--delay", "1s", "./x"],
                         "exaloop: error: '--delay' must come before 'profile exec': exaloop --delay 1s profile exec ..."),
                        (["--no-open=1", "run", "x.c"], "exaloop: error: '--no-open' takes no value (in 'exaloop')")):
        p = w.run(args)
        eq((p.returncode, p.stderr.splitlines()[0] if p.stderr else ""), (2, first), " ".join(args[:3]))
    # formats that keep every thread apart refuse --thread rather than ignore it
    for args in (["export", w.latest(), "--format", "chrome"], ["export", w.latest(), "--format", "perfetto"],
                 ["export", w.latest(), "--format", "json"], ["report", w.latest(), "--json"]):
        before = set(os.listdir(w.path))
        p = w.run(["profile"] + args + ["--thread", "0", "-o", os.path.join(w.path, "one")] if args[0] == "export"
                  else ["profile"] + args + ["--thread", "0"])
        check(p.returncode == 2 and "--thread is for the text, folded and pprof formats" in p.stderr
              and len(p.stderr.strip().splitlines()) == 1 and set(os.listdir(w.path)) == before,
              "%s --thread 0: one line, exit 2, nothing written (%d: %r)" % (" ".join(args[2:]), p.returncode, p.stderr))
    # --no-source is the HTML export's: the other formats hold no source text
    for fmt in ("json", "folded", "text"):
        p = w.run(["profile", "export", w.latest(), "--format", fmt, "--no-source"])
        eq((p.returncode, p.stderr.strip()), (2, "exaloop: error: --no-source is for --format html (the %s format "
                                               "holds no source text)" % fmt), "export --format %s --no-source" % fmt)
    eq(w.run(["profile", "export", w.latest(), "--format", "html", "--no-source", "-o",
              os.path.join(w.path, "ns.html")]).returncode, 0, "export --format html --no-source")
    # options of the capture given to commands that read captures: refused, not ignored
    for args in (["--delay", "1s", "profile", "report", w.latest(), "--text"],
                 ["--include", "f", "profile", "export", w.latest(), "--format", "json"],
                 ["--timing", "sampled", "profile", "diff", w.latest(), w.latest()]):
        p = w.run(args)
        eq((p.returncode, p.stderr.strip()), (2, "exaloop: error: %s sets a capture, and 'profile %s' reads captures "
                                               "made already: drop it" % (args[0], args[3])), " ".join(args[:4]))
done()
