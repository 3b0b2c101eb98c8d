/*
 * rt_hot.c - the runtime's hot path: one XRay event into the thread's
 * calling-context tree and timeline.
 *
 * Every patched entry and exit of a registered thread ends here, either
 * straight from exaloop's lean trampolines (rt__hot_entry/exit/tail) or
 * through rt__xray_handler (rt_xray.c) with compiler-rt's trampolines.
 *
 * Rules, all checked or relied on elsewhere:
 *  - Built with -mgeneral-regs-only, and calls nothing but functions of
 *    this file and rt__alloc_block (rt_arena.c, built the same way): the
 *    lean trampolines save only the argument registers, so no vector,
 *    x87 or MMX register may be touched.  src/rt/check_hot.cmake fails the
 *    build if the object uses one or calls anything else.
 *  - No lock, no malloc, no stdio, no syscall, and errno is never written.
 *    Events that need any of those (a thread's first event, the
 *    clock_gettime fallback) are refused with return value 1 and go to
 *    the full handler.
 *  - Re-entry (a signal handler running instrumented code in the middle of
 *    an event: `gate` is BUSY for the whole event) is deferred: the
 *    handler's events wait in TLS and go into the tree at the thread's
 *    next event (see "Deferred events" below).
 *  - A call after the window closed is ignored (rt__on is checked first;
 *    the capture mapping is never unmapped).
 *  - Publication order, for captures cut off at any instruction: a node,
 *    frame or timeline event is complete before the count or depth that
 *    publishes it is stored with release order (xl_capture.h).  Counters
 *    that are not publication points (events, calls, ticks) are plain
 *    stores; they are at most one event behind after a crash.
 *
 * Per event the fast path does: the window check (rt__on), the thread's
 * gate (one TLS word: ready, busy, unregistered, disabled, or slow clock),
 * the thread block's event counter and last timestamp, rdtsc, one
 * direct-mapped cache probe keyed by (parent node, function) whose hit is
 * verified against the node itself (entry) or the top frame's function
 * (exit), the node's count or time and the frame.  An entry stores no
 * timeline record: a call's ENTRY and EXIT records are stored together at
 * its exit when it is kept, that is when it is at least the thread's
 * timeline threshold long (xl_capture.h: xl_tl_mode) or a callee of it was
 * kept (which stored its ENTRY first, so records stay in time order:
 * tl_flush).  A call shorter than the threshold thus costs the timeline
 * one compare.  All its checks come before its first store, and everything
 * else (depth 0 or XL_MAX_DEPTH, new nodes, unmatched exits, timeline
 * blocks) is handed, in tail position, to the general code.  XRay
 * function ids start at 1, so no real event matches the root's key.
 *
 * The call tree is bounded, the function table is not (xl_capture.h):
 * a new chunk for regular nodes must leave room in the buffer, above the
 * timeline's limit, for as many "(more call paths)" nodes as the thread
 * would then have regular ones, and stay within the first RT_TREE_CHUNKS
 * chunks.  When it cannot, the
 * tree is bounded: from then on a path not in the tree goes to a "(more
 * call paths)" node below its caller's node (XL_FUNC_MORE), which may use
 * that room.  A node has at most one such child, and they have none, so a
 * thread's own reserve always suffices; only other threads' allocations
 * can take it.  Frames in
 * such a subtree carry the node with XL_FRAME_MORE set, which no node's
 * parent has, so the fast entry misses and the fast exit refuses them:
 * they take the general code.  Only if even the reserve is spent does a
 * call get no node (XL_FRAME_NONE, counted in lost_node_events; its time
 * stays in its caller's node).
 *
 * The thread's per-function table (xl_capture.h) holds what the tree
 * cannot: the calls, self and total time of the frames in those
 * subtrees, so that the tree's nodes plus the table give every
 * function's exact figures.  Only the general code writes it; the fast
 * paths never see such a frame.  (A table of every call, written on the
 * fast paths, cost 33 instructions per call: docs/benchmarks.md.)
 */
#include "rt_internal.h"

#define NOINLINE __attribute__((noinline))
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

/* Direct-mapped (parent, func) -> node cache.  A hit is verified against
 * the node, so a stale or colliding entry only costs the slow lookup. */
#define CACHE_BITS 12u
#define CACHE_SIZE (1u << CACHE_BITS)

/* The call tree's bound (see the header comment): regular nodes in the
 * first half of the chunk slots, "(more call paths)" nodes may use all. */
#define RT_TREE_CHUNKS (XL_MAX_NODE_CHUNKS / 2u)

/* Writer-private per-thread tables.  They live in the arena right after
 * the thread's xl_thread_block (the reader never looks at them), so a
 * thread needs no malloc. */
struct rt_thread {
	struct xl_node *chunk[XL_MAX_NODE_CHUNKS];
	uint32_t cache[CACHE_SIZE];
	uint32_t sp[XL_MAX_DEPTH]; /* entry stack pointer of each open frame,
				      * low 32 bits (see stale()) */
};

/* A frame whose entry stack pointer is at or below a new entry's was left
 * without an exit (rt_internal.h).  Only within RT_STALE_SPAN: an entry on
 * another stack (a coroutine's, a signal stack) says nothing about the
 * frames of this one.  The low 32 bits suffice: the difference is taken
 * modulo 2^32, exact for frames of one stack (far less than 2 GiB apart);
 * two unrelated stacks pass for one with odds of RT_STALE_SPAN in 2^32.
 * Half the table, so a thread costs 8 KiB less of the buffer. */
#define RT_STALE_SPAN (1u << 20)

static inline RT_NOINSTR int stale(uint32_t top_sp, uint64_t sp)
{
	return (uint32_t)sp - top_sp < RT_STALE_SPAN;
}

__thread struct rt_hot rt__hot __attribute__((tls_model("local-exec"))) = {.gate = RT_GATE_NEW};

/* A node's first 8 bytes, {func, parent}, read as one word. */
typedef uint64_t __attribute__((may_alias)) rt_u64a;

static inline RT_NOINSTR uint64_t node_key(uint32_t parent, int32_t func)
{
	return (uint64_t)parent << 32 | (uint32_t)func;
}

static inline RT_NOINSTR uint32_t cache_slot(uint64_t key)
{
	return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> (64 - CACHE_BITS));
}

static inline RT_NOINSTR struct xl_node *node_at(const struct rt_thread *t, uint32_t i)
{
	return t->chunk[i / XL_NODES_PER_CHUNK] + i % XL_NODES_PER_CHUNK;
}

static inline RT_NOINSTR uint64_t off_of(const void *p)
{
	return (uint64_t)((const char *)p - rt__base);
}

static RT_NOINSTR void flag_set(uint32_t f)
{
	__atomic_fetch_or(&rt__hdr->flags, f, __ATOMIC_RELAXED);
}

/* Plain word copy: this file may call no library function (memcpy
 * included; the loop must not become a memcpy call either, which
 * check_hot.cmake would catch). */
