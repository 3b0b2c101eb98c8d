"""`cmake --install` gives the same layout: the installed exaloop finds its SDK and captures."""
from xltest import *

with Workdir() as w:
    build = os.path.dirname(os.path.dirname(os.path.realpath(EXALOOP)))
    prefix = os.path.join(w.path, "prefix")
    p = subprocess.run(["cmake", "--install", build, "--prefix", prefix], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    eq(p.returncode, 0, "cmake --install")
    exe = os.path.join(prefix, "bin", "exaloop")
    check(os.path.exists(exe), "installed bin/exaloop")
    env = dict(os.environ, CI="1", XDG_CONFIG_HOME=os.path.join(w.path, "cfg"))
    p = subprocess.run([exe, "doctor", "--profiling"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       env=env, cwd=w.path)
    print(p.stdout)
    eq(p.returncode, 0, "installed exaloop passes doctor --profiling")
    check(prefix in p.stdout and "built in" in p.stdout, "the installed SDK is the one used")
    p = subprocess.run([exe, "--profile", "--no-open", "run", prog("s-fib.c"), "12"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, env=env, cwd=w.path)
    eq(p.returncode, 0, "installed exaloop runs a capture")
    eq(w.summary().calls("fib"), 465, "fib(12) counted")
done()
