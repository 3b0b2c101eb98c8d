/*
 * emit_diff_internal.h - the diff document, shared by the JSON and HTML
 * diff emitters.
 */
#ifndef XL_EMIT_DIFF_INTERNAL_H
#define XL_EMIT_DIFF_INTERNAL_H

#include "emit_diff.h"
#include "jsonw.h"

/* Write the "exaloop.diff/1" document.  order: 2 * nfuncs slots, the first
 * nfuncs filled by xl_diff_sorted(); the rest is scratch. */
void xl_diff_document(const struct xl_diff *d, struct jsonw *w, const struct xl_diff_opts *o, size_t *order);

#endif
