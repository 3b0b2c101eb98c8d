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

#include "process.h"
#include "strbuf.h"
#include "xl_array.h"

/* What XL_SIGNALS_FORWARD (and the pool) passes on.  Not SIGTTIN/SIGTTOU:
 * the kernel sends those to exaloop itself when it touches the terminal
 * from the background, and a caught SIGTTOU would restart the write
 * forever. */
static const int forwarded[] = {SIGHUP,  SIGINT,  SIGQUIT,  SIGTERM, SIGUSR1,
				SIGUSR2, SIGALRM, SIGWINCH, SIGCONT, SIGTSTP};
#define NFWD XL_ARRAY_SIZE(forwarded)

static struct sigaction saved[NFWD]; /* exaloop's own dispositions */
/* The process groups signals are passed on to: the one FORWARD child's,
 * or a pool's (0: a free slot).  Changed only while the forwarded signals
 * are blocked, so the handler sees them whole. */
static pid_t *volatile job_groups;
static volatile sig_atomic_t job_ngroups;
static pid_t single_group;
static volatile sig_atomic_t job_tty = -1;
/* The first terminating signal passed on (a pool starts no program after it). */
static volatile sig_atomic_t job_stop;

static int terminates(int sig)
{
	return sig == SIGHUP || sig == SIGINT || sig == SIGQUIT || sig == SIGTERM;
}

/* Did one of the children's groups (or exaloop itself) send this?  Then
 * it is not for them.  Kernel-generated signals (si_code > 0: a terminal
 * hangup to a session leader, a timer) are passed on. */
static int from_job(const siginfo_t *si, pid_t *g, size_t n)
{
	if (si->si_code > 0)
		return 0;
	if (si->si_pid == getpid())
		return 1;
	pid_t from = si->si_pid > 0 ? getpgid(si->si_pid) : -1;
	for (size_t i = 0; from > 0 && i < n; i++)
		if (g[i] == from)
			return 1;
	return 0;
}

static void forward(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	int e = errno;
	pid_t *g = job_groups;
	size_t n = (size_t)job_ngroups;
	if (n && !from_job(si, g, n)) {
		/* `fg` after a stop: the child gets the terminal before it runs. */
		if (sig == SIGCONT && job_tty >= 0 && tcgetpgrp(job_tty) == getpgrp())
			tcsetpgrp(job_tty, g[0]);
		if (terminates(sig) && !job_stop)
			job_stop = sig;
		for (size_t i = 0; i < n; i++)
			if (g[i] > 0)
				kill(-g[i], sig);
	}
	errno = e;
}

static void block_forwarded(sigset_t *old)
{
	sigset_t block;
	sigemptyset(&block);
	for (size_t i = 0; i < NFWD; i++)
		sigaddset(&block, forwarded[i]);
	sigaddset(&block, SIGTTOU); /* tcsetpgrp from a background group */
	sigprocmask(SIG_BLOCK, &block, old);
}

/* The handlers go in while the signals are blocked (the caller unblocks
 * them once the groups are known), so nothing is lost around a fork. */
static void install_handlers(void)
{
	block_forwarded(NULL);
	struct sigaction fwd;
	memset(&fwd, 0, sizeof(fwd));
	fwd.sa_sigaction = forward;
	fwd.sa_flags = SA_SIGINFO | SA_RESTART;
	sigfillset(&fwd.sa_mask);
	job_stop = 0;
	for (size_t i = 0; i < NFWD; i++)
		sigaction(forwarded[i], &fwd, &saved[i]);
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
 * errno goes up errfd and the child exits as a shell would (127: not
 * found, 126: found but not runnable; exitcode.h has the same). */
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
	_exit(e == ENOENT ? 127 : 126);
}

/* Fork and exec p (its old_mask and tty set; under FORWARD with the
 * forwarded signals blocked).  Returns the child's pid (under FORWARD the
 * leader of a group of its own), 0 for a detached program on its way, or
 * -1 with errno: fork failed, or the exec did (the child is reaped). */
