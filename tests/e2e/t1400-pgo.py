"""pgo train, build --pgo and pgo evaluate on examples/loans (small inputs to keep it quick): the
profile merges every training run (and starts over with --fresh), its function count matches
llvm-profdata's own listing, a PGO build computes exactly what the plain build computes, a stale
profile is one warning line with the count of functions, exaloop.toml targets carry inputs and the
profile, evaluation prints the ratio with its spread and one line per build on its captures and writes the
diff, and missing tools are named."""
from xltest import *
import re

LOANS = os.path.join(SRC, "examples", "loans", "loans.c")
SMALL = ["--loans", "3000", "--scenarios", "4"]
OTHER = ["--loans", "2000", "--scenarios", "8"]
BUILD = ["-release", "-lgc", "-lm"]


def profdata_functions(path):
    out = subprocess.run(["llvm-profdata-14", "show", path], stdout=subprocess.PIPE, text=True, check=True).stdout
    return int(re.search(r"Total functions: (\d+)", out).group(1))


with Workdir() as w:
    # train: one input, then another (accumulates), then --fresh
    p = w.run(["pgo", "train"] + BUILD + [LOANS, "--"] + SMALL + ["a.csv"])
    eq(p.returncode, 0, "pgo train")
    prof = os.path.join(w.path, "pgo", "loans.profdata")
    check(os.path.exists(prof), "pgo/loans.profdata written")
    m = re.search(r"pgo: pgo/loans.profdata: 1 training run now, 1 in total .*; (\d+) of (\d+) functions have counts",
                  p.stdout)
    check(m is not None, "train prints what it collected: " + p.stdout.strip())
    if m:
        eq(int(m.group(2)), profdata_functions(prof), "function count as llvm-profdata lists it")
        check(int(m.group(1)) >= 20, "most loans functions ran in training (%s)" % m.group(1))
    p = w.run(["pgo", "train"] + BUILD + [LOANS, "--"] + OTHER + ["b.csv"])
    check("1 training run now, 2 in total" in p.stdout, "a second training accumulates")
    eq(len(glob.glob(os.path.join(w.path, "pgo", "loans.profraw.d", "*.profraw"))), 2, "two raw profiles kept")
    p = w.run(["pgo", "train", "--fresh"] + BUILD + [LOANS, "--"] + SMALL + ["a.csv"])
    check("1 training run now, 1 in total (fresh)" in p.stdout, "--fresh starts over")

    # build --pgo: same results as the plain build
    p = w.run(["build", "--pgo", prof] + BUILD + [LOANS, "-o", "loans-pgo"])
    eq(p.returncode, 0, "build --pgo")
    check("profile" not in p.stderr.replace("PGO", ""), "no profile warning for a fresh profile: " + p.stderr.strip())
    p = w.run(["build"] + BUILD + [LOANS, "-o", "loans-plain"])
    eq(p.returncode, 0, "plain build")
    outs = []
    for exe in ("loans-plain", "loans-pgo"):
        r = subprocess.run([os.path.join(w.path, exe)] + SMALL + [exe + ".csv"], cwd=w.path, stdout=subprocess.PIPE,
                           text=True)
        outs.append((r.returncode, r.stdout.replace(exe + ".csv", "OUT"),
                     open(os.path.join(w.path, exe + ".csv")).read()))
    eq(outs[1], outs[0], "the PGO build computes exactly what the plain build does (stdout and CSV)")
    p = w.run(["run", "--pgo", prof] + BUILD + [LOANS] + SMALL + ["r.csv"])
    eq(p.returncode, 0, "run --pgo")

    # a stale profile: one line with the count
    src = open(LOANS).read()
    changed = src.replace("static int parse_count(", "static int parse_count_guard;\nstatic int parse_count(", 1)
    changed = re.sub(r"(int main\(int argc, char \*\*argv\)\n\{\n)", r"\1    if (argc > 99) return 3;\n", changed, 1)
    check(changed != src, "source modified for the stale-profile check")
    with open(os.path.join(w.path, "loans.c"), "w") as f:
        f.write(changed)
    p = w.run(["build", "--pgo", prof] + BUILD + ["loans.c", "-o", "loans-stale"])
    eq(p.returncode, 0, "build with a stale profile still builds")
    stale = [l for l in p.stderr.splitlines() if "out of date" in l]
    eq(len(stale), 1, "one line about the stale profile")
    check(stale and re.search(r"out of date for 1 of \d+ functions", stale[0]), "it counts the functions affected")
    check("[-Wprofile-instr" not in p.stderr, "clang's own profile warnings are replaced")
    p = w.run(["build", "--pgo", "nope.profdata"] + BUILD + [LOANS])
    eq(p.returncode, 2, "missing profile: usage error")
    check("cannot read the PGO profile 'nope.profdata'" in p.stderr and "pgo train" in p.stderr,
          "message names the profile and how to make one")
    p = w.run(["pgo", "train", "--pgo", prof] + BUILD + [LOANS])
    eq(p.returncode, 2, "train refuses --pgo")

    # exaloop.toml: inputs and the profile
    os.makedirs(os.path.join(w.path, "proj"))
    shutil.copy(LOANS, os.path.join(w.path, "proj", "loans.c"))
    with open(os.path.join(w.path, "proj", "exaloop.toml"), "w") as f:
        f.write('[targets.loans]\nsource = "loans.c"\nbuild_args = ["-release", "-lgc", "-lm"]\n'
                'args = ["--loans", "1000", "--scenarios", "2", "t.csv"]\n'
                '[targets.loans.pgo]\nprofile = "pgo/loans.profdata"\n'
                'inputs = [["--loans", "3000", "--scenarios", "4", "x.csv"], ["--loans", "1500", "--scenarios", "6", "y.csv"]]\n'
                '[targets.short]\nsource = "loans.c"\nbuild_args = ["-release", "-lgc", "-lm"]\npgo = "pgo/loans.profdata"\n')
    proj = Workdir()
    proj.path = os.path.join(w.path, "proj")
    p = proj.run(["pgo", "train", "--target", "loans"])
    eq(p.returncode, 0, "pgo train --target")
    check("2 training runs now, 2 in total" in p.stdout, "both [pgo] inputs trained")
    check(os.path.exists(os.path.join(proj.path, "pgo", "loans.profdata")), "the target's profile written")
    p = proj.run(["--profile", "--target", "loans", "build"])
    eq(p.returncode, 0, "build --target with the target's profile")
    cmd = json.load(open(os.path.join(proj.path, "loans.profile.json")))["command"]
    check("-fprofile-instr-use=" + os.path.join(proj.path, "pgo", "loans.profdata") in cmd,
          "the target build used the profile")
    p = proj.run(["--profile", "--target", "short", "build"])
    eq(p.returncode, 0, "build --target with the short form pgo = \"...\"")
    cmd = json.load(open(os.path.join(proj.path, "loans.profile.json")))["command"]
    check("-fprofile-instr-use=" + os.path.join(proj.path, "pgo", "loans.profdata") in cmd,
          "the short form's profile is used")

    # evaluate: ratio with spread, captures on both sides, the diff written
    p = proj.run(["--no-open", "pgo", "evaluate", "--target", "loans", "--runs", "3", "--captures", "1", "--out", "ev"])
    eq(p.returncode, 0, "pgo evaluate")
    m = re.search(r"PGO build: ([0-9.]+)\u00d7 wall time \(N=3, spread ([0-9.]+)\u2013([0-9.]+)\u00d7", p.stdout)
    check(m is not None, "evaluation prints the ratio: " + p.stdout.strip()[:300])
    if m:
        r, lo, hi = map(float, m.groups())
        check(0 < lo <= r <= hi, "median within its spread (%s <= %s <= %s)" % (lo, r, hi))
    per_build = [l for l in p.stderr.splitlines() if re.search(r"(release|PGO) build: 1 capture in ev/(base|pgo)/", l)]
    eq(len(per_build), 2, "one line per build on its captures")
    for noise in ("application ran", "report: ", "reports contain"):
        check(noise not in p.stderr, "no '%s' line per capture" % noise.strip())
    check("portfolio exposure" not in p.stdout, "the captured runs' output is discarded, as the timing runs' is")
    ev = os.path.join(proj.path, "ev")
    eq(len(glob.glob(os.path.join(ev, "base", "capture-*"))), 1, "one capture of the release build")
    eq(len(glob.glob(os.path.join(ev, "pgo", "capture-*"))), 1, "one capture of the PGO build")
    txt = open(os.path.join(ev, "diff.txt")).read() if os.path.exists(os.path.join(ev, "diff.txt")) else ""
    check("loan_expected_loss" in txt, "diff.txt compares the functions")
    check(os.path.exists(os.path.join(ev, "diff.html")), "diff.html written")
    p = w.run(["profile", "diff", os.path.join(ev, "base"), os.path.join(ev, "pgo"), "--json"])
    doc = json.loads(p.stdout) if p.returncode == 0 else {}
    f = [x for x in doc.get("functions", []) if x["name"] == "loan_expected_loss"]
    eq(f and f[0]["calls"]["change"], 0, "same calls in both builds (same input)")

    # missing tools: one error naming what to install; doctor notes it
    bindir = os.path.join(w.path, "bin")
    os.makedirs(bindir)
    for tool in ("clang-14", "clang++-14"):
        os.symlink(shutil.which(tool), os.path.join(bindir, tool))
    p = w.run(["pgo", "train"] + BUILD + [LOANS], env={"PATH": bindir})
    eq(p.returncode, 125, "no llvm-profdata: build error code")
    check("llvm-profdata" in p.stderr and "apt-get install llvm-14" in p.stderr, "names the tool and the package")
    p = w.run(["doctor"], env={"PATH": bindir})
    check(any(l.startswith("note") and "llvm-profdata" in l for l in p.stdout.splitlines()), "doctor notes it")
done()
