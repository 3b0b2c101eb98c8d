/*
 * jsonw.c - streaming JSON writer (see jsonw.h).
 *
 * The stream is the writer's alone (one thread), so characters and
 * numbers go out through the unlocked stdio calls: a report's timeline
 * writes some 100,000 numbers, each a lock and an unlock otherwise.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "analyze.h"
#include "jsonw.h"
#include "xl_assert.h"

void jw_init(struct jsonw *w, FILE *f, int html_safe)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->html_safe = html_safe;
}

void jw_fail(struct jsonw *w)
{
	w->failed = 1;
}

static void sep(struct jsonw *w)
{
	if (w->after_key) {
		w->after_key = 0;
		return;
	}
	if (w->depth > 0) {
		if (w->need_comma[w->depth])
			putc_unlocked(',', w->f);
		w->need_comma[w->depth] = 1;
	}
}

static void open_(struct jsonw *w, char c)
{
	sep(w);
	putc_unlocked(c, w->f);
	/* The emitters' documents are shallow: nesting deeper than the writer
	 * tracks would mean a missing jw_*_end. */
	XL_ASSERT(w->depth < JW_MAX_DEPTH - 1);
	w->depth++;
	w->need_comma[w->depth] = 0;
}

static void close_(struct jsonw *w, char c)
{
	XL_ASSERT(w->depth > 0); /* an end without its begin */
	putc_unlocked(c, w->f);
	w->depth--;
}

void jw_obj(struct jsonw *w)
{
	open_(w, '{');
}
void jw_obj_end(struct jsonw *w)
{
	close_(w, '}');
}
void jw_arr(struct jsonw *w)
{
	open_(w, '[');
}
void jw_arr_end(struct jsonw *w)
{
	close_(w, ']');
}

int jw_utf8_len(const unsigned char *p)
{
	unsigned c = p[0];
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return (p[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		if ((p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80)
			return 0;
		if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0))
			return 0; /* overlong, or a UTF-16 surrogate */
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if ((p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80 || (p[3] & 0xc0) != 0x80)
			return 0;
		if ((c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] >= 0x90))
			return 0;
		return 4;
	}
	return 0;
}

void jw_escape(FILE *f, const char *s, int html_safe)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		unsigned c = *p;
		if (c >= 0x80) {
			int n = jw_utf8_len(p);
			if (!n) {
				fputs("\\ufffd", f);
				p++;
				continue;
			}
			if (html_safe && n == 3 && c == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9))
				fputs(p[2] == 0xa8 ? "\\u2028" : "\\u2029", f);
			else
				fwrite(p, 1, (size_t)n, f);
			p += n;
			continue;
		}
		switch (c) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (c < 0x20 || (html_safe && (c == '<' || c == '>' || c == '&')))
				fprintf(f, "\\u%04x", c);
			else
				putc_unlocked((int)c, f);
		}
		p++;
	}
}

void jw_key(struct jsonw *w, const char *k)
{
	XL_ASSERT(!w->after_key); /* a key needs its value before the next key */
	sep(w);
	putc_unlocked('"', w->f);
	jw_escape(w->f, k, w->html_safe);
	fwrite_unlocked("\":", 1, 2, w->f);
	w->after_key = 1;
}

void jw_str(struct jsonw *w, const char *s)
{
	if (!s) {
		jw_null(w);
		return;
	}
	sep(w);
	putc_unlocked('"', w->f);
	jw_escape(w->f, s, w->html_safe);
	putc_unlocked('"', w->f);
}

void jw_int(struct jsonw *w, int64_t v)
{
	sep(w);
	char buf[24], *p = buf + sizeof(buf);
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	*--p = 0;
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	fwrite_unlocked(p, 1, (size_t)(buf + sizeof(buf) - 1 - p), w->f);
}

void jw_us(struct jsonw *w, int64_t ns)
{
	if (ns < 0)
		ns = 0;
	jw_int(w, ns / 1000);
	/* Trailing zeros are left out ("1.5", "2"): a Chrome trace writes two
	 * of these per event, and every byte counts there (docs/benchmarks.md). */
	char frac[5] = {'.', (char)('0' + ns % 1000 / 100), (char)('0' + ns % 100 / 10), (char)('0' + ns % 10), 0};
	int end = 4;
	while (end > 1 && frac[end - 1] == '0')
		end--;
	frac[end > 1 ? end : 0] = 0;
	fputs(frac, w->f);
}

void jw_dbl(struct jsonw *w, double v)
{
	if (!isfinite(v)) {
		jw_null(w);
		return;
	}
	sep(w);
	fprintf(w->f, "%.17g", v);
}

void jw_fixed(struct jsonw *w, double v, int decimals)
{
	if (!isfinite(v)) {
		jw_null(w);
		return;
	}
	sep(w);
	fprintf(w->f, "%.*f", decimals, v);
}

void jw_bool(struct jsonw *w, int v)
{
	sep(w);
	fputs(v ? "true" : "false", w->f);
}

void jw_null(struct jsonw *w)
{
	sep(w);
	fputs("null", w->f);
}

void jw_metric(struct jsonw *w, int64_t v)
{
	if (v == XL_UNAVAILABLE)
		jw_null(w);
	else
		jw_int(w, v);
}

void jw_kstr(struct jsonw *w, const char *k, const char *s)
{
	jw_key(w, k);
	jw_str(w, s);
}
void jw_kint(struct jsonw *w, const char *k, int64_t v)
{
	jw_key(w, k);
	jw_int(w, v);
}
void jw_kbool(struct jsonw *w, const char *k, int v)
{
	jw_key(w, k);
	jw_bool(w, v);
}
