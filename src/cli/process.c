/*
 * process.c - start and wait for other programs (see process.h for the
 * policies and their invariants).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exitcode.h"
#include "process.h"

/* The child SIGTERM/SIGHUP go to under XL_SIGNALS_FORWARD (one at a time). */
static volatile pid_t forward_to;

static void forward(int sig)
{
	if (forward_to > 0)
		kill(forward_to, sig);
}

int xl_which(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");
		if ((size_t)snprintf(out, len, "%.*s/%s", (int)n, n ? path : ".", name) < len &&
		    access(out, X_OK) == 0)
			return 0;
		path += n;
		if (*path == ':')
			path++;
	}
	return -1;
}

int xl_exit_status(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* In the child: signals as they were, stdio, setup, exec.  On failure the
 * errno goes up errfd and the child exits as a shell would (127/126). */
static void child(const struct xl_process *p, int errfd)
{
	if (p->signals == XL_SIGNALS_FORWARD) {
		sigaction(SIGINT, &p->old_int, NULL);
		sigaction(SIGQUIT, &p->old_quit, NULL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
	}
	sigprocmask(SIG_SETMASK, &p->old_mask, NULL);
	if (p->stdio == XL_STDIO_DETACHED) {
		/* The grandchild runs the program: never exaloop's child. */
		if (fork() != 0)
			_exit(0);
		setsid();
	}
	if (p->stdio != XL_STDIO_INHERIT) {
		int fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			if (p->stdio == XL_STDIO_DETACHED)
				dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
			if (fd > 2)
				close(fd);
		}
	}
	if (p->out_fd > 0)
		dup2(p->out_fd, 1);
	if (p->setup)
		p->setup(p->setup_arg);
	if (strchr(p->argv[0], '/'))
		execv(p->argv[0], p->argv);
	else
		execvp(p->argv[0], p->argv);
	int e = errno;
	if (write(errfd, &e, sizeof(e)) < 0)
		e = errno;
	_exit(e == ENOENT ? XL_EXIT_NOTFOUND : XL_EXIT_NOEXEC);
}

int xl_process_start(struct xl_process *p)
{
	p->pid = 0;
	p->started = 1;
	sigprocmask(SIG_SETMASK, NULL, &p->old_mask);
	if (p->signals == XL_SIGNALS_FORWARD) {
		struct sigaction ign = {0}, fwd = {0};
		ign.sa_handler = SIG_IGN;
		fwd.sa_handler = forward;
		sigaction(SIGINT, &ign, &p->old_int);
		sigaction(SIGQUIT, &ign, &p->old_quit);
		sigaction(SIGTERM, &fwd, &p->old_term);
		sigaction(SIGHUP, &fwd, &p->old_hup);
		/* Blocked until forward_to names the child, so a signal
		 * arriving around the fork is forwarded, not lost. */
		sigset_t block;
		sigemptyset(&block);
		sigaddset(&block, SIGTERM);
		sigaddset(&block, SIGHUP);
		sigprocmask(SIG_BLOCK, &block, NULL);
	}
	int fds[2], e = 0;
	if (pipe2(fds, O_CLOEXEC) != 0) {
		e = errno;
		sigprocmask(SIG_SETMASK, &p->old_mask, NULL);
		errno = e;
		return -1;
	}
	fflush(NULL);  /* nothing buffered is written twice */
	pid_t pid = fork();
	if (pid == 0)
		child(p, fds[1]);
	close(fds[1]);
	if (pid > 0) {
		ssize_t n;
		while ((n = read(fds[0], &e, sizeof(e))) < 0 && errno == EINTR)
			;
		if (n != (ssize_t)sizeof(e))
			e = 0;
	} else
		e = errno;
	close(fds[0]);
	if (pid > 0 && (e || p->stdio == XL_STDIO_DETACHED)) {
		/* exec failed, or the detaching middle child: reap it */
		int st;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		pid = e ? -1 : 0;
	}
	if (pid > 0) {
		p->pid = pid;
		if (p->signals == XL_SIGNALS_FORWARD)
			forward_to = pid;
	}
	sigprocmask(SIG_SETMASK, &p->old_mask, NULL);
	if (e) {
		errno = e;
		return -1;
	}
	return 0;
}

pid_t xl_process_wait(struct xl_process *p, int *status, struct rusage *ru, int nohang)
{
	pid_t r;
	do
		r = ru ? wait4(p->pid, status, nohang ? WNOHANG : 0, ru) : waitpid(p->pid, status, nohang ? WNOHANG : 0);
	while (r < 0 && errno == EINTR);
	return r;
}

void xl_process_end(struct xl_process *p)
{
	if (!p->started)
		return;
	p->started = 0;
	if (p->signals == XL_SIGNALS_FORWARD) {
		forward_to = 0;
		sigaction(SIGINT, &p->old_int, NULL);
		sigaction(SIGQUIT, &p->old_quit, NULL);
		sigaction(SIGTERM, &p->old_term, NULL);
		sigaction(SIGHUP, &p->old_hup, NULL);
	}
	p->pid = 0;
}

int xl_process_run(struct xl_process *p)
{
	if (xl_process_start(p) != 0) {
		int e = errno;
		xl_process_end(p);
		errno = e;
		return -1;
	}
	int st = 0;
	pid_t r = p->pid > 0 ? xl_process_wait(p, &st, NULL, 0) : 0;
	int e = errno;
	xl_process_end(p);
	if (r < 0) {
		errno = e;
		return -1;
	}
	return xl_exit_status(st);
}

int xl_process_read_line(char *const argv[], char *out, size_t len)
{
	out[0] = 0;
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) != 0)
		return -1;
	struct xl_process p = {.argv = argv, .stdio = XL_STDIO_QUIET, .out_fd = fds[1]};
	int started = xl_process_start(&p);
	close(fds[1]);
	size_t got = 0;
	int line_done = 0;
	if (started == 0) {
		/* Read to the end: the child may write more than a line. */
		char buf[256];
		ssize_t n;
		while ((n = read(fds[0], buf, sizeof(buf))) != 0) {
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				break;
			for (ssize_t i = 0; i < n && !line_done; i++) {
				if (buf[i] == '\n' || got + 1 >= len)
					line_done = 1;
				else
					out[got++] = buf[i];
			}
		}
	}
	close(fds[0]);
	int st = 0;
	if (started == 0)
		xl_process_wait(&p, &st, NULL, 0);
	xl_process_end(&p);
	out[got] = 0;
	return got > 0 ? 0 : -1;
}
