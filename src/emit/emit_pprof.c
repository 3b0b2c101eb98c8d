/*
 * emit_pprof.c - pprof's profile.proto, gzipped: read by `go tool pprof`
 * and the continuous-profiling stores (Grafana Pyroscope, Parca, Google
 * Cloud Profiler), so a capture can join a fleet's profiles.
 *
 * What is written (field numbers: google/pprof's proto/profile.proto):
 *   - One Sample per call-tree node, its location_ids the node's path, leaf
 *     first, and its values: calls/count, wall/nanoseconds (the node's self
 *     time), and when allocations were recorded alloc_objects/count,
 *     alloc_space/bytes and inuse_space/bytes (the node's own allocations,
 *     and of those the bytes still live at the end).  Summed per function
 *     they are the function table's figures (but for a bounded tree,
 *     below); nodes whose values are all zero are left out.
 *   - Labels on each sample: thread (its name), tid, pid.  Threads are not
 *     merged: each thread's tree gives its own samples (o->thread: one).
 *   - Allocations with no traced frame: a thread root's, under a
 *     "(no traced frame)" function; those of frames a bounded tree had no
 *     node for (xl_falloc) under their function below "(more call paths)";
 *     the run's "(not attributed)" ones and those made outside the capture
 *     window (all threads only) under a function of that name each, with
 *     the pid label alone.  So the alloc values add up
 *     to the run's total, as in the folded export.
 *   - One Location and one Function per function (ids: index + 1, pseudo
 *     functions after the model's), with the function's file and first
 *     line: exaloop knows where functions are, not where calls are made.
 *     One Mapping, the executable, marked as symbolized so readers do not
 *     try to symbolize addresses (there are none).
 *   - A bounded call tree's "(more call paths)" nodes are samples like any
 *     other (the time of the calls beyond the bound, where the tree keeps
 *     it), so a function's flat value leaves out its calls there, which
 *     the function table counts (a comment says so).
 *   - time_nanos: the capture window's start (CLOCK_REALTIME at the
 *     runtime's start plus the window's offset), duration_nanos its length;
 *     default_sample_type "wall".
 *
 * The message is encoded field by field into a buffer that is gzipped
 * into f whenever it holds PENDING bytes (a Profile is the top-level
 * message: its fields need no length in front), so memory stays with the
 * strings, not the samples.  Strings are interned as they are first used
 * (index 0 is ""); the table goes last, which readers allow: a repeated
 * field's elements keep their order wherever they sit.  Strings are made
 * valid UTF-8 (an invalid byte becomes U+FFFD, as in the JSON summary):
 * proto3 strings must be.  o->uncompressed writes the message as it is.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "emit_internal.h"
#include "pbw.h"
#include "xl_array.h"

/* Profile */
#define P_SAMPLE_TYPE 1
#define P_SAMPLE 2
#define P_MAPPING 3
#define P_LOCATION 4
#define P_FUNCTION 5
#define P_STRING_TABLE 6
#define P_TIME_NANOS 9
#define P_DURATION_NANOS 10
#define P_PERIOD_TYPE 11
#define P_PERIOD 12
#define P_COMMENT 13
#define P_DEFAULT_SAMPLE_TYPE 14
/* ValueType */
#define VT_TYPE 1
#define VT_UNIT 2
/* Sample */
#define S_LOCATION_ID 1
#define S_VALUE 2
#define S_LABEL 3
/* Label */
#define L_KEY 1
#define L_STR 2
#define L_NUM 3
/* Mapping */
#define M_ID 1
#define M_FILENAME 5
#define M_BUILD_ID 6
#define M_HAS_FUNCTIONS 7
#define M_HAS_FILENAMES 8
#define M_HAS_LINE_NUMBERS 9
/* Location */
#define LOC_ID 1
#define LOC_MAPPING_ID 2
#define LOC_LINE 4
/* Line */
#define LINE_FUNCTION_ID 1
#define LINE_LINE 2
/* Function */
#define F_ID 1
#define F_NAME 2
#define F_SYSTEM_NAME 3
#define F_FILENAME 4
#define F_START_LINE 5

#define MAPPING_ID 1
#define PENDING (64u << 10)
#define MAX_VALUES 5

