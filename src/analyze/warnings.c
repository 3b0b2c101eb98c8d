/*
 * warnings.c - capture-quality warnings and notes, derived once from the
 * model.
 *
 * A warning names what limits the capture (incomplete, estimated, cut
 * short) and the span of the run it affects, so the report can point at
 * it: a clean capture has none.  A note states a fact the reader needs
 * beside the figures but that is no defect of the capture (the profiler's
 * overhead, threads that overlapped, a program without the Boehm GC), with
 * the topic it belongs to.  The text is the one the user reads in every
 * output format.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analyze_internal.h"
#include "fileio.h"
#include "units.h"
#include "xl_array.h"

static int push(struct xl_warning **list, size_t *n, const char *kind, const char *topic, int64_t from, int64_t to,
		const char *fmt, va_list ap) __attribute__((format(printf, 7, 0)));

static int push(struct xl_warning **list, size_t *n, const char *kind, const char *topic, int64_t from, int64_t to,
		const char *fmt, va_list ap)
{
	struct xl_warning *w = realloc(*list, (*n + 1) * sizeof(*w));
	if (!w)
		return XL_ENOMEM;
	*list = w;
	char buf[1024];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	w = &w[*n];
	w->kind = strdup(kind);
	w->message = strdup(buf);
	w->topic = topic;
	w->from_ns = from;
	w->to_ns = to;
	w->pid = -1;
	if (!w->kind || !w->message) {
		free(w->kind);
		free(w->message);
		return XL_ENOMEM;
	}
	(*n)++;
	return XL_OK;
}

static int add(struct xl_model *m, const char *kind, int64_t from, int64_t to, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int note(struct xl_model *m, const char *kind, const char *topic, int64_t from, int64_t to, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* A warning: something limits the capture. */
static int add(struct xl_model *m, const char *kind, int64_t from, int64_t to, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = push(&m->warnings, &m->nwarnings, kind, XL_TOPIC_RUN, from, to, fmt, ap);
	va_end(ap);
	return rc;
}

/* A note: a fact about the program or the run, shown beside the figures
 * of its topic (XL_TOPIC_*), never among the warnings. */
static int note(struct xl_model *m, const char *kind, const char *topic, int64_t from, int64_t to, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = push(&m->notes, &m->nnotes, kind, topic, from, to, fmt, ap);
	va_end(ap);
	return rc;
}

static double secs(int64_t ns)
{
	return (double)ns / 1e9;
}

/* What the rules read besides the model: the loader's findings and sums
 * over the threads, computed once. */
struct rule_ctx {
	struct xl_model *m;
	const struct xl_loader *ld;
	uint64_t repaired, unwound, deep, lost, open;
	uint64_t reentry_lost;
	uint64_t nodeless; /* version 2: calls with no node (still in the function table) */
	size_t bounded;    /* threads whose call tree reached its bound */
	size_t tableless;  /* bounded threads without a per-function table */
	int64_t cpu_sum;   /* summed CPU time of the cpu_threads threads that have one */
	size_t cpu_threads;
	int64_t end;     /* end of the capture window */
	char unrec[160]; /* " (they made at least N events)" when threads went unrecorded, else "" */
};

/* A file shorter than what the runtime wrote (a copy cut short, a full disk
 * while copying): say what was recovered.  (Truncation test t9007: such
 * captures read without any hint that data was missing.) */
static int warn_truncated(const struct rule_ctx *c)
{
	const struct xl_model *m = c->m;
	if (c->ld->used_bytes <= c->ld->file_bytes)
		return XL_OK;
	return add(c->m, "truncated", -1, -1,
		   "capture file truncated: %llu of %llu bytes; %zu thread%s and %zu memory sample%s "
		   "were recovered, what was written after that point is lost",
		   (unsigned long long)c->ld->file_bytes, (unsigned long long)c->ld->used_bytes, m->nthreads,
		   m->nthreads == 1 ? "" : "s", m->nsamples, m->nsamples == 1 ? "" : "s");
}

static int warn_corrupt_threads(const struct rule_ctx *c)
{
	unsigned n = c->ld->corrupt_threads;
	if (!n)
		return XL_OK;
	return add(c->m, "corrupt_threads", -1, -1,
		   "%u thread block%s could not be read (corrupt or cut off) and %s left out", n, n == 1 ? "" : "s",
		   n == 1 ? "was" : "were");
}

/* When the program ended, on the model's axis: its last timestamp, or
 * the application time exaloop measured when that is later (a run that
 * ended before its window opened, or between two memory samples). */
static int64_t ended_ns(const struct xl_model *m)
{
	return m->run.app_time_ns > m->last_ns ? m->run.app_time_ns : m->last_ns;
}

/* The capture's own process still runs: its pid is alive and started
 * when the capture did (within 2 s: the runtime starts just after the
 * exec, and a pid reused that soon is unlikely).  Reading a capture while
 * it is written is allowed (the mapping is published as it goes). */
