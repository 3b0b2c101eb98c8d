/*
 * rt_internal.h - private state of the exaloop runtime (libexaloop_rt.a).
 *
 * The runtime is the only exaloop code inside the profiled process.  It is
 * linked into the executable (whole-archive) and stays inert unless the CLI
 * set the capture environment (XL_ENV_DIR and a matching XL_ENV_PID).
 *
 * Globals below are written once by the constructor (rt__init) before any
 * handler can run, and read-only afterwards, except where noted.  The hot
 * path (rt_xray.c) takes no lock, calls no malloc, stdio or syscall.
 */
#ifndef RT_INTERNAL_H
#define RT_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <unistd.h>

#include "exaloop/xl_capture.h"

#if defined(__clang__)
#define RT_NOINSTR __attribute__((xray_never_instrument))
#else
#define RT_NOINSTR
#endif
#define RT_HIDDEN __attribute__((visibility("hidden")))

#include "rt_arch.h"

/* Capture file mapping: set by rt__init, never unmapped while the process
 * lives (late handler calls must still find valid memory). */
extern RT_HIDDEN char *rt__base;
extern RT_HIDDEN struct xl_cap_header *rt__hdr;

/* The thread table's slots in use (at most XL_MAX_THREADS), for a walk
 * over every thread's block, and the block of slot i (NULL: not published
 * yet).  Any thread may walk; the slots' blocks live as long as the file. */
static inline uint32_t rt__thread_slots(void)
{
	uint32_t n = __atomic_load_n(&rt__hdr->thread_count, __ATOMIC_ACQUIRE);
	return n < XL_MAX_THREADS ? n : XL_MAX_THREADS;
}
static inline struct xl_thread_block *rt__thread_block(uint32_t i)
{
	uint64_t off = __atomic_load_n((uint64_t *)(void *)(rt__base + XL_HDR_SIZE) + i, __ATOMIC_ACQUIRE);
	return off ? (struct xl_thread_block *)(void *)(rt__base + off) : NULL;
}

/* 1 while the capture window is open; the handler's first check.  Written
 * by the control thread and the destructor.  It lives on a page that the
 * kernel zeroes in every child (rt_init.c), so it reads 0 in any child. */
extern RT_HIDDEN _Atomic int rt__on;
/* The page rt__on lives on, with the owner word (rt_state.c): wiped in
 * every child. */
union rt_proc_page {
	struct {
		_Atomic int on;    /* rt__on (alias) */
		_Atomic int owner; /* 1 in the process that owns the capture */
		_Atomic int alloc; /* 1 while allocations are recorded (rt_alloc.c) */
	} s;
	char page[4096];
};
extern RT_HIDDEN union rt_proc_page rt__proc_page;

/* 1 in the process that owns the capture (not in any child), until
 * finalization: the slow paths' test before they touch shared state.  The
 * owner word is set only once rt__hdr is mapped; the header's pid, the
 * owner's, answers on kernels that do not wipe the page (rt_state.c). */
static inline int rt__owns_capture(void)
{
	return atomic_load(&rt__proc_page.s.owner) && rt__hdr->pid == (uint32_t)getpid();
}

/* A forked child's capture (rt_init.c): made at the child's first traced
 * event, which the full handler sees first (the thread is unregistered):
 * while rt__child_state is set, it calls rt__child_begin() before it
 * registers the thread, and drops the event when that returns -1.  (A
 * pointer set by the constructor, so rt_xray.c does not call rt_init.c,
 * which calls it.) */
extern RT_HIDDEN _Atomic int rt__child_state; /* 1 armed, 2 being made, 0 off */
extern RT_HIDDEN int (*rt__child_begin)(void);
/* A forked child about to exec, and its exec failing (rt_init.c, called
 * by rt_wrap_exec.c). */
RT_HIDDEN int rt__child_exec_note(const char *path, char *const argv[]);
RT_HIDDEN void rt__child_exec_failed(int made);
/* Reset this process's copy of the parent's state in a fork child. */
RT_HIDDEN void rt__threads_fork_child(void); /* rt_xray.c */
RT_HIDDEN void rt__control_fork_child(void); /* rt_control.c */
RT_HIDDEN void rt__mem_fork_child(void);     /* rt_mem.c */
/* The capture settings: the environment, or what `profile attach` handed
 * over (rt_init.c). */
RT_HIDDEN const char *rt__getenv(const char *name); /* rt_state.c */
extern RT_HIDDEN const char *rt__attach_settings;
/* The entry point `profile attach` calls (xl_capture.h: XL_ATTACH_SYMBOL);
 * exported, so that the CLI finds it in the executable's symbol table. */