static pid_t spawn(struct xl_process *p)
{
	int fds[2], e = 0;
	if (pipe2(fds, O_CLOEXEC) != 0)
		return -1;
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
	if (pid > 0 && p->signals == XL_SIGNALS_FORWARD)
		setpgid(pid, pid); /* (the child does too: kill(-pid) must find the group at once) */
	errno = e;
	return pid;
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
		/* Blocked until job_groups names the child's group, so a signal
		 * arriving around the fork is forwarded, not lost. */
		install_handlers();
	}
	pid_t pid = spawn(p);
	int e = errno;
	if (pid > 0) {
		p->pid = pid;
		if (p->signals == XL_SIGNALS_FORWARD) {
			if (p->tty >= 0)
				tcsetpgrp(p->tty, pid);
			job_tty = p->tty;
			single_group = pid;
			job_groups = &single_group;
			job_ngroups = 1;
		}
	}
	sigprocmask(SIG_SETMASK, &p->old_mask, NULL);
	if (pid < 0) {
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
		job_ngroups = 0; /* first: the handler reads job_groups, then the count */
		job_groups = NULL;
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

/* One program of a pool. */
struct pool_slot {
	pid_t pid; /* 0: free */
	void *task;
};

/* Start the pool's next program in a free slot.  1 when one started, 0
 * when there is none left, -1 with errno when it could not start. */
static int pool_start(const struct xl_pool *pool, struct pool_slot *slots, pid_t *groups, size_t nslots,
		      const sigset_t *child_mask)
{
	struct xl_process p;
	memset(&p, 0, sizeof(p));
	void *task = NULL;
	if (!pool->next(pool->arg, &p, &task))
		return 0;
	size_t k = 0;
	while (slots[k].pid)
		k++; /* (the caller made sure one is free) */
	/* The pool's policy, whatever the request said: a group of its own,
	 * exaloop's own dispositions and mask back, no terminal. */
	p.signals = XL_SIGNALS_FORWARD;
	p.tty = -1;
	p.old_mask = *child_mask;
	sigset_t old;
	block_forwarded(&old);
	pid_t pid = spawn(&p);
	int e = errno;
	if (pid > 0) {
		slots[k].pid = pid;
		slots[k].task = task;
		groups[k] = pid;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid > 0)
		return 1;
	pool->done(pool->arg, task, -1);
	errno = pid < 0 ? e : ECHILD;
	return -1;
}

/* Reap the pool's programs that ended, calling done() for each.  A
 * program stopped by job control stops exaloop too (as under FORWARD).
 * Returns how many ended; *result takes the first nonzero done() value. */
static size_t pool_reap(const struct xl_pool *pool, struct pool_slot *slots, pid_t *groups, size_t nslots, int *result)
{
	size_t ended = 0;
	for (size_t k = 0; k < nslots; k++) {
		if (!slots[k].pid)
			continue;
		int st;
		sigset_t old;
		block_forwarded(&old); /* the group goes with its last member: never signal a reused one */
		pid_t r = waitpid(slots[k].pid, &st, WNOHANG | WUNTRACED);
		int gone = r == slots[k].pid && !WIFSTOPPED(st);
		if (gone)
			groups[k] = 0;
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (r == slots[k].pid && WIFSTOPPED(st)) {
			int sig = WSTOPSIG(st);
			struct xl_process stopped = {.pid = slots[k].pid, .tty = -1};
			if (sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU)
				mirror_stop(&stopped, sig);
			continue;
		}
		if (!gone && !(r < 0 && errno == ECHILD))
			continue;
		/* (ECHILD: someone else reaped it; it ended, how is unknown) */
		void *task = slots[k].task;
		slots[k].pid = 0;
		groups[k] = 0;
		ended++;
		int rc = pool->done(pool->arg, task, gone ? xl_exit_status(st) : 1);
		if (rc && !*result)
			*result = rc;
	}
	return ended;
}

int xl_process_pool(const struct xl_pool *pool)
{
	size_t nslots = pool->parallel > 0 ? (size_t)pool->parallel : 1;
	struct pool_slot *slots = calloc(nslots, sizeof(*slots));
	pid_t *groups = calloc(nslots, sizeof(*groups));
	if (!slots || !groups) {
		free(slots);
		free(groups);
		errno = ENOMEM;
		return -1;
	}
	/* SIGCHLD stays blocked while the pool runs: sigwaitinfo() below takes
	 * it, so a program that ends between the reap and the wait is not
	 * missed.  The programs get the mask as it was. */
	sigset_t child_mask, chld;
	sigprocmask(SIG_SETMASK, NULL, &child_mask);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	install_handlers();
	job_groups = groups;
	job_ngroups = (sig_atomic_t)nslots;
	sigset_t running = child_mask;
	sigaddset(&running, SIGCHLD);
	sigprocmask(SIG_SETMASK, &running, NULL);

	int result = 0, err = 0, more = 1;
	size_t active = 0;
	for (;;) {
		while (more && !result && !job_stop && active < nslots) {
			int got = pool_start(pool, slots, groups, nslots, &child_mask);
			if (got < 0) {
				err = errno;
				result = -1;
			}
			more = got > 0;
			active += got > 0;
		}
		if (!active)
			break;
		size_t ended = pool_reap(pool, slots, groups, nslots, &result);
		active -= ended;
		if (!ended) {
			/* Until a program ends; a forwarded signal's handler also
			 * ends the wait (EINTR), which is just another look. */
			siginfo_t si;
			sigwaitinfo(&chld, &si);
		}
	}
	/* Interrupted after the last program ended, or before the rest
	 * started: the pool stops all the same. */
	if (job_stop && !result)
		result = 128 + job_stop;
	job_ngroups = 0;
	job_groups = NULL;
	restore_handlers();
	sigprocmask(SIG_SETMASK, &child_mask, NULL);
	free(slots);
	free(groups);
	if (result == -1)
		errno = err;
	return result;
}