static int still_running(const struct xl_model *m)
{
	char state = 0;
	unsigned long long start = 0;
	if (!m->pid || m->start_realtime_ns <= 0 || xl_proc_stat(m->pid, &state, &start) != 0 || state == 'Z' ||
	    state == 'X')
		return 0;
	struct timespec rt, bt;
	long hz = sysconf(_SC_CLK_TCK);
	if (hz <= 0 || clock_gettime(CLOCK_REALTIME, &rt) != 0 || clock_gettime(CLOCK_BOOTTIME, &bt) != 0)
		return 0;
	double boot = (double)rt.tv_sec + 1e-9 * (double)rt.tv_nsec - ((double)bt.tv_sec + 1e-9 * (double)bt.tv_nsec);
	double began = boot + (double)start / (double)hz;
	return fabs(began - 1e-9 * (double)m->start_realtime_ns) < 2.0;
}

static int warn_not_finalized(const struct rule_ctx *c)
{
	if (c->m->finalized)
		return XL_OK;
	if (still_running(c->m))
		return add(c->m, "not_finalized", c->m->last_ns, -1,
			   "capture not finalized: the program (pid %u) is still running and writing it; this report "
			   "holds what it had written by %.3f s (%llu open frame%s closed there): report again when it "
			   "ends",
			   c->m->pid, secs(c->m->last_ns), (unsigned long long)c->open,
			   c->open == 1 ? " was" : "s were");
	return add(c->m, "not_finalized", ended_ns(c->m), -1,
		   "capture not finalized: the program stopped before exaloop could finish the capture "
		   "(crash, signal, kill, _exit, or exec of a program exaloop did not build) at about %.3f s; "
		   "%llu open frame%s closed at the last timestamp",
		   secs(ended_ns(c->m)), (unsigned long long)c->open, c->open == 1 ? " was" : "s were");
}

static int warn_timeline_full(const struct rule_ctx *c)
{
	const struct xl_model *m = c->m;
	if (!(m->flags & XL_FLAG_TIMELINE_FULL) && !m->total_dropped)
		return XL_OK;
	/* Per thread: all of them when few, else the ones that lost the most
	 * (a program with hundreds of threads made this list run on past its
	 * buffer, one "name: 2" after another). */
	enum {
		LIST = 5
	};
	size_t with = 0, top[LIST], ntop = 0;
	for (size_t i = 0; i < m->nthreads; i++) {
		uint64_t d = m->threads[i].dropped_events;
		if (!d)
			continue;
		with++;
		size_t k = ntop < LIST ? ntop++ : LIST;
		while (k > 0 && m->threads[top[k - 1]].dropped_events < d) {
			if (k < LIST)
				top[k] = top[k - 1];
			k--;
		}
		if (k < LIST)
			top[k] = i;
	}
	char per[512] = "";
	size_t len = 0;
	for (size_t k = 0; k < ntop && len < sizeof(per) - 96; k++)
		len += (size_t)snprintf(per + len, sizeof(per) - len, "%s%.40s: %llu", k ? ", " : "",
					m->threads[top[k]].name, (unsigned long long)m->threads[top[k]].dropped_events);
	if (with > ntop && len < sizeof(per) - 48)
		snprintf(per + len, sizeof(per) - len, ", and %zu more threads", with - ntop);
	/* Not "complete" when the call trees ran out too (fault test t9004:
	 * both warnings at once contradicted each other). */
	int trees_full = (m->flags & XL_FLAG_NODES_FULL) || c->lost || c->bounded;
	int64_t from = m->timeline_full_ns;
	return add(c->m, "timeline_full", from, c->end,
		   "timeline buffer full: events after %.3f s were not kept in the timeline "
		   "(%llu dropped; %s); %s. "
		   "Increase buffer_size or shorten the capture for a complete timeline",
		   secs(from < 0 ? 0 : from), (unsigned long long)m->total_dropped, per,
		   trees_full ? "the call tree and function table are not affected by this (see the "
				"call-tree warning)"
			      : "the call tree and function table are complete");
}

/* Information, not a warning: what the timeline kept when it is not every
 * call (a threshold, or "last"'s overwritten start), per thread, as the
 * first LIST threads' notes.  The call tree and tables are not affected. */
static int note_timeline(const struct rule_ctx *c)
{
	const struct xl_model *m = c->m;
	enum {
		LIST = 4
	};
	char per[768] = "";
	size_t len = 0, with = 0;
	for (size_t i = 0; i < m->nthreads; i++) {
		const struct xl_thread *t = &m->threads[i];
		if (t->tl_threshold_ns <= 0 && !t->tl_recycled)
			continue;
		if (with++ >= LIST || len >= sizeof(per) - 200)
			continue;
		char note[160];
		xl_tl_note(m, t, note, sizeof(note));
		len += (size_t)snprintf(per + len, sizeof(per) - len, "%s%.40s: %s", len ? "; " : "", t->name, note);
	}
	if (!with)
		return XL_OK;
	if (with > LIST)
		snprintf(per + len, sizeof(per) - len, "; and %zu more threads", with - LIST);
	return note(c->m, "timeline", XL_TOPIC_TIMELINE, -1, -1,
		    "the timeline keeps %s; shorter calls are in the call tree and function table, not drawn "
		    "in the timeline",
		    per);
}

/* The flag alone also means that a thread found no space for its block and
 * was not recorded at all (TSan test: 16 threads in a 4 MiB buffer, one
 * missing under "0 events could not be placed"). */
