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

/* The list's arguments into argv (NULL-terminated): 0, or -1 when there
 * are more than RT_EXEC_MAX_ARGS. */
static RT_NOINSTR int collect(char **argv, const char *arg, va_list *ap)
{
	argv[0] = (char *)arg;
	for (size_t i = 1; argv[i - 1]; i++) {
		if (i == RT_EXEC_MAX_ARGS)
			return -1;
		argv[i] = va_arg(*ap, char *);
	}
	return 0;
}

RT_WRAP int __wrap_execl(const char *path, const char *arg, ...)
{
	char *argv[RT_EXEC_MAX_ARGS];
	va_list ap;
	va_start(ap, arg);
	int ok = collect(argv, arg, &ap);
	va_end(ap);
	if (ok != 0) {
		errno = E2BIG;
		return -1;
	}
	return __wrap_execv(path, argv);
}

RT_WRAP int __wrap_execlp(const char *file, const char *arg, ...)
{
	char *argv[RT_EXEC_MAX_ARGS];
	va_list ap;
	va_start(ap, arg);
	int ok = collect(argv, arg, &ap);
	va_end(ap);
	if (ok != 0) {
		errno = E2BIG;
		return -1;
	}
	return __wrap_execvp(file, argv);
}

RT_WRAP int __wrap_execle(const char *path, const char *arg, ...)
{
	char *argv[RT_EXEC_MAX_ARGS];
	va_list ap;
	va_start(ap, arg);
	int ok = collect(argv, arg, &ap);
	char *const *envp = ok == 0 ? va_arg(ap, char *const *) : NULL;
	va_end(ap);
	if (ok != 0) {
		errno = E2BIG;
		return -1;
	}
	return __wrap_execve(path, argv, envp);
}
