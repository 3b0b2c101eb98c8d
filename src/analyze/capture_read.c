/*
 * capture_read.c - read capture.xlc into the model's threads, nodes and
 * memory samples.
 *
 * The file may be finalized, cut off by a crash or kill (state still
 * RECORDING), truncated by a full disk, or corrupt.  Every offset and count
 * read from it is bounds-checked against the mapped size before use; what
 * fails a check is skipped and reported, and what is intact is kept.
 *
 * Every byte of the file is read at most once (see "Claims" below), so a
 * report's work, memory and output stay proportional to the file's size
 * whatever its offsets say.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze_internal.h"
#include "xl_array.h"

/* Every record the runtime writes is 8-byte aligned (blocks are 64-byte
 * aligned), so an unaligned offset is corruption.  (Fuzzing: an odd thread
 * table entry made the reader load misaligned structs, undefined behaviour.) */
static const void *at(const struct xl_model *m, uint64_t off, uint64_t size)
{
	if (off == 0 || off % 8 != 0 || off > m->map_size || size > m->map_size - off)
		return NULL;
	return m->map + off;
}

/* Bytes of the file available from off on (0 when off is not usable). */
static uint64_t avail(const struct xl_model *m, uint64_t off)
{
	return at(m, off, 0) ? m->map_size - off : 0;
}

/*
 * Claims: every record of a capture has exactly one reference to it (a
 * thread-table entry, a node-chunk slot, a thread block's func_table, the
 * `next` of the block before it in its list), so the reader marks the
 * 64-byte granules of every record as it reads it (blocks are 64-byte
 * aligned) and refuses a capture in which two references share bytes:
 * XL_EFORMAT, exit 3, with one line naming what and where.  Work, memory
 * and output then stay proportional to the file's size.  (Hostile
 * captures: 1024 thread-table entries at one thread block, or many
 * threads' timelines at one chain, made a 300 KB capture cost 9.5 s,
 * 640 MB and a 235 MB index.html, and a 2 MiB one exhaust 4 GB.)
 *
 * Reading a new kind of record (a new list or table in the format) takes
 * one of these, with a short name of the record for the message:
 *
 *   - a region at an offset the file gives (a table, a per-thread array):
 *         int rc = XL_OK;
 *         const struct xl_foo *f = take(m, cl, off, n * sizeof(*f), "a foo table", &rc);
 *         if (rc)
 *                 return rc;       (shares bytes with another record)
 *         if (!f)
 *                 ...              (absent, or not in the file: cut off)
 *
 *   - a list of blocks (struct xl_cap_block, linked by `next`, each block
 *     `count` records of one size after its header):
 *         struct list it;
 *         list_begin(&it, m, cl, first, XL_BLOCK_FOO, sizeof(struct xl_foo),
 *                    XL_FOO_PER_CHUNK, LIST_CUT_OK, "a foo block");
 *         uint32_t n;
 *         for (const struct xl_foo *r; (r = list_next(&it, &n));)
 *                 ...              (n records at r)
 *         if (it.rc)
 *                 return it.rc;
 *     A list that others read later (the emitters' timeline iterator) is
 *     claimed while loading by the same loop with nothing in its body;
 *     the later walk takes the same list_block steps without claiming.
 *   - a block whose records are read in place: claim(cl, off, len, what).
 *
 * Only what is read is claimed (a thread block as far as its counters,
 * chunk slots in use, open frames and its version's fields), so a compact
 * file (tests/fuzz/make_seeds.py) that keeps blocks only that far still
 * reads.  Header fields and the thread table's first pass (the latest
 * timestamp, at most 1024 reads) are read more than once: bounded, not
 * proportional to anything in the file.
 */
#define GRANULE 64u

struct claims {
	uint8_t *bits; /* one bit per granule of the file */
	uint64_t map_size;
	const char *path;
	char *err;
	size_t errlen;
};

/* Take [off, off + len), which the caller checked is inside the file.
 * XL_OK, or XL_EFORMAT with the message when a granule of it was taken
 * before.  Each call either marks new granules or stops at the first one
 * taken, so all claims cost one pass over the file's granules. */
static int claim(struct claims *c, uint64_t off, uint64_t len, const char *what)
{
	if (!c || len == 0 || off >= c->map_size)
		return XL_OK;
	if (len > c->map_size - off)
		len = c->map_size - off;
	for (uint64_t g = off / GRANULE; g <= (off + len - 1) / GRANULE; g++) {
		if (c->bits[g / 8] & (1u << (g % 8))) {
			snprintf(c->err, c->errlen,
				 "capture '%s' is corrupt: %s at offset %llu shares its bytes with another record, "
				 "which exaloop's runtime never writes (a damaged or crafted file): capture again",
				 c->path, what, (unsigned long long)off);
			return XL_EFORMAT;
		}
		c->bits[g / 8] |= (uint8_t)(1u << (g % 8));
	}
	return XL_OK;
}

/* [off, off + len) when it is inside the file and not taken before (then
 * it is taken); NULL when it is not in the file, or NULL with *rc set to
 * XL_EFORMAT when it shares bytes with a record read before. */
static const void *take(const struct xl_model *m, struct claims *c, uint64_t off, uint64_t len, const char *what,
			int *rc)
{
	const void *p = at(m, off, len);
	if (p && (*rc = claim(c, off, len, what)) != XL_OK)
		return NULL;
	return p;
}

/* A block of a list (kind, records of rec_size bytes, at most max_capacity
 * records when max_capacity is not 0) at off: its records and their count
 * (*n), or NULL when no usable block is there.  A block cut off by the end
 * of the file gives the records inside it (whole 0) or is not usable
 * (whole 1). */
static const struct xl_cap_block *list_block(const struct xl_model *m, uint64_t off, uint32_t kind, size_t rec_size,
					     uint32_t max_capacity, int whole, uint32_t *n)
{
	const struct xl_cap_block *b = at(m, off, sizeof(*b));
	if (!b || b->kind != kind || (max_capacity && b->capacity > max_capacity))
		return NULL;
	uint32_t count = b->count < b->capacity ? b->count : b->capacity;
	uint64_t fit = (avail(m, off) - sizeof(*b)) / rec_size;
	if (count > fit) {
		if (whole)
			return NULL;
		count = (uint32_t)fit;
	}
	*n = count;
	return b;
}

enum {
	LIST_CUT_OK = 0,
	LIST_WHOLE = 1
};

