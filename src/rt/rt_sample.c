/*
 * rt_sample.c - instruction and position samples (xl_capture.h, "Samples").
 *
 * Everything here runs on the control thread (or on the finalizer after
 * the control thread was joined): nothing is added to the program's
 * threads.  They get no signal and make no call for it:
 *
 *  - instruction samples: a software cpu-clock perf event per registered
 *    thread (pid = its tid, any CPU), user space only, with the user call
 *    chain the kernel walks over frame pointers.  The kernel writes each
 *    sample into the event's ring from the timer interrupt that stopped
 *    the thread; no wake-up is asked for (wakeup_events and watermark 0,
 *    no F_SETSIG), so the program never hears of it.  The control thread
 *    drains the rings each time it wakes and copies the samples into the
 *    capture.  The events are opened on a descriptor table apart from the
 *    program's (rt_apart.c) and their descriptors closed at once: the
 *    ring's mapping holds the event, and unmapping it ends the event.  So
 *    the program never sees a descriptor of ours, and its own
 *    perf_event_open and its descriptor numbers are unchanged.
 *  - position samples: at a fixed wall-clock rate the control thread
 *    reads each running thread's top frame (depth, published with release
 *    order after the frame is complete, then that frame's node), which
 *    counts waits too.
 *
 * A refusal (perf_event_paranoid 3, seccomp, a container: EACCES, EPERM,
 * ENOSYS, ...) is recorded with its errno and the paranoid setting; the
 * position samples go on.  Rings are mapped writable, so the kernel never
 * overwrites what was not read: when one fills between two drains it
 * counts the samples it lost (PERF_RECORD_LOST, header isamples_lost).
 * A ring's pages are locked memory (perf_event_mlock_kb per user, then
 * RLIMIT_MEMLOCK): a thread whose ring does not fit gets a smaller one,
 * down to one page, else none (sample_threads_failed).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "rt_internal.h"

#define RING_PAGES 8u         /* data pages of a ring at most (a power of two) */
#define DRAIN_NS 10000000u    /* rings are drained at least this often */
#define CONTEXT_MARK (-4096L) /* PERF_CONTEXT_* markers are above this */

enum {
	SMP_NONE = 0, /* not opened yet */
	SMP_OPEN,
	SMP_DONE, /* ended, refused, or the thread was gone before */
};

struct smp_thread {
	void *ring; /* the event's mapping: a metadata page, then the data */
	size_t len;
	uint32_t state;
};

/* Control thread's (or the finalizer's after it) only. */
static struct smp_thread smp[XL_MAX_THREADS];
static int started, finished;
/* period_ns: the instruction samples' (1 / sample_rate); round_ns: the
 * position samples'; drain_ns: how often the rings are read (start()). */
static uint64_t period_ns, round_ns, drain_ns, next_round, next_drain, budget;
static size_t page;
static struct xl_cap_block *is_blk, *ps_blk, *map_blk;
static uint32_t opening[XL_MAX_THREADS], nopening;
static int maps_due;                /* snapshot to take: 0 none, 1 window open, 2 finalization */
static unsigned char rec[1u << 16]; /* one ring record (perf_event_header.size is 16 bits) */

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* The next block of a list of sample blocks, within the samples' budget;
 * NULL when it is spent or the buffer is full. */
static struct xl_cap_block *next_block(struct xl_cap_block **cur, uint64_t *first, uint32_t kind, uint32_t capacity,
				       size_t rec_size)
{
	uint64_t size = sizeof(struct xl_cap_block) + (uint64_t)capacity * rec_size;
	if (rt__hdr->sample_bytes + size > budget)
		return NULL;
	struct xl_cap_block *b = rt__alloc_block(kind, 0, size, rt__hdr->file_size);
	if (!b)
		return NULL;
	b->capacity = capacity;
	rt__hdr->sample_bytes += b->size;
	uint64_t off = (uint64_t)((char *)b - rt__base);
	if (*cur)
		__atomic_store_n(&(*cur)->next, off, __ATOMIC_RELEASE);
	else
		__atomic_store_n(first, off, __ATOMIC_RELEASE);
	*cur = b;
	return b;
}

/* ---- the process's file mappings */

/* One line of /proc/self/maps: "start-end perms offset dev inode path".
 * Executable mappings of a file (or [vdso]) are kept. */
