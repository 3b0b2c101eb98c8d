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
#include <sys/types.h>

#include "symbols.h"

/* How a capture times calls: a clock read at each entry and exit, or
 * counts only, with times from the position samples (--timing). */
enum {
	XL_TIMING_EXACT = 1,
	XL_TIMING_SAMPLED = 2
};

struct xl_session {
	const char *exe;         /* executable to run */
	const char *const *args; /* program arguments, NULL-terminated */
	int capture;             /* 0: run without capture */
	uint32_t mode;           /* XL_MODE_* */
	uint64_t buffer_size, interval_ns, delay_ns, duration_ns;
	uint32_t tl_mode;               /* XL_TL_*; 0 = the runtime's default (auto) */
	uint64_t tl_min_ns;             /* fixed timeline threshold, 0: none */
	uint32_t sample_rate;           /* samples per second and thread, 0: none */
	uint32_t timing;                /* XL_TIMING_EXACT or XL_TIMING_SAMPLED */
	int no_source;                  /* --no-source: no source text in the capture */
	const char *const *include;     /* glob patterns, NULL-terminated (or NULL) */
	const struct xl_symtab *symtab; /* functions of exe (copied into the capture) */
	const char *program;            /* what the user profiled (source or exe) */
	const char *const *command;     /* exaloop's own argv, NULL-terminated */
	int64_t compile_ns;             /* -1 when exaloop did not compile */
	int no_open;
	int long_running;                 /* write the report when the window closes */
	const char *profiles_dir;         /* default "profiles" */
	const char *const *untraced_libs; /* shared libraries not traced (run.json), or NULL */
	int64_t attached_at_ns;           /* profile attach: the process's age then; else -1 (or 0: unset) */
	int quiet; /* the caller sums up (pgo evaluate's captures): the program's stdout and stderr
		      discarded, no notes on how it ended or where the report is; warnings and errors stay */
};

int xl_session_run(const struct xl_session *s);

/* `profile attach`: capture from process pid, already running an
 * executable exaloop built (s->exe), by calling its runtime's entry point
 * at `entry` (its address in the process) through ptrace; the thread is
 * stopped only where it runs the executable's own code, [text_lo,
 * text_hi), or waits in a system call.  Waits for the window to close (or
 * the process to end), then writes the report.  Returns an exit code. */
int xl_session_attach(const struct xl_session *s, pid_t pid, uint64_t entry, uint64_t text_lo, uint64_t text_hi);

#endif