struct list {
	const struct xl_model *m;
	struct claims *cl; /* NULL: walk without claiming (claimed before) */
	uint64_t off, prev;
	uint32_t kind, max_capacity;
	size_t rec_size;
	int whole;
	int any_order; /* links may go back (a ring, XL_TL_LAST): claims end a loop */
	const char *what;
	int rc;          /* XL_EFORMAT once a block shared bytes with another record */
	uint64_t blocks; /* blocks read so far */
};

static void list_begin(struct list *it, const struct xl_model *m, struct claims *cl, uint64_t first, uint32_t kind,
		       size_t rec_size, uint32_t max_capacity, int whole, const char *what)
{
	*it = (struct list){m, cl, first, 0, kind, max_capacity, rec_size, whole, 0, what, XL_OK, 0};
}

/* The next block's records and their count, or NULL at the end of the
 * list (it->rc says whether it ended on a shared block).  Blocks are
 * handed out by a bump allocator, so a list only moves forward: a link
 * back ends it.  (Fuzzing: a block linking to itself was read map_size/64
 * times, 800 MB of samples for a 1 MB file.)  The exception is a list
 * that reuses its blocks (any_order, claimed): there a link back to a
 * block read before shares its bytes, and the capture is refused. */
static const void *list_next(struct list *it, uint32_t *n)
{
	if (it->off == 0 || (!it->any_order && it->off <= it->prev))
		return NULL;
	const struct xl_cap_block *b =
		list_block(it->m, it->off, it->kind, it->rec_size, it->max_capacity, it->whole, n);
	if (!b || (it->rc = claim(it->cl, it->off, sizeof(*b) + (uint64_t)*n * it->rec_size, it->what)))
		return NULL;
	it->prev = it->off;
	it->off = b->next;
	it->blocks++;
	return b + 1;
}

/* Sizes in the model stay within [0, XL_MAX_SANE] and times within
 * [0, XL_MAX_NS] (52 days: 1024 threads' times still add up without
 * overflow), so that the emitters' sums and differences cannot overflow,
 * whatever a corrupt capture holds.  (Fuzzing: tick counts near 2^64 and a
 * tiny calibration slope gave ns values beyond int64_t, an undefined
 * conversion.) */
#define XL_MAX_SANE ((int64_t)1 << 62)

int64_t xl_clamp_ns(double ns)
{
	if (!(ns > 0)) /* also NaN */
		return 0;
	return ns >= (double)XL_MAX_NS ? XL_MAX_NS : (int64_t)ns;
}

int64_t xl_model_ns(const struct xl_model *m, uint64_t ticks)
{
	if (ticks <= m->t0_ticks)
		return 0;
	return xl_clamp_ns((double)(ticks - m->t0_ticks) / m->ticks_per_ns);
}

/* Memory metrics: a negative value other than XL_UNAVAILABLE cannot be
 * real, a huge one is clamped (same reason as above). */
static int64_t sane_metric(int64_t v)
{
	if (v == XL_UNAVAILABLE)
		return v;
	if (v < 0)
		return XL_UNAVAILABLE;
	return v > XL_MAX_SANE ? XL_MAX_SANE : v;
}

/* A record's figures (frees by any thread), each within XL_MAX_SANE so
 * that sums cannot overflow whatever a corrupt capture holds. */
static uint64_t sane_u64(uint64_t v)
{
	return v > (uint64_t)XL_MAX_SANE ? (uint64_t)XL_MAX_SANE : v;
}

static void alloc_from(struct xl_alloc *a, const struct xl_alloc_stat *r)
{
	a->allocs = sane_u64(r->allocs);
	a->bytes = sane_u64(r->bytes);
	a->frees = sane_u64(sane_u64(r->frees) + sane_u64(r->xfrees));
	a->freed_bytes = sane_u64(sane_u64(r->freed_bytes) + sane_u64(r->xfreed_bytes));
	a->gc_bytes = sane_u64(r->gc_bytes);
	a->peak_live = sane_u64(r->peak_live);
}

static int map_file(struct xl_model *m, const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO must not hang the report */
	if (fd < 0) {
		int e = errno;
		snprintf(err, errlen, "cannot open capture '%s': %s", path, strerror(e));
		return e == ENOENT ? XL_ENOENT : XL_EIO;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "cannot read capture '%s': not a regular file", path);
		close(fd);
		return XL_EIO;
	}
	if ((size_t)st.st_size < sizeof(struct xl_cap_header)) {
		snprintf(err, errlen, "capture '%s' is truncated: %lld bytes, smaller than its %u-byte header", path,
			 (long long)st.st_size, XL_HDR_SIZE);
		close(fd);
		return XL_EFORMAT;
	}
	void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		snprintf(err, errlen, "cannot map capture '%s': %s", path, strerror(errno));
		return XL_EIO;
	}
	m->map = p;
	m->map_size = (size_t)st.st_size;
	return XL_OK;
}

/* The run's allocation totals (version 4, when recorded). */
static void header_allocs(struct xl_model *m, const struct xl_cap_header *h)
{
	if (h->version < 4 || !(h->flags & XL_FLAG_ALLOCS) || h->alloc_rec_size != sizeof(struct xl_alloc_stat))
		return;
	m->allocs = 1;
	alloc_from(&m->alloc_na, (const struct xl_alloc_stat *)(const void *)h->alloc_na);
	const struct xl_alloc_stat *out = (const struct xl_alloc_stat *)(const void *)h->alloc_outside;
	if (h->version >= 5 && out->owner == XL_ALLOC_SHARED) {
		m->alloc_outside_kept = 1;
		alloc_from(&m->alloc_outside, out);
	}
	m->alloc_unmatched_frees = h->alloc_unmatched_frees;
	m->alloc_unmatched_bytes = h->alloc_unmatched_bytes;
	m->alloc_untracked = h->alloc_untracked;
	m->gc_frees = h->gc_frees;
}

/* Clock: ticks per ns from the widest calibration pair we have. */
static int header_clock(struct xl_model *m, const struct xl_cap_header *h, const char *path, char *err, size_t errlen)
{
	m->ticks_per_ns = 1.0;
	if (h->clock == XL_CLOCK_TSC) {
		if (h->cal1_ns > h->cal0_ns && h->cal1_ticks > h->cal0_ticks)
			m->ticks_per_ns = (double)(h->cal1_ticks - h->cal0_ticks) / (double)(h->cal1_ns - h->cal0_ns);
		else {
			snprintf(err, errlen, "capture '%s' is corrupt: no usable clock calibration", path);
			return XL_EFORMAT;
		}
	} else if (h->clock != XL_CLOCK_MONOTONIC) {
		snprintf(err, errlen, "capture '%s' is corrupt: unknown clock %u", path, h->clock);
		return XL_EFORMAT;
	}
	return XL_OK;
}