static RT_NOINSTR void copy_words(void *to, const void *from, size_t bytes)
{
	volatile uint64_t *d = to;
	const uint64_t *s = from;
	for (size_t i = 0; i < bytes / 8; i++)
		d[i] = s[i];
}

static RT_NOINSTR struct xl_cap_block *node_block(struct xl_thread_block *tb, uint32_t nodes, uint64_t reserve)
{
	struct xl_cap_block *b = rt__alloc_block(XL_BLOCK_NODES, tb->slot, sizeof(*b) + nodes * sizeof(struct xl_node),
						 rt__hdr->file_size - reserve);
	if (b)
		b->capacity = nodes;
	return b;
}

/* Append a node below `parent`.  Returns RT_NO_NODE when node space is
 * spent: for a regular node, when the tree reached its bound (from then on
 * no regular node is added, tree_bounded); for a "(more call paths)" node
 * (func XL_FUNC_MORE), when the reserve is spent too.  The root's chunk
 * may use the reserve, so that a thread that registers late still has a
 * tree.  The node is complete before node_count publishes it.
 *
 * Chunk 0 starts with XL_FIRST_NODES nodes (xl_capture.h); at node
 * XL_FIRST_NODES it is copied into a full chunk, which is published
 * before the node count goes past the small chunk's capacity.  Only this
 * thread writes its nodes, and node indices (cache, frames) do not change,
 * so nothing else needs to know. */
static NOINLINE RT_NOINSTR uint32_t node_add(struct rt_thread *t, struct xl_thread_block *tb, uint32_t parent,
					     int32_t func)
{
	int more = func == XL_FUNC_MORE;
	if (!more && tb->tree_bounded)
		return RT_NO_NODE;
	uint32_t idx = tb->node_count;
	uint32_t c = idx / XL_NODES_PER_CHUNK;
	if (idx % XL_NODES_PER_CHUNK == 0 || idx == XL_FIRST_NODES) {
		struct xl_cap_block *b = NULL;
		int reserved = more || idx == 0;
		/* Room for one "(more call paths)" node per regular node, in
		 * the space above the timeline's limit, which the timeline
		 * cannot take later. */
		uint64_t above = rt__hdr->file_size - rt__hdr->timeline_limit;
		uint64_t keep = reserved ? 0 : ((uint64_t)idx + XL_NODES_PER_CHUNK) * sizeof(struct xl_node);
		int room = c < (reserved ? XL_MAX_NODE_CHUNKS : RT_TREE_CHUNKS) && keep <= above;
		/* Not in the timeline's part of the buffer, which a timeline
		 * that is not "first" spreads over the whole window
		 * (xl_capture.h: tree_bytes). */
		if (room && !reserved && rt__tl_mode != XL_TL_FIRST)
			room = __atomic_add_fetch(&rt__hdr->tree_bytes, XL_NODES_PER_CHUNK * sizeof(struct xl_node),
						  __ATOMIC_RELAXED) <= above / 2;
		if (room)
			b = node_block(tb, idx == 0 ? XL_FIRST_NODES : XL_NODES_PER_CHUNK, keep);
		if (!b) {
			if (!more) {
				tb->tree_bounded = 1;
				flag_set(XL_FLAG_TREE_BOUNDED);
			}
			return RT_NO_NODE;
		}
		struct xl_node *to = (struct xl_node *)(b + 1);
		if (idx == XL_FIRST_NODES)
			copy_words(to, t->chunk[0], XL_FIRST_NODES * sizeof(struct xl_node));
		t->chunk[c] = to;
		__atomic_store_n(&tb->node_chunks[c], off_of(to), __ATOMIC_RELEASE);
	}
	struct xl_node *n = node_at(t, idx);
	n->func = func;
	n->parent = parent;
	n->child = 0;
	n->calls = 0;
	n->ticks = 0;
	if (idx) {
		struct xl_node *p = node_at(t, parent);
		n->sibling = p->child;
		__atomic_store_n(&tb->node_count, idx + 1, __ATOMIC_RELEASE);
		p->child = idx;
	} else {
		n->sibling = 0;
		__atomic_store_n(&tb->node_count, 1, __ATOMIC_RELEASE);
	}
	return idx;
}

/* Cache miss: walk the parent's children, or add the path. */
static NOINLINE RT_NOINSTR uint32_t child_slow(struct rt_thread *t, struct xl_thread_block *tb, uint32_t parent,
					       int32_t func, uint32_t slot)
{
	if (parent == RT_NO_NODE)
		return RT_NO_NODE;
	uint32_t c;
	for (c = node_at(t, parent)->child; c; c = node_at(t, c)->sibling)
		if (node_at(t, c)->func == func)
			break;
	if (!c)
		c = node_add(t, tb, parent, func);
	if (c != RT_NO_NODE)
		t->cache[slot] = c;
	return c;
}

/* The node of a call of `func` made from `parent`'s frame (a regular node,
 * not in the cache or new), or, once the tree is bounded and the path has
 * no node, the caller's "(more call paths)" node with XL_FRAME_MORE set,
 * or XL_FRAME_NONE when there is no room for that either. */
static NOINLINE RT_NOINSTR uint32_t child_find(struct rt_thread *t, struct xl_thread_block *tb, uint32_t parent,
					       int32_t func, uint32_t slot)
{
	uint32_t c = child_slow(t, tb, parent, func, slot);
	if (c != RT_NO_NODE)
		return c;
	c = child_slow(t, tb, parent, XL_FUNC_MORE, cache_slot(node_key(parent, XL_FUNC_MORE)));
	return c == RT_NO_NODE ? XL_FRAME_NONE : c | XL_FRAME_MORE;
}

/* Reads as a full timeline block: where tl_blk points while a thread has
 * no timeline block (never written: the fast path only stores into a
 * block that has room). */
static struct xl_cap_block tl_none = {
	.kind = XL_BLOCK_TIMELINE,
	.count = XL_EVENTS_PER_CHUNK,
	.capacity = XL_EVENTS_PER_CHUNK,
};

static inline RT_NOINSTR struct xl_event *tl_slot(struct xl_cap_block *b, uint32_t n)
{
	return (struct xl_event *)(b + 1) + n;
}

/* Event record, written as two 8-byte stores: {ticks} and {func, kind}. */
static inline RT_NOINSTR void tl_write(struct xl_event *ev, uint64_t now, int32_t func, uint32_t kind)
{
	ev->ticks = now;
	*(rt_u64a *)&ev->func = (uint64_t)kind << 32 | (uint32_t)func;
}

/* The timeline's settings (rt_internal.h, rt_timeline.c). */
RT_HIDDEN uint32_t rt__tl_mode = XL_TL_AUTO;
RT_HIDDEN uint64_t rt__tl_fixed_ticks;
RT_HIDDEN uint64_t rt__tl_end_ticks;
RT_HIDDEN uint64_t rt__tl_horizon_ticks;

/* A timeline block's size in the arena (rt__alloc_block rounds to 64). */
#define TL_BLOCK_BYTES ((sizeof(struct xl_cap_block) + XL_EVENTS_PER_CHUNK * sizeof(struct xl_event) + 63u) & ~63ull)
/* XL_TL_AUTO's first threshold; each rise doubles it (xl_capture.h). */
#define TL_FIRST_THRESHOLD 1024u
#define TL_MAX_THRESHOLD (UINT64_C(1) << 62)

