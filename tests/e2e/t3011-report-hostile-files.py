"""Hostile files around `profile report` / `profile export`.

- A FIFO or a device in place of capture.xlc, symbols.json or run.json: open() of a FIFO
  waited for a writer forever.  Now each is opened O_NONBLOCK and refused unless regular:
  capture.xlc -> exit 3 with one line; symbols.json / run.json -> the report is written without
  them (functions by XRay id, run facts unknown).
- Temporary output files: `<out>.tmp.<pid>` was opened with fopen("w"), so a symbolic link planted
  at that name overwrote a file elsewhere.  Temporaries now have random names and O_EXCL.
- `-o` naming an existing file that is not regular (a FIFO, a character device, a link such as
  /dev/stdout): it was replaced by a regular file (a FIFO's reader blocked forever).  Now it is
  written in place and stays what it was; `-o -` writes to stdout (for the HTML report too).
"""
import shutil
import stat
import threading

from xltest import *


def run_bounded(w, args, timeout=60):
    """exaloop with a deadline: a hang is a failure, not a stuck test."""
    try:
        return w.run(args, timeout=timeout)
    except subprocess.TimeoutExpired:
        print("TIMEOUT: exaloop %s" % " ".join(args))
        return None


with Workdir() as w:
    p = w.run(["--profile", "run", prog("s-two-parents.c")])
    eq(p.returncode, 0, "capture s-two-parents")
    base = w.latest()

    # FIFOs and a device where the capture's files belong
    for name, expect in (("capture.xlc", 3), ("symbols.json", 0), ("run.json", 0)):
        for kind in ("fifo", "device"):
            d = os.path.join(w.path, "special-%s-%s" % (kind, name))
            shutil.copytree(base, d)
            os.remove(os.path.join(d, name))
            if kind == "fifo":
                os.mkfifo(os.path.join(d, name))
            else:
                os.symlink("/dev/zero", os.path.join(d, name))
            p = run_bounded(w, ["profile", "report", d, "--json"])
            what = "%s is a %s" % (name, kind)
            check(p is not None, what + ": the report does not hang")
            if p is None:
                continue
            eq(p.returncode, expect, what + ": exit %d" % expect)
            if expect:
                check("not a regular file" in p.stderr and len(p.stderr.strip().splitlines()) == 1,
                      what + ": one line says it is not a regular file")
            else:
                s = Summary(json.loads(p.stdout))
                eq(sum(f["calls"] for f in s.funcs), 11, what + ": the calls are all there (main, alpha, "
                   "beta, 8 leaf)")

    # planted links at the names a temporary could take
    victim = os.path.join(w.path, "victim.txt")
    out = os.path.join(w.path, "out.json")
    with open("/proc/sys/kernel/ns_last_pid") as f:
        last = int(f.read())
    for attempt in range(3):
        with open(victim, "w") as f:
            f.write("precious\n")
        planted = []
        for pid in range(last + 1, last + 4000):   # a busy machine uses hundreds of pids a second
            for stem in (out, os.path.join(base, "index.html")):
                link = "%s.tmp.%d" % (stem, pid)
                if not os.path.lexists(link):
                    os.symlink(victim, link)
                    planted.append(link)
        p = run_bounded(w, ["profile", "export", base, "--format", "json", "-o", out])
        p2 = run_bounded(w, ["profile", "report", base])
        for link in planted:
            if os.path.lexists(link):   # (an old exaloop renamed the one it followed)
                os.remove(link)
        with open(victim) as f:
            kept = f.read()
        check(kept == "precious\n", "planted links (%d, try %d): the file they point at is untouched (%r)"
              % (len(planted), attempt + 1, kept[:40]))
        check(p is not None and p.returncode == 0 and p2 is not None and p2.returncode == 0,
              "export and report still succeed")
        with open("/proc/sys/kernel/ns_last_pid") as f:
            last = int(f.read())
    check(json.load(open(out))["functions"] is not None, "the output itself was written")

    # -o to a FIFO: written in place, read by its reader, still a FIFO
    fifo = os.path.join(w.path, "trace.fifo")
    os.mkfifo(fifo)
    got = []

    def reader():
        with open(fifo, "rb") as f:
            got.append(f.read())
    t = threading.Thread(target=reader, daemon=True)
    t.start()
    p = run_bounded(w, ["profile", "export", base, "--format", "chrome", "-o", fifo])
    t.join(60)
    check(p is not None and p.returncode == 0, "-o FIFO: exit 0")
    check(not t.is_alive() and got and json.loads(got[0].decode()) is not None,
          "-o FIFO: the reader got the whole trace")
    check(stat.S_ISFIFO(os.lstat(fifo).st_mode), "-o FIFO: still a FIFO")
    if t.is_alive():   # unblock the reader of a replaced FIFO
        try:
            os.remove(fifo)
        except OSError:
            pass

    # -o to a character device (a /dev/null of our own, when the file system allows devices)
    dev = os.path.join(w.path, "null")
    try:
        os.mknod(dev, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except OSError as e:
        print("skip: no device node here (%s)" % e)
        dev = None
    if dev:
        p = run_bounded(w, ["profile", "export", base, "--format", "folded", "-o", dev])
        check(p is not None and p.returncode == 0, "-o device: exit 0")
        check(stat.S_ISCHR(os.lstat(dev).st_mode), "-o device: still a character device")

    # -o to a link such as /dev/stdout: written through, the link stays
    link = os.path.join(w.path, "stdout-link")
    os.symlink("/dev/stdout", link)
    p = run_bounded(w, ["profile", "export", base, "--format", "folded", "-o", link])
    check(p is not None and p.returncode == 0 and "main;alpha;leaf " in p.stdout,
          "-o link to /dev/stdout: the stacks arrive on stdout")
    check(os.path.islink(link), "-o link to /dev/stdout: still a link")

    # -o - : stdout, for the HTML report too (no path printed after it, nothing written)
    p = run_bounded(w, ["profile", "report", base, "-o", "-"])
    check(p is not None and p.returncode == 0 and p.stdout.startswith("<!DOCTYPE html>")
          and p.stdout.rstrip().endswith("</html>"), "report -o -: the HTML on stdout, nothing after it")
    check(not os.path.exists(os.path.join(w.path, "-")), "report -o -: no file named '-'")
done()
