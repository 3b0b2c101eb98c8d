"""Transparency: a program that execs a program exaloop did not build (same pid).

tests/progs/s-exec-other.c calls work() 3 times, then execs its arguments.  The exec'd program
has no runtime to finalize the first image's capture, and exec runs no destructor: the capture
used to be left unfinalized and reported like a crash.  exaloop (the parent) sees that the
process ended under another program's name and finalizes the capture as ended by "exec"; the
report says "ended by exec into a program that was not captured", never "crash" or "not
finalized".  Exit status, stdout and stderr equal the uncaptured run's, in both capture modes.
A program that ends with _exit (no exec) is still reported as not finalized.
"""
from xltest import *


def program_lines(text):
    return [l for l in text.splitlines() if not l.startswith(("exaloop:", "hint:"))]


CASES = (
    (["/bin/true"], 0, ""),
    (["/bin/sh", "-c", "exit 3"], 3, ""),
    (["/bin/sh", "-c", "echo after exec; echo to stderr >&2; exit 5"], 5, "to stderr\n"),
)

with Workdir() as w:
    for mode in ("all", "memory"):
        app = os.path.join(w.path, "exec-other-" + mode)
        eq(w.run(["--profile=" + mode, "build", prog("s-exec-other.c"), "-o", app]).returncode, 0,
           "build s-exec-other (%s)" % mode)
        for args, status, err in CASES:
            what = "%s: %s" % (mode, " ".join(args))
            plain = subprocess.run([app] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   timeout=60)
            eq((plain.returncode, plain.stderr), (status, err), what + ": uncaptured run")
            before = set(w.captures())
            p = w.run(["--no-open", "profile", "exec", app] + args)
            eq((p.returncode, p.stdout), (plain.returncode, plain.stdout), what + ": exit status and output as uncaptured")
            eq(program_lines(p.stderr), program_lines(plain.stderr), what + ": the program's stderr as uncaptured")
            check("crash" not in p.stderr and "not finalized" not in p.stderr, what + ": no crash reported")
            check(any("exec'd '%s', which exaloop did not build" % os.path.basename(args[0]) in l
                      for l in p.stderr.splitlines()), what + ": exaloop says the exec'd program was not captured")
            new = sorted(set(w.captures()) - before)
            eq(len(new), 1, what + ": one capture")
            s = w.summary(new[0])
            eq((s.doc["run"]["finalized"], s.doc["run"]["end_reason"]), (True, "exec"), what + ": finalized as exec")
            wx = s.warning("exec")
            check(wx is not None and "ended by exec into a program that was not captured" in wx["message"],
                  what + ": the report says the exec'd program was not captured")
            check(s.warning("not_finalized") is None, what + ": no not_finalized warning")
            check(not os.path.isdir(os.path.join(new[0], "exec-1")), what + ": no capture of the exec'd program")
            if mode == "all":
                eq({f: s.calls(f) for f in ("main", "work", "swap")}, {"main": 1, "work": 3, "swap": 1},
                   what + ": the first image's calls")
            text = w.run(["profile", "report", "--text", new[0]])
            check("ended by exec into a program that was not captured" in text.stdout + text.stderr,
                  what + ": the text report says it too")
            check("crash" not in text.stdout + text.stderr, what + ": the text report names no crash")

    # no exec: _exit still reads as a capture cut short
    p = w.run(["--no-open", "--profile", "run", prog("s-exit.c"), "--raw", "4"])
    s = w.summary()
    check(not s.doc["run"]["finalized"] and s.warning("not_finalized") is not None and s.warning("exec") is None,
          "_exit without exec: not finalized, no exec")
    check("which exaloop did not build" not in p.stderr, "_exit without exec: no exec message")
done()
