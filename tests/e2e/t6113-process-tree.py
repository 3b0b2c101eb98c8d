"""One report for a process tree: the captures of forked children are part of the parent's.

tests/progs/s-proctree.c forks children A, B, D and E; B forks C; D execs the program again (an
image the run does not capture); E execs a shell before any traced call (no capture: its exec
wrapper leaves child-<pid>/exec.txt, and the report lists it with what it exec'd).  Each process
makes a known number of calls (work(): parent 3, A 5, B 7, C 11, D 13, E 0).  The report of the capture directory merges the five processes: processes[] lists
each with its pid, parent pid, command, how it ended and its own totals (exact calls); the
functions table and totals are the sum; every thread names its process.  --process PID shows one
process's calls only (report and export); an unknown pid is a usage error (exit 2) that lists the
known pids.  The text report lists the processes; the exports carry the pids: Chrome's trace the
real pid per process, Perfetto's a process track per pid (read back by protoc), pprof a pid label (read back by `go tool pprof -raw` when go is installed),
folded a "app-PID" frame above each path.  The fork notes are notes, not warnings.
"""
import shutil

from xltest import *

CALLS = {"parent": 3, "A": 5, "B": 7, "C": 11, "D": 13}


def pprof_calls_by_pid(w, path):
    """{pid: calls} from `go tool pprof -raw` (an independent reader), or None without go."""
    go = shutil.which("go")
    if not go:
        return None
    home = os.path.join(w.path, "gohome")
    env = dict(os.environ, HOME=home, GOPATH=os.path.join(home, "go"), GOCACHE=os.path.join(home, "cache"),
               GOENV="off", GOPROXY="off", GOTOOLCHAIN="local", GOTELEMETRY="off",
               PPROF_TMPDIR=os.path.join(home, "pprof"), PPROF_BINARY_PATH=os.path.join(home, "nobin"))
    p = subprocess.run([go, "tool", "pprof", "-raw", path], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=600)
    eq(p.returncode, 0, "go tool pprof -raw")
    out, calls, in_samples = {}, None, False
    for line in p.stdout.splitlines():
        if line == "Samples:":
            in_samples = True
        elif line in ("Locations", "Mappings"):
            in_samples = False
        elif in_samples:
            m = re.match(r"^\s*(\d+)(?:\s+-?\d+)*: [\d ]*$", line)
            if m:
                calls = int(m.group(1))
            for v in re.findall(r"pid:\[(\d+)\]", line):
                out[int(v)] = out.get(int(v), 0) + calls
    return out


