"""Code shapes LLVM emits at XRay sleds, captured through both trampoline sets.

tests/progs/s-tailptr.c: indirect tail calls through r11 with 5 and 6 arguments, a tail call through
a table, variadic tail calls (al live, direct and through r11, with a stack argument).
tests/progs/s-returns.c: long double and _Complex long double (x87), __int128 and small structs
(rax:rdx), structs and _Complex double in xmm0:xmm1, a tail call with a stack argument.

Each is built in debug and release, with exaloop's trampolines and with compiler-rt's
(EXALOOP_STOCK_TRAMPOLINES=1). Every captured run must print what the uncaptured run prints, exit
with the same status, and record per function the call counts of the oracle: LLVM XRay's basic mode
on a plain `clang-14 -fxray-instrument` build of the same source (compiler-rt's trampolines and
runtime, nothing of exaloop; checked with nm). The release builds' disassembly must really contain
the shapes (`jmp *%r11` right after a tail sled, ...), and so must a plain clang -O2 build.
"""
from xltest import *

N = "100"
PROGRAMS = ("s-tailptr.c", "s-returns.c")

# function -> shapes its optimised code must have (see shapes() below)
SHAPES = {
    "s-tailptr.c": {
        "compare5": {"tail *%r11"},
        "forward6": {"tail *%r11"},
        "vtail_ptr": {"tail *%r11", "al before tail"},
        "dispatch": {"tail indirect"},
        "vtail": {"tail vsum", "al before tail"},
    },
    "s-returns.c": {
        "ld_scale": {"x87"},
        "cld_turn": {"x87", "x87 pair"},
        "ld_tail": {"tail ld_scale"},
        "i128_mul": {"writes rdx"},
        "u128_mix": {"writes rdx"},
        "pair_make": {"writes rdx"},
        "vec2_make": {"writes xmm1"},
        "cd_make": {"writes xmm1"},
        "quad_make": {"writes xmm1"},
        "mixed_make": {"writes xmm0"},
    },
}


def disassembly(path):
    """{function: [(mnemonic, operands)]} from objdump."""
    p = subprocess.run(["objdump", "-d", "--no-show-raw-insn", path], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True, check=True)
    funcs, cur = {}, None
    for line in p.stdout.splitlines():
        if line.endswith(">:") and " <" in line:
            cur = funcs.setdefault(line.split(" <", 1)[1][:-2], [])
        elif cur is not None and "\t" in line:
            insn = line.split("\t")[-1].split(None, 1)
            if insn:
                cur.append((insn[0], insn[1] if len(insn) > 1 else ""))
    return funcs


def is_sled_start(insns, i):
    """An unpatched XRay entry/tail sled: a 2-byte jump over 9 bytes of nop."""
    return (insns[i][0] == "jmp" and "+0x" in insns[i][1] and i + 1 < len(insns)
            and insns[i + 1][0] == "nopw" and insns[i + 1][1].startswith("0x200("))


def shapes(insns):
    found = set()
    for i in range(1, len(insns) - 2):          # index 0: the entry sled
        if not is_sled_start(insns, i):
            continue
        op, arg = insns[i + 2]
        if op == "jmp" and arg.startswith("*%"):
            found.add("tail indirect")
            found.add("tail " + arg)
        elif op == "jmp" and "<" in arg:
            found.add("tail " + arg.split("<", 1)[1].rstrip(">"))
        if any(o.startswith("mov") and a.endswith(",%al") for o, a in insns[1:i]):
            found.add("al before tail")
    x87 = [o for o, _ in insns if o[0] == "f" and o not in ("fs",)]
    if x87:
        found.add("x87")
    if sum(o.startswith(("fld", "fild")) for o in x87) >= 2 or any(o == "fxch" for o in x87):
        found.add("x87 pair")
    for reg in ("rdx", "xmm0", "xmm1"):
        if any(a.endswith(",%" + reg) for o, a in insns):
            found.add("writes " + reg)
    if any(o in ("mul", "imul") and "," not in a for o, a in insns):    # rdx:rax = rax * operand
        found.add("writes rdx")
    return found


def check_shapes(path, name, what):
    funcs = disassembly(path)
    for fn, want in SHAPES[name].items():
        have = shapes(funcs.get(fn, []))
        check(want <= have, "%s: %s has %s (found %s)" % (what, fn, sorted(want), sorted(have)))


def oracle(src, out, release):
    """Plain clang build with compiler-rt's XRay runtime and trampolines: no exaloop."""
    cc = "clang++-14" if src.endswith(".cc") else "clang-14"
    opt = ["-O3", "-g"] if release else ["-O0", "-g"]
    subprocess.run([cc] + opt + ["-fxray-instrument", "-fxray-instruction-threshold=1", src, "-o", out],
                   check=True)
    syms = subprocess.run(["nm", out], stdout=subprocess.PIPE, text=True, check=True).stdout.split()
    check("__xray_FunctionEntry" in syms and not any(s.startswith("__wrap___xray") for s in syms)
          and not any(s.startswith("rt__") for s in syms),
          os.path.basename(out) + ": oracle uses compiler-rt's trampolines, nothing of exaloop's")
    return out


def run(exe, env=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([exe, N], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=e,
                          timeout=300)


with Workdir() as w:
    for name in PROGRAMS:
        src = prog(name)
        base = os.path.join(w.path, name[:-2])

        # the shapes, at -O2 (plain clang) and -O3 (exaloop's release build, below)
        o2 = base + "-O2.o"
        subprocess.run(["clang-14", "-O2", "-fxray-instrument", "-fxray-instruction-threshold=1", "-c", src,
                        "-o", o2], check=True)
        check_shapes(o2, name, name + " -O2")

        plain = base + "-plain"
        eq(w.run(["build", "-release", src, "-o", plain]).returncode, 0, name + ": plain build")
        want = run(plain)
        eq(want.returncode, 0, name + ": plain build runs")

        for mode in ("release", "debug"):
            release = mode == "release"
            ref_exe = oracle(src, base + "-oracle-" + mode, release)
            eq(run(ref_exe).stdout, want.stdout, "%s %s: oracle build prints what the plain build prints"
               % (name, mode))
            ref = xray_basic_counts(ref_exe, [N])
            for route in ("exaloop", "compiler-rt"):
                what = "%s %s, %s trampolines" % (name, mode, route)
                exe = "%s-%s-%s" % (base, mode, route)
                env = {"EXALOOP_STOCK_TRAMPOLINES": "1"} if route == "compiler-rt" else {}
                eq(w.run(["--profile", "build"] + (["-release"] if release else []) + [src, "-o", exe],
                         env=env).returncode, 0, what + ": build")
                if release:
                    check_shapes(exe, name, what)
                p = run(exe)
                eq((p.returncode, p.stdout), (want.returncode, want.stdout), what + ": uncaptured run")
                p = w.run(["--no-open", "profile", "exec", exe, N])
                eq(p.returncode, want.returncode, what + ": captured exit status")
                eq(p.stdout, want.stdout, what + ": captured output equals the uncaptured one")
                ours = {f["name"]: f["calls"] for f in w.summary().funcs}
                eq(ours, ref, what + ": counts per function equal XRay basic mode's on the plain clang build")
                if route == "exaloop":
                    # another handler (XRay's basic mode) takes the trampolines' full path
                    d = tempfile.mkdtemp(prefix="xl-xray-")
                    p = run(exe, xray_basic_env(d))
                    shutil.rmtree(d, ignore_errors=True)
                    eq((p.returncode, p.stdout), (want.returncode, want.stdout),
                       what + ": under XRay basic mode (full path)")
done()
