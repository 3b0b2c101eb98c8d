"""The object cache and header lookup: a cached object is stale when an #include would now find a
different file, not only when a header it read changed.  A header newly added to a directory searched
before the one the header came from (an earlier -I directory, a CPATH directory, the source's own
directory for "x.h", the directory of the header that includes it) recompiles; so does a different
CPATH.  A rerun with nothing changed reuses every object, and so does a rerun after a file that no
#include can name appeared in a searched directory (a note in an -I directory, the executable that
`build` links beside the sources)."""
from xltest import *
import re

MAIN = '#include <stdio.h>\n#include <w.h>\nint other(void);\nint main(void){printf("W=%d\\n", W + other());return 0;}\n'
OTHER = "int other(void) { return 0; }\n"


def write(w, name, text):
    path = os.path.join(w.path, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def reused(stderr):
    m = re.search(r"(\d+) sources .*?\((\d+) reused from the cache", stderr)
    return (int(m.group(1)), int(m.group(2))) if m else None


with Workdir() as w:
    write(w, "n.c", MAIN)
    write(w, "other.c", OTHER)
    write(w, "b/w.h", "#define W 10\n")
    os.makedirs(os.path.join(w.path, "a"))
    os.makedirs(os.path.join(w.path, "c"))

    def run(flags, what, expect, hits, env=None, srcs=("n.c", "other.c")):
        r = w.run(["--no-open", "run"] + flags + list(srcs), env=env)
        eq(r.returncode, 0, what + ": exit status")
        eq(r.stdout, "W=%d\n" % expect, what + ": output")
        eq(reused(r.stderr), (len(srcs), hits), what + ": (sources, reused)")

    # -Ia -Ib: w.h from b; a plain rerun reuses both objects.
    run(["-Ia", "-Ib"], "-Ia -Ib, w.h in b", 10, 0)
    run(["-Ia", "-Ib"], "rerun, nothing changed", 10, 2)
    # A w.h appears in a, searched before b: clang -Ia -Ib now finds a/w.h.  (other.c, which includes
    # nothing, searches a too but never for a w.h: it stays reused.)
    write(w, "a/w.h", "#define W 20\n")
    run(["-Ia", "-Ib"], "w.h added to the earlier -I directory", 20, 1)
    run(["-Ia", "-Ib"], "rerun after the recompile", 20, 2)
    # Separate forms (-I a -isystem b) are directories too.
    run(["-I", "c", "-isystem", "b"], "-I c -isystem b", 10, 0)
    write(w, "c/w.h", "#define W 25\n")
    run(["-I", "c", "-isystem", "b"], "w.h added to the separate -I directory", 25, 1)
    os.remove(os.path.join(w.path, "c", "w.h"))
    run(["-I", "c", "-isystem", "b"], "w.h removed again", 10, 1)

    # A file no #include can name added to an -I directory: its mtime changed, its names did not.
    os.makedirs(os.path.join(w.path, "unrelated"))
    run(["-Iunrelated", "-Ib"], "-Iunrelated -Ib", 10, 0)
    run(["-Iunrelated", "-Ib"], "rerun with -Iunrelated", 10, 2)
    write(w, "unrelated/notes.txt", "nothing to include\n")
    run(["-Iunrelated", "-Ib"], "file added to the unrelated directory", 10, 2)
    # build links its executable into the sources' directory, every time: still reused.
    for i in range(2):
        r = w.run(["build", "-Iunrelated", "-Ib", "n.c", "other.c", "-o", "prog"])
        eq(reused(r.stderr), (2, 2), "build %d into the sources' directory: (sources, reused)" % i)
    r = subprocess.run([os.path.join(w.path, "prog")], stdout=subprocess.PIPE, text=True)
    eq(r.stdout, "W=10\n", "the built program")

    # CPATH is part of the key: the same command under another CPATH is another object.
    cpath = lambda *ds: {"CPATH": ":".join(os.path.join(w.path, d) for d in ds)}
    run([], "CPATH=b", 10, 0, env=cpath("b"))
    run([], "CPATH=b again", 10, 2, env=cpath("b"))
    run([], "CPATH=a", 20, 0, env=cpath("a"))
    run([], "CPATH=b after CPATH=a", 10, 2, env=cpath("b"))
    # ... and its directories are searched: a header appearing in an earlier one recompiles.
    os.makedirs(os.path.join(w.path, "cp1"))
    run([], "CPATH=cp1:b", 10, 0, env=cpath("cp1", "b"))
    write(w, "cp1/w.h", "#define W 30\n")
    run([], "w.h added to the first CPATH directory", 30, 1, env=cpath("cp1", "b"))
    run([], "C_INCLUDE_PATH=b (another key)", 10, 0, env={"C_INCLUDE_PATH": os.path.join(w.path, "b")})

    # "w.h" is looked up first in the source's own directory.
    write(w, "src/n.c", MAIN.replace("<w.h>", '"w.h"'))
    write(w, "src/other.c", OTHER)
    run(["-Ib"], "src/n.c with \"w.h\" from -Ib", 10, 0, srcs=("src/n.c", "src/other.c"))
    write(w, "src/w.h", "#define W 40\n")
    run(["-Ib"], "w.h added beside the source", 40, 1, srcs=("src/n.c", "src/other.c"))

    # ... and in the directory of the header that includes it.
    write(w, "top/sub/top.h", '#include "w.h"\n')
    write(w, "h.c", MAIN.replace("<w.h>", "<sub/top.h>"))
    run(["-Itop", "-Ib"], "h.c: sub/top.h includes \"w.h\" from -Ib", 10, 0, srcs=("h.c", "other.c"))
    run(["-Itop", "-Ib"], "h.c rerun", 10, 2, srcs=("h.c", "other.c"))
    write(w, "top/sub/w.h", "#define W 50\n")
    run(["-Itop", "-Ib"], "w.h added beside the including header", 50, 1, srcs=("h.c", "other.c"))
done()