static int warn_nodes_full(const struct rule_ctx *c)
{
	const struct xl_model *m = c->m;
	if (!(m->flags & XL_FLAG_NODES_FULL) && !c->lost)
		return XL_OK;
	char what[320];
	int n = 0;
	if (c->lost || !m->threads_unplaced)
		n = snprintf(what, sizeof(what), "%llu events could not be placed in the call tree",
			     (unsigned long long)c->lost);
	if (m->threads_unplaced)
		snprintf(what + n, sizeof(what) - (size_t)n, "%s%u thread%s that started after that %s not recorded%s",
			 n ? ", and " : "", m->threads_unplaced, m->threads_unplaced == 1 ? "" : "s",
			 m->threads_unplaced == 1 ? "was" : "were", c->unrec);
	return add(c->m, "nodes_full", -1, -1, "call-tree space ran out: %s; increase buffer_size", what);
}

/* A bounded call tree loses no call: the calls on paths it had no room
 * for are in "(more call paths)" nodes, with their time. */
static int warn_tree_bounded(const struct rule_ctx *c)
{
	const struct xl_model *m = c->m;
	if (!c->bounded)
		return XL_OK;
	char names[200] = "";
	size_t len = 0, listed = 0;
	for (size_t i = 0; i < m->nthreads && len < sizeof(names) - 64; i++) {
		const struct xl_thread *t = &m->threads[i];
		if (!t->tree_bounded)
			continue;
		if (listed++ < 3)
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%.40s", len ? ", " : "", t->name);
	}
	if (listed > 3)
		snprintf(names + len, sizeof(names) - len, ", and %zu more", listed - 3);
	char none[256] = "";
	if (c->nodeless)
		snprintf(none, sizeof(none),
			 "; %llu calls found no room even there: they are in the function table and their "
			 "time in their callers' nodes",
			 (unsigned long long)c->nodeless);
	return add(c->m, "tree_bounded", -1, -1,
		   "call-tree space ran out on %zu thread%s (%s): %llu calls on call paths first seen after "
		   "that are shown, with their time, in %u \"(more call paths)\" node%s below their callers%s; "
		   "the function table counts every call. Increase buffer_size for the full call tree",
		   c->bounded, c->bounded == 1 ? "" : "s", names, (unsigned long long)m->more_calls, m->more_nodes,
		   m->more_nodes == 1 ? "" : "s", none);
}

/* Without its table, a bounded thread's calls on paths its tree had no
 * room for have no function. */
static int warn_no_function_table(const struct rule_ctx *c)
{
	size_t n = c->tableless;
	if (!n)
		return XL_OK;
	return add(c->m, "no_function_table", -1, -1,
		   "%zu thread%s with a bounded call tree found no room in the buffer for %s per-function "
		   "table: the function table lacks the calls in %s \"(more call paths)\" nodes. "
		   "Increase buffer_size",
		   n, n == 1 ? "" : "s", n == 1 ? "its" : "their", n == 1 ? "its" : "their");
}

static int warn_repaired_exits(const struct rule_ctx *c)
{
	if (!c->repaired && !c->unwound)
		return XL_OK;
	return add(c->m, "repaired_exits", -1, -1,
		   "unmatched events repaired: %llu exits had no matching entry and were ignored, "
		   "%llu frames left without their exit (exceptions, longjmp, patching mid-call) were "
		   "closed by an exit or a call further up the stack; their time ends there",
		   (unsigned long long)c->repaired, (unsigned long long)c->unwound);
}

/* Signal handlers that ran traced code inside another event of their
 * thread: the runtime keeps their events for the thread's next event, up
 * to a bound per event (rt_hot.c, deferred events); what did not fit. */
static int warn_reentry_lost(const struct rule_ctx *c)
{
	if (c->m->flags & XL_FLAG_EVENT_ABANDONED) {
		char later[256] = "that call's count or time may be off by one event";
		if (c->reentry_lost)
			snprintf(later, sizeof(later),
				 "%llu later events of that thread were not recorded, so the call counts after that "
				 "point are too low (capture such a program with --profile=memory, or keep handlers "
				 "that do not return out of traced code)",
				 (unsigned long long)c->reentry_lost);
		return add(c->m, "reentry_lost", -1, -1,
			   "a signal handler left a traced call's event without returning to it (siglongjmp out of the "
			   "handler, or exit in it): %s",
			   later);
	}
	if (!c->reentry_lost)
		return XL_OK;
	return add(c->m, "reentry_lost", -1, -1,
		   "%llu events made by signal handlers while their thread was inside another traced event "
		   "were lost (a handler made more traced calls than the runtime keeps for one event): "
		   "the call counts of the functions those handlers called are too low",
		   (unsigned long long)c->reentry_lost);
}

static int warn_deep_recursion(const struct rule_ctx *c)
{
	if (!c->deep)
		return XL_OK;
	return add(c->m, "deep_recursion", -1, -1,
		   "call depth exceeded %u frames: %llu events below that depth are included in "
		   "their deepest kept ancestor's time but not shown as separate frames, so the call "
		   "counts of the functions running that deep are too low",
		   XL_MAX_DEPTH, (unsigned long long)c->deep);
}

