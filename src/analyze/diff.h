/*
 * diff.h - comparing two sides (BASE, NEW), each one or several captures
 * of the same program (runs), into one differential model.
 *
 * Builds differ in XRay ids and addresses, so nothing is paired by id:
 * functions pair by name (in full: short names are for display only), with
 * the source file as the tie-breaker when a name is not unique; call paths pair by their sequence of paired
 * functions.  All threads are merged under one root.
 *
 * Per function and side the values are the median over the side's runs,
 * with the spread (min..max over runs) when the side has several; a change
 * is significant only when the two sides' spreads do not overlap.  With
 * one run per side, significance is unknown (-1).  Tree values are means
 * over runs (the flame graph shows shares, not a distribution).
 *
 * Normalisation (--normalize) multiplies every BASE time by `scale` = NEW's
 * median thread time / BASE's, so that runs on machines of different load
 * compare by shares.  Counts (calls) are never scaled.
 *
 * Ownership: the diff owns its arrays and strings; the models stay the
 * caller's and must outlive the diff (memory series point into them).
 */
#ifndef XL_DIFF_H
#define XL_DIFF_H

#include "analyze.h"

enum {
	XL_BASE = 0,
	XL_NEW = 1
};

/* One quantity on both sides. */
struct xl_dval {
	double v[2];         /* median over runs (scaled for BASE times) */
	double lo[2], hi[2]; /* spread over runs (== v with one run) */
};

struct xl_diff_func {
	char *name, *file; /* file NULL when unknown */
	char *short_name;  /* for display (shortname.h), over both sides' functions */
	int line;
	int present[2]; /* seen (calls > 0) in some run of the side */
	struct xl_dval calls, self_ns, total_ns;
	int significant; /* of the self-time change: 1, 0, or -1 unknown */
};

struct xl_diff_node {
	int32_t parent; /* XL_NONE for the root (all threads) */
	int32_t func;   /* index into funcs, XL_NONE for the root */
	int32_t first_child, next_sibling;
	double calls[2], total_ns[2], self_ns[2]; /* means over runs */
};

struct xl_diff_side {
	struct xl_model **runs; /* borrowed */
	size_t nruns;
};

enum xl_diff_sort {
	XL_DSORT_SELF,
	XL_DSORT_TOTAL,
	XL_DSORT_CALLS
};

struct xl_diff {
	const struct xl_diff_side *side[2];
	int normalized;
	double scale; /* applied to BASE times (1 when not normalized) */
	/* run totals */
	struct xl_dval wall_ns;   /* the program's wall time (app time; window when unknown) */
	struct xl_dval thread_ns; /* sum of thread times */
	struct xl_dval peak_rss;  /* v < 0 on a side: unavailable */
	struct xl_dval gc_collections;
	struct xl_diff_func *funcs;
	size_t nfuncs;
	struct xl_diff_node *nodes; /* nodes[0] is the root; parents before children */
	size_t nnodes;
};

/* Build the diff; each side has at least one run (XL_ASSERT).  Returns
 * XL_OK or XL_ENOMEM. */
int xl_diff_build(const struct xl_diff_side *base, const struct xl_diff_side *new_, int normalize, struct xl_diff *d);
void xl_diff_free(struct xl_diff *d);

int xl_diff_sort_parse(const char *s, enum xl_diff_sort *out);
const char *xl_diff_sort_name(enum xl_diff_sort by);
/* Fill idx[0..nfuncs) with function indices: largest absolute change of
 * the key first, one-sided functions by their one value. */
void xl_diff_sorted(const struct xl_diff *d, enum xl_diff_sort by, size_t *idx);

/* Relative change new/base - 1 (times 100 for percent); NAN when base is 0. */
double xl_diff_rel(const struct xl_dval *x);

#endif
