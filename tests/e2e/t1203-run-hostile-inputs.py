"""Hostile inputs to `run` and `profile`: odd sources, odd paths, a program that removes its
capture.

- A source that is a link to /dev/zero: the build fails (exit 125) and exaloop ends; its hint
  scan (<gc.h>, <math.h>, <pthread.h>) read the source without bound and never ended.
- Paths with a newline: every message of exaloop's stays one line (the control character is
  written \\x0a); they used to be split, and a second line could pass for a message of its own.
- A program that deletes ./profiles while it runs: exaloop says the capture directory was
  removed, instead of asking whether the program was built with --profile.
"""
from xltest import *

REMOVER = r'''
#include <stdio.h>
#include <stdlib.h>
static int work(int x) { return x + 1; }
int main(void) {
    int s = 0;
    for (int i = 0; i < 10; i++)
        s = work(s);
    printf("s=%d\n", s);
    fflush(stdout);
    return system("rm -rf profiles") == 0 ? 0 : 1;
}
'''

HELLO = r'''
#include <stdio.h>
static int twice(int x) { return 2 * x; }
int main(void) { printf("%d\n", twice(21)); return 0; }
'''


def one_line_messages(stderr, what):
    bad = [l for l in stderr.splitlines() if l.startswith("INJECTED")]
    eq(bad, [], what + ": no line starts with the text after the newline")


with Workdir() as w:
    # a source linked to /dev/zero
    zero = os.path.join(w.path, "zero.c")
    os.symlink("/dev/zero", zero)
    try:
        p = w.run(["--profile", "run", zero], timeout=120)
        eq(p.returncode, 125, "source -> /dev/zero: the build fails, exit 125")
    except subprocess.TimeoutExpired:
        check(False, "source -> /dev/zero: exaloop ends")

    # paths with a newline
    p = w.run(["profile", "report", "nowhere\nINJECTED"])
    eq(p.returncode, 3, "report of a missing capture: exit 3")
    eq(len(p.stderr.splitlines()), 1, "report of a missing capture: one line")
    check("nowhere\\x0aINJECTED" in p.stderr, "the newline is written \\x0a")
    one_line_messages(p.stderr, "report")
    p = w.run(["--profile", "run", "missing\nINJECTED.c"])
    one_line_messages(p.stderr, "run of a missing source")
    check(p.returncode != 0, "run of a missing source fails")
    p = w.run(["profile", "exec", "./missing\nINJECTED"])
    one_line_messages(p.stderr, "profile exec of a missing program")
    src = os.path.join(w.path, "hello\nINJECTED.c")
    with open(src, "w") as f:
        f.write(HELLO)
    p = w.run(["--profile", "run", src])
    eq(p.returncode, 0, "run of a source with a newline in its name")
    eq(p.stdout, "42\n", "the program's output")
    one_line_messages(p.stderr, "run of a source with a newline in its name")
    check("compiled " in p.stderr and "hello\\x0aINJECTED.c" in p.stderr, "its name is quoted on one line")

    # a program that removes ./profiles
    src = os.path.join(w.path, "remover.c")
    with open(src, "w") as f:
        f.write(REMOVER)
    p = w.run(["--profile", "run", src])
    eq(p.returncode, 0, "remover: the program's exit status")
    check("was it built with" not in p.stderr, "remover: no question about --profile")
    check("was removed while the program ran" in p.stderr, "remover: says the capture directory was removed")
    eq(len([l for l in p.stderr.splitlines() if "error:" in l]), 1, "remover: one error line")
done()
