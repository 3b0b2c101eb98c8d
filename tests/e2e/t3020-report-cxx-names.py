"""C++ names in reports (docs/cli.md, Function names): tests/progs/s-cxx.cc, whose functions and
their demangled names are listed in its header.  The JSON summary keeps every name in full and adds
short_name, each written out below by the rules (no return type or parameters, template arguments
collapsed, and the two instantiations of scale told apart by their template argument); the text
report's function column holds the short names, --full-names the full ones, --sort name orders by
short name; profile diff pairs by full name and shows short names (--full-names: full), in text and
JSON; the trace exports (folded stacks) keep the full names."""
from xltest import *

SUMMARY_SCHEMA = json.load(open(os.path.join(SRC, "docs", "summary.schema.json")))
DIFF_SCHEMA = json.load(open(os.path.join(SRC, "docs", "diff.schema.json")))

SHORT = {
    "main": "main",
    "bank::Ledger::Ledger(double)": "bank::Ledger::Ledger",
    "bank::Ledger::post(double)": "bank::Ledger::post",
    "double bank::risk::scale<double>(double, double)": "bank::risk::scale<double>",
    "int bank::risk::scale<int>(int, int)": "bank::risk::scale<int>",
    "bank::Ledger::operator+=(double)": "bank::Ledger::operator+=",
    "(anonymous namespace)::report(bank::Ledger const&, int)": "(anonymous namespace)::report",
    "bank::Ledger::balance() const": "bank::Ledger::balance",
    "bank::Ledger::posts() const": "bank::Ledger::posts",   # debug build only
}

# "%14llu %11s %6.1f%% %11s %6.1f%% %11s  " then the function, then "  FILE:LINE"
NAME_AT = 14 + 1 + 11 + 1 + 7 + 1 + 11 + 1 + 7 + 1 + 11 + 2


def table_names(text):
    """The function column of the text report's function table, in order."""
    lines = text.split("\n")
    start = next(i for i, l in enumerate(lines) if l.rstrip().endswith("function") and "calls" in l)
    out = []
    for l in lines[start + 1:]:
        if not l.strip():
            break
        name = l[NAME_AT:]
        out.append(name[:name.rfind("  /")] if "  /" in name else name)
    return out


def diff_names(text):
    """The function column of profile diff's text table ("... calls new  NAME  FILE:LINE")."""
    lines = text.split("\n")
    start = next(i for i, l in enumerate(lines) if l.rstrip().endswith("function") and "calls new" in l)
    at = lines[start].rfind("function")
    out = []
    for l in lines[start + 1:]:
        if not l.strip() or l.startswith("  ("):
            break
        name = l[at:]
        out.append(name[:name.rfind("  /")] if "  /" in name else name)
    return out


with Workdir() as w:
    shutil.copy(prog("s-cxx.cc"), w.path)
    p = w.run(["--profile", "--no-open", "run", "s-cxx.cc"])
    eq(p.returncode, 0, "s-cxx (debug) runs captured")
    cap = w.latest()
    s = w.summary(cap)
    eq(validate(s.doc, SUMMARY_SCHEMA), [], "the summary validates (short_name, at most 100 characters)")
    got = {f["name"]: f.get("short_name") for f in s.funcs if f["calls"] > 0}
    eq(got, SHORT, "functions[]: every name in full, with its short name")

    r = w.run(["profile", "report", cap, "--text"])
    eq(r.returncode, 0, "profile report --text")
    rows = table_names(r.stdout)
    eq(sorted(rows), sorted(SHORT.values()), "the text report names functions by their short names")
    check("(double, double)" not in r.stdout and "int bank" not in r.stdout,
          "no parameter lists or return types in the text report")

    r = w.run(["profile", "report", cap, "--text", "--full-names"])
    eq(r.returncode, 0, "profile report --text --full-names")
    eq(sorted(table_names(r.stdout)), sorted(SHORT), "--full-names: the full demangled names")

    r = w.run(["profile", "report", cap, "--text", "--sort", "name"])
    eq(table_names(r.stdout), sorted(SHORT.values()), "--sort name orders by the names shown")

    # the capture against itself: paired by full name (the two scales stay two functions)
    for args, want, what in (([], sorted(SHORT.values()), "short names"),
                             (["--full-names"], sorted(SHORT), "full names (--full-names)")):
        d = w.run(["profile", "diff", cap, cap, "--text", "--top", "0"] + args)
        eq(d.returncode, 0, "profile diff --text " + " ".join(args))
        eq(sorted(diff_names(d.stdout)), want, "profile diff's text names functions by their " + what)
    d = w.run(["profile", "diff", cap, cap, "--json"])
    eq(d.returncode, 0, "profile diff --json")
    doc = json.loads(d.stdout)
    eq(validate(doc, DIFF_SCHEMA), [], "the diff document validates")
    eq({f["name"]: f["short_name"] for f in doc["functions"]}, SHORT, "diff functions[]: name and short_name")
    check(all(f["status"] == "both" for f in doc["functions"]), "every function paired with itself")

    f = w.run(["profile", "export", cap, "--format", "folded"])
    check("double bank::risk::scale<double>(double, double)" in f.stdout,
          "folded stacks keep the full names")
done()
