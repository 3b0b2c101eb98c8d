/*
 * timeline.c - rebuild complete calls from entry/exit events.
 */
#include <stdlib.h>

#include "timeline.h"

struct open_frame {
	int32_t xray_id;
	int64_t start_ns;
};

int64_t xl_timeline_end(const struct xl_model *m, const struct xl_thread *t)
{
	if (t->dropped_events && t->dropped_from_ns >= 0)
		return t->dropped_from_ns;
	return t->end_ns > 0 ? t->end_ns : m->window_end_ns;
}

int64_t xl_calls_walk(const struct xl_model *m, const struct xl_thread *t, int64_t end_ns, xl_call_fn fn, void *ctx)
{
	return xl_calls_walk_entries(m, t, end_ns, NULL, fn, ctx);
}

int64_t xl_calls_walk_entries(const struct xl_model *m, const struct xl_thread *t, int64_t end_ns, xl_entry_fn on_entry,
			      xl_call_fn fn, void *ctx)
{
	size_t cap = 256, depth = 0;
	struct open_frame *stack = malloc(cap * sizeof(*stack));
	if (!stack)
		return -1;
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
				if (!p)
					break;
				stack = p;
				cap *= 2;
			}
			stack[depth].xray_id = ev.func;
			stack[depth].start_ns = ts;
			depth++;
			if (on_entry) {
				struct xl_call c = {ts, 0, xl_func_index(m, ev.func), (uint32_t)(depth - 1), 0};
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
		struct xl_call c = {stack[depth].start_ns, ts - stack[depth].start_ns, xl_func_index(m, ev.func),
				    (uint32_t)depth, 0};
		if (fn(&c, ctx)) {
			free(stack);
			return -1;
		}
	}
	while (depth > 0) {
		depth--;
		int64_t d = end_ns - stack[depth].start_ns;
		struct xl_call c = {stack[depth].start_ns, d > 0 ? d : 0, xl_func_index(m, stack[depth].xray_id),
				    (uint32_t)depth, 1};
		if (fn(&c, ctx)) {
			free(stack);
			return -1;
		}
	}
	free(stack);
	return n;
}
