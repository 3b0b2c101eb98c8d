/*
 * rt_alloc.c - heap allocations attributed to call paths (capture format
 * version 3; the records are described in xl_capture.h, struct
 * xl_alloc_stat).
 *
 * The wrappers (rt_wrap_libc.c, rt_wrap_cxx.c, rt_wrap_gc.c, linked from
 * libexaloop_alloc.a when exaloop's link wraps the allocation functions)
 * call the real allocator and then this file, which
 *   - finds the record of the thread's current call path: the top frame
 *     of the thread's shadow stack (rt_hot.c keeps it in the thread block)
 *     gives the node, a writer-private map gives its record (created on
 *     the path's first allocation);
 *   - adds the allocation to it, and the block to the address table;
 *   - at a free, takes the block out of the table and takes its size off
 *     the record that allocated it.
 * Allocations that cannot be attributed (window closed, a thread that made
 * no traced call yet, memory mode, a signal handler inside the XRay
 * handler, no room for a record) go to the header's "(not attributed)"
 * record, with atomics, so the totals are what the wrappers saw.
 *
 * Rules: no lock, no malloc, no syscall after start-up.  The address table
 * is one anonymous mapping made at start-up (MAP_NORESERVE: pages are
 * touched as it fills) and marked MADV_WIPEONFORK, so a forked child starts
 * with it empty.  It is open addressing keyed by address: an insert claims
 * an empty or deleted slot with a compare-and-swap; a lookup stops at an
 * empty slot or after RT_PROBES slots.  A block's insert (after the real
 * allocator returned it) and its removal (before the real free) cannot
 * race: the allocator hands an address out again only after its free.
 * Entries are 16 bytes: the address, and the record's file offset / 16
 * (32 bits: files are at most 64 GiB) with the size (32 bits; larger
 * blocks store RT_BIG and are counted at malloc_usable_size's size, at
 * their allocation and at their free).
 *
 * Why a table and not malloc_usable_size alone: the free must find the
 * record (call path) that allocated the block, which the allocator cannot
 * say; usable sizes also differ from the sizes asked for
 * (docs/benchmarks.md has the measured costs of both).
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "rt_internal.h"

#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

#define RT_TABLE_BITS 22u /* 4M entries, 64 MiB of address space */
#define RT_TABLE_SIZE (1u << RT_TABLE_BITS)
#define RT_PROBES 32u
#define RT_TOMB 1u /* a deleted entry's key (no block is at address 1) */
#define RT_BIG 0xFFFFFFFFu

struct rt_slot {
	uint64_t key; /* address; 0 empty; RT_TOMB deleted (atomic) */
	uint64_t val;
};

static struct rt_slot *table;
static int table_wiped; /* children start with an empty table */

/* Writer-private: one thread's map from node index (chunked like the
 * nodes) or function id to its record's offset / 16 (0: none yet). */
struct rt_amap {
	uint32_t *node[XL_MAX_NODE_CHUNKS];
	uint32_t *func; /* func_slots entries, after this struct */
	uint32_t func_slots;
	struct xl_cap_block *blk; /* the records block being filled */
};

static inline struct xl_alloc_stat *na_rec(void)
{
	return (struct xl_alloc_stat *)(void *)rt__hdr->alloc_na;
}

/* Allocations while the window is closed, apart from alloc_na. */
static inline struct xl_alloc_stat *outside_rec(void)
{
	return (struct xl_alloc_stat *)(void *)rt__hdr->alloc_outside;
}

static inline uint32_t off16(const void *p)
{
	return (uint32_t)((uint64_t)((const char *)p - rt__base) >> 4);
}

static inline struct xl_alloc_stat *rec_at(uint32_t v)
{
	return (struct xl_alloc_stat *)(void *)(rt__base + ((uint64_t)v << 4));
}

/* A block's first slot: its address in 32-byte units within its 64 MiB
 * region, shifted by a hash of the region.  Blocks that are neighbours in
 * the heap are neighbours in the table, so the table's working set follows
 * the heap's: a multiplicative hash of the whole address spread a churn of
 * 4096 live blocks over 4096 pages of the table, and nearly every free
 * waited for a cache and TLB miss (about 150 ns per allocation measured,
 * docs/benchmarks.md).  The region's hash keeps glibc's 64 MiB-aligned
 * thread arenas from landing on the same slots.  32-byte units: glibc's
 * chunks are at least 32 bytes, so two live blocks never share a home
 * slot, and the table's resident pages (the profiler's, rt_mem.c) are
 * half the heap's span rather than all of it (Lua's test suite, whose
 * peak is 61 MB: 30 MB of table, 48 MB in 16-byte units; an allocator
 * with smaller blocks probes on to the next slots). */
