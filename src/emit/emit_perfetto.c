/*
 * emit_perfetto.c - Perfetto's protobuf trace (a `Trace`: a stream of
 * `TracePacket`s), as read by ui.perfetto.dev and trace_processor.
 *
 * Why beside the Chrome JSON export: JSON repeats each call's name and
 * about 60 bytes of syntax; here a call is a BEGIN and an END packet of
 * about 14 bytes each: names are interned (sent once per thread, then
 * referred to by number) and timestamps are deltas from the thread's
 * previous event (docs/cli.md, docs/benchmarks.md).
 *
 * What is written (field numbers and the messages they belong to:
 * tests/perfetto/perfetto_subset.proto, which mirrors Perfetto's protos):
 *   1. A TrackDescriptor for the process (uuid 1: pid, program name) and
 *      one per thread (uuid 2 + index: pid, tid, thread name), so viewers
 *      draw one named track per thread.
 *   2. On sequence 1 (trusted_packet_sequence_id), at the window's start on
 *      the trace clock (BOOTTIME, which here is the capture's time axis: ns
 *      from its start, as in every other export), an instant event
 *      "exaloop capture" on the process track whose debug annotations hold
 *      what the Chrome export puts in otherData (add new metadata there:
 *      metadata()).
 *   3. Each thread on a sequence of its own (2 + index).  Its first packet
 *      clears the sequence's incremental state and sets its defaults: the
 *      thread's track, and clock 64, an incremental ns clock that a
 *      ClockSnapshot in the same packet anchors at BOOTTIME 0 (clock ids
 *      64..127 are sequence-scoped; an incremental clock's timestamp is the
 *      delta from the previous packet's on that clock).  Then per call a
 *      TYPE_SLICE_BEGIN with name_iid (the name itself in the packet's
 *      InternedData the first time the sequence uses it) and a
 *      TYPE_SLICE_END, every packet flagged SEQ_NEEDS_INCREMENTAL_STATE
 *      (they rely on the defaults).  A time earlier than the sequence's
 *      previous one (a frame closed at the end of a truncated timeline) is
 *      written absolute on BOOTTIME instead: deltas are unsigned.
 *
 * Unless o->uncompressed, the packets are then deflated in chunks (see
 * CHUNK): 3 bytes a call instead of 26.
 *
 * The calls and their times are those of the Chrome export: the same walk
 * (xl_calls_walk_entries, timeline.h), in ns instead of µs.  A call that
 * never returned has the annotation unfinished=true on its END; a function
 * whose name another shares has fn=<index in the metadata's functions>.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "emit_internal.h"
#include "pbw.h"
#include "timeline.h"

/* Trace */
#define TRACE_PACKET 1
/* TracePacket */
#define TP_CLOCK_SNAPSHOT 6
#define TP_TIMESTAMP 8
#define TP_SEQUENCE_ID 10 /* trusted_packet_sequence_id */
#define TP_TRACK_EVENT 11
#define TP_INTERNED_DATA 12
#define TP_SEQUENCE_FLAGS 13
#define TP_CLOCK_ID 58 /* timestamp_clock_id */
#define TP_DEFAULTS 59 /* trace_packet_defaults */
#define TP_TRACK_DESCRIPTOR 60
#define TP_FIRST_ON_SEQUENCE 87
#define SEQ_INCREMENTAL_STATE_CLEARED 1
#define SEQ_NEEDS_INCREMENTAL_STATE 2
/* TracePacketDefaults (timestamp_clock_id is 58 as in TracePacket) */
#define DEF_TRACK_EVENT 11
#define TED_TRACK_UUID 11 /* TrackEventDefaults */
/* ClockSnapshot and its Clock */
#define CS_CLOCKS 1
#define CLOCK_ID 1
#define CLOCK_TIMESTAMP 2
#define CLOCK_INCREMENTAL 3
#define CLOCK_BOOTTIME 6 /* BuiltinClock: the default trace clock */
#define CLOCK_DELTA 64   /* ours: sequence-scoped, incremental */
/* TrackDescriptor, ProcessDescriptor, ThreadDescriptor */
#define TD_UUID 1
#define TD_PROCESS 3
#define TD_THREAD 4
#define TD_PARENT_UUID 5
#define PD_PID 1
#define PD_NAME 6
#define THD_PID 1
#define THD_TID 2
#define THD_NAME 5
/* TrackEvent */
#define TE_DEBUG_ANNOTATIONS 4
#define TE_TYPE 9
#define TE_NAME_IID 10
#define TE_TRACK_UUID 11
#define TE_NAME 23
#define TYPE_SLICE_BEGIN 1
#define TYPE_SLICE_END 2
#define TYPE_INSTANT 3
/* InternedData.event_names, EventName */
#define ID_EVENT_NAMES 2
#define EN_IID 1
#define EN_NAME 2
/* DebugAnnotation and its NestedValue */
#define DA_BOOL 2
#define DA_UINT 3
#define DA_INT 4
#define DA_STRING 6
#define DA_NESTED 8
#define DA_NAME 10
#define NV_TYPE 1
#define NV_DICT_KEYS 2
#define NV_DICT_VALUES 3
#define NV_ARRAY_VALUES 4
#define NV_INT 5
#define NV_BOOL 7
#define NV_STRING 8
#define NV_DICT 1
#define NV_ARRAY 2

