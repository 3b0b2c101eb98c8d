#!/usr/bin/env python3
"""The whole-run timeline on long runs (issue 13's "done when"), measured, not asserted in CTest.

1. auto (the default) on a run of about SECONDS seconds of tests/progs/s-timeline (many tick()
   calls of a few ns, one slow() of 300 us per round), at the default 64 MiB buffer:
   - the capture file stays within buffer_size;
   - the call tree counts every call (tick and slow equal the program's own counters);
   - the timeline spans the run: the first and last slow() it kept, against the window;
   - what the timeline kept (the threshold and when it was reached).
2. last on the same program at a service's call rate (SHORT_LAST tick() calls a round), run forever
   and killed with SIGKILL after KILL_AFTER seconds: the timeline keeps its final seconds (the
   first and last kept slow() against the kill), the ring having wrapped.

Usage: bench/timeline_long.py [--exaloop build/bin/exaloop] [--seconds 60] [--kill-after 10]
Prints a Markdown summary; exit 1 when a check above fails.  Takes about SECONDS + KILL_AFTER + 30 s.
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROG = os.path.join(SRC, "tests", "progs", "s-timeline.c")
SHORT = 100000  # tick() calls per round (auto: about 30 M calls a second under capture)
SHORT_LAST = 100  # in the last-mode run: a service's rate, about 350,000 calls a second
failures = []


def check(ok, what):
    print("- %s %s" % ("ok:" if ok else "**FAILED**:", what))
    if not ok:
        failures.append(what)


def toml(rounds, mode, forever=False):
    args = '["1", "%d", "forever"]' % SHORT_LAST if forever else '["%d", "%d"]' % (rounds, SHORT)
    return ('[targets.long]\nsource = "%s"\nbuild_args = ["-O2"]\nargs = %s\n[targets.long.profile]\ntimeline = "%s"\n'
            % (PROG, args, mode))


def exaloop(x, work, args, **kw):
    return subprocess.run([x, "--profile", "--no-open"] + args, cwd=work, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, **kw)


def latest(work):
    d = os.path.join(work, "profiles")
    return os.path.join(d, sorted(os.listdir(d))[-1])


def summary(x, cap):
    p = subprocess.run([x, "profile", "report", cap, "--json"], stdout=subprocess.PIPE, text=True, check=True)
    return json.loads(p.stdout)


def kept_slows(x, cap, work):
    out = os.path.join(work, "trace.json")
    subprocess.run([x, "profile", "export", cap, "--format", "chrome", "-o", out], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(out) as f:
        ev = json.load(f)["traceEvents"]
    os.remove(out)
    xs = [e for e in ev if e.get("ph") == "X"]
    return sorted((e for e in xs if e["name"] == "slow"), key=lambda e: e["ts"]), len(xs)


def calls(doc, name):
    return sum(f["calls"] for f in doc["functions"] if f["name"] == name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exaloop", default=os.path.join(SRC, "build", "bin", "exaloop"))
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--kill-after", type=float, default=10)
    a = ap.parse_args()
    x = os.path.abspath(a.exaloop)
    work = tempfile.mkdtemp(prefix="xl-tl-long-")
    print("## Whole-run timeline on long runs (`bench/timeline_long.py`)\n")
    print("load average at start: %s\n" % open("/proc/loadavg").read().split()[0])

    # calibrate: rounds per second under capture
    with open(os.path.join(work, "exaloop.toml"), "w") as f:
        f.write(toml(200, "auto"))
    t0 = time.monotonic()
    p = exaloop(x, work, ["--target", "long", "run"])
    if p.returncode:
        sys.exit("calibration run failed: " + p.stderr)
    per_round = summary(x, latest(work))["run"]["window"]["duration_ns"] / 1e9 / 200
    rounds = max(1, int(a.seconds / per_round))
    print("calibration: %.3f ms per round of %d tick() calls under capture (%.1f s with the build)\n" %
          (per_round * 1e3, SHORT, time.monotonic() - t0))

    # 1. auto, about a.seconds
    with open(os.path.join(work, "exaloop.toml"), "w") as f:
        f.write(toml(rounds, "auto"))
    p = exaloop(x, work, ["--target", "long", "run"], timeout=a.seconds * 10 + 600)
    cap = latest(work)
    doc = summary(x, cap)
    win = doc["run"]["window"]
    span = win["duration_ns"] / 1e9
    print("### auto: %d rounds, %.1f s captured\n" % (rounds, span))
    check(p.returncode == 0 and p.stdout == "rounds %d ticks %d\n" % (rounds, rounds * SHORT),
          "the program's own counters: %r" % p.stdout.strip())
    size = os.path.getsize(os.path.join(cap, "capture.xlc"))
    buf = doc["run"]["settings"]["buffer_size"]
    check(size <= buf + 12288, "capture file %.1f MiB within buffer_size %.0f MiB" % (size / 2**20, buf / 2**20))
    total = calls(doc, "tick") + calls(doc, "slow") + calls(doc, "main")
    check(total >= 500_000_000, "%s calls (500 M or more)" % format(total, ","))
    check((calls(doc, "tick"), calls(doc, "slow")) == (rounds * SHORT, rounds),
          "call tree: tick %s, slow %s (the program's: %s, %s)" %
          (format(calls(doc, "tick"), ","), format(calls(doc, "slow"), ","), format(rounds * SHORT, ","),
           format(rounds, ",")))
    check(doc["warnings"] == [], "no warnings: %s" % [w["kind"] for w in doc["warnings"]])
    th = doc["threads"][0]["timeline"]
    slows, nkept = kept_slows(x, cap, work)
    first = slows[0]["ts"] / 1e6 - win["start_ns"] / 1e9 if slows else span
    last = win["end_ns"] / 1e9 - (slows[-1]["ts"] + slows[-1]["dur"]) / 1e6 if slows else span
    check(len(slows) == rounds, "every slow() (300 us) in the timeline: %d of %d" % (len(slows), rounds))
    check(first < 0.01 * span and last < 0.01 * span,
          "the timeline spans the window: first slow() %.3f s after its start, last ends %.3f s before its end"
          % (first, last))
    print("- kept: %s (%s calls in the timeline, %s left out)" % (th["note"], format(nkept, ","),
                                                                  format(th["short_calls"], ",")))
    print("- threshold history: %s\n" % ", ".join("%.3f s: %d ns" % (h["t_ns"] / 1e9, h["threshold_ns"])
                                                for h in th["history"]))

    # 2. last, SIGKILL after a.kill_after seconds
    with open(os.path.join(work, "exaloop.toml"), "w") as f:
        f.write(toml(0, "last", forever=True))
    proc = subprocess.Popen([x, "--profile", "--no-open", "--target", "long", "run"], cwd=work,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first_line = proc.stdout.readline()  # the program runs (built) once it prints
    time.sleep(a.kill_after)
    with open("/proc/%d/task/%d/children" % (proc.pid, proc.pid)) as f:
        kids = [int(k) for k in f.read().split()]
    for k in kids:
        os.kill(k, signal.SIGKILL)
    proc.communicate(timeout=600)
    cap = latest(work)
    doc = summary(x, cap)
    win = doc["run"]["window"]
    span = (win["end_ns"] - win["start_ns"]) / 1e9
    th = doc["threads"][0]["timeline"]
    slows, nkept = kept_slows(x, cap, work)
    print("### last: killed with SIGKILL after %.1f s (%s)\n" % (span, first_line.strip()))
    check(proc.returncode == 128 + signal.SIGKILL and not doc["run"]["finalized"], "killed, capture not finalized")
    check(th["recycled_blocks"] > 0, "the ring reused %s blocks" % format(th["recycled_blocks"], ","))
    if slows:
        kept_from = slows[0]["ts"] / 1e6 - win["start_ns"] / 1e9
        gap = win["end_ns"] / 1e9 - (slows[-1]["ts"] + slows[-1]["dur"]) / 1e6
        check(1.0 <= span - kept_from < span - 0.5 and gap < 0.05,
              "the final %.2f s kept: slow() calls from %.2f s to %.3f s before the end (of %.2f s)" %
              (span - kept_from, kept_from, gap, span))
    else:
        check(False, "no slow() call kept")
    check(calls(doc, "slow") >= 100, "call tree: %s slow(), %s tick()" % (format(calls(doc, "slow"), ","),
                                                                          format(calls(doc, "tick"), ",")))
    print("- kept: %s (%s calls)\n" % (th["note"], format(nkept, ",")))
    subprocess.run(["rm", "-rf", work])
    if failures:
        print("\n%d check(s) failed" % len(failures))
        sys.exit(1)


if __name__ == "__main__":
    main()