/* The thread's threshold becomes `thr` at `now`: into its history (the
 * last entry is overwritten once XL_TL_HISTORY are used, which doubling
 * from TL_FIRST_THRESHOLD never reaches). */
static NOINLINE RT_NOINSTR void tl_threshold(struct rt_hot *h, uint64_t now, uint64_t thr)
{
	struct xl_thread_block *tb = h->tb;
	uint32_t n = tb->tl_changes;
	if (n == XL_TL_HISTORY)
		n--;
	tb->tl_history[n].ticks = now;
	tb->tl_history[n].threshold = thr;
	tb->tl_threshold = thr;
	h->tl_min = thr;
	__atomic_store_n(&tb->tl_changes, n + 1, __ATOMIC_RELEASE);
}

/* XL_TL_AUTO, at each new timeline block: since tl_check (the last change
 * of the threshold, or the thread's first block) the arena's cursor moved
 * on by what every thread stored, call trees included; if, at that rate,
 * what is left of the timeline's budget would run out before the end of
 * the window (its duration; with none, a horizon as long again as the
 * thread has been recording, and at least rt__tl_horizon_ticks once the
 * arena holds RT_TL_FREE_BYTES), the threshold doubles.  The floor keeps a
 * short busy run from spending half the budget on calls no view shows
 * (fib(30): 0.9 million kept calls, 29 MB of pages zero-filled on first
 * touch, for a report that keeps 20,000) while a small one still keeps
 * every call; past it, the budget left shrinks no faster than 1/time.
 * The threshold never exceeds the time the thread has been recording (no
 * call could be kept): if even that is not enough (call trees taking the
 * budget), the timeline runs out as in "first". */
static NOINLINE RT_NOINSTR void tl_adapt(struct rt_hot *h, uint64_t now)
{
	uint64_t cur = __atomic_load_n(&rt__hdr->arena_cursor, __ATOMIC_RELAXED);
	uint64_t since = h->tl_check;
	if (!since || cur < h->tl_cursor) {
		h->tl_check = now;
		h->tl_cursor = cur;
		return;
	}
	if (now <= since)
		return;
	uint64_t from = rt__hdr->window_open_ticks;
	if (h->tb->first_ticks > from)
		from = h->tb->first_ticks;
	uint64_t age = now > from ? now - from : 0;
	uint64_t horizon = age;
	if (horizon < rt__tl_horizon_ticks && cur - rt__hdr->arena_off > RT_TL_FREE_BYTES)
		horizon = rt__tl_horizon_ticks;
	if (rt__tl_end_ticks)
		horizon = rt__tl_end_ticks > now ? rt__tl_end_ticks - now : 0;
	uint64_t limit = rt__hdr->timeline_limit;
	uint64_t left = cur < limit ? limit - cur : 0;
	if ((unsigned __int128)(cur - h->tl_cursor) * horizon <= (unsigned __int128)left * (now - since))
		return;
	uint64_t thr = h->tl_min ? h->tl_min * 2 : TL_FIRST_THRESHOLD;
	if (thr <= age && thr <= TL_MAX_THRESHOLD)
		tl_threshold(h, now, thr);
	h->tl_check = now;
	h->tl_cursor = cur;
}

/* XL_TL_LAST: the blocks a thread takes before it reuses its own: an
 * equal part of the timeline budget per thread registered so far plus
 * one, so that threads that start later find room too. */
static RT_NOINSTR uint32_t tl_last_share(void)
{
	uint64_t budget = (rt__hdr->timeline_limit - rt__hdr->arena_off) / TL_BLOCK_BYTES;
	uint32_t threads = __atomic_load_n(&rt__hdr->thread_count, __ATOMIC_RELAXED);
	if (threads > XL_MAX_THREADS)
		threads = XL_MAX_THREADS;
	uint64_t share = budget / (threads + 1u);
	return share < 2 ? 2 : share > UINT32_MAX ? UINT32_MAX : (uint32_t)share;
}

/* XL_TL_LAST: reuse the thread's oldest timeline block as its newest.
 * Each step leaves a list a reader can follow: the block leaves the front
 * of the list, is emptied, then is linked at the end. */
static RT_NOINSTR void tl_recycle(struct rt_hot *h)
{
	struct xl_thread_block *tb = h->tb;
	struct xl_cap_block *old = (struct xl_cap_block *)(rt__base + tb->timeline_first);
	struct xl_cap_block *tail = h->tl_blk;
	tb->timeline_events -= old->count;
	if (old != tail)
		__atomic_store_n(&tb->timeline_first, old->next, __ATOMIC_RELEASE);
	__atomic_store_n(&old->count, 0, __ATOMIC_RELEASE);
	if (old != tail) {
		__atomic_store_n(&old->next, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&tail->next, off_of(old), __ATOMIC_RELEASE);
	}
	tb->tl_recycled++;
	h->tl_blk = old;
}

/* XL_TL_LAST: the oldest timeline block of a thread that has ended (its
 * exit_ticks is set, after rt__tl_close stopped its timeline), for a thread
 * that holds less than its share and found no room in the arena: the
 * shares are taken as threads start, so threads that start after others
 * ended would otherwise find none (an ended thread keeps the rest of its
 * calls, the most recent ones, and at least its last block).  An ended
 * thread's list only loses blocks from its front, each taken by one
 * compare-and-swap of its timeline_first, so no block is taken twice;
 * the block is then emptied and linked into no list until its new
 * owner's (tl_grow), and every list a reader finds is whole. */
static RT_NOINSTR struct xl_cap_block *tl_reclaim(struct rt_hot *h)
{
	for (uint32_t i = 0, n = rt__thread_slots(); i < n; i++) {
		struct xl_thread_block *o = rt__thread_block(i);
		if (!o || o == h->tb || !__atomic_load_n(&o->exit_ticks, __ATOMIC_ACQUIRE))
			continue;
		uint64_t first = __atomic_load_n(&o->timeline_first, __ATOMIC_ACQUIRE);
		while (first) {
			struct xl_cap_block *b = (struct xl_cap_block *)(rt__base + first);
			uint64_t next = __atomic_load_n(&b->next, __ATOMIC_ACQUIRE);
			if (!next)
				break; /* its last block stays */
			if (__atomic_compare_exchange_n(&o->timeline_first, &first, next, 0, __ATOMIC_ACQ_REL,
							__ATOMIC_ACQUIRE)) {
				__atomic_fetch_sub(&o->timeline_events, __atomic_load_n(&b->count, __ATOMIC_RELAXED),
						   __ATOMIC_RELAXED);
				__atomic_fetch_add(&o->tl_recycled, 1, __ATOMIC_RELAXED);
				__atomic_store_n(&b->count, 0, __ATOMIC_RELEASE);
				__atomic_store_n(&b->next, 0, __ATOMIC_RELEASE);
				b->owner = h->tb->slot;
				return b;
			}
		}
	}
	return NULL;
}

