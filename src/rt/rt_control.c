/*
 * rt_control.c - the capture window and the memory sampler.
 *
 * One control thread per capture.  It opens the window after `delay`
 * (patching the sleds), closes it after `duration` (unpatching and
 * finalizing while the program keeps running), samples memory every
 * `memory_interval` while the window is open, and refreshes the clock
 * calibration so that even a crashed capture converts ticks to time.
 * Every RT_RENAME_NS it also re-reads the names of running threads, and
 * sample_rate times a second it takes the samples (rt_sample.c).
 * The thread is an ordinary pthread that never runs instrumented code, so
 * it never appears in the call trees, and it blocks every signal for its
 * whole life, so that it never takes one meant for the program.
 *
 * While the window is open it also populates the capture file's pages a
 * little ahead of the arena cursor (MADV_POPULATE_WRITE, Linux 5.14+), so
 * that the program's threads do not take a page fault every 256 timeline
 * events.  On ext4 such a fault costs 1.3 to 5 us here (the blocks are
 * fallocated, so each first write converts an unwritten extent): up to
 * 20 ns per event, more than the rest of the event.  The work moves to
 * this thread (another CPU when there is one); it never populates past the
 * timeline's limit or more than PF_AHEAD past the cursor, so the capture's
 * resident memory stays within buffer_size.  Where the call is not
 * supported or fails, the program's threads fault the pages in as before.
 *
 * A program that links the Boehm collector usually initialises it after
 * the window opened, so the window-open sample has no GC figures.  Until
 * the collector has started, the thread looks every GC_PROBE_NS and takes
 * one extra sample as soon as it has: the GC series then starts at the
 * collector's start, not at the first interval tick after it (a run
 * shorter than memory_interval would otherwise have one GC sample only,
 * and no growth to show).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>

#include "rt_internal.h"

static pthread_t ctl_thread;
static int ctl_started;
static sigset_t ctl_creator_mask; /* the program's mask at start-up */
static pthread_key_t main_key;    /* set on the main thread only */
static _Atomic int main_exited;   /* main() called pthread_exit */
static pthread_mutex_t ctl_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ctl_cv;
static int ctl_stop; /* under ctl_mu */
static int ctl_last; /* control thread: it is the last thread */
/* The control thread left on its own (the window closed, or it was the
 * last thread): a paused one is not started again (rt__control_pause). */
static _Atomic int ctl_ended;
static _Atomic int window_opened;
static _Atomic int finalized;
static int main_key_ok;

/* The run's window in CLOCK_MONOTONIC ns, set once by the first process's
 * rt__control_start: a forked child keeps its copy, so its capture window
 * closes when the run's does. */
static int win_set;
static uint64_t win_open_at, win_close_at;
/* A child's control thread that makes the child's capture itself, one
 * interval after the fork (memory-only runs: no traced event to make it). */
static int ctl_child_lazy;

static struct xl_cap_block *mem_blk; /* control thread (or destructor after join) */
static struct xl_mem_sample *mem_arr;

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
/* Populate as far past the cursor as the writers have used so far, from
 * PF_MIN_AHEAD to PF_AHEAD: a short run does not wait at its exit for
 * megabytes it never writes (fib(1)'s whole command: 18 -> 12 ms with the
 * capture's MADV_RANDOM, rt_init.c), a busy one gets the full distance.
 * The least is the auto timeline's first RT_TL_FREE_BYTES, in which every
 * call is kept: the fastest writing of a run (fib: over 1 MiB a
 * millisecond), which the 1 ms poll must stay ahead of. */
#define PF_MIN_AHEAD RT_TL_FREE_BYTES
#define PF_AHEAD (8u << 20)
#define PF_STEP (1u << 20)   /* one madvise call */
#define PF_BUDGET (4u << 20) /* at most this much per wake-up */
#define PF_FAST_NS 1000000u  /* poll interval while writers advance */
#define GC_PROBE_NS 5000000u /* look for the collector's start */

/* Prefault state: control thread only. */
static int pf_active;
static uint64_t pf_done, pf_end, pf_last_cursor, pf_sleep_ns;

static int pf_inited; /* a control thread started again keeps its place */