with Workdir() as w:
    app = os.path.join(w.path, "app")
    eq(w.run(["--profile", "build", prog("s-proctree.c"), "-o", app]).returncode, 0, "build s-proctree")
    plain = subprocess.run([app], cwd=w.path, stdout=subprocess.PIPE, text=True, timeout=60)
    eq((plain.returncode, plain.stdout), (0, "parent: work=3 children=ok\n"), "uncaptured run")
    p = w.run(["--no-open", "profile", "exec", app])
    eq((p.returncode, p.stdout), (0, plain.stdout), "output and exit status as uncaptured")
    check("child-" not in p.stderr, "no warning sends the user to a child's capture: " + p.stderr[-300:])
    top = w.latest()
    s = w.summary(top)
    allprocs = {q["pid"]: q for q in s.doc["processes"]}
    eq(len(allprocs), 6, "six processes: the parent, A, B, C, D, E")
    stubs = [q for q in allprocs.values() if q["totals"]["threads"] == 0]
    eq([(q["status"], q["exec_command"], q["forked"], q["totals"]["calls"], q["images"]) for q in stubs],
       [("exec", "sh -c exit 0", True, 0, 0)], "E: listed without a capture, with the program it exec'd")
    procs = {pid: q for pid, q in allprocs.items() if q["totals"]["threads"]}
    parent = s.doc["run"]["process"]["pid"]
    eq((s.doc["processes"][0]["pid"], s.doc["processes"][0]["forked"], s.doc["processes"][0]["exit_status"]),
       (parent, False, 0), "the started process first, with its exit status")
    check(all(q["command"] == s.doc["processes"][0]["command"] and q["command"].endswith("app") for q in procs.values()),
          "each process's command (a forked child's is its parent's)")
    eq(s.doc["totals"]["processes"], 6, "totals.processes")
    schema = json.load(open(os.path.join(SRC, "docs", "summary.schema.json")))
    eq(validate(s.doc, schema), [], "the document validates against docs/summary.schema.json")

    # each process's own calls, by --process, and its own totals in processes[]
    work = {}
    for pid in procs:
        one = w.summary(top, ["--process", str(pid)])
        work[pid] = one.calls("work")
        eq([q["pid"] for q in one.doc["processes"]], [pid], "--process %d: that process only" % pid)
        eq(procs[pid]["totals"]["calls"], sum(f["calls"] for f in one.funcs), "process %d: its calls" % pid)
        eq(procs[pid]["totals"]["threads"], len(one.doc["threads"]), "process %d: its threads" % pid)
    by_work = {v: k for k, v in work.items()}
    eq(sorted(work.values()), sorted(CALLS.values()), "work() calls of each process: 3, 5, 7, 11, 13")
    pa, pb, pc, pd = (by_work.get(CALLS[k]) for k in ("parent", "B", "C", "D"))
    eq(pa, parent, "the parent's 3 calls are the started process's")
    eq({pid: procs[pid]["ppid"] for pid in procs if pid != parent},
       {by_work[5]: parent, pb: parent, pd: parent, pc: pb}, "parents: A, B, D the started process's; C B's")
    eq({pid: procs[pid]["totals"]["calls"] for pid in procs},
       {parent: 10, by_work[5]: 6, pb: 10, pc: 12, pd: 14},
       "own calls: main+work+spawn+wait_ok 1+3+3+3, child+work 1+5, 1+7+1+1, 1+11, 1+13")
    eq({pid: procs[pid]["status"] for pid in procs},
       {parent: "exit", by_work[5]: "exit", pb: "exit", pc: "exit", pd: "exec"},
       "how each ended (D exec'd a program the run does not capture)")
    eq((procs[pd]["exec_command"], procs[parent]["exec_command"]), ("s-proctree --leaf", None),
       "D: the program it exec'd (its exec wrapper's note)")
    eq(stubs[0]["ppid"], parent, "E: its parent")

    # the merged report: every process's calls, totals the sum
    eq({f: s.calls(f) for f in ("main", "work", "child", "spawn", "wait_ok")},
       {"main": 1, "work": 39, "child": 4, "spawn": 4, "wait_ok": 4}, "the functions table covers all processes")
    eq(sum(f["calls"] for f in s.funcs), sum(q["totals"]["calls"] for q in procs.values()), "merged calls = sum")
    eq(s.doc["totals"]["threads"], 5, "five threads")
    eq(sorted(t["process"] for t in s.doc["threads"]), sorted(procs), "each thread names its process")
    eq(s.doc["totals"]["thread_time_ns"], sum(q["totals"]["thread_time_ns"] for q in procs.values()),
       "thread time = the processes' sum")
    check(s.note("fork_children") is not None and s.warning("fork_children") is None, "forked children: a note")
    ov, pov = s.doc["overhead"]["calls"], w.summary(top, ["--process", str(parent)]).doc["overhead"]["calls"]
    check(ov > pov and ("%d calls" % ov) in s.note("overhead")["message"],
          "the overhead note counts every process's calls (%d, the parent's %d)" % (ov, pov))

    # an unknown pid: usage error, the known pids listed
    p = w.run(["profile", "report", top, "--json", "--process", "1"])
    eq(p.returncode, 2, "--process 1: usage error")
    check(len(p.stderr.strip().splitlines()) == 1 and all(str(pid) in p.stderr for pid in allprocs),
          "one line naming the known pids: " + p.stderr)
    p = w.run(["profile", "report", top, "--json", "--process", str(stubs[0]["pid"])])
    check(p.returncode == 2 and "no capture" in p.stderr and "sh -c exit 0" in p.stderr,
          "--process E: it has no capture, and what it exec'd: " + p.stderr.strip())
    eq(w.run(["profile", "export", top, "--format", "folded", "--process", "1"]).returncode, 2,
       "export --process 1: usage error")

    # text: the processes with their own calls
    text = w.run(["profile", "report", top, "--text"]).stdout
    for pid, q in procs.items():
        check(re.search(r"pid %d \(parent %d\).*: 1 thread, %d calls" % (pid, q["ppid"], q["totals"]["calls"]), text),
              "text: process %d with its calls" % pid)
    check(re.search(r"pid %d \(parent %d\) forked: 0 threads, 0 calls.*exec 'sh -c exit 0'" % (stubs[0]["pid"], parent),
                    text), "text: E with the program it exec'd")

    # exports carry the pid
    p = w.run(["profile", "export", top, "--format", "chrome"])
    ev = json.loads(p.stdout)["traceEvents"]
    eq({e["pid"] for e in ev if e.get("ph") == "X"}, set(procs), "chrome: calls under each process's real pid")
    eq({e["pid"]: e["args"]["name"] for e in ev if e.get("name") == "process_name"}.keys(), set(allprocs),
       "chrome: a process_name per process")
    xw = [e for e in ev if e.get("ph") == "X" and e["name"] == "work"]
    eq({pid: sum(1 for e in xw if e["pid"] == pid) for pid in procs}, work, "chrome: each process's work() calls")
    folded = w.run(["profile", "export", top, "--format", "folded"]).stdout.splitlines()
    eq({l.split(";")[0] for l in folded}, {"app-%d" % pid for pid in procs}, "folded: a command-pid frame per process")
    one = w.run(["profile", "export", top, "--format", "folded", "--process", str(pc)]).stdout.splitlines()
    check(one and all(not l.startswith("app-") for l in one) and any(l.startswith("child;work ") for l in one),
          "folded --process: one process, no process frame")
    protoc = shutil.which("protoc")
    if not protoc:
        print("note: the Perfetto export's descriptors not read: protoc is not installed")
    else:
        pf = os.path.join(w.path, "tree.perfetto")
        eq(w.run(["profile", "export", top, "--format", "perfetto", "--no-compress", "-o", pf]).returncode, 0,
           "perfetto export")
        with open(pf, "rb") as f:
            dec = subprocess.run([protoc, "--decode=perfetto.protos.Trace", "-I", os.path.join(SRC, "tests", "perfetto"),
                                  "perfetto_subset.proto"], stdin=f, stdout=subprocess.PIPE, text=True, timeout=600)
        eq(dec.returncode, 0, "protoc --decode=perfetto.protos.Trace")
        # track descriptors, in protoc's text format: process {pid}, thread {pid tid}, parent_uuid
        text_pb = dec.stdout
        proc_pids = {int(v) for v in re.findall(r"process \{\s*pid: (\d+)", text_pb)}
        thread_pids = {(int(a), int(b)) for a, b in re.findall(r"thread \{\s*pid: (\d+)\s*tid: (\d+)", text_pb)}
        eq(proc_pids, set(allprocs), "perfetto: a process track per process, with its real pid")
        eq(thread_pids, {(t["process"], t["tid"]) for t in s.doc["threads"]}, "perfetto: each thread under its pid")
    pb_out = os.path.join(w.path, "tree.pb.gz")
    eq(w.run(["profile", "export", top, "--format", "pprof", "-o", pb_out]).returncode, 0, "pprof export")
    got = pprof_calls_by_pid(w, pb_out)
    if got is None:
        print("note: pprof labels not read back: go is not installed")
    else:
        eq(got, {pid: q["totals"]["calls"] for pid, q in procs.items()}, "pprof: calls by pid label")

    # an old capture: child-<pid>/ beside a top capture copied elsewhere still merges
    old = os.path.join(w.path, "copy")
    shutil.copytree(top, old)
    eq(w.summary(old).calls("work"), 39, "a copied capture directory keeps its tree")
done()
