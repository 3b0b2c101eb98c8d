"""Helpers for exaloop's end-to-end tests (Python 3 standard library only).

Each test file is one CTest test (e2e.<file name>).  Tests run the real
build/bin/exaloop on the programs in tests/progs/, whose call counts are
known exactly (tests/progs/README.md), and read captures back through
`exaloop profile report --json`.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

EXALOOP = os.environ.get("EXALOOP", "")
SRC = os.environ.get("XL_SOURCE_DIR", os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
PROGS = os.path.join(SRC, "tests", "progs")

failures = []


def check(cond, what):
    """Record a failed expectation without stopping the test."""
    if cond:
        print("ok   " + what)
    else:
        print("FAIL " + what)
        failures.append(what)


def eq(actual, expected, what):
    check(actual == expected, "%s: %r == %r" % (what, actual, expected))


def done():
    if failures:
        print("%d check(s) failed" % len(failures))
        sys.exit(1)
    print("all checks passed")
    sys.exit(0)


class Workdir:
    """A private working directory (captures land in its profiles/)."""

    def __init__(self):
        self.path = tempfile.mkdtemp(prefix="xl-e2e-")
        # exaloop's object cache (run/build): private to the test, not the user's ~/.cache
        self.cache = tempfile.mkdtemp(prefix="xl-e2e-objects-")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        shutil.rmtree(self.cache, ignore_errors=True)
        if not failures:
            shutil.rmtree(self.path, ignore_errors=True)
        else:
            print("kept work directory: " + self.path)

    def run(self, args, timeout=300, env=None, stdin=None):
        """Run exaloop; returns CompletedProcess with text stdout/stderr."""
        e = dict(os.environ)
        e["CI"] = "1"
        e["EXALOOP_CACHE_DIR"] = self.cache
        if env:
            e.update(env)
        p = subprocess.run([EXALOOP] + args, cwd=self.path, env=e, timeout=timeout,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           stdin=stdin if stdin is not None else subprocess.DEVNULL)
        sys.stdout.write("$ exaloop %s\n-> %d\n%s" % (" ".join(args), p.returncode, p.stderr))
        return p

    def captures(self):
        return sorted(glob.glob(os.path.join(self.path, "profiles", "capture-*")))

    def latest(self):
        c = self.captures()
        return c[-1] if c else None

    def summary(self, capture=None, args=()):
        capture = capture or self.latest()
        p = subprocess.run([EXALOOP, "profile", "report", capture, "--json"] + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=300)
        if p.returncode != 0:
            raise RuntimeError("profile report --json failed: " + p.stderr)
        return Summary(json.loads(p.stdout))


def prog(name):
    return os.path.join(PROGS, name)


def same_name_helpers(dirpath):
    """Write same_a.c and same_b.c into dirpath: two static functions named helper, one per file,
    called 3 times (same_a.c) and 5 times (same_b.c); returns the two file names."""
    open(os.path.join(dirpath, "same_a.c"), "w").write(
        "#define NOINLINE __attribute__((noinline))\nlong other(int n);\n"
        "static NOINLINE long helper(long x) { __asm__ volatile(\"\" : \"+r\"(x)); return x + 1; }\n"
        "int main(void) { long s = 0; for (int i = 0; i < 3; i++) s += helper(i); return (int)(s + other(5)) == 6 + 10 ? 0 : 1; }\n")
    open(os.path.join(dirpath, "same_b.c"), "w").write(
        "#define NOINLINE __attribute__((noinline))\n"
        "static NOINLINE long helper(long x) { __asm__ volatile(\"\" : \"+r\"(x)); return x * 2; }\n"
        "NOINLINE long other(int n) { long s = 0; for (int i = 0; i < n; i++) s += helper(1); return s; }\n")
    return ["same_a.c", "same_b.c"]


def lua_sources():
    """Lua 5.4.7's sources (MIT licence, read-only: copy them before building): shared/realworld
    beside the checkout, or $XL_REALWORLD_LUA."""
    return os.environ.get("XL_REALWORLD_LUA") or os.path.join(SRC, "..", "shared", "realworld", "lua-5.4.7")


class Summary:
    """The JSON summary with helpers to read call paths."""

    def __init__(self, doc):
        self.doc = doc
        self.funcs = doc["functions"]
        self.tree = doc["tree"]

    def func(self, name):
        for f in self.funcs:
            if f["name"] == name:
                return f
        return None

    def calls(self, name):
        f = self.func(name)
        return f["calls"] if f else 0

    def paths(self, thread=None):
        """{('main','fib'): calls} summed over threads (or for one thread)."""
        t = self.tree
        names = [f["name"] for f in self.funcs]
        out = {}
        cache = {}
        for i in range(len(t["parent"])):
            if t["parent"][i] < 0:
                cache[i] = ()
                continue
            if thread is not None and t["thread"][i] != thread:
                continue
            path = cache[t["parent"][i]] + (names[t["func"][i]],)
            cache[i] = path
            out[path] = out.get(path, 0) + t["calls"][i]
        return out

    def node(self, path):
        """The tree node of a call path (('main', 'f')), the first in node order, or None."""
        t, names = self.tree, [f["name"] for f in self.funcs]
        for i in range(len(t["parent"])):
            p, got = i, []
            while t["parent"][p] >= 0:
                got.insert(0, names[t["func"][p]])
                p = t["parent"][p]
            if tuple(got) == path:
                return i
        return None

    def warning(self, kind):
        for w in self.doc["warnings"]:
            if w["kind"] == kind:
                return w
        return None

    def note(self, kind):
        for n in self.doc.get("notes", []):
            if n["kind"] == kind:
                return n
        return None


def line_of(src, marker):
    """The number of the first line of file src that holds marker."""
    for i, text in enumerate(open(src), 1):
        if marker in text:
            return i
    raise RuntimeError(marker)


def line_share(f, line):
    """A line's share (%) of a summary function's instruction samples (functions[].lines)."""
    return 100.0 * sum(l["samples"] for l in f["lines"] if l["line"] == line) / max(f["samples"], 1)


def validate(doc, schema, path="$"):
    """A small JSON Schema subset: type, required, properties, items, enum, maxLength, nullable via
    type lists."""
    errors = []
    t = schema.get("type")
    types = t if isinstance(t, list) else [t] if t else []
    pytypes = {"object": dict, "array": list, "string": str, "integer": int, "number": (int, float),
               "boolean": bool, "null": type(None)}
    if types and not any(isinstance(doc, pytypes[x]) and not (x in ("integer", "number") and isinstance(doc, bool))
                         for x in types):
        return ["%s: expected %s, got %r" % (path, types, type(doc).__name__)]
    if "enum" in schema and doc not in schema["enum"]:
        errors.append("%s: %r not in %r" % (path, doc, schema["enum"]))
    if isinstance(doc, str) and len(doc) > schema.get("maxLength", len(doc)):
        errors.append("%s: %d characters, more than %d" % (path, len(doc), schema["maxLength"]))
    if isinstance(doc, dict):
        for k in schema.get("required", []):
            if k not in doc:
                errors.append("%s: missing %s" % (path, k))
        for k, sub in schema.get("properties", {}).items():
            if k in doc:
                errors += validate(doc[k], sub, path + "." + k)
    if isinstance(doc, list) and "items" in schema:
        for i, x in enumerate(doc[:200]):
            errors += validate(x, schema["items"], "%s[%d]" % (path, i))
    return errors


def xray_basic_env(logdir, max_depth=200000):
    """The environment that runs a plain clang XRay build under compiler-rt's basic mode, its log in
    logdir, every call recorded however short, and as deep as max_depth (the defaults drop calls
    under 5 us and below depth 64)."""
    return {"XRAY_OPTIONS": "patch_premain=true xray_mode=xray-basic verbosity=0 xray_logfile_base=%s/xray-log."
                            % logdir,
            "XRAY_BASIC_OPTIONS": "func_duration_threshold_us=0 max_stack_depth=%d" % max_depth}


def xray_account(exe, log):
    """Completed calls per function name, as `llvm-xray account` reads a basic-mode log (same-named
    functions summed)."""
    out = subprocess.run(["llvm-xray", "account", "-instr_map=" + exe, "-format=csv", "-sort=count",
                          "-sortorder=dsc", log], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                         check=True, timeout=900).stdout
    counts = {}
    for line in out.splitlines()[1:]:
        # funcid,count,min,median,90%ile,99%ile,max,sum,debug,function (names may hold commas)
        m = re.match(r'^\d+,(\d+),.*?,"[^"]*","(.*)"$', line)
        if m:
            counts[m.group(2)] = counts.get(m.group(2), 0) + int(m.group(1))
    return counts


def xray_basic_counts(exe, args=(), max_depth=200000):
    """Call counts of exe per function from LLVM XRay's own basic mode."""
    d = tempfile.mkdtemp(prefix="xl-xray-")
    try:
        env = dict(os.environ)
        env.update(xray_basic_env(d, max_depth))
        subprocess.run([exe] + list(args), env=env, stdout=subprocess.DEVNULL, check=True, timeout=300)
        logs = glob.glob(os.path.join(d, "xray-log.*"))
        return xray_account(exe, logs[0])
    finally:
        shutil.rmtree(d, ignore_errors=True)


# ---------------------------------------------------------------- processes (/proc)

def cmdline(pid):
    """The argument list of a process (bytes), [] when it is gone."""
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return f.read().split(b"\0")
    except OSError:
        return []


def children(pid):
    """The direct children of a process (its main thread's list), [] when it is gone."""
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def descendants(root):
    """Every process below root (children, their children, ...)."""
    kids = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open("/proc/%s/stat" % d) as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            kids.setdefault(ppid, []).append(int(d))
    out, todo = [], [root]
    while todo:
        p = todo.pop()
        for k in kids.get(p, []):
            out.append(k)
            todo.append(k)
    return out


def alive(pid):
    """Is the process there and not a zombie?"""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False