static int warn_memory_samples_missed(const struct rule_ctx *c)
{
	const struct xl_model *m = c->m;
	if (!m->mem_samples_missed)
		return XL_OK;
	/* More than the whole window could have taken (with a margin for a
	 * window of unknown end): the count is no count but a damaged header. */
	int64_t span = m->window_end_ns - (m->window_start_ns < 0 ? 0 : m->window_start_ns);
	uint64_t interval = m->memory_interval_ns ? m->memory_interval_ns : 1000000u;
	double most = 2.0 * ((span > 0 ? (double)span : 0) / (double)interval + 1) + 16;
	if ((double)m->mem_samples_missed > most)
		return add(c->m, "corrupt_header", -1, -1,
			   "the capture header's count of missed memory samples (%llu) is more than its window could "
			   "take: the header is damaged, and its other counters may be too",
			   (unsigned long long)m->mem_samples_missed);
	return add(c->m, "memory_samples_missed", -1, -1,
		   "%llu memory samples were missed or late (the sampler could not run on time)",
		   (unsigned long long)c->m->mem_samples_missed);
}

/* A fact about the program: most C and C++ programs do not use libgc. */
static int note_gc_unavailable(const struct rule_ctx *c)
{
	const struct xl_model *m = c->m;
	if (m->mode == XL_MODE_XRAY)
		return XL_OK;
	for (size_t i = 0; i < m->nsamples; i++)
		if (m->samples[i].gc_heap != XL_UNAVAILABLE)
			return XL_OK;
	return note(c->m, "gc_unavailable", XL_TOPIC_MEMORY, -1, -1, "GC metrics unavailable: %s",
		    (m->flags & XL_FLAG_GC_PRESENT)
			    ? "the Boehm collector was linked but not initialised during the capture"
			    : "the program does not use the Boehm GC (RSS is still measured)");
}

/* A window that never opened lost everything: a warning.  A window the
 * user set (delay, duration) is what they asked for: a note that says
 * which part of the run it holds. */
static int warn_window(const struct rule_ctx *c)
{
	const struct xl_model *m = c->m;
	if (m->window_start_ns < 0)
		return add(c->m, "window_never_opened", -1, -1,
			   "the capture window never opened: the program ended at %.3f s, before the %.3f s delay; "
			   "nothing was captured (shorten 'delay')",
			   secs(ended_ns(m)), secs((int64_t)m->delay_ns));
	if (m->flags & XL_FLAG_ATTACHED) {
		char at[64] = "";
		if (m->run.attached_at_ns >= 0)
			snprintf(at, sizeof(at), " at %.3f s of its run", secs(m->run.attached_at_ns));
		return note(
			c->m, "attached", XL_TOPIC_RUN, m->window_start_ns, c->end,
			"attached to the running process%s (profile attach) for %.3f s: its calls before and "
			"after are not in the capture, and frames open when it attached return as open at the start",
			at, secs(c->end - m->window_start_ns));
	}
	if (!m->delay_ns && !m->duration_ns)
		return XL_OK;
	char dur[96] = "until exit";
	/* a duration the run did not last: the window ended with the program */
	int cut = m->duration_ns && c->end - m->window_start_ns < (int64_t)m->duration_ns - 1000000;
	if (m->duration_ns)
		snprintf(dur, sizeof(dur), "%.3f s%s", secs((int64_t)m->duration_ns),
			 cut ? ", cut short: the program ended first" : "");
	return note(c->m, "window", XL_TOPIC_RUN, m->window_start_ns, c->end,
		    "capture window as configured: %.3f s to %.3f s of the run (delay %.3f s, duration %s); "
		    "calls and allocations outside it are not in the call paths",
		    secs(m->window_start_ns), secs(c->end), secs((int64_t)m->delay_ns), dur);
}

/* Frames already open when a thread's recording began (a window that
 * opened while they ran, a forked child's inherited frames): their exits
 * come without entries.  Normal for a service; a note, not a repair. */
static int note_open_at_start(const struct rule_ctx *c)
{
	const struct xl_model *m = c->m;
	if (!m->open_exits)
		return XL_OK;
	int one = m->open_exits == 1;
	return note(c->m, "open_at_start", XL_TOPIC_RUN, -1, -1,
		    "%llu frame%s already open when recording began (the window opened while %s ran) and returned "
		    "during the capture: a call that began before the window is not in the call tree, not even "
		    "for its time inside the window, and the calls %s made inside the window are at the top of "
		    "%s thread's tree",
		    (unsigned long long)m->open_exits, one ? " was" : "s were", one ? "it" : "they",
		    one ? "it" : "they", one ? "its" : "their");
}

/* Instruction samples asked for but refused (samples.c says why): the
 * rest of the capture is unaffected, so a note, not a warning. */
