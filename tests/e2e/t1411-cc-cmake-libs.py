"""A CMake project with a static library, a shared library and an executable
(tests/projects/cmake-libs), built through the compiler wrappers four ways: as
CMAKE_C_COMPILER_LAUNCHER/CMAKE_C_LINKER_LAUNCHER, with CC=exaloop-cc, with
`exaloop --profile build -- CMD` and with `exaloop --profile run -- CMD :: PROG`.
The executable's functions (its own and the static library's) are counted exactly; the
shared library's are reported as not traced."""
from xltest import *

PROJECT = os.path.join(SRC, "tests", "projects", "cmake-libs")
BIN = os.path.dirname(EXALOOP)
COUNTS = {"main": 1, "round_": 7, "step_sum": 7, "step_square": 28}
TOTAL = sum(sum(k * k for k in range(1, i + 1)) + sum(k ** 3 for k in range(i)) for i in range(1, 8))


def sh(args, cwd, env=None):
    p = subprocess.run(args, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=600)
    if p.returncode != 0:
        print(p.stdout[-3000:])
    return p.returncode


def check_capture(w, capture, what):
    s = w.summary(capture)
    for name, n in COUNTS.items():
        eq(s.calls(name), n, "%s: %s calls" % (what, name))
    for name in ("shape_cube", "shape_volume"):
        eq(s.calls(name), 0, "%s: %s (shared library) not traced" % (what, name))
    wn = s.warning("untraced_libraries")
    check(wn is not None and "libshapes.so" in wn["message"] and "not traced" in wn["message"],
          "%s: warning names the untraced shared library: %r" % (what, wn and wn["message"]))
    check(wn is not None and "libsteps" not in wn["message"], what + ": the static library is not in the warning")


def exec_app(w, app, what):
    before = set(w.captures())
    r = w.run(["profile", "exec", app])
    eq(r.returncode, 0, what + ": profile exec")
    eq(r.stdout, "total %d\n" % TOTAL, what + ": output")
    check(r.stderr.count("shared library of the project is not traced") == 1,
          what + ": the warning is printed once")
    new = sorted(set(w.captures()) - before)
    if new:
        check_capture(w, new[-1], what)


with Workdir() as w:
    env = dict(os.environ, CI="1")
    # 1. Launcher variables: CMake calls `exaloop cc /usr/bin/clang-14 ARGS...` for compiles and links.
    b1 = os.path.join(w.path, "b1")
    eq(sh(["cmake", "-S", PROJECT, "-B", b1, "-DCMAKE_C_COMPILER=clang-14",
           "-DCMAKE_C_COMPILER_LAUNCHER=%s;cc" % EXALOOP, "-DCMAKE_C_LINKER_LAUNCHER=%s;cc" % EXALOOP], w.path, env),
       0, "configure with launchers")
    eq(sh(["cmake", "--build", b1, "-j2"], w.path, env), 0, "build with launchers")
    for f in ("app.profile.json", "app.symbols.json"):
        check(os.path.exists(os.path.join(b1, f)), "launcher build wrote " + f)
    check(not os.path.exists(os.path.join(b1, "libshapes.so.profile.json")), "no sidecars for the shared library")
    exec_app(w, os.path.join(b1, "app"), "launcher")

    # 2. CC= names the wrapper link; CMake's compiler checks go through it too.
    b2 = os.path.join(w.path, "b2")
    env2 = dict(env, CC=os.path.join(BIN, "exaloop-cc"))
    eq(sh(["cmake", "-S", PROJECT, "-B", b2], w.path, env2), 0, "configure with CC=exaloop-cc")
    eq(sh(["cmake", "--build", b2, "-j2"], w.path, env2), 0, "build with CC=exaloop-cc")
    check(not glob.glob(os.path.join(b2, "CMakeFiles", "**", "*.profile.json"), recursive=True),
          "CMake's own probes got no sidecars")
    exec_app(w, os.path.join(b2, "app"), "CC=")

    # 3. exaloop runs the whole build and lists what it linked.
    cmd = "cmake -S %s -B b3 && cmake --build b3" % PROJECT
    r = w.run(["--profile", "build", "--", "sh", "-c", cmd])
    eq(r.returncode, 0, "build -- sh -c 'cmake ...'")
    check("1 instrumented executable" in r.stderr and "  b3/app\n" in r.stderr, "lists the executable")
    check("  b3/libshapes.so\n" in r.stderr and "not traced" in r.stderr, "lists the shared library as not traced")
    check("exaloop profile exec b3/app" in r.stderr, "says what to run next")
    exec_app(w, os.path.join(w.path, "b3", "app"), "build --")

    # 4. Build and run in one go.
    before = set(w.captures())
    cmd = "cmake -S %s -B b4 >/dev/null && cmake --build b4 >/dev/null" % PROJECT
    r = w.run(["--profile", "run", "--", "sh", "-c", cmd, "::", "b4/app"])
    eq(r.returncode, 0, "run -- sh -c 'cmake ...' :: b4/app")
    eq(r.stdout, "total %d\n" % TOTAL, "run --: the program's output")
    new = sorted(set(w.captures()) - before)
    eq(len(new), 1, "run --: one capture")
    if new:
        check_capture(w, new[-1], "run --")

    # 5. A failing build stops before running anything; a missing '::' is a usage error.
    r = w.run(["--profile", "run", "--", "sh", "-c", "exit 3", "::", "b4/app"])
    eq(r.returncode, 125, "failed build: exit 125")
    check("the build command 'sh' failed (exit status 3)" in r.stderr, "failed build: message")
    r = w.run(["--profile", "run", "--", "make"])
    eq(r.returncode, 2, "run -- without '::': usage error")
    check("end it with ':: ./app [args...]'" in r.stderr, "run -- without '::': message")
    r = w.run(["build", "--", "make"])
    eq(r.returncode, 2, "build -- without --profile: usage error")
done()