static void map_line(char *line, uint32_t snapshot)
{
	unsigned long long start, end, off;
	char perms[8];
	int pos = 0;
	if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &off, &pos) < 4 || pos == 0 ||
	    perms[2] != 'x' || !line[pos])
		return;
	if ((!map_blk || map_blk->count == map_blk->capacity) &&
	    !next_block(&map_blk, &rt__hdr->maps_first, XL_BLOCK_MAPS, XL_MAPS_PER_CHUNK, sizeof(struct xl_map)))
		return;
	struct xl_map *m = (struct xl_map *)(void *)(map_blk + 1) + map_blk->count;
	memset(m, 0, sizeof(*m));
	m->start = start;
	m->end = end;
	m->offset = off;
	m->snapshot = snapshot;
	size_t n = strlen(line + pos);
	if (n >= XL_MAP_PATH_MAX) {
		n = XL_MAP_PATH_MAX - 1;
		m->flags |= XL_MAP_CUT;
	}
	memcpy(m->path, line + pos, n);
	__atomic_store_n(&map_blk->count, map_blk->count + 1, __ATOMIC_RELEASE);
}

static void read_maps(uint32_t snapshot)
{
	static char buf[8192];
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	size_t have = 0;
	for (;;) {
		ssize_t got = read(fd, buf + have, sizeof(buf) - 1 - have);
		if (got <= 0)
			break;
		have += (size_t)got;
		buf[have] = 0;
		char *line = buf, *nl;
		while ((nl = strchr(line, '\n'))) {
			*nl = 0;
			map_line(line, snapshot);
			line = nl + 1;
		}
		have = (size_t)(buf + have - line);
		if (have == sizeof(buf) - 1) /* a line longer than the buffer: dropped */
			have = 0;
		memmove(buf, line, have);
	}
	close(fd);
}

/* ---- opening the samplers */

static int32_t read_paranoid(void)
{
	char b[16] = {0};
	int fd = open("/proc/sys/kernel/perf_event_paranoid", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return XL_PARANOID_UNKNOWN;
	ssize_t n = read(fd, b, sizeof(b) - 1);
	close(fd);
	return n > 0 ? (int32_t)strtol(b, NULL, 10) : XL_PARANOID_UNKNOWN;
}

/* A sampler refused: the first refusal's errno stays, and its kind is
 * the status until a thread gets a sampler (then sample_threads_failed
 * says how many did not).  apart: on the thread apart, which may open
 * the paranoid setting. */
static void refused(uint32_t status, int err, int apart)
{
	rt__hdr->sample_threads_failed++;
	if (rt__hdr->sample_errno)
		return;
	if (rt__hdr->sample_status != XL_SAMPLE_ON)
		rt__hdr->sample_status = status;
	rt__hdr->sample_errno = err ? err : EINVAL;
	if (apart)
		rt__hdr->perf_paranoid = read_paranoid();
}

static void open_one(uint32_t slot, uint32_t tid)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = period_ns; /* cpu-clock counts ns */
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.exclude_callchain_kernel = 1;
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	smp[slot].state = SMP_DONE;
	int fd = (int)syscall(SYS_perf_event_open, &a, (pid_t)tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		if (errno != ESRCH) /* the thread ended meanwhile */
			refused(XL_SAMPLE_REFUSED, errno, 1);
		return;
	}
	void *p = MAP_FAILED;
	size_t len = 0;
	int err = 0;
	for (size_t pages = RING_PAGES; pages >= 1 && p == MAP_FAILED; pages /= 2) {
		len = (1 + pages) * page;
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		err = errno;
		if (p == MAP_FAILED && err != EPERM && err != ENOMEM)
			break; /* only the locked-memory limits get a smaller ring */
	}
	close(fd); /* the mapping holds the event */
	if (p == MAP_FAILED) {
		refused(XL_SAMPLE_NO_RING, err, 1);
		return;
	}
	smp[slot].ring = p;
	smp[slot].len = len;
	smp[slot].state = SMP_OPEN;
	rt__hdr->sample_threads++;
	rt__hdr->sample_status = XL_SAMPLE_ON;
}

/* On the thread apart (rt_apart.c). */
static void open_apart(void *arg)
{
	(void)arg;
	if (maps_due)
		read_maps((uint32_t)maps_due - 1);
	maps_due = 0;
	for (uint32_t i = 0; i < nopening; i++) {
		struct xl_thread_block *tb = rt__thread_block(opening[i]);
		if (tb)
			open_one(opening[i], tb->tid);
	}
}

/* Samplers for threads registered since the last step (and the mappings
 * when a snapshot is due). */