static void prefault_init(void)
{
	if (pf_inited)
		return;
	pf_inited = 1;
	pf_active = rt__cfg.mode != XL_MODE_MEMORY && !rt__getenv("EXALOOP_NO_PREFAULT");
	pf_done = rt__hdr->arena_off & ~(uint64_t)4095;
	pf_end = rt__hdr->timeline_limit & ~(uint64_t)4095;
	pf_last_cursor = rt__hdr->arena_off;
	pf_sleep_ns = PF_FAST_NS;
}

/* One prefault step.  Returns the nanoseconds until the next one is due,
 * or 0 when prefaulting is over (limit reached, or not supported). */
static uint64_t prefault_step(uint64_t interval)
{
	if (!pf_active)
		return 0;
	uint64_t cur = __atomic_load_n(&rt__hdr->arena_cursor, __ATOMIC_RELAXED);
	if (cur > pf_end)
		cur = pf_end;
	uint64_t used = cur - rt__hdr->arena_off;
	uint64_t ahead = used < PF_MIN_AHEAD ? PF_MIN_AHEAD : used > PF_AHEAD ? PF_AHEAD : used;
	uint64_t want = cur + ahead < pf_end ? cur + ahead : pf_end;
	want &= ~(uint64_t)4095;
	uint64_t budget = PF_BUDGET;
	while (pf_done < want && budget) {
		uint64_t len = want - pf_done < PF_STEP ? want - pf_done : PF_STEP;
		if (madvise(rt__base + pf_done, len, MADV_POPULATE_WRITE) != 0) {
			pf_active = 0; /* unsupported (EINVAL) or failing: stop */
			return 0;
		}
		pf_done += len;
		budget -= len < budget ? len : budget;
	}
	if (pf_done >= pf_end) {
		pf_active = 0;
		return 0;
	}
	/* Poll every millisecond while the writers move or we lag; back off
	 * towards the sampling interval while they are idle. */
	if (pf_done < want || cur - pf_last_cursor >= PF_AHEAD / 8)
		pf_sleep_ns = PF_FAST_NS;
	else if (pf_sleep_ns < interval)
		pf_sleep_ns *= 2;
	pf_last_cursor = cur;
	return pf_sleep_ns;
}

/* How far the capture file's pages may be resident: the arena cursor, or
 * the prefault ahead of it, and the rest of the 2 MiB block it is in plus
 * one more, since a file system with large folios may map (and count in
 * the RSS) a whole folio around a faulted page (ext4 here: up to 2 MiB,
 * PMD-mapped; MADV_RANDOM makes that rare, not impossible).
 * rt__profiler_resident caps it at the file's size. */
#define RSS_FOLIO (2u << 20)
static uint64_t touched_len(void)
{
	uint64_t cur = __atomic_load_n(&rt__hdr->arena_cursor, __ATOMIC_RELAXED);
	uint64_t end = cur > pf_done ? cur : pf_done;
	return ((end + RSS_FOLIO - 1) & ~(uint64_t)(RSS_FOLIO - 1)) + RSS_FOLIO;
}

static void calibrate(void)
{
	uint64_t ns = rt__mono_ns();
	uint64_t ticks = rt__ticks();
	rt__hdr->cal1_ns = ns;
	rt__hdr->cal1_ticks = ticks;
	__atomic_store_n(&rt__hdr->last_ticks, ticks, __ATOMIC_RELEASE);
}

static void take_sample(void)
{
	if (rt__cfg.mode == XL_MODE_XRAY)
		return;
	if (!mem_blk || mem_blk->count == mem_blk->capacity) {
		struct xl_cap_block *b = rt__alloc_block(
			XL_BLOCK_MEMORY, 0, sizeof(*b) + XL_SAMPLES_PER_CHUNK * sizeof(struct xl_mem_sample),
			rt__hdr->file_size);
		if (!b) {
			rt__hdr->mem_samples_missed++;
			return;
		}
		b->capacity = XL_SAMPLES_PER_CHUNK;
		uint64_t off = (uint64_t)((char *)b - rt__base);
		if (mem_blk)
			__atomic_store_n(&mem_blk->next, off, __ATOMIC_RELEASE);
		else
			__atomic_store_n(&rt__hdr->mem_first_chunk, off, __ATOMIC_RELEASE);
		mem_blk = b;
		mem_arr = (struct xl_mem_sample *)(b + 1);
	}
	struct xl_mem_sample *s = &mem_arr[mem_blk->count];
	rt__mem_sample(s, touched_len());
	s->ticks = rt__ticks();
	__atomic_store_n(&mem_blk->count, mem_blk->count + 1, __ATOMIC_RELEASE);
}

