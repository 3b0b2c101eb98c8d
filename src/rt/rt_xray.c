/*
 * rt_xray.c - the XRay event handler: the runtime's hot path.
 *
 * Every patched function entry and exit lands in rt__xray_handler.  It
 * updates the calling thread's calling-context tree (one node per distinct
 * call path: call count at entry, inclusive ticks at exit) and appends the
 * event to the thread's timeline while timeline budget lasts.
 *
 * Rules (architecture.md, "The runtime"): no lock, no malloc, no stdio, no
 * syscall on the steady path; state in initial-exec TLS; errno preserved;
 * safe after the handler was removed (rt__on is checked first and the
 * mapping is never unmapped).  A thread's first event registers it, which
 * does make two syscalls (gettid, prctl) once per thread.
 *
 * All per-thread data is written by its own thread only.  Records are
 * complete before the counter that publishes them is stored (release), so
 * a capture cut off anywhere reads consistently (see xl_capture.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_internal.h"

#define NO_NODE UINT32_MAX
#define CACHE_SIZE 4096u   /* (parent, func) -> node, direct mapped */

/* Writer-private per-thread state.  It lives in the arena right after the
 * thread's xl_thread_block (the reader never looks at it), so registering a
 * thread needs no malloc. */
struct rt_thread {
	struct xl_thread_block *tb;
	struct xl_node *chunk[XL_MAX_NODE_CHUNKS];
	uint32_t cache[CACHE_SIZE];
	struct xl_cap_block *tl_blk;     /* current timeline block */
	struct xl_event *tl_ev;
	uint32_t tl_count, tl_cap;
	uint32_t deep;                   /* open frames beyond XL_MAX_DEPTH */
	int tl_stopped;
};

struct rt_tls {
	struct rt_thread *t;
	int busy;                        /* re-entry guard (signal handlers) */
	int disabled;                    /* registration failed: ignore events */
};

static __thread struct rt_tls tls __attribute__((tls_model("initial-exec")));
static pthread_key_t thread_key;
static int thread_key_ok;

static inline RT_NOINSTR struct xl_node *node_at(struct rt_thread *t, uint32_t i)
{
	return &t->chunk[i / XL_NODES_PER_CHUNK][i % XL_NODES_PER_CHUNK];
}

static inline RT_NOINSTR uint64_t off_of(const void *p)
{
	return (uint64_t)((const char *)p - rt__base);
}

static RT_NOINSTR void flag_set(uint32_t f)
{
	__atomic_fetch_or(&rt__hdr->flags, f, __ATOMIC_RELAXED);
}

