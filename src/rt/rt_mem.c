/*
 * rt_mem.c - process memory metrics for the sampler thread.
 *
 * RSS comes from /proc/self/statm, kept open and pread at each sample.  GC
 * metrics come from the Boehm-Demers-Weiser collector when the program
 * links it, found through weak references (gc.h is deliberately not
 * included: with GC_THREADS it redirects pthread_create and would register
 * and stop our sampler).  Only the collector's lock-free getters are used.
 * Anything that cannot be read is XL_UNAVAILABLE, never 0.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rt_internal.h"

extern int GC_is_init_called(void) __attribute__((weak));
extern size_t GC_get_heap_size(void) __attribute__((weak));
extern size_t GC_get_free_bytes(void) __attribute__((weak));
extern size_t GC_get_total_bytes(void) __attribute__((weak));
extern size_t GC_get_gc_no(void) __attribute__((weak));

static int statm_fd = -1;
static long page_size;

void rt__mem_init(void)
{
	statm_fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
	page_size = sysconf(_SC_PAGESIZE);
}

int rt__gc_present(void)
{
	return GC_is_init_called && GC_get_heap_size && GC_get_free_bytes &&
	       GC_get_total_bytes && GC_get_gc_no;
}

static int64_t read_rss(void)
{
	char buf[128];
	if (statm_fd < 0)
		return XL_UNAVAILABLE;
	ssize_t n = pread(statm_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return XL_UNAVAILABLE;
	buf[n] = 0;
	/* "size resident shared text lib data dt", in pages */
	const char *p = strchr(buf, ' ');
	if (!p)
		return XL_UNAVAILABLE;
	int64_t pages = 0;
	for (p++; *p >= '0' && *p <= '9'; p++)
		pages = pages * 10 + (*p - '0');
	return pages * page_size;
}

int rt__gc_started(void)
{
	return rt__gc_present() && GC_is_init_called();
}

void rt__mem_sample(struct xl_mem_sample *s)
{
	s->rss_bytes = read_rss();
	s->gc_heap_bytes = s->gc_free_bytes = s->gc_total_bytes = s->gc_collections = XL_UNAVAILABLE;
	if (rt__gc_present() && GC_is_init_called()) {
		s->gc_heap_bytes = (int64_t)GC_get_heap_size();
		s->gc_free_bytes = (int64_t)GC_get_free_bytes();
		s->gc_total_bytes = (int64_t)GC_get_total_bytes();
		s->gc_collections = (int64_t)GC_get_gc_no();
	}
}

int64_t rt__peak_rss(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	if (!f)
		return XL_UNAVAILABLE;
	char line[256];
	int64_t kb = XL_UNAVAILABLE;
	while (fgets(line, sizeof(line), f)) {
		long long v;
		if (sscanf(line, "VmHWM: %lld kB", &v) == 1) {
			kb = v;
			break;
		}
	}
	fclose(f);
	return kb == XL_UNAVAILABLE ? kb : kb * 1024;
}
