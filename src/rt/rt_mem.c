/*
 * rt_mem.c - process memory metrics for the sampler thread.
 *
 * RSS comes from /proc/self/statm, kept open and pread at each sample
 * (the peak RSS at finalization likewise from /proc/self/status).
 * The descriptor must be invisible to the program: it sits high in the
 * descriptor table (F_DUPFD_CLOEXEC from RT_FD_FLOOR up), so the program's
 * first open() still returns 3 and a closed stdin stays closed, and it is
 * close-on-exec.  A program may still close it (closing every descriptor
 * is common before exec or in daemons) or dup2 another file over it, so
 * each sample first checks with fstat that the descriptor is still the
 * file we opened (device and inode); otherwise that number belongs to the
 * program now, and a new descriptor is opened (never closing the old
 * number).  The control thread is the only reader after start-up.  GC
 * metrics come from the Boehm-Demers-Weiser collector when the program
 * links it, found through weak references (gc.h is deliberately not
 * included: with GC_THREADS it redirects pthread_create and would register
 * and stop our sampler).  Only the collector's lock-free getters are used.
 * Anything that cannot be read is XL_UNAVAILABLE, never 0.
 *
 * The process's RSS includes the capture file's mapping, which grows with
 * what the runtime records (up to buffer_size): Lua's test suite shows
 * 63 MiB captured against 13 MiB without; and, when allocations are
 * recorded, the address table of rt_alloc.c.  Each sample therefore also
 * measures their resident pages, so that the report can give the
 * program's RSS and the profiler's share apart.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "rt_internal.h"

extern int GC_is_init_called(void) __attribute__((weak));
extern size_t GC_get_heap_size(void) __attribute__((weak));
extern size_t GC_get_free_bytes(void) __attribute__((weak));
extern size_t GC_get_total_bytes(void) __attribute__((weak));
extern size_t GC_get_gc_no(void) __attribute__((weak));

/* A /proc file the runtime keeps open on a high descriptor. */
struct proc_file {
	const char *path;
	int fd;
	dev_t dev;
	ino_t ino;
};

static struct proc_file statm = {"/proc/self/statm", -1, 0, 0};
static struct proc_file status = {"/proc/self/status", -1, 0, 0};
static struct proc_file pagemap = {"/proc/self/pagemap", -1, 0, 0};
static long page_size;

static void proc_open(struct proc_file *f)
{
	f->fd = -1;
	int low = open(f->path, O_RDONLY | O_CLOEXEC);
	if (low < 0)
		return;
	int fd = rt__fd_high(low);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		if (fd >= 0)
			close(fd);
		return;
	}
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	f->fd = fd;
}

/* 1 when f->fd is still the file proc_open opened (the program may have
 * closed that number, or put another file there). */
static int proc_ours(const struct proc_file *f)
{
	struct stat st;
	return f->fd >= 0 && fstat(f->fd, &st) == 0 && st.st_dev == f->dev && st.st_ino == f->ino;
}

/* Read the file from its start; -1 when it cannot be read.  The
 * descriptor is first checked to be still ours; if not, that number
 * belongs to the program now and another descriptor is opened. */
static ssize_t proc_read(struct proc_file *f, char *buf, size_t size)
{
	if (!proc_ours(f))
		proc_open(f);
	if (f->fd < 0)
		return -1;
	ssize_t n = pread(f->fd, buf, size - 1, 0);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return n;
}

/* In a fork child: the kept descriptors read the parent's /proc files
 * (/proc/self was resolved when they were opened).  Close them; the
 * child's are opened at its first read (proc_read), so that a child that
 * only execs or exits, or never records, opens nothing. */
void rt__mem_fork_child(void)
{
	struct proc_file *f[] = {&statm, &status, &pagemap};
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (proc_ours(f[i]))
			close(f[i]->fd);
		f[i]->fd = -1;
	}
}

void rt__mem_init(void)
{
	proc_open(&statm);
	proc_open(&status);
	proc_open(&pagemap);
	page_size = sysconf(_SC_PAGESIZE);
}

int rt__gc_present(void)
{
	return GC_is_init_called && GC_get_heap_size && GC_get_free_bytes && GC_get_total_bytes && GC_get_gc_no;
}