static int note_line_data(const struct rule_ctx *c)
{
	const struct xl_model *m = c->m;
	char why[400];
	if (!m->sample_rate)
		return XL_OK;
	if (xl_samples_unavailable(m, why, sizeof(why)))
		return note(c->m, "line_data_unavailable", XL_TOPIC_RUN, -1, -1,
			    "line data unavailable: %s; call counts, times and call paths are unaffected", why);
	if (!m->sample_threads_failed)
		return XL_OK;
	return note(c->m, "samples_partial", XL_TOPIC_THREADS, -1, -1,
		    "%u thread%s had no instruction sampler (%s: %s): %s lines and library time are not sampled",
		    m->sample_threads_failed, m->sample_threads_failed == 1 ? "" : "s",
		    strerrorname_np(m->sample_errno) ? strerrorname_np(m->sample_errno) : "unknown error",
		    strerror(m->sample_errno), m->sample_threads_failed == 1 ? "its" : "their");
}

/* Instruction samples whose call chain is on no path of the exact tree
 * (cut by code without frame pointers above it, or by the kernel's depth
 * limit, and then the end of several paths): their lines count, their
 * call paths and sampled frames are missing.  Said when they are more
 * than a few. */
static int note_samples_unplaced(const struct rule_ctx *c)
{
	const struct xl_model *m = c->m;
	uint64_t off = m->nisamples - m->isamples_matched;
	if (m->nisamples < 20 || (double)off <= 0.05 * (double)m->nisamples)
		return XL_OK;
	return note(c->m, "samples_unplaced", XL_TOPIC_RUN, -1, -1,
		    "%llu of %zu instruction samples (%.0f %%) fell on no call path of the tree (their call chain "
		    "was cut by code without frame pointers, or matches several paths): they count in their "
		    "functions' lines, not in the flame graph's sampled frames",
		    (unsigned long long)off, m->nisamples, 100.0 * (double)off / (double)m->nisamples);
}

/* Instruction samples the kernel lost (a ring full between two drains)
 * or that found no room (the samples' share of the buffer spent). */
static int warn_samples_lost(const struct rule_ctx *c)
{
	const struct xl_model *m = c->m;
	uint64_t lost = m->isamples_lost, dropped = m->isamples_dropped;
	if (!lost && !dropped)
		return XL_OK;
	return add(c->m, "samples_lost", -1, -1,
		   "%llu instruction sample%s lost: %llu while the control thread was late to read them, %llu "
		   "after the samples' share of the buffer (1/%u of buffer_size) was spent; line shares come from "
		   "the %zu kept",
		   (unsigned long long)(lost + dropped), lost + dropped == 1 ? "" : "s", (unsigned long long)lost,
		   (unsigned long long)dropped, XL_SAMPLE_SHARE, m->nisamples);
}

/* The profiler's estimated share (overhead.c): of the threads' CPU time
 * and of the wall time, both; captures before format 3 have no CPU time
 * and keep the share of the summed thread time. */
static int note_overhead(const struct rule_ctx *c)
{
	struct xl_model *m = c->m;
	struct xl_overhead o;
	xl_overhead(m, &o);
	if (!o.calls)
		return XL_OK;
	char what[400];
	if (o.cpu_share >= 0) {
		int n = snprintf(
			what, sizeof(what),
			"%.3f s of the profiler's own work, %.1f%% of the traced threads' CPU time (%.3f s) and "
			"%.1f%% of the capture's wall time (%.3f s)",
			o.cost_ns / 1e9, 100 * o.cpu_share, secs(o.cpu_ns), 100 * o.wall_share, secs(o.wall_ns));
		if (m->nthreads > 1 && o.busiest >= 0)
			snprintf(what + n, sizeof(what) - (size_t)n, "; most on thread %.40s: %.1f%% of its CPU time",
				 m->threads[o.busiest].name, 100 * o.busiest_share);
	} else {
		snprintf(what, sizeof(what), "roughly %.1f%% of the captured time is the profiler's",
			 100 * (o.elapsed_share < 0 ? 0 : o.elapsed_share));
	}
	return note(m, "overhead", XL_TOPIC_RUN, -1, -1,
		    "profiling overhead: about %.0f ns per traced call (%s), %llu calls: %s; confirm speedups with "
		    "an unprofiled run",
		    o.ns_per_call, o.measured ? "measured" : "typical", (unsigned long long)o.calls, what);
}

/*
 * Exact timing in call-dense code.  Every traced call costs the measured
 * ns_per_call, spent partly between the call's own two clock reads (in
 * the called function's self time) and partly outside them (in its
 * caller's); and the clock read does not wait for the work in flight
 * before it, so part of a short callee's own work can land in its caller
 * too (docs/benchmarks.md, "Round 3, session 6").  A function's self time
 * can thus be off by up to (its calls + the calls it makes) x
 * ns_per_call, in either direction.  Named here when that bound is at
 * least half its self time, for call-dense functions worth a look (at
 * least 1 % of the summed self time, at least XL_CALL_COST_MIN_CALLS
 * calls to and from them: xl_call_cost's cost_uncertain, which the
 * report's table marks), the largest first.
 */
#define CALL_COST_SHOWN 5

