/*
 * emit_diff.h - output formats over a differential model (diff.h):
 * text (a terminal table), JSON ("exaloop.diff/1", docs/diff-json.md) and
 * the self-contained HTML page (the JSON document inside the template
 * src/report/diff.{html,css,js}).
 */
#ifndef XL_EMIT_DIFF_H
#define XL_EMIT_DIFF_H

#include <stdio.h>

#include "diff.h"

struct xl_diff_opts {
	enum xl_diff_sort sort; /* order of the function table */
	size_t top;             /* text: rows (0 = all); json/html: recorded, every function is listed */
	int full_names;         /* text: functions by their full names, not their short forms */
};

int xl_emit_diff_text(const struct xl_diff *d, FILE *f, const struct xl_diff_opts *o);
int xl_emit_diff_json(const struct xl_diff *d, FILE *f, const struct xl_diff_opts *o);
int xl_emit_diff_html(const struct xl_diff *d, FILE *f, const struct xl_diff_opts *o);

#endif