static int64_t read_rss(void)
{
	char buf[128];
	if (proc_read(&statm, buf, sizeof(buf)) <= 0)
		return XL_UNAVAILABLE;
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

/* Pages of [from, to) of the capture mapping that are mapped in this
 * process's page tables: the "present" bit (63) of their /proc/self/pagemap
 * entries, exactly what the RSS counts.  4 KiB of entries a read, on the
 * stack: the caller may be a program thread at finalization.  -1 when the
 * file cannot be read. */
static int64_t pages_mapped(uint64_t from, uint64_t to)
{
	uint64_t first = ((uint64_t)(uintptr_t)rt__base + from) / (uint64_t)page_size;
	uint64_t n = (to - from + (uint64_t)page_size - 1) / (uint64_t)page_size, pages = 0;
	uint64_t e[512];
	if (!proc_ours(&pagemap))
		proc_open(&pagemap);
	for (uint64_t i = 0; i < n;) {
		uint64_t want = n - i < 512 ? n - i : 512;
		ssize_t got = pagemap.fd < 0 ? -1 : pread(pagemap.fd, e, want * 8, (off_t)((first + i) * 8));
		if (got <= 0 || got % 8)
			return -1;
		for (ssize_t k = 0; k < got / 8; k++)
			pages += e[k] >> 63;
		i += (uint64_t)got / 8;
	}
	return (int64_t)pages;
}

/* Pages of [from, to) of the mapping at base that mincore says are
 * resident.  For the capture mapping: pages in the page cache; the file is
 * created empty and written only through this mapping, so a cached page is
 * one this process touched, and mapped.  Except where a file system caches
 * large folios (ext4 here, up to 2 MiB): a folio's pages beyond the last
 * written one are cached too, not mapped.  For private anonymous memory
 * (the allocation address table): exactly the pages present.  -1 on
 * failure. */
static int64_t pages_cached(const char *base, uint64_t from, uint64_t to)
{
	unsigned char vec[2048];
	uint64_t step = (uint64_t)sizeof(vec) * (uint64_t)page_size, pages = 0;
	for (uint64_t off = from; off < to; off += step) {
		uint64_t n = to - off < step ? to - off : step;
		if (mincore((void *)(uintptr_t)(base + off), n, vec) != 0)
			return -1;
		uint64_t np = (n + (uint64_t)page_size - 1) / (uint64_t)page_size;
		for (uint64_t i = 0; i < np; i++)
			pages += vec[i] & 1;
	}
	return (int64_t)pages;
}

/* The part of the used range read exactly (pagemap): the large folios at
 * its end may be cached beyond the pages mapped.  Below it every cached
 * page was written through the mapping, so mincore, about a hundred times
 * cheaper per page here (64 MiB: 12-400 us against 0.1-1.8 ms under
 * load), counts the same. */
#define EXACT_TAIL (8u << 20)

/* Resident bytes of the capture file's mapping in [0, len).  `len` bounds
 * the scan to what may have been touched (the caller's), so a sample costs
 * a pass over the used part, not over buffer_size. */
static int64_t capture_resident(uint64_t len)
{
	if (!rt__base || !rt__hdr || page_size <= 0)
		return XL_UNAVAILABLE;
	if (len > rt__hdr->file_size)
		len = rt__hdr->file_size;
	uint64_t tail = len > EXACT_TAIL ? (len - EXACT_TAIL) & ~(uint64_t)(page_size - 1) : 0;
	int64_t bulk = pages_cached(rt__base, 0, tail);
	int64_t end = pages_mapped(tail, len);
	if (end < 0)
		end = pages_cached(rt__base, tail, len);
	if (bulk < 0 || end < 0)
		return XL_UNAVAILABLE;
	return (bulk + end) * page_size;
}

/* The profiler's share of the RSS: the capture mapping, and the
 * allocation runtime's address table (rt_alloc.c), 16 bytes per live
 * block and as many pages as the heap's blocks are spread over (the
 * table follows the heap's layout): Lua's test suite touches about
 * 30 MB of it, which the program's RSS showed before this counted it.  Both
 * only grow, so at finalization VmHWM minus this is still a lower bound
 * of the program's own peak.  One mincore pass over the table's 64 MiB
 * (16K pages) a sample, on the control thread. */
int64_t rt__profiler_resident(uint64_t capture_len)
{
	int64_t bytes = capture_resident(capture_len);
	uint64_t len;
	const char *table = rt__alloc_table(&len);
	if (bytes == XL_UNAVAILABLE || !table)
		return bytes;
	int64_t pages = pages_cached(table, 0, len);
	return pages < 0 ? XL_UNAVAILABLE : bytes + pages * page_size;
}

void rt__mem_sample(struct xl_mem_sample *s, uint64_t capture_len)
{
	s->rss_bytes = read_rss();
	s->capture_rss_bytes = rt__profiler_resident(capture_len);
	s->gc_heap_bytes = s->gc_free_bytes = s->gc_total_bytes = s->gc_collections = XL_UNAVAILABLE;
	if (rt__gc_present() && GC_is_init_called()) {
		s->gc_heap_bytes = (int64_t)GC_get_heap_size();
		s->gc_free_bytes = (int64_t)GC_get_free_bytes();
		s->gc_total_bytes = (int64_t)GC_get_total_bytes();
		s->gc_collections = (int64_t)GC_get_gc_no();
	}
	rt__alloc_totals(&s->alloc_bytes, &s->alloc_calls);
}

/* The process's peak RSS, VmHWM in /proc/self/status (getrusage's
 * ru_maxrss lags it by some pages), from the kept descriptor: the
 * program's other threads may still run at finalization and must not see
 * a descriptor come and go. */
int64_t rt__peak_rss(void)
{
	char buf[4096];
	if (proc_read(&status, buf, sizeof(buf)) <= 0)
		return XL_UNAVAILABLE;
	const char *p = strstr(buf, "\nVmHWM:");
	if (!p)
		return XL_UNAVAILABLE;
	for (p += 7; *p == ' ' || *p == '\t'; p++)
		;
	int64_t kb = 0;
	for (; *p >= '0' && *p <= '9'; p++)
		kb = kb * 10 + (*p - '0');
	return kb * 1024;
}

/* Move a descriptor the runtime keeps out of the program's way: to the
 * lowest free number at or above RT_FD_FLOOR (or as high as the limit
 * allows), close-on-exec.  Closes `fd`; returns the new one, or -1. */
int rt__fd_high(int fd)
{
	struct rlimit rl;
	long floor = RT_FD_FLOOR;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && (long)rl.rlim_cur <= floor)
		floor = (long)rl.rlim_cur / 2; /* a tiny limit: still above the usual range */
	int hi = floor > fd ? fcntl(fd, F_DUPFD_CLOEXEC, (int)floor) : -1;
	if (hi < 0 && floor > fd) {
		close(fd);
		return -1;
	}
	if (hi < 0)
		return fd; /* already high */
	close(fd);
	return hi;
}