/* The string table: owned UTF-8 copies, found again by an open-addressing
 * hash (slot = index + 1, 0 empty; at most half full). */
struct strtab {
	char **s;
	size_t n, cap;
	uint32_t *slot;
	size_t nslot;
	int oom;
};

/* f, or a gzip stream into f. */
struct sink {
	FILE *f;
	int gzip;
	z_stream z;
	unsigned char out[1 << 16];
};

struct pprof {
	const struct xl_model *m;
	const struct xl_emit_opts *o;
	struct sink *sink;
	struct pbw top; /* the Profile's fields not yet written */
	struct pbw msg, sub;
	struct strtab st;
	size_t nvalues;
	uint64_t *path;       /* a sample's location ids */
	unsigned char *used;  /* per function id: some sample refers to it */
	struct pbw *labels;   /* per thread: the Label fields of its samples */
	struct pbw proc;      /* the pid label alone */
	uint64_t no_frame_id; /* pseudo functions */
	uint64_t not_attributed_id;
	uint64_t outside_id;
	uint64_t more_id;     /* the model's "(more call paths)", or a pseudo one */
	uint64_t sframe_base; /* sampled frame k is function id sframe_base + k */
	size_t nids;          /* function ids are 1 .. nids */
	int32_t *traced;      /* per sampled frame: the traced node it is in */
	int64_t *est_off;     /* per node: its sampled frames' estimates (off its wall) */
};

/* A copy of s with every byte that starts no valid UTF-8 sequence replaced
 * by U+FFFD. */
static char *utf8_copy(const char *s)
{
	size_t n = strlen(s);
	char *d = malloc(3 * n + 1);
	if (!d)
		return NULL;
	size_t k = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		int len = jw_utf8_len(p);
		if (len) {
			memcpy(d + k, p, (size_t)len);
			k += (size_t)len;
			p += len;
		} else {
			memcpy(d + k, "\xef\xbf\xbd", 3);
			k += 3;
			p++;
		}
	}
	d[k] = '\0';
	return d;
}

static size_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603u; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return (size_t)h;
}

static int st_rehash(struct strtab *t)
{
	size_t nslot = t->nslot ? 2 * t->nslot : 256;
	uint32_t *slot = calloc(nslot, sizeof(*slot));
	if (!slot)
		return -1;
	for (size_t i = 0; i < t->n; i++) {
		size_t h = str_hash(t->s[i]) & (nslot - 1);
		while (slot[h])
			h = (h + 1) & (nslot - 1);
		slot[h] = (uint32_t)(i + 1);
	}
	free(t->slot);
	t->slot = slot;
	t->nslot = nslot;
	return 0;
}

/* s's index in the table, added when new (NULL: ""); 0 after running out
 * of memory (t->oom, checked once at the end). */
static uint64_t intern(struct strtab *t, const char *s)
{
	char *c = utf8_copy(s ? s : "");
	if (!c || ((t->n + 1) * 2 > t->nslot && st_rehash(t) != 0) ||
	    (t->n == t->cap && xl_grow((void **)&t->s, &t->cap, t->n + 1, sizeof(*t->s)) != 0)) {
		free(c);
		t->oom = 1;
		return 0;
	}
	size_t h = str_hash(c) & (t->nslot - 1);
	for (; t->slot[h]; h = (h + 1) & (t->nslot - 1))
		if (strcmp(t->s[t->slot[h] - 1], c) == 0) {
			free(c);
			return t->slot[h] - 1;
		}
	t->slot[h] = (uint32_t)(t->n + 1);
	t->s[t->n] = c;
	return t->n++;
}

static void st_free(struct strtab *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->s[i]);
	free(t->s);
	free(t->slot);
}