static int read_header(struct xl_model *m, struct xl_loader *ld, const char *path, char *err, size_t errlen)
{
	const struct xl_cap_header *h = (const void *)m->map;
	if (memcmp(h->magic, XL_CAP_MAGIC, 8) != 0) {
		snprintf(err, errlen, "'%s' is not an exaloop capture (bad magic)", path);
		return XL_EFORMAT;
	}
	if (h->version > XL_CAP_VERSION) {
		snprintf(
			err, errlen,
			"capture '%s' has format version %u; this exaloop reads up to version %u: upgrade exaloop to read it",
			path, h->version, XL_CAP_VERSION);
		return XL_EVERSION;
	}
	if (h->version == 0 || h->hdr_size != XL_HDR_SIZE || h->arena_off < XL_HDR_SIZE + XL_THREAD_TABLE_SIZE) {
		snprintf(err, errlen, "capture '%s' is corrupt: inconsistent header (version %u, header size %u)", path,
			 h->version, h->hdr_size);
		return XL_EFORMAT;
	}
	m->version = h->version;
	m->state = h->state;
	m->mode = h->mode;
	m->clock = h->clock;
	m->end_reason = h->end_reason;
	m->flags = h->flags;
	m->pid = h->pid;
	m->ppid = h->ppid;
	m->image = h->image;
	m->next_image = h->next_image;
	m->fork_child = h->fork_child;
	m->finalized = h->state == XL_STATE_FINALIZED;
	m->buffer_size = h->buffer_size;
	m->tl_mode = XL_TL_FIRST;
	if (h->version >= 5 && h->timeline_mode >= XL_TL_AUTO && h->timeline_mode <= XL_TL_LAST) {
		m->tl_mode = h->timeline_mode;
		m->tl_min_ns = h->timeline_min_ns > (uint64_t)XL_MAX_NS ? XL_MAX_NS : (int64_t)h->timeline_min_ns;
	}
	m->memory_interval_ns = h->memory_interval_ns;
	m->delay_ns = h->delay_ns;
	m->duration_ns = h->duration_ns;
	m->peak_rss = sane_metric(h->peak_rss_bytes);
	/* Version 3; a capture cut off before finalization left it unset. */
	m->capture_rss =
		h->version >= 3 && h->state == XL_STATE_FINALIZED ? sane_metric(h->capture_rss_bytes) : XL_UNAVAILABLE;
	m->mem_samples_missed = h->mem_samples_missed;
	m->threads_dropped = h->threads_dropped;
	m->threads_unplaced = h->threads_unplaced;
	m->unrecorded_events = h->unrecorded_events;
	m->open_exits = h->version >= 5 ? h->open_exits : 0;
	header_allocs(m, h);
	if (h->build_id_size <= XL_BUILD_ID_MAX)
		for (uint32_t i = 0; i < h->build_id_size; i++)
			snprintf(ld->build_id + 2 * i, 3, "%02x", h->build_id[i]);
	memcpy(m->build_id, ld->build_id, sizeof(m->build_id));
	m->start_realtime_ns = h->start_realtime_ns > (uint64_t)INT64_MAX ? 0 : (int64_t)h->start_realtime_ns;
	m->t0_ticks = h->process_start_ticks;
	return header_clock(m, h, path, err, errlen);
}

/* The fixed part of a thread block: everything before node_chunks[].  A
 * block cut off by the end of the file (a full disk, a truncated copy) is
 * read as far as it goes: node chunks whose slot is missing and frames past
 * the end are left out.  (Truncation test: a capture cut inside the first
 * thread block used to lose every thread, because the reader demanded the
 * whole 41 KiB block.) */
#define TB_FIXED offsetof(struct xl_thread_block, node_chunks)

static const struct xl_thread_block *thread_at(const struct xl_model *m, uint64_t off)
{
	return at(m, off, TB_FIXED);
}

/* Where a thread block of a given version ends: version 2's before the CPU
 * times version 3 added, version 3's before version 4's allocation fields,
 * version 4's before version 5's timeline fields, versions 5 and 6 before
 * version 7's tl_written. */
static size_t thread_block_size(uint32_t version)
{
	if (version >= 7)
		return sizeof(struct xl_thread_block);
	if (version >= 5)
		return offsetof(struct xl_thread_block, tl_written);
	if (version == 4)
		return offsetof(struct xl_thread_block, tl_threshold);
	if (version == 3)
		return offsetof(struct xl_thread_block, alloc_first);
	return offsetof(struct xl_thread_block, cpu_start_ns);
}

/* A thread's per-function table (version 2): the figures of the frames its
 * call tree does not hold ("(more call paths)" subtrees and frames without
 * a node), with those still open closed at close_at as the runtime closes
 * them (rt_hot.c, table_close): time to the function's self, taken from
 * the caller's unless the caller is regular and the frame has a "(more
 * call paths)" node, and to the function's total when no frame of it is
 * open further down.  Returns 1 when read, 0 when the thread has none (or
 * it is not in the file), XL_ENOMEM, or XL_EFORMAT when the table shares
 * bytes with another record. */
static int read_func_table(struct xl_model *m, struct xl_loader *ld, struct claims *cl,
			   const struct xl_thread_block *tb, uint32_t depth, uint64_t close_at)
{
	uint32_t slots = tb->func_slots;
	int rc = XL_OK;
	const struct xl_func_stat *ft =
		slots ? take(m, cl, tb->func_table, (uint64_t)slots * sizeof(*ft), "a function table", &rc) : NULL;
	if (!ft)
		return rc;
	uint64_t *self = malloc((size_t)slots * sizeof(uint64_t));
	uint64_t *total = malloc((size_t)slots * sizeof(uint64_t));
	uint8_t *open = calloc(slots, 1); /* a frame of the function is below */
	if (!self || !total || !open) {
		free(self);
		free(total);
		free(open);
		return XL_ENOMEM;
	}
	for (uint32_t i = 0; i < slots; i++) {
		self[i] = ft[i].self_ticks;
		total[i] = ft[i].total_ticks;
	}
	/* One pass over the open frames (a crafted stack of 2048 such frames
	 * made the search for an outer frame of the same function cost 2M
	 * steps a thread). */
	for (uint32_t i = 0; i < depth; i++) {
		uint32_t f = (uint32_t)tb->stack[i].func;
		uint32_t node = tb->stack[i].node;
		int outer = f < slots && !open[f];
		if (f < slots)
			open[f] = 1;
		if (f == 0 || f >= slots || node < XL_FRAME_MORE)
			continue;
		int first = i == 0 || tb->stack[i - 1].node < XL_FRAME_MORE;
		uint64_t dt = close_at > tb->stack[i].entry_ticks ? close_at - tb->stack[i].entry_ticks : 0;
		self[f] += dt;
		if (i > 0 && !(first && node != XL_FRAME_NONE) && (uint32_t)tb->stack[i - 1].func < slots)
			self[(uint32_t)tb->stack[i - 1].func] -= dt;
		if (outer)
			total[f] += dt;
	}
	free(open);
	rc = 1;
	for (uint32_t i = 1; i < slots; i++) {
		if (!ft[i].calls && !self[i] && !total[i])
			continue;
		if (xl_grow((void **)&ld->fs, &ld->fs_cap, ld->nfs + 1, sizeof(*ld->fs))) {
			rc = XL_ENOMEM;
			break;
		}
		/* self is exact modulo 2^64 and may be negative: the time of
		 * frames without a node stays in their regular caller's node,
		 * and comes off that function's self here. */
		ld->fs[ld->nfs++] = (struct xl_fstat_raw){(uint32_t)m->nthreads, (int32_t)i, ft[i].calls,
							  (int64_t)self[i], total[i]};
	}
	free(self);
	free(total);
	return rc;
}