void rt__window_open(void)
{
	if (atomic_exchange(&window_opened, 1))
		return;
	/* Recording starts when every sled is patched, and the window with
	 * it: a window that began before patching (which a busy machine may
	 * stretch to milliseconds) held time in which calls were missed. */
	int patched = -1;
	if (rt__cfg.mode != XL_MODE_MEMORY) {
		rt__alloc_self_begin(); /* XRay's own allocations are not the program's */
		patched = rt__patch();
		rt__alloc_self_end();
		if (patched != 0)
			__atomic_fetch_or(&rt__hdr->flags, XL_FLAG_PATCH_FAILED, __ATOMIC_RELAXED);
	}
	uint64_t now = rt__ticks();
	rt__hdr->window_open_ticks = now;
	rt__tl_setup(now);
	if (patched == 0)
		atomic_store(&rt__on, rt__on_value());
	struct xl_mem_sample s;
	rt__mem_sample(&s, 0); /* for the collector's count only */
	rt__hdr->gc_first_collections = s.gc_collections;
	__atomic_store_n(&rt__hdr->state, XL_STATE_RECORDING, __ATOMIC_RELEASE);
}

void rt__finalize(uint32_t reason)
{
	if (atomic_exchange(&finalized, 1))
		return;
	if (atomic_load(&window_opened))
		rt__calibrate(); /* needs the window still open */
	/* The window ends when recording stops, not after the finalization's
	 * own work (the last memory sample, the clock's calibration). */
	uint64_t closed = rt__ticks();
	atomic_store(&rt__on, 0);
	if (rt__cfg.mode != XL_MODE_MEMORY && atomic_load(&window_opened)) {
		rt__alloc_self_begin();
		rt__unpatch();
		rt__alloc_self_end();
	}
	if (atomic_load(&window_opened))
		take_sample();
	calibrate();
	uint64_t now = rt__hdr->cal1_ticks;
	rt__hdr->window_close_ticks = atomic_load(&window_opened) ? closed : 0;
	rt__hdr->peak_rss_bytes = rt__peak_rss();
	rt__hdr->capture_rss_bytes = rt__profiler_resident(touched_len());
	/* On the control thread while the program runs on (the window
	 * closed): names and mappings read apart, see rt__threads_finalize. */
	int apart = ctl_started && !ctl_last && pthread_equal(pthread_self(), ctl_thread);
	rt__sample_finish(apart);
	rt__threads_finalize(now, apart);
	rt__hdr->end_reason = reason;
	__atomic_store_n(&rt__hdr->state, XL_STATE_FINALIZED, __ATOMIC_RELEASE);
	/* An attached capture's end: let go of what the runtime opened in the
	 * program's process (its /proc descriptors) and stop looking at its
	 * allocations (rt_init.c: __exaloop_attach). */
	if (__atomic_load_n(&rt__hdr->flags, __ATOMIC_RELAXED) & XL_FLAG_ATTACHED) {
		atomic_store(&rt__proc_page.s.alloc, 0);
		rt__mem_fork_child();
	}
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * main() may end its thread with pthread_exit(): the process then ends when
 * its last thread does (that thread calls exit(0) in glibc).  The control
 * thread counts as a thread, so it must leave once it is the only one, or
 * the process would live forever.  The main thread announces its exit
 * through a thread-specific value's destructor (pthread_exit runs those;
 * a return from main does not); from then on the control thread looks
 * every MAIN_GONE_POLL_NS at the number of threads, which /proc gives as
 * the link count of /proc/self/task (threads + 2, the exited main thread
 * still counted until the process ends), with one stat() and no
 * descriptor.  When only it and the exited main thread are left, it puts
 * back the program's signal mask and returns: glibc then finds it was the
 * last thread and calls exit(0), which runs the program's exit handlers
 * and the runtime's destructor (finalization), as without capture.
 *
 * Except where the control thread has a descriptor table of its own
 * (rt__fds_own, not when attached): the exit handlers' stdio and files are
 * on the program's table, so they must not run on it.  Then the main
 * thread, as it leaves, makes a thread that shares the program's table
 * (exit_main), which waits too: when only it, the control thread and the
 * exited main thread are left, the control thread leaves (not the last
 * one), and when only the exit thread is left it returns, and exit(0)
 * runs on it.
 */
#define MAIN_GONE_POLL_NS 5000000u

