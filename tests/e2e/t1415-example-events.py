"""examples/events, the guide's capture-window example: a Kafka consumer (librdkafka, a consumer group,
JSON events parsed with jansson) that runs on after its capture window, fed by librdkafka's mock
cluster inside the process. `exaloop --profile --target events run` on the example's events.c and a
copy of its exaloop.toml in the work directory (where exaloop looks for it first) with the window moved
and shortened (delay 4 s, duration 2 s instead of 10 s and 30 s) and short program arguments; the
example's own files stay as they are. The delay is 4 s, not 1 s, because the consumer
group's first join takes 3 s (the initial rebalance delay, which the mock broker keeps as Kafka's
brokers do): a window before it sees no batch.

The call count is checked against the program's own record: it logs CLOCK_MONOTONIC just before and
after each process_batch() (--batch-log), and the window's bounds are put on that clock with the
capture header's cal0_ns (CLOCK_MONOTONIC at the origin of the run's time axis) plus run.window; and
call by call, each traced call of the timeline lies inside one logged batch on that clock."""
import bisect
import re
import struct
import tomllib

from xltest import *

HDR_CAL0_NS = 80  # offsetof(struct xl_cap_header, cal0_ns), include/exaloop/xl_capture.h
EVENTS, RATE, KEYS = 130000, 20000, 64
SLACK_US = 10  # tick-to-ns conversion; traced calls were found 0.03 us inside the program's bounds

# The guide's "Capture Windows" configuration, word for word (source and build keys are C's).
GUIDE = {"kind": "kafka-consumer", "source": "events.c",
         "profile": {"mode": "all", "delay": "10s", "duration": "30s", "memory_interval": "100ms",
                     "buffer_size": "64MiB", "include": ["*process_batch*"]}}


def cal0_ns(capture):
    with open(os.path.join(capture, "capture.xlc"), "rb") as f:
        return struct.unpack_from("<Q", f.read(128), HDR_CAL0_NS)[0]


def substitute(text, pattern, line, what):
    out, n = re.subn(pattern, lambda m: line, text, flags=re.M)
    eq(n, 1, "override: one %s line in the example's exaloop.toml" % what)
    return out


example = os.path.join(SRC, "examples", "events")
with open(os.path.join(example, "exaloop.toml"), "rb") as f:
    target = tomllib.load(f)["targets"]["events"]
for key in ("kind", "source"):
    eq(target[key], GUIDE[key], "example: " + key)
eq(target["profile"], GUIDE["profile"], "example: the guide's [targets.events.profile]")
check({"-release", "-lrdkafka", "-ljansson"} <= set(target["build_args"]), "example: release build, links librdkafka, jansson")

with Workdir() as w:
    shutil.copy(os.path.join(example, "events.c"), w.path)
    log = os.path.join(w.path, "batches.txt")
    with open(os.path.join(example, "exaloop.toml")) as f:
        text = f.read()
    text = substitute(text, r'^delay = "10s"$', 'delay = "4s"', "delay")
    text = substitute(text, r'^duration = "30s"$', 'duration = "2s"', "duration")
    args = ["--bootstrap", "mock", "--events", str(EVENTS), "--rate", str(RATE), "--keys", str(KEYS), "--batch-log", log]
    text = substitute(text, r"^args = \[.*\]$", "args = " + json.dumps(args), "args")
    with open(os.path.join(w.path, "exaloop.toml"), "w") as f:
        f.write(text)

    p = w.run(["--profile", "--no-open", "--target", "events", "run"])
    sys.stdout.write(p.stdout)
    eq(p.returncode, 0, "exaloop exits with the program's status")
    closed = p.stderr.find("capture window closed; the program keeps running")
    check(0 <= closed < p.stderr.find("application ran"), "report written at window close, before the program ended")
    check("report updated with the program's exit status" in p.stderr, "report updated at exit")

    # The program's own account: every event consumed, parsed and aggregated.
    batches = [tuple(map(int, line.split())) for line in open(log)]
    m = re.search(r"^consumed: (\d+) events in (\d+) batches", p.stdout, re.M)
    eq(m and (int(m.group(1)), int(m.group(2))), (EVENTS, len(batches)), "program: events and batches consumed")
    eq(sum(b[3] for b in batches), EVENTS, "program: the batch log holds every event")
    check(re.search(r"^aggregated: %d events, %d keys, 0 not events$" % (EVENTS, KEYS), p.stdout, re.M) is not None,
          "program: every event parsed, every key seen")
    check("out of order: 0\n" in p.stdout, "program: per-key order kept")

    s = w.summary()
    run = s.doc["run"]
    eq((run["exit_status"], run["end_reason"]), (0, "window"), "final report: exit status, ended by the window")
    eq([f["name"] for f in s.funcs], ["process_batch"], "only process_batch traced")
    eq([t["tid"] for t in s.doc["threads"]], [run["process"]["pid"]],
       "one traced thread, the consumer's (not the producer's, nor librdkafka's)")

    origin = cal0_ns(w.latest())
    win = run["window"]
    opened, closed = origin + win["start_ns"], origin + win["end_ns"]
    check(batches[0][1] - origin < 4.0e9 and win["start_ns"] >= 3.95e9,
          "the consumer consumes before the window opens (first batch at %.3f s, window at %.3f s)"
          % ((batches[0][1] - origin) / 1e9, win["start_ns"] / 1e9))
    inside = [b for b in batches if opened <= b[1] < closed]
    edge = min(min(abs(b[1] - opened), abs(b[1] - closed)) for b in batches)
    traced = s.calls("process_batch")
    check(len(inside) >= 20, "batches inside the window: %d" % len(inside))
    check(abs(traced - len(inside)) <= 1,
          "process_batch calls %d = batches the program started inside the window %d ± 1 (nearest start %.3f ms "
          "from an edge)" % (traced, len(inside), edge / 1e6))
    # The same calls one by one: each process_batch of the timeline (Chrome export, run axis in us) lies
    # inside one batch of the program's log, [before, after] its call, on the same clock.
    out = os.path.join(w.path, "trace.json")
    subprocess.run([EXALOOP, "profile", "export", w.latest(), "--format", "chrome", "-o", out], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(out) as f:
        slices = [e for e in json.load(f)["traceEvents"] if e.get("ph") == "X" and e["name"] == "process_batch"]
    starts = [(b[1] - origin) / 1000.0 for b in batches]
    paired = set()
    for e in slices:
        i = bisect.bisect_right(starts, e["ts"] + SLACK_US) - 1
        if i >= 0 and e["ts"] + e["dur"] <= (batches[i][2] - origin) / 1000.0 + SLACK_US:
            paired.add(i)
    eq((len(slices), len(paired)), (traced, traced), "every traced call inside its own logged batch, in time")
    after = [b for b in batches if b[1] >= closed]
    check(len(after) > 0, "the consumer kept consuming after the window: %d batches" % len(after))
done()