static inline uint32_t home(uint64_t addr)
{
	uint64_t region = addr >> 26;
	return (uint32_t)((addr >> 5) + ((region * 0x9E3779B97F4A7C15ull) >> 40)) & (RT_TABLE_SIZE - 1);
}

/* The capture's "(not attributed)" record and flag, then the wrappers'
 * switch (the capture file is mapped by now). */
static void recording_start(void)
{
	struct xl_alloc_stat *na = na_rec();
	na->node = XL_ALLOC_NO_NODE;
	na->owner = XL_ALLOC_SHARED;
	struct xl_alloc_stat *out = outside_rec();
	out->node = XL_ALLOC_NO_NODE;
	out->owner = XL_ALLOC_SHARED;
	rt__hdr->alloc_rec_size = sizeof(struct xl_alloc_stat);
	rt__hdr->flags |= XL_FLAG_ALLOCS;
	atomic_store(&rt__proc_page.s.alloc, 1);
}

void rt__alloc_init(void)
{
	const char *off = rt__getenv(XL_ENV_ALLOCS);
	if (off && strcmp(off, "0") == 0)
		return;
	/* Linked only when exaloop's link wrapped the allocation functions
	 * (rt_wrap_libc.c defines it); otherwise nothing would call here. */
	extern const int rt__alloc_wrapped __attribute__((weak));
	if (!&rt__alloc_wrapped)
		return;
	void *p = mmap(NULL, (size_t)RT_TABLE_SIZE * sizeof(struct rt_slot), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return;
	table_wiped = madvise(p, (size_t)RT_TABLE_SIZE * sizeof(struct rt_slot), MADV_WIPEONFORK) == 0;
	madvise(p, (size_t)RT_TABLE_SIZE * sizeof(struct rt_slot), MADV_HUGEPAGE); /* fewer TLB misses, if allowed */
	table = p;
	recording_start();
}

const void *rt__alloc_table(uint64_t *len)
{
	*len = table ? (uint64_t)RT_TABLE_SIZE * sizeof(struct rt_slot) : 0;
	return table;
}

/* The kernel zeroed the proc page (alloc off) and, where it could, the
 * table; threads' maps point into the parent's file. */
void rt__alloc_fork_child(void)
{
	rt__hot.am = NULL;
	rt__hot.in_alloc = 0;
}

void rt__alloc_child_begin(void)
{
	if (!table || !table_wiped)
		return; /* the parent's entries would name the parent's records */
	recording_start();
}

/* ---- the address table ---- */

static int table_put(uint64_t addr, uint64_t val)
{
	uint32_t i = home(addr);
	for (uint32_t k = 0; k < RT_PROBES; k++) {
		struct rt_slot *s = &table[(i + k) & (RT_TABLE_SIZE - 1)];
		uint64_t key = __atomic_load_n(&s->key, __ATOMIC_RELAXED);
		if (key == addr) {
			/* Freed behind the runtime's back (by a shared
			 * library, which the wrappers do not see) and handed
			 * out again: the new block replaces the stale entry. */
			s->val = val;
			return 1;
		}
		if ((key == 0 || key == RT_TOMB) &&
		    __atomic_compare_exchange_n(&s->key, &key, addr, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
			s->val = val;
			return 1;
		}
	}
	return 0;
}

static int table_take(uint64_t addr, uint64_t *val)
{
	uint32_t i = home(addr);
	for (uint32_t k = 0; k < RT_PROBES; k++) {
		struct rt_slot *s = &table[(i + k) & (RT_TABLE_SIZE - 1)];
		uint64_t key = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);
		if (key == addr) {
			*val = s->val;
			__atomic_store_n(&s->key, RT_TOMB, __ATOMIC_RELEASE);
			return 1;
		}
		if (key == 0)
			return 0;
	}
	return 0;
}

/* ---- records ---- */

static void full(void)
{
	__atomic_fetch_or(&rt__hdr->flags, XL_FLAG_ALLOCS_FULL, __ATOMIC_RELAXED);
}

/* Writer-private memory from the arena (never linked into a list the
 * reader follows; zeroed: the file's fresh pages are). */
static void *private_block(uint64_t bytes)
{
	struct xl_cap_block *b =
		rt__alloc_block(XL_BLOCK_PRIVATE, rt__hot.tb->slot, sizeof(*b) + bytes, rt__hdr->file_size);
	return b ? (void *)(b + 1) : NULL;
}

/* A new record for (node, func) in the thread's records blocks, published
 * by the block's count.  NULL when the buffer has no room. */
static struct xl_alloc_stat *record_append(struct rt_hot *h, struct rt_amap *am, uint32_t node, int32_t func)
{
	struct xl_thread_block *tb = h->tb;
	struct xl_cap_block *b = am->blk;
	if (!b || b->count == b->capacity) {
		uint32_t cap = b ? XL_ALLOCS_PER_CHUNK : XL_ALLOCS_FIRST;
		struct xl_cap_block *nb =
			rt__alloc_block(XL_BLOCK_ALLOCS, tb->slot, sizeof(*nb) + cap * sizeof(struct xl_alloc_stat),
					rt__hdr->file_size);
		if (!nb)
			return NULL;
		nb->capacity = cap;
		uint64_t off = (uint64_t)((char *)nb - rt__base);
		if (b)
			__atomic_store_n(&b->next, off, __ATOMIC_RELEASE);
		else
			__atomic_store_n(&tb->alloc_first, off, __ATOMIC_RELEASE);
		am->blk = b = nb;
	}
	struct xl_alloc_stat *r = (struct xl_alloc_stat *)(void *)(b + 1) + b->count;
	r->node = node;
	r->func = func;
	r->owner = tb->slot;
	__atomic_store_n(&b->count, b->count + 1, __ATOMIC_RELEASE);
	return r;
}

/* The path's first allocation: its record (and, for the thread's first,
 * the map).  Returns the record's offset / 16; the "(not attributed)"
 * record's when there is no room, remembered in the map so that the
 * path does not ask again. */
static __attribute__((noinline)) uint32_t record_new(struct rt_hot *h, uint32_t node, int32_t func)
{
	struct rt_amap *am = h->am;
	if (!am) {
		am = private_block(sizeof(*am) + (uint64_t)h->func_slots * sizeof(uint32_t));
		if (!am) {
			full();
			return off16(na_rec());
		}
		am->func = (uint32_t *)(am + 1);
		am->func_slots = h->func_slots;
		h->am = am;
	}
	uint32_t *slot;
	if (node < XL_FRAME_MORE) {
		uint32_t c = node / XL_NODES_PER_CHUNK;
		if (!am->node[c] && !(am->node[c] = private_block(XL_NODES_PER_CHUNK * sizeof(uint32_t)))) {
			full();
			return off16(na_rec());
		}
		slot = &am->node[c][node % XL_NODES_PER_CHUNK];
	} else {
		if ((uint32_t)func >= am->func_slots)
			return off16(na_rec());
		slot = &am->func[func];
		node = XL_ALLOC_NO_NODE;
	}
	struct xl_alloc_stat *r = record_append(h, am, node, func);
	if (!r)
		full();
	*slot = off16(r ? r : na_rec());
	return *slot;
}

/* The record of the thread's current call path: the top frame's node (the
 * root with no frame; beyond XL_MAX_DEPTH the deepest kept frame), or its
 * function when that frame has no regular node. */
static inline struct xl_alloc_stat *current(struct rt_hot *h)
{
	uint32_t g = h->gate;
	if (UNLIKELY(!atomic_load_explicit(&rt__on, memory_order_relaxed)))
		return rt__cfg.mode == XL_MODE_MEMORY ? na_rec() : outside_rec();
	if (UNLIKELY(g != RT_GATE_READY && g != RT_GATE_SLOW))
		return na_rec();
	const struct xl_thread_block *tb = h->tb;
	uint32_t d = tb->depth;
	uint32_t node = 0;
	int32_t func = 0;
	if (LIKELY(d)) {
		node = tb->stack[d - 1].node;
		func = tb->stack[d - 1].func;
	}
	uint32_t v = 0;
	const struct rt_amap *am = h->am;
	if (LIKELY(am)) {
		if (LIKELY(node < XL_FRAME_MORE)) {
			const uint32_t *c = am->node[node / XL_NODES_PER_CHUNK];
			if (LIKELY(c))
				v = c[node % XL_NODES_PER_CHUNK];
		} else if ((uint32_t)func < am->func_slots) {
			v = am->func[func];
		}
	}
	if (UNLIKELY(!v))
		v = record_new(h, node, func);
	return rec_at(v);
}

void rt__alloc_note(void *p, size_t n, int gc)
{
	struct rt_hot *h = &rt__hot;
	/* A block too large for the table's 32-bit size is counted at its
	 * usable size, the size its free will find (rt__alloc_take), so that
	 * the path's freed bytes never exceed its bytes (a 4 GiB malloc, then
	 * a small one on the same path, read a peak of 2^62). */
	if (UNLIKELY(n >= RT_BIG) && !gc)
		n = malloc_usable_size(p);
	struct xl_alloc_stat *r = current(h);
	if (LIKELY(r->owner != XL_ALLOC_SHARED)) {
		uint64_t bytes = r->bytes + n;
		r->allocs++;
		r->bytes = bytes;
		if (gc) {
			r->gc_bytes += n;
		} else {
			uint64_t live = bytes - r->gc_bytes - r->freed_bytes -
					__atomic_load_n(&r->xfreed_bytes, __ATOMIC_RELAXED);
			if (live > r->peak_live)
				r->peak_live = live;
		}
		struct xl_thread_block *tb = h->tb;
		tb->alloc_calls++;
		tb->alloc_bytes += n;
	} else {
		__atomic_fetch_add(&r->allocs, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&r->bytes, n, __ATOMIC_RELAXED);
		if (gc)
			__atomic_fetch_add(&r->gc_bytes, n, __ATOMIC_RELAXED);
	}
	if (gc)
		return;
	uint64_t size = n < RT_BIG ? n : RT_BIG;
	if (UNLIKELY(!table_put((uint64_t)(uintptr_t)p, (uint64_t)off16(r) << 32 | size))) {
		__atomic_fetch_add(&rt__hdr->alloc_untracked, 1, __ATOMIC_RELAXED);
		full();
	}
}

int rt__alloc_take(void *p, struct rt_taken *t)
{
	if (UNLIKELY(!table_take((uint64_t)(uintptr_t)p, &t->val))) {
		__atomic_fetch_add(&rt__hdr->alloc_unmatched_frees, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&rt__hdr->alloc_unmatched_bytes, malloc_usable_size(p), __ATOMIC_RELAXED);
		return 0;
	}
	uint32_t size = (uint32_t)t->val;
	t->size = size != RT_BIG ? size : malloc_usable_size(p);
	return 1;
}

void rt__alloc_untake(void *p, const struct rt_taken *t)
{
	table_put((uint64_t)(uintptr_t)p, t->val);
}

void rt__alloc_release(const struct rt_taken *t)
{
	struct rt_hot *h = &rt__hot;
	struct xl_alloc_stat *r = rec_at((uint32_t)(t->val >> 32));
	struct xl_thread_block *tb = h->tb;
	if (tb && r->owner == tb->slot) {
		r->frees++;
		r->freed_bytes += t->size;
	} else {
		__atomic_fetch_add(&r->xfrees, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&r->xfreed_bytes, t->size, __ATOMIC_RELAXED);
	}
	if (tb) {
		tb->free_calls++;
		tb->freed_bytes += t->size;
	}
}

void rt__alloc_gc_free(void)
{
	__atomic_fetch_add(&rt__hdr->gc_frees, 1, __ATOMIC_RELAXED);
}

/* The control thread's running sums for a memory sample: every thread
 * block's attributed allocations and the "(not attributed)" record. */
void rt__alloc_totals(int64_t *bytes, int64_t *calls)
{
	*bytes = *calls = XL_UNAVAILABLE;
	if (!atomic_load_explicit(&rt__proc_page.s.alloc, memory_order_relaxed))
		return;
	const struct xl_alloc_stat *na = na_rec();
	uint64_t b = __atomic_load_n(&na->bytes, __ATOMIC_RELAXED);
	uint64_t c = __atomic_load_n(&na->allocs, __ATOMIC_RELAXED);
	for (uint32_t i = 0, n = rt__thread_slots(); i < n; i++) {
		const struct xl_thread_block *tb = rt__thread_block(i);
		if (!tb)
			continue;
		b += __atomic_load_n(&tb->alloc_bytes, __ATOMIC_RELAXED);
		c += __atomic_load_n(&tb->alloc_calls, __ATOMIC_RELAXED);
	}
	*bytes = (int64_t)(b & INT64_MAX);
	*calls = (int64_t)(c & INT64_MAX);
}
