"""Helpers for the realworld tests: third-party code bases built and profiled as a user would.

Each t-*.py here is one CTest test (realworld.<name>, label `realworld`).  They build a real
program twice, in parallel: once with exaloop, once with plain clang and LLVM XRay (compiler-rt's
own runtime and trampolines, no exaloop code) as the counts oracle.  Downloads from the npm
registry are cached under ${XDG_CACHE_HOME:-~/.cache}/exaloop-tests, so a re-run fetches nothing.
"""
import array
import collections
import glob
import itertools
import operator
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
from xltest import *  # noqa: E402,F401,F403  (check, eq, done, Workdir, EXALOOP, SRC)
import xltest  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


class Workdir(xltest.Workdir):
    """xltest's private working directory, under its own prefix (kept after a failure), and
    its private object cache for every exaloop this test starts."""

    def __init__(self):
        super().__init__()
        os.rmdir(self.path)
        self.path = tempfile.mkdtemp(prefix="xl-realworld-")
        os.environ["EXALOOP_CACHE_DIR"] = self.cache


XRAY_FLAGS = ["-O3", "-g", "-fxray-instrument", "-fxray-instruction-threshold=1"]


def cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    d = os.path.join(base, "exaloop-tests")
    os.makedirs(d, exist_ok=True)
    return d


