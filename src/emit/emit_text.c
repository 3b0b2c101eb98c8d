/*
 * emit_text.c - the terminal report: header, function table, memory
 * summary (with its notes), notes and warnings.
 */
#include <stdlib.h>
#include <string.h>

#include "emit_internal.h"
#include "units.h"

static double pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

static void metric_line(FILE *f, const char *label, const struct xl_metric *x, int kind)
{
	char a[32], b[32];
	fprintf(f, "  %-22s", label);
	if (!x->available) {
		fprintf(f, "unavailable (%s)\n", x->reason);
		return;
	}
	if (kind == 2) { /* a count */
		fprintf(f, "%lld (+%lld in the capture)\n", (long long)x->value, (long long)x->delta);
		return;
	}
	xl_fmt_size(x->value, a, sizeof(a));
	fprintf(f, "%s", a);
	if (kind == 1) { /* cumulative bytes */
		xl_fmt_size(x->delta, b, sizeof(b));
		xl_fmt_size((int64_t)x->rate_per_s, a, sizeof(a));
		fprintf(f, " (+%s in the capture, %s/s)", b, a);
	} else if (kind == 0 && x->max != x->value) {
		xl_fmt_size(x->max, b, sizeof(b));
		fprintf(f, " (max %s)", b);
	}
	putc('\n', f);
}

/* The notes of one topic, below its section ("note: ..."). */
static void notes(FILE *f, const struct xl_model *m, const char *topic)
{
	for (size_t i = 0; i < m->nnotes; i++)
		if (strcmp(m->notes[i].topic, topic) == 0)
			fprintf(f, "  note: %s\n", m->notes[i].message);
}

/* RSS: the program's, and the profiler's memory (capture buffer and, in
 * format 4, the allocation address table) apart, when the capture measured
 * it (format 3); else the process's as it was. */
static void memory_lines(FILE *f, const struct xl_mem_summary *s)
{
	if (!s->program_rss.available) {
		metric_line(f, "RSS", &s->rss, 0);
		metric_line(f, "peak RSS", &s->peak_rss, 0);
		return;
	}
	char a[32];
	metric_line(f, "RSS (program)", &s->program_rss, 0);
	if (s->program_peak_rss.available) {
		xl_fmt_size(s->program_peak_rss.value, a, sizeof(a));
		fprintf(f, "  %-22s%s", "peak RSS (program)", a);
		if (s->profiler_at_peak != XL_UNAVAILABLE) {
			xl_fmt_size(s->profiler_at_peak, a, sizeof(a));
			fprintf(f, " (the profiler's memory then: %s more)", a);
		}
		putc('\n', f);
	} else {
		metric_line(f, "peak RSS (program)", &s->program_peak_rss, 0);
	}
	metric_line(f, "profiler's memory", &s->profiler_rss, 0);
	metric_line(f, "process RSS", &s->rss, 0);
	metric_line(f, "process peak RSS", &s->peak_rss, 0);
}

/* With several processes (a forked tree): each one's command, how it
 * ended and its own totals. */
static void process_lines(FILE *f, const struct xl_model *m)
{
	if (m->nprocs < 2)
		return;
	char a[32], b[32];
	fputs("\nprocesses:\n", f);
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct xl_proc *p = &m->procs[i];
		xl_fmt_duration(p->thread_time_ns, a, sizeof(a));
		fprintf(f, "  pid %u (parent %u)%s: %u thread%s, %llu calls, thread time %s", p->pid, p->ppid,
			p->forked ? " forked" : "", p->nthreads, p->nthreads == 1 ? "" : "s",
			(unsigned long long)p->calls, a);
		if (p->cpu_ns >= 0) {
			xl_fmt_duration(p->cpu_ns, b, sizeof(b));
			fprintf(f, ", CPU %s", b);
		}
		fprintf(f, ", %s", xl_proc_status(p));
		if (p->has_exit_status && !p->signal)
			fprintf(f, " %d", p->exit_status);
		if (p->exec_command) {
			fputs(" '", f);
			xl_put_text(f, p->exec_command);
			putc('\'', f);
		}
		if (p->command) {
			fputs(" | ", f);
			xl_put_text(f, p->command);
		}
		putc('\n', f);
	}
}

