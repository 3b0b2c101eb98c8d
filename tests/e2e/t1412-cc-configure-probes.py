"""An autotools-style probe sequence (cc -E, conftest compile and link, -M dependency output,
stdin sources, response files, --version, links with -x LANG in force) gives the same results through `exaloop cc` and
`exaloop c++` as through clang-14 and clang++-14 directly; probes get no sidecars, while the
wrapper's objects carry XRay sleds."""
from xltest import *

PROBES = r'''
set -u
out=results.txt
: > $out
rec() { echo "== $1 rc=$2" >> $out; }
cat > conftest.c <<'EOF'
#include <stdio.h>
#include <math.h>
#ifdef __clang__
int have_clang = 1;
#endif
int main(void) { printf("%.3f\n", sqrt(2.0)); return 0; }
EOF
cat > bad.c <<'EOF'
int main(void) { return undeclared_thing; }
EOF
cat > undef.c <<'EOF'
int nosuch_function_xyz(void);
int main(void) { return nosuch_function_xyz(); }
EOF
$CC -dM -E - < /dev/null | sort > macros.txt; rec "predefined macros" $?; cat macros.txt >> $out
$CC -E conftest.c > pp.txt; rec "-E" $?; grep -v '^#' pp.txt | grep -c . >> $out
echo 'int x = __STDC_VERSION__;' | $CC -E -x c - | grep -v '^#' >> $out; rec "-E stdin" $?
$CC -c conftest.c; rec "-c" $?
$CC -c bad.c 2> bad.err; rec "-c error" $?; cat bad.err >> $out
$CC -o conftest conftest.c -lm; rec "link -lm" $?; ./conftest >> $out; rec "run conftest" $?
ls conftest.profile.json conftest.symbols.json >> $out 2>&1; rec "no sidecars" $?
$CC -o conftest undef.c 2>/dev/null; rec "link undefined" $?
$CC -o /dev/null conftest.c -lm; rec "link to /dev/null" $?
rm -f a.out; $CC conftest.c -lm; rec "a.out" $?; ./a.out >> $out
$CC -M conftest.c > m.txt; rec "-M" $?; cat m.txt >> $out
$CC -MM conftest.c >> $out; rec "-MM" $?
$CC -c -MD -MF dep.d -MT dep.o conftest.c -o dep.o; rec "-MD -MF" $?; cat dep.d >> $out
$CC -c -MMD -MP conftest.c -o mmd.o; rec "-MMD -MP" $?; cat mmd.d >> $out
echo '-c conftest.c -o rsp.o' > args.rsp; $CC @args.rsp; rec "@response" $?
echo 'int f(void) { return 1; }' | $CC -x c -c - -o stdin.o; rec "-x c stdin" $?
$CC -dumpversion >> $out; rec "-dumpversion" $?
$CC --version | head -1 >> $out; rec "--version" $?
$CC -print-file-name=libc.so >> $out; rec "-print-file-name" $?
$CC -fsyntax-only conftest.c; rec "-fsyntax-only" $?
$CC -S conftest.c -o - | grep -c 'main:' >> $out; rec "-S" $?
cat > conftest.cc <<'EOF'
#include <vector>
#include <iostream>
int main() { std::vector<int> v{1, 2, 3}; std::cout << v.size() << "\n"; return 0; }
EOF
$CXX -E conftest.cc | grep -c 'namespace std' >> $out; rec "c++ -E" $?
$CXX -o conftestxx conftest.cc; rec "c++ link" $?; ./conftestxx >> $out
# LevelDB's build_detect_platform: a program on stdin, linked with -x still in force
printf 'int main() { return 0; }\n' | $CXX -x c++ - -o stdin-probe; rec "-x c++ stdin link" $?; ./stdin-probe; rec "run stdin-probe" $?
ls stdin-probe.profile.json stdin-probe.symbols.json >> $out 2>&1; rec "stdin probe: no sidecars" $?
echo 'int main(void) { return 0; }' > xlang.txt
$CC -x c xlang.txt -o xlang; rec "-x c link" $?; ./xlang; rec "run xlang" $?
'''


def probe(w, name, cc, cxx):
    d = os.path.join(w.path, "probe")   # the same directory each time: paths in -M output match
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    env = dict(os.environ, CC=cc, CXX=cxx, LC_ALL="C")
    p = subprocess.run(["sh", "-c", PROBES], cwd=d, env=env, timeout=600)
    eq(p.returncode, 0, name + ": probe script ran")
    with open(os.path.join(d, "results.txt")) as f:
        res = f.read()
    objs = {}
    for o in ("conftest.o", "rsp.o", "stdin.o", "dep.o"):
        sec = subprocess.run(["readelf", "-S", os.path.join(d, o)], stdout=subprocess.PIPE, text=True).stdout
        objs[o] = "xray_instr_map" in sec
    return res, objs


