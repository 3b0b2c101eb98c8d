"""Every command answers -h/--help with its generated usage (stdout, exit 0), docs/cli.md carries exactly
these usage texts, bad options print the usage to stderr with exit 2, and --x=v equals --x v."""
import re
from xltest import *


def help_of(w, path):
    p = w.run(path + ["--help"])
    eq(p.returncode, 0, "exaloop %s --help: exit 0" % " ".join(path))
    eq(p.stderr, "", "exaloop %s --help: nothing on stderr" % " ".join(path))
    check(p.stdout.startswith("usage: exaloop"), "exaloop %s --help: a usage on stdout" % " ".join(path))
    short = w.run(path + ["-h"])
    check(short.returncode == 0 and short.stdout == p.stdout, "exaloop %s -h is --help" % " ".join(path))
    return p.stdout


def commands_in(usage):
    """The names listed under 'commands:' in a usage text."""
    m = re.search(r"\ncommands:\n((?:  \S.*\n)+)", usage)
    return [line.split()[0] for line in m.group(1).splitlines()] if m else []


with Workdir() as w:
    # every command and subcommand, found from the usage texts themselves
    usages, todo = {}, [[]]
    while todo:
        path = todo.pop(0)
        text = help_of(w, path)
        usages[" ".join(path)] = text
        todo += [path + [c] for c in commands_in(text)]
    for want in ("", "run", "build", "profile", "profile exec", "profile report", "profile export", "profile diff",
                 "pgo", "pgo train", "pgo evaluate", "doctor", "plugin", "plugin add", "plugin list", "plugin remove"):
        check(want in usages, "found command '%s'" % want)
    check(usages[""] == w.run(["help"]).stdout, "'exaloop help' prints the same usage")

    # docs/cli.md holds each usage verbatim in a ```text block, and no other usage block
    doc = open(os.path.join(SRC, "docs", "cli.md")).read()
    blocks = [b for b in re.findall(r"```text\n(.*?)```", doc, re.S) if b.startswith("usage: exaloop")]
    for name, text in usages.items():
        check(text in blocks, "docs/cli.md has the usage of 'exaloop %s' as printed" % name)
    for b in blocks:
        check(b in usages.values(), "docs/cli.md's usage '%s' is one a command prints" % b.splitlines()[0])

    # bad options and arguments: one error line naming it, the usage on stderr, exit 2
    for path in (["profile", "report"], ["profile", "export"], ["profile", "exec"], ["profile", "diff"], ["pgo"],
                 ["doctor"], ["plugin", "add"],
                 ["plugin", "list"], ["plugin", "remove"], ["profile"], ["plugin"], []):
        p = w.run(path + ["--no-such-option", "x"])
        eq(p.returncode, 2, "exaloop %s --no-such-option: exit 2" % " ".join(path))
        check("unknown option '--no-such-option'" in p.stderr, "the message names the option")
        check(usages[" ".join(path)] in p.stderr, "exaloop %s: the usage follows on stderr" % " ".join(path))
        eq(p.stdout, "", "nothing on stdout")
    for path in (["run"], ["build"], ["pgo", "train"], ["pgo", "evaluate"]):
        p = w.run(["--profile"] + path + ["--no-such-option", prog("s-fib.c")])
        check(p.returncode == 2 and "unknown build option '--no-such-option'" in p.stderr,
              "exaloop %s: an unknown build option is a usage error" % " ".join(path))
    p = w.run(["pgo", "evaluate", "--runs", "0", prog("s-fib.c")])
    check(p.returncode == 2 and "invalid --runs '0': expected a number from 1 to 1000" in p.stderr and usages["pgo evaluate"] in p.stderr,
          "pgo evaluate --runs 0: the error and the usage")
    p = w.run(["profile"])
    check(p.returncode == 2 and "needs a subcommand: exec, report, export, diff or attach" in p.stderr and usages["profile"] in p.stderr,
          "profile without a subcommand: the error and the usage")
    p = w.run(["plugin", "lst"])
    check(p.returncode == 2 and "'lst' is not a plugin subcommand" in p.stderr and "did you mean 'list'" in p.stderr,
          "an unknown subcommand gets a suggestion")
    p = w.run(["--target"])
    check(p.returncode == 2 and "'--target' needs a value" in p.stderr, "a missing value is named")
    p = w.run(["--no-open=yes", "doctor"])
    check(p.returncode == 2 and "'--no-open' takes no value" in p.stderr, "a flag given a value")
    p = w.run(["--profile=fast", "doctor"])
    check(p.returncode == 2 and "invalid profile mode 'fast'" in p.stderr, "a bad value is named")
    p = w.run(["--version"])
    check(p.returncode == 0 and p.stdout.startswith("exaloop "), "--version")

    # help is an option only where options are: the program's arguments are the program's
    echo = os.path.join(w.path, "echo.c")
    open(echo, "w").write('#include <stdio.h>\nint main(int c, char **v) { for (int i = 1; i < c; i++) printf("[%s]", v[i]); printf("\\n"); return 0; }\n')
    p = w.run(["run", echo, "--help", "-h"])
    eq((p.returncode, p.stdout), (0, "[--help][-h]\n"), "run app.c --help: the program gets --help")

    # --x=v and --x v (and -oV, -o V) mean the same for every option with a value
    p = w.run(["--profile", "--no-open", "run", prog("s-two-parents.c")])
    eq(p.returncode, 0, "a capture to read")
    cap = w.latest()
    pairs = [
        (["profile", "report", cap, "--text", "--sort=calls", "--top=2", "--thread=0"],
         ["profile", "report", "--text", "--sort", "calls", "--top", "2", "--thread", "0", cap]),
        (["profile", "export", cap, "--format=folded", "-o" + os.path.join(w.path, "a.txt")],
         ["profile", "export", "--format", "folded", cap, "-o", os.path.join(w.path, "b.txt")]),
    ]
    for a, b in pairs:
        pa, pb = w.run(a), w.run(b)
        eq((pa.returncode, pb.returncode), (0, 0), "both spellings accepted: %s" % " ".join(a[3:]))
        eq(pa.stdout, pb.stdout, "same output: %s" % " ".join(a[3:]))
    check(len([l for l in w.run(pairs[0][0]).stdout.splitlines() if re.match(r"\s*\d", l)]) >= 2,
          "the text report has rows")
    eq(open(os.path.join(w.path, "a.txt")).read(), open(os.path.join(w.path, "b.txt")).read(),
       "--format=folded -oA and --format folded -o B write the same file")
    p = w.run(["profile", "report", cap, "--top=x"])
    check(p.returncode == 2 and "invalid --top 'x'" in p.stderr, "--top=x: the value is checked as --top x is")
done()