/* With several threads: each one's elapsed and CPU time (the CPU time
 * says whether the threads ran or waited). */
static void thread_lines(FILE *f, const struct xl_model *m)
{
	enum {
		SHOWN = 32
	};
	if (m->nthreads < 2)
		return;
	char a[32], b[32];
	fputs("\nthreads:\n", f);
	for (size_t i = 0; i < m->nthreads && i < SHOWN; i++) {
		const struct xl_thread *t = &m->threads[i];
		int64_t elapsed = t->end_ns > t->start_ns ? t->end_ns - t->start_ns : 0;
		xl_fmt_duration(elapsed, a, sizeof(a));
		fputs("  ", f);
		xl_put_text(f, t->name);
		fprintf(f, " (tid %u", t->tid);
		if (m->nprocs > 1)
			fprintf(f, ", pid %u", m->procs[t->process].pid);
		fprintf(f, "): elapsed %s", a);
		if (t->cpu_ns >= 0) {
			xl_fmt_duration(t->cpu_ns, b, sizeof(b));
			fprintf(f, ", CPU %s (%.0f%%)", b, pct(t->cpu_ns, elapsed));
		}
		putc('\n', f);
	}
	if (m->nthreads > SHOWN)
		fprintf(f, "  and %zu more threads (--json lists them all)\n", m->nthreads - SHOWN);
	notes(f, m, XL_TOPIC_THREADS);
}

/* Whether the notes of a topic have a section of their own above. */
static int placed(const struct xl_model *m, const char *topic)
{
	if (strcmp(topic, XL_TOPIC_MEMORY) == 0)
		return m->mode != XL_MODE_XRAY;
	return strcmp(topic, XL_TOPIC_THREADS) == 0 && m->nthreads > 1;
}

/* The other notes, under "notes:". */
static void notes_other(FILE *f, const struct xl_model *m)
{
	int listed = 0;
	for (size_t i = 0; i < m->nnotes; i++) {
		if (placed(m, m->notes[i].topic))
			continue;
		if (!listed++)
			fputs("\nnotes:\n", f);
		fprintf(f, "  - %s\n", m->notes[i].message);
	}
}

/* Names, paths and arguments come from the profiled program: a control
 * character is written as \xNN so that one row stays one line.  (Fault
 * test t9008: an argument with a newline split the "command:" line.) */
void xl_put_text(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\x%02x", *p);
		else
			putc(*p, f);
	}
}

/* The heap allocations: the run's totals, then the functions that
 * allocated (self: made with the function on top of the stack), largest
 * bytes first.  "path peak" is the largest peak live figure of one of the
 * function's call paths (a thread's path: per thread): at least that much
 * of what the function allocated was live at once; its own peak may be
 * higher (its paths may peak together), and the sum of its paths' peaks
 * would be an upper bound, not a peak. */
