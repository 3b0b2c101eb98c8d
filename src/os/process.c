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
#include <termios.h>
#include <unistd.h>

#include "exitcode.h"
#include "process.h"
#include "strbuf.h"
#include "xl_array.h"

/* What XL_SIGNALS_FORWARD passes on.  Not SIGTTIN/SIGTTOU: the kernel
 * sends those to exaloop itself when it touches the terminal from the
 * background, and a caught SIGTTOU would restart the write forever. */
static const int forwarded[] = {SIGHUP,  SIGINT,  SIGQUIT,  SIGTERM, SIGUSR1,
				SIGUSR2, SIGALRM, SIGWINCH, SIGCONT, SIGTSTP};
#define NFWD (XL_ARRAY_SIZE(forwarded))

static struct sigaction saved[NFWD];   /* exaloop's own dispositions */
static volatile sig_atomic_t job_pgid; /* the child's group; 0: none */
static volatile sig_atomic_t job_tty = -1;

/* Did the child's group (or exaloop itself) send this?  Then it is not
 * for the child.  Kernel-generated signals (si_code > 0: a terminal
 * hangup to a session leader, a timer) are passed on. */
static int from_job(const siginfo_t *si, pid_t g)
{
	if (si->si_code > 0)
		return 0;
	if (si->si_pid == getpid())
		return 1;
	return si->si_pid > 0 && getpgid(si->si_pid) == g;
}

static void forward(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	int e = errno;
	pid_t g = (pid_t)job_pgid;
	if (g > 0 && !from_job(si, g)) {
		/* `fg` after a stop: the child gets the terminal before it runs. */
		if (sig == SIGCONT && job_tty >= 0 && tcgetpgrp(job_tty) == getpgrp())
			tcsetpgrp(job_tty, g);
		kill(-g, sig);
	}
	errno = e;
}

static void restore_handlers(void)
{
	for (size_t i = 0; i < NFWD; i++)
		sigaction(forwarded[i], &saved[i], NULL);
}

/* The terminal back to exaloop's group, which may be in the background
 * for the moment (SIGTTOU blocked, as shells do). */