/* A thread's allocation records (version 4): each onto its node (base +
 * node, n nodes read), or, without a regular node, onto the thread's root
 * and into the loader's per-function list.  Its blocks are claimed as they
 * are read; a record out of place is skipped. */
static int read_allocs(struct xl_model *m, struct xl_loader *ld, struct claims *cl, const struct xl_thread_block *tb,
		       size_t base, uint32_t n)
{
	struct list it;
	list_begin(&it, m, cl, tb->alloc_first, XL_BLOCK_ALLOCS, sizeof(struct xl_alloc_stat), XL_ALLOCS_PER_CHUNK,
		   LIST_CUT_OK, "an allocation block");
	uint32_t count;
	for (const struct xl_alloc_stat *r; (r = list_next(&it, &count));) {
		for (uint32_t i = 0; i < count; i++) {
			struct xl_alloc a;
			alloc_from(&a, &r[i]);
			if (r[i].node < n) {
				xl_alloc_add(&m->node_alloc[base + r[i].node], &a);
				continue;
			}
			if (r[i].node != XL_ALLOC_NO_NODE || r[i].func <= 0)
				continue; /* corrupt */
			a.peak_live = 0;
			xl_alloc_add(&m->node_alloc[base], &a);
			if (xl_grow((void **)&ld->fa, &ld->fa_cap, ld->nfa + 1, sizeof(*ld->fa)))
				return XL_ENOMEM;
			ld->fa[ld->nfa++] = (struct xl_falloc){(uint32_t)m->nthreads, r[i].func, a};
		}
	}
	return it.rc;
}

/* A duration in ticks into ns. */
static int64_t ticks_ns(const struct xl_model *m, uint64_t ticks)
{
	return xl_clamp_ns((double)ticks / m->ticks_per_ns);
}

/* The thread's timeline threshold and its history (version 5).  A
 * history that goes back in time or down is cut there (corruption). */
static void read_tl_history(const struct xl_model *m, const struct xl_thread_block *tb, struct xl_thread *t)
{
	t->tl_short_calls = tb->tl_short_calls;
	t->tl_recycled = tb->tl_recycled;
	uint32_t n = tb->tl_changes < XL_TL_HISTORY ? tb->tl_changes : XL_TL_HISTORY;
	uint64_t prev_ticks = 0, prev_thr = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct xl_tl_change *c = &tb->tl_history[i];
		if (c->ticks < prev_ticks || c->threshold < prev_thr)
			break;
		prev_ticks = c->ticks;
		prev_thr = c->threshold;
		t->tl_steps[t->ntl_steps++] = (struct xl_tl_step){xl_model_ns(m, c->ticks), ticks_ns(m, c->threshold)};
	}
	if (t->ntl_steps) {
		t->tl_threshold_ns = t->tl_steps[t->ntl_steps - 1].threshold;
		t->tl_since_ns = t->tl_steps[t->ntl_steps - 1].t_ns;
	}
}

