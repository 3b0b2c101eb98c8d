"""doctor --profiling passes here, and fails with one clear line when the XRay runtime or the SDK is gone."""
from xltest import *
import stat

with Workdir() as w:
    p = w.run(["doctor", "--profiling"])
    print(p.stdout)
    eq(p.returncode, 0, "doctor passes on this machine")
    for what in ("compiler", "xray runtime", "sdk", "/proc", "capture", "memory capture", "browser"):
        check(any(l.split()[1:2] == what.split()[:1] for l in p.stdout.splitlines()), "a line for " + what)
    check("main 1, mid 3, leaf 9" in p.stdout, "the probe's exact counts are checked")

    # A clang whose runtime directory has no XRay archive: the driver is
    # wrapped so that --print-runtime-dir points to an empty directory.
    fake = os.path.join(w.path, "fakebin")
    os.makedirs(fake)
    empty = os.path.join(w.path, "empty-rt")
    os.makedirs(empty)
    real = shutil.which("clang-14") or shutil.which("clang")
    for name in ("clang-14", "clang"):
        path = os.path.join(fake, name)
        with open(path, "w") as f:
            f.write('#!/bin/sh\nfor a in "$@"; do [ "$a" = --print-runtime-dir ] && { echo %s; exit 0; }; done\nexec %s "$@"\n'
                    % (empty, real))
        os.chmod(path, 0o755)
    env = {"PATH": fake + ":" + os.environ["PATH"]}
    p = w.run(["doctor", "--profiling"], env=env)
    print(p.stdout)
    eq(p.returncode, 4, "doctor exits 4 without the XRay runtime")
    fail = [l for l in p.stdout.splitlines() if l.startswith("FAIL") and "xray runtime" in l]
    check(len(fail) == 1 and "libclang-rt-14-dev" in fail[0] and "memory" in fail[0],
          "one FAIL line naming the package and that memory capture still works")
    check(any(l.startswith("ok") and "memory capture" in l for l in p.stdout.splitlines()),
          "memory capture still passes without XRay")
    p = w.run(["--profile", "--no-open", "run", prog("s-fib.c"), "5"], env=env)
    eq(p.returncode, 125, "run --profile without XRay: build failure code")
    check("--profile=memory" in p.stderr, "run says memory capture is still available")
    p = w.run(["--profile=memory", "--no-open", "run", prog("s-fib.c"), "5"], env=env)
    eq(p.returncode, 0, "--profile=memory works without XRay")

    # The SDK made unavailable: a copy of exaloop beside a broken SDK.
    root = os.path.join(w.path, "inst")
    os.makedirs(os.path.join(root, "bin"))
    shutil.copy(EXALOOP, os.path.join(root, "bin", "exaloop"))
    sdk_src = os.path.join(os.path.dirname(EXALOOP), "..", "lib", "exaloop", "profiling")
    sdk = os.path.join(root, "lib", "exaloop", "profiling")
    shutil.copytree(sdk_src, sdk)
    os.remove(os.path.join(sdk, "libexaloop_rt.a"))
    p = subprocess.run([os.path.join(root, "bin", "exaloop"), "doctor"], stdout=subprocess.PIPE, text=True)
    print(p.stdout)
    eq(p.returncode, 4, "doctor exits 4 with a broken SDK")
    check(any(l.startswith("FAIL") and "sdk" in l and "runtime library" in l for l in p.stdout.splitlines()),
          "SDK line says the runtime library is missing")
    eq(w.run(["doctor", "--bogus"]).returncode, 2, "unknown doctor option: exit 2")
done()