static int alloc_section(const struct xl_model *m, FILE *f, const struct xl_emit_opts *o)
{
	char a[32], b[32], c[32], d[32];
	const struct xl_alloc *t = &m->alloc_total;
	xl_fmt_size((int64_t)t->bytes, a, sizeof(a));
	xl_fmt_size((int64_t)xl_alloc_live(t), b, sizeof(b));
	fprintf(f, "\nheap allocations: %llu (%s), %llu freed, %s live at exit", (unsigned long long)t->allocs, a,
		(unsigned long long)t->frees, b);
	if (t->gc_bytes) {
		xl_fmt_size((int64_t)t->gc_bytes, c, sizeof(c));
		fprintf(f, ", %s by the GC", c);
	}
	xl_fmt_size((int64_t)m->alloc_na.bytes, c, sizeof(c));
	fprintf(f, "\n  (not attributed): %llu (%s)%s", (unsigned long long)m->alloc_na.allocs, c,
		m->mode == XL_MODE_MEMORY ? ", all of them: no call paths in memory mode" : "");
	if (m->alloc_unmatched_frees)
		fprintf(f, "; %llu frees of blocks allocated before the capture or by a shared library",
			(unsigned long long)m->alloc_unmatched_frees);
	if (m->alloc_outside.allocs) {
		xl_fmt_size((int64_t)m->alloc_outside.bytes, c, sizeof(c));
		fprintf(f, "\n  (outside the window): %llu (%s), made while the capture window was closed",
			(unsigned long long)m->alloc_outside.allocs, c);
	}
	putc('\n', f);
	if (m->mode == XL_MODE_MEMORY)
		return 0;
	size_t *idx = malloc((m->nfuncs ? m->nfuncs : 1) * sizeof(size_t));
	if (!idx)
		return -1;
	xl_funcs_sorted(m->funcs, m->nfuncs, XL_SORT_ALLOC, idx);
	fprintf(f, "%14s %11s %11s %11s %11s  %s\n", "allocs", "bytes", "freed", "live", "path peak", "function");
	size_t shown = 0;
	for (size_t k = 0; k < m->nfuncs; k++) {
		const struct xl_func *fn = &m->funcs[idx[k]];
		if (!fn->alloc.allocs)
			continue;
		if (o->top && shown == o->top)
			break;
		shown++;
		xl_fmt_size((int64_t)fn->alloc.bytes, a, sizeof(a));
		xl_fmt_size((int64_t)fn->alloc.freed_bytes, b, sizeof(b));
		xl_fmt_size((int64_t)xl_alloc_live(&fn->alloc), c, sizeof(c));
		xl_fmt_size((int64_t)fn->alloc.peak_live, d, sizeof(d));
		fprintf(f, "%14llu %11s %11s %11s %11s  ", (unsigned long long)fn->alloc.allocs, a, b, c, d);
		xl_put_text(f, xl_func_shown(fn, o->full_names));
		putc('\n', f);
	}
	if (!shown)
		fputs("  (no allocations in traced functions)\n", f);
	free(idx);
	return 0;
}

/* The run: program, command, process, exit status, times, window. */
static void run_header(const struct xl_model *m, FILE *f)
{
	const struct xl_run *r = &m->run;
	char a[32], b[32];
	fputs("exaloop profile: ", f);
	xl_put_text(f, r->program ? r->program : r->capture_dir);
	putc('\n', f);
	if (r->command && r->command[0]) {
		fputs("command:", f);
		for (size_t i = 0; r->command[i]; i++) {
			putc(' ', f);
			xl_put_text(f, r->command[i]);
		}
		putc('\n', f);
	}
	if (m->pid) {
		fprintf(f, "process %u (parent %u)%s", m->pid, m->ppid, m->fork_child ? ", a forked child" : "");
		if (m->image)
			fprintf(f, ", image %u (started by exec)", m->image);
		for (size_t i = 0; i < m->nrelated; i++)
			fprintf(f, "%s%s (pid %u)", i ? ", " : "; other captures of this run: ", m->related[i].dir,
				m->related[i].pid);
		putc('\n', f);
	}
	if (r->signal)
		fprintf(f, "killed by signal %d", r->signal);
	else if (r->has_exit_status)
		fprintf(f, "exit status %d", r->exit_status);
	else
		fputs("exit status unknown", f);
	if (r->compile_time_ns >= 0) {
		xl_fmt_duration(r->compile_time_ns, a, sizeof(a));
		fprintf(f, " | compile %s", a);
	}
	if (r->app_time_ns >= 0) {
		xl_fmt_duration(r->app_time_ns, a, sizeof(a));
		fprintf(f, " | app %s", a);
	}
	xl_fmt_duration(m->window_start_ns, a, sizeof(a));
	xl_fmt_duration(m->window_end_ns, b, sizeof(b));
	char window[80];
	if (m->window_start_ns < 0)
		snprintf(window, sizeof(window), "window never opened");
	else
		snprintf(window, sizeof(window), "window %s .. %s", a, b);
	fprintf(f, " | mode %s | %s | %zu thread%s | %llu events%s\n", xl_mode_name(m->mode), window, m->nthreads,
		m->nthreads == 1 ? "" : "s", (unsigned long long)m->total_events,
		m->finalized ? "" : " | NOT FINALIZED");
}

/* The function table's rows: funcs in the order idx, at most o->top,
 * shares of whole. */