__attribute__((visibility("default"))) int __exaloop_attach(const char *settings, unsigned long len);
RT_HIDDEN void rt__child_window_open(void); /* rt_control.c */

/* Capture settings, read from the environment once. */
struct rt_config {
	uint32_t mode; /* enum xl_cap_mode */
	uint64_t buffer_size;
	uint64_t interval_ns;
	uint64_t delay_ns;
	uint64_t duration_ns;
	int32_t *include_ids; /* NULL: patch everything */
	size_t include_count;
	uint32_t tl_mode;     /* enum xl_tl_mode */
	uint64_t tl_min_ns;   /* fixed timeline threshold, 0: none */
	uint32_t sample_rate; /* samples per second and thread, 0: none */
	uint32_t counted;     /* --timing=sampled: count calls, read no clock
			       * per call, keep no timeline (rt_hot.c) */
};
extern RT_HIDDEN struct rt_config rt__cfg;
/* The value of rt__on while recording: 1, or RT_ON_COUNTED when calls are
 * only counted (--timing=sampled), which the hot path's first test
 * already tells apart from 1 (rt_hot.c: HOT_GATE). */
#define RT_ON_COUNTED 2
static inline int rt__on_value(void)
{
	return rt__cfg.counted ? RT_ON_COUNTED : 1;
}

/* The timeline's settings in ticks for the hot path's general code
 * (rt_hot.c), set by rt__tl_setup() at window open, before any event:
 * the fixed threshold (0: none), the end of the window (0: open-ended,
 * no duration) and XL_TL_AUTO's shortest horizon (RT_TL_MIN_HORIZON_NS:
 * past the arena's first RT_TL_FREE_BYTES, the budget is spread over a
 * run of at least that long). */
#define RT_TL_MIN_HORIZON_NS 1000000000u
#define RT_TL_FREE_BYTES (2u << 20)
extern RT_HIDDEN uint32_t rt__tl_mode; /* rt__cfg.tl_mode */
extern RT_HIDDEN uint64_t rt__tl_fixed_ticks;
extern RT_HIDDEN uint64_t rt__tl_end_ticks;
extern RT_HIDDEN uint64_t rt__tl_horizon_ticks;
RT_HIDDEN void rt__tl_setup(uint64_t open_ticks);
/* A thread's end in XL_TL_LAST (rt_hot.c): its timeline stops, so that
 * threads starting later may take its oldest blocks. */
RT_HIDDEN void rt__tl_close(struct xl_thread_block *tb);

/* rt_clock.c */
extern RT_HIDDEN int rt__use_tsc;
RT_HIDDEN void rt__clock_init(void);
RT_HIDDEN uint64_t rt__mono_ns(void);

static inline RT_NOINSTR uint64_t rt__ticks(void)
{
	if (__builtin_expect(rt__use_tsc, 1))
		return rt__arch_ticks();
	return rt__mono_ns();
}

/* rt_arena.c: bump allocation inside the capture file.  Returns the block
 * (header filled in) or NULL when the budget (`limit`) is spent. */
RT_HIDDEN struct xl_cap_block *rt__alloc_block(uint32_t kind, uint32_t owner, uint64_t size, uint64_t limit);

/* Per-thread hot state (rt_hot.c), one initial-exec TLS block.
 *
 * `gate` is the re-entry guard and the "is this thread ready" test in one
 * word: the hot path runs only when it is RT_GATE_READY.  A new thread
 * starts at RT_GATE_NEW (TLS initial value) until rt_xray.c registers it.
 * The TLS model is local-exec: the runtime is a static library linked into
 * executables only (linking it into a shared object fails at link time).
 *
 * Everything here is written by its own thread only. */
#define RT_GATE_READY 0u
#define RT_GATE_BUSY 1u /* inside the handler (signal re-entry) */
#define RT_GATE_NEW 2u  /* not registered yet */
#define RT_GATE_OFF 4u  /* registration failed: ignore events */
#define RT_GATE_SLOW \
	8u /* registered; clock_gettime clock, so
				  * every event takes the full handler */
#define RT_NO_NODE UINT32_MAX

struct rt_thread; /* private per-thread tables, rt_hot.c */

/* An event made while another of the same thread was being handled (a
 * signal handler running traced code inside the hot path): kept in TLS and
 * handled at the thread's next event (rt_hot.c: deferred events). */
