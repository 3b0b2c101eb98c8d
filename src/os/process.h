/*
 * process.h - starting and waiting for other programs (the compiler, the
 * profiled program, the browser opener): one API, the signal and stdio
 * policies as parameters.  Every child process of exaloop starts here
 * (scripts/check-layers.py checks it), one at a time or as a pool run in
 * parallel (xl_process_pool: a build's compiles).
 *
 *	struct xl_process p = {.argv = argv, .signals = XL_SIGNALS_FORWARD};
 *	if (xl_process_start(&p) != 0)        // errno says why (ENOENT: not found)
 *		...;
 *	int status;
 *	xl_process_wait(&p, &status, NULL, 0);
 *	xl_process_end(&p);                   // always, after a start (restores signals)
 *
 * or xl_process_run() for all three.  Invariants:
 *  - XL_SIGNALS_FORWARD runs the child as a job of its own: its own
 *    process group (so that the signal reaches the clang driver's `-cc1`
 *    child too), made the terminal's foreground group when exaloop's
 *    group has the terminal.  A signal sent to exaloop or to exaloop's group
 *    is passed on once to the child's group (SIGHUP, SIGINT, SIGQUIT,
 *    SIGTERM, SIGUSR1/2, SIGALRM, SIGWINCH, SIGCONT, SIGTSTP), except what
 *    the child's group sent itself; the terminal's ^C, ^\ and ^Z reach the
 *    child's group directly.  Why: in exaloop's group, `kill -TERM -PGID`
 *    reached the program twice (directly and forwarded), and the clang
 *    driver's `-cc1` child not at all.  When the child stops on ^Z
 *    (SIGTSTP, SIGTTIN, SIGTTOU), wait takes the terminal back and stops
 *    exaloop the same way, so the shell sees the job stopped; the SIGCONT of
 *    `fg`/`bg` gives the child the terminal (when exaloop has it) and
 *    continues it.  end gives the terminal back to exaloop's group.  The
 *    handlers go in, blocked, before the fork, so nothing is lost around it.
 *    One such child at a time, and not while a pool runs.
 *  - The child gets exaloop's original dispositions of the forwarded
 *    signals back, and the original signal mask (an ignored or blocked
 *    signal would stay so across exec).
 *  - If the child cannot exec, its errno comes back to the parent (through
 *    a close-on-exec pipe): start fails with it and the child is reaped.
 *  - XL_STDIO_DETACHED starts the program in a new session with stdio on
 *    /dev/null as a grandchild: it is never exaloop's child, nobody waits
 *    for it, and start returns as soon as it is on its way.
 * Not thread-safe (process-wide signal dispositions).
 */
#ifndef XL_PROCESS_H
#define XL_PROCESS_H

#include <signal.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

enum xl_signal_policy {
	XL_SIGNALS_KEEP,    /* exaloop's dispositions stay as they are */
	XL_SIGNALS_FORWARD, /* a job of its own: own process group, terminal, signals passed on once */
};

enum xl_stdio_policy {
	XL_STDIO_INHERIT,  /* the child writes where exaloop writes */
	XL_STDIO_QUIET,    /* stdout and stderr to /dev/null */
	XL_STDIO_DETACHED, /* stdin, stdout, stderr on /dev/null; a new session, not our child */
};

struct xl_process {
	/* request */
	char *const *argv; /* NULL-terminated; argv[0] is searched in PATH unless it has a '/' */
	enum xl_signal_policy signals;
	enum xl_stdio_policy stdio;
	/* Runs in the child just before exec (e.g. the capture environment);
	 * async-signal-safe work only beyond setenv/unsetenv. */
	void (*setup)(void *arg);
	void *setup_arg;
	int out_fd; /* > 0: the child's stdout goes there (after stdio's policy) */
	/* Called by wait once the child has ended, before it is reaped: its
	 * /proc/PID entry (a zombie's: comm, stat) is still there and its pid
	 * cannot be reused meanwhile. */
	void (*ended_hook)(pid_t pid, void *arg);
	void *ended_arg;
	/* state */
	pid_t pid; /* the child, 0 when none */
	int started;
	int tty;   /* /dev/tty while the child has it (FORWARD), else -1 */
	int ended; /* the child was reaped */
	sigset_t old_mask;
};

/* Start p->argv.  0, or -1 with errno (fork failed, or the child's exec
 * failed: ENOENT when the program does not exist). */
int xl_process_start(struct xl_process *p);

/* waitpid/wait4 for the child, retried on EINTR (under FORWARD, its
 * job-control stops are mirrored, see above).  nohang: return 0 while
 * it runs.  Returns the pid when it ended (*status filled), 0 (nohang, still
 * running), or -1 with errno. */
pid_t xl_process_wait(struct xl_process *p, int *status, struct rusage *ru, int nohang);

/* Undo start's signal policy.  Safe to call twice. */
void xl_process_end(struct xl_process *p);

/* Start, wait, end: the exit status, 128+N when signal N ended it, or -1
 * with errno when it could not start. */
int xl_process_run(struct xl_process *p);

/* Run argv (signals kept, stderr discarded, as popen(3) with 2>/dev/null
 * would, but without a shell) and call fn with each line of its stdout,
 * without the newline, until fn returns nonzero (the rest is read and
 * dropped).  Returns the exit status (as xl_process_run), or -1 with errno
 * when it could not start. */
int xl_process_lines(char *const argv[], int (*fn)(const char *line, void *arg), void *arg);

/* The first line of argv's stdout (xl_process_lines) in out[len] (cut to
 * fit).  0 when it printed a nonempty line, -1 otherwise (out = ""). */
int xl_process_read_line(char *const argv[], char *out, size_t len);

/* A wait status as a shell shows it: the exit status, or 128+N. */
int xl_exit_status(int status);

/* A pool of programs run in parallel, at most `parallel` at a time (git's
 * run_processes_parallel): next() describes each program, done() hears how
 * it ended.  One signal policy, FORWARD's without the terminal: each
 * program is a process group of its own; the signals FORWARD passes on,
 * sent to exaloop from outside those groups, are passed on once to every
 * running program's group (exaloop keeps the terminal, so the terminal's
 * ^C and ^Z come to exaloop and go on from there); a program stopped by
 * job control stops exaloop too; each program gets exaloop's original
 * dispositions and signal mask.  After a terminating signal (SIGHUP,
 * SIGINT, SIGQUIT, SIGTERM) or a failure, no program starts; the running
 * ones are waited for.  The pool waits for its own programs only. */
struct xl_pool {
	int parallel; /* at most this many at a time (< 1: one) */
	/* Fill p's request (argv, stdio, setup, out_fd; its signal policy is
	 * the pool's) for the next program and set *task to anything the
	 * caller wants back in done(); argv may be freed once done() is
	 * called.  Returns 1, or 0 when there is none left. */
	int (*next)(void *arg, struct xl_process *p, void **task);
	/* The program of task ended with status (its exit status, 128+N when
	 * signal N ended it; -1 when it could not start, errno says why).
	 * Returns 0, or nonzero to start no more: the pool's result. */
	int (*done)(void *arg, void *task, int status);
	void *arg;
};

/* Run the pool until next() has no more and all have ended.  Returns 0; the
 * first nonzero done() result; 128+N when signal N interrupted it; or -1
 * with errno when a program could not be started. */
int xl_process_pool(const struct xl_pool *pool);

/* Search PATH for an executable.  Returns 0 and fills out. */
int xl_which(const char *name, char *out, size_t len);

#endif
