/*
 * inject.c - make a running process call one of its functions (inject.h).
 *
 * How a call is made, and why each step is as it is:
 *  - PTRACE_SEIZE, then PTRACE_INTERRUPT: the thread stops without a
 *    signal being queued for it (PTRACE_ATTACH sends SIGSTOP, which the
 *    program could see), and only the main thread is traced.
 *  - A safe point.  The call runs code that may take libc's locks (malloc,
 *    pthread_create, the dynamic loader's): a thread stopped while holding
 *    one would wait for itself forever.  A thread blocked in one of the
 *    system calls below holds none of them (the wrappers take none around
 *    them), nor does a thread running the executable's own code.  Else the
 *    thread is let go for a millisecond and interrupted again.
 *  - The call's frame lies below the red zone (128 bytes the interrupted
 *    code may use below its stack pointer), 16-byte aligned as the ABI
 *    wants at a call, with 0 as the return address: the return faults,
 *    which stops the thread with SIGSEGV at address 0, where the result
 *    is read and the signal discarded.
 *  - orig_rax is set to -1 for the call, so the kernel does not take the
 *    call's registers for an interrupted system call to restart; putting
 *    the saved registers back afterwards (orig_rax and an -ERESTART* rax
 *    included) makes the kernel restart the system call the thread was
 *    blocked in, exactly as after a signal handler.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "inject.h"

static int fail(char *err, size_t n, int code, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t n, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, n, fmt, ap);
	va_end(ap);
	return code;
}

#if defined(__x86_64__)

/* The kernel's restart codes (not in the user-space headers). */
#define K_ERESTARTSYS 512
#define K_ERESTARTNOINTR 513
#define K_ERESTARTNOHAND 514
#define K_ERESTART_RESTARTBLOCK 516

#define RED_ZONE 128
#define MAX_DATA (64u << 10)

/* System calls a thread blocks in while holding no libc lock. */
static int safe_syscall(long nr)
{
	switch (nr) {
	case SYS_read:
	case SYS_readv:
	case SYS_pread64:
	case SYS_nanosleep:
	case SYS_clock_nanosleep:
	case SYS_select:
	case SYS_pselect6:
	case SYS_poll:
	case SYS_ppoll:
	case SYS_epoll_wait:
	case SYS_epoll_pwait:
	case SYS_accept:
	case SYS_accept4:
	case SYS_recvfrom:
	case SYS_recvmsg:
	case SYS_wait4:
	case SYS_waitid:
	case SYS_pause:
	case SYS_rt_sigsuspend:
	case SYS_rt_sigtimedwait:
	case SYS_futex: return 1;
	default: return 0;
	}
}

static int at_safe_point(const struct user_regs_struct *r, const struct xl_inject_call *c)
{
	if ((long long)r->orig_rax >= 0)
		return safe_syscall((long)r->orig_rax);
	return r->rip >= c->safe_lo && r->rip < c->safe_hi;
}

/* Wait for the traced thread's next stop: 0 stopped, -1 gone. */
static int wait_stop(pid_t pid, int *status)
{
	for (;;) {
		pid_t r = waitpid(pid, status, __WALL);
		if (r == pid)
			return WIFSTOPPED(*status) ? 0 : -1;
		if (r < 0 && errno != EINTR)
			return -1;
	}
}

static void nap_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
	nanosleep(&ts, NULL);
}

/* Let a stop that is not ours go on: a signal for the thread is
 * delivered, a group stop or an interrupt is simply continued. */
static void pass_on(pid_t pid, int status)
{
	int sig = status >> 16 ? 0 : WSTOPSIG(status);
	ptrace(PTRACE_CONT, pid, 0, (void *)(long)sig);
}

/* Interrupt until the thread stops at a safe point; its registers in r. */
static int stop_safely(struct xl_inject_call *c, struct user_regs_struct *r, char *err, size_t n)
{
	int timeout = c->timeout_ms > 0 ? c->timeout_ms : 3000;
	for (int waited = 0;; waited++) {
		if (ptrace(PTRACE_INTERRUPT, c->pid, 0, 0) != 0)
			return fail(err, n, XL_INJECT_NO_PROCESS, "process %d ended", (int)c->pid);
		int status;
		for (;;) {
			if (wait_stop(c->pid, &status) != 0)
				return fail(err, n, XL_INJECT_NO_PROCESS, "process %d ended", (int)c->pid);
			/* Under PTRACE_SEIZE our interrupt's stop says SIGTRAP; a
			 * group stop (the process stopped by SIGSTOP or a job-control
			 * signal) says its signal: a call made now would wait for
			 * SIGCONT, and so would the capture's window. */
			if (status >> 16 == PTRACE_EVENT_STOP && WSTOPSIG(status) != SIGTRAP)
				return fail(err, n, XL_INJECT_STOPPED,
					    "process %d is stopped (SIGSTOP, or a job-control stop): continue it "
					    "first (kill -CONT %d), then attach",
					    (int)c->pid, (int)c->pid);
			if (status >> 16 == PTRACE_EVENT_STOP)
				break;
			pass_on(c->pid, status); /* a signal on its way: deliver it, wait for the interrupt */
		}
		if (ptrace(PTRACE_GETREGS, c->pid, 0, r) != 0)
			return fail(err, n, XL_INJECT_FAILED, "cannot read the registers of process %d: %s",
				    (int)c->pid, strerror(errno));
		if (at_safe_point(r, c))
			return 0;
		if (waited >= timeout)
			return fail(err, n, XL_INJECT_NO_SAFE_POINT,
				    "process %d did not stop outside the C library within %d ms (it may be inside "
				    "a long library call); try again",
				    (int)c->pid, timeout);
		ptrace(PTRACE_CONT, c->pid, 0, 0);
		nap_ms(1);
	}
}