static void open_new(void)
{
	nopening = 0;
	for (uint32_t i = 0, n = rt__thread_slots(); i < n; i++) {
		if (smp[i].state != SMP_NONE)
			continue;
		struct xl_thread_block *tb = rt__thread_block(i);
		if (!tb)
			continue;
		if (__atomic_load_n(&tb->exit_ticks, __ATOMIC_ACQUIRE))
			smp[i].state = SMP_DONE; /* came and went between two steps */
		else
			opening[nopening++] = i;
	}
	if (!nopening && !maps_due)
		return;
	int err = rt__run_apart(open_apart, NULL);
	if (err == 0)
		return;
	maps_due = 0;
	for (uint32_t i = 0; i < nopening; i++) {
		smp[opening[i]].state = SMP_DONE;
		refused(XL_SAMPLE_NO_FDTABLE, err, 0);
	}
}

/* ---- draining */

static void store_isample(uint32_t slot, uint64_t time_ns, const uint64_t *ips, uint32_t n, uint16_t flags)
{
	uint32_t words = 2 + n;
	if ((!is_blk || is_blk->count + words > is_blk->capacity) &&
	    !next_block(&is_blk, &rt__hdr->isample_first, XL_BLOCK_ISAMPLES, XL_ISAMPLE_WORDS, sizeof(uint64_t))) {
		rt__hdr->isamples_dropped++;
		return;
	}
	uint64_t *w = (uint64_t *)(void *)(is_blk + 1) + is_blk->count;
	struct xl_isample h = {time_ns, slot, (uint16_t)n, flags};
	memcpy(w, &h, sizeof(h));
	memcpy(w + 2, ips, n * sizeof(uint64_t));
	__atomic_store_n(&is_blk->count, is_blk->count + words, __ATOMIC_RELEASE);
	rt__hdr->isamples++;
}

/* PERF_RECORD_SAMPLE with IP, TID, TIME, CALLCHAIN: ip, pid+tid, time,
 * nr, ips[nr].  The chain starts with a context marker and repeats the
 * ip; markers are left out, and the ip is stored once, first. */
static void one_sample(uint32_t slot, const unsigned char *r, size_t size)
{
	uint64_t w[4];
	if (size < sizeof(struct perf_event_header) + sizeof(w))
		return;
	memcpy(w, r + sizeof(struct perf_event_header), sizeof(w));
	const unsigned char *chain = r + sizeof(struct perf_event_header) + sizeof(w);
	uint64_t nr = w[3], room = (size - sizeof(struct perf_event_header) - sizeof(w)) / 8;
	if (nr > room)
		nr = room;
	uint64_t ips[XL_ISAMPLE_MAX_IPS];
	uint32_t n = 0;
	uint16_t flags = 0;
	int first = 1;
	ips[n++] = w[0];
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t a;
		memcpy(&a, chain + 8 * i, 8);
		if ((int64_t)a >= CONTEXT_MARK && (int64_t)a < 0)
			continue;
		if (a == 0)
			break; /* the walk's end */
		if (first && a == w[0]) {
			first = 0;
			continue;
		}
		first = 0;
		if (n == XL_ISAMPLE_MAX_IPS) {
			flags |= XL_ISAMPLE_CUT;
			break;
		}
		ips[n++] = a;
	}
	store_isample(slot, w[2], ips, n, flags);
}

/* Copy len bytes at ring position pos (the data area wraps). */
static void ring_copy(void *to, const unsigned char *data, uint64_t size, uint64_t pos, size_t len)
{
	uint64_t at = pos & (size - 1);
	size_t first = len < size - at ? len : (size_t)(size - at);
	memcpy(to, data + at, first);
	memcpy((unsigned char *)to + first, data, len - first);
}

static void drain(struct smp_thread *s, uint32_t slot)
{
	struct perf_event_mmap_page *mp = s->ring;
	const unsigned char *data = (const unsigned char *)s->ring + page;
	uint64_t size = s->len - page;
	uint64_t head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = mp->data_tail;
	while (head - tail >= sizeof(struct perf_event_header)) {
		struct perf_event_header eh;
		ring_copy(&eh, data, size, tail, sizeof(eh));
		if (eh.size < sizeof(eh) || eh.size > head - tail)
			break;
		ring_copy(rec, data, size, tail, eh.size);
		if (eh.type == PERF_RECORD_SAMPLE) {
			one_sample(slot, rec, eh.size);
		} else if (eh.type == PERF_RECORD_LOST && eh.size >= sizeof(eh) + 16) {
			uint64_t lost;
			memcpy(&lost, rec + sizeof(eh) + 8, 8);
			rt__hdr->isamples_lost += lost;
		}
		tail += eh.size;
	}
	__atomic_store_n(&mp->data_tail, head, __ATOMIC_RELEASE);
}

