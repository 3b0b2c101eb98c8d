/*
 * rt_xray.c - the XRay handler, thread registration and thread exit.
 *
 * rt__xray_handler is the function installed with __xray_set_handler.
 * With exaloop's own trampolines (rt_tramp_<arch>.S) the hot path
 * (rt_hot.c) is called directly and this handler only sees what the hot
 * path refuses; with compiler-rt's trampolines (EXALOOP_STOCK_TRAMPOLINES,
 * or another architecture) every event comes through here and goes on to
 * the same hot path.
 *
 * Rules (architecture.md, "The runtime"): no lock, no malloc, no stdio, no
 * syscall on the steady path; state in TLS; errno preserved; safe after the
 * handler was removed (rt__on is checked first and the mapping is never
 * unmapped).  A thread's first event registers it, which does make two
 * syscalls (gettid, prctl) once per thread; that runs here, never on the
 * lean path, because libc may use vector registers.
 *
 * All per-thread data is written by its own thread only.  Records are
 * complete before the counter that publishes them is stored (release), so
 * a capture cut off anywhere reads consistently (see xl_capture.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "rt_internal.h"

#define NOINLINE __attribute__((noinline))

/* The thread block of each registered thread, for the pthread key's
 * destructor (thread exit time and final name). */
static pthread_key_t thread_key;
static int thread_key_ok;
/* The key's value for a thread that could not be registered: its exit adds
 * the events it made since the last batch (rt__hot.unrecorded). */
static char unregistered;

/* CPU time of a thread, ns (0 when it cannot be read).  Another thread of
 * this process is read through the CPU clock the kernel derives from its
 * tid (the clock id pthread_getcpuclockid computes from a thread's tid:
 * MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED)), which needs no pthread_t;
 * the kernel allows it within the thread group only.  tid 0: the calling
 * thread.  A syscall: at registration, thread exit, and from the control
 * thread, never on the hot path. */