/* At the end of the thread whose block is tb (rt_xray.c, thread_gone,
 * before it publishes exit_ticks), in XL_TL_LAST: the thread's timeline
 * stops (events of destructors that run later are counted as dropped),
 * so that other threads may take its oldest blocks (tl_reclaim). */
RT_HIDDEN void rt__tl_close(struct xl_thread_block *tb)
{
	struct rt_hot *h = &rt__hot;
	if (rt__tl_mode != XL_TL_LAST || h->tb != tb)
		return;
	h->tl_stopped = 1;
	h->tl_blk = &tl_none;
}

/* The current timeline block is full (or there is none yet): get the next
 * one.  Returns 0 when the timeline budget is spent; the timeline then
 * stops for this thread and later events are only counted as dropped
 * (XL_TL_LAST reuses the thread's oldest block instead). */
static NOINLINE RT_NOINSTR int tl_grow(struct rt_hot *h, uint64_t now)
{
	struct xl_thread_block *tb = h->tb;
	if (h->tl_stopped)
		return 0;
	uint32_t mode = rt__tl_mode;
	if (mode == XL_TL_AUTO && !rt__tl_fixed_ticks)
		tl_adapt(h, now);
	struct xl_cap_block *b = NULL;
	int below_share = mode != XL_TL_LAST || h->tl_blocks < tl_last_share();
	if (below_share)
		b = rt__alloc_block(XL_BLOCK_TIMELINE, tb->slot,
				    sizeof(*b) + XL_EVENTS_PER_CHUNK * sizeof(struct xl_event),
				    rt__hdr->timeline_limit);
	if (!b && mode == XL_TL_LAST && below_share)
		b = tl_reclaim(h);
	if (!b && mode == XL_TL_LAST && h->tl_blocks) {
		tl_recycle(h);
		return 1;
	}
	if (!b) {
		h->tl_stopped = 1;
		h->tl_blk = &tl_none;
		tb->dropped_from_ticks = now;
		flag_set(XL_FLAG_TIMELINE_FULL);
		uint64_t zero = 0;
		__atomic_compare_exchange_n(&rt__hdr->timeline_full_ticks, &zero, now, 0, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED);
		return 0;
	}
	b->capacity = XL_EVENTS_PER_CHUNK;
	if (h->tl_blk != &tl_none) {
		__atomic_store_n(&h->tl_blk->next, off_of(b), __ATOMIC_RELEASE);
	} else {
		__atomic_store_n(&tb->timeline_first, off_of(b), __ATOMIC_RELEASE);
	}
	h->tl_blk = b;
	h->tl_blocks++;
	return 1;
}

static inline RT_NOINSTR void tl_put(struct rt_hot *h, uint64_t now, int32_t func, uint32_t kind)
{
	if (h->no_timeline)
		return;
	struct xl_cap_block *b = h->tl_blk;
	uint32_t n = b->count;
	if (n == XL_EVENTS_PER_CHUNK) {
		if (!tl_grow(h, now)) {
			h->tb->dropped_events++;
			return;
		}
		b = h->tl_blk;
		n = 0;
	}
	tl_write(tl_slot(b, n), now, func, kind);
	__atomic_store_n(&b->count, n + 1, __ATOMIC_RELEASE);
	h->tb->timeline_events++;
}

/* Store the ENTRY records of the open frames that have none, up to frame
 * `to` (excluded): a call is being kept at or above them, and its records
 * come after theirs.  Each record has its frame's entry time: every record
 * stored so far is older (only a callee of theirs could have stored a
 * later one, and that would have stored theirs first). */
static NOINLINE RT_NOINSTR void tl_flush(struct rt_hot *h, uint32_t to)
{
	struct xl_thread_block *tb = h->tb;
	for (uint32_t i = tb->tl_written; i < to; i++)
		tl_put(h, tb->stack[i].entry_ticks, tb->stack[i].func, XL_EV_ENTRY);
	__atomic_store_n(&tb->tl_written, to, __ATOMIC_RELEASE);
}

/* Frame d (just closed: depth is d) ends at `now`: a call shorter than the
 * thread's threshold whose ENTRY was not stored leaves no record; any
 * other call stores its EXIT (or TAIL) record, after its ENTRY and those
 * of the frames below it that had none. */
static RT_NOINSTR void tl_close(struct rt_hot *h, uint32_t d, int32_t func, uint32_t kind, uint64_t t0, uint64_t now)
{
	struct xl_thread_block *tb = h->tb;
	if (h->no_timeline) /* --timing=sampled: no record, tl_written stays 0 */
		return;
	if (d >= tb->tl_written) {
		if (now - t0 < h->tl_min) {
			tb->tl_short_calls++;
			return;
		}
		tl_flush(h, d + 1);
	}
	tl_put(h, now, func, kind);
	__atomic_store_n(&tb->tl_written, d, __ATOMIC_RELEASE);
}

/* Entry or exit beyond XL_MAX_DEPTH: counted and kept in the timeline
 * only; its time stays in the deepest kept frame. */
/* Deep frames have no frame of their own, so no duration to compare with
 * the threshold: while the threshold is not 0 when a thread goes beyond
 * XL_MAX_DEPTH, none of its deep events is stored (all or none, so the
 * stored timeline stays balanced). */
static RT_NOINSTR void deep_event(struct rt_hot *h, int32_t func, uint32_t kind, uint64_t now)
{
	if (kind == XL_EV_ENTRY) {
		if (h->deep++ == 0)
			h->deep_quiet = h->tl_min != 0;
	} else {
		h->deep--;
	}
	h->tb->deep_events++;
	if (h->deep_quiet)
		return;
	if (h->tb->tl_written < XL_MAX_DEPTH) /* the frames below first */
		tl_flush(h, XL_MAX_DEPTH);
	tl_put(h, now, func, kind);
}

/* A frame's node and function are one relaxed atomic store (the same
 * single mov as a plain one): the control thread's position samples read
 * the top frame's node while its thread may be replacing it (rt_sample.c). */
static inline RT_NOINSTR void frame_write(struct xl_frame *f, uint32_t node, int32_t func, uint64_t now)
{
	__atomic_store_n((rt_u64a *)f, (uint64_t)(uint32_t)func << 32 | node, __ATOMIC_RELAXED);
	f->entry_ticks = now;
}

/*
 * Frames the tree does not hold (node XL_FRAME_MORE|i or XL_FRAME_NONE)
 * come in subtrees: every callee of such a frame is one too.  Their
 * figures go to the function table:
 *   - calls at entry;
 *   - on closing, the frame's time to its function's self, and taken from
 *     its caller's self, unless the caller is a regular frame and the
 *     frame has a "(more call paths)" node: that node, a child of the
 *     caller's, already takes the time out of the caller's self;
 *   - the frame's time to its function's total when no other frame of the
 *     function is open.  `active` counts open frames: those of the
 *     subtree, and, while a subtree is open, the regular frames below it
 *     (added when its first frame opens, removed when that one closes).
 * A subtree's first frame is one whose caller has a regular node (or is
 * the root).
 */
