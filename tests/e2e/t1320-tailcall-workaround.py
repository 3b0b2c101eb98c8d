"""The ARM64 tail-call workaround of XRay builds (src/driver/tailcall.h, docs/cli.md).

On ARM64 a tracing build turns optional tail calls into calls (-fno-optimize-sibling-calls) and
keeps functions that make musttail calls out of XRay with a warning; memory-only builds are left
alone.  EXALOOP_XRAY_TAILCALL_WORKAROUND=1 applies it here (x86-64) so that all of it is tested;
without the switch the machine's own architecture decides.
"""
import platform

from xltest import *

MT = r'''
#include <stdio.h>
__attribute__((noinline)) static long leaf(long x) { return x * 3 + 1; }
/* a mandatory tail call: XRay would wrap it in a tail-exit sled */
__attribute__((noinline)) long hop(long x) { __attribute__((musttail)) return leaf(x + 1); }
__attribute__((noinline)) long plain(long x) { return leaf(x) + 1; }
int main(int argc, char **argv) {
    (void)argv;
    long s = 0;
    for (int i = 0; i < 1000; i++) s += hop(i + argc) + plain(i);
    printf("s=%ld\n", s);
    return 0;
}
'''

CXX = r'''
#include <cstdio>
namespace risk {
__attribute__((noinline)) long leaf(long x) { return x ^ 5; }
__attribute__((noinline)) long hop(long x) { [[clang::musttail]] return leaf(x + 1); }
}
int main() { long s = 0; for (long i = 0; i < 10; i++) s += risk::hop(i); std::printf("s=%ld\n", s); return 0; }
'''

ON = {"EXALOOP_XRAY_TAILCALL_WORKAROUND": "1"}
OFF = {"EXALOOP_XRAY_TAILCALL_WORKAROUND": "0"}


def warned(stderr, name):
    return [l for l in stderr.splitlines() if "'%s' makes musttail calls" % name in l]


with Workdir() as w:
    src = os.path.join(w.path, "mt.c")
    open(src, "w").write(MT)

    # workaround on: hop is not traced, its call to leaf shows under main; a warning names it
    p = w.run(["--profile", "--no-open", "run", src], env=ON)
    eq((p.returncode, p.stdout), (0, "s=3006000\n"), "workaround: program output and status")
    lines = warned(p.stderr, "hop")
    eq(len(lines), 1, "workaround: one warning for hop")
    check(bool(lines) and lines[0].startswith("exaloop: warning: ") and "mt.c" in lines[0] and
          "excluded from XRay tracing" in lines[0], "workaround: the warning says file, function and what happens")
    eq(warned(p.stderr, "plain") + warned(p.stderr, "main") + warned(p.stderr, "leaf"), [],
       "workaround: no warning for functions without musttail calls")
    s = w.summary()
    eq(s.func("hop"), None, "workaround: hop has no frame")
    eq(s.calls("leaf"), 2000, "workaround: leaf still counted")
    paths = s.paths()
    eq((paths.get(("main", "leaf")), paths.get(("main", "plain", "leaf"))), (1000, 1000),
       "workaround: leaf reached through hop is attributed to main")

    # build: the flags are in the sidecar's command; the attribute list is not left behind
    app = os.path.join(w.path, "app")
    b = w.run(["--profile", "build", src, "-o", app], env=ON)
    eq(b.returncode, 0, "workaround build: exit status")
    cmd = json.load(open(app + ".profile.json"))["command"]
    check("-fno-optimize-sibling-calls" in cmd, "workaround build: optional tail calls off")
    lst = [a for a in cmd.split() if a.startswith("-fxray-attr-list=")]
    eq(len(lst), 1, "workaround build: an XRay attribute list")
    check(bool(lst) and not os.path.exists(lst[0].split("=", 1)[1]), "workaround build: the list file was removed")
    e = subprocess.run([EXALOOP, "--no-open", "profile", "exec", app], cwd=w.path, env=dict(os.environ, CI="1"),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    eq(e.returncode, 0, "workaround build: profile exec")
    eq(w.summary().func("hop"), None, "workaround build: hop not traced under profile exec either")

    # memory-only builds are left alone
    m = w.run(["--profile=memory", "build", src, "-o", app + "-mem"], env=ON)
    eq(m.returncode, 0, "memory build: exit status")
    mcmd = json.load(open(app + "-mem.profile.json"))["command"]
    check("-fno-optimize-sibling-calls" not in mcmd and "-fxray-attr-list" not in mcmd,
          "memory build: no tail-call workaround")
    eq(warned(m.stderr, "hop"), [], "memory build: no musttail warning")

    # turned off: hop is traced like any function
    p = w.run(["--profile", "--no-open", "run", src], env=OFF)
    eq(p.returncode, 0, "workaround off: exit status")
    eq(warned(p.stderr, "hop"), [], "workaround off: no warning")
    eq(w.summary().calls("hop"), 1000, "workaround off: hop traced")

    # this machine's default: on ARM64 only
    p = w.run(["--profile", "build", src, "-o", app + "-default"])
    arm = platform.machine() in ("aarch64", "arm64")
    dcmd = json.load(open(app + "-default.profile.json"))["command"]
    eq("-fno-optimize-sibling-calls" in dcmd, arm, "default on %s: workaround %s" % (platform.machine(), "on" if arm else "off"))

    # C++: the warning shows the demangled name
    cxx = os.path.join(w.path, "mt.cc")
    open(cxx, "w").write(CXX)
    p = w.run(["--profile", "--no-open", "run", cxx], env=ON)
    eq(p.returncode, 0, "C++: exit status")
    eq(len(warned(p.stderr, "risk::hop(long)")), 1, "C++: warning with the demangled name")
    names = [f["name"] for f in w.summary().funcs]
    check("risk::leaf(long)" in names and not any("hop" in n for n in names), "C++: hop excluded, leaf traced (%s)" % names)

    # a source that mentions musttail but does not compile: the compiler's diagnostics, once
    bad = os.path.join(w.path, "bad.c")
    open(bad, "w").write("/* musttail */\nint main(void) { return undeclared_thing; }\n")
    p = w.run(["--profile", "--no-open", "run", bad], env=ON)
    eq(p.returncode, 125, "compile error: exaloop's build exit code")
    eq(p.stderr.count("error: use of undeclared identifier"), 1, "compile error: the diagnostic shown once")
    check("could not list" not in p.stderr, "compile error: no extra warning about musttail")
done()
