/*
 * rt_apart.c - run a piece of the runtime's work on a short-lived thread
 * with a descriptor table of its own.
 *
 * Work that opens files (a thread's comm, /proc/self/maps, perf events)
 * takes descriptors while it runs.  On the program's descriptor table
 * those would be the lowest free numbers for a few microseconds, and a
 * program thread opening a file meanwhile would get the next one
 * (tests/progs/s-lowfd.c: 5 such opens in 3 s).  So such work runs on a
 * thread whose table is its own and empty: close_range(CLOSE_RANGE_UNSHARE)
 * over every descriptor copies none of the program's (Linux 5.9+), so it
 * holds none of the program's files either, not even for a moment.  The
 * thread blocks every signal and runs no instrumented code, like the
 * control thread; the caller waits for it.  Called by the control thread
 * and the finalizer, one at a time.
 *
 * The control thread makes its own table once, at its start
 * (rt__fds_own): work it asks for then runs inline, with no thread made.
 * A short-lived thread is itself something the program can see (in
 * /proc/self/task, tests/e2e/t1300), and the sampler's work (a perf event
 * for each new thread, the mappings) comes at every step while threads
 * start.  The finalizer on a program thread still uses a thread apart.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_internal.h"

#ifndef CLOSE_RANGE_UNSHARE
#define CLOSE_RANGE_UNSHARE (1u << 1)
#endif

struct apart {
	void (*fn)(void *);
	void *arg;
	int err; /* 0: fn ran */
};

/* 1 on a thread whose descriptor table is its own (rt__fds_own). */
static __thread int own_table __attribute__((tls_model("local-exec")));

int rt__fds_own(void)
{
	if (syscall(SYS_close_range, 0u, ~0u, CLOSE_RANGE_UNSHARE) != 0)
		return errno ? errno : ENOSYS;
	own_table = 1;
	return 0;
}

static void *apart_main(void *p)
{
	struct apart *a = p;
	if (syscall(SYS_close_range, 0u, ~0u, CLOSE_RANGE_UNSHARE) != 0) {
		a->err = errno ? errno : ENOSYS;
		return NULL;
	}
	a->err = 0;
	a->fn(a->arg);
	return NULL;
}

int rt__run_apart(void (*fn)(void *), void *arg)
{
	if (own_table) {
		fn(arg);
		return 0;
	}
	struct apart a = {fn, arg, EAGAIN};
	pthread_t t;
	pthread_attr_t attr;
	sigset_t all, old;
	if (pthread_attr_init(&attr) != 0)
		return EAGAIN;
	pthread_attr_setstacksize(&attr, 64u << 10); /* the work keeps its buffers static */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int rc = pthread_create(&t, &attr, apart_main, &a);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (rc != 0)
		return rc;
	pthread_join(t, NULL);
	return a.err;
}
