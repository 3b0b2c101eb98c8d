"""Lua 5.4 built by its own makefile through `make CC="exaloop cc"`, and as an exaloop.toml target
with `build` and `binary`: a Lua script's library calls are counted exactly (the counts follow from
the script's loops), and bad build targets are config errors with line numbers."""
from xltest import *

LUA = lua_sources()
# The development makefile is written for gcc and readline: override on the command line
# (shared/realworld/README.md).
MAKE_VARS = ["MYLIBS=-ldl", "CWARNGCC=", "MYCFLAGS=-std=c99 -DLUA_USE_LINUX"]

SCRIPT = """
local t, n = {}, 0
for i = 1, 123 do n = n + #string.format("%d", i) end
for i = 1, 45 do n = n + #string.rep("x", i) end
for i = 1, 67 do n = n + #string.upper("abc") end
for i = 1, 89 do table.insert(t, i) end
print(n, #t)
"""
# 123 numbers 1..123 have 9 + 90*2 + 24*3 = 261 digits; rep gives 1+...+45 = 1035; upper 67*3 = 201
EXPECTED_OUT = "%d\t89\n" % (261 + 1035 + 201)
COUNTS = {"str_format": 123, "str_rep": 45, "str_upper": 67, "tinsert": 89, "luaB_print": 1, "main": 1}


def check_counts(w, what, capture=None):
    s = w.summary(capture)
    for name, n in COUNTS.items():
        eq(s.calls(name), n, "%s: %s calls" % (what, name))
    check(s.warning("untraced_libraries") is None, what + ": no untraced-library warning (static build)")


with Workdir() as w:
    if not os.path.isfile(os.path.join(LUA, "lua.c")):
        check(False, "Lua sources at %s (shared/realworld beside the checkout; XL_REALWORLD_LUA overrides)" % LUA)
        done()
    src = os.path.join(w.path, "lua")
    shutil.copytree(LUA, src)
    with open(os.path.join(src, "count.lua"), "w") as f:
        f.write(SCRIPT)
    env = dict(os.environ, CI="1")

    # 1. The makefile's own build, CC given to make as two words.
    p = subprocess.run(["make", "-j2", "CC=%s cc" % EXALOOP] + MAKE_VARS, cwd=src, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900)
    eq(p.returncode, 0, "make CC='exaloop cc' builds Lua")
    if p.returncode != 0:
        print(p.stdout[-3000:])
    for f in ("lua", "lua.profile.json", "lua.symbols.json"):
        check(os.path.exists(os.path.join(src, f)), "make wrote " + f)
    check(not os.path.exists(os.path.join(src, "liblua.a.profile.json")), "no sidecars for the archive")
    with open(os.path.join(src, "lua.profile.json")) as f:
        pj = json.load(f)
    eq(pj["mode"], "all", "sidecar mode")
    eq(pj["built_by"], "exaloop cc", "sidecar built_by")
    eq(pj["untraced_libraries"], [], "no shared libraries of the project")
    # Every object was compiled with XRay: functions of lstrlib.c and ltablib.c have sleds.
    with open(os.path.join(src, "lua.symbols.json")) as f:
        names = {fn["name"] for fn in json.load(f)["functions"]}
    for n in ("str_format", "tinsert", "luaV_execute", "main"):
        check(n in names, "instrumented function " + n)

    r = w.run(["--no-open", "profile", "exec", os.path.join(src, "lua"), os.path.join(src, "count.lua")])
    eq(r.returncode, 0, "profile exec ./lua count.lua")
    eq(r.stdout, EXPECTED_OUT, "the script's output is unchanged")
    check_counts(w, "make CC=")

    # 2. The same project as an exaloop.toml target that names its build and binary.
    subprocess.run(["make", "clean"], cwd=src, stdout=subprocess.DEVNULL, check=True)
    with open(os.path.join(src, "exaloop.toml"), "w") as f:
        f.write('[targets.lua]\nbuild = ["make", "-j2", %s]\nbinary = "lua"\nargs = ["count.lua"]\n'
                % ", ".join('"%s"' % v for v in MAKE_VARS))
    r = subprocess.run([EXALOOP, "--profile", "--no-open", "--target", "lua", "run"], cwd=src, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=900)
    print(r.stderr[-2000:])
    eq(r.returncode, 0, "--target lua run (build = make, binary = lua)")
    eq(r.stdout.splitlines()[-1:], [EXPECTED_OUT.strip("\n")], "the script ran")
    check("1 instrumented executable" in r.stderr, "the build's instrumented executable is counted")
    caps = sorted(glob.glob(os.path.join(src, "profiles", "capture-*")))
    check(len(caps) == 1, "capture in the target's working directory")
    if caps:
        check_counts(w, "toml target", caps[-1])

    # 3. Bad build targets are config errors naming file, line and column.
    bad = [
        ('[targets.a]\nbuild = "make"\nbinary = "x"\n', "exaloop.toml:2:9: expected a list of strings for 'build'"),
        ('[targets.a]\nbuild = ["make"]\n', "exaloop.toml:2:9: target 'a' has 'build' but no 'binary'"),
        ('[targets.a]\nbinary = "x"\n', "exaloop.toml:2:10: target 'a' has 'binary' but no 'build'"),
        ('[targets.a]\nsource = "a.c"\nbuild = ["make"]\nbinary = "x"\n',
         "exaloop.toml:2:10: target 'a' has both 'source' and 'build'"),
        ('[targets.a]\nbuild = ["make"]\nbinary = "x"\nbuild_args = ["-O2"]\n',
         "exaloop.toml:4:14: 'build_args' applies to 'source' targets"),
        ('[targets.a]\nbuild = []\nbinary = "x"\n', "exaloop.toml:2:9: 'build' of target 'a' is empty"),
        ('[targets.a]\nbuild = ["make"]\nbinary = 3\n', "exaloop.toml:3:10: expected a string for 'binary'"),
        ('[targets.a]\nbuild = ["make"]\nbinray = "x"\n', "exaloop.toml:3:1: unknown key 'binray' in a target"),
    ]
    cfg = os.path.join(w.path, "cfg")
    os.makedirs(cfg)
    for text, msg in bad:
        with open(os.path.join(cfg, "exaloop.toml"), "w") as f:
            f.write(text)
        r = subprocess.run([EXALOOP, "--profile", "--target", "a", "run"], cwd=cfg, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
        eq(r.returncode, 2, "config error exit status for %r" % text)
        check(msg in r.stderr, "message %r in %r" % (msg, r.stderr.strip()))

done()
