"""Faults: exaloop in a terminal, under a job-control shell, as users run it.

The program runs in its own process group (so that signals sent to exaloop's group reach it
once, t9011); in a terminal that group is made the foreground group, so:
- the program reads the terminal (it would stop with SIGTTIN in a background group);
- ^Z stops the program, exaloop stops with it, the shell sees the job stopped, and `fg`
  continues both, the program owning the terminal again;
- ^C reaches the program once, it dies with 130, exaloop writes the report; the terminal is
  back with exaloop's group (the shell's job) when exaloop exits.
The shell is a small job-control shell in Python on a pseudo-terminal (setpgid, tcsetpgrp,
waitpid(WUNTRACED), SIGCONT), doing what bash does for a foreground job.
"""
import pty
import select
import time

from xltest import *

SHELL = r'''
import os, signal, sys
signal.signal(signal.SIGTTOU, signal.SIG_IGN)
signal.signal(signal.SIGTSTP, signal.SIG_IGN)
signal.signal(signal.SIGINT, signal.SIG_IGN)
pid = os.fork()
if pid == 0:
    os.setpgid(0, 0)
    os.tcsetpgrp(0, os.getpid())
    for s in (signal.SIGTTOU, signal.SIGTSTP, signal.SIGINT):
        signal.signal(s, signal.SIG_DFL)
    os.execv(sys.argv[1], sys.argv[1:])
try:
    os.setpgid(pid, pid)
except PermissionError:
    pass    # EACCES: the child exec'd already, having made its group itself (bash ignores it too)
os.tcsetpgrp(0, pid)
while True:
    _, st = os.waitpid(pid, os.WUNTRACED)
    if os.WIFSTOPPED(st):
        os.tcsetpgrp(0, os.getpgrp())
        print("SHELL: job stopped by %d, terminal %s" % (os.WSTOPSIG(st),
              "back to shell" if os.tcgetpgrp(0) == os.getpgrp() else "elsewhere"), flush=True)
        os.tcsetpgrp(0, pid)        # fg
        os.killpg(pid, signal.SIGCONT)
        continue
    # exaloop gave the terminal back to its own group (the job) when the program ended
    print("SHELL: job exit %d, terminal %s" % (os.waitstatus_to_exitcode(st),
          "with the job" if os.tcgetpgrp(0) == pid else "elsewhere"), flush=True)
    break
'''

READER = r'''
#include <stdio.h>
static int shout(const char *s) { return printf("got: %s", s); }
int main(void) {
    char line[256];
    printf("type a line\n");
    fflush(stdout);
    if (!fgets(line, sizeof line, stdin))
        return 1;
    shout(line);
    return 0;
}
'''


class Term:
    def __init__(self, w, args):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.chdir(w.path)
            os.environ["CI"] = "1"
            os.execv(sys.executable, [sys.executable, "-c", SHELL] + args)
        self.buf = b""

    def expect(self, what, timeout=120):
        end = time.time() + timeout
        while what.encode() not in self.buf and time.time() < end:
            r, _, _ = select.select([self.fd], [], [], 0.5)
            if r:
                try:
                    chunk = os.read(self.fd, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                self.buf += chunk
        found = what.encode() in self.buf
        check(found, "terminal shows %r" % what)
        return found

    def send(self, data):
        os.write(self.fd, data)

    def close(self):
        _, st = os.waitpid(self.pid, 0)
        sys.stdout.write(self.buf.decode(errors="replace").replace("\r", ""))
        os.close(self.fd)
        return st


with Workdir() as w:
    killme = os.path.join(w.path, "killme")
    eq(w.run(["--profile", "build", prog("s-killme.c"), "-o", killme]).returncode, 0, "build s-killme")
    src = os.path.join(w.path, "reader.c")
    with open(src, "w") as f:
        f.write(READER)

    # The program reads the terminal.
    t = Term(w, [EXALOOP, "--no-open", "--profile", "run", src])
    if t.expect("type a line"):
        t.send(b"hello\n")
    t.expect("got: hello")
    t.expect("SHELL: job exit 0, terminal with the job")
    t.close()

    # ^Z, fg, then ^C.
    t = Term(w, [EXALOOP, "--no-open", "profile", "exec", killme, "--batches", "1000", "--sleep-ms", "100"])
    t.expect("batch 2 done")
    t.send(b"\x1a")
    t.expect("SHELL: job stopped by 20, terminal back to shell")
    n = t.buf.count(b"done:")
    t.expect("batch 6 done")      # running again after fg
    t.send(b"\x03")
    t.expect("killed by signal 2 (Interrupt)")
    t.expect("SHELL: job exit 130, terminal with the job")
    t.close()
    s = w.summary()
    b = s.paths().get(("main", "run_batch"), 0)
    check(b >= 6, "the capture holds the batches before and after the stop (%d)" % b)
done()
