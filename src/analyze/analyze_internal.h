/*
 * analyze_internal.h - state shared by the analyzer's files while a model
 * is being loaded (freed at the end of xl_model_load).
 */
#ifndef XL_ANALYZE_INTERNAL_H
#define XL_ANALYZE_INTERNAL_H

#include "analyze.h"

/* A thread's per-function record as read (ticks; open frames closed). */
struct xl_fstat_raw {
	uint32_t thread;
	int32_t xray_id;
	uint64_t calls;
	int64_t self_ticks;
	uint64_t total_ticks;
};

struct xl_loader {
	size_t threads_cap, nodes_cap, node_xray_cap, node_ticks_cap, samples_cap, fs_cap, node_alloc_cap, fa_cap;
	size_t isamples_cap, psamples_cap, maps_cap;
	uint64_t corrupt_samples; /* sample records out of place (skipped) */
	/* allocations of frames without a regular node, XRay ids in func
	 * (mapped to funcs[] by build_funcs) */
	struct xl_falloc *fa;
	size_t nfa;
	struct xl_fstat_raw *fs; /* every thread's, in thread order */
	size_t nfs;
	int32_t *node_xray;   /* XRay id per node (0 for roots) */
	uint64_t *node_ticks; /* inclusive ticks per node */
	uint32_t corrupt_threads;
	uint64_t file_bytes; /* size of capture.xlc */
	uint64_t used_bytes; /* what the header says was written (arena_cursor) */
	/* The executable's build id from the header, lowercase hex ("" unknown),
	 * and why functions are shown by XRay id instead of by name: "" when
	 * symbols.json was used (model.c build_funcs, warnings.c). */
	char build_id[2 * XL_BUILD_ID_MAX + 1];
	char symbols_problem[320];
	int symbols_mismatch; /* symbols.json is another build's */
};

/* capture_read.c */
int xl_capture_read(struct xl_model *m, struct xl_loader *ld, const char *path, char *err, size_t errlen);

/* capture_read.c: ns from a double, clamped to [0, XL_MAX_NS] (NaN -> 0),
 * so that sums and differences of model times never overflow. */
#define XL_MAX_NS ((int64_t)1 << 52)
int64_t xl_clamp_ns(double ns);
/* a + b, saturating instead of overflowing (sums of clamped times) */
static inline int64_t xl_add_ns(int64_t a, int64_t b)
{
	if (b > 0 && a > INT64_MAX - b)
		return INT64_MAX;
	if (b < 0 && a < INT64_MIN - b)
		return INT64_MIN;
	return a + b;
}

/* samples.c: lines, inlined functions and call paths of the instruction
 * samples, from dir's samples.json (refused when its build id is not
 * build_id, the captured executable's). */
int xl_samples_analyze(struct xl_model *m, const char *dir, const char *build_id);

/* warnings.c */
int xl_warnings_build(struct xl_model *m, const struct xl_loader *ld);
/* warnings.c: the overhead and call_cost notes said again, in their
 * places, for a model that grew (the process tree's captures merged into
 * it, proctree.c). */
int xl_note_overhead_again(struct xl_model *m);
/* related.c: fill m->related from the subdirectories of dir. */
int xl_related_scan(struct xl_model *m, const char *dir);
/* related.c: the header of <dir>/<name>/capture.xlc, read without following
 * links or blocking on special files.  0 on success. */
int xl_related_peek(const char *dir, const char *name, struct xl_cap_header *h);

/* A capture merged into a model beside its top one (proctree.c,
 * procmerge.c).  parts[0] is the top capture's (m NULL: the model itself). */
struct xl_part {
	struct xl_model *m; /* owned: the capture read on its own, kept for its
			     * mapping and axis (timelines, samples' addresses) */
	int32_t *ids;       /* its functions' XRay ids, ascending */
	int32_t *fmap;      /* parallel to ids: the index into the model's funcs */
	size_t nids;
	int64_t shift_ns; /* where its axis' 0 is on the model's */
};
/* procmerge.c: append s's threads, call tree, functions, allocations,
 * samples and findings to m as part `part` (m->parts[part], with its
 * shift, already set); s keeps its mapping, the rest of its contents may
 * have moved to m.  m's funcs stay sorted by XRay id, then name. */
int xl_proc_merge(struct xl_model *m, struct xl_model *s, uint32_t part, uint32_t process);
/* procmerge.c: the part's id -> function map of a capture's funcs. */
int xl_part_ids(struct xl_part *p, const struct xl_model *s);

#endif
