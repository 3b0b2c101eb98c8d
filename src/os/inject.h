/*
 * inject.h - make a running process call one of its own functions
 * (Linux ptrace, x86-64).
 *
 *	struct xl_inject_call c = {.pid = pid, .func = addr, .data = blob, .len = n,
 *	                           .safe_lo = text_start, .safe_hi = text_end};
 *	char err[256];
 *	if (xl_inject_call(&c, err, sizeof(err)) != 0) ...   // err: one line
 *	c.result                                             // the function's int
 *
 * The process's main thread (tid = pid) is seized and interrupted until it
 * stops at a safe point: blocked in a system call that holds no library
 * lock (sleeping, polling, reading, waiting on a futex), or running code
 * in [safe_lo, safe_hi) (the executable's own text, which is inside no
 * libc function).  There `len` bytes of `data` are copied below its stack
 * pointer (past the red zone) and it calls func(copy, len) with a return
 * address of 0; the fault of that return stops it again, its registers
 * are put back as they were (a system call it was blocked in restarts as
 * after a signal), and it is let go.  Its other threads run on all along.
 * Signals that arrive for the thread meanwhile are delivered to it as
 * usual (a handler runs inside the call).
 *
 * Ownership: nothing is kept; the caller's buffers are only read.  Not
 * thread-safe (waitpid on the traced thread).  Never prints.
 */
#ifndef XL_INJECT_H
#define XL_INJECT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct xl_inject_call {
	pid_t pid;
	uint64_t func;             /* address of int func(const char *, unsigned long) */
	const void *data;          /* copied onto the thread's stack */
	size_t len;                /* at most 64 KiB */
	uint64_t safe_lo, safe_hi; /* code where the thread may be stopped */
	int timeout_ms;            /* to find a safe point (default 3000) */
	int result;                /* out: the function's return value */
};

/* The reasons a call fails, for the caller's exit code and hint. */
enum xl_inject_error {
	XL_INJECT_NO_PROCESS = 1, /* no such process, or it ended meanwhile */
	XL_INJECT_DENIED,         /* ptrace not permitted */
	XL_INJECT_NO_SAFE_POINT,  /* never stopped at a safe point in time */
	XL_INJECT_UNSUPPORTED,    /* not x86-64 */
	XL_INJECT_FAILED,         /* anything else (err says what) */
	XL_INJECT_STOPPED,        /* stopped by job control (SIGSTOP, SIGTSTP, ...) */
};

/* 0, or an xl_inject_error with a one-line message in err.  The process is
 * always let go (or gone) when this returns. */
int xl_inject_call(struct xl_inject_call *c, char *err, size_t errlen);

#endif
