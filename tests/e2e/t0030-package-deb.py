"""The Debian package (cmake/XlPackage.cmake): a packager's Release build of this checkout, `cpack -G DEB`,
then the package as dpkg sees it. Its name carries the project's version and the machine's architecture;
its files are exactly what `cmake --install` lays out under /usr; its Depends name the package of every
library the CLI loads (from the binary's own NEEDED entries, resolved with dpkg -S) and of every tool
doctor finds (clang, the XRay runtime, llvm-profdata). Unpacked into a scratch root with `dpkg -x`, the
CLI finds the packaged SDK, passes doctor --profiling and profiles s-fib.c with exact counts."""
from xltest import *
import re


def out(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    if p.returncode != 0:
        print("$ %s\n-> %d\n%s%s" % (" ".join(cmd), p.returncode, p.stdout[-3000:], p.stderr[-3000:]))
    return p


def tree(root):
    """{relative path: 'dir' | 'file' | '-> target'} of everything below root."""
    got = {}
    for d, dirs, files in os.walk(root):
        for n in dirs + files:
            path = os.path.join(d, n)
            rel = os.path.relpath(path, root)
            got[rel] = "-> " + os.readlink(path) if os.path.islink(path) else "dir" if os.path.isdir(path) else "file"
    return got


def owner(path):
    """The Debian package that ships path (usrmerge: /lib and /usr/lib are the same directory)."""
    alt = path[4:] if path.startswith("/usr/") else "/usr" + path
    for p in (path, alt):
        r = subprocess.run(["dpkg", "-S", p], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        if r.returncode == 0:
            return r.stdout.split(":")[0]
    return None


def depends_names(field):
    """'a (>= 1), b | c' -> {'a', 'b', 'c'}"""
    return {re.sub(r"\s*\(.*\)", "", alt).strip().split(":")[0] for alt in re.split(r"[,|]", field) if alt.strip()}


version = re.search(r"project\(exaloop VERSION ([0-9.]+)", open(os.path.join(SRC, "CMakeLists.txt")).read()).group(1)
arch = out(["dpkg", "--print-architecture"]).stdout.strip()

with Workdir() as w:
    build = os.path.join(w.path, "build")
    # The packager's commands (README, "Install the package").
    p = out(["cmake", "-S", SRC, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_INSTALL_PREFIX=/usr",
             "-DEXALOOP_BUILD_TESTS=OFF"])
    eq(p.returncode, 0, "configure a Release build")
    p = out(["cmake", "--build", build, "-j%d" % (os.cpu_count() or 2)])
    eq(p.returncode, 0, "Release build")
    p = out(["cpack", "-G", "DEB"], cwd=build)
    eq(p.returncode, 0, "cpack -G DEB")
    deb = os.path.join(build, "exaloop_%s_%s.deb" % (version, arch))
    check(os.path.exists(deb), "the package is %s: %s" % (os.path.basename(deb), os.listdir(build)))
    if not os.path.exists(deb):
        done()

    # The control fields.
    fields = {}
    for name in ("Package", "Version", "Architecture", "Section", "Maintainer", "Depends", "Description"):
        fields[name] = out(["dpkg-deb", "-f", deb, name]).stdout.strip()
    print(out(["dpkg-deb", "-I", deb]).stdout)
    eq(fields["Package"], "exaloop", "Package")
    eq(fields["Version"], version, "Version from project()")
    eq(fields["Architecture"], arch, "Architecture")
    eq(fields["Section"], "devel", "Section")
    check(re.fullmatch(r".+ <[^ @]+@[^ ]+>", fields["Maintainer"]) is not None, "Maintainer is 'name <email>'")
    check(fields["Description"].startswith("native profiler") and "\n " in fields["Description"],
          "Description has a summary and a long text")
    deps = depends_names(fields["Depends"])

    # Its files: exactly what `cmake --install` gives under /usr.
    root = os.path.join(w.path, "root")
    p = out(["dpkg", "-x", deb, root])
    eq(p.returncode, 0, "dpkg -x into a scratch root")
    listing = out(["dpkg-deb", "-c", deb]).stdout
    staged = os.path.join(w.path, "staged")
    p = out(["cmake", "--install", build, "--prefix", "/usr"], env=dict(os.environ, DESTDIR=staged))
    eq(p.returncode, 0, "cmake --install with DESTDIR")
    installed, packaged = tree(staged), tree(root)
    for f in sorted(set(installed) | set(packaged)):
        if installed.get(f) != packaged.get(f):
            print("  %s: installed %s, packaged %s" % (f, installed.get(f), packaged.get(f)))
    check(packaged == installed and len(packaged) >= 10,
          "the package holds what cmake --install installs (%d entries, links included)" % len(packaged))
    libdir = re.search(r"CMAKE_INSTALL_LIBDIR:PATH=(.*)", open(os.path.join(build, "CMakeCache.txt")).read()).group(1)
    sdk = "usr/%s/exaloop/profiling" % libdir
    for f in ("usr/bin/exaloop", "usr/bin/exaloop-cc", "usr/bin/exaloop-c++", sdk + "/libexaloop_rt.a",
              sdk + "/libexaloop_alloc.a", sdk + "/libexaloop_xray.a", sdk + "/manifest.toml"):
        check(re.search(r" \./%s( -> exaloop)?$" % re.escape(f), listing, re.M) is not None, "dpkg-deb -c lists " + f)

    # Depends: the package of each library the CLI loads ...
    exe = os.path.join(root, "usr", "bin", "exaloop")
    dyn = out(["objdump", "-p", exe]).stdout
    check(not re.search(r"^\s*(RPATH|RUNPATH)", dyn, re.M), "no RPATH into the build tree")
    ldd = out(["ldd", exe]).stdout
    needed = re.findall(r"^\s*NEEDED\s+(\S+)", dyn, re.M)
    check(len(needed) >= 5, "the CLI's NEEDED libraries: %s" % needed)
    for soname in needed:
        m = re.search(r"^\s*%s => (\S+)" % re.escape(soname), ldd, re.M)
        pkg = owner(m.group(1)) if m else None
        check(pkg is not None and pkg in deps, "%s (%s) is in Depends" % (soname, pkg))

    # ... and of each tool the unpacked CLI's doctor finds.
    env = dict(os.environ, CI="1", XDG_CONFIG_HOME=os.path.join(w.path, "cfg"), EXALOOP_CACHE_DIR=w.cache)
    run = os.path.join(w.path, "run")
    os.makedirs(run)
    p = out([exe, "doctor", "--profiling"], env=env, cwd=run)
    if p.returncode == 0:
        print(p.stdout)
    eq(p.returncode, 0, "the unpacked exaloop passes doctor --profiling")
    m = re.search(r"^ok\s+sdk\s+.* at (\S+) \(built in\)$", p.stdout, re.M)
    eq(m and m.group(1), os.path.join(root, sdk), "doctor uses the packaged SDK")
    for what in ("compiler", "xray runtime", "llvm-profdata"):
        m = re.search(r"^ok\s+%s\s+.*?(/\S+?)\)?(\s|$)" % what, p.stdout, re.M)
        pkg = owner(m.group(1)) if m else None
        check(pkg is not None and pkg in deps, "%s (%s, from %s) is in Depends" % (what, pkg, m and m.group(1)))

    # A capture with the unpacked CLI alone.
    p = out([exe, "--profile", "--no-open", "run", "-release", prog("s-fib.c"), "20"], env=env, cwd=run)
    eq(p.returncode, 0, "the unpacked exaloop profiles s-fib.c")
    eq(p.stdout, "fib(20) = 6765\n", "the program's output")
    caps = sorted(glob.glob(os.path.join(run, "profiles", "capture-*")))
    eq(len(caps), 1, "one capture")
    if caps:
        check(os.path.exists(os.path.join(caps[0], "index.html")), "its report")
        p = out([exe, "profile", "report", caps[0], "--json"], env=env, cwd=run)
        s = Summary(json.loads(p.stdout)) if p.returncode == 0 else None
        eq(s and s.calls("fib"), 21891, "fib(20): 2*F(21)-1 calls")
        eq(s and s.paths().get(("main", "fib")), 1, "main > fib once")
done()