with Workdir() as w:
    plain, plain_objs = probe(w, "clang-14", "clang-14", "clang++-14")
    wrapped, wrapped_objs = probe(w, "exaloop cc", EXALOOP + " cc", EXALOOP + " c++")
    # the results are meaningful: the probes found what clang finds
    check("== link -lm rc=0\n1.414\n" in plain, "plain: conftest linked and ran")
    check("== link undefined rc=1" in plain, "plain: an undefined function fails to link")
    check("== -c error rc=1" in plain and "undeclared_thing" in plain, "plain: a compile error is reported")
    check("dep.o: conftest.c" in plain, "plain: -MD -MF -MT wrote the dependency file")
    pl, wr = plain.splitlines(), wrapped.splitlines()
    for i in range(max(len(pl), len(wr))):
        a = pl[i] if i < len(pl) else None
        b = wr[i] if i < len(wr) else None
        if a != b:
            print("first difference at line %d:\n  clang-14:   %r\n  exaloop cc: %r" % (i + 1, a, b))
            break
    check(plain == wrapped, "identical probe results through the wrapper (%d lines)" % len(pl))
    for o, has in plain_objs.items():
        eq(has, False, "clang-14: %s has no XRay sleds" % o)
    for o, has in wrapped_objs.items():
        eq(has, True, "exaloop cc: %s has XRay sleds" % o)
    # A memory-only wrapper adds no XRay flags at all.
    d = os.path.join(w.path, "mem")
    os.makedirs(d)
    with open(os.path.join(d, "a.c"), "w") as f:
        f.write("int f(void) { return 1; }\n")
    p = subprocess.run([EXALOOP, "cc", "-c", "a.c"], cwd=d, env=dict(os.environ, EXALOOP_PROFILE="memory"))
    eq(p.returncode, 0, "EXALOOP_PROFILE=memory compile")
    sec = subprocess.run(["readelf", "-S", os.path.join(d, "a.o")], stdout=subprocess.PIPE, text=True).stdout
    check("xray_instr_map" not in sec, "memory mode: no XRay sleds")
    p = subprocess.run([EXALOOP, "cc", "--profile=xray", "-c", "a.c", "-o", "b.o"], cwd=d,
                       env=dict(os.environ, EXALOOP_PROFILE="memory"))
    sec = subprocess.run(["readelf", "-S", os.path.join(d, "b.o")], stdout=subprocess.PIPE, text=True).stdout
    check(p.returncode == 0 and "xray_instr_map" in sec, "--profile=xray beats EXALOOP_PROFILE")
    p = subprocess.run([EXALOOP, "cc", "-c", "a.c"], cwd=d, env=dict(os.environ, EXALOOP_PROFILE="fast"),
                       stderr=subprocess.PIPE, text=True)
    eq(p.returncode, 2, "a bad EXALOOP_PROFILE is a usage error")
    check("invalid EXALOOP_PROFILE='fast'" in p.stderr, "bad mode message: " + p.stderr.strip())
    p = subprocess.run([EXALOOP, "cc", "--profile=fast", "-c", "a.c"], cwd=d, stderr=subprocess.PIPE, text=True)
    eq((p.returncode, p.stderr.strip()), (2, "exaloop: error: exaloop cc: invalid profile mode 'fast' (use all, memory or xray)"),
       "a bad --profile=MODE: one line, named as the wrapper's")
    # CC=exaloop-cc together with the launcher variables: wrapped once
    p = subprocess.run([EXALOOP, "cc", os.path.join(os.path.dirname(EXALOOP), "exaloop-cc"), "-c", "a.c", "-o",
                        "twice.o"], cwd=d, stderr=subprocess.PIPE, text=True)
    eq((p.returncode, p.stderr), (0, ""), "a wrapper given as the compiler to wrap is skipped")
    p = subprocess.run([EXALOOP, "cc", "gcc", "-c", "a.c"], cwd=d, stderr=subprocess.PIPE, text=True)
    eq(p.returncode, 125, "launcher form with gcc is refused")
    check("'gcc' is not clang" in p.stderr, "gcc refused: " + p.stderr.strip())
done()
