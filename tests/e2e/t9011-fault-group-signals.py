"""Faults: signals sent to exaloop's process group, or to exaloop alone, reach the program
exactly once, as they would reach it without exaloop.

- `kill -TERM -PGID` (a job manager, a script, a shell's SIGHUP on logout) used to reach the
  program directly AND through exaloop's forwarding: a program that treats a second SIGTERM as
  "force quit" exited 99 in about 2 of 15 runs.  The program now runs in its own process group,
  so only exaloop's single copy reaches it.  40 repetitions, since the race hides.
- Every terminating signal sent to exaloop alone (SIGINT, SIGQUIT, SIGUSR1, ...) reaches the
  program, which stops with 128+N as it would uncaptured; SIGINT and SIGQUIT used to be swallowed
  (exaloop ignored them like system(3) does) and the program ran to its end.
"""
import resource
import signal

from xltest import *

GROUP_RUNS = 40


def popen(w, cmd):
    return subprocess.Popen(cmd, cwd=w.path, env=dict(os.environ, CI="1"), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_CORE, (0, 0)))


def group_term(w, cmd):
    """Start cmd as a process group, SIGTERM the group once the program is ready."""
    x = popen(w, cmd)
    first = x.stdout.readline()
    os.killpg(x.pid, signal.SIGTERM)
    out, err = x.communicate(timeout=120)
    return x.returncode, first + out, err


with Workdir() as w:
    app = os.path.join(w.path, "sigterm2")
    eq(w.run(["--profile", "build", prog("s-sigterm2.c"), "-o", app]).returncode, 0, "build s-sigterm2")
    killme = os.path.join(w.path, "killme")
    eq(w.run(["--profile", "build", prog("s-killme.c"), "-o", killme]).returncode, 0, "build s-killme")

    # The oracle: the same binary without exaloop (its runtime stays inert).
    plain = [group_term(w, [app])[0] for _ in range(5)]
    eq(plain, [0] * 5, "uncaptured: SIGTERM to the group is one SIGTERM (exit 0)")

    codes, outs = [], []
    for i in range(GROUP_RUNS):
        rc, out, err = group_term(w, [EXALOOP, "--no-open", "profile", "exec", app])
        codes.append(rc)
        outs.append(out)
        if rc != 0:
            sys.stdout.write(err)
    eq(codes.count(99), 0, "captured: no run saw a second SIGTERM (force quit, 99) in %d runs" % GROUP_RUNS)
    eq(codes, [0] * GROUP_RUNS, "captured: every run exits 0 like the uncaptured program")
    eq(sum("graceful: steps=3" in o for o in outs), GROUP_RUNS, "captured: every run shut down gracefully")
    s = w.summary()
    eq(s.paths().get(("main", "shutdown_step")), 3, "the last capture holds the graceful shutdown")

    # The same through `run` without capture (exaloop still stands between shell and program).
    rc, out, _ = group_term(w, [EXALOOP, "--no-open", "run", prog("s-sigterm2.c")])
    eq(rc, 0, "run without capture: one SIGTERM")

    # Signals to exaloop alone: the program gets each once and dies of it (s-killme has no
    # handlers), as it would if it had been sent to the program.
    sigs = [signal.SIGINT, signal.SIGQUIT, signal.SIGTERM, signal.SIGHUP, signal.SIGUSR1,
            signal.SIGUSR2, signal.SIGALRM]
    for rep in range(3):
        for sig in sigs:
            x = popen(w, [EXALOOP, "--no-open", "profile", "exec", killme, "--batches", "100",
                          "--batch-size", "100", "--sleep-ms", "100"])
            x.stdout.readline()
            os.kill(x.pid, sig)
            out, err = x.communicate(timeout=120)
            what = "%s to exaloop alone (run %d)" % (signal.Signals(sig).name, rep + 1)
            eq(x.returncode, 128 + sig, what + ": exit 128+N like the uncaptured program")
            check("killed by signal %d" % sig in err, what + ": the program was killed by it")
            check("done: batches=" not in out, what + ": the program did not run to its end")
done()