static int put_bytes(pid_t pid, uint64_t at, const void *data, size_t len)
{
	struct iovec local = {(void *)(uintptr_t)data, len};
	struct iovec remote = {(void *)(uintptr_t)at, len};
	return process_vm_writev(pid, &local, 1, &remote, 1, 0) == (ssize_t)len ? 0 : -1;
}

/* The call itself, from a safe stop with registers `saved`. */
static int call(struct xl_inject_call *c, const struct user_regs_struct *saved, char *err, size_t n)
{
	struct user_regs_struct r = *saved;
	uint64_t sp = (saved->rsp - RED_ZONE - 64) & ~(uint64_t)15;
	sp -= ((uint64_t)c->len + 15) & ~(uint64_t)15;
	uint64_t data_at = sp;
	uint64_t zero = 0;
	sp -= 8; /* the return address: at entry sp % 16 == 8, as after a call */
	if (put_bytes(c->pid, data_at, c->data, c->len) != 0 || put_bytes(c->pid, sp, &zero, 8) != 0)
		return fail(err, n, XL_INJECT_FAILED, "cannot write to the stack of process %d: %s", (int)c->pid,
			    strerror(errno));
	r.rsp = sp;
	r.rip = c->func;
	r.rdi = data_at;
	r.rsi = c->len;
	r.rax = 0;
	r.orig_rax = (unsigned long long)-1;
	if (ptrace(PTRACE_SETREGS, c->pid, 0, &r) != 0 || ptrace(PTRACE_CONT, c->pid, 0, 0) != 0)
		return fail(err, n, XL_INJECT_FAILED, "cannot start the call in process %d: %s", (int)c->pid,
			    strerror(errno));
	for (;;) {
		int status;
		if (wait_stop(c->pid, &status) != 0)
			return fail(err, n, XL_INJECT_NO_PROCESS, "process %d ended during the call", (int)c->pid);
		if (status >> 16 == 0 && WSTOPSIG(status) == SIGSEGV) {
			if (ptrace(PTRACE_GETREGS, c->pid, 0, &r) != 0)
				return fail(err, n, XL_INJECT_FAILED, "cannot read the call's result: %s",
					    strerror(errno));
			if (r.rip == 0) {
				c->result = (int)r.rax;
				return 0;
			}
			return fail(err, n, XL_INJECT_FAILED, "the call faulted in process %d at %#llx", (int)c->pid,
				    (unsigned long long)r.rip);
		}
		pass_on(c->pid, status);
	}
}

int xl_inject_call(struct xl_inject_call *c, char *err, size_t n)
{
	if (c->len > MAX_DATA)
		return fail(err, n, XL_INJECT_FAILED, "%zu bytes to hand over: at most %u", c->len, MAX_DATA);
	if (ptrace(PTRACE_SEIZE, c->pid, 0, 0) != 0) {
		if (errno == ESRCH)
			return fail(err, n, XL_INJECT_NO_PROCESS, "no process %d", (int)c->pid);
		return fail(err, n, errno == EPERM ? XL_INJECT_DENIED : XL_INJECT_FAILED, "cannot trace process %d: %s",
			    (int)c->pid, strerror(errno));
	}
	struct user_regs_struct saved;
	int rc = stop_safely(c, &saved, err, n);
	if (rc == XL_INJECT_NO_PROCESS)
		return rc;
	if (rc == 0) {
		rc = call(c, &saved, err, n);
		if (rc == XL_INJECT_NO_PROCESS)
			return rc;
		/* Back as it was (a system call it was in restarts). */
		if (ptrace(PTRACE_SETREGS, c->pid, 0, &saved) != 0 && rc == 0)
			rc = fail(err, n, XL_INJECT_FAILED, "cannot restore the registers of process %d: %s",
				  (int)c->pid, strerror(errno));
	}
	ptrace(PTRACE_DETACH, c->pid, 0, 0);
	return rc;
}

#else

int xl_inject_call(struct xl_inject_call *c, char *err, size_t n)
{
	(void)c;
	return fail(err, n, XL_INJECT_UNSUPPORTED, "attaching is supported on x86-64 only");
}

#endif
