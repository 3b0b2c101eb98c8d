"""examples/sortstats, a make project with a static library and a C++ part, profiled through its own
Makefile: `exaloop --profile run -- make -j2 :: ./sortstats N ROUNDS` and `build -- make` + `profile
exec`; call counts follow from the program's loops (main.c)."""
from xltest import *

N, ROUNDS = 1000, 2
LOGIC = {"main": 1, "merge_sort": ROUNDS, "sort_range": ROUNDS * (2 * N - 1), "mean": ROUNDS,
         "percentile": 2 * ROUNDS, "write_report": ROUNDS,
         # static helpers clang may inline at -O2: checked when they kept their own XRay sleds
         "next_value": ROUNDS * N, "merge": ROUNDS * (N - 1)}


def check_counts(w, capture, exe, what):
    with open(exe + ".symbols.json") as f:
        instrumented = {fn["name"] for fn in json.load(f)["functions"]}
    s = w.summary(capture)
    for name, n in LOGIC.items():
        if name in instrumented:
            eq(s.calls(name), n, "%s: %s calls" % (what, name))
    for name in ("main", "sort_range", "write_report"):
        check(name in instrumented, "%s: %s instrumented (C, library, C++)" % (what, name))


with Workdir() as w:
    src = os.path.join(w.path, "sortstats")
    shutil.copytree(os.path.join(SRC, "examples", "sortstats"), src)
    exe = os.path.join(src, "sortstats")
    r = w.run(["--profile", "run", "--", "make", "-C", src, "-j2", "::", exe, str(N), str(ROUNDS)])
    eq(r.returncode, 0, "run -- make -j2 :: ./sortstats")
    eq(len(r.stdout.splitlines()), ROUNDS, "one report line per round")
    check(r.stdout.startswith("%d samples: mean " % N), "the program's output")
    check("1 instrumented executable" in r.stderr, "one executable linked through the wrappers")
    check_counts(w, w.latest(), exe, "run --")

    subprocess.run(["make", "-C", src, "clean"], stdout=subprocess.DEVNULL, check=True)
    r = w.run(["--profile=xray", "build", "--", "make", "-C", src, "-j2"])
    eq(r.returncode, 0, "--profile=xray build -- make")
    check("sortstats/sortstats\n" in r.stderr, "lists the executable")
    with open(exe + ".profile.json") as f:
        eq(json.load(f)["mode"], "xray", "the mode reached the wrappers")
    r = w.run(["profile", "exec", exe, str(N), str(ROUNDS)])
    eq(r.returncode, 0, "profile exec")
    check_counts(w, w.latest(), exe, "build --")
done()
