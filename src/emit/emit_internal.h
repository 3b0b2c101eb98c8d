/*
 * emit_internal.h - pieces shared between emitters.
 */
#ifndef XL_EMIT_INTERNAL_H
#define XL_EMIT_INTERNAL_H

#include "emit.h"
#include "jsonw.h"

#ifndef XL_VERSION
#define XL_VERSION "0.0.0"
#endif

/* The JSON summary document (emit_json.c). */
void xl_json_document(const struct xl_model *m, struct jsonw *w, const struct xl_emit_opts *o);

/* Report template pieces, embedded at build time (report_assets.c). */
extern const char xl_report_html[];
extern const char xl_report_css[];
extern const char xl_report_js[];

#endif