def npm_package(spec, prefix):
    """Path of the tarball `npm pack spec` gives, from the cache when an earlier run fetched it.

    prefix is the tarball's name up to the version (e.g. "better-sqlite3-12."): the first fetch
    keeps whatever version the registry resolves spec to, and later runs reuse it."""
    d = os.path.join(cache_dir(), "npm")
    os.makedirs(d, exist_ok=True)
    have = sorted(glob.glob(os.path.join(d, prefix + "*.tgz")))
    if have:
        print("cached: " + have[-1])
        return have[-1]
    tmp = tempfile.mkdtemp(prefix="npm-", dir=d)
    try:
        p = subprocess.run(["npm", "pack", spec, "--pack-destination", tmp, "--silent"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
        got = glob.glob(os.path.join(tmp, prefix + "*.tgz"))
        if p.returncode != 0 or len(got) != 1:
            raise RuntimeError("npm pack %s failed (%d): %s" % (spec, p.returncode, p.stderr.strip()))
        final = os.path.join(d, os.path.basename(got[0]))
        os.replace(got[0], final)   # atomic: a concurrent run sees the whole file or none
        print("fetched: " + final)
        return final
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def extract(tgz, members, dest):
    """Copy the named members of tgz into dest (flat); returns their new paths."""
    out = []
    with tarfile.open(tgz) as t:
        for m in members:
            f = t.extractfile(m)
            if f is None:
                raise RuntimeError("%s: no file %s" % (tgz, m))
            path = os.path.join(dest, os.path.basename(m))
            with open(path, "wb") as o:
                shutil.copyfileobj(f, o)
            out.append(path)
    return out


def build_both(cwd, exaloop_args, clang_cmd):
    """Run `exaloop --profile build ...` and the plain XRay clang build side by side (two
    cores); returns (exaloop's CompletedProcess-like triple, clang's)."""
    env = dict(os.environ, CI="1")
    procs = [subprocess.Popen([xltest.EXALOOP, "--profile", "build"] + exaloop_args, cwd=cwd, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True),
             subprocess.Popen(clang_cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)]
    results = []
    for p in procs:
        out, err = p.communicate(timeout=1200)
        results.append((p.returncode, out, err))
    print("$ exaloop --profile build %s\n-> %d\n%s" % (" ".join(exaloop_args), results[0][0], results[0][2]))
    print("$ %s\n-> %d\n%s" % (" ".join(clang_cmd), results[1][0], results[1][2][-4000:]))
    return results


def run(cmd, cwd, env=None, timeout=600):
    """Run a program; returns CompletedProcess with text output."""
    e = dict(os.environ, CI="1")
    if env:
        e.update(env)
    p = subprocess.run(cmd, cwd=cwd, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=timeout, stdin=subprocess.DEVNULL)
    print("$ %s\n-> %d\n%s" % (" ".join(cmd), p.returncode, p.stderr[-3000:]))
    return p


def capture(cwd, cmd, timeout=900, options=()):
    """`exaloop [options] profile exec cmd...` in cwd; returns (CompletedProcess, capture dir or None)."""
    before = set(glob.glob(os.path.join(cwd, "profiles", "capture-*")))
    p = run([xltest.EXALOOP, "--no-open"] + list(options) + ["profile", "exec"] + cmd, cwd, timeout=timeout)
    new = sorted(set(glob.glob(os.path.join(cwd, "profiles", "capture-*"))) - before)
    return p, (new[-1] if new else None)


def summary(capture_dir):
    p = subprocess.run([xltest.EXALOOP, "profile", "report", capture_dir, "--json"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=600)
    if p.returncode != 0:
        raise RuntimeError("profile report --json failed: " + p.stderr)
    return xltest.Summary(xltest.json.loads(p.stdout))


def calls_by_name(s):
    """{name: calls} of a summary's function table (same-named functions summed)."""
    out = collections.Counter()
    for f in s.funcs:
        out[f["name"]] += f["calls"]
    return out


def xray_log(exe, args, cwd, basic_options=""):
    """Run exe (a plain clang XRay build) under compiler-rt's basic mode; returns
    (CompletedProcess, path of its log).  No exaloop code is in that process.  basic_options:
    more of XRAY_BASIC_OPTIONS (e.g. "thread_buffer_size=1")."""
    d = tempfile.mkdtemp(prefix="xray-", dir=cwd)
    env = xltest.xray_basic_env(d)
    env["XRAY_BASIC_OPTIONS"] = (env["XRAY_BASIC_OPTIONS"] + " " + basic_options).strip()
    p = run([exe] + list(args), cwd, env=env)
    logs = glob.glob(os.path.join(d, "xray-log.*"))
    return p, (logs[0] if len(logs) == 1 else None)


def linkage_names(capture_dir):
    """{xray id: linkage (mangled) name} from a capture's symbols.json."""
    with open(os.path.join(capture_dir, "symbols.json")) as f:
        doc = xltest.json.load(f)
    return {fn["id"]: fn.get("linkage_name") or fn["name"] for fn in doc["functions"]}


def dwarf_own_names(exe):
    """{linkage name: the function's own, unqualified name} from exe's DWARF: the DW_AT_name of each
    DIE that has a DW_AT_linkage_name (or of the declaration it specifies), without its template
    arguments ("parse", "~basic_json",
    "operator[]", "operator()" for a lambda; "operator" for a conversion operator, which clang and
    libstdc++ spell differently).  An oracle for the short names that owes nothing to a demangler."""
    out = subprocess.run(["llvm-dwarfdump-14", "--debug-info", exe], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, timeout=600).stdout
    ops = sorted(["->*", "<=>", "<<=", ">>=", "()", "[]", "->", "<<", ">>", "<=", ">=", "==", "!=", "&&",
                  "||", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", " new[]", " delete[]",
                  " new", " delete"] + list("+-*/%^&|~!=<>,"), key=len, reverse=True)
    names, link, name = {}, None, None
    for line in out.splitlines():
        if "DW_TAG_" in line:
            link = name = None
            continue
        # the name is the DIE's own, or its declaration's (DW_AT_specification: an out-of-line
        # definition, such as a constructor's C2 variant), which llvm-dwarfdump prints in quotes
        m = re.search(r'DW_AT_(linkage_name|name|specification)\t\((?:0x[0-9a-f]+ )?"(.*)"\)$', line)
        if not m:
            continue
        if m.group(1) == "linkage_name":
            link = m.group(2)
        else:
            name = m.group(2)
        if link and name:
            if name.startswith("operator"):
                rest = name[len("operator"):]
                op = next((o for o in ops if rest.startswith(o)), None)
                own = "operator" + op if op else "operator"
            else:
                own = name.split("<")[0]
            names[link] = own
            link = name = None
    return names


def calls_by_linkage(capture_dir, s, aliases):
    """{key: calls} of a summary's function table, keyed by linkage name through aliases
    (see xray_entries), and {key: displayed name}.  Keys, unlike displayed names, do not depend
    on which demangler printed them (exaloop's is libstdc++'s, llvm-xray's is LLVM's)."""
    link = linkage_names(capture_dir)
    counts, shown = collections.Counter(), {}
    for f in s.funcs:
        name = link.get(f["xray_id"], f["name"])
        key = aliases.get(name, name)
        counts[key] += f["calls"]
        shown[key] = f["name"]
    return counts, shown


def xray_entries(exe, log, by_thread=False):
    """Entries per function from a basic-mode log: calls whether or not they returned (frames
    unwound by an exception have an entry and no exit, which `llvm-xray account` does not
    count).  Returns ({key: entries}, {linkage name: key}): a function's key is the first of its
    symbol table names at its address (a C1 and a C2 constructor can share one body).  With
    by_thread, the first is {thread id: {key: entries}}, the threads in the order of their first
    record in the log.

    The log is compiler-rt's xray_records.h layout: a 32-byte file header, then 32-byte records:
    record type (u16), cpu (u8), kind (u8; 0 = entry, 1 = exit, 2 = tail exit), function id
    (int32, little-endian, at byte 4), tsc (u64), tid (u32, at byte 16), pid.  Ids map to
    addresses through `llvm-xray extract`, addresses to names through the executable's symbol
    table (nm)."""
    entries = collections.Counter()   # function id, or (tid, function id) by_thread
    with open(log, "rb") as f:
        f.seek(32)
        while True:
            data = f.read(32 << 20)
            if not data:
                break
            if len(data) % 32:
                raise RuntimeError("%s: a partial 32-byte record" % log)
            words = array.array("i")
            words.frombytes(data)
            if sys.byteorder != "little":
                words.byteswap()
            ids = zip(words[4::8], words[1::8]) if by_thread else words[1::8]
            entries.update(itertools.compress(ids, map(operator.not_, data[3::32])))
    addr_of = {}
    out = subprocess.run(["llvm-xray", "extract", exe], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True, check=True).stdout
    for line in out.splitlines():
        m = re.match(r"^- \{ id: (\d+), address: 0x[0-9A-Fa-f]+, function: 0x([0-9A-Fa-f]+), kind: function-enter,", line)
        if m:
            addr_of[int(m.group(1))] = int(m.group(2), 16)
    names_at = collections.defaultdict(list)
    out = subprocess.run(["nm", "--defined-only", exe], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TtWw":
            names_at[int(parts[0], 16)].append(parts[2])
    key_of, aliases = {}, {}
    for fid, addr in addr_of.items():
        names = sorted(names_at.get(addr, ["#%d" % fid]))
        for n in names:
            aliases[n] = names[0]
        key_of[fid] = names[0]
    if not by_thread:
        counts = collections.Counter()
        for fid, n in entries.items():
            counts[key_of.get(fid, "#%d" % fid)] += n
        return counts, aliases
    threads = {}   # dicts keep the order of first insertion: Counter's keys are in log order
    for (tid, fid), n in entries.items():
        threads.setdefault(tid & 0xffffffff, collections.Counter())[key_of.get(fid, "#%d" % fid)] += n
    return threads, aliases


def compare_top(label, got, oracle, n=30, exclude=(), shown=None):
    """The n most-called functions on either side have the same counts on both (shown: the
    names to print for keys)."""
    shown = shown or {}
    def top(c):
        return [k for k, _ in sorted(((k, v) for k, v in c.items() if k not in exclude),
                                     key=lambda kv: (-kv[1], kv[0]))[:n]]
    names = list(dict.fromkeys(top(oracle) + top(got)))
    diff = [(k, got.get(k, 0), oracle.get(k, 0)) for k in names if got.get(k, 0) != oracle.get(k, 0)]
    for k, g, o in diff[:40]:
        print("  differs: %s: exaloop %d, XRay %d" % (shown.get(k, k)[:160], g, o))
    if len(diff) > 40:
        print("  ... and %d more" % (len(diff) - 40))
    for k in top(oracle)[:8]:
        print("  %10d  %s" % (oracle[k], shown.get(k, k)[:120]))
    eq(len(diff), 0, "%s: counts of the %d most-called functions (%d names) equal XRay basic mode's"
       % (label, n, len(names)))
    check(len(top(oracle)) >= min(n, 10), "%s: the oracle has calls to compare (%d functions)" % (label, len(oracle)))
