"""The exec list forms (execl, execlp, execle) under capture from a thread with a small stack.

exaloop wraps them to note the exec in the capture; the wrappers once took a 4096-pointer array
(32 KiB) on the stack, and a thread with a 24 KiB stack died of SIGBUS instead of exec'ing.  Each
form here runs /bin/echo (or `echo` on PATH, or with an environment of its own) from such a thread:
the output and exit status must be the uncaptured run's."""
from xltest import *

SRC = r'''
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *form;

static void *run(void *arg)
{
	(void)arg;
	char *env[] = {"XL_FORM=execle", NULL};
	if (strcmp(form, "execl") == 0)
		execl("/bin/echo", "echo", "from", "execl", (char *)0);
	else if (strcmp(form, "execlp") == 0)
		execlp("echo", "echo", "from", "execlp", (char *)0);
	else
		execle("/bin/sh", "sh", "-c", "echo from $XL_FORM", (char *)0, env);
	perror("exec");
	return NULL;
}

int main(int argc, char **argv)
{
	form = argc > 1 ? argv[1] : "execl";
	pthread_attr_t at;
	pthread_attr_init(&at);
	pthread_attr_setstacksize(&at, 24576);
	pthread_t t;
	if (pthread_create(&t, &at, run, NULL) != 0)
		return 2;
	pthread_join(t, NULL);
	return 1;
}
'''

with Workdir() as w:
    src = os.path.join(w.path, "smallexec.c")
    open(src, "w").write(SRC)
    plain = os.path.join(w.path, "plain")
    subprocess.run(["clang", "-O2", "-pthread", src, "-o", plain], check=True)
    for form in ("execl", "execlp", "execle"):
        want = subprocess.run([plain, form], stdout=subprocess.PIPE, text=True, timeout=60)
        eq((want.returncode, want.stdout), (0, "from %s\n" % form), "%s: the uncaptured run" % form)
        p = w.run(["--no-open", "--profile", "run", "-pthread", src, form])
        eq((p.returncode, p.stdout), (want.returncode, want.stdout), "%s from a 24 KiB stack under capture" % form)
done()
