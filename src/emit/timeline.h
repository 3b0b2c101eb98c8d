/*
 * timeline.h - complete calls rebuilt from a thread's stored timeline.
 *
 * The runtime stores entry/exit events; viewers want calls with a start and
 * a duration.  xl_calls_walk() replays one thread's events with a stack and
 * reports each call when it completes (children before parents); frames
 * still open when the events end (truncated timeline, crash) are closed at
 * `end_ns` with `open` set.  A format that writes a call's two ends as two
 * events (Perfetto's BEGIN/END) also asks to hear of each entry: entries
 * and completions then arrive in the order they happened.
 * A ring's (XL_TL_LAST) first records are exits of calls entered before
 * it: those calls are reported as entered at its first record, with `cut`
 * set (the exits say which functions they were).
 */
#ifndef XL_TIMELINE_H
#define XL_TIMELINE_H

#include "analyze.h"

struct xl_call {
	int64_t start_ns, dur_ns;
	int32_t func; /* index into funcs, XL_NONE if unknown */
	uint32_t depth;
	int open; /* closed by the end of the timeline */
	int cut;  /* XL_TL_LAST: entered before the timeline's first record
		   * (its entry was overwritten); start_ns is that record's */
};

typedef int (*xl_call_fn)(const struct xl_call *c, void *ctx);
/* A call's entry: its start, function (index into funcs, XL_NONE if
 * unknown) and depth; dur_ns and open are not known yet (0). */
typedef xl_call_fn xl_entry_fn;

/* Returns the number of events read, or -1 if fn returned non-zero (or no
 * memory for the stack). */
int64_t xl_calls_walk(const struct xl_model *m, const struct xl_thread *t, int64_t end_ns, xl_call_fn fn, void *ctx);
/* The same walk, also reporting each entry (on_entry) before the calls it
 * contains: every entry reported is later completed by one on_exit. */
int64_t xl_calls_walk_entries(const struct xl_model *m, const struct xl_thread *t, int64_t end_ns, xl_entry_fn on_entry,
			      xl_call_fn on_exit, void *ctx);

/* Where a thread's timeline ends: its drop point if it ran out of space,
 * else the end of the capture. */
int64_t xl_timeline_end(const struct xl_model *m, const struct xl_thread *t);
/* The time of a thread's first timeline record, or -1 without one. */
int64_t xl_timeline_start(const struct xl_model *m, const struct xl_thread *t);

#endif
