/*
 * rt_wrap_exec.c - the exec functions, wrapped at link time like the
 * allocator's (libexaloop_alloc.a; exaloop's link adds -Wl,--wrap=execv,...
 * so that the program's calls reach __wrap_X and __real_X is libc's X).
 *
 * A forked child of a captured run that execs another program leaves no
 * trace of it otherwise: the new image has no runtime of the run (or an
 * inert one), and a child that ran no traced code before has no capture.
 * Each wrapper has the runtime note the program first
 * (rt__child_exec_note: child-<pid>/exec.txt, forked children only), then
 * calls the real function, which returns only when the exec failed: the
 * note is then taken back.  errno is the real function's.  Only the
 * program's own calls are seen: libc's system() and popen() exec through
 * their own internal calls.
 *
 * The list forms (execl, execlp, execle) pass their arguments on as an
 * array of at most RT_EXEC_MAX_ARGS, as libc's own do; more is E2BIG.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>

#include "rt_internal.h"

#define RT_EXEC_MAX_ARGS 4096

int __real_execve(const char *path, char *const argv[], char *const envp[]);
int __real_execv(const char *path, char *const argv[]);
int __real_execvp(const char *file, char *const argv[]);
int __real_execvpe(const char *file, char *const argv[], char *const envp[]);
int __wrap_execve(const char *path, char *const argv[], char *const envp[]);
int __wrap_execv(const char *path, char *const argv[]);
int __wrap_execvp(const char *file, char *const argv[]);
int __wrap_execvpe(const char *file, char *const argv[], char *const envp[]);
int __wrap_execl(const char *path, const char *arg, ...);
int __wrap_execlp(const char *file, const char *arg, ...);
int __wrap_execle(const char *path, const char *arg, ...);

#define RT_WRAP __attribute__((visibility("default"))) RT_NOINSTR

RT_WRAP int __wrap_execve(const char *path, char *const argv[], char *const envp[])
{
	int made = rt__child_exec_note(path, argv);
	int rc = __real_execve(path, argv, envp);
	rt__child_exec_failed(made);
	return rc;
}

RT_WRAP int __wrap_execv(const char *path, char *const argv[])
{
	int made = rt__child_exec_note(path, argv);
	int rc = __real_execv(path, argv);
	rt__child_exec_failed(made);
	return rc;
}

RT_WRAP int __wrap_execvp(const char *file, char *const argv[])
{
	int made = rt__child_exec_note(file, argv);
	int rc = __real_execvp(file, argv);
	rt__child_exec_failed(made);
	return rc;
}

RT_WRAP int __wrap_execvpe(const char *file, char *const argv[], char *const envp[])
{
	int made = rt__child_exec_note(file, argv);
	int rc = __real_execvpe(file, argv, envp);
	rt__child_exec_failed(made);
	return rc;
}

/* The list forms count their arguments first and take an array of just
 * that size (as glibc's own execl does): a fixed RT_EXEC_MAX_ARGS array was
 * 32 KiB of stack, which a thread with a small stack (or a crash handler on
 * a SIGSTKSZ alternate stack) calling execl did not have.  The arguments up
 * to the terminating NULL, arg included; more than RT_EXEC_MAX_ARGS stops
 * there (E2BIG). */
static RT_NOINSTR size_t count_args(const char *arg, va_list *ap)
{
	size_t n = 0;
	for (const char *a = arg; a && n <= RT_EXEC_MAX_ARGS; a = va_arg(*ap, const char *))
		n++;
	return n;
}

/* The n arguments into argv[0..n), NULL at argv[n]; the list's NULL is
 * read too (execle's envp follows it). */
static RT_NOINSTR void fill_args(char **argv, size_t n, const char *arg, va_list *ap)
{
	argv[0] = (char *)arg;
	for (size_t i = 1; i <= n; i++)
		argv[i] = va_arg(*ap, char *);
	argv[n] = NULL;
}

#define RT_EXEC_LIST(argv, arg, ap)           \
	va_list ap, count_;                   \
	va_start(ap, arg);                    \
	va_copy(count_, ap);                  \
	size_t n_ = count_args(arg, &count_); \
	va_end(count_);                       \
	if (n_ > RT_EXEC_MAX_ARGS) {          \
		va_end(ap);                   \
		errno = E2BIG;                \
		return -1;                    \
	}                                     \
	char *argv[n_ + 1];                   \
	fill_args(argv, n_, arg, &ap)

RT_WRAP int __wrap_execl(const char *path, const char *arg, ...)
{
	RT_EXEC_LIST(argv, arg, ap);
	va_end(ap);
	return __wrap_execv(path, argv);
}

RT_WRAP int __wrap_execlp(const char *file, const char *arg, ...)
{
	RT_EXEC_LIST(argv, arg, ap);
	va_end(ap);
	return __wrap_execvp(file, argv);
}

RT_WRAP int __wrap_execle(const char *path, const char *arg, ...)
{
	RT_EXEC_LIST(argv, arg, ap);
	char *const *envp = va_arg(ap, char *const *);
	va_end(ap);
	return __wrap_execve(path, argv, envp);
}