static inline RT_NOINSTR int subtree_first(const struct xl_thread_block *tb, uint32_t d)
{
	return d == 0 || tb->stack[d - 1].node < XL_FRAME_MORE;
}

/* A function's record; a spare one for ids beyond the table (XRay
 * reports none: its ids run from 1 to __xray_max_function_id). */
static RT_NOINSTR struct xl_func_stat *fstat(struct rt_hot *h, int32_t func)
{
	static __thread struct xl_func_stat spare __attribute__((tls_model("local-exec")));
	return (uint32_t)func < h->func_slots ? &h->ftab[func] : &spare;
}

static NOINLINE RT_NOINSTR void table_open(struct rt_hot *h, uint32_t d, int32_t func)
{
	const struct xl_thread_block *tb = h->tb;
	if (subtree_first(tb, d))
		for (uint32_t i = 0; i < d; i++)
			fstat(h, tb->stack[i].func)->active++;
	struct xl_func_stat *fs = fstat(h, func);
	fs->calls++;
	fs->active++;
}

static NOINLINE RT_NOINSTR void table_close(struct rt_hot *h, uint32_t d, uint64_t dt)
{
	const struct xl_thread_block *tb = h->tb;
	const struct xl_frame *f = &tb->stack[d];
	struct xl_func_stat *fs = fstat(h, f->func);
	uint32_t a = fs->active - 1;
	fs->active = a;
	fs->self_ticks += dt;
	fs->total_ticks += a ? 0 : dt;
	int first = subtree_first(tb, d);
	if (d > 0 && !(first && f->node != XL_FRAME_NONE))
		fstat(h, tb->stack[d - 1].func)->self_ticks -= dt;
	if (first)
		for (uint32_t i = 0; i < d; i++)
			fstat(h, tb->stack[i].func)->active--;
}

/* Close frame d (the top one) at `now`: its time into its node (in a
 * "(more call paths)" subtree only the outermost frame's), or into the
 * function table. */
static inline RT_NOINSTR void close_frame(struct rt_hot *h, uint32_t d, uint64_t now)
{
	const struct xl_frame *f = &h->tb->stack[d];
	uint64_t dt = now - f->entry_ticks;
	uint32_t c = f->node;
	if (c < XL_FRAME_MORE)
		node_at(h->t, c)->ticks += dt;
	else if (h->ftab)
		table_close(h, d, dt);
	if (c >= XL_FRAME_MORE && c != XL_FRAME_NONE && subtree_first(h->tb, d))
		node_at(h->t, c & ~XL_FRAME_MORE)->ticks += dt;
}

/* Close the top frame (depth d) at `now` with a timeline event of `kind`
 * for `func`; returns the new depth.  Unwound frames (an exit further up,
 * a call made above them) come here too, as EXIT events of their own
 * function. */
static RT_NOINSTR uint32_t pop_frame(struct rt_hot *h, uint32_t d, int32_t func, uint32_t kind, uint64_t now)
{
	struct xl_thread_block *tb = h->tb;
	d--;
	uint64_t t0 = tb->stack[d].entry_ticks;
	close_frame(h, d, now);
	__atomic_store_n(&tb->depth, d, __ATOMIC_RELEASE);
	tl_close(h, d, func, kind, t0, now);
	return d;
}

/* The general entry: every case, including the ones the fast path hands
 * over (depth 0 or XL_MAX_DEPTH, a (parent, func) pair not in the cache, a
 * full timeline block). */
static RT_NOINSTR void entry_at(struct rt_hot *h, int32_t func, uint64_t sp, uint64_t now)
{
	struct xl_thread_block *tb = h->tb;
	struct rt_thread *t = h->t;
	uint32_t d = tb->depth;
	tb->events++;
	tb->last_ticks = now;
	/* Frames an exception or longjmp unwound: closed here (their exit
	 * never came), so that this call is not counted below them. */
	while (rt__track_sp && !h->deep && d > 0 && stale(t->sp[d - 1], sp)) {
		d = pop_frame(h, d, tb->stack[d - 1].func, XL_EV_EXIT, now);
		tb->unwound_frames++;
	}
	if (d >= XL_MAX_DEPTH) {
		deep_event(h, func, XL_EV_ENTRY, now);
		return;
	}
	uint32_t parent = d ? tb->stack[d - 1].node : 0;
	uint32_t c = parent; /* below a "(more call paths)" frame: the same node */
	if (parent < XL_FRAME_MORE) {
		uint64_t key = node_key(parent, func);
		uint32_t slot = cache_slot(key);
		c = t->cache[slot];
		if (*(const rt_u64a *)node_at(t, c) != key)
			c = child_find(t, tb, parent, func, slot);
	}
	if (c != XL_FRAME_NONE)
		node_at(t, c & ~XL_FRAME_MORE)->calls++;
	else
		tb->lost_node_events++;
	if (c >= XL_FRAME_MORE && h->ftab)
		table_open(h, d, func);
	frame_write(&tb->stack[d], c, func, now);
	t->sp[d] = (uint32_t)sp;
	__atomic_store_n(&tb->depth, d + 1, __ATOMIC_RELEASE);
	/* No timeline record yet: the call's exit stores it if it is kept
	 * (tl_close). */
}

/* The general exit, including an exit that does not match the top frame:
 * either frames were skipped (longjmp, exception unwinding through
 * uninstrumented code) and the function is further down, or there never
 * was an entry (patched while the function was running). */
static RT_NOINSTR void exit_at(struct rt_hot *h, int32_t func, uint32_t kind, uint64_t now)
{
	struct xl_thread_block *tb = h->tb;
	tb->events++;
	tb->last_ticks = now;
	if (h->deep) {
		deep_event(h, func, kind, now);
		return;
	}
	uint32_t d = tb->depth;
	uint32_t k = d;
	while (k > 0 && tb->stack[k - 1].func != func)
		k--;
	if (k == 0) {
		/* With no frame open, a frame entered before recording began
		 * (a window opened later, a forked child's inherited frames):
		 * not a defect.  Else the exit matches nothing. */
		if (d == 0)
			__atomic_fetch_add(&rt__hdr->open_exits, 1, __ATOMIC_RELAXED);
		else
			tb->repaired_exits++;
		return;
	}
	while (d > k) {
		d = pop_frame(h, d, tb->stack[d - 1].func, XL_EV_EXIT, now);
		tb->unwound_frames++;
	}
	pop_frame(h, d, func, kind, now);
}

void rt__hot_event_at(int32_t func, int type, uint64_t sp, uint64_t now)
{
	struct rt_hot *h = &rt__hot;
	switch (type) {
	case 0: /* ENTRY */
	case 3: /* LOG_ARGS_ENTRY */ entry_at(h, func, sp, now); break;
	case 1: /* EXIT */ exit_at(h, func, XL_EV_EXIT, now); break;
	case 2: /* TAIL: the function left through a tail call */ exit_at(h, func, XL_EV_TAIL, now); break;
	default: break;
	}
}

static inline RT_NOINSTR uint64_t hot_ticks(void)
{
	return rt__arch_ticks();
}