#define RT_DEFER_MAX 64u
struct rt_deferred {
	int32_t func;
	uint32_t type; /* 0 entry, 1 exit, 2 tail (rt__hot_event_at) */
	uint64_t ticks;
	uint64_t sp;
};

struct rt_hot {
	/* gate | deferred is the hot path's first test (rt_hot.c:
	 * HOT_GATE): 0 only when the thread is ready and no deferred event
	 * waits.  The hot path stores gate alone, as a 32-bit word, so a
	 * count raised by a signal handler survives the event it
	 * interrupted. */
	uint32_t gate;
	uint32_t deferred; /* events in defer[] (may exceed RT_DEFER_MAX:
			    * those beyond it are lost, and counted) */
	uint32_t deep;     /* open frames beyond XL_MAX_DEPTH (tb->depth
				      * stays at XL_MAX_DEPTH meanwhile) */
	struct xl_thread_block *tb;
	struct rt_thread *t;
	/* The thread's per-function table (xl_capture.h: xl_func_stat), of
	 * func_slots records (function ids 1..func_slots-1 get frames); NULL
	 * when it found no room.  Written by the general code only. */
	struct xl_func_stat *ftab;
	uint32_t func_slots;
	/* The current timeline block.  Before the first block and after the
	 * budget ran out (tl_stopped) it is a static block that reads as
	 * full, so the fast path needs one test for "no room". */
	struct xl_cap_block *tl_blk;
	struct xl_cap_block *tl_prev; /* the block before tl_blk, or NULL */
	/* The thread's timeline threshold (tb->tl_threshold): an exit whose
	 * call is shorter takes the call out of the timeline (rt_hot.c). */
	uint64_t tl_min;
	/* XL_TL_AUTO: the time and the arena's cursor at the threshold's last
	 * change (or the first block); XL_TL_LAST: timeline blocks held. */
	uint64_t tl_check;
	uint64_t tl_cursor;
	uint32_t tl_blocks;
	uint32_t deep_quiet;  /* deep events not stored (rt_hot.c: deep_event) */
	uint32_t no_timeline; /* --timing=sampled: the general code stores no
			       * timeline record either */
	uint32_t tl_stopped;
	uint32_t unrecorded; /* events of this unregistered (RT_GATE_OFF)
				      * thread not yet added to the header */
	/* The stack pointer of an entry the hot path handed to the full
	 * handler (sp_pending set): the full handler runs on a deeper stack,
	 * so it uses the value the first caller saw (rt_xray.c). */
	uint32_t sp_pending;
	uint64_t pending_sp;
	/* Heap allocations (rt_alloc.c): the thread's writer-private map from
	 * node (or function) to its allocation record, NULL until its first
	 * allocation in the window; and the wrappers' re-entry guard: while
	 * it is non-zero the thread's allocation calls are not recorded (the
	 * runtime's own, and those a wrapped allocator makes inside one being
	 * recorded, such as a program's own operator new calling malloc). */
	struct rt_amap *am;
	uint32_t in_alloc;
	struct rt_deferred defer[RT_DEFER_MAX];
};
extern RT_HIDDEN __thread struct rt_hot rt__hot __attribute__((tls_model("local-exec")));

/* rt_hot.c: the hot path.  Built with -mgeneral-regs-only and calling
 * nothing outside rt_hot.c and rt_arena.c, so the lean trampolines
 * (rt_tramp_x86_64.S) may call the three rt__hot_* entry points with only
 * the argument registers saved.  Each handles one event and returns 0, or
 * returns 1 without doing anything when the event needs the full handler
 * (the thread is not registered yet, or the clock is clock_gettime).
 *
 * An entry comes with a stack pointer: any value that is lower for a
 * callee than for its caller and the same for every entry made on one
 * path (the lean trampolines pass the function's own %rsp at entry; the
 * full handler its own frame address).  Open frames whose entry stack
 * pointer is at or below a new entry's were left without an exit (a C++
 * exception or a longjmp unwound them): they are closed there, as
 * unwound frames, so that later calls are not counted below them. */
RT_HIDDEN int rt__hot_entry(int32_t func, uint64_t sp);
RT_HIDDEN int rt__hot_exit(int32_t func);
RT_HIDDEN int rt__hot_tail(int32_t func);
/* One event at a given time, for the full handler (gate must be BUSY);
 * sp as for rt__hot_entry (entries only). */
RT_HIDDEN void rt__hot_event_at(int32_t func, int type, uint64_t sp, uint64_t now);
/* The thread's deferred events (signal handlers' events made inside
 * another event) into the tree; gate must be BUSY.  rt__hot_flush takes
 * the gate itself: for thread exit and finalization on the thread. */