/* The thread's name and counters from its block. */
static void thread_counters(const struct xl_model *m, const struct xl_thread_block *tb, struct xl_thread *t,
			    uint32_t slot)
{
	memset(t, 0, sizeof(*t));
	t->slot = slot;
	t->tid = tb->tid;
	memcpy(t->name, tb->name, XL_THREAD_NAME_MAX);
	t->name[XL_THREAD_NAME_MAX] = 0;
	/* A thread names itself: control characters become '?' so that the
	 * messages quoting the name stay one line (fault test t9008: a
	 * newline in a thread name split the timeline warning). */
	for (char *c = t->name; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	t->events = tb->events;
	t->timeline_events = tb->timeline_events;
	t->dropped_events = tb->dropped_events;
	t->repaired_exits = tb->repaired_exits;
	t->unwound_frames = tb->unwound_frames;
	t->deep_events = tb->deep_events;
	t->lost_node_events = tb->lost_node_events;
	t->dropped_from_ns = tb->dropped_events ? xl_model_ns(m, tb->dropped_from_ticks) : -1;
	t->start_ns = xl_model_ns(m, tb->first_ticks);
	t->timeline_first = tb->timeline_first;
}

/* How much of a thread block the file holds: nodes, open frames, and the
 * block's length as far as it is read. */
struct block_extent {
	uint64_t count; /* nodes the file can hold: published ones, in chunk slots that exist */
	uint64_t depth; /* open frames */
	uint64_t len;   /* its counters, its chunk slots in use, its open frames and
			 * (version 2) the fields after them */
	int v2_fields;  /* the version-2 fields are in the file */
};

static struct block_extent block_extent(const struct xl_model *m, const struct xl_thread_block *tb, uint64_t tb_avail)
{
	struct block_extent e;
	/* (Fuzzing: node_count near 2^32 made the reader allocate 4M nodes
	 * per thread for a few-KiB file; now memory follows the file's size.) */
	e.count = tb->node_count;
	uint64_t slots = (tb_avail - TB_FIXED) / sizeof(uint64_t);
	if (slots > XL_MAX_NODE_CHUNKS)
		slots = XL_MAX_NODE_CHUNKS;
	if (e.count > slots * XL_NODES_PER_CHUNK)
		e.count = slots * XL_NODES_PER_CHUNK;
	if (e.count > m->map_size / sizeof(struct xl_node))
		e.count = m->map_size / sizeof(struct xl_node);
	e.depth = tb->depth < XL_MAX_DEPTH ? tb->depth : XL_MAX_DEPTH;
	uint64_t stack_off = offsetof(struct xl_thread_block, stack);
	uint64_t in_file = tb_avail > stack_off ? (tb_avail - stack_off) / sizeof(struct xl_frame) : 0;
	if (e.depth > in_file)
		e.depth = in_file;
	size_t tb_size = thread_block_size(m->version);
	e.v2_fields = m->version >= 2 && tb_avail >= tb_size;
	e.len = TB_FIXED + (e.count + XL_NODES_PER_CHUNK - 1) / XL_NODES_PER_CHUNK * sizeof(uint64_t);
	if (e.depth && stack_off + e.depth * sizeof(struct xl_frame) > e.len)
		e.len = stack_off + e.depth * sizeof(struct xl_frame);
	if (e.v2_fields)
		e.len = tb_size;
	return e;
}

/* The node chunk of node n (n a multiple of XL_NODES_PER_CHUNK), claimed
 * as far as it is read; *in_chunk: its nodes inside the file.  NULL when
 * its slot points nowhere. */
static const struct xl_node *node_chunk(struct xl_model *m, struct claims *cl, const struct xl_thread_block *tb,
					uint32_t n, uint64_t count, uint64_t *in_chunk, int *rc)
{
	uint64_t off = tb->node_chunks[n / XL_NODES_PER_CHUNK];
	const struct xl_node *chunk = at(m, off, sizeof(struct xl_node));
	*in_chunk = chunk ? avail(m, off) / sizeof(struct xl_node) : 0;
	/* A chunk holds what its block says: a thread's first chunk may be a
	 * small one (XL_FIRST_NODES). */
	const struct xl_cap_block *cb = off >= sizeof(*cb) ? at(m, off - sizeof(*cb), sizeof(*cb)) : NULL;
	if (cb && cb->kind != XL_BLOCK_NODES)
		cb = NULL;
	if (cb && cb->capacity < *in_chunk)
		*in_chunk = cb->capacity;
	if (*in_chunk > XL_NODES_PER_CHUNK)
		*in_chunk = XL_NODES_PER_CHUNK;
	/* The chunk as far as it is read, with its block header. */
	uint64_t reading = count - n < *in_chunk ? count - n : *in_chunk;
	if (chunk)
		*rc = claim(cl, cb ? off - sizeof(*cb) : off, (cb ? sizeof(*cb) : 0) + reading * sizeof(struct xl_node),
			    "a node chunk");
	return chunk;
}

/* The thread's nodes into m->nodes[base...], up to count or the first
 * one out of place; *nread: how many.  XL_OK or a claim's error. */
static int read_nodes(struct xl_model *m, struct xl_loader *ld, struct claims *cl, const struct xl_thread_block *tb,
		      struct xl_thread *t, size_t base, uint64_t count, uint32_t *nread)
{
	uint32_t n;
	const struct xl_node *chunk = NULL;
	uint64_t in_chunk = 0; /* nodes of the current chunk inside the file */
	int rc = 0;
	for (n = 0; n < count; n++) {
		if (n % XL_NODES_PER_CHUNK == 0 && ((chunk = node_chunk(m, cl, tb, n, count, &in_chunk, &rc)), rc))
			return rc;
		if (!chunk || n % XL_NODES_PER_CHUNK >= in_chunk)
			break;
		const struct xl_node *src = &chunk[n % XL_NODES_PER_CHUNK];
		if (n > 0 && src->parent >= n)
			break; /* parents always precede children */
		struct xl_tnode *d = &m->nodes[base + n];
		*d = (struct xl_tnode){0};
		d->thread = (uint32_t)m->nthreads;
		d->parent = n == 0 ? XL_NONE : (int32_t)(base + src->parent);
		d->func = XL_NONE;
		d->first_child = d->next_sibling = XL_NONE;
		d->calls = n == 0 ? 0 : src->calls;
		ld->node_xray[base + n] = n == 0 ? 0 : src->func;
		ld->node_ticks[base + n] = src->ticks;
		if (n > 0 && src->func == XL_FUNC_MORE) {
			t->more_nodes++;
			t->more_calls += src->calls;
		}
	}
	*nread = n;
	return XL_OK;
}

/* Close frames still open: at the thread's exit, or at the end of the
 * window / the last timestamp when the capture was cut off.  Sets the
 * thread's end and CPU time; returns the ticks the frames closed at. */
static uint64_t close_open_frames(const struct xl_model *m, struct xl_loader *ld, const struct xl_thread_block *tb,
				  struct xl_thread *t, size_t base, uint32_t n, const struct block_extent *e,
				  uint64_t end_ticks)
{
	uint64_t close_at = tb->exit_ticks ? tb->exit_ticks : end_ticks;
	uint64_t last = tb->last_ticks > close_at ? tb->last_ticks : close_at;
	if (!tb->exit_ticks)
		close_at = last;
	for (uint32_t i = 0; i < e->depth; i++) {
		const struct xl_frame *f = &tb->stack[i];
		uint32_t node = f->node & ~XL_FRAME_MORE; /* version 1: no such bit */
		if (node == 0 || node >= n)
			continue;
		t->open_frames++;
		/* Inside a "(more call paths)" subtree only the outermost frame
		 * carries the node's time. */
		if ((f->node & XL_FRAME_MORE) && i > 0 && tb->stack[i - 1].node == f->node)
			continue;
		if (close_at > f->entry_ticks)
			ld->node_ticks[base + node] += close_at - f->entry_ticks;
	}
	t->end_ns = xl_model_ns(m, tb->exit_ticks ? tb->exit_ticks : last);
	t->cpu_ns = t->cpu_to_ns = -1;
	/* Version 3: the CPU time since the thread's first event, read at
	 * cpu_at_ticks (its exit, finalization, or the last periodic reading
	 * of a killed program). */
	if (m->version >= 3 && e->v2_fields && tb->cpu_at_ticks && tb->cpu_ns >= tb->cpu_start_ns) {
		t->cpu_ns = xl_clamp_ns((double)(tb->cpu_ns - tb->cpu_start_ns));
		t->cpu_to_ns = xl_model_ns(m, tb->cpu_at_ticks);
	}
	return close_at;
}

/* The timeline is read later, by the emitters (xl_tl_begin/next): its
 * blocks are claimed now, as they will walk them. */
static int claim_timeline(struct xl_model *m, struct claims *cl, const struct xl_thread_block *tb, struct xl_thread *t)
{
	struct list tl;
	list_begin(&tl, m, cl, tb->timeline_first, XL_BLOCK_TIMELINE, sizeof(struct xl_event), 0, LIST_WHOLE,
		   "a timeline block");
	/* A "last" timeline reuses its oldest block at the list's end (a
	 * ring): its links are not in file order. */
	tl.any_order = m->tl_mode == XL_TL_LAST && cl;
	for (uint32_t k; list_next(&tl, &k);)
		;
	t->timeline_blocks = tl.blocks;
	return tl.rc;
}

/* Open frames whose ENTRY record the runtime had not stored yet (version
 * 7: tl_written): the timeline iterator yields them after the stored
 * records (xl_tl_next), except those that entered after the timeline was
 * cut off (a budget spent: its end is the first drop). */
static void unwritten_entries(const struct xl_thread_block *tb, uint64_t tb_off, uint32_t depth, struct xl_thread *t)
{
	uint32_t from = tb->tl_written;
	if (from >= depth)
		return;
	t->tl_pend_off = tb_off + offsetof(struct xl_thread_block, stack) + (uint64_t)from * sizeof(struct xl_frame);
	t->tl_pend_n = depth - from;
	t->tl_pend_until = tb->dropped_events ? tb->dropped_from_ticks : UINT64_MAX;
}

/* Read one thread's nodes.  Returns XL_OK, XL_ENOMEM, or XL_EFORMAT when
 * what it reads shares bytes with another record; other corruption just
 * stops the thread's node list early. */
static int read_thread(struct xl_model *m, struct xl_loader *ld, struct claims *cl, uint64_t tb_off, uint32_t slot,
		       uint64_t end_ticks)
{
	const struct xl_thread_block *tb = thread_at(m, tb_off);
	uint64_t tb_avail = avail(m, tb_off);
	if (xl_grow((void **)&m->threads, &ld->threads_cap, m->nthreads + 1, sizeof(*m->threads)))
		return XL_ENOMEM;
	struct xl_thread *t = &m->threads[m->nthreads];
	thread_counters(m, tb, t, slot);
	struct block_extent e = block_extent(m, tb, tb_avail);
	int rc = claim(cl, tb_off, e.len < tb_avail ? e.len : tb_avail, "a thread block");
	if (rc)
		return rc;
	size_t base = m->nnodes;
	if (xl_grow((void **)&m->nodes, &ld->nodes_cap, base + e.count, sizeof(*m->nodes)) ||
	    xl_grow((void **)&ld->node_xray, &ld->node_xray_cap, base + e.count, sizeof(*ld->node_xray)) ||
	    xl_grow((void **)&ld->node_ticks, &ld->node_ticks_cap, base + e.count, sizeof(*ld->node_ticks)))
		return XL_ENOMEM;
	uint32_t n;
	if ((rc = read_nodes(m, ld, cl, tb, t, base, e.count, &n)))
		return rc;
	if (n == 0) {
		ld->corrupt_threads++;
		return XL_OK; /* no usable root: the thread is dropped */
	}
	t->root = (int32_t)base;
	t->node_count = n;
	uint64_t close_at = close_open_frames(m, ld, tb, t, base, n, &e, end_ticks);
	t->tree_bounded = t->more_nodes != 0;
	t->tl_since_ns = -1;
	if (m->version >= 5 && e.v2_fields) {
		read_tl_history(m, tb, t);
		t->reentry_lost = tb->reentry_lost; /* 0 from runtimes that did not count */
	}
	if (e.v2_fields) {
		t->tree_bounded |= tb->tree_bounded != 0;
		rc = read_func_table(m, ld, cl, tb, (uint32_t)e.depth, close_at);
		if (rc < 0)
			return rc;
		t->func_table = rc;
	}
	if ((rc = claim_timeline(m, cl, tb, t)))
		return rc;
	if (m->version >= 7 && e.v2_fields && !xl_timing_sampled(m)) /* sampled timing keeps no timeline */
		unwritten_entries(tb, tb_off, (uint32_t)e.depth, t);
	if (m->allocs) {
		if (xl_grow((void **)&m->node_alloc, &ld->node_alloc_cap, base + n, sizeof(*m->node_alloc)))
			return XL_ENOMEM;
		memset(&m->node_alloc[base], 0, n * sizeof(*m->node_alloc));
		if (e.v2_fields && (rc = read_allocs(m, ld, cl, tb, base, n)))
			return rc;
	}
	m->nnodes = base + n;
	m->nthreads++;
	return XL_OK;
}

static int read_samples(struct xl_model *m, struct xl_loader *ld, struct claims *cl)
{
	const struct xl_cap_header *h = (const void *)m->map;
	struct list it;
	/* Samples: 48 bytes before version 3, 56 in version 3 (xl_capture.h). */
	size_t size = m->version >= 4   ? sizeof(struct xl_mem_sample)
		      : m->version == 3 ? XL_MEM_SAMPLE_V3_SIZE
					: XL_MEM_SAMPLE_V2_SIZE;
	list_begin(&it, m, cl, h->mem_first_chunk, XL_BLOCK_MEMORY, size, XL_SAMPLES_PER_CHUNK, LIST_CUT_OK,
		   "a memory-sample block");
	uint32_t count;
	for (const char *b; (b = list_next(&it, &count));) {
		if (xl_grow((void **)&m->samples, &ld->samples_cap, m->nsamples + count, sizeof(*m->samples)))
			return XL_ENOMEM;
		for (uint32_t i = 0; i < count; i++) {
			struct xl_mem_sample s = {0};
			memcpy(&s, b + (size_t)i * size, size);
			struct xl_sample *d = &m->samples[m->nsamples++];
			d->t_ns = xl_model_ns(m, s.ticks);
			d->rss = sane_metric(s.rss_bytes);
			d->gc_heap = sane_metric(s.gc_heap_bytes);
			d->gc_free = sane_metric(s.gc_free_bytes);
			d->gc_total = sane_metric(s.gc_total_bytes);
			d->gc_collections = sane_metric(s.gc_collections);
			d->capture_rss = m->version >= 3 ? sane_metric(s.capture_rss_bytes) : XL_UNAVAILABLE;
			/* A share larger than the whole cannot be real. */
			if (d->capture_rss != XL_UNAVAILABLE && (d->rss == XL_UNAVAILABLE || d->capture_rss > d->rss))
				d->capture_rss = XL_UNAVAILABLE;
			d->alloc_bytes = m->allocs && m->version >= 4 ? sane_metric(s.alloc_bytes) : XL_UNAVAILABLE;
			d->alloc_calls = m->allocs && m->version >= 4 ? sane_metric(s.alloc_calls) : XL_UNAVAILABLE;
		}
	}
	return it.rc;
}

/* A sample's CLOCK_MONOTONIC time on the model's axis: cal0_ns is that
 * clock at process_start_ticks. */
static int64_t mono_ns(const struct xl_model *m, uint64_t ns)
{
	const struct xl_cap_header *h = (const void *)m->map;
	return ns > h->cal0_ns ? xl_clamp_ns((double)(ns - h->cal0_ns)) : 0;
}

/* Instruction samples (version 6): records of whole words packed in
 * their blocks.  A record that does not fit the block's count, has no
 * address or more than XL_ISAMPLE_MAX_IPS, ends the block's records; one
 * of a slot that holds no thread read is skipped.  Both count as corrupt
 * samples. */
static int read_isamples(struct xl_model *m, struct xl_loader *ld, struct claims *cl, const int32_t *of_slot)
{
	const struct xl_cap_header *h = (const void *)m->map;
	struct list it;
	list_begin(&it, m, cl, h->isample_first, XL_BLOCK_ISAMPLES, sizeof(uint64_t), XL_ISAMPLE_WORDS, LIST_CUT_OK,
		   "an instruction-sample block");
	uint32_t words;
	for (const uint64_t *w; (w = list_next(&it, &words));) {
		for (uint32_t i = 0; i + 2 <= words;) {
			struct xl_isample r;
			memcpy(&r, &w[i], sizeof(r));
			if (r.nips == 0 || r.nips > XL_ISAMPLE_MAX_IPS || r.nips > words - i - 2) {
				ld->corrupt_samples++;
				break;
			}
			if (r.slot < XL_MAX_THREADS && of_slot[r.slot] >= 0) {
				if (xl_grow((void **)&m->isamples, &ld->isamples_cap, m->nisamples + 1,
					    sizeof(*m->isamples)))
					return XL_ENOMEM;
				m->isamples[m->nisamples++] = (struct xl_isamp){mono_ns(m, r.time_ns),
										(uint32_t)of_slot[r.slot],
										r.nips,
										&w[i + 2],
										(r.flags & XL_ISAMPLE_CUT) != 0,
										XL_NONE,
										XL_NONE};
			} else {
				ld->corrupt_samples++;
			}
			i += 2 + r.nips;
		}
	}
	return it.rc;
}

/* The node a position sample names: a frame's node (xl_frame.node, with
 * XL_FRAME_MORE for a "(more call paths)" node) of that thread, its root
 * for 0, XL_NONE for a frame without a node; -2 when out of range. */
static int32_t frame_node(const struct xl_thread *t, uint32_t node)
{
	if (node == XL_FRAME_NONE)
		return XL_NONE;
	node &= ~XL_FRAME_MORE;
	return node < t->node_count ? t->root + (int32_t)node : -2;
}

static int read_psamples(struct xl_model *m, struct xl_loader *ld, struct claims *cl, const int32_t *of_slot)
{
	const struct xl_cap_header *h = (const void *)m->map;
	struct list it;
	list_begin(&it, m, cl, h->psample_first, XL_BLOCK_PSAMPLES, sizeof(struct xl_psample), XL_PSAMPLES_PER_CHUNK,
		   LIST_CUT_OK, "a position-sample block");
	uint32_t count;
	for (const struct xl_psample *r; (r = list_next(&it, &count));) {
		if (xl_grow((void **)&m->psamples, &ld->psamples_cap, m->npsamples + count, sizeof(*m->psamples)))
			return XL_ENOMEM;
		for (uint32_t i = 0; i < count; i++) {
			int32_t th = r[i].slot < XL_MAX_THREADS ? of_slot[r[i].slot] : -1;
			int32_t node = th >= 0 ? frame_node(&m->threads[th], r[i].node) : -2;
			if (node == -2) {
				ld->corrupt_samples++;
				continue;
			}
			m->psamples[m->npsamples++] = (struct xl_psamp){mono_ns(m, r[i].time_ns), (uint32_t)th, node};
		}
	}
	return it.rc;
}

static int read_maps(struct xl_model *m, struct xl_loader *ld, struct claims *cl)
{
	const struct xl_cap_header *h = (const void *)m->map;
	struct list it;
	list_begin(&it, m, cl, h->maps_first, XL_BLOCK_MAPS, sizeof(struct xl_map), XL_MAPS_PER_CHUNK, LIST_CUT_OK,
		   "a mappings block");
	uint32_t count;
	for (const struct xl_map *r; (r = list_next(&it, &count));) {
		if (xl_grow((void **)&m->maps, &ld->maps_cap, m->nmaps + count, sizeof(*m->maps)))
			return XL_ENOMEM;
		for (uint32_t i = 0; i < count; i++) {
			if (r[i].end <= r[i].start || r[i].snapshot > 1) {
				ld->corrupt_samples++;
				continue;
			}
			struct xl_mapping *d = &m->maps[m->nmaps];
			d->path = strndup(r[i].path, XL_MAP_PATH_MAX - 1);
			if (!d->path)
				return XL_ENOMEM;
			for (char *c = d->path; *c; c++)
				if ((unsigned char)*c < 0x20 || *c == 0x7f)
					*c = '?';
			d->start = r[i].start;
			d->end = r[i].end;
			d->offset = r[i].offset;
			d->snapshot = (int)r[i].snapshot;
			m->nmaps++;
		}
	}
	return it.rc;
}

/* Samples and mappings (version 6), after the threads they belong to. */
static int read_sample_blocks(struct xl_model *m, struct xl_loader *ld, struct claims *cl)
{
	const struct xl_cap_header *h = (const void *)m->map;
	if (m->version < 6)
		return XL_OK;
	m->sample_rate = h->sample_rate;
	m->sample_status = h->sample_status;
	m->sample_errno = h->sample_errno;
	m->perf_paranoid = h->perf_paranoid;
	m->sample_threads = h->sample_threads;
	m->sample_threads_failed = h->sample_threads_failed;
	m->isamples_lost = h->isamples_lost;
	m->isamples_dropped = h->isamples_dropped;
	m->psamples_missed = h->psamples_missed;
	m->exe_base = h->exe_base;
	int32_t of_slot[XL_MAX_THREADS];
	for (uint32_t i = 0; i < XL_MAX_THREADS; i++)
		of_slot[i] = -1;
	for (size_t t = 0; t < m->nthreads; t++)
		if (m->threads[t].slot < XL_MAX_THREADS)
			of_slot[m->threads[t].slot] = (int32_t)t;
	int rc = read_isamples(m, ld, cl, of_slot);
	if (rc == XL_OK)
		rc = read_psamples(m, ld, cl, of_slot);
	if (rc == XL_OK)
		rc = read_maps(m, ld, cl);
	return rc;
}

static int read_blocks(struct xl_model *m, struct xl_loader *ld, struct claims *cl);

int xl_capture_read(struct xl_model *m, struct xl_loader *ld, const char *path, char *err, size_t errlen)
{
	int rc = map_file(m, path, err, errlen);
	if (rc)
		return rc;
	if ((rc = read_header(m, ld, path, err, errlen)))
		return rc;
	struct claims cl = {calloc(m->map_size / GRANULE / 8 + 1, 1), m->map_size, path, err, errlen};
	if (!cl.bits)
		return XL_ENOMEM;
	claim(&cl, 0, XL_HDR_SIZE, "the header");
	rc = read_blocks(m, ld, &cl);
	free(cl.bits);
	return rc;
}

static int read_blocks(struct xl_model *m, struct xl_loader *ld, struct claims *cl)
{
	int rc;
	const struct xl_cap_header *h = (const void *)m->map;
	ld->file_bytes = m->map_size;
	ld->used_bytes = h->arena_cursor <= h->file_size ? h->arena_cursor : 0;

	/* The thread table as far as the file holds it.  (Truncation test: a
	 * file cut between the header and the end of the table was read past
	 * its mapping, SIGBUS.) */
	const uint64_t *table = (const void *)(m->map + XL_HDR_SIZE);
	uint64_t nslots = h->thread_count < XL_MAX_THREADS ? h->thread_count : XL_MAX_THREADS;
	if (nslots > (m->map_size - XL_HDR_SIZE) / sizeof(uint64_t))
		nslots = (m->map_size - XL_HDR_SIZE) / sizeof(uint64_t);
	/* Only the slots in use: a compact file may put blocks after them. */
	if ((rc = claim(cl, XL_HDR_SIZE, nslots * sizeof(uint64_t), "the thread table")))
		return rc;

	/* The latest time anything was seen: the end of the window when it
	 * closed, otherwise the latest timestamp any thread or the sampler
	 * wrote. */
	uint64_t last = h->last_ticks;
	for (uint32_t i = 0; i < nslots; i++) {
		const struct xl_thread_block *tb = thread_at(m, table[i]);
		if (tb && tb->last_ticks > last)
			last = tb->last_ticks;
	}
	uint64_t end_ticks = h->window_close_ticks ? h->window_close_ticks : last;
	m->window_start_ns = h->window_open_ticks ? xl_model_ns(m, h->window_open_ticks) : -1;
	m->window_end_ns = xl_model_ns(m, end_ticks);
	m->last_ns = xl_model_ns(m, last > end_ticks ? last : end_ticks);

	for (uint32_t i = 0; i < nslots; i++) {
		const struct xl_thread_block *tb = thread_at(m, table[i]);
		if (!tb || tb->blk.kind != XL_BLOCK_THREAD) {
			if (table[i])
				ld->corrupt_threads++;
			continue;
		}
		if ((rc = read_thread(m, ld, cl, table[i], i, end_ticks)))
			return rc;
	}
	if ((rc = read_samples(m, ld, cl)))
		return rc;
	return read_sample_blocks(m, ld, cl);
}

/* The emitters' walk of a timeline, claimed by read_thread: the same
 * list_block steps as list_next, without claiming again, and no more
 * blocks than read_thread counted (a ring's links go back). */
void xl_tl_begin(const struct xl_model *m, const struct xl_thread *t, struct xl_tl_iter *it)
{
	it->top = NULL;
	it->shift_ns = 0;
	if (m->nparts && t->part && t->part < m->nparts) { /* another capture's thread (proctree.c) */
		it->top = m;
		it->shift_ns = m->parts[t->part].shift_ns;
		m = m->parts[t->part].m;
	}
	it->m = m;
	it->i = it->count = 0;
	it->pend_off = t->tl_pend_off;
	it->pend_left = t->tl_pend_n;
	it->pend_until = t->tl_pend_until;
	it->last_ticks = 0;
	it->blocks_left = t->timeline_blocks;
	it->any_order = m->tl_mode == XL_TL_LAST;
	it->block = it->blocks_left && list_block(m, t->timeline_first, XL_BLOCK_TIMELINE, sizeof(struct xl_event), 0,
						  LIST_WHOLE, &it->count)
			    ? t->timeline_first
			    : 0;
}

/* The ticks of a record of another capture of the tree on the top
 * capture's axis. */
static void onto_top(const struct xl_tl_iter *it, struct xl_event *ev)
{
	if (it->top)
		ev->ticks =
			it->top->t0_ticks + (uint64_t)((double)xl_add_ns(xl_model_ns(it->m, ev->ticks), it->shift_ns) *
						       it->top->ticks_per_ns);
}

/* After the stored records, the ENTRY records of the open frames that had
 * none (xl_capture.h: tl_written).  A frame that entered before the last
 * stored record is in the timeline already (the program was killed between
 * storing its record and tl_written), and one that entered after the
 * timeline was cut off is not shown. */
static int unwritten_next(struct xl_tl_iter *it, struct xl_event *ev)
{
	while (it->pend_left) {
		const struct xl_frame *f = (const void *)(it->m->map + it->pend_off);
		it->pend_off += sizeof(*f);
		it->pend_left--;
		if (f->entry_ticks <= it->last_ticks || f->entry_ticks >= it->pend_until)
			continue;
		it->last_ticks = f->entry_ticks;
		*ev = (struct xl_event){.ticks = f->entry_ticks, .func = f->func, .kind = XL_EV_ENTRY};
		onto_top(it, ev);
		return 1;
	}
	return 0;
}

int xl_tl_next(struct xl_tl_iter *it, struct xl_event *ev)
{
	while (it->block) {
		if (it->i < it->count) {
			const struct xl_event *e = (const void *)(it->m->map + it->block + sizeof(struct xl_cap_block));
			*ev = e[it->i++];
			if (ev->ticks > it->last_ticks)
				it->last_ticks = ev->ticks;
			onto_top(it, ev);
			return 1;
		}
		uint64_t next = ((const struct xl_cap_block *)(it->m->map + it->block))->next;
		it->i = 0;
		if (--it->blocks_left == 0 || next == 0 || (!it->any_order && next <= it->block) ||
		    !list_block(it->m, next, XL_BLOCK_TIMELINE, sizeof(struct xl_event), 0, LIST_WHOLE, &it->count))
			next = 0;
		it->block = next;
	}
	return unwritten_next(it, ev);
}
