/*
 * exitcode.h - exaloop's exit codes (documented in docs/cli.md).
 *
 * `run` and `profile exec` exit with the program's own status (128+N when
 * signal N killed it); the codes from 125 up are the ones a program is
 * least likely to use, as env(1), timeout(1) and git bisect do.
 */
#ifndef XL_EXITCODE_H
#define XL_EXITCODE_H

enum {
	XL_EXIT_OK = 0,
	XL_EXIT_FAIL = 1,       /* an operation failed (I/O, report) */
	XL_EXIT_USAGE = 2,      /* bad command line or configuration */
	XL_EXIT_CAPTURE = 3,    /* capture missing, corrupt or too new */
	XL_EXIT_DOCTOR = 4,     /* doctor found a blocker */
	XL_EXIT_BUILD = 125,    /* compile/link failed, toolchain missing */
	XL_EXIT_NOEXEC = 126,   /* program found but could not be run */
	XL_EXIT_NOTFOUND = 127, /* program not found */
};

#include "xl_errors.h"

/* The exit code for a library's error (xl_errors.h) about an input the user
 * named: running out of memory is a failed operation; anything else means
 * the input is missing or bad, which is bad_input (XL_EXIT_CAPTURE for a
 * capture, XL_EXIT_USAGE for a sidecar or an argument). */
static inline int xl_exit_for(int err, int bad_input)
{
	return err == XL_OK ? XL_EXIT_OK : err == XL_ENOMEM ? XL_EXIT_FAIL : bad_input;
}

/* The exit code for a build step's error (src/driver): a failed compile,
 * link or build command, or a missing tool, is XL_EXIT_BUILD; interrupted
 * by signal N (the step's `signal`), 128+N, as the compiler would have
 * exited; a command that could not be started, 127 or 126 as in a shell; a
 * bad argument (an unreadable PGO profile) XL_EXIT_USAGE; running out of
 * memory or failing to write a file XL_EXIT_FAIL. */
static inline int xl_exit_for_build(int err, int signal)
{
	switch (err) {
	case XL_OK: return XL_EXIT_OK;
	case XL_EINTR: return 128 + signal;
	case XL_ENOTFOUND: return XL_EXIT_NOTFOUND;
	case XL_ENOEXEC: return XL_EXIT_NOEXEC;
	case XL_EINVAL: return XL_EXIT_USAGE;
	case XL_ENOMEM:
	case XL_EIO: return XL_EXIT_FAIL;
	default: return XL_EXIT_BUILD;
	}
}

#endif
