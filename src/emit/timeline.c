/*
 * timeline.c - rebuild complete calls from entry/exit events.
 */
#include <stdlib.h>

#include "timeline.h"

struct open_frame {
	int32_t xray_id;
	int64_t start_ns;
	int cut; /* entered before a ring's first record (xl_call.cut) */
};

int64_t xl_timeline_end(const struct xl_model *m, const struct xl_thread *t)
{
	if (t->dropped_events && t->dropped_from_ns >= 0)
		return t->dropped_from_ns;
	return t->end_ns > 0 ? t->end_ns : m->window_end_ns;
}

int64_t xl_timeline_start(const struct xl_model *m, const struct xl_thread *t)
{
	struct xl_tl_iter it;
	struct xl_event ev;
	xl_tl_begin(m, t, &it);
	return xl_tl_next(&it, &ev) ? xl_model_ns(m, ev.ticks) : -1;
}

/* A ring's (XL_TL_LAST) timeline starts with the exits of calls whose
 * entries were overwritten.  The frames open at its first record are
 * known from those exits: the exit that takes the running depth to a new
 * low -j closes the j-th of them from the top.  One pass puts them on
 * *stack (grown as needed, *cap entries), outermost first, with the
 * record's time, and returns how many there are; (size_t)-1 without
 * memory. */
static size_t cut_frames(const struct xl_model *m, const struct xl_thread *t, struct open_frame **stack, size_t *cap)
{
	struct xl_tl_iter it;
	struct xl_event ev;
	int64_t d = 0, first_ns = -1;
	size_t cut = 0;
	xl_tl_begin(m, t, &it);
	while (xl_tl_next(&it, &ev)) {
		if (first_ns < 0)
			first_ns = xl_model_ns(m, ev.ticks);
		d += ev.kind == XL_EV_ENTRY ? 1 : -1;
		if (d >= 0 || (size_t)-d <= cut)
			continue;
		if (cut == *cap) {
			struct open_frame *p = realloc(*stack, *cap * 2 * sizeof(**stack));
			if (!p)
				return (size_t)-1;
			*stack = p;
			*cap *= 2;
		}
		(*stack)[cut++] = (struct open_frame){ev.func, first_ns, 1}; /* innermost first */
	}
	for (size_t i = 0; i < cut / 2; i++) {
		struct open_frame f = (*stack)[i];
		(*stack)[i] = (*stack)[cut - 1 - i];
		(*stack)[cut - 1 - i] = f;
	}
	return cut;
}

int64_t xl_calls_walk(const struct xl_model *m, const struct xl_thread *t, int64_t end_ns, xl_call_fn fn, void *ctx)
{
	return xl_calls_walk_entries(m, t, end_ns, NULL, fn, ctx);
}

/* A call to report: its function, depth and frame. */
static struct xl_call call_of(const struct xl_model *m, const struct xl_thread *t, const struct open_frame *f,
			      uint32_t depth, int64_t end_ns, int open)
{
	int64_t d = end_ns - f->start_ns;
	return (struct xl_call){f->start_ns, d > 0 ? d : 0, xl_thread_func_index(m, t, f->xray_id),
				depth,       open,          f->cut};
}

int64_t xl_calls_walk_entries(const struct xl_model *m, const struct xl_thread *t, int64_t end_ns, xl_entry_fn on_entry,
			      xl_call_fn fn, void *ctx)
{
	size_t cap = 256, depth = 0;
	struct open_frame *stack = malloc(cap * sizeof(*stack));
	size_t cut = stack && t->tl_recycled ? cut_frames(m, t, &stack, &cap) : 0;
	if (!stack || cut == (size_t)-1) {
		free(stack);
		return -1;
	}
	for (; depth < cut; depth++) {
		struct xl_call c = call_of(m, t, &stack[depth], (uint32_t)depth, stack[depth].start_ns, 0);
		if (on_entry && on_entry(&c, ctx)) {
			free(stack);
			return -1;
		}
	}
	struct xl_tl_iter it;
	struct xl_event ev;
	int64_t n = 0;
	xl_tl_begin(m, t, &it);
	while (xl_tl_next(&it, &ev)) {
		n++;
		int64_t ts = xl_model_ns(m, ev.ticks);
		if (ev.kind == XL_EV_ENTRY) {
			if (depth == cap) {
				struct open_frame *p = realloc(stack, cap * 2 * sizeof(*stack));
				if (!p) { /* the calls after this one would be missing */
					free(stack);
					return -1;
				}
				stack = p;
				cap *= 2;
			}
			stack[depth] = (struct open_frame){ev.func, ts, 0};
			depth++;
			if (on_entry) {
				struct xl_call c = call_of(m, t, &stack[depth - 1], (uint32_t)(depth - 1), ts, 0);
				if (on_entry(&c, ctx)) {
					free(stack);
					return -1;
				}
			}
			continue;
		}
		/* The runtime keeps the stored timeline balanced (it writes exits
		 * for frames it unwinds and drops exits without an entry), so a
		 * mismatch here means corruption: skip the event. */
		if (depth == 0 || stack[depth - 1].xray_id != ev.func)
			continue;
		depth--;
		struct xl_call c = call_of(m, t, &stack[depth], (uint32_t)depth, ts, 0);
		if (fn(&c, ctx)) {
			free(stack);
			return -1;
		}
	}
	while (depth > 0) {
		depth--;
		struct xl_call c = call_of(m, t, &stack[depth], (uint32_t)depth, end_ns, 1);
		if (fn(&c, ctx)) {
			free(stack);
			return -1;
		}
	}
	free(stack);
	return n;
}