#define PROCESS_UUID 1
#define META_SEQUENCE 1
#define THREAD_ID(i) (2 + (uint64_t)(i)) /* track uuid and sequence id */
/* The k-th process of a tree (the first is PROCESS_UUID), past any thread's */
#define PROC_UUID(k) ((k) ? ((uint64_t)1 << 32) + (uint64_t)(k) : PROCESS_UUID)

/* Compressed: packets are collected into chunks of up to CHUNK bytes, each
 * written as one TracePacket whose compressed_packets (50) is the chunk
 * zlib-deflated: Perfetto's own compression (its service writes traces so,
 * and trace_processor inflates them while reading).  A chunk of 256 KiB
 * stays under the 512 KB that trace_packet.proto allows such a packet even
 * when it does not compress. */
#define TP_COMPRESSED_PACKETS 50
#define CHUNK (256u << 10)

/* One thread's packet sequence while its calls are written. */
struct seq {
	const struct xl_model *m;
	FILE *f;
	int compress;
	struct pbw chunk;    /* packets not yet compressed */
	unsigned char *zbuf; /* deflated chunk */
	uLong zcap;
	struct pbw pk, te, sub, sub2; /* packet, its track event, nested parts */
	uint64_t id;
	int64_t last_ns;         /* the incremental clock's value */
	unsigned char *interned; /* per name iid: sent on this sequence */
	const unsigned char *shared;
};

static int flush(struct seq *s)
{
	if (s->chunk.oom) {
		errno = ENOMEM;
		return -1;
	}
	if (!s->chunk.len)
		return 0;
	uLong need = compressBound((uLong)s->chunk.len);
	if (need > s->zcap) {
		unsigned char *z = realloc(s->zbuf, need);
		if (!z) {
			errno = ENOMEM;
			return -1;
		}
		s->zbuf = z;
		s->zcap = need;
	}
	uLongf zlen = s->zcap;
	if (compress2(s->zbuf, &zlen, s->chunk.p, (uLong)s->chunk.len, 1) != Z_OK) {
		errno = ENOMEM;
		return -1;
	}
	pb_reset(&s->chunk);
	struct pbw wrap;
	pb_init(&wrap);
	pb_bytes(&wrap, TP_COMPRESSED_PACKETS, s->zbuf, zlen);
	int rc = pb_put(s->f, TRACE_PACKET, &wrap);
	pb_free(&wrap);
	return rc;
}

/* Write one packet (to the file, or to the chunk being collected). */
static int out(struct seq *s, const struct pbw *pk)
{
	if (!s->compress)
		return pb_put(s->f, TRACE_PACKET, pk);
	pb_msg(&s->chunk, TRACE_PACKET, pk);
	return s->chunk.len >= CHUNK || s->chunk.oom ? flush(s) : 0;
}

/* A function's event name iid: its index + 1 (0 is invalid), the same on
 * every sequence (an iid may never name two strings in one trace); calls
 * of unknown functions ("?") share nfuncs + 1. */
static uint64_t name_iid(const struct xl_model *m, int32_t func)
{
	return func >= 0 ? (uint64_t)func + 1 : (uint64_t)m->nfuncs + 1;
}

static void stamp(struct seq *s, int64_t ns)
{
	if (ns >= s->last_ns) {
		pb_uint(&s->pk, TP_TIMESTAMP, (uint64_t)(ns - s->last_ns));
		s->last_ns = ns;
	} else {
		pb_uint(&s->pk, TP_TIMESTAMP, (uint64_t)ns);
		pb_uint(&s->pk, TP_CLOCK_ID, CLOCK_BOOTTIME);
	}
}

