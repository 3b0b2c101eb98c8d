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

/* Text from the profiled program (names, paths, arguments) on one line:
 * control characters as \xNN (emit_text.c). */
void xl_put_text(FILE *f, const char *s);

/* A page from an HTML template (emit_html.c): the template with its
 * markers replaced in one pass by the styles, the script, a fresh CSP
 * nonce and the JSON document that data() writes (html-safe escaping). */
int xl_html_page(FILE *f, const char *tmpl, const char *css, const char *js,
		 void (*data)(struct jsonw *w, const void *arg), const void *arg);

/* Per function: 1 when another function has the same name (two static
 * functions called helper), so a trace must say which one an event is.
 * *shared is NULL when no name is shared.  0, or -1 when out of memory
 * (emit_names.c). */
int xl_shared_names(const struct xl_model *m, unsigned char **shared);
/* A sampled frame's name in pprof and Chrome: "step_n (inlined)",
 * "libc.so.6`memcpy", "(program)`helper" (folded has its own, flamegraph's
 * "_[i]" convention). */
void xl_sframe_label(const struct xl_sframe *s, char *buf, size_t len);

/* Report template pieces, embedded at build time (report_assets.c). */
extern const char xl_report_html[];
extern const char xl_report_css[];
extern const char xl_report_js[];
/* The diff page's (diff_assets.c). */
extern const char xl_diff_html[];
extern const char xl_diff_css[];
extern const char xl_diff_js[];

#endif