static void end_one(struct smp_thread *s)
{
	munmap(s->ring, s->len); /* the last reference: the event ends */
	s->ring = NULL;
	s->state = SMP_DONE;
}

/* Drain every ring; the samplers of ended threads (all with `all`) end. */
static void drain_all(int all)
{
	for (uint32_t i = 0, n = rt__thread_slots(); i < n; i++) {
		struct smp_thread *s = &smp[i];
		if (s->state != SMP_OPEN)
			continue;
		struct xl_thread_block *tb = rt__thread_block(i);
		int gone = all || !tb || __atomic_load_n(&tb->exit_ticks, __ATOMIC_ACQUIRE);
		drain(s, i);
		if (gone)
			end_one(s);
	}
}

/* ---- position samples */

static void position_round(uint64_t now_ns)
{
	for (uint32_t i = 0, n = rt__thread_slots(); i < n; i++) {
		struct xl_thread_block *tb = rt__thread_block(i);
		if (!tb || __atomic_load_n(&tb->exit_ticks, __ATOMIC_ACQUIRE))
			continue;
		/* The depth is stored (release) after its frame is complete; the
		 * frame read may be a newer one at that depth: a sample taken a
		 * moment later. */
		uint32_t d = __atomic_load_n(&tb->depth, __ATOMIC_ACQUIRE);
		if (d > XL_MAX_DEPTH)
			d = XL_MAX_DEPTH;
		uint32_t node = d ? __atomic_load_n(&tb->stack[d - 1].node, __ATOMIC_RELAXED) : 0;
		if ((!ps_blk || ps_blk->count == ps_blk->capacity) &&
		    !next_block(&ps_blk, &rt__hdr->psample_first, XL_BLOCK_PSAMPLES, XL_PSAMPLES_PER_CHUNK,
				sizeof(struct xl_psample))) {
			rt__hdr->psamples_missed++;
			return;
		}
		struct xl_psample *p = (struct xl_psample *)(void *)(ps_blk + 1) + ps_blk->count;
		*p = (struct xl_psample){now_ns, i, node};
		__atomic_store_n(&ps_blk->count, ps_blk->count + 1, __ATOMIC_RELEASE);
		rt__hdr->psamples++;
	}
}

static void start(uint64_t now_ns)
{
	started = 1;
	page = (size_t)sysconf(_SC_PAGESIZE);
	period_ns = 1000000000u / rt__cfg.sample_rate;
	if (!period_ns)
		period_ns = 1;
	/* The control thread's wake-ups are the samplers' cost to the
	 * program (docs/benchmarks.md: a wake-up, a context switch, about 30 us
	 * of system time on a busy machine).  Position samples make times only
	 * in --timing=sampled, and are taken at the sample rate there; in exact
	 * mode at most every DRAIN_NS.  A ring holds some 160 samples of 20
	 * frames: read every 64 periods at the most. */
	round_ns = rt__cfg.counted ? period_ns : period_ns > DRAIN_NS ? period_ns : DRAIN_NS;
	drain_ns = min_u64(64 * period_ns, DRAIN_NS);
	budget = rt__hdr->buffer_size / XL_SAMPLE_SHARE;
	next_round = now_ns;
	next_drain = now_ns;
	maps_due = 1;
}

uint64_t rt__sample_step(uint64_t now_ns)
{
	if (!rt__cfg.sample_rate || finished)
		return UINT64_MAX;
	if (!started)
		start(now_ns);
	open_new();
	if (now_ns >= next_drain) {
		drain_all(0);
		next_drain = now_ns + drain_ns;
	}
	if (now_ns >= next_round) {
		position_round(now_ns);
		next_round += round_ns;
		if (next_round <= now_ns) { /* woke up late: whole rounds lost */
			uint64_t late = (now_ns - next_round) / round_ns + 1;
			rt__hdr->psamples_missed += late;
			next_round += late * round_ns;
		}
	}
	return min_u64(next_round, next_drain);
}

void rt__sample_finish(int apart)
{
	if (!started || finished)
		return;
	drain_all(1);
	maps_due = 2;
	nopening = 0;
	if (!apart || rt__run_apart(open_apart, NULL) != 0)
		read_maps(1); /* at exit: the program is ending */
	maps_due = 0;
	finished = 1;
}

void rt__sample_fork_child(void)
{
	/* The parent's rings are not in the child (perf mappings are not
	 * copied by fork); its own threads get samplers of their own. */
	memset(smp, 0, sizeof(smp));
	started = finished = 0;
	is_blk = ps_blk = map_blk = NULL;
	maps_due = 0;
}
