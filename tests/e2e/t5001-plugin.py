"""plugin add/list/remove with a valid, an invalid and a mismatched SDK; a registered SDK takes precedence."""
from xltest import *

with Workdir() as w:
    env = {"XDG_CONFIG_HOME": os.path.join(w.path, "config")}
    built_in = os.path.realpath(os.path.join(os.path.dirname(EXALOOP), "..", "lib", "exaloop", "profiling"))
    p = w.run(["plugin", "list"], env=env)
    eq(p.returncode, 0, "list with nothing registered")
    check("built in" in p.stdout and built_in in p.stdout, "the built-in SDK is listed")

    good = os.path.join(w.path, "sdk-good")
    shutil.copytree(built_in, good)
    p = w.run(["plugin", "add", "profiling", "--path", good], env=env)
    eq(p.returncode, 0, "add a valid SDK")
    cfg = os.path.join(w.path, "config", "exaloop", "config.toml")
    check(os.path.exists(cfg) and good in open(cfg).read(), "registered in $XDG_CONFIG_HOME/exaloop/config.toml")
    p = w.run(["plugin", "list"], env=env)
    check("registered, in use" in p.stdout and good in p.stdout, "list shows the registered SDK in use")
    p = w.run(["doctor"], env=env)
    check("(registered)" in p.stdout and good in p.stdout, "doctor uses the registered SDK")
    p = w.run(["--profile", "--no-open", "run", prog("s-fib.c"), "5"], env=env)
    eq(p.returncode, 0, "run with the registered SDK")

    # invalid SDKs are refused and leave the registration alone
    bad = os.path.join(w.path, "sdk-bad")
    shutil.copytree(built_in, bad)
    os.remove(os.path.join(bad, "libexaloop_rt.a"))
    p = w.run(["plugin", "add", "profiling", "--path", bad], env=env)
    eq(p.returncode, 1, "an SDK without its runtime library is refused")
    check("runtime library" in p.stderr, "the message names what is missing")
    p = w.run(["plugin", "add", "profiling", "--path", os.path.join(w.path, "nowhere")], env=env)
    eq(p.returncode, 1, "a missing directory is refused")
    mism = os.path.join(w.path, "sdk-mismatch")
    shutil.copytree(built_in, mism)
    m = open(os.path.join(mism, "manifest.toml")).read()
    import re
    m = re.sub(r'compiler_version = "[^"]*"', 'compiler_version = "13.0.1"', m)
    open(os.path.join(mism, "manifest.toml"), "w").write(m)
    p = w.run(["plugin", "add", "profiling", "--path", mism], env=env)
    eq(p.returncode, 1, "a compiler-version mismatch is refused")
    check("built for clang 13.0.1" in p.stderr and "installed clang is 14" in p.stderr,
          "the message says which versions met")
    check(good in open(cfg).read(), "the earlier registration is kept")
    p = w.run(["plugin", "add", "tracing", "--path", good], env=env)
    eq(p.returncode, 2, "unknown plugin name: usage error")

    # a registered SDK that breaks later is reported by run
    os.remove(os.path.join(good, "libexaloop_rt.a"))
    p = w.run(["--profile", "--no-open", "run", prog("s-fib.c"), "5"], env=env)
    eq(p.returncode, 125, "run with a broken registered SDK: exit 125")
    check("runtime library" in p.stderr, "run names the problem")
    check("registered in %s" % cfg in p.stderr and "exaloop plugin remove profiling" in p.stderr,
          "... where it was registered and how to undo that: %r" % p.stderr.strip())

    p = w.run(["plugin", "remove", "profiling"], env=env)
    eq(p.returncode, 0, "remove")
    p = w.run(["plugin", "list"], env=env)
    check("registered" not in p.stdout, "nothing registered after remove")
    eq(w.run(["plugin", "remove", "profiling"], env=env).returncode, 1, "remove twice: error")
    eq(w.run(["plugin"], env=env).returncode, 2, "plugin without subcommand: usage error")
done()