/* Largest first (a few functions: an insertion sort). */
static void sort_by_self(size_t *v, size_t n, const struct xl_func *f)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && f[v[j]].self_ns > f[v[j - 1]].self_ns; j--) {
			size_t t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

static int note_call_cost(const struct rule_ctx *c)
{
	struct xl_model *m = c->m;
	struct xl_overhead o;
	xl_overhead(m, &o);
	double all = 0;
	for (size_t f = 0; f < m->nfuncs; f++)
		all += m->funcs[f].self_ns > 0 ? (double)m->funcs[f].self_ns : 0;
	size_t hit[100], k = 0; /* at most 100 functions have 1 % each */
	for (size_t f = 0; f < m->nfuncs && k < 100; f++) {
		const struct xl_func *fn = &m->funcs[f];
		if (fn->cost_uncertain && (double)fn->self_ns >= 0.01 * all)
			hit[k++] = f;
	}
	if (!k)
		return XL_OK;
	sort_by_self(hit, k, m->funcs);
	char list[640] = "";
	size_t len = 0;
	for (size_t i = 0; i < k && i < CALL_COST_SHOWN && len < sizeof(list) - 160; i++) {
		const struct xl_func *f = &m->funcs[hit[i]];
		char b[32], s[32];
		xl_fmt_duration(f->cost_bound_ns, b, sizeof(b));
		xl_fmt_duration(f->self_ns, s, sizeof(s));
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%.60s %s of its %s self", i ? ", " : "",
					xl_func_shown(f, 0), b, s);
	}
	if (k > CALL_COST_SHOWN)
		snprintf(list + len, sizeof(list) - len, " and %zu more", k - CALL_COST_SHOWN);
	return note(m, "call_cost", XL_TOPIC_RUN, -1, -1,
		    "self times of call-dense functions are uncertain: each traced call costs about %.0f ns "
		    "(%s), spent partly in the called function's time and partly in its caller's, which may "
		    "also get part of the callee's own work; (calls to it + calls it makes) x that cost: %s; "
		    "--timing=sampled estimates these times without a clock read per call",
		    o.ns_per_call, o.measured ? "measured" : "typical", list);
}

/* --timing=sampled: where the times come from, and how far to trust them. */
static int note_timing(const struct rule_ctx *c)
{
	const struct xl_model *m = c->m;
	if (!xl_timing_sampled(m))
		return XL_OK;
	return note(c->m, "timing_sampled", XL_TOPIC_RUN, -1, -1,
		    "--timing=sampled: call counts and call paths are exact; times are estimated from %zu position "
		    "samples at %u Hz (elapsed time, each thread's current call; a time from k samples is within "
		    "1.96 x sqrt(k), at least 3, samples' worth of time of the truth 19 times in 20), and there "
		    "is no timeline",
		    m->npsamples, m->sample_rate);
}

/* --timing=sampled with many position rounds missed: the control thread
 * was late (a machine whose cores were all busy), and a late round is
 * taken when the CPU frees up, which is not a moment independent of
 * what the program does: the times lean towards where the program
 * waits.  One tenth is where t1371 saw shares move by more than their
 * bounds. */
static int warn_timing_late(const struct rule_ctx *c)
{
	const struct xl_model *m = c->m;
	if (!xl_timing_sampled(m) || !m->psamples_missed)
		return XL_OK;
	uint64_t rounds = 0; /* each round's samples share its time */
	for (size_t i = 0; i < m->npsamples; i++)
		rounds += i == 0 || m->psamples[i].t_ns != m->psamples[i - 1].t_ns;
	uint64_t all = rounds + m->psamples_missed;
	if (m->psamples_missed * 10 <= all)
		return XL_OK;
	return add(c->m, "timing_samples_late", -1, -1,
		   "--timing=sampled: %llu of %llu position-sample rounds were missed (%.0f%%: the control thread "
		   "was late, the machine's cores busy); the sampled times lean towards where the program waited "
		   "and may be off by more than their bounds; measure with fewer programs running, or with exact "
		   "timing",
		   (unsigned long long)m->psamples_missed, (unsigned long long)all, 100.0 * m->psamples_missed / all);
}

static int warn_clock_fallback(const struct rule_ctx *c)
{
	if (c->m->clock != XL_CLOCK_MONOTONIC)
		return XL_OK;
	return add(c->m, "clock_fallback", -1, -1,
		   "timestamps use clock_gettime (no invariant TSC): higher overhead per call");
}

/* Threads whose lives overlap: a fact, not a defect (they ran in
 * parallel, or waited).  Their CPU time says which. */
static int note_threads_exceed_wall(const struct rule_ctx *c)
{
	const struct xl_model *m = c->m;
	int64_t wall = c->end - (m->window_start_ns < 0 ? 0 : m->window_start_ns);
	int64_t thread_sum = xl_thread_time(m);
	if (m->nthreads <= 1 || wall <= 0 || thread_sum <= wall)
		return XL_OK;
	char cpu[160] = "";
	size_t with;
	int64_t cpu_sum = xl_cpu_time(m, &with);
	if (with)
		snprintf(cpu, sizeof(cpu), "; %s CPU time: %.3f s%s", with == m->nthreads ? "their" : "the",
			 secs(cpu_sum), with == m->nthreads ? "" : " (threads whose CPU time is known)");
	return note(c->m, "threads_exceed_wall", XL_TOPIC_THREADS, -1, -1,
		    "time summed across %zu threads (%.3f s) exceeds the capture's wall time (%.3f s): the "
		    "threads' lives overlapped (they ran in parallel, or waited)%s",
		    m->nthreads, secs(thread_sum), secs(wall), cpu);
}

