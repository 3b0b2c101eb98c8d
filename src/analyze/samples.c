/*
 * samples.c - what the samples of a capture (format 6) say: why line data
 * is unavailable when it is.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "analyze_internal.h"

static const char *errno_name(int e)
{
	const char *n = strerrorname_np(e);
	return n ? n : "unknown error";
}

int xl_samples_unavailable(const struct xl_model *m, char *buf, size_t len)
{
	int e = m->sample_errno;
	char hint[160] = "";
	switch (m->sample_status) {
	case XL_SAMPLE_REFUSED:
		if (m->perf_paranoid != XL_PARANOID_UNKNOWN && m->perf_paranoid > 2)
			snprintf(hint, sizeof(hint),
				 "; kernel.perf_event_paranoid is %d, and a process may sample its own threads at 2 "
				 "or less",
				 m->perf_paranoid);
		else if (e == EACCES || e == EPERM || e == ENOSYS)
			snprintf(hint, sizeof(hint), "; a seccomp filter or the container's policy forbids it");
		snprintf(buf, len, "the kernel refused perf_event_open (%s: %s)%s", errno_name(e), strerror(e), hint);
		return 1;
	case XL_SAMPLE_NO_RING:
		snprintf(buf, len,
			 "the sampler's ring could not be mapped (%s: %s; locked memory: kernel.perf_event_mlock_kb "
			 "and ulimit -l)",
			 errno_name(e), strerror(e));
		return 1;
	case XL_SAMPLE_NO_FDTABLE:
		snprintf(buf, len,
			 "the runtime could not open its samplers apart from the program's descriptors "
			 "(close_range: %s: %s; Linux 5.9 or later)",
			 errno_name(e), strerror(e));
		return 1;
	default: return 0;
	}
}
