#!/usr/bin/env python3
"""Check src/'s layering: no upward dependency and no loop between files.

    ./scripts/check-layers.py [BUILD_DIR]      (default: build; build it first)

Modules and what each may use (DEPENDS below; docs/architecture.md):

    cli -> driver, emit, analyze, symbols, os, common
    driver -> analyze, symbols, os, common
    emit -> analyze, symbols, common
    analyze -> symbols, common
    symbols -> common
    os -> common

The runtime (rt) stands apart and shares only include/exaloop/.  Checked:

- includes: every #include "..." of every file under src/, resolved to the
  file it names.  A file may include its own module's headers or those of
  a module it may use, nothing else; rt and the others never include each
  other.
- calls: for every object file of the build, the functions and data it uses
  (nm: U) resolved to the object that defines them, i.e. to a source file.
  The same rule.
- commands: only src/cli/main.c calls into a cmd_*.c (commands call the
  shared pieces and the libraries, never each other).
- printing: the libraries (every module but cli and rt) never print nor
  exit: no object of theirs uses stdout, stderr, printf, puts, putchar,
  perror, exit or abort.  They return XL_E* codes and hand messages to
  their caller (xl_msgs.h).  The one exception is src/common/xl_assert.c:
  a broken invariant (XL_ASSERT, which every layer but rt may use) prints
  one line and aborts.
- processes: outside the runtime, only src/os/process.c starts programs
  (fork, exec*, popen, system, posix_spawn): it owns the signal, process
  group and stdio policies every child gets.  cmd_cc.c may execv, to become
  the compiler itself.
Neither graph may have a cycle: no header includes itself through others,
and no two source files use each other, directly or through others.
Prints each violation and exits 1, or prints a summary and exits 0.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DEPENDS = {
    "common": set(),
    "os": {"common"},
    "symbols": {"common"},
    "analyze": {"symbols", "common"},
    "emit": {"analyze", "symbols", "common"},
    "driver": {"analyze", "symbols", "os", "common"},
    "cli": {"driver", "emit", "analyze", "symbols", "os", "common"},
}
build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build"))
problems = []


def module(path):
    rel = os.path.relpath(path, ROOT).split(os.sep)
    if rel[0] == "include":
        return "format"
    return rel[1] if rel[0] == "src" else None


files = []
for d, _, names in os.walk(os.path.join(ROOT, "src")):
    files += [os.path.join(d, n) for n in names if n.endswith((".c", ".h"))]
by_name = {}
for f in files + [os.path.join(ROOT, "include", "exaloop", "xl_capture.h")]:
    by_name.setdefault(os.path.basename(f), []).append(f)


def allowed(a, b):
    """May module a depend on module b?"""
    if b == "format" or a == b:
        return True
    return b in DEPENDS.get(a, set())


def relp(path):
    return os.path.relpath(path, ROOT)

inc_edges, edges = {}, {}
inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
for f in files:
    for name in inc.findall(open(f, encoding="utf-8", errors="replace").read()):
        base = os.path.basename(name)
        cands = [c for c in by_name.get(base, []) if c.endswith(name)]
        local = [c for c in cands if os.path.dirname(c) == os.path.dirname(f)]
        target = (local or cands or [None])[0]
        if target is None:
            continue  # generated or system header
        a, b = module(f), module(target)
        if not allowed(a, b):
            problems.append("include goes up: %s includes %s (%s may use %s)" % (
                os.path.relpath(f, ROOT), os.path.relpath(target, ROOT), a, ", ".join(sorted(DEPENDS.get(a, ()))) or "nothing"))
        inc_edges.setdefault(relp(f), set()).add(relp(target))

# calls, from the objects of the build
objs = []
for d, _, names in os.walk(os.path.join(build, "src")):
    objs += [os.path.join(d, n) for n in names if n.endswith(".c.o")]
if not objs:
    problems.append("no object files under %s/src: build first" % build)
defined, used = {}, {}
src_of = {}
for o in objs:
    # build/src/<mod>/CMakeFiles/<target>.dir/<file>.c.o -> src/<mod>/<file>.c
    rel = os.path.relpath(o, build).split(os.sep)
    src = os.path.join(ROOT, "src", rel[1], rel[-1][:-2])
    if not os.path.exists(src):
        continue
    src_of[o] = src
    out = subprocess.run(["nm", o], stdout=subprocess.PIPE, text=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBR":
            defined.setdefault(parts[2], src)
        elif len(parts) == 2 and parts[0] == "U":
            used.setdefault(src, set()).add(parts[1])
SPAWN = {"fork", "vfork", "execv", "execve", "execvp", "execvpe", "execl", "execle", "execlp", "popen", "system",
         "posix_spawn", "posix_spawnp", "clone", "clone3"}
SPAWN_OK = {"src/os/process.c": SPAWN, "src/cli/cmd_cc.c": {"execv"}}
PRINT = {"stdout", "stderr", "printf", "puts", "putchar", "perror", "exit", "abort", "__printf_chk"}
# XL_ASSERT's failure path (xl_assert.h): the only library code that prints or aborts.
PRINT_OK = {"src/common/xl_assert.c": {"stdout", "stderr", "abort"}}
COMMANDS_CALLED_BY = "src/cli/main.c"
for src, syms in used.items():
    if module(src) != "rt":
        for s in sorted(syms & (SPAWN - SPAWN_OK.get(relp(src), set()))):
            problems.append("%s starts a program with %s: use process.h (src/os/process.c)" % (relp(src), s))
    if module(src) not in ("cli", "rt"):
        for s in sorted(syms & (PRINT - PRINT_OK.get(relp(src), set()))):
            problems.append("%s uses %s: a library never prints nor exits (return an XL_E* code, hand "
                            "messages to the caller: xl_msgs.h)" % (relp(src), s))
    for s in syms:
        d = defined.get(s)
        if d is None or d == src:
            continue
        a, b = module(src), module(d)
        if not allowed(a, b):
            problems.append("call goes up: %s uses %s of %s" % (os.path.relpath(src, ROOT), s, os.path.relpath(d, ROOT)))
        if os.path.basename(d).startswith("cmd_") and relp(src) != COMMANDS_CALLED_BY:
            problems.append("%s calls %s of %s: only %s calls into the commands" % (relp(src), s, relp(d),
                                                                                  COMMANDS_CALLED_BY))
        edges.setdefault(relp(src), set()).add(relp(d))

# cycles (Tarjan's strongly connected components)
def cycles(graph):
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in graph.get(v, ()):
                found.append(sorted(comp))

    for v in list(graph):
        if v not in index:
            strong(v)
    return found


sys.setrecursionlimit(10000)
for comp in cycles(inc_edges):
    problems.append("headers include each other in a loop: " + " <-> ".join(comp))
for comp in cycles(edges):
    problems.append("source files use each other in a loop: " + " <-> ".join(comp))

for p in problems:
    print(p)
if problems:
    sys.exit(1)
print("layers ok: %d files (%d includes), %d objects (%d uses between source files): "
      "no upward dependency, no loop" % (len(files), sum(len(v) for v in inc_edges.values()), len(src_of),
                                        sum(len(v) for v in edges.values())))