static void function_rows(FILE *f, const struct xl_model *m, const struct xl_func *funcs, const size_t *idx,
			  int64_t whole, const struct xl_emit_opts *o)
{
	char a[32], b[32], c[32];
	size_t shown = 0;
	for (size_t k = 0; k < m->nfuncs; k++) {
		const struct xl_func *fn = &funcs[idx[k]];
		if (!fn->calls || xl_func_is_more(fn))
			continue;
		if (o->top && shown == o->top)
			break;
		shown++;
		xl_fmt_duration(fn->self_ns, a, sizeof(a));
		xl_fmt_duration(fn->total_ns, b, sizeof(b));
		xl_fmt_duration(fn->calls ? fn->total_ns / (int64_t)fn->calls : 0, c, sizeof(c));
		fprintf(f, "%14llu %11s %6.1f%% %11s %6.1f%% %11s  ", (unsigned long long)fn->calls, a,
			pct(fn->self_ns, whole), b, pct(fn->total_ns, whole), c);
		xl_put_text(f, xl_func_shown(fn, o->full_names));
		if (fn->file) {
			fputs("  ", f);
			xl_put_text(f, fn->file);
			fprintf(f, ":%d", fn->line);
		}
		if (xl_timing_sampled(m)) { /* the estimate's bound (19 in 20) and samples */
			xl_fmt_duration(xl_sampled_err_ns(m, fn->psamples), a, sizeof(a));
			fprintf(f, "  [self +/-%s, %llu samples]", a, (unsigned long long)fn->psamples);
		}
		putc('\n', f);
	}
	if (!shown)
		fputs("  (no traced calls in the capture)\n", f);
}

/* The function table, of every thread or of o->thread.  0, or -1 when out
 * of memory. */
static int function_table(const struct xl_model *m, FILE *f, const struct xl_emit_opts *o)
{
	struct xl_func *funcs = m->funcs;
	struct xl_func *own = NULL;
	int64_t whole = 0;
	if (o->thread >= 0) {
		own = malloc((m->nfuncs ? m->nfuncs : 1) * sizeof(*own));
		if (!own)
			return -1;
		if (xl_funcs_for_thread(m, o->thread, own) != XL_OK) {
			free(own);
			return -1;
		}
		funcs = own;
		if ((size_t)o->thread < m->nthreads)
			whole = m->threads[o->thread].total_ns;
		fprintf(f, "thread %d: ", o->thread);
		xl_put_text(f, (size_t)o->thread < m->nthreads ? m->threads[o->thread].name : "(none)");
		putc('\n', f);
	} else {
		whole = xl_thread_time(m);
	}
	size_t *idx = malloc((m->nfuncs ? m->nfuncs : 1) * sizeof(size_t));
	if (!idx) {
		free(own);
		return -1;
	}
	xl_funcs_sorted(funcs, m->nfuncs, o->sort, idx);
	fprintf(f, "\n%14s %11s %7s %11s %7s %11s  %s\n", "calls", "self", "self%", "total", "total%", "avg",
		"function");
	function_rows(f, m, funcs, idx, whole, o);
	free(idx);
	free(own);
	return 0;
}

int xl_emit_text(const struct xl_model *m, FILE *f, const struct xl_emit_opts *o)
{
	run_header(m, f);
	if (m->mode != XL_MODE_MEMORY && function_table(m, f, o) != 0)
		return -1;
	/* Only when there is something to say: a program that allocates
	 * nothing on the heap itself (or ran with allocations off) gets no
	 * section. */
	if (m->allocs && o->thread < 0 && (m->alloc_total.allocs || m->alloc_unmatched_frees) &&
	    alloc_section(m, f, o) != 0)
		return -1;
	process_lines(f, m);
	thread_lines(f, m);
	if (m->mode != XL_MODE_XRAY) {
		struct xl_mem_summary s;
		xl_memory_summary(m, &s);
		fputs("\nmemory:\n", f);
		memory_lines(f, &s);
		metric_line(f, "GC heap", &s.gc_heap, 0);
		metric_line(f, "GC free", &s.gc_free, 0);
		metric_line(f, "GC occupied estimate", &s.gc_occupied, 0);
		metric_line(f, "GC allocated", &s.gc_allocated, 1);
		metric_line(f, "GC collections", &s.gc_collections, 2);
		notes(f, m, XL_TOPIC_MEMORY);
	}
	notes_other(f, m);
	if (m->nwarnings) {
		fputs("\nwarnings:\n", f);
		for (size_t i = 0; i < m->nwarnings; i++)
			fprintf(f, "  - %s\n", m->warnings[i].message);
	}
	return ferror(f) ? -1 : 0;
}
