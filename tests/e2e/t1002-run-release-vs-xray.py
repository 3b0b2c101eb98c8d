"""Release builds: exaloop's counts equal LLVM XRay basic mode's on the same binary."""
from xltest import *

with Workdir() as w:
    for name, args in (("s-fib.c", ["22"]), ("s-tail.c", []), ("s-mutual.c", []), ("s-fnptr.c", [])):
        exe = os.path.join(w.path, name[:-2])
        p = w.run(["--profile", "build", "-release", prog(name), "-o", exe])
        eq(p.returncode, 0, name + " builds")
        ref = xray_basic_counts(exe, args)
        p = w.run(["--no-open", "profile", "exec", exe] + args)
        eq(p.returncode, 0, name + " runs under profile exec")
        s = w.summary()
        ours = {f["name"]: f["calls"] for f in s.funcs}
        eq(ours, ref, name + ": counts per function equal llvm-xray account's")
done()