/* The end of every event: its stores are done (the compiler may not move
 * them past the fence, which a signal handler on this thread relies on),
 * and the gate opens. */
static inline __attribute__((always_inline)) RT_NOINSTR int gate_ready(struct rt_hot *h)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	h->gate = RT_GATE_READY;
	return 0;
}

/* Out-of-line ends of the fast paths: the general code, then the gate.
 * Called in tail position, so the fast paths need few registers. */
static NOINLINE RT_NOINSTR int entry_slow(int32_t func, uint64_t sp, uint64_t now)
{
	entry_at(&rt__hot, func, sp, now);
	return gate_ready(&rt__hot);
}

static NOINLINE RT_NOINSTR int exit_slow(int32_t func, uint32_t kind, uint64_t now)
{
	exit_at(&rt__hot, func, kind, now);
	return gate_ready(&rt__hot);
}

/* A kept call's records through the general code (tl_close). */
static NOINLINE RT_NOINSTR int keep_slow(uint32_t d, int32_t func, uint32_t kind, uint64_t t0, uint64_t now)
{
	tl_close(&rt__hot, d, func, kind, t0, now);
	return gate_ready(&rt__hot);
}

/* An event of a thread that could not be registered: counted in TLS and
 * added to the header in batches, so that the report can say how much
 * was not recorded (the rest is added at thread exit, rt_xray.c). */
static NOINLINE RT_NOINSTR int unrecorded_event(void)
{
	if (++rt__hot.unrecorded == XL_UNRECORDED_BATCH) {
		__atomic_fetch_add(&rt__hdr->unrecorded_events, XL_UNRECORDED_BATCH, __ATOMIC_RELAXED);
		rt__hot.unrecorded = 0;
	}
	return 0;
}

/* An entry handed to the full handler keeps its stack pointer for it,
 * unless an earlier caller of the same event already did (rt_internal.h:
 * sp_pending). */
static inline RT_NOINSTR void keep_sp(uint64_t sp)
{
	if (!rt__hot.sp_pending) {
		rt__hot.pending_sp = sp;
		rt__hot.sp_pending = 1;
	}
}

/*
 * Deferred events.  A signal handler that runs traced code while the
 * thread is inside an event (gate BUSY) cannot touch the tree, which the
 * interrupted event is changing.  Its events are kept in the thread's
 * defer[] (TLS) with their time, and the thread's next event, which finds
 * the deferred count non-zero in the same word as the gate, puts them
 * into the tree first: below the frame that is on top after the
 * interrupted event, which is where the handler ran.  Nothing is added to
 * the fast path: the gate test reads both words either way (two 4-byte
 * loads, not one 8-byte load: the previous event's 4-byte store of the
 * gate is usually still in the store buffer, and a wider load cannot take
 * its value from there, so it waited for the store to reach the cache;
 * --timing=sampled on fib: 13.6 -> 11.6 ns/call, best of 9 on a machine
 * at load 5; docs/benchmarks.md has the quiet side-by-side figures).
 *
 * Every handler has returned before the code it interrupted goes on, so
 * when the next event reads the count, the events in defer[] are whole
 * handler runs, each a balanced sequence of entries and exits (nested
 * handlers included, as they nest).  A slot is taken with one atomic add,
 * which a further signal cannot split.  Their times are kept monotonic:
 * an event timed before the thread's latest event (the signal came before
 * the interrupted event read the clock) is moved to that time, so the
 * handler's calls may shrink but never take time from a frame they were
 * not in.  Under the clock_gettime clock the hot path cannot read the
 * clock: such events get the latest event's time.
 *
 * A handler that makes more than RT_DEFER_MAX events inside one event
 * loses the handler runs that did not fit, whole (a partial run would
 * leave frames open); they are counted in the thread's reentry_lost.
 * Events still deferred when the thread ends are taken in by its exit
 * (rt_xray.c: thread_gone), the main thread's at finalization; those of
 * other threads when a window closes end with the capture, as every
 * later event does.
 */
static NOINLINE RT_NOINSTR int defer_event(int32_t func, uint32_t type, uint64_t sp)
{
	struct rt_hot *h = &rt__hot;
	uint32_t i = __atomic_fetch_add(&h->deferred, 1, __ATOMIC_RELAXED);
	if (i < RT_DEFER_MAX) {
		struct rt_deferred *e = &h->defer[i];
		e->func = func;
		e->type = type;
		e->sp = sp;
		e->ticks = rt__use_tsc ? hot_ticks() : 0;
	}
	return 0;
}

/* The end of the longest prefix of defer[from..to) made of whole handler
 * runs (entries and exits balanced). */
static RT_NOINSTR uint32_t deferred_whole(const struct rt_hot *h, uint32_t from, uint32_t to)
{
	uint32_t end = from;
	int64_t depth = 0;
	for (uint32_t i = from; i < to; i++) {
		depth += h->defer[i].type == 0 ? 1 : -1;
		if (depth == 0)
			end = i + 1;
	}
	return end;
}

static RT_NOINSTR void deferred_put(struct rt_hot *h, uint32_t from, uint32_t to)
{
	for (uint32_t i = from; i < to; i++) {
		const struct rt_deferred *e = &h->defer[i];
		uint64_t now = e->ticks > h->tb->last_ticks ? e->ticks : h->tb->last_ticks;
		rt__hot_event_at(e->func, (int)e->type, e->sp, now);
	}
}

