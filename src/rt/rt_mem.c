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
 */
#include <fcntl.h>
#include <string.h>
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
	struct proc_file *f[] = {&statm, &status};
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
