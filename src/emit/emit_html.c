/*
 * emit_html.c - the self-contained HTML report.
 *
 * The template (src/report/report.html) and its script and styles are
 * embedded in the CLI at build time.  The report is the template with three
 * markers replaced: the styles, the script, and the JSON summary (with the
 * timeline member), escaped so that no name or path can close the
 * <script> element that holds it (jsonw's html-safe mode).
 */
#include <string.h>

#include "emit_internal.h"

#define XL_HTML_TIMELINE_CALLS 20000

static const char *const MARK_CSS = "/*@XL_CSS@*/";
static const char *const MARK_JS = "/*@XL_JS@*/";
static const char *const MARK_DATA = "@XL_DATA@";

int xl_emit_html(const struct xl_model *m, FILE *f, const struct xl_emit_opts *o)
{
	const char *p = xl_report_html;
	for (;;) {
		const char *css = strstr(p, MARK_CSS), *js = strstr(p, MARK_JS), *data = strstr(p, MARK_DATA);
		const char *next = NULL;
		const char *mark = NULL;
		if (css && (!next || css < next))
			next = css, mark = MARK_CSS;
		if (js && (!next || js < next))
			next = js, mark = MARK_JS;
		if (data && (!next || data < next))
			next = data, mark = MARK_DATA;
		if (!next) {
			fputs(p, f);
			break;
		}
		fwrite(p, 1, (size_t)(next - p), f);
		if (mark == MARK_CSS) {
			fputs(xl_report_css, f);
		} else if (mark == MARK_JS) {
			fputs(xl_report_js, f);
		} else {
			struct xl_emit_opts jo = *o;
			jo.timeline = 1;
			/* The report's flame chart is an overview; the complete
			 * timeline is the Chrome export's job.  This keeps the
			 * report small (docs/report.md). */
			if (!jo.timeline_max)
				jo.timeline_max = XL_HTML_TIMELINE_CALLS;
			struct jsonw w;
			jw_init(&w, f, 1);
			xl_json_document(m, &w, &jo);
		}
		p = next + strlen(mark);
	}
	return ferror(f) ? -1 : 0;
}