/* Tasks of this process now, or -1 without /proc. */
static int tasks_now(void)
{
	struct stat st;
	return stat("/proc/self/task", &st) == 0 ? (int)st.st_nlink - 2 : -1;
}

static int tasks_at_most(unsigned n)
{
	int t = tasks_now();
	return t >= 0 && (unsigned)t <= n;
}

static _Atomic int exit_helper; /* exit_main runs */

static void *exit_main(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "exaloop-exit", 0, 0, 0);
	struct timespec ts = {0, MAIN_GONE_POLL_NS};
	while (!tasks_at_most(2))
		nanosleep(&ts, NULL);
	pthread_sigmask(SIG_SETMASK, &ctl_creator_mask, NULL);
	return NULL;
}

static void exit_thread_start(void)
{
	pthread_t t;
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (pthread_create(&t, NULL, exit_main, NULL) == 0) {
		pthread_detach(t);
		atomic_store(&exit_helper, 1);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void main_gone(void *arg)
{
	(void)arg;
	/* Not "owns the capture": a memory-only child's control thread runs
	 * before it makes the child's capture, and must leave all the same. */
	if (!ctl_started)
		return;
	if (!rt__attach_settings)
		exit_thread_start();
	atomic_store(&main_exited, 1);
	pthread_mutex_lock(&ctl_mu);
	pthread_cond_signal(&ctl_cv);
	pthread_mutex_unlock(&ctl_mu);
}

/* Only the control thread is left (and the exited main thread), or with
 * an exit thread, only the two of them. */
static int only_thread_left(void)
{
	return tasks_at_most(atomic_load(&exit_helper) ? 3 : 2);
}

/* A memory-only child's control thread: wait one interval (a child that
 * execs or exits before leaves nothing), then make the child's capture.
 * 0 when it is made, -1 when the thread should end (stopped, the run's
 * window closed, or no capture). */
static int child_lazy_begin(void)
{
	uint64_t due = rt__mono_ns() + rt__cfg.interval_ns;
	if (due < win_open_at)
		due = win_open_at;
	struct timespec ts = {(time_t)(due / 1000000000u), (long)(due % 1000000000u)};
	pthread_mutex_lock(&ctl_mu);
	while (!ctl_stop && rt__mono_ns() < due)
		pthread_cond_timedwait(&ctl_cv, &ctl_mu, &ts);
	int stop = ctl_stop;
	pthread_mutex_unlock(&ctl_mu);
	if (stop || rt__mono_ns() >= win_close_at || !rt__child_begin || rt__child_begin() != 0)
		return -1;
	return 0;
}

/* The memory sample (in the window) and the clock refresh due now; the
 * next one an interval later, whole intervals lost counted when the
 * thread woke up late. */
static void sample_tick(uint64_t now, uint64_t *next_sample, uint64_t interval)
{
	if (atomic_load(&window_opened))
		take_sample();
	calibrate();
	*next_sample += interval;
	if (*next_sample <= now) { /* woke up late: count whole intervals lost */
		uint64_t late = (now - *next_sample) / interval + 1;
		if (atomic_load(&window_opened))
			rt__hdr->mem_samples_missed += late;
		*next_sample += late * interval;
	}
}

/* When the control thread wakes next: the first of the next memory
 * sample, the window's opening or closing, the thread renaming, the
 * samplers' drain, the next prefault step, and the polls for main's
 * threads and for the GC's start. */
static uint64_t next_wake(uint64_t next_sample, uint64_t open_at, uint64_t close_at, uint64_t next_rename,
			  uint64_t sample_due, uint64_t interval, int gc_waiting)
{
	uint64_t wake = next_sample;
	if (atomic_load(&main_exited))
		wake = min_u64(wake, rt__mono_ns() + MAIN_GONE_POLL_NS);
	if (!atomic_load(&window_opened))
		return min_u64(wake, open_at);
	wake = min_u64(min_u64(min_u64(wake, close_at), next_rename), sample_due);
	uint64_t pf = prefault_step(interval);
	if (pf)
		wake = min_u64(wake, rt__mono_ns() + pf);
	if (gc_waiting)
		wake = min_u64(wake, rt__mono_ns() + GC_PROBE_NS);
	return wake;
}

static void *control_main(void *arg)
{
	(void)arg;
	/* Named from inside: pthread_setname_np on another thread opens its
	 * comm file, a descriptor on the program's table. */
	prctl(PR_SET_NAME, "exaloop-ctl", 0, 0, 0);
	/* Its files (/proc readings, perf events) then never take one of the
	 * program's descriptor numbers; where this fails (before Linux 5.9)
	 * that work runs on a thread apart instead.  Not when attached: at the
	 * window's end this thread closes the /proc descriptors the attach
	 * opened on the program's table (rt__detach), so it keeps that table. */
	if (!rt__attach_settings)
		(void)rt__fds_own();
	rt__alloc_self_begin(); /* a runtime thread: its allocations are not the program's */
	if (ctl_child_lazy && child_lazy_begin() != 0)
		return NULL;
	ctl_child_lazy = 0; /* made: a control thread started again does not make it twice */
	uint64_t open_at = win_open_at;
	uint64_t close_at = win_close_at;
	uint64_t interval = rt__cfg.interval_ns;
	uint64_t next_sample = rt__mono_ns();
	uint64_t next_rename = next_sample + RT_RENAME_NS;
	int gc_waiting = rt__cfg.mode != XL_MODE_XRAY && rt__gc_present();
	prefault_init();

	pthread_mutex_lock(&ctl_mu);
	while (!ctl_stop) {
		pthread_mutex_unlock(&ctl_mu);
		uint64_t now = rt__mono_ns();
		if (!atomic_load(&window_opened) && now >= open_at) {
			rt__window_open();
			next_sample = now;
		}
		if (atomic_load(&window_opened) &&
		    (now >= close_at || __atomic_load_n(&rt__hdr->close_request, __ATOMIC_ACQUIRE))) {
			rt__finalize(XL_END_WINDOW);
			atomic_store(&ctl_ended, 1);
			pthread_mutex_lock(&ctl_mu);
			break;
		}
		if (gc_waiting && atomic_load(&window_opened) && rt__gc_started()) {
			gc_waiting = 0;
			if (now < next_sample)
				take_sample(); /* the GC series starts here */
		}
		if (now >= next_sample)
			sample_tick(now, &next_sample, interval);
		if (atomic_load(&window_opened) && now >= next_rename) {
			rt__threads_rename();
			next_rename = now + RT_RENAME_NS;
		}
		uint64_t sample_due = atomic_load(&window_opened) ? rt__sample_step(now) : UINT64_MAX;
		if (atomic_load(&main_exited) && only_thread_left()) {
			pthread_mutex_lock(&ctl_mu);
			ctl_stop = 1;
			ctl_last = !atomic_load(&exit_helper);
			atomic_store(&ctl_ended, 1);
			break;
		}
		uint64_t wake =
			next_wake(next_sample, open_at, close_at, next_rename, sample_due, interval, gc_waiting);
		struct timespec ts = {(time_t)(wake / 1000000000u), (long)(wake % 1000000000u)};
		pthread_mutex_lock(&ctl_mu);
		if (!ctl_stop)
			pthread_cond_timedwait(&ctl_cv, &ctl_mu, &ts);
	}
	pthread_mutex_unlock(&ctl_mu);
	if (ctl_last) /* the program's threads are gone: exit(0) follows */
		pthread_sigmask(SIG_SETMASK, &ctl_creator_mask, NULL);
	return NULL;
}

/* In a fork child: the control thread and its state are the parent's. */
void rt__control_fork_child(void)
{
	pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	ctl_mu = mu; /* may have been held by the parent's thread */
	ctl_started = 0;
	ctl_stop = 0;
	ctl_last = 0;
	atomic_store(&main_exited, 0);
	atomic_store(&exit_helper, 0);
	atomic_store(&window_opened, 0);
	atomic_store(&finalized, 0);
	ctl_child_lazy = 0;
	atomic_store(&ctl_ended, 0);
	pf_inited = 0;
	/* The key's value is the parent's main thread's, and fork copied the
	 * forking thread only: mark that one, which is the child's main
	 * thread.  If it ends with pthread_exit, a control thread started
	 * later must leave once it is the last thread, or the child would
	 * never end (its parent's waitpid hangs). */
	if (main_key_ok)
		pthread_setspecific(main_key, &main_key);
	mem_blk = NULL;
	mem_arr = NULL;
	pf_active = 0;
	pf_done = 0;
}

/* A forked child's capture window: open from its creation to the child's
 * exit; the sleds are patched already (the child's copy of the code). */
void rt__child_window_open(void)
{
	atomic_store(&window_opened, 1);
	rt__hdr->window_open_ticks = rt__ticks();
	rt__tl_setup(rt__hdr->window_open_ticks);
	__atomic_store_n(&rt__hdr->state, XL_STATE_RECORDING, __ATOMIC_RELEASE);
}

static int spawn(void);
static void control_nudge(void);

int rt__control_start(void)
{
	if (!win_set) {
		win_open_at = rt__hdr->cal0_ns + rt__cfg.delay_ns;
		win_close_at = rt__cfg.duration_ns ? win_open_at + rt__cfg.duration_ns : UINT64_MAX;
		win_set = 1;
	}
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&ctl_cv, &ca);
	pthread_condattr_destroy(&ca);
	if (rt__cfg.interval_ns == 0)
		rt__cfg.interval_ns = XL_DEFAULT_INTERVAL_NS;
	pthread_sigmask(SIG_SETMASK, NULL, &ctl_creator_mask);
	atomic_store_explicit(&rt__thread_started, control_nudge, memory_order_relaxed);
	if (spawn() != 0)
		return -1;
	/* The constructor runs on the main thread: watch for its pthread_exit.
	 * (A forked child keeps the key; its forking thread is its main one.) */
	if (!main_key_ok && pthread_key_create(&main_key, main_gone) == 0) {
		main_key_ok = 1;
		pthread_setspecific(main_key, &main_key);
	}
	return 0;
}

/* The control thread itself: 0, or -1 when it could not be made. */
static int spawn(void)
{
	/* The thread takes no signal, ever: it inherits its creator's mask,
	 * so block everything around pthread_create and restore.  Otherwise a
	 * process-directed signal that the program blocks (to take it with
	 * sigwait, sigwaitinfo or a signalfd, or to keep a handler out of a
	 * section) is delivered here instead: its default action kills the
	 * program, a SIGCHLD is discarded, a handler runs at the wrong time. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	/* Set before the thread exists: it reads the flag (a window that
	 * closes at once finalizes on it). */
	ctl_started = 1;
	int rc = pthread_create(&ctl_thread, NULL, control_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		ctl_started = 0;
		return -1;
	}
	return 0;
}

/* A forked child's control thread (rt_init.c): memory samples and the
 * run's window for the child's capture.  lazy: the thread makes the
 * capture itself, one interval after the fork (memory-only runs); else the
 * capture exists (made at the child's first traced event). */
int rt__control_start_child(int lazy)
{
	if (!win_set)
		return -1;
	ctl_child_lazy = lazy;
	return rt__control_start();
}

/* The sampler opens a new thread's event at the control thread's next
 * step, which under exact timing can be DRAIN_NS away: a short thread's
 * first milliseconds went unsampled (8 threads of 30 ms: 18 % of their
 * samples).  So a registration wakes it: one futex wake on the thread's
 * first event, which makes syscalls already.  Without the mutex: a wake
 * that comes just before the thread waits is lost, and the old delay is
 * the worst case. */
static void control_nudge(void)
{
	if (ctl_started && rt__cfg.sample_rate && atomic_load(&window_opened))
		pthread_cond_signal(&ctl_cv);
}

int rt__control_pause(void)
{
	if (!ctl_started || pthread_equal(pthread_self(), ctl_thread) || atomic_load(&main_exited))
		return 0;
	int before = tasks_now();
	rt__control_stop();
	/* pthread_join returns when the thread's stack is free, a moment
	 * before the kernel takes its task out of the thread group: until
	 * then the process is not single-threaded yet.  A few ms at most. */
	struct timespec ts = {0, 50000};
	for (int i = 0; before > 0 && i < 2000 && tasks_now() >= before; i++)
		nanosleep(&ts, NULL);
	return !atomic_load(&ctl_ended);
}

void rt__control_resume(int paused)
{
	if (!paused || ctl_started)
		return;
	ctl_stop = 0;
	(void)spawn();
}

void rt__control_stop(void)
{
	if (!ctl_started)
		return;
	pthread_mutex_lock(&ctl_mu);
	ctl_stop = 1;
	pthread_cond_signal(&ctl_cv);
	pthread_mutex_unlock(&ctl_mu);
	/* After main's pthread_exit the control thread itself may be the one
	 * running the exit handlers (it was the last thread). */
	if (!pthread_equal(pthread_self(), ctl_thread))
		pthread_join(ctl_thread, NULL);
	ctl_started = 0;
}
