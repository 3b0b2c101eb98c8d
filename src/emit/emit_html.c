/*
 * emit_html.c - the self-contained HTML report.
 *
 * The template (src/report/report.html) and its script and styles are
 * embedded in the CLI at build time.  The report is the template with its
 * markers replaced in one pass (inserted text is never scanned again): the
 * styles, the script, the JSON summary (with the timeline member), escaped
 * so that no name or path can close the <script> element that holds it
 * (jsonw's html-safe mode), and a fresh random nonce.  The page's
 * Content-Security-Policy lets only the <style> and <script> elements that
 * carry the nonce apply or run: should a name ever get into the page as
 * markup, a script in it would still not run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "emit_internal.h"

#define XL_HTML_TIMELINE_CALLS 20000

static const char *const MARK_CSS = "/*@XL_CSS@*/";
static const char *const MARK_JS = "/*@XL_JS@*/";
static const char *const MARK_DATA = "@XL_DATA@";
static const char *const MARK_NONCE = "@XL_NONCE@";

/* 128 random bits as 32 hex digits (valid in a CSP nonce-source).  Where
 * the kernel's generator is not available the clock and pid still make
 * the value one no report author could have known. */
static void make_nonce(char out[33])
{
	uint8_t b[16];
	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b)) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		uint64_t x = (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 30 ^ (uint64_t)getpid() << 48;
		for (size_t i = 0; i < sizeof(b); i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			b[i] = (uint8_t)x;
		}
	}
	static const char hex[] = "0123456789abcdef";
	for (size_t i = 0; i < sizeof(b); i++) {
		out[2 * i] = hex[b[i] >> 4];
		out[2 * i + 1] = hex[b[i] & 15];
	}
	out[32] = 0;
}

int xl_html_page(FILE *f, const char *tmpl, const char *css, const char *js,
		 void (*data)(struct jsonw *w, const void *arg), const void *arg)
{
	const char *p = tmpl;
	char nonce[33];
	make_nonce(nonce);
	for (;;) {
		const char *cs = strstr(p, MARK_CSS), *jsm = strstr(p, MARK_JS), *dm = strstr(p, MARK_DATA);
		const char *nc = strstr(p, MARK_NONCE);
		const char *next = NULL;
		const char *mark = NULL;
		if (cs && (!next || cs < next))
			next = cs, mark = MARK_CSS;
		if (jsm && (!next || jsm < next))
			next = jsm, mark = MARK_JS;
		if (dm && (!next || dm < next))
			next = dm, mark = MARK_DATA;
		if (nc && (!next || nc < next))
			next = nc, mark = MARK_NONCE;
		if (!next) {
			fputs(p, f);
			break;
		}
		fwrite(p, 1, (size_t)(next - p), f);
		if (mark == MARK_CSS) {
			fputs(css, f);
		} else if (mark == MARK_JS) {
			fputs(js, f);
		} else if (mark == MARK_NONCE) {
			fputs(nonce, f);
		} else {
			struct jsonw w;
			jw_init(&w, f, 1);
			data(&w, arg);
			if (w.failed) {
				errno = ENOMEM;
				return -1;
			}
		}
		p = next + strlen(mark);
	}
	return ferror(f) ? -1 : 0;
}

struct report_data {
	const struct xl_model *m;
	const struct xl_emit_opts *o;
};

static void report_document(struct jsonw *w, const void *arg)
{
	const struct report_data *r = arg;
	struct xl_emit_opts jo = *r->o;
	jo.timeline = 1;
	jo.compact_tree = 1;
	jo.sources = !jo.no_source;
	/* The report's flame chart is an overview; the complete timeline is
	 * the Chrome export's job.  This keeps the report small
	 * (docs/report.md). */
	if (!jo.timeline_max)
		jo.timeline_max = XL_HTML_TIMELINE_CALLS;
	xl_json_document(r->m, w, &jo);
}

int xl_emit_html(const struct xl_model *m, FILE *f, const struct xl_emit_opts *o)
{
	struct report_data r = {m, o};
	return xl_html_page(f, xl_report_html, xl_report_css, xl_report_js, report_document, &r);
}
