/*
 * rt_wrap_ns.c - unshare and setns, wrapped at link time like the exec
 * functions (libexaloop_alloc.a; exaloop's link adds
 * -Wl,--wrap=unshare,--wrap=setns so that the program's calls reach
 * __wrap_X and __real_X is libc's X).
 *
 * The kernel refuses some of these calls in a process with more than one
 * thread (EINVAL): entering a new user namespace (unshare or setns), and
 * setns into a mount namespace, which needs the filesystem context
 * unshared.  exaloop's control thread runs from before main, so a program
 * that is single-threaded without exaloop (a sandbox, a container
 * runtime's set-up) would fail under capture.  For those calls the
 * control thread is stopped around the real call and started again
 * after it (rt__control_pause): the memory samples and sample rounds due
 * meanwhile are taken late, nothing else changes.  errno is the real
 * call's.  Calls made by raw syscall() are not seen.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>

#include "rt_internal.h"

int __real_unshare(int flags);
int __real_setns(int fd, int nstype);
int __wrap_unshare(int flags);
int __wrap_setns(int fd, int nstype);

#define RT_WRAP __attribute__((visibility("default"))) RT_NOINSTR

/* The flags of unshare(2) that need the process to be one thread. */
#define ALONE_UNSHARE (CLONE_NEWUSER | CLONE_THREAD | CLONE_SIGHAND | CLONE_VM)

RT_WRAP int __wrap_unshare(int flags)
{
	if (!(flags & ALONE_UNSHARE))
		return __real_unshare(flags);
	int paused = rt__control_pause();
	int rc = __real_unshare(flags);
	int err = errno;
	rt__control_resume(paused);
	errno = err;
	return rc;
}

/* nstype 0 takes any namespace the descriptor names: a user or mount one
 * among them. */
RT_WRAP int __wrap_setns(int fd, int nstype)
{
	if (nstype != 0 && !(nstype & (CLONE_NEWUSER | CLONE_NEWNS)))
		return __real_setns(fd, nstype);
	int paused = rt__control_pause();
	int rc = __real_setns(fd, nstype);
	int err = errno;
	rt__control_resume(paused);
	errno = err;
	return rc;
}