static void annotate_int(struct pbw *te, struct pbw *tmp, const char *name, int field, uint64_t v)
{
	pb_reset(tmp);
	pb_str(tmp, DA_NAME, name);
	pb_uint(tmp, (uint32_t)field, v);
	pb_msg(te, TE_DEBUG_ANNOTATIONS, tmp);
}

/* The packet of the track event in s->te, at ns. */
static void event_packet(struct seq *s, int64_t ns)
{
	pb_reset(&s->pk);
	stamp(s, ns);
	pb_uint(&s->pk, TP_SEQUENCE_ID, s->id);
	pb_uint(&s->pk, TP_SEQUENCE_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
	pb_msg(&s->pk, TP_TRACK_EVENT, &s->te);
}

static int call_begin(const struct xl_call *c, void *arg)
{
	struct seq *s = arg;
	uint64_t iid = name_iid(s->m, c->func);
	pb_reset(&s->te);
	pb_uint(&s->te, TE_TYPE, TYPE_SLICE_BEGIN);
	pb_uint(&s->te, TE_NAME_IID, iid);
	if (c->func >= 0 && s->shared && s->shared[c->func])
		annotate_int(&s->te, &s->sub, "fn", DA_INT, (uint64_t)c->func);
	event_packet(s, c->start_ns);
	if (!s->interned[iid]) {
		s->interned[iid] = 1;
		pb_reset(&s->sub2);
		pb_uint(&s->sub2, EN_IID, iid);
		pb_str(&s->sub2, EN_NAME, c->func >= 0 ? s->m->funcs[c->func].name : "?");
		pb_reset(&s->sub);
		pb_msg(&s->sub, ID_EVENT_NAMES, &s->sub2);
		pb_msg(&s->pk, TP_INTERNED_DATA, &s->sub);
	}
	return out(s, &s->pk);
}

static int call_end(const struct xl_call *c, void *arg)
{
	struct seq *s = arg;
	pb_reset(&s->te);
	pb_uint(&s->te, TE_TYPE, TYPE_SLICE_END);
	if (c->open)
		annotate_int(&s->te, &s->sub, "unfinished", DA_BOOL, 1);
	event_packet(s, c->start_ns + c->dur_ns);
	return out(s, &s->pk);
}

/* The sequence's first packet: incremental state cleared, the defaults
 * (the thread's track, the incremental clock) and the clock's anchor. */
static int start_sequence(struct seq *s)
{
	struct pbw *pk = &s->pk, *a = &s->sub, *b = &s->sub2;
	pb_reset(pk);
	pb_uint(pk, TP_TIMESTAMP, 0);
	pb_uint(pk, TP_CLOCK_ID, CLOCK_BOOTTIME);
	pb_uint(pk, TP_SEQUENCE_ID, s->id);
	pb_uint(pk, TP_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
	pb_uint(pk, TP_FIRST_ON_SEQUENCE, 1);
	pb_reset(b);
	pb_uint(b, TED_TRACK_UUID, s->id);
	pb_reset(a);
	pb_uint(a, TP_CLOCK_ID, CLOCK_DELTA);
	pb_msg(a, DEF_TRACK_EVENT, b);
	pb_msg(pk, TP_DEFAULTS, a);
	pb_reset(a);
	pb_reset(b);
	pb_uint(b, CLOCK_ID, CLOCK_BOOTTIME);
	pb_uint(b, CLOCK_TIMESTAMP, 0);
	pb_msg(a, CS_CLOCKS, b);
	pb_reset(b);
	pb_uint(b, CLOCK_ID, CLOCK_DELTA);
	pb_uint(b, CLOCK_TIMESTAMP, 0);
	pb_uint(b, CLOCK_INCREMENTAL, 1);
	pb_msg(a, CS_CLOCKS, b);
	pb_msg(pk, TP_CLOCK_SNAPSHOT, a);
	s->last_ns = 0;
	return out(s, pk);
}

static int thread_calls(struct seq *s, const struct xl_thread *t)
{
	if (start_sequence(s) != 0)
		return -1;
	return xl_calls_walk_entries(s->m, t, xl_timeline_end(s->m, t), call_begin, call_end, s) < 0 ? -1 : 0;
}

/* Track descriptors: the process, then each thread under it. */
static int descriptors(struct seq *s, uint32_t pid)
{
	const struct xl_model *m = s->m;
	struct pbw *pk = &s->pk, *td = &s->te, *d = &s->sub;
	for (size_t k = 0; k < (m->nprocs > 1 ? m->nprocs : 1); k++) {
		pb_reset(d);
		pb_uint(d, PD_PID, k ? m->procs[k].pid : pid);
		pb_str(d, PD_NAME,
		       k && m->procs[k].command ? m->procs[k].command
		       : m->run.program         ? m->run.program
						: "profiled program");
		pb_reset(td);
		pb_uint(td, TD_UUID, PROC_UUID(k));
		pb_msg(td, TD_PROCESS, d);
		pb_reset(pk);
		pb_msg(pk, TP_TRACK_DESCRIPTOR, td);
		if (out(s, pk) != 0)
			return -1;
	}
	for (size_t i = 0; i < m->nthreads; i++) {
		const struct xl_thread *t = &m->threads[i];
		pb_reset(d);
		pb_uint(d, THD_PID, m->nprocs > 1 ? xl_thread_pid(m, t) : pid);
		pb_uint(d, THD_TID, t->tid);
		pb_str(d, THD_NAME, t->name);
		pb_reset(td);
		pb_uint(td, TD_UUID, THREAD_ID(i));
		pb_uint(td, TD_PARENT_UUID, m->nprocs > 1 ? PROC_UUID(t->process) : PROCESS_UUID);
		pb_msg(td, TD_THREAD, d);
		pb_reset(pk);
		pb_msg(pk, TP_TRACK_DESCRIPTOR, td);
		if (out(s, pk) != 0)
			return -1;
	}
	return 0;
}

/* Nested values for the metadata (DebugAnnotation.NestedValue). */
static void nv_str(struct pbw *v, const char *s)
{
	pb_reset(v);
	pb_str(v, NV_STRING, s ? s : "");
}

static void nv_int(struct pbw *v, int64_t n)
{
	pb_reset(v);
	pb_uint(v, NV_INT, (uint64_t)n);
}

/* metadata "functions": [{name, file, line}] in the model's order (the
 * index that fn annotations give), as the Chrome export's
 * otherData.functions. */
static void functions_table(const struct xl_model *m, struct pbw *te, struct pbw *da)
{
	struct pbw arr, fn, v;
	pb_init(&arr);
	pb_init(&fn);
	pb_init(&v);
	pb_uint(&arr, NV_TYPE, NV_ARRAY);
	for (size_t i = 0; i < m->nfuncs; i++) {
		const struct xl_func *f = &m->funcs[i];
		pb_reset(&fn);
		pb_uint(&fn, NV_TYPE, NV_DICT);
		pb_str(&fn, NV_DICT_KEYS, "name");
		nv_str(&v, f->name);
		pb_msg(&fn, NV_DICT_VALUES, &v);
		pb_str(&fn, NV_DICT_KEYS, "file");
		nv_str(&v, f->file);
		pb_msg(&fn, NV_DICT_VALUES, &v);
		pb_str(&fn, NV_DICT_KEYS, "line");
		nv_int(&v, f->line);
		pb_msg(&fn, NV_DICT_VALUES, &v);
		pb_msg(&arr, NV_ARRAY_VALUES, &fn);
	}
	pb_reset(da);
	pb_str(da, DA_NAME, "functions");
	pb_msg(da, DA_NESTED, &arr);
	pb_msg(te, TE_DEBUG_ANNOTATIONS, da);
	if (arr.oom || fn.oom || v.oom)
		te->oom = 1;
	pb_free(&arr);
	pb_free(&fn);
	pb_free(&v);
}

static void annotate_str(struct pbw *te, struct pbw *tmp, const char *name, const char *value)
{
	pb_reset(tmp);
	pb_str(tmp, DA_NAME, name);
	pb_str(tmp, DA_STRING, value ? value : "");
	pb_msg(te, TE_DEBUG_ANNOTATIONS, tmp);
}

/* The run's metadata: an instant "exaloop capture" on the process track
 * at the window's start, one debug annotation per fact (the members of
 * the Chrome export's otherData, under the same names; times in ns). */
static int metadata(struct seq *s)
{
	const struct xl_model *m = s->m;
	struct pbw *te = &s->te, *da = &s->sub, *v = &s->sub2;
	pb_reset(te);
	pb_uint(te, TE_TYPE, TYPE_INSTANT);
	pb_uint(te, TE_TRACK_UUID, PROCESS_UUID);
	pb_str(te, TE_NAME, "exaloop capture");
	annotate_str(te, da, "generator", "exaloop " XL_VERSION);
	annotate_str(te, da, "program", m->run.program);
	annotate_str(te, da, "mode", xl_mode_name(m->mode));
	annotate_str(te, da, "timing", xl_timing_sampled(m) ? "sampled" : "exact");
	annotate_int(te, da, "finalized", DA_BOOL, m->finalized != 0);
	annotate_int(te, da, "timeline_truncated", DA_BOOL, m->timeline_full_ns >= 0);
	if (m->timeline_full_ns >= 0)
		annotate_int(te, da, "timeline_truncated_from_ns", DA_UINT, (uint64_t)m->timeline_full_ns);
	annotate_int(te, da, "dropped_events", DA_UINT, m->total_dropped);
	struct pbw arr;
	pb_init(&arr);
	pb_uint(&arr, NV_TYPE, NV_ARRAY);
	for (size_t i = 0; i < m->nwarnings; i++) {
		nv_str(v, m->warnings[i].message);
		pb_msg(&arr, NV_ARRAY_VALUES, v);
	}
	pb_reset(da);
	pb_str(da, DA_NAME, "warnings");
	pb_msg(da, DA_NESTED, &arr);
	pb_msg(te, TE_DEBUG_ANNOTATIONS, da);
	/* what each thread's timeline kept (the Chrome export's timeline_kept):
	 * "<tid>: calls ≥ 393 ns after 0.120 s" */
	annotate_str(te, da, "timeline_mode", xl_tl_mode_name(m->tl_mode));
	annotate_int(te, da, "timeline_min_ns", DA_UINT, (uint64_t)m->tl_min_ns);
	pb_reset(&arr);
	pb_uint(&arr, NV_TYPE, NV_ARRAY);
	for (size_t i = 0; i < m->nthreads; i++) {
		char note[256], line[320];
		xl_tl_note(m, &m->threads[i], note, sizeof(note));
		snprintf(line, sizeof(line), "%u: %s", m->threads[i].tid, note);
		nv_str(v, line);
		pb_msg(&arr, NV_ARRAY_VALUES, v);
	}
	pb_reset(da);
	pb_str(da, DA_NAME, "timeline_kept");
	pb_msg(da, DA_NESTED, &arr);
	pb_msg(te, TE_DEBUG_ANNOTATIONS, da);
	pb_free(&arr);
	functions_table(m, te, da);
	pb_reset(&s->pk);
	pb_uint(&s->pk, TP_TIMESTAMP, (uint64_t)(m->window_start_ns > 0 ? m->window_start_ns : 0));
	pb_uint(&s->pk, TP_SEQUENCE_ID, META_SEQUENCE);
	pb_msg(&s->pk, TP_TRACK_EVENT, te);
	return out(s, &s->pk);
}

int xl_emit_perfetto(const struct xl_model *m, FILE *f, const struct xl_emit_opts *o)
{
	struct seq s = {.m = m, .f = f, .compress = !o->uncompressed};
	pb_init(&s.chunk);
	pb_init(&s.pk);
	pb_init(&s.te);
	pb_init(&s.sub);
	pb_init(&s.sub2);
	unsigned char *shared;
	int no_names = xl_shared_names(m, &shared);
	s.shared = shared;
	s.interned = malloc(m->nfuncs + 2);
	int rc = s.interned && !no_names ? 0 : -1;
	uint32_t pid = m->nprocs ? m->procs[0].pid : m->pid ? m->pid : 1;
	if (rc == 0)
		rc = descriptors(&s, pid);
	if (rc == 0)
		rc = metadata(&s);
	for (size_t i = 0; rc == 0 && i < m->nthreads; i++) {
		memset(s.interned, 0, m->nfuncs + 2);
		s.id = THREAD_ID(i);
		rc = thread_calls(&s, &m->threads[i]);
	}
	if (rc == 0)
		rc = flush(&s);
	int oom = no_names || !s.interned || s.pk.oom || s.te.oom || s.sub.oom || s.sub2.oom;
	free(s.interned);
	free((void *)s.shared);
	free(s.zbuf);
	pb_free(&s.chunk);
	pb_free(&s.pk);
	pb_free(&s.te);
	pb_free(&s.sub);
	pb_free(&s.sub2);
	if (oom)
		errno = ENOMEM;
	return rc != 0 || oom || ferror(f) ? -1 : 0;
}
