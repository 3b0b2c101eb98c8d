/*
 * emit.h - output formats over the analyzer's model.
 *
 * Each format is one row of the table in emit.c: a name and a function
 * that writes the model to a stream.  An emitter uses only analyze.h and
 * never changes the model.  Adding a format = one emit_<name>.c + one row.
 */
#ifndef XL_EMIT_H
#define XL_EMIT_H

#include <stdio.h>

#include "analyze.h"

struct xl_emit_opts {
	enum xl_sort sort;   /* text: order of the function table */
	size_t top;          /* text: rows (0 = all) */
	int thread;          /* text/folded: one thread index, -1 = all merged */
	int full_names;      /* text: functions by their full demangled names, not
			      * their short forms (xl_func_shown) */
	int timeline;        /* json: include the "timeline" member */
	size_t timeline_max; /* json/html: complete calls kept (0 = default) */
	int uncompressed;    /* perfetto: packets as they are, not deflated;
			      * pprof: the message as it is, not gzipped */
	int compact_tree;    /* html: tree parents as distances, self times left to the
			      * reader (they follow from the totals), docs/report.md */
	int no_source;       /* html: leave the sampled lines' source text out */
	int sources;         /* the "sources" member (set by the HTML emitter) */
	enum xl_weight {
		XL_WEIGHT_TIME,   /* self ns */
		XL_WEIGHT_BYTES,  /* heap bytes allocated (self) */
		XL_WEIGHT_ALLOCS, /* heap allocations (self) */
	} weight;                 /* folded: what a stack weighs */
};

void xl_emit_opts_init(struct xl_emit_opts *o);

/* An emitter writes the whole document and returns 0, or -1 when it could
 * not: out of memory (errno ENOMEM; what was written is not a document
 * with parts left out, it is to be thrown away) or a write error. */
typedef int (*xl_emit_fn)(const struct xl_model *m, FILE *f, const struct xl_emit_opts *o);

/* Look up a format by name (html, json, text, chrome, perfetto, folded, pprof). */
xl_emit_fn xl_emitter(const char *format);
/* Comma-separated list of the format names, for messages. */
const char *xl_emitter_names(void);
/* 1 when the format's output is a gzip file already (pprof, unless
 * uncompressed): a writer that gzips outputs named *.gz must not do it
 * again. */
int xl_emit_gzipped(const char *format, const struct xl_emit_opts *o);

int xl_emit_text(const struct xl_model *m, FILE *f, const struct xl_emit_opts *o);
int xl_emit_json(const struct xl_model *m, FILE *f, const struct xl_emit_opts *o);
int xl_emit_html(const struct xl_model *m, FILE *f, const struct xl_emit_opts *o);
int xl_emit_chrome(const struct xl_model *m, FILE *f, const struct xl_emit_opts *o);
int xl_emit_perfetto(const struct xl_model *m, FILE *f, const struct xl_emit_opts *o);
int xl_emit_folded(const struct xl_model *m, FILE *f, const struct xl_emit_opts *o);
int xl_emit_pprof(const struct xl_model *m, FILE *f, const struct xl_emit_opts *o);

/* The hottest lines of every function named `name` (emit_lines.c), at
 * most top of each (0: all): 0, -1 when no function has that name, -2 on
 * a write error. */
int xl_emit_lines(const struct xl_model *m, FILE *f, const char *name, size_t top);

#endif