static void take_tty(int tty)
{
	sigset_t s, old;
	sigemptyset(&s);
	sigaddset(&s, SIGTTOU);
	sigprocmask(SIG_BLOCK, &s, &old);
	tcsetpgrp(tty, getpgrp());
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* A group is orphaned when no member's parent is in another group of the
 * same session; the kernel discards ^Z for it.  (Judged by exaloop's own
 * parent: exaloop is its group's only member unless it runs in a pipeline,
 * whose members share the shell as parent.) */
static int orphaned(void)
{
	pid_t pp = getppid();
	return getsid(pp) != getsid(0) || getpgid(pp) == getpgrp();
}

/* The child stopped on a job-control signal: stop exaloop the same way so
 * the shell sees the job stopped.  The SIGCONT that resumes exaloop is
 * forwarded by the handler, terminal first.  Where exaloop's group is
 * orphaned the program would not have stopped uncaptured: continue it. */
static void mirror_stop(struct xl_process *p, int sig)
{
	if (orphaned()) {
		kill(-p->pid, SIGCONT);
		return;
	}
	if (p->tty >= 0 && tcgetpgrp(p->tty) == p->pid)
		take_tty(p->tty);
	struct sigaction dfl, old;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(sig, &dfl, &old);
	sigset_t s, prev;
	sigemptyset(&s);
	sigaddset(&s, sig);
	sigprocmask(SIG_UNBLOCK, &s, &prev);
	raise(sig);
	sigprocmask(SIG_SETMASK, &prev, NULL);
	sigaction(sig, &old, NULL);
}

int xl_which(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");
		if ((size_t)snprintf(out, len, "%.*s/%s", (int)n, n ? path : ".", name) < len && access(out, X_OK) == 0)
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
		/* Both sides set the group and the terminal, as shells do: which
		 * runs first does not matter.  (SIGTTOU is still blocked.) */
		setpgid(0, 0);
		if (p->tty >= 0)
			tcsetpgrp(p->tty, getpid());
		restore_handlers();
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
	p->ended = 0;
	p->tty = -1;
	sigprocmask(SIG_SETMASK, NULL, &p->old_mask);
	if (p->signals == XL_SIGNALS_FORWARD) {
		p->tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
		if (p->tty >= 0 && tcgetpgrp(p->tty) != getpgrp()) {
			close(p->tty); /* exaloop is in the background: leave the terminal alone */
			p->tty = -1;
		}
		/* Blocked until job_pgid names the child's group, so a signal
		 * arriving around the fork is forwarded, not lost. */
		sigset_t block;
		sigemptyset(&block);
		for (size_t i = 0; i < NFWD; i++)
			sigaddset(&block, forwarded[i]);
		sigaddset(&block, SIGTTOU); /* tcsetpgrp from a background group */
		sigprocmask(SIG_BLOCK, &block, NULL);
		struct sigaction fwd;
		memset(&fwd, 0, sizeof(fwd));
		fwd.sa_sigaction = forward;
		fwd.sa_flags = SA_SIGINFO | SA_RESTART;
		sigfillset(&fwd.sa_mask);
		for (size_t i = 0; i < NFWD; i++)
			sigaction(forwarded[i], &fwd, &saved[i]);
	}
	int fds[2], e = 0;
	if (pipe2(fds, O_CLOEXEC) != 0) {
		e = errno;
		sigprocmask(SIG_SETMASK, &p->old_mask, NULL);
		errno = e;
		return -1;
	}
	fflush(NULL); /* nothing buffered is written twice */
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
		if (p->tty >= 0 && tcgetpgrp(p->tty) == pid)
			take_tty(p->tty); /* the child had taken it before its exec failed */
		pid = e ? -1 : 0;
	}
	if (pid > 0) {
		p->pid = pid;
		if (p->signals == XL_SIGNALS_FORWARD) {
			setpgid(pid, pid);
			if (p->tty >= 0)
				tcsetpgrp(p->tty, pid);
			job_tty = p->tty;
			job_pgid = pid;
		}
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
	int job = p->signals == XL_SIGNALS_FORWARD;
	int flags = (nohang ? WNOHANG : 0) | (job ? WUNTRACED : 0);
	for (;;) {
		if (p->ended_hook) {
			/* Look first (WNOWAIT), reap below: the same event. */
			siginfo_t si;
			si.si_pid = 0;
			if (waitid(P_PID, (id_t)p->pid, &si,
				   WEXITED | WNOWAIT | (nohang ? WNOHANG : 0) | (job ? WSTOPPED : 0)) != 0) {
				if (errno == EINTR)
					continue;
			} else if (si.si_pid == 0) {
				return 0; /* nohang: still running */
			} else if (si.si_code == CLD_EXITED || si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED) {
				p->ended_hook(p->pid, p->ended_arg);
			}
		}
		pid_t r = ru ? wait4(p->pid, status, flags, ru) : waitpid(p->pid, status, flags);
		if (r < 0 && errno == EINTR)
			continue;
		if (r > 0 && WIFSTOPPED(*status)) {
			int sig = WSTOPSIG(*status);
			if (sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU)
				mirror_stop(p, sig);
			continue; /* a plain SIGSTOP (a debugger) is not exaloop's business */
		}
		if (r > 0)
			p->ended = 1;
		return r;
	}
}

void xl_process_end(struct xl_process *p)
{
	if (!p->started)
		return;
	p->started = 0;
	if (p->signals == XL_SIGNALS_FORWARD) {
		job_pgid = 0;
		job_tty = -1;
		if (p->tty >= 0) {
			if (p->ended && p->pid > 0 && tcgetpgrp(p->tty) == p->pid)
				take_tty(p->tty);
			close(p->tty);
			p->tty = -1;
		}
		restore_handlers();
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

int xl_process_lines(char *const argv[], int (*fn)(const char *line, void *arg), void *arg)
{
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) != 0)
		return -1;
	struct xl_process p = {.argv = argv, .stdio = XL_STDIO_QUIET, .out_fd = fds[1]};
	int started = xl_process_start(&p);
	int e = errno;
	close(fds[1]);
	struct strbuf line;
	strbuf_init(&line);
	int stop = started != 0;
	if (started == 0) {
		/* Read to the end, past a stop: the child may write more than a
		 * pipe holds. */
		char buf[4096];
		ssize_t n;
		while ((n = read(fds[0], buf, sizeof(buf))) != 0) {
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				break;
			for (char *at = buf, *end = buf + n; at < end && !stop;) {
				char *nl = memchr(at, '\n', (size_t)(end - at));
				strbuf_add(&line, at, (size_t)((nl ? nl : end) - at));
				if (!nl)
					break;
				stop = fn(line.buf, arg) != 0;
				line.len = 0;
				line.buf[0] = 0;
				at = nl + 1;
			}
		}
		if (!stop && line.len)
			fn(line.buf, arg); /* a last line without its newline */
	}
	strbuf_release(&line);
	close(fds[0]);
	if (started != 0) {
		xl_process_end(&p);
		errno = e;
		return -1;
	}
	int st = 0;
	pid_t r = xl_process_wait(&p, &st, NULL, 0);
	e = errno;
	xl_process_end(&p);
	if (r < 0) {
		errno = e;
		return -1;
	}
	return xl_exit_status(st);
}

struct first_line {
	char *out;
	size_t len;
};

static int take_first(const char *line, void *arg)
{
	struct first_line *f = arg;
	snprintf(f->out, f->len, "%s", line);
	return 1;
}

int xl_process_read_line(char *const argv[], char *out, size_t len)
{
	struct first_line f = {out, len};
	out[0] = 0;
	xl_process_lines(argv, take_first, &f);
	return out[0] ? 0 : -1;
}