static int warn_threads_full(const struct rule_ctx *c)
{
	const struct xl_model *m = c->m;
	if (!(m->flags & XL_FLAG_THREADS_FULL))
		return XL_OK;
	return add(c->m, "threads_full", -1, -1, "more than %u threads: %u threads were not recorded%s", XL_MAX_THREADS,
		   m->threads_dropped, m->threads_unplaced ? "" : c->unrec);
}

static int warn_symbols(const struct rule_ctx *c)
{
	if (!c->ld->symbols_problem[0])
		return XL_OK;
	return add(c->m, c->ld->symbols_mismatch ? "symbols_mismatch" : "symbols_missing", -1, -1,
		   "%s: functions are shown by XRay id (#N); names come from the symbols.json "
		   "exaloop writes into the capture directory",
		   c->ld->symbols_problem);
}

static int warn_patch_failed(const struct rule_ctx *c)
{
	if (!(c->m->flags & XL_FLAG_PATCH_FAILED))
		return XL_OK;
	return add(c->m, "patch_failed", -1, -1,
		   "XRay could not patch the executable (making its code writable was refused, "
		   "e.g. by a seccomp or SELinux policy): no function events were recorded, "
		   "memory was still sampled");
}

/* Listed by the compiler wrappers at link time: clang 14's XRay runtime
 * patches the executable's sleds only. */
static int warn_untraced_libraries(const struct rule_ctx *c)
{
	const struct xl_model *m = c->m;
	if (m->mode == XL_MODE_MEMORY || !m->run.untraced_libs || !m->run.untraced_libs[0])
		return XL_OK;
	char list[768] = "";
	size_t n = 0, len = 0;
	for (char **v = m->run.untraced_libs; *v; v++, n++) {
		const char *base = strrchr(*v, '/');
		if (len < sizeof(list) - 1)
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", n ? ", " : "",
						base ? base + 1 : *v);
	}
	return add(c->m, "untraced_libraries", -1, -1,
		   "%zu shared librar%s of the project %s not traced (%s): clang 14's XRay instruments the "
		   "executable only; %s time shows in the traced callers",
		   n, n == 1 ? "y" : "ies", n == 1 ? "is" : "are", list, n == 1 ? "its" : "their");
}

static int warn_no_functions(const struct rule_ctx *c)
{
	const struct xl_model *m = c->m;
	if (m->mode == XL_MODE_MEMORY || m->nfuncs != 0 || (m->flags & XL_FLAG_PATCH_FAILED) || m->window_start_ns < 0)
		return XL_OK;
	/* a capture cut short before any thread's block: its calls are lost,
	 * which the truncated warning says (not "none ran") */
	if (c->ld->used_bytes > c->ld->file_bytes)
		return XL_OK;
	return add(c->m, "no_functions", -1, -1, "no traced function ran during the capture window");
}

/* Which process and image this capture is, and the captures beside it
 * (exec'd images, forked children: related.c).  exec-<n>/ directories are
 * all in the top capture's directory. */
static int warn_process(const struct rule_ctx *c)
{
	struct xl_model *m = c->m;
	int rc = 0;
	const char *dir = m->run.capture_dir ? m->run.capture_dir : ".";
	if (m->end_reason == XL_END_EXEC && !m->next_image)
		rc |= add(m, "exec", m->window_end_ns, -1,
			  "the program ended by exec into a program that was not captured (exaloop did not "
			  "build it) at about %.3f s: its calls and memory are not in any capture",
			  secs(m->window_end_ns));
	else if (m->end_reason == XL_END_EXEC) /* a note: the image is in the report (proctree.c) */
		rc |= note(m, "exec", XL_TOPIC_RUN, m->window_end_ns, -1,
			   "the program replaced itself with exec at about %.3f s; the new image's calls are "
			   "in this report, and in its own capture: %s%s/exec-%u",
			   secs(m->window_end_ns), dir, m->image ? "/.." : "", m->next_image);
	if (m->image == 1)
		rc |= add(m, "exec_image", -1, -1,
			  "this capture is of image 1 of process %u, which started it with exec; the calls "
			  "before that are in the capture one directory up",
			  m->pid);
	else if (m->image)
		rc |= add(m, "exec_image", -1, -1,
			  "this capture is of image %u of process %u, which started it with exec; the calls "
			  "before that are in ../exec-%u",
			  m->image, m->pid, m->image - 1);
	if (m->fork_child && m->mode == XL_MODE_MEMORY)
		rc |= add(m, "fork_child", -1, -1,
			  "this capture is of process %u, forked by process %u: its memory from one sampling "
			  "interval after the fork",
			  m->pid, m->ppid);
	else if (m->fork_child)
		rc |= add(m, "fork_child", -1, -1,
			  "this capture is of process %u, forked by process %u: the calls it made after the "
			  "fork (the frames it inherited open are not in it)",
			  m->pid, m->ppid);
	size_t children = 0;
	for (size_t i = 0; i < m->nrelated; i++)
		children += m->related[i].fork_child && m->related[i].ppid == m->pid;
	if (children) {
		char list[512] = "";
		size_t len = 0, shown = 0;
		for (size_t i = 0; i < m->nrelated && len < sizeof(list) - 32; i++) {
			const struct xl_related *r = &m->related[i];
			if (!r->fork_child || r->ppid != m->pid)
				continue;
			if (shown++ == 8) {
				len += (size_t)snprintf(list + len, sizeof(list) - len, ", ...");
				break;
			}
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", len ? ", " : "", r->dir);
		}
		rc |= note(m, "fork_children", XL_TOPIC_RUN, -1, -1,
			   "%zu forked child process%s of this one %s: %s; the report shows every process "
			   "of the tree, --process PID one",
			   children, children == 1 ? "" : "es",
			   m->mode == XL_MODE_MEMORY ? "kept running" : "ran traced code", list);
	}
	return rc ? XL_ENOMEM : XL_OK;
}