void rt__hot_replay(void)
{
	struct rt_hot *h = &rt__hot;
	uint32_t done = 0;
	for (;;) {
		uint32_t n = __atomic_load_n(&h->deferred, __ATOMIC_RELAXED);
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		if (n > RT_DEFER_MAX) {
			/* Full: the runs that fit, then drop the rest (a
			 * handler may add more until the exchange). */
			uint32_t end = deferred_whole(h, done, RT_DEFER_MAX);
			deferred_put(h, done, end);
			n = __atomic_exchange_n(&h->deferred, 0, __ATOMIC_RELAXED);
			h->tb->reentry_lost += n - end;
			return;
		}
		deferred_put(h, done, n);
		done = n;
		if (__atomic_compare_exchange_n(&h->deferred, &n, 0, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			return;
	}
}

/* A ready thread's event when deferred events wait: those first, then
 * this one, in the general code.  Out of line and in tail position, so
 * that the fast paths keep their few registers. */
static NOINLINE RT_NOINSTR int deferred_then(int32_t func, uint32_t type, uint64_t sp)
{
	struct rt_hot *h = &rt__hot;
	h->gate = RT_GATE_BUSY;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	rt__hot_replay();
	rt__hot_event_at(func, (int)type, sp, h->no_timeline ? 0 : hot_ticks());
	return gate_ready(h);
}

/* The gate, common to the three entry points: 1 = give the event to the
 * full handler (new thread, clock_gettime clock; `refused` runs first),
 * 0 = done with it (window closed, unregistered thread; re-entry, which is
 * deferred; deferred events waiting, which are taken in with this one).
 * type and sp describe the event for those two (rt__hot_event_at). */
#define HOT_GATE(refused, type, sp, counted)                           \
	int on_ = atomic_load_explicit(&rt__on, memory_order_relaxed); \
	if (UNLIKELY(on_ != 1)) {                                      \
		if (!on_)                                              \
			return 0;                                      \
		counted;                                               \
	}                                                              \
	HOT_THREAD_GATE(refused, type, sp)

/* The thread's part of the gate (the counting paths come here after the
 * exact paths' window test). */
#define HOT_THREAD_GATE(refused, type, sp)                                  \
	if (UNLIKELY((rt__hot.gate | rt__hot.deferred) != RT_GATE_READY)) { \
		uint32_t g = rt__hot.gate;                                  \
		if (g == RT_GATE_BUSY)                                      \
			return defer_event(func, type, sp);                 \
		if (g == RT_GATE_OFF)                                       \
			return unrecorded_event();                          \
		if (g & (RT_GATE_NEW | RT_GATE_SLOW)) {                     \
			refused;                                            \
			return 1;                                           \
		}                                                           \
		if (g != RT_GATE_READY)                                     \
			return 0;                                           \
		return deferred_then(func, type, sp);                       \
	}                                                                   \
	rt__hot.gate = RT_GATE_BUSY;                                        \
	__atomic_signal_fence(__ATOMIC_SEQ_CST)

/* For thread exit and finalization on the thread (not inside an event). */
void rt__hot_flush(void)
{
	struct rt_hot *h = &rt__hot;
	uint32_t g = h->gate;
	if (g == RT_GATE_BUSY && h->tb) {
		/* Busy outside any event: a signal handler left one without
		 * returning to it (siglongjmp out of the handler, exit() in it),
		 * and every event of the thread since was deferred, never to be
		 * taken in (the abandoned event's state is half written).  Lost,
		 * and said: counted with the re-entries lost, flagged. */
		h->tb->reentry_lost += h->deferred;
		h->deferred = 0;
		flag_set(XL_FLAG_EVENT_ABANDONED);
		return;
	}
	if (!h->deferred || (g != RT_GATE_READY && g != RT_GATE_SLOW))
		return;
	h->gate = RT_GATE_BUSY;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	rt__hot_replay();
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	h->gate = g;
}

/*
 * The fast paths read the clock as late as they can: rdtsc costs about as
 * much as the rest of the event here, and (measured on the reference
 * machine) what follows it waits for it, while loads and stores issued
 * before it overlap with it.  So the checks, the lookups and the stores
 * that do not need the time come first; only the timestamps follow.  The
 * publication order is unchanged: each record is complete before the
 * release store of the depth or count that publishes it.
 */

/* The fast exit of a call that is kept (or whose ENTRY record is stored
 * already) when the records fit in the current block: its ENTRY and EXIT
 * when it is the only open frame without a record, else its EXIT alone.
 * The rest (frames below without records, a full block, a stopped
 * timeline) in the general code. */
static inline __attribute__((always_inline)) RT_NOINSTR int fast_keep(struct rt_hot *h, struct xl_thread_block *tb,
								      uint32_t d, int32_t func, uint32_t kind,
								      uint64_t t0, uint64_t now)
{
	struct xl_cap_block *tl = h->tl_blk;
	uint32_t n = tl->count, w = tb->tl_written;
	uint32_t add = d < w ? 1u : 2u;
	if (UNLIKELY(d > w || n > XL_EVENTS_PER_CHUNK - add))
		return keep_slow(d, func, kind, t0, now);
	struct xl_event *ev = tl_slot(tl, n);
	if (add == 2) {
		tl_write(ev, t0, func, XL_EV_ENTRY);
		ev++;
	}
	tl_write(ev, now, func, kind);
	__atomic_store_n(&tl->count, n + add, __ATOMIC_RELEASE);
	tb->timeline_events += add;
	__atomic_store_n(&tb->tl_written, d, __ATOMIC_RELEASE);
	return gate_ready(h);
}

/*
 * --timing=sampled (rt__on is RT_ON_COUNTED): the calls are counted in
 * the tree and the frames kept, for the position samples to read, and
 * nothing else: no clock read, no timeline record, no time into a node.
 * The checks are the exact fast paths' (the general code takes the same
 * cases, with time 0); the exact paths' first test sends events here, so
 * those paths pay nothing for this mode.
 */
static NOINLINE RT_NOINSTR int counted_entry(int32_t func, uint64_t sp)
{
	HOT_THREAD_GATE(keep_sp(sp), 0, sp);
	struct rt_hot *h = &rt__hot;
	struct xl_thread_block *tb = h->tb;
	uint32_t d = tb->depth;
	if (UNLIKELY(d - 1u >= XL_MAX_DEPTH - 1u))
		return entry_slow(func, sp, 0);
	struct rt_thread *t = h->t;
	if (rt__track_sp) {
		if (UNLIKELY(stale(t->sp[d - 1], sp)))
			return entry_slow(func, sp, 0);
		t->sp[d] = (uint32_t)sp;
	}
	uint64_t key = node_key(tb->stack[d - 1].node, func);
	uint32_t c = t->cache[cache_slot(key)];
	struct xl_node *n = node_at(t, c);
	if (UNLIKELY(*(const rt_u64a *)n != key))
		return entry_slow(func, sp, 0);
	n->calls++;
	__atomic_store_n((rt_u64a *)&tb->stack[d], (uint64_t)(uint32_t)func << 32 | c, __ATOMIC_RELAXED);
	tb->events++;
	__atomic_store_n(&tb->depth, d + 1, __ATOMIC_RELEASE);
	return gate_ready(h);
}

static NOINLINE RT_NOINSTR int counted_exit(int32_t func, uint32_t kind)
{
	HOT_THREAD_GATE((void)0, kind == XL_EV_TAIL ? 2u : 1u, 0);
	struct rt_hot *h = &rt__hot;
	struct xl_thread_block *tb = h->tb;
	uint32_t d = tb->depth;
	if (UNLIKELY(d - 1u >= XL_MAX_DEPTH - 1u))
		return exit_slow(func, kind, 0);
	const struct xl_frame *f = &tb->stack[d - 1];
	if (UNLIKELY(f->func != func || f->node >= XL_FRAME_MORE))
		return exit_slow(func, kind, 0);
	tb->events++;
	__atomic_store_n(&tb->depth, d - 1, __ATOMIC_RELEASE);
	return gate_ready(h);
}

/* The fast entry: the thread is 1..XL_MAX_DEPTH-1 frames deep, the path
 * is in the cache, and the timeline block has room or the timeline has
 * stopped.  All checks come before the first store. */
RT_NOINSTR int rt__hot_entry(int32_t func, uint64_t sp)
{
	HOT_GATE(keep_sp(sp), 0, sp, return counted_entry(func, sp));
	struct rt_hot *h = &rt__hot;
	struct xl_thread_block *tb = h->tb;
	uint32_t d = tb->depth;
	if (UNLIKELY(d - 1u >= XL_MAX_DEPTH - 1u))
		return entry_slow(func, sp, hot_ticks());
	struct rt_thread *t = h->t;
	if (rt__track_sp) {
		if (UNLIKELY(stale(t->sp[d - 1], sp)))
			return entry_slow(func, sp, hot_ticks());
		/* Stored now, while sp is at hand (writer-private, so early is
		 * harmless; the general code stores it again if it takes over). */
		t->sp[d] = (uint32_t)sp;
	}
	uint64_t key = node_key(tb->stack[d - 1].node, func);
	uint32_t c = t->cache[cache_slot(key)];
	struct xl_node *n = node_at(t, c);
	if (UNLIKELY(*(const rt_u64a *)n != key))
		return entry_slow(func, sp, hot_ticks());

	n->calls++;
	struct xl_frame *f = &tb->stack[d];
	__atomic_store_n((rt_u64a *)f, (uint64_t)(uint32_t)func << 32 | c, __ATOMIC_RELAXED); /* frame_write */

	tb->events++;
	uint64_t now = hot_ticks();
	f->entry_ticks = now;
	tb->last_ticks = now;
	__atomic_store_n(&tb->depth, d + 1, __ATOMIC_RELEASE);
	return gate_ready(h);
}

/* The fast exit: the top frame is the function's and has a regular node,
 * and the thread is not beyond XL_MAX_DEPTH. */
static inline __attribute__((always_inline)) RT_NOINSTR int hot_exit(int32_t func, uint32_t kind)
{
	HOT_GATE((void)0, kind == XL_EV_TAIL ? 2u : 1u, 0, return counted_exit(func, kind));
	struct rt_hot *h = &rt__hot;
	struct xl_thread_block *tb = h->tb;
	uint32_t d = tb->depth;
	/* d - 1 wraps for d == 0: one test covers "no frame" and "maybe
	 * beyond XL_MAX_DEPTH". */
	if (UNLIKELY(d - 1u >= XL_MAX_DEPTH - 1u))
		return exit_slow(func, kind, hot_ticks());
	struct xl_frame *f = &tb->stack[d - 1];
	uint32_t c = f->node;
	if (UNLIKELY(f->func != func || c >= XL_FRAME_MORE))
		return exit_slow(func, kind, hot_ticks());

	struct xl_node *n = node_at(h->t, c);
	uint64_t t0 = f->entry_ticks;
	tb->events++;
	uint64_t now = hot_ticks();
	uint64_t dt = now - t0;
	n->ticks += dt;
	tb->last_ticks = now;
	__atomic_store_n(&tb->depth, d - 1, __ATOMIC_RELEASE);
	/* A call shorter than the threshold with no record stored (no callee
	 * of it was kept) leaves none: one compare for most calls once the
	 * threshold has risen. */
	if (LIKELY(dt < h->tl_min) && d - 1 >= tb->tl_written) {
		tb->tl_short_calls++;
		return gate_ready(h);
	}
	return fast_keep(h, tb, d - 1, func, kind, t0, now);
}

RT_NOINSTR int rt__hot_exit(int32_t func)
{
	return hot_exit(func, XL_EV_EXIT);
}

RT_NOINSTR int rt__hot_tail(int32_t func)
{
	return hot_exit(func, XL_EV_TAIL);
}

size_t rt__thread_private_size(void)
{
	return sizeof(struct rt_thread);
}

/* A thread's hot state on its blocks, its timeline state cleared (no
 * block yet, or the scratch state's). */
static RT_NOINSTR void hot_reset(struct rt_hot *h, struct xl_thread_block *tb, struct rt_thread *t,
				 struct xl_func_stat *ftab, uint32_t func_slots, struct xl_cap_block *tl)
{
	h->tb = tb;
	h->t = t;
	h->ftab = ftab;
	h->func_slots = func_slots;
	h->deep = 0;
	h->tl_blk = tl;
	h->tl_stopped = 0;
	h->tl_min = 0;
	h->tl_check = 0;
	h->tl_cursor = 0;
	h->tl_blocks = 0;
	h->deep_quiet = 0;
	h->no_timeline = rt__cfg.counted;
}

/* Called by registration (rt_xray.c) with the gate BUSY. */
int rt__thread_init(struct xl_thread_block *tb, void *priv, struct xl_func_stat *ftab, uint32_t func_slots)
{
	struct rt_hot *h = &rt__hot;
	struct rt_thread *t = priv;
	hot_reset(h, tb, t, ftab, func_slots, &tl_none);
	if (rt__tl_fixed_ticks)
		tl_threshold(h, tb->first_ticks, rt__tl_fixed_ticks);
	return node_add(t, tb, 0, 0) == 0 ? 0 : -1; /* the root */
}

/* A scratch thread state for measuring the hot path (rt_calib.c): a thread
 * block, private tables, three nodes (root, F, F below F) with their cache
 * entries, one open frame for the outer F, and a timeline block for
 * `events` events, all inside `mem` (zeroed, rt__scratch_size(events)
 * bytes).  Nothing of it is in the capture file.  The caller saves rt__hot
 * first and restores it afterwards. */
struct rt_scratch {
	struct xl_thread_block tb;
	struct rt_thread t;
	struct xl_node nodes[3];
	struct xl_cap_block tl; /* followed by the events */
};

size_t rt__scratch_size(uint32_t events)
{
	return sizeof(struct rt_scratch) + (size_t)events * sizeof(struct xl_event);
}

void rt__scratch_enter(void *mem, uint32_t events, int32_t func, uint64_t now)
{
	struct rt_scratch *s = mem;
	struct rt_hot *h = &rt__hot;
	s->t.chunk[0] = s->nodes;
	s->nodes[1].func = func;
	s->nodes[1].parent = 0;
	s->nodes[2].func = func;
	s->nodes[2].parent = 1;
	s->nodes[0].child = 1;
	s->nodes[1].child = 2;
	s->t.cache[cache_slot(node_key(0, func))] = 1;
	s->t.cache[cache_slot(node_key(1, func))] = 2;
	s->tb.node_count = 3;
	frame_write(&s->tb.stack[0], 1, func, now);
	s->t.sp[0] = (uint32_t)(UINT64_C(0x80000000) + (uint32_t)(uintptr_t)&s); /* 2 GiB away: never stale */
	s->tb.depth = 1;
	s->tb.tl_written = 1; /* the outer F's ENTRY counts as stored */
	s->tl.kind = XL_BLOCK_TIMELINE;
	s->tl.capacity = events;
	h->gate = RT_GATE_READY;
	h->deferred = 0; /* the thread's own wait in the saved state */
	hot_reset(h, &s->tb, &s->t, NULL, (uint32_t)func + 1, &s->tl);
	/* Its block never grows: extra events (a signal handler's) are only
	 * counted, and none of the thread's timeline state (a "last" ring's
	 * blocks, the adaptive threshold's) is used on the scratch block. */
	h->tl_stopped = 1;
}

/* Calls recorded so far on the scratch state's inner node, and a fresh
 * timeline block for the next round. */
uint64_t rt__scratch_calls(void *mem)
{
	struct rt_scratch *s = mem;
	s->tl.count = 0;
	return s->nodes[2].calls;
}
