/*
 * timeline.h - complete calls rebuilt from a thread's stored timeline.
 *
 * The runtime stores entry/exit events; viewers want calls with a start and
 * a duration.  xl_calls_walk() replays one thread's events with a stack and
 * reports each call when it completes (children before parents); frames
 * still open when the events end (truncated timeline, crash) are closed at
 * `end_ns` with `open` set.
 */
#ifndef XL_TIMELINE_H
#define XL_TIMELINE_H

#include "analyze.h"

struct xl_call {
	int64_t start_ns, dur_ns;
	int32_t func; /* index into funcs, XL_NONE if unknown */
	uint32_t depth;
	int open; /* closed by the end of the timeline */
};

typedef int (*xl_call_fn)(const struct xl_call *c, void *ctx);

/* Returns the number of events read, or -1 if fn returned non-zero. */
int64_t xl_calls_walk(const struct xl_model *m, const struct xl_thread *t, int64_t end_ns, xl_call_fn fn, void *ctx);

/* Where a thread's timeline ends: its drop point if it ran out of space,
 * else the end of the capture. */
int64_t xl_timeline_end(const struct xl_model *m, const struct xl_thread *t);

#endif
