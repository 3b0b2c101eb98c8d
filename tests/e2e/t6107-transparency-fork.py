"""Forked children that keep running traced code get their own capture.

tests/progs/s-prefork.c forks three workers (serve() 10, 20 and 30 times; the last then execs
the program again) after a system("true") (a fork + exec that runs no traced code).  Each worker
gets child-<pid>/ in the run's capture directory with exactly its own calls; the parent's process
(--process) has only the parent's, the report has all of them, and lists the children (the text reports name each capture's process, as
the JSON does); a child that runs no traced code leaves nothing; the worker that exec'd is
finalized as "exec".  s-fork.c's child ends with _exit (capture not
finalized) or exit (finalized); its counts are those LLVM XRay basic mode records for the child
(tests/progs/README.md).  Output and exit status equal the uncaptured run's.
"""
import json
import shutil

from xltest import *

with Workdir() as w:
    app = os.path.join(w.path, "prefork")
    eq(w.run(["--profile", "build", prog("s-prefork.c"), "-o", app]).returncode, 0, "build s-prefork")
    plain = subprocess.run([app], cwd=w.path, stdout=subprocess.PIPE, text=True, timeout=60)
    p = w.run(["--no-open", "profile", "exec", app])
    eq((p.returncode, sorted(p.stdout.splitlines())), (0, sorted(plain.stdout.splitlines())),
       "output and exit status as uncaptured")
    top = w.latest()
    s = w.summary(top)
    proc = s.doc["run"]["process"]
    sp = w.summary(top, ["--process", str(proc["pid"])])
    eq({f: sp.calls(f) for f in ("main", "spawn", "after", "serve")}, {"main": 1, "spawn": 3, "after": 2, "serve": 0},
       "parent: its own calls only (--process)")
    eq({f: s.calls(f) for f in ("main", "spawn", "after", "serve", "finish")},
       {"main": 1, "spawn": 3, "after": 2, "serve": 60, "finish": 3}, "the report: every process's calls")
    kids = [r for r in proc["related"] if r["kind"] == "fork_child"]
    eq(len(kids), 3, "three workers captured (not the child of system())")
    check(all(r["ppid"] == proc["pid"] for r in kids), "each child names the parent's pid")
    check(s.note("fork_children") is not None and all(r["dir"] in s.note("fork_children")["message"] for r in kids)
          and s.warning("fork_children") is None, "the parent's report lists its children (a note)")
    text = w.run(["profile", "report", top, "--text"]).stdout
    check(("process %d (parent " % proc["pid"]) in text
          and all("%s (pid %d)" % (r["dir"], r["pid"]) in text for r in kids),
          "the parent's text report names its process and its children's captures")
    got = []
    for r in kids:
        c = w.summary(os.path.join(top, r["dir"]))
        eq(c.doc["run"]["process"]["pid"], r["pid"], "%s: its pid" % r["dir"])
        check(c.doc["run"]["process"]["forked_child"] and c.warning("fork_child") is not None,
              "%s: says it is a forked child" % r["dir"])
        text = w.run(["profile", "report", os.path.join(top, r["dir"]), "--text"]).stdout
        check("process %d (parent %d), a forked child" % (r["pid"], proc["pid"]) in text,
              "%s: its text report says which process it is" % r["dir"])
        got.append((c.calls("serve"), c.calls("finish"), c.calls("main"), c.doc["run"]["end_reason"]))
    eq(sorted(got), [(10, 1, 0, "exit"), (20, 1, 0, "exit"), (30, 1, 0, "exec")], "each worker's own calls and end")

    # s-fork: the child's calls after the fork, _exit (not finalized) and exit (finalized)
    for arg, fin in (([], False), (["--child-exit"], True)):
        p = w.run(["--profile", "--no-open", "run", prog("s-fork.c")] + arg)
        eq(p.returncode, 0, "s-fork %s: exit status" % arg)
        top = w.latest()
        s = w.summary(top)
        eq((s.calls("before"), s.calls("after"), s.calls("child_work")), (3, 4, 5), "s-fork %s: both processes' calls" % arg)
        kids = s.doc["run"]["process"]["related"]
        eq(len(kids), 1, "s-fork %s: one child capture" % arg)
        c = w.summary(os.path.join(top, kids[0]["dir"]))
        eq((c.calls("child_work"), c.calls("child_done"), c.calls("before")), (5, 1, 0), "s-fork %s: child's calls" % arg)
        eq(c.doc["run"]["finalized"], fin, "s-fork %s: child finalized only with exit()" % arg)
        # the merged child's own warnings and notes say whose they are (the parent's do not)
        merged = s.doc["warnings"] + s.doc["notes"]
        whose = [(x["kind"], x.get("process")) for x in merged if x["message"].startswith("process %d: " % kids[0]["pid"])]
        check((fin or whose) and all(pid == kids[0]["pid"] for _, pid in whose), "s-fork %s: the child's warnings carry its pid (%r)" % (arg, whose))
        eq([x["kind"] for x in merged if "process" in x and not x["message"].startswith("process ")], [],
           "s-fork %s: the parent's own warnings carry no process" % arg)
        if arg:
            continue
        # the child's capture cut short or gone: its process is a warning, never silently left out
        for how in ("truncated", "removed"):
            cut = os.path.join(w.path, "cut-" + how)
            shutil.copytree(top, cut)
            xlc = os.path.join(cut, kids[0]["dir"], "capture.xlc")
            if how == "truncated":
                os.truncate(xlc, 100)
            else:
                os.unlink(xlc)
            p = w.run(["profile", "report", cut, "--json"])
            doc = json.loads(p.stdout) if p.returncode == 0 else {"warnings": []}
            ws = [x for x in doc["warnings"] if x["kind"] == "process_unreadable"]
            check(p.returncode == 0 and len(ws) == 1 and ws[0].get("process") == kids[0]["pid"] and
                  ws[0]["message"].startswith("process %d: its capture could not be read" % kids[0]["pid"]),
                  "s-fork, child capture %s: a warning names its process (%r)" % (how, [x["message"] for x in doc["warnings"]]))
            eq(doc.get("totals", {}).get("processes"), 1, "s-fork, child capture %s: the parent's process is reported" % how)

    # s-forkvec: each child's first traced event carries a 256-bit vector (an argument, a return
    # value) while the runtime makes the child's capture with libc calls (AVX code, vzeroupper)
    app = os.path.join(w.path, "forkvec")
    eq(w.run(["--profile", "build", "-release", prog("s-forkvec.c"), "-o", app]).returncode, 0, "build s-forkvec")
    plain = subprocess.run([app], cwd=w.path, stdout=subprocess.PIPE, text=True, timeout=60)
    if plain.stdout == "no avx\n":
        print("note: s-forkvec not checked: the CPU has no AVX")
    else:
        p = w.run(["--no-open", "profile", "exec", app])
        eq((p.returncode, p.stdout), (0, plain.stdout), "s-forkvec: vectors intact in the children, as uncaptured")
        top = w.latest()
        s = w.summary(top)
        eq((s.calls("sum"), s.calls("fork_twice")), (4, 1), "s-forkvec: the three processes' calls")
        kids = s.doc["run"]["process"]["related"]
        eq(sorted(w.summary(os.path.join(top, r["dir"])).calls("sum") for r in kids), [1, 1],
           "s-forkvec: each child captured, with its own sum() call")
    # a program that changes directory before it forks and re-execs itself: the child's capture and
    # the new image's still land in the capture directory (it was given relative: profiles/...)
    cd = os.path.join(w.path, "cdfork.c")
    open(cd, "w").write(r'''
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
static __attribute__((noinline)) long work(long x) { __asm__ volatile("" : "+r"(x)); return x + 1; }
int main(int argc, char **argv)
{
	long s = 0;
	if (argc > 1 && strcmp(argv[1], "again") == 0) {
		for (int i = 0; i < 9; i++) s = work(s);
		printf("image2 work=%ld\n", s);
		return 0;
	}
	for (int i = 0; i < 3; i++) s = work(s);
	if (chdir("/") != 0) return 2;
	pid_t p = fork();
	if (p == 0) {
		long c = 0;
		for (int i = 0; i < 5; i++) c = work(c);
		printf("child work=%ld\n", c);
		fflush(stdout);
		_exit(0);
	}
	int st;
	waitpid(p, &st, 0);
	printf("parent work=%ld\n", s);
	fflush(stdout);
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n < 0) return 4;
	self[n] = 0;
	execl(self, argv[0], "again", (char *)0);
	return 3;
}
''')
    p = w.run(["--profile", "--no-open", "run", cd])
    eq((p.returncode, p.stdout), (0, "child work=5\nparent work=3\nimage2 work=9\n"), "chdir, fork, exec: the program runs as ever")
    top = w.latest()
    subs = sorted(d for d in os.listdir(top) if d.startswith(("child-", "exec-")))
    check(len(subs) == 2 and subs[0].startswith("child-") and subs[1] == "exec-1",
          "chdir before fork and exec: the child's and the new image's captures are in the capture directory: %r" % subs)
    eq(w.summary(top).calls("work"), 17, "every work() call of the three: 3 + 5 + 9")
done()
