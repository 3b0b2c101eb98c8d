/*
 * sdk.c - find the profiling SDK (see sdk.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sdk.h"

#ifndef XL_SDK_RELDIR
#define XL_SDK_RELDIR "lib/exaloop/profiling"
#endif

int xl_self_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	char *slash = strrchr(buf, '/');
	if (!slash)
		return -1;
	*slash = 0;
	return 0;
}

int xl_sdk_find(struct xl_sdk *sdk, char *err, size_t errlen)
{
	memset(sdk, 0, sizeof(*sdk));
	char self[PATH_MAX];
	if (xl_self_dir(self, sizeof(self)) != 0) {
		snprintf(err, errlen, "cannot locate the exaloop executable (/proc/self/exe): %s", strerror(errno));
		return -1;
	}
	char dir[PATH_MAX + 64];
	snprintf(dir, sizeof(dir), "%s/../%s", self, XL_SDK_RELDIR);
	if (!realpath(dir, sdk->dir)) {
		snprintf(err, errlen,
			 "no profiling SDK found at '%s': build exaloop with CMake, or register one with "
			 "'exaloop plugin add profiling --path DIR'", dir);
		return -1;
	}
	snprintf(sdk->runtime, sizeof(sdk->runtime), "%s/libexaloop_rt.a", sdk->dir);
	if (access(sdk->runtime, R_OK) != 0) {
		snprintf(err, errlen, "profiling SDK '%s' has no runtime library (libexaloop_rt.a): rebuild exaloop",
			 sdk->dir);
		return -1;
	}
	return 0;
}