static uint64_t thread_cpu_ns(uint32_t tid)
{
	clockid_t id = tid ? (clockid_t)((~(clockid_t)tid << 3) | 4 /* per thread */ | 2 /* sched */)
			   : CLOCK_THREAD_CPUTIME_ID;
	struct timespec ts;
	if (clock_gettime(id, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Record a thread's CPU time now (its own thread, its exit, or the control
 * thread with the handshake below keeping the exit out). */
static void cpu_store(struct xl_thread_block *tb, uint32_t tid)
{
	uint64_t ns = thread_cpu_ns(tid);
	if (!ns)
		return;
	__atomic_store_n(&tb->cpu_ns, ns, __ATOMIC_RELAXED);
	__atomic_store_n(&tb->cpu_at_ticks, rt__ticks(), __ATOMIC_RELEASE);
}

static RT_NOINSTR int thread_register(uint64_t now)
{
	int saved_errno = errno;
	int ok = 0;
	uint32_t slot = __atomic_fetch_add(&rt__hdr->thread_count, 1, __ATOMIC_RELAXED);
	if (slot >= XL_MAX_THREADS) {
		__atomic_fetch_add(&rt__hdr->threads_dropped, 1, __ATOMIC_RELAXED);
		__atomic_fetch_or(&rt__hdr->flags, XL_FLAG_THREADS_FULL, __ATOMIC_RELAXED);
		goto out;
	}
	/* One block: the thread block, the private tables, and the
	 * per-function table (32 bytes per XRay function id).  Without room
	 * for the table the thread is still recorded, without one
	 * (XL_FLAG_NO_FUNC_TABLE; its functions then lack the calls of
	 * "(more call paths)" subtrees, and the analyzer says so). */
	uint32_t slots = rt__hdr->max_function_id + 1;
	uint64_t head = (sizeof(struct xl_thread_block) + rt__thread_private_size() + 63) & ~(uint64_t)63;
	struct xl_func_stat *ftab = NULL;
	struct xl_cap_block *b = rt__alloc_block(
		XL_BLOCK_THREAD, slot, head + (uint64_t)slots * sizeof(struct xl_func_stat), rt__hdr->file_size);
	if (b) {
		ftab = (struct xl_func_stat *)((char *)b + head);
	} else {
		b = rt__alloc_block(XL_BLOCK_THREAD, slot, head, rt__hdr->file_size);
		if (b)
			__atomic_fetch_or(&rt__hdr->flags, XL_FLAG_NO_FUNC_TABLE, __ATOMIC_RELAXED);
	}
	if (!b) {
		__atomic_fetch_or(&rt__hdr->flags, XL_FLAG_NODES_FULL, __ATOMIC_RELAXED);
		__atomic_fetch_add(&rt__hdr->threads_unplaced, 1, __ATOMIC_RELAXED);
		goto out;
	}
	struct xl_thread_block *tb = (struct xl_thread_block *)b;
	tb->slot = slot;
	tb->tid = (uint32_t)syscall(SYS_gettid);
	prctl(PR_GET_NAME, tb->name, 0, 0, 0);
	tb->first_ticks = now;
	tb->last_ticks = now;
	tb->cpu_start_ns = thread_cpu_ns(0);
	tb->func_slots = slots;
	tb->func_table = ftab ? (uint64_t)((char *)ftab - rt__base) : 0;
	if (rt__thread_init(tb, tb + 1, ftab, slots) != 0) {
		__atomic_fetch_add(&rt__hdr->threads_unplaced, 1, __ATOMIC_RELAXED);
		goto out;
	}
	uint64_t *table = (uint64_t *)(rt__base + XL_HDR_SIZE);
	__atomic_store_n(&table[slot], (uint64_t)((char *)tb - rt__base), __ATOMIC_RELEASE);
	if (thread_key_ok)
		pthread_setspecific(thread_key, tb);
	ok = 1;
	void (*started)(void) = atomic_load_explicit(&rt__thread_started, memory_order_relaxed);
	if (started)
		started();
out:
	if (!ok && thread_key_ok)
		pthread_setspecific(thread_key, &unregistered);
	errno = saved_errno;
	return ok;
}

/* Events the hot path refused: a thread's first event (registration makes
 * two syscalls, gettid and prctl, and may call pthread_setspecific), and
 * every event when the clock is clock_gettime (RT_GATE_SLOW). */
static NOINLINE RT_NOINSTR void slow_event(int32_t func, int type)
{
	struct rt_hot *h = &rt__hot;
	if (!atomic_load_explicit(&rt__on, memory_order_relaxed))
		return;
	uint32_t g = h->gate;
	if (g != RT_GATE_NEW && g != RT_GATE_SLOW)
		return; /* busy (re-entry) or disabled */
	if (__builtin_expect(atomic_load_explicit(&rt__child_state, memory_order_relaxed) != 0, 0) &&
	    rt__child_begin() != 0)
		return; /* a forked child without a capture */
	h->gate = RT_GATE_BUSY;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	uint64_t now = rt__ticks();
	if (g == RT_GATE_NEW && !thread_register(now)) {
		/* this event and any a signal handler made meanwhile; later
		 * ones: rt_hot.c */
		h->unrecorded += 1 + __atomic_exchange_n(&h->deferred, 0, __ATOMIC_RELAXED);
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		h->gate = RT_GATE_OFF;
		return;
	}
	if (h->deferred) /* a signal handler's events, made inside an earlier event */
		rt__hot_replay();
	rt__hot_event_at(func, type, h->pending_sp, rt__cfg.counted ? 0 : now);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	h->gate = rt__use_tsc ? RT_GATE_READY : RT_GATE_SLOW;
}

/* A thread's first event calls into libc, which may change vector state
 * the trampolines' full path does not keep (rt_arch_x86_64.c says which
 * and why; AArch64 needs nothing kept). */
static NOINLINE RT_NOINSTR void first_event(int32_t func, int type)
{
	struct rt_arch_vstate x;
	rt__arch_vstate_save(&x);
	slow_event(func, type);
	rt__arch_vstate_restore(&x);
}

/* The handler installed with __xray_set_handler.  exaloop's trampolines
 * call the rt__hot_* functions directly and come here only for what they
 * refuse; compiler-rt's trampolines (the fallback) come here for every
 * event. */
RT_NOINSTR void rt__xray_event(int32_t func, int type, uint64_t sp)
{
	int r;
	switch (type) {
	case 0: /* ENTRY */
	case 3: /* LOG_ARGS_ENTRY */ r = rt__hot_entry(func, sp); break;
	case 1: /* EXIT */ r = rt__hot_exit(func); break;
	case 2: /* TAIL */ r = rt__hot_tail(func); break;
	default: return;
	}
	if (__builtin_expect(r != 0, 0)) {
		if (rt__hot.gate == RT_GATE_NEW)
			first_event(func, type);
		else
			slow_event(func, type);
	}
	rt__hot.sp_pending = 0;
}

/* The handler's frame address stands for the stack pointer: it lies a
 * fixed distance below the traced function's on every path that reaches
 * here with compiler-rt's trampolines.  With exaloop's, an entry reaches
 * here only after the lean path refused it and kept the true one. */
RT_NOINSTR void rt__xray_handler(int32_t func, int type)
{
	rt__xray_event(func, type, (uint64_t)(uintptr_t)__builtin_frame_address(0));
}

/* A thread block's exit time and name are written either by the thread's
 * exit destructor (thread_gone) or, for threads still running, by the
 * control thread's periodic refresh (rt__threads_rename) or the finalizer;
 * never two of them at once.  A destructor announces itself in gone_active
 * before it looks at `renaming` and `finalizing`; the refresh raises
 * `renaming`, and the finalizer `finalizing`, before they look at
 * gone_active.  All are sequentially consistent, so of each pair at least
 * one sees the other: a refresh skips its round while a thread is exiting,
 * a destructor waits for a refresh in progress, and the finalizer waits
 * for both.  A thread that exits after finalization records nothing (the
 * capture is closed by then). */
static _Atomic int finalizing;
static _Atomic int renaming;
static _Atomic int gone_active;

/* Names are stored word by word with atomic stores: the reader is the
 * analyzer (after the program), but the writers are different threads. */
static void name_store(struct xl_thread_block *tb, const char *name)
{
	uint64_t w[XL_THREAD_NAME_MAX / 8];
	memcpy(w, name, sizeof(w));
	uint64_t *to = (uint64_t *)(void *)tb->name;
	for (size_t i = 0; i < XL_THREAD_NAME_MAX / 8; i++)
		__atomic_store_n(&to[i], w[i], __ATOMIC_RELAXED);
}

/* Thread exit: record when, the final thread name and the CPU time. */
static void thread_gone(void *arg)
{
	if (!rt__owns_capture())
		return; /* a child's copy of the key: the capture is the parent's */
	if (arg == &unregistered) {
		uint32_t n = rt__hot.unrecorded;
		rt__hot.unrecorded = 0;
		if (n && !atomic_load(&finalizing))
			__atomic_fetch_add(&rt__hdr->unrecorded_events, n, __ATOMIC_RELAXED);
		return;
	}
	struct xl_thread_block *tb = arg;
	int saved_errno = errno;
	atomic_fetch_add(&gone_active, 1);
	while (atomic_load(&renaming)) /* a refresh takes microseconds */
		sched_yield();
	if (!atomic_load(&finalizing)) {
		char name[XL_THREAD_NAME_MAX] = {0};
		if (prctl(PR_GET_NAME, name, 0, 0, 0) == 0 && name[0])
			name_store(tb, name);
		cpu_store(tb, 0);
		rt__hot_flush();  /* signal handlers' events made inside its last one */
		rt__tl_close(tb); /* before exit_ticks: its blocks may then be taken */
		__atomic_store_n(&tb->exit_ticks, rt__ticks(), __ATOMIC_RELEASE);
	}
	atomic_fetch_sub(&gone_active, 1);
	errno = saved_errno;
}

/* In a fork child (rt_init.c): the forking thread's key value and the
 * handshake words are the parent's; the other threads do not exist here. */
void rt__threads_fork_child(void)
{
	if (thread_key_ok)
		pthread_setspecific(thread_key, NULL);
	atomic_store(&finalizing, 0);
	atomic_store(&renaming, 0);
	atomic_store(&gone_active, 0);
}

void rt__thread_key_init(void)
{
	thread_key_ok = pthread_key_create(&thread_key, thread_gone) == 0;
}

/* Re-read the names of the threads still running from /proc (a thread is
 * often named by its start routine, after its first traced call, or by
 * the thread that created it), and their CPU time (so a killed program
 * keeps a recent one).  open/read/close, no stdio, on a descriptor table
 * of its own (refresh_names_apart). */
static void refresh_names(void)
{
	for (uint32_t i = 0, n = rt__thread_slots(); i < n; i++) {
		struct xl_thread_block *tb = rt__thread_block(i);
		if (!tb || __atomic_load_n(&tb->exit_ticks, __ATOMIC_ACQUIRE))
			continue;
		cpu_store(tb, tb->tid);
		char path[64], name[XL_THREAD_NAME_MAX] = {0};
		snprintf(path, sizeof(path), "/proc/self/task/%u/comm", tb->tid);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		ssize_t got = read(fd, name, sizeof(name) - 1);
		close(fd);
		if (got <= 0)
			continue;
		name[strcspn(name, "\n")] = 0;
		if (name[0])
			name_store(tb, name);
	}
}

/* A comm file takes a descriptor while it is read: the names are read on
 * a descriptor table of their own (rt_apart.c).  Where that is refused
 * the names are not refreshed (they are still read at registration and at
 * each thread's exit, with prctl, which takes no descriptor). */
static void names_apart(void *arg)
{
	(void)arg;
	refresh_names();
}

static void refresh_names_apart(void)
{
	rt__run_apart(names_apart, NULL);
}

/* Control thread, every RT_RENAME_NS while the window is open. */
void rt__threads_rename(void)
{
	atomic_store(&renaming, 1);
	if (!atomic_load(&finalizing) && !atomic_load(&gone_active))
		refresh_names_apart();
	atomic_store(&renaming, 0);
}

/* At finalization: the names and CPU times of threads still running, a
 * last time. */
void rt__threads_finalize(uint64_t now, int apart)
{
	/* The finalizing thread's own unrecorded events (others' are added at
	 * their exit; a thread still running now loses less than a batch). */
	if (rt__hot.unrecorded) {
		__atomic_fetch_add(&rt__hdr->unrecorded_events, rt__hot.unrecorded, __ATOMIC_RELAXED);
		rt__hot.unrecorded = 0;
	}
	atomic_store(&finalizing, 1);
	while (atomic_load(&gone_active) || atomic_load(&renaming))
		sched_yield();
	/* Apart when the window closes on the control thread while the
	 * program runs on.  In place at exit: there a helper could be the
	 * last thread to end (after main's pthread_exit glibc runs exit(0)
	 * on the control thread, and the helper's end would call exit(0)
	 * again), and the program is ending. */
	if (apart)
		refresh_names_apart();
	else
		refresh_names();
	(void)now;
}
