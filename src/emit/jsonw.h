/*
 * jsonw.h - streaming JSON writer for the emitters.
 *
 * Writes straight to a FILE* (the emitters produce documents far larger
 * than they keep in memory).  Commas are tracked per nesting level; keys
 * and strings are escaped, invalid UTF-8 bytes become U+FFFD, and in
 * html_safe mode `<`, `>`, `&`, U+2028 and U+2029 are written as \u escapes
 * so the document can sit inside a <script> element.
 *
 * A part of the document that cannot be made (out of memory) is not left
 * out quietly: the emitter calls jw_fail() and, at the end, fails when
 * `failed` is set, so that no document with parts missing passes as whole.
 */
#ifndef XL_JSONW_H
#define XL_JSONW_H

#include <stdint.h>
#include <stdio.h>

#define JW_MAX_DEPTH 64

struct jsonw {
	FILE *f;
	int html_safe;
	int depth;
	int need_comma[JW_MAX_DEPTH];
	int after_key;
	int failed; /* jw_fail(): the document is incomplete */
};

/* Length of the valid UTF-8 sequence at p (NUL-terminated), or 0 when it
 * is not one (overlong forms and UTF-16 surrogates included): the test by
 * which the writer puts U+FFFD for a byte, shared with emit_pprof.c. */
int jw_utf8_len(const unsigned char *p);

void jw_init(struct jsonw *w, FILE *f, int html_safe);
/* A part of the document could not be written for lack of memory. */
void jw_fail(struct jsonw *w);
void jw_obj(struct jsonw *w);
void jw_obj_end(struct jsonw *w);
void jw_arr(struct jsonw *w);
void jw_arr_end(struct jsonw *w);
void jw_key(struct jsonw *w, const char *k);
void jw_str(struct jsonw *w, const char *s); /* NULL -> null */
void jw_int(struct jsonw *w, int64_t v);
void jw_dbl(struct jsonw *w, double v); /* non-finite -> null */
/* With a fixed number of decimals ("12.345", not 12.345000000000001). */
void jw_fixed(struct jsonw *w, double v, int decimals);
void jw_bool(struct jsonw *w, int v);
void jw_null(struct jsonw *w);
/* Nanoseconds (>= 0; the model clamps every time) written as microseconds
 * with up to 3 decimals, trailing zeros left out ("1234.567", "12.5", "3"):
 * exact, and much faster than printf("%g") for trace timestamps. */
void jw_us(struct jsonw *w, int64_t ns);
/* Metric value: XL_UNAVAILABLE (INT64_MIN) -> null. */
void jw_metric(struct jsonw *w, int64_t v);

/* Shorthands for "key": value. */
void jw_kstr(struct jsonw *w, const char *k, const char *s);
void jw_kint(struct jsonw *w, const char *k, int64_t v);
void jw_kbool(struct jsonw *w, const char *k, int v);

/* Escape one string to f (no quotes): shared with other text writers. */
void jw_escape(FILE *f, const char *s, int html_safe);

#endif
