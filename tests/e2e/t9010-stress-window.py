"""32 threads at full speed while the capture window opens and closes under them: the program runs
on unharmed, the capture is finalized at the window's end, and every thread's counts stay within what
it counted itself."""
from xltest import *
import re

with Workdir() as w:
    open(os.path.join(w.path, "exaloop.toml"), "w").write(
        '[targets.stress]\nkind = "service"\nsource = "%s"\nbuild_args = ["-release", "-pthread"]\nargs = ["32", "4"]\n'
        '[targets.stress.profile]\ndelay = "1s"\nduration = "1500ms"\nmemory_interval = "20ms"\n' % prog("s-stress.c"))
    p = w.run(["--profile", "--no-open", "--target", "stress", "run"], timeout=600)
    eq(p.returncode, 0, "program exits normally after the window closed")
    check("capture window closed; the program keeps running" in p.stderr, "report at the window's end")
    own = {m.group(1): int(m.group(2)) for m in re.finditer(r"^(stress-\d+) work=(\d+)", p.stdout, re.M)}
    eq(len(own), 32, "32 threads reported their counts")
    s = w.summary()
    eq(s.doc["run"]["end_reason"], "window", "finalized by the window")
    win = s.doc["run"]["window"]
    check(0.9e9 <= win["start_ns"] <= 1.6e9 and 1.3e9 <= win["duration_ns"] <= 2.2e9,
          "window where it was asked (%d ns, %d ns)" % (win["start_ns"], win["duration_ns"]))
    seen = 0
    for t in s.doc["threads"]:
        if t["name"] not in own:
            continue
        seen += 1
        paths = s.paths(t["index"])
        work = sum(v for k, v in paths.items() if k[-1] == "work")
        step = sum(v for k, v in paths.items() if k[-1] == "step")
        check(0 < work <= own[t["name"]], "%s: 0 < captured work %d <= its own %d" % (t["name"], work, own[t["name"]]))
        check(abs(step - 2 * work) <= 2, "%s: step == 2 x work inside the window (%d, %d)" % (t["name"], step, work))
    eq(seen, 32, "every worker thread captured")
done()
