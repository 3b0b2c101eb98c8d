/*
 * rt_capture_env.h - for unit tests that drive the real runtime (src/rt).
 *
 * The runtime starts a capture from its constructor, and only when the
 * capture environment names the process itself.  A test therefore
 * re-executes itself once with that environment set: call
 * xl_test_captured(argv, ...) first thing in main().  In the first run it
 * makes a fresh capture directory from `tmpl` (a mkdtemp template) and
 * execs; it returns only on failure (1).  In the re-executed run it copies
 * the capture directory into `dir` and returns 0.
 */
#ifndef RT_CAPTURE_ENV_H
#define RT_CAPTURE_ENV_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "exaloop/xl_capture.h"

/* buffer: the capture buffer size in bytes as text, or NULL for the default */
static inline int xl_test_captured(char **argv, const char *tmpl, const char *buffer, char *dir, size_t len)
{
	const char *set = getenv(XL_ENV_DIR);
	if (set) {
		snprintf(dir, len, "%s", set);
		return 0;
	}
	snprintf(dir, len, "%s", tmpl);
	if (!mkdtemp(dir))
		return 1;
	char pid[32];
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	setenv(XL_ENV_DIR, dir, 1);
	setenv(XL_ENV_PID, pid, 1);
	setenv(XL_ENV_MODE, "xray", 1);
	if (buffer)
		setenv(XL_ENV_BUFFER, buffer, 1);
	execv("/proc/self/exe", argv);
	perror("execv");
	return 1;
}

#endif
