#!/usr/bin/env python3
"""Check that every function of src/ is at most 80 lines long.

    ./scripts/check-function-length.py [--max N] [FILE...]   (default: src/**/*.[ch])

A function's length is counted from the first line of its definition (the
return type, or the name when the type sits on the line before) to its
closing brace, both included: what a reader has to take in at once
(docs/architecture.md, "Conventions").  Split a longer one by its steps;
a long sequence of checks becomes a table of small functions.

The definitions are found the way .clang-format writes them (Linux braces):
a function's body opens with a "{" alone at column 0 and ends at the next
"}" alone at column 0; the lines above the "{" up to one that starts at
column 0 are its declarator.  Nothing else in this style puts a brace
alone at column 0 (structs, initializers and blocks keep theirs on the
line they open, or indent them).  A "{" at column 0 found inside a function
means the style was not followed: it is reported, not guessed around.

Prints "file:line: name is N lines (at most M)" per violation and exits 1,
or prints a summary and exits 0.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
MAX_LINES = 80
# Functions allowed to be longer, with the reason.  Keep it empty: the only
# reason accepted would be the runtime's hot path, where a split that adds a
# call costs speed on every traced call (src/rt/check_hot.cmake).
EXCEPTIONS = {}

NAME = re.compile(r"([A-Za-z_]\w*)\s*\(")
ATTRIBUTE = re.compile(r"__attribute__\s*\(\(.*?\)\)")


def functions(path):
    """(first line, name, length) of each function defined in path."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    found, problems = [], []
    i = 0
    while i < len(lines):
        if lines[i].rstrip() != "{":
            i += 1
            continue
        start = i - 1
        while start > 0 and lines[start][:1] in (" ", "\t") and lines[start].strip():
            start -= 1
        decl = " ".join(l.strip() for l in lines[start:i])
        m = NAME.search(ATTRIBUTE.sub("", decl))
        end = i + 1
        while end < len(lines) and lines[end].rstrip() != "}":
            if lines[end].rstrip() == "{":
                problems.append("%s:%d: a '{' alone at column 0 inside a function: run ./scripts/check-format.sh "
                                "--fix" % (os.path.relpath(path, ROOT), end + 1))
            end += 1
        if end == len(lines):
            problems.append("%s:%d: no closing '}' at column 0" % (os.path.relpath(path, ROOT), i + 1))
        found.append((start + 1, m.group(1) if m else "?", end - start + 1))
        i = end + 1
    return found, problems


def main(argv):
    limit = MAX_LINES
    if argv[:1] == ["--max"]:
        limit, argv = int(argv[1]), argv[2:]
    if argv:
        paths = [os.path.abspath(a) for a in argv]
    else:
        out = subprocess.run(["git", "ls-files", "src/*.c", "src/*.h"], cwd=ROOT, stdout=subprocess.PIPE,
                             text=True, check=True).stdout
        paths = [os.path.join(ROOT, p) for p in out.split()]
    problems, count = [], 0
    for path in paths:
        fns, bad = functions(path)
        problems += bad
        count += len(fns)
        rel = os.path.relpath(path, ROOT)
        for line, name, length in fns:
            if length > limit and (rel, name) not in EXCEPTIONS:
                problems.append("%s:%d: %s is %d lines (at most %d): split it by its steps" % (rel, line, name,
                                                                                            length, limit))
    for p in problems:
        print(p)
    if problems:
        return 1
    print("function length ok: %d functions in %d files, none over %d lines" % (count, len(paths), limit))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
