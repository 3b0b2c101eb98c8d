"""Threads' CPU time (capture format 3) and the overhead estimate of threaded programs.

s-cputime.c runs 4 worker threads that either sleep 2 ms after each round of calls (they wait most of
their lives) or spin 2 ms of their own CPU time; each prints its own CLOCK_THREAD_CPUTIME_ID, the
oracle for the thread's CPU time in the capture.  The profiler's cost is its measured cost per call
times each thread's calls (known from the program: 1 + ROUNDS*(CALLS+1) per worker): related to the
threads' CPU time it must be what those figures imply, and for the sleeping threads far more than
its share of their summed lifetimes (the older estimate, which LevelDB showed understated: "2.8 %"
against a 1.76x slowdown).  Both the CPU and the wall-time share are said.  The summed thread time
exceeding the wall time is a note with the CPU time, not a warning."""
import re
import signal
import time

from xltest import *

ROUNDS, CALLS, THREADS = 50, 2000, 4
PER_WORKER = 1 + ROUNDS * (CALLS + 1)  # worker, tick, pause_round


def own_cpu(stdout):
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^cpu (\S+) (\d+)$", stdout, re.M)}


with Workdir() as w:
    exe = os.path.join(w.path, "sc")
    eq(w.run(["--profile", "build", "-release", prog("s-cputime.c"), "-o", exe]).returncode, 0, "build")
    results = {}
    for mode in ("sleep", "spin"):
        p = w.run(["--no-open", "profile", "exec", exe, mode, str(THREADS), str(ROUNDS), str(CALLS)])
        eq(p.returncode, 0, mode + ": run")
        own = own_cpu(p.stdout)
        eq(len(own), THREADS, mode + ": every worker reported its CPU time")
        s = w.summary()
        eq(s.warning("threads_exceed_wall"), None, mode + ": overlapping threads are no warning")
        threads = {t["name"]: t for t in s.doc["threads"]}
        for name, ns in sorted(own.items()):
            t = threads.get(name)
            check(t is not None and t["events"] == 2 * PER_WORKER, "%s: %s captured with its calls" % (mode, name))
            # the program measures from its body's start to its printf; the runtime from the thread's
            # first traced event to its exit: a few microseconds apart, plus a clock read's rounding
            check(t["cpu_ns"] is not None and abs(t["cpu_ns"] - ns) <= 2000000 + ns // 20,
                  "%s: %s CPU time %s ns, its own %d ns" % (mode, name, t["cpu_ns"], ns))
            check(t["cpu_ns"] <= t["elapsed_ns"] + 1000000, "%s: %s CPU time within its elapsed time" % (mode, name))
        o = s.doc["overhead"]
        per_call = o["ns_per_call"]
        cost = sum(per_call * t["events"] / 2 for t in s.doc["threads"])
        cpu = sum(t["cpu_ns"] for t in s.doc["threads"])
        eq(o["cpu_ns"], cpu, mode + ": the overhead's CPU time is the threads' summed CPU time")
        eq(s.doc["totals"]["cpu_time_ns"], cpu, mode + ": totals.cpu_time_ns")
        workers_cpu = sum(own.values())
        want = min(1.0, cost / (workers_cpu + threads[s.doc["threads"][0]["name"]]["cpu_ns"]))
        check(abs(o["cpu_share"] - want) <= 0.05 + 0.1 * want,
              "%s: profiler's share of the CPU time %.3f, as its cost and the program's own CPU times imply %.3f"
              % (mode, o["cpu_share"], want))
        check(abs(o["wall_share"] - min(1.0, cost / o["wall_ns"])) < 1e-6, mode + ": share of the wall time")
        n = s.note("overhead")
        check(n and "of the traced threads' CPU time" in n["message"] and "of the capture's wall time" in n["message"],
              mode + ": the note says both shares: %s" % (n and n["message"]))
        tw = s.note("threads_exceed_wall")
        check(tw is None or "CPU time" in tw["message"], mode + ": the threads note gives their CPU time")
        text = w.run(["profile", "report", w.latest(), "--text"]).stdout
        check(all(re.search(r"^  %s \(tid \d+\): elapsed .*, CPU " % re.escape(nm), text, re.M) for nm in own),
              mode + ": the text report gives each thread's CPU time beside its elapsed time")
        results[mode] = (o, sum(t["elapsed_ns"] for t in s.doc["threads"]), cpu)

    # killed: the threads never exit and nothing finalizes; the control thread's readings (every 0.5 s)
    # are what is left, at most 0.5 s old
    e = dict(os.environ, CI="1", EXALOOP_CACHE_DIR=w.cache)
    p = subprocess.Popen([EXALOOP, "--no-open", "profile", "exec", exe, "spin", "2", "100000", "100"], cwd=w.path, env=e,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    kid = None
    for _ in range(500):
        time.sleep(0.02)
        found = subprocess.run(["pgrep", "-P", str(p.pid), "-x", "sc"], stdout=subprocess.PIPE, text=True).stdout.split()
        if found:
            kid = int(found[0])
            break
    check(kid is not None, "killed: the program started")
    time.sleep(2.0)
    if kid:
        os.kill(kid, signal.SIGKILL)
    p.communicate(timeout=120)
    eq(p.returncode, 128 + signal.SIGKILL, "killed: exaloop exits as the program did")
    s = w.summary()
    eq(s.doc["run"]["finalized"], False, "killed: the capture was not finalized")
    workers = [t for t in s.doc["threads"] if t["name"].startswith("cpu-")]
    eq(len(workers), 2, "killed: both workers captured")
    check(all(t["cpu_ns"] is not None and 0 < t["cpu_ns"] <= t["elapsed_ns"] + 1000000 for t in workers),
          "killed: each worker keeps a CPU time from the periodic readings: %s"
          % [(t["cpu_ns"], t["elapsed_ns"]) for t in workers])

    sl, sp = results["sleep"], results["spin"]
    print("sleep: cpu share %.3f elapsed share %.3f (cpu %.1f ms of %.1f ms elapsed); spin: cpu share %.3f elapsed share %.3f"
          % (sl[0]["cpu_share"], sl[0]["elapsed_share"], sl[2] / 1e6, sl[1] / 1e6, sp[0]["cpu_share"], sp[0]["elapsed_share"]))
    # sleeping threads: the profiler's share of what they ran is far more than of their lifetimes
    check(sl[2] * 3 < sl[1], "sleep: the threads waited most of their lives (CPU %d of %d ns)" % (sl[2], sl[1]))
    check(sl[0]["cpu_share"] > 2 * sl[0]["elapsed_share"],
          "sleep: the share of the CPU time (%.3f) is well above the share of the summed lifetimes (%.3f)"
          % (sl[0]["cpu_share"], sl[0]["elapsed_share"]))
    # spinning threads ran most of their lives: the same calls are a smaller share of more CPU time
    check(sp[2] > sl[2] * 2, "spin: the threads used more CPU than the sleeping ones (%d vs %d ns)" % (sp[2], sl[2]))
    check(sp[0]["cpu_share"] < sl[0]["cpu_share"], "spin: the same calls are a smaller share of their CPU time")
done()