RT_HIDDEN void rt__hot_replay(void);
RT_HIDDEN void rt__hot_flush(void);
/* Size of the private tables that follow a thread block in the arena, and
 * their set-up (creates the root node).  Returns 0, or -1 when the arena
 * has no room for the root's node chunk. */
RT_HIDDEN size_t rt__thread_private_size(void);
RT_HIDDEN int rt__thread_init(struct xl_thread_block *tb, void *priv, struct xl_func_stat *ftab, uint32_t func_slots);

/* Scratch thread state for rt_calib.c (see rt_hot.c).  The timeline block
 * holds `events` events, at most XL_EVENTS_PER_CHUNK (the fast path's
 * "full" test compares with that constant), and the caller resets it
 * (rt__scratch_calls) before it fills: a full block would send the next
 * event to the general code, which would take a timeline block from the
 * capture. */
RT_HIDDEN size_t rt__scratch_size(uint32_t events);
RT_HIDDEN void rt__scratch_enter(void *mem, uint32_t events, int32_t func, uint64_t now);
RT_HIDDEN uint64_t rt__scratch_calls(void *mem);

/* rt_calib.c: measure the cost of one traced call (trampolines + handler)
 * and store it in the header (cal_calls, cal_ticks).  Called by
 * rt__finalize while the window is still open. */
RT_HIDDEN void rt__calibrate(void);

/* rt_xray.c: the handler registered with XRay (also the fallback used
 * with compiler-rt's own trampolines), thread registration and exit. */
RT_HIDDEN void rt__xray_handler(int32_t func, int type);
/* rt_unwind.c: 1 unless the executable certainly neither catches C++
 * exceptions nor longjmps; rt_init.c stores it in rt__track_sp, which
 * turns the hot path's stale-frame check on (rt_hot.c). */
RT_HIDDEN int rt__program_may_unwind(void);
extern RT_HIDDEN int rt__track_sp;
/* The handler's work with an explicit stack pointer for entries (see
 * rt__hot_entry); the unit tests drive it with synthetic ones. */
RT_HIDDEN void rt__xray_event(int32_t func, int type, uint64_t sp);
/* apart: read the running threads' names on a descriptor table of their
 * own (rt_xray.c); only on the control thread while it runs its loop, not
 * when it is the last thread and glibc's exit(0) runs the destructors on
 * it. */
RT_HIDDEN void rt__threads_finalize(uint64_t now, int apart);
/* Refresh the names of running threads (control thread, every
 * RT_RENAME_NS while the window is open), so that a program that is
 * killed still shows the names its threads gave themselves. */
#define RT_RENAME_NS 500000000u
RT_HIDDEN void rt__threads_rename(void);
RT_HIDDEN void rt__thread_key_init(void);

/* rt_patch.c: XRay control through weak references (absent in memory-only
 * builds).  Return 0 on success. */
RT_HIDDEN int rt__xray_available(void);
RT_HIDDEN int rt__patch(void);
RT_HIDDEN void rt__unpatch(void);

/* rt_control.c: the control thread (capture window + memory sampling). */
RT_HIDDEN int rt__control_start(void);
RT_HIDDEN int rt__control_start_child(int lazy);
RT_HIDDEN void rt__control_stop(void);
/* Called by a thread's registration (rt_xray.c) once the control thread
 * exists: it opens the thread's sampler now, not at its next wake-up
 * (rt_control.c sets it; a pointer, so that rt_xray.c, which the control
 * thread's patching uses, does not use rt_control.c in turn).  NULL: none. */
extern RT_HIDDEN void (*_Atomic rt__thread_started)(void);
/* A call the kernel refuses in a multithreaded process (unshare or setns
 * of a user namespace): pause stops the control thread (joined, and its
 * task gone), resume starts it again where it left off.  pause returns
 * what resume takes: 0 when there was nothing to stop, or the thread
 * must not come back (the window closed). */
RT_HIDDEN int rt__control_pause(void);
RT_HIDDEN void rt__control_resume(int paused);
RT_HIDDEN void rt__window_open(void);
RT_HIDDEN void rt__finalize(uint32_t reason);

/* rt_alloc.c: heap allocations (xl_capture.h, struct xl_alloc_stat),
 * recorded by the wrappers of libexaloop_alloc.a (rt_wrap_*.c) when the
 * link wrapped the allocation functions.  rt__alloc_init: at start-up,
 * before the window; rt__alloc_fork_child: in a forked child (its capture,
 * if it makes one, starts with an empty address table, or none);
 * rt__alloc_child_begin: when the child's capture is made. */
