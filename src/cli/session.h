/*
 * session.h - running a program, with or without capture.
 *
 * Shared by `run` and `profile exec`.  The program keeps its own stdin,
 * stdout and stderr; exaloop's messages go to stderr.  The return value is
 * the exit code exaloop should use: the program's status (128+N when
 * signal N killed it), or one of exitcode.h's codes when exaloop itself
 * could not start the program.
 */
#ifndef XL_SESSION_H
#define XL_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "symbols.h"

struct xl_session {
	const char *exe;         /* executable to run */
	const char *const *args; /* program arguments, NULL-terminated */
	int capture;             /* 0: run without capture */
	uint32_t mode;           /* XL_MODE_* */
	uint64_t buffer_size, interval_ns, delay_ns, duration_ns;
	uint32_t tl_mode;               /* XL_TL_*; 0 = the runtime's default (auto) */
	uint64_t tl_min_ns;             /* fixed timeline threshold, 0: none */
	const char *const *include;     /* glob patterns, NULL-terminated (or NULL) */
	const struct xl_symtab *symtab; /* functions of exe (copied into the capture) */
	const char *program;            /* what the user profiled (source or exe) */
	const char *const *command;     /* exaloop's own argv, NULL-terminated */
	int64_t compile_ns;             /* -1 when exaloop did not compile */
	int no_open;
	int long_running;                 /* write the report when the window closes */
	const char *profiles_dir;         /* default "profiles" */
	const char *const *untraced_libs; /* shared libraries not traced (run.json), or NULL */
	int quiet; /* the caller sums up (pgo evaluate's captures): the program's stdout and stderr
		      discarded, no notes on how it ended or where the report is; warnings and errors stay */
};

int xl_session_run(const struct xl_session *s);

#endif
