"""The single-command build with several inputs: C and C++ sources together (each compiled by its own
driver, linked by clang++), .o and .a inputs, the executable named after the source that defines
main, parallel compiles into the object cache (reused next build; an edited source or header
recompiles only its users), concurrent builds sharing the cache, and the rule for link options after
the sources (a hint under `run`)."""
from xltest import *
import re
import threading

FILES = {
    "cpart.c": "#include \"shared.h\"\nint c_add(int a, int b) { return a + b + BIAS; }\n",
    "util.c": "int util_twice(int x) { return 2 * x; }\n",
    "shared.h": "#define BIAS 0\n",
    "main.cc": r'''#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
extern "C" int c_add(int, int);
extern "C" int util_twice(int);
// Calls: c_add N, util_twice N (N = argv[1]); prints the sum, its own name and its arguments.
int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 5;
  std::vector<int> v;
  for (int i = 0; i < n; i++) v.push_back(c_add(i, util_twice(i)));
  long s = 0;
  for (int x : v) s += x;
  const char *base = std::strrchr(argv[0], '/');
  std::printf("sum %ld name %s", s, base ? base + 1 : argv[0]);
  for (int i = 2; i < argc; i++) std::printf(" [%s]", argv[i]);
  std::printf("\n");
  return 0;
}
''',
}


def write(w, name, text):
    with open(os.path.join(w.path, name), "w") as f:
        f.write(text)


def reused(stderr):
    m = re.search(r"(\d+) sources .*?\((\d+) reused from the cache", stderr)
    return (int(m.group(1)), int(m.group(2))) if m else None


with Workdir() as w:
    for name, text in FILES.items():
        write(w, name, text)
    cache = os.path.join(w.path, "cache")
    env = {"EXALOOP_CACHE_DIR": cache}
    srcs = ["cpart.c", "util.c", "main.cc"]

    # C and C++ together; named after the source with main; counts exact.
    r = w.run(["--profile", "build"] + srcs, env=env)
    eq(r.returncode, 0, "build cpart.c util.c main.cc")
    eq(reused(r.stderr), (3, 0), "3 sources compiled, none reused")
    check(os.path.exists(os.path.join(w.path, "main")), "executable named after main.cc (the source with main)")
    r = w.run(["profile", "exec", "./main", "7"])
    eq(r.stdout, "sum %d name main\n" % sum(3 * i for i in range(7)), "output of the mixed build")
    s = w.summary()
    eq(s.calls("c_add"), 7, "c_add calls (C source)")
    eq(s.calls("util_twice"), 7, "util_twice calls (C source)")
    eq(s.calls("main"), 1, "main calls (C++ source)")

    # run: several sources, "compiled N sources", the program named after main's source.
    r = w.run(["--profile", "run"] + srcs + ["4", "x"], env=env)
    eq(r.returncode, 0, "run with three sources")
    eq(reused(r.stderr), (3, 3), "second build: all 3 reused")
    check("compiled 3 sources in" in r.stderr, "says 'compiled 3 sources'")
    eq(r.stdout, "sum %d name main [x]\n" % sum(3 * i for i in range(4)), "run: the program is called main")
    eq(w.summary().doc["run"]["program"], "main.cc", "the report names the source with main")

    # One edited source -> one recompile; an edited header -> its user only; a C-only flag -> C only.
    write(w, "util.c", "int util_twice(int x) { return x + x; }\n")
    r = w.run(["--profile", "build"] + srcs, env=env)
    eq(reused(r.stderr), (3, 2), "edited util.c: 2 reused")
    write(w, "shared.h", "#define BIAS 1\n")
    r = w.run(["--profile", "build"] + srcs, env=env)
    eq(reused(r.stderr), (3, 2), "edited shared.h: 2 reused (cpart.c recompiled)")
    r = w.run(["profile", "exec", "./main", "3"])
    eq(r.stdout, "sum %d name main\n" % sum(3 * i + 1 for i in range(3)), "the header edit is in the program")
    r = w.run(["--profile", "build", "-std=c11"] + srcs, env=env)
    eq(reused(r.stderr), (3, 1), "-std=c11 changes the C compiles only (main.cc reused)")
    r = w.run(["--profile", "build", "-j1", "-release"] + srcs + ["-o", "rel"], env=env)
    eq(r.returncode, 0, "-j1 -release build")
    eq(reused(r.stderr), (3, 0), "-release: new objects")
    r = w.run(["build", "-j0", "main.cc"], env=env)
    eq(r.returncode, 2, "-j0 is a usage error")

    # .o and .a inputs (built without exaloop: not traced, but linked).
    subprocess.run(["clang-14", "-c", "cpart.c", "-o", "cpart.o"], cwd=w.path, check=True)
    subprocess.run(["ar", "rcs", "libutil.a", "cpart.o"], cwd=w.path, check=True)
    r = w.run(["--profile", "build", "main.cc", "util.c", "libutil.a", "-o", "withlib"], env=env)
    eq(r.returncode, 0, "build with an archive input")
    r = w.run(["--profile", "run", "main.cc", "cpart.o", "util.c", "2"], env=env)
    eq(r.returncode, 0, "run with an object input between sources")
    eq(r.stdout, "sum %d name main\n" % sum(3 * i + 1 for i in range(2)), "object input linked")
    s = w.summary()
    eq(s.calls("util_twice"), 2, "util_twice traced (source)")
    eq(s.calls("c_add"), 0, "c_add not traced (object built without XRay)")

    # Link options: before the sources they link; after them, run passes them on with a hint.
    r = w.run(["--profile", "run", "-lm"] + srcs + ["1", "-lm"], env=env)
    eq(r.returncode, 0, "run -lm SOURCES 1 -lm")
    eq(r.stdout, "sum 1 name main [-lm]\n", "the program got the trailing -lm")
    check("hint: '-lm' comes after the sources, so the program gets it" in r.stderr, "hint for -lm after sources")
    r = w.run(["--profile", "run"] + srcs + ["--", "1", "-lm"], env=env)
    check("hint:" not in r.stderr, "no hint after '--'")
    r = w.run(["--profile", "build"] + srcs + ["-lm", "-o", "b"], env=env)
    eq(r.returncode, 0, "build takes options after the sources")

    # Two builds at once share the cache (private temporary names, atomic renames).
    shutil.rmtree(cache)
    results = []

    def one(i):
        results.append(w.run(["--profile", "build", "-j2"] + srcs + ["-o", "par%d" % i], env=env).returncode)

    ts = [threading.Thread(target=one, args=(i,)) for i in range(3)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    eq(sorted(results), [0, 0, 0], "three concurrent builds into one cache")
    for i in range(3):
        r = w.run(["profile", "exec", "./par%d" % i, "3"])
        eq(r.stdout, "sum %d name par%d\n" % (sum(3 * i + 1 for i in range(3)), i), "concurrent build %d runs" % i)
    leftovers = [f for f in os.listdir(cache) if f.endswith(".tmp") or f.endswith(".list")]
    eq(leftovers, [], "no temporary files left in the cache")
done()