/* Write n bytes through the sink (finish: and end the gzip stream). */
static int sink_write(struct sink *k, const unsigned char *p, size_t n, int finish)
{
	if (!k->gzip)
		return n && fwrite(p, 1, n, k->f) != n ? -1 : 0;
	do {
		uInt in = n > (1u << 30) ? 1u << 30 : (uInt)n;
		k->z.next_in = (Bytef *)(uintptr_t)p;
		k->z.avail_in = in;
		p += in;
		n -= in;
		int flush = finish && n == 0 ? Z_FINISH : Z_NO_FLUSH, rc;
		do {
			k->z.next_out = k->out;
			k->z.avail_out = sizeof(k->out);
			rc = deflate(&k->z, flush);
			if (rc == Z_STREAM_ERROR)
				return -1;
			size_t have = sizeof(k->out) - k->z.avail_out;
			if (have && fwrite(k->out, 1, have, k->f) != have)
				return -1;
		} while (k->z.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
	} while (n);
	return 0;
}

/* Send the pending fields on once there are enough of them (all: now). */
static int drain(struct pprof *p, int all)
{
	if (p->top.oom || p->msg.oom || p->sub.oom) {
		errno = ENOMEM;
		return -1;
	}
	if (!all && p->top.len < PENDING)
		return 0;
	int rc = sink_write(p->sink, p->top.p, p->top.len, all);
	pb_reset(&p->top);
	return rc;
}

static void value_type(struct pprof *p, uint32_t field, const char *type, const char *unit)
{
	pb_reset(&p->sub);
	pb_uint(&p->sub, VT_TYPE, intern(&p->st, type));
	pb_uint(&p->sub, VT_UNIT, intern(&p->st, unit));
	pb_msg(&p->top, field, &p->sub);
}

static void label(struct pprof *p, struct pbw *to, const char *key, const char *str, int64_t num)
{
	pb_reset(&p->sub);
	pb_uint(&p->sub, L_KEY, intern(&p->st, key));
	if (str)
		pb_uint(&p->sub, L_STR, intern(&p->st, str));
	else
		pb_uint(&p->sub, L_NUM, (uint64_t)num);
	pb_msg(to, S_LABEL, &p->sub);
}

/* Each thread's labels, and the process's (the pid, when known). */
static int make_labels(struct pprof *p)
{
	const struct xl_model *m = p->m;
	p->labels = calloc(m->nthreads ? m->nthreads : 1, sizeof(*p->labels));
	if (!p->labels)
		return -1;
	pb_init(&p->proc);
	if (m->pid)
		label(p, &p->proc, "pid", NULL, m->pid);
	for (size_t t = 0; t < m->nthreads; t++) {
		pb_init(&p->labels[t]);
		if (m->threads[t].name[0])
			label(p, &p->labels[t], "thread", m->threads[t].name, 0);
		label(p, &p->labels[t], "tid", NULL, m->threads[t].tid);
		if (m->nprocs > 1) /* a process tree: the thread's own process */
			label(p, &p->labels[t], "pid", NULL, xl_thread_pid(m, &m->threads[t]));
		else
			pb_append(&p->labels[t], &p->proc);
	}
	return 0;
}

/* One sample: its path (leaf first), values (p->nvalues of them), labels. */
static int sample(struct pprof *p, size_t nloc, const int64_t *v, const struct pbw *labels)
{
	uint64_t u[MAX_VALUES];
	int any = 0;
	for (size_t i = 0; i < p->nvalues; i++) {
		u[i] = (uint64_t)v[i];
		any |= v[i] != 0;
	}
	if (!any)
		return 0;
	pb_reset(&p->msg);
	pb_packed(&p->msg, S_LOCATION_ID, p->path, nloc);
	pb_packed(&p->msg, S_VALUE, u, p->nvalues);
	pb_append(&p->msg, labels);
	pb_msg(&p->top, P_SAMPLE, &p->msg);
	for (size_t i = 0; i < nloc; i++)
		p->used[p->path[i]] = 1;
	return drain(p, 0);
}

static void alloc_values(const struct xl_alloc *a, int64_t *v)
{
	v[2] = (int64_t)a->allocs;
	v[3] = (int64_t)a->bytes;
	v[4] = (int64_t)xl_alloc_live(a);
}

static uint64_t less(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/* A thread root's allocations: its frames without a node under their
 * functions below "(more call paths)", the rest with no traced frame. */
static int root_allocs(struct pprof *p, size_t root)
{
	const struct xl_model *m = p->m;
	uint32_t thread = m->nodes[root].thread;
	struct xl_alloc rest = m->node_alloc[root];
	int64_t v[MAX_VALUES] = {0};
	for (size_t i = 0; i < m->nfallocs; i++) {
		const struct xl_falloc *fa = &m->fallocs[i];
		if (fa->thread != thread)
			continue;
		rest.allocs = less(rest.allocs, fa->a.allocs);
		rest.bytes = less(rest.bytes, fa->a.bytes);
		rest.frees = less(rest.frees, fa->a.frees);
		rest.freed_bytes = less(rest.freed_bytes, fa->a.freed_bytes);
		rest.gc_bytes = less(rest.gc_bytes, fa->a.gc_bytes);
		p->path[0] = (uint64_t)fa->func + 1;
		p->path[1] = p->more_id;
		alloc_values(&fa->a, v);
		if (sample(p, 2, v, &p->labels[thread]))
			return -1;
	}
	p->path[0] = p->no_frame_id;
	alloc_values(&rest, v);
	return sample(p, 1, v, &p->labels[thread]);
}

/* The sampled frames (samples.c): each a sample of its estimated wall
 * time and no call, at its traced frame's path with the frames it is
 * nested in, labelled "sampled" (inlined or library); the estimates come
 * off the traced frame's own sample (p->est_off), so the totals hold. */
static int sampled_frames(struct pprof *p)
{
	const struct xl_model *m = p->m;
	for (size_t k = 0; k < m->nsframes; k++) {
		const struct xl_sframe *s = &m->sframes[k];
		int32_t t = s->parent < (int32_t)m->nnodes ? s->parent : p->traced[s->parent - (int32_t)m->nnodes];
		p->traced[k] = t;
		if (s->est_ns <= 0 || m->nodes[t].parent == XL_NONE ||
		    (p->o->thread >= 0 && s->thread != (uint32_t)p->o->thread))
			continue;
		p->est_off[t] += s->est_ns;
		size_t depth = 0;
		for (int32_t c = (int32_t)k; c >= 0; c = m->sframes[c].parent - (int32_t)m->nnodes)
			p->path[depth++] = p->sframe_base + (uint64_t)c;
		for (int32_t c = t; m->nodes[c].parent != XL_NONE; c = m->nodes[c].parent)
			p->path[depth++] = (uint64_t)m->nodes[c].func + 1;
		int64_t v[MAX_VALUES] = {0, s->est_ns};
		struct pbw l;
		pb_init(&l);
		pb_append(&l, &p->labels[s->thread]);
		label(p, &l, "sampled", s->kind == XL_SF_INLINED ? "inlined" : "library", 0);
		int rc = sample(p, depth, v, &l);
		pb_free(&l);
		if (rc)
			return -1;
	}
	return 0;
}

static int samples(struct pprof *p)
{
	const struct xl_model *m = p->m;
	if (sampled_frames(p) != 0)
		return -1;
	for (size_t i = 0; i < m->nnodes; i++) {
		const struct xl_tnode *n = &m->nodes[i];
		if (p->o->thread >= 0 && n->thread != (uint32_t)p->o->thread)
			continue;
		if (n->parent == XL_NONE) {
			if (m->allocs && root_allocs(p, i))
				return -1;
			continue;
		}
		int64_t v[MAX_VALUES] = {(int64_t)n->calls, n->self_ns - p->est_off[i]};
		if (m->allocs)
			alloc_values(&m->node_alloc[i], v);
		size_t depth = 0;
		for (int32_t c = (int32_t)i; m->nodes[c].parent != XL_NONE; c = m->nodes[c].parent)
			p->path[depth++] = (uint64_t)m->nodes[c].func + 1;
		if (sample(p, depth, v, &p->labels[n->thread]))
			return -1;
	}
	if (m->allocs && p->o->thread < 0) {
		int64_t v[MAX_VALUES] = {0};
		alloc_values(&m->alloc_na, v);
		p->path[0] = p->not_attributed_id;
		if (sample(p, 1, v, &p->proc))
			return -1;
		int64_t o[MAX_VALUES] = {0};
		alloc_values(&m->alloc_outside, o);
		p->path[0] = p->outside_id;
		return sample(p, 1, o, &p->proc);
	}
	return 0;
}

/* Name, file and line of a function id. */
static void func_of(const struct pprof *p, uint64_t id, const char **name, const char **file, int *line, char *buf,
		    size_t len)
{
	*file = NULL;
	*line = 0;
	if (id >= p->sframe_base) { /* "step_n (inlined)", "libc.so.6`memcpy" */
		xl_sframe_label(&p->m->sframes[id - p->sframe_base], buf, len);
		*name = buf;
	} else if (id <= p->m->nfuncs) {
		const struct xl_func *f = &p->m->funcs[id - 1];
		*name = f->name;
		*file = f->file;
		*line = f->line;
	} else {
		*name = id == p->no_frame_id         ? "(no traced frame)"
			: id == p->not_attributed_id ? "(not attributed)"
			: id == p->outside_id        ? "(outside the window)"
						     : "(more call paths)";
	}
}

static int functions(struct pprof *p)
{
	const struct xl_model *m = p->m;
	pb_reset(&p->msg);
	pb_uint(&p->msg, M_ID, MAPPING_ID);
	pb_uint(&p->msg, M_FILENAME, intern(&p->st, m->run.executable ? m->run.executable : m->run.program));
	if (m->build_id[0])
		pb_uint(&p->msg, M_BUILD_ID, intern(&p->st, m->build_id));
	pb_uint(&p->msg, M_HAS_FUNCTIONS, 1);
	pb_uint(&p->msg, M_HAS_FILENAMES, 1);
	pb_uint(&p->msg, M_HAS_LINE_NUMBERS, 1);
	pb_msg(&p->top, P_MAPPING, &p->msg);
	for (uint64_t id = 1; id <= p->nids; id++) {
		if (!p->used[id])
			continue;
		const char *name, *file;
		char buf[512];
		int line;
		func_of(p, id, &name, &file, &line, buf, sizeof(buf));
		pb_reset(&p->msg);
		pb_uint(&p->msg, LOC_ID, id);
		pb_uint(&p->msg, LOC_MAPPING_ID, MAPPING_ID);
		pb_reset(&p->sub);
		pb_uint(&p->sub, LINE_FUNCTION_ID, id);
		if (line > 0)
			pb_uint(&p->sub, LINE_LINE, (uint64_t)line);
		pb_msg(&p->msg, LOC_LINE, &p->sub);
		pb_msg(&p->top, P_LOCATION, &p->msg);
		pb_reset(&p->msg);
		uint64_t sname = intern(&p->st, name);
		pb_uint(&p->msg, F_ID, id);
		pb_uint(&p->msg, F_NAME, sname);
		pb_uint(&p->msg, F_SYSTEM_NAME, sname);
		if (file)
			pb_uint(&p->msg, F_FILENAME, intern(&p->st, file));
		if (line > 0)
			pb_uint(&p->msg, F_START_LINE, (uint64_t)line);
		pb_msg(&p->top, P_FUNCTION, &p->msg);
		if (drain(p, 0))
			return -1;
	}
	return 0;
}

/* What made the profile, and what a reader of a bounded tree must know. */
static void comments(struct pprof *p)
{
	const struct xl_model *m = p->m;
	const char *prog = m->run.program ? m->run.program : "a program";
	size_t len = strlen(prog) + sizeof(XL_VERSION) + 32;
	char *made = malloc(len);
	if (!made) { /* the string table's failure fails the profile (trailer) */
		p->st.oom = 1;
		return;
	}
	snprintf(made, len, "exaloop %s capture of %s", XL_VERSION, prog);
	pb_uint(&p->top, P_COMMENT, intern(&p->st, made));
	free(made);
	if (xl_timing_sampled(m)) {
		char est[320];
		snprintf(est, sizeof(est),
			 "--timing=sampled: call counts and call paths are exact; wall times are estimated from %zu "
			 "position samples at %u Hz (a time from k samples is within 1.96 x sqrt(k) samples' worth of "
			 "the truth 19 times in 20)",
			 m->npsamples, m->sample_rate);
		pb_uint(&p->top, P_COMMENT, intern(&p->st, est));
	}
	/* the capture-quality warnings, as every other format carries them */
	for (size_t i = 0; i < m->nwarnings; i++) {
		char w[1024];
		snprintf(w, sizeof(w), "warning (%s): %s", m->warnings[i].kind, m->warnings[i].message);
		pb_uint(&p->top, P_COMMENT, intern(&p->st, w));
	}
	if (m->more_nodes) {
		char bounded[256];
		snprintf(bounded, sizeof(bounded),
			 "call trees bounded: %llu calls on paths beyond the bound are in \"(more call paths)\" frames "
			 "below their callers (the function table attributes them; a larger buffer_size keeps them)",
			 (unsigned long long)m->more_calls);
		pb_uint(&p->top, P_COMMENT, intern(&p->st, bounded));
	}
}

/* The capture window on the wall clock, the comments, and the strings. */
static int trailer(struct pprof *p)
{
	const struct xl_model *m = p->m;
	int64_t start = m->window_start_ns < 0 ? m->window_end_ns : m->window_start_ns;
	if (m->start_realtime_ns > 0)
		pb_uint(&p->top, P_TIME_NANOS, (uint64_t)(m->start_realtime_ns + start));
	pb_uint(&p->top, P_DURATION_NANOS, (uint64_t)(m->window_end_ns - start));
	value_type(p, P_PERIOD_TYPE, "wall", "nanoseconds");
	pb_uint(&p->top, P_PERIOD, 1);
	comments(p);
	pb_uint(&p->top, P_DEFAULT_SAMPLE_TYPE, intern(&p->st, "wall"));
	if (p->st.oom) {
		errno = ENOMEM;
		return -1;
	}
	for (size_t i = 0; i < p->st.n; i++) {
		pb_str(&p->top, P_STRING_TABLE, p->st.s[i]);
		if (drain(p, 0))
			return -1;
	}
	return drain(p, 1);
}

static int write_profile(struct pprof *p)
{
	const struct xl_model *m = p->m;
	intern(&p->st, ""); /* index 0 */
	value_type(p, P_SAMPLE_TYPE, "calls", "count");
	value_type(p, P_SAMPLE_TYPE, "wall", "nanoseconds");
	p->nvalues = 2;
	if (m->allocs) {
		value_type(p, P_SAMPLE_TYPE, "alloc_objects", "count");
		value_type(p, P_SAMPLE_TYPE, "alloc_space", "bytes");
		value_type(p, P_SAMPLE_TYPE, "inuse_space", "bytes");
		p->nvalues = 5;
	}
	p->no_frame_id = m->nfuncs + 1;
	p->not_attributed_id = m->nfuncs + 2;
	p->more_id = m->nfuncs + 3;
	p->outside_id = m->nfuncs + 4;
	p->sframe_base = m->nfuncs + 5;
	p->nids = m->nfuncs + 4 + m->nsframes;
	for (size_t i = 0; i < m->nfuncs; i++)
		if (xl_func_is_more(&m->funcs[i]))
			p->more_id = i + 1;
	p->used = calloc(p->nids + 1, 1);
	p->path = malloc((m->nnodes + m->nsframes + 2) * sizeof(*p->path));
	p->traced = malloc((m->nsframes + 1) * sizeof(*p->traced));
	p->est_off = calloc(m->nnodes + 1, sizeof(*p->est_off));
	if (!p->used || !p->path || !p->traced || !p->est_off || make_labels(p) != 0) {
		errno = ENOMEM;
		return -1;
	}
	if (samples(p) != 0 || functions(p) != 0)
		return -1;
	return trailer(p);
}

int xl_emit_pprof(const struct xl_model *m, FILE *f, const struct xl_emit_opts *o)
{
	struct sink *k = calloc(1, sizeof(*k));
	if (!k)
		return -1;
	k->f = f;
	k->gzip = !o->uncompressed;
	/* windowBits 15 + 16: a gzip stream, not zlib's own wrapper. */
	if (k->gzip && deflateInit2(&k->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(k);
		errno = ENOMEM;
		return -1;
	}
	struct pprof p = {.m = m, .o = o, .sink = k};
	pb_init(&p.top);
	pb_init(&p.msg);
	pb_init(&p.sub);
	int rc = write_profile(&p);
	int e = errno;
	if (p.labels) {
		for (size_t t = 0; t < m->nthreads; t++)
			pb_free(&p.labels[t]);
		pb_free(&p.proc);
	}
	free(p.labels);
	free(p.used);
	free(p.path);
	free(p.traced);
	free(p.est_off);
	st_free(&p.st);
	pb_free(&p.top);
	pb_free(&p.msg);
	pb_free(&p.sub);
	if (k->gzip)
		deflateEnd(&k->z);
	free(k);
	errno = e;
	return rc != 0 || ferror(f) ? -1 : 0;
}
