/*
 * overhead.c - the profiler's estimated share of the program's time.
 *
 * The runtime measures the cost of one traced call (entry + exit through
 * the trampolines and the handler) at finalization; that cost times the
 * calls of each thread is the time the profiler added to that thread.  It
 * is related to what the thread could have spent it on: its CPU time
 * (capture format 3 records each thread's), and the capture's wall time.
 * Summed thread lifetimes would understate it for threaded programs, whose
 * threads spend much of their lives blocked (LevelDB's db_bench: "2.8 %"
 * against a measured slowdown of 1.76x); captures before format 3 have no
 * CPU time and get that older estimate.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze_internal.h"

/* Cost of one traced call (entry + exit) when nothing measured it: the
 * full-capture handler measured on the project's reference machines
 * (docs/benchmarks.md). */
#define XL_DEFAULT_NS_PER_CALL 40.0

/* The runtime's own measurement of a traced call (capture header fields
 * cal_calls/cal_ticks, see docs/capture-format.md), or -1. */
static double runtime_ns_per_call(const struct xl_model *m)
{
	const struct xl_cap_header *h = (const void *)m->map;
	if (!h || m->map_size < sizeof(*h) || !h->cal_calls || !h->cal_ticks || !(m->ticks_per_ns > 0))
		return -1;
	return (double)h->cal_ticks / m->ticks_per_ns / (double)h->cal_calls;
}

static double share(double part, double whole)
{
	if (!(whole > 0))
		return -1;
	double s = part / whole;
	return s > 1 ? 1 : s;
}

void xl_overhead(const struct xl_model *m, struct xl_overhead *o)
{
	memset(o, 0, sizeof(*o));
	o->cpu_ns = -1;
	o->cpu_share = o->wall_share = o->elapsed_share = o->busiest_share = -1;
	o->busiest = -1;
	if (m->mode == XL_MODE_MEMORY || !m->total_events)
		return;
	o->ns_per_call = m->run.overhead_ns_per_call > 0 ? m->run.overhead_ns_per_call : runtime_ns_per_call(m);
	/* A millisecond or more per call is no measurement but a corrupt
	 * calibration (fuzzing: an infinite cost, cast to an integer). */
	o->measured = o->ns_per_call > 0 && o->ns_per_call < 1e6;
	if (!o->measured)
		o->ns_per_call = XL_DEFAULT_NS_PER_CALL;
	o->calls = m->total_events / 2;
	o->cost_ns = o->ns_per_call * (double)m->total_events / 2.0;
	if (o->cost_ns > (double)XL_MAX_NS)
		o->cost_ns = (double)XL_MAX_NS; /* emitted as an integer */
	o->wall_ns = m->window_end_ns - (m->window_start_ns < 0 ? 0 : m->window_start_ns);
	o->wall_share = share(o->cost_ns, (double)o->wall_ns);

	/* Threads with a CPU time: their cost against it, and the thread whose
	 * CPU time the profiler took the largest share of. */
	double cost_cpu = 0;
	for (size_t i = 0; i < m->nthreads; i++) {
		const struct xl_thread *t = &m->threads[i];
		double cost = o->ns_per_call * (double)t->events / 2.0;
		if (t->cpu_ns < 0)
			continue;
		cost_cpu += cost;
		double s = share(cost, (double)t->cpu_ns);
		if (s > o->busiest_share) {
			o->busiest_share = s;
			o->busiest = (int)i;
		}
	}
	o->elapsed_share = share(o->cost_ns, (double)xl_thread_time(m));
	o->cpu_ns = xl_cpu_time(m, NULL);
	if (o->cpu_ns >= 0)
		o->cpu_share = share(cost_cpu, (double)o->cpu_ns);
}

int xl_call_cost(struct xl_model *m)
{
	for (size_t f = 0; f < m->nfuncs; f++) {
		m->funcs[f].cost_bound_ns = -1;
		m->funcs[f].cost_uncertain = 0;
	}
	struct xl_overhead o;
	xl_overhead(m, &o);
	if (xl_timing_sampled(m) || !o.calls || !m->nfuncs)
		return XL_OK;
	uint64_t *made = calloc(m->nfuncs, sizeof(*made));
	if (!made)
		return XL_ENOMEM;
	for (size_t i = 0; i < m->nnodes; i++) {
		const struct xl_tnode *n = &m->nodes[i];
		int32_t caller = n->parent == XL_NONE ? XL_NONE : m->nodes[n->parent].func;
		if (caller >= 0 && (size_t)caller < m->nfuncs)
			made[caller] += n->calls;
	}
	for (size_t f = 0; f < m->nfuncs; f++) {
		struct xl_func *fn = &m->funcs[f];
		uint64_t calls = fn->calls + made[f];
		fn->cost_bound_ns = xl_clamp_ns((double)calls * o.ns_per_call);
		fn->cost_uncertain = fn->self_ns > 0 && calls >= XL_CALL_COST_MIN_CALLS &&
				     (double)fn->cost_bound_ns >= 0.5 * (double)fn->self_ns;
	}
	free(made);
	return XL_OK;
}