/* Append a node below `parent`.  Returns NO_NODE when node space is spent. */
static RT_NOINSTR uint32_t node_add(struct rt_thread *t, uint32_t parent, int32_t func)
{
	struct xl_thread_block *tb = t->tb;
	uint32_t idx = tb->node_count;
	uint32_t c = idx / XL_NODES_PER_CHUNK;
	if (idx % XL_NODES_PER_CHUNK == 0) {
		struct xl_cap_block *b = NULL;
		if (c < XL_MAX_NODE_CHUNKS)
			b = rt__alloc_block(XL_BLOCK_NODES, tb->slot,
					    sizeof(*b) + XL_NODES_PER_CHUNK * sizeof(struct xl_node),
					    rt__hdr->file_size);
		if (!b) {
			flag_set(XL_FLAG_NODES_FULL);
			return NO_NODE;
		}
		b->capacity = XL_NODES_PER_CHUNK;
		t->chunk[c] = (struct xl_node *)(b + 1);
		__atomic_store_n(&tb->node_chunks[c], off_of(t->chunk[c]), __ATOMIC_RELEASE);
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

static inline RT_NOINSTR uint32_t child_of(struct rt_thread *t, uint32_t parent, int32_t func)
{
	uint32_t h = (parent * 2654435761u ^ (uint32_t)func * 40503u) % CACHE_SIZE;
	uint32_t c = t->cache[h];
	if (c) {
		struct xl_node *n = node_at(t, c);
		if (n->parent == parent && n->func == func)
			return c;
	}
	for (c = node_at(t, parent)->child; c; c = node_at(t, c)->sibling) {
		if (node_at(t, c)->func == func) {
			t->cache[h] = c;
			return c;
		}
	}
	c = node_add(t, parent, func);
	if (c != NO_NODE)
		t->cache[h] = c;
	return c;
}

/* Get a new timeline block; on failure the timeline stops for this thread. */
static RT_NOINSTR int tl_grow(struct rt_thread *t, uint64_t now)
{
	if (t->tl_stopped)
		return 0;
	struct xl_cap_block *b = rt__alloc_block(XL_BLOCK_TIMELINE, t->tb->slot,
						 sizeof(*b) + XL_EVENTS_PER_CHUNK * sizeof(struct xl_event),
						 rt__hdr->timeline_limit);
	if (!b) {
		t->tl_stopped = 1;
		t->tb->dropped_from_ticks = now;
		flag_set(XL_FLAG_TIMELINE_FULL);
		uint64_t zero = 0;
		__atomic_compare_exchange_n(&rt__hdr->timeline_full_ticks, &zero, now, 0,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
		return 0;
	}
	b->capacity = XL_EVENTS_PER_CHUNK;
	if (t->tl_blk)
		__atomic_store_n(&t->tl_blk->next, off_of(b), __ATOMIC_RELEASE);
	else
		__atomic_store_n(&t->tb->timeline_first, off_of(b), __ATOMIC_RELEASE);
	t->tl_blk = b;
	t->tl_ev = (struct xl_event *)(b + 1);
	t->tl_count = 0;
	t->tl_cap = XL_EVENTS_PER_CHUNK;
	return 1;
}

static inline RT_NOINSTR void tl_put(struct rt_thread *t, uint64_t now, int32_t func, uint32_t kind)
{
	if (t->tl_count == t->tl_cap && !tl_grow(t, now)) {
		t->tb->dropped_events++;
		return;
	}
	struct xl_event *ev = &t->tl_ev[t->tl_count];
	ev->func = func;
	ev->kind = kind;
	ev->ticks = now;
	t->tl_count++;
	__atomic_store_n(&t->tl_blk->count, t->tl_count, __ATOMIC_RELEASE);
	t->tb->timeline_events++;
}

static RT_NOINSTR struct rt_thread *thread_register(uint64_t now)
{
	int saved_errno = errno;
	struct rt_thread *t = NULL;
	uint32_t slot = __atomic_fetch_add(&rt__hdr->thread_count, 1, __ATOMIC_RELAXED);
	if (slot >= XL_MAX_THREADS) {
		__atomic_fetch_add(&rt__hdr->threads_dropped, 1, __ATOMIC_RELAXED);
		flag_set(XL_FLAG_THREADS_FULL);
		goto out;
	}
	struct xl_cap_block *b = rt__alloc_block(XL_BLOCK_THREAD, slot,
						 sizeof(struct xl_thread_block) + sizeof(struct rt_thread),
						 rt__hdr->file_size);
	if (!b) {
		flag_set(XL_FLAG_NODES_FULL);
		goto out;
	}
	struct xl_thread_block *tb = (struct xl_thread_block *)b;
	t = (struct rt_thread *)(tb + 1);
	t->tb = tb;
	tb->slot = slot;
	tb->tid = (uint32_t)syscall(SYS_gettid);
	prctl(PR_GET_NAME, tb->name, 0, 0, 0);
	tb->first_ticks = now;
	tb->last_ticks = now;
	if (node_add(t, 0, 0) != 0) {   /* the root */
		t = NULL;
		goto out;
	}
	uint64_t *table = (uint64_t *)(rt__base + XL_HDR_SIZE);
	__atomic_store_n(&table[slot], off_of(tb), __ATOMIC_RELEASE);
	if (thread_key_ok)
		pthread_setspecific(thread_key, t);
out:
	tls.t = t;
	tls.disabled = (t == NULL);
	errno = saved_errno;
	return t;
}

static inline RT_NOINSTR void on_entry(struct rt_thread *t, int32_t func, uint64_t now)
{
	struct xl_thread_block *tb = t->tb;
	uint32_t d = tb->depth;
	if (__builtin_expect(d >= XL_MAX_DEPTH, 0)) {
		t->deep++;
		tb->deep_events++;
		tl_put(t, now, func, XL_EV_ENTRY);
		return;
	}
	uint32_t parent = d ? tb->stack[d - 1].node : 0;
	uint32_t n = parent == NO_NODE ? NO_NODE : child_of(t, parent, func);
	if (__builtin_expect(n != NO_NODE, 1))
		node_at(t, n)->calls++;
	else
		tb->lost_node_events++;
	struct xl_frame *f = &tb->stack[d];
	f->node = n;
	f->func = func;
	f->entry_ticks = now;
	__atomic_store_n(&tb->depth, d + 1, __ATOMIC_RELEASE);
	tl_put(t, now, func, XL_EV_ENTRY);
}

static inline RT_NOINSTR void close_frame(struct rt_thread *t, uint32_t i, uint64_t now)
{
	struct xl_frame *f = &t->tb->stack[i];
	if (f->node != NO_NODE)
		node_at(t, f->node)->ticks += now - f->entry_ticks;
}

static inline RT_NOINSTR void on_exit(struct rt_thread *t, int32_t func, uint32_t kind, uint64_t now)
{
	struct xl_thread_block *tb = t->tb;
	if (__builtin_expect(t->deep != 0, 0)) {
		t->deep--;
		tb->deep_events++;
		tl_put(t, now, func, kind);
		return;
	}
	uint32_t d = tb->depth;
	if (__builtin_expect(d == 0 || tb->stack[d - 1].func != func, 0)) {
		/* An exit that does not match the top frame: either frames were
		 * skipped (longjmp, exception unwinding through uninstrumented
		 * code) and the function is further down, or there never was an
		 * entry (patched while the function was running). */
		uint32_t k = d;
		while (k > 0 && tb->stack[k - 1].func != func)
			k--;
		if (k == 0) {
			tb->repaired_exits++;
			return;
		}
		while (d > k) {
			d--;
			close_frame(t, d, now);
			tl_put(t, now, tb->stack[d].func, XL_EV_EXIT);
			tb->unwound_frames++;
		}
	}
	d--;
	close_frame(t, d, now);
	__atomic_store_n(&tb->depth, d, __ATOMIC_RELEASE);
	tl_put(t, now, func, kind);
}

RT_NOINSTR void rt__xray_handler(int32_t func, int type)
{
	if (!atomic_load_explicit(&rt__on, memory_order_relaxed))
		return;
	if (tls.busy)
		return;
	tls.busy = 1;
	uint64_t now = rt__ticks();
	struct rt_thread *t = tls.t;
	if (__builtin_expect(t == NULL, 0)) {
		if (tls.disabled || !(t = thread_register(now)))
			goto out;
	}
	t->tb->events++;
	t->tb->last_ticks = now;
	switch (type) {
	case 0: /* ENTRY */
	case 3: /* LOG_ARGS_ENTRY */
		on_entry(t, func, now);
		break;
	case 1: /* EXIT */
		on_exit(t, func, XL_EV_EXIT, now);
		break;
	case 2: /* TAIL: the function left through a tail call */
		on_exit(t, func, XL_EV_TAIL, now);
		break;
	default:
		break;
	}
out:
	tls.busy = 0;
}

/* Thread exit: record when, and the final thread name. */
static void thread_gone(void *arg)
{
	struct rt_thread *t = arg;
	int saved_errno = errno;
	t->tb->exit_ticks = rt__ticks();
	char name[16] = {0};
	if (prctl(PR_GET_NAME, name, 0, 0, 0) == 0 && name[0])
		memcpy(t->tb->name, name, sizeof(name));
	errno = saved_errno;
}

void rt__thread_key_init(void)
{
	thread_key_ok = pthread_key_create(&thread_key, thread_gone) == 0;
}

/* At finalization: refresh names of threads still running (they may have
 * been renamed after their first event). */
void rt__threads_finalize(uint64_t now)
{
	uint64_t *table = (uint64_t *)(rt__base + XL_HDR_SIZE);
	uint32_t n = __atomic_load_n(&rt__hdr->thread_count, __ATOMIC_ACQUIRE);
	if (n > XL_MAX_THREADS)
		n = XL_MAX_THREADS;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t off = __atomic_load_n(&table[i], __ATOMIC_ACQUIRE);
		if (!off)
			continue;
		struct xl_thread_block *tb = (struct xl_thread_block *)(rt__base + off);
		if (tb->exit_ticks)
			continue;
		char path[64], name[XL_THREAD_NAME_MAX] = {0};
		snprintf(path, sizeof(path), "/proc/self/task/%u/comm", tb->tid);
		FILE *f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f)) {
			name[strcspn(name, "\n")] = 0;
			if (name[0])
				memcpy(tb->name, name, sizeof(name));
		}
		fclose(f);
	}
	(void)now;
}