/* The rules, in the order the warnings and notes are listed (every output
 * keeps it).  Each adds the warnings its name says (warn_window:
 * window_never_opened or window_partial; warn_symbols: symbols_missing or
 * symbols_mismatch; warn_process: exec, exec_image, fork_child,
 * fork_children), or the note (note_*).  A new warning or note is one
 * function and one entry here, and its kind in the list of
 * docs/summary-json.md. */
static int (*const rules[])(const struct rule_ctx *c) = {
	warn_truncated,
	warn_corrupt_threads,
	warn_not_finalized,
	warn_timeline_full,
	note_timeline,
	warn_nodes_full,
	warn_tree_bounded,
	warn_no_function_table,
	warn_repaired_exits,
	warn_reentry_lost,
	warn_deep_recursion,
	warn_memory_samples_missed,
	note_gc_unavailable,
	warn_window,
	note_open_at_start,
	note_overhead,
	note_call_cost,
	note_timing,
	warn_timing_late,
	warn_clock_fallback,
	note_threads_exceed_wall,
	warn_threads_full,
	warn_symbols,
	warn_patch_failed,
	warn_untraced_libraries,
	warn_no_functions,
	warn_process,
	note_line_data,
	note_samples_unplaced,
	warn_samples_lost,
};

int xl_warnings_build(struct xl_model *m, const struct xl_loader *ld)
{
	struct rule_ctx c = {.m = m, .ld = ld, .end = m->window_end_ns};
	for (size_t i = 0; i < m->nthreads; i++) {
		const struct xl_thread *t = &m->threads[i];
		c.repaired += t->repaired_exits;
		c.unwound += t->unwound_frames;
		c.deep += t->deep_events;
		c.reentry_lost += t->reentry_lost;
		/* Version 1 lost those events; version 2 keeps them in the
		 * function table (calls with no node, see bounded trees). */
		if (m->version >= 2)
			c.nodeless += t->lost_node_events;
		else
			c.lost += t->lost_node_events;
		c.bounded += t->tree_bounded != 0;
		c.tableless += m->version >= 2 && !t->func_table && (t->tree_bounded || t->lost_node_events);
		c.open += t->open_frames;
	}
	/* Threads that were not recorded at all: beyond the thread table
	 * (threads_full) or without room for their block (nodes_full).  Their
	 * events are one count for both, said once, with the warning of the
	 * only cause or in both when both happened. */
	if (m->unrecorded_events)
		snprintf(c.unrec, sizeof(c.unrec), " (%s at least %llu events)",
			 m->threads_dropped && m->threads_unplaced ? "all threads not recorded made" : "they made",
			 (unsigned long long)m->unrecorded_events);
	int rc = XL_OK;
	for (size_t i = 0; i < XL_ARRAY_SIZE(rules); i++)
		if (rules[i](&c) != XL_OK)
			rc = XL_ENOMEM;
	return rc;
}

/* Take the note `kind` out and run its rule again, the new note (if any)
 * back in the old one's place; without an old one, only if `always`. */
static int note_again(struct xl_model *m, const char *kind, int (*rule)(const struct rule_ctx *c), int always)
{
	size_t at = 0;
	while (at < m->nnotes && strcmp(m->notes[at].kind, kind) != 0)
		at++;
	if (at == m->nnotes && !always)
		return XL_OK;
	if (at < m->nnotes) {
		free(m->notes[at].kind);
		free(m->notes[at].message);
		memmove(&m->notes[at], &m->notes[at + 1], (m->nnotes - at - 1) * sizeof(*m->notes));
		m->nnotes--;
	}
	size_t before = m->nnotes;
	struct rule_ctx c = {.m = m};
	if (rule(&c) != XL_OK)
		return XL_ENOMEM;
	if (m->nnotes > before && before > at) { /* back in its place */
		struct xl_warning w = m->notes[m->nnotes - 1];
		memmove(&m->notes[at + 1], &m->notes[at], (m->nnotes - 1 - at) * sizeof(*m->notes));
		m->notes[at] = w;
	}
	return XL_OK;
}

int xl_note_overhead_again(struct xl_model *m)
{
	/* no overhead note before: no traced call, none now either */
	if (note_again(m, "overhead", note_overhead, 0) != XL_OK)
		return XL_ENOMEM;
	return note_again(m, "call_cost", note_call_cost, 1);
}