RT_HIDDEN void rt__alloc_init(void);
RT_HIDDEN void rt__alloc_fork_child(void);
RT_HIDDEN void rt__alloc_child_begin(void);
/* Running sums for the memory samples (XL_UNAVAILABLE when off). */
RT_HIDDEN void rt__alloc_totals(int64_t *bytes, int64_t *calls);
/* The runtime's own allocation calls are not recorded: between these. */
static inline void rt__alloc_self_begin(void)
{
	rt__hot.in_alloc++;
}
static inline void rt__alloc_self_end(void)
{
	rt__hot.in_alloc--;
}
/* The wrappers' test: record this call? */
static inline int rt__alloc_active(void)
{
	return __builtin_expect(atomic_load_explicit(&rt__proc_page.s.alloc, memory_order_relaxed), 0) &&
	       !rt__hot.in_alloc;
}
/* A block removed from the address table (rt__alloc_take) */
struct rt_taken {
	uint64_t val;  /* the table's value: record and size */
	uint64_t size; /* bytes */
};
/* An allocation of n bytes at p (gc: the collector's, not in the table). */
RT_HIDDEN void rt__alloc_note(void *p, size_t n, int gc);
/* Before p is freed (or reallocated): take it out of the table.  Returns 1
 * with *t filled, or 0 when the runtime did not see p allocated (counted as
 * an unmatched free). */
RT_HIDDEN int rt__alloc_take(void *p, struct rt_taken *t);
/* The free of a taken block: comes off the record that allocated it. */
RT_HIDDEN void rt__alloc_release(const struct rt_taken *t);
/* A taken block that was not freed after all (realloc failed). */
RT_HIDDEN void rt__alloc_untake(void *p, const struct rt_taken *t);
RT_HIDDEN void rt__alloc_gc_free(void);
/* The address table's mapping, NULL (and *len 0) when there is none: its
 * resident pages are the profiler's, not the program's (rt_mem.c). */
RT_HIDDEN const void *rt__alloc_table(uint64_t *len);

/* rt_sample.c: instruction and position samples (xl_capture.h,
 * "Samples"), all on the control thread (the finalizer's after it was
 * joined).  rt__sample_step: while the window is open, every time the
 * control thread wakes; starts the samplers of new threads, drains their
 * rings, ends those of ended threads, takes a position round when one is
 * due; returns when it is next due (CLOCK_MONOTONIC ns), UINT64_MAX when
 * sampling is off.  rt__sample_finish: at finalization, a last drain, the
 * mappings again (apart: on a thread apart, as rt__threads_finalize's
 * names), every sampler ended.  rt__sample_fork_child: a forked
 * child has none of its parent's samplers (their rings are not copied). */
RT_HIDDEN uint64_t rt__sample_step(uint64_t now_ns);
RT_HIDDEN void rt__sample_finish(int apart);
RT_HIDDEN void rt__sample_fork_child(void);

/* rt_apart.c: fn(arg) on a short-lived thread whose descriptor table is
 * its own (and empty), so that descriptors it opens are never among the
 * program's.  0 when fn ran, else an errno (the thread or the table could
 * not be made). */
RT_HIDDEN int rt__run_apart(void (*fn)(void *), void *arg);
/* Give the calling thread a descriptor table of its own (and empty):
 * rt__run_apart then runs its work inline there.  0, or an errno. */
RT_HIDDEN int rt__fds_own(void);

/* rt_mem.c */
RT_HIDDEN void rt__mem_init(void);
/* A memory sample; capture_len bounds the scan of the capture mapping's
 * resident pages (rt__profiler_resident): how far its pages may have been
 * touched. */
RT_HIDDEN void rt__mem_sample(struct xl_mem_sample *s, uint64_t capture_len);
/* The profiler's resident bytes: the capture mapping's (as far as
 * capture_len) and the allocation address table's. */
RT_HIDDEN int64_t rt__profiler_resident(uint64_t capture_len);
RT_HIDDEN int64_t rt__peak_rss(void);
RT_HIDDEN int rt__gc_present(void);
RT_HIDDEN int rt__gc_started(void); /* linked and GC_init has run */
/* Descriptors the runtime keeps open live at RT_FD_FLOOR or above,
 * close-on-exec, so the program never meets them (rt_mem.c). */
#define RT_FD_FLOOR 900
RT_HIDDEN int rt__fd_high(int fd);

#endif
