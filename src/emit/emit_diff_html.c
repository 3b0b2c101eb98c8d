/*
 * emit_diff_html.c - the self-contained diff page: the template
 * src/report/diff.html with its styles, script, a fresh CSP nonce and the
 * diff document (html-safe) filled in (xl_html_page, emit_html.c).  The
 * page has the report's safety rules: nothing from the captures is ever
 * markup, and only the nonce-carrying script and style apply.
 */
#include <stdlib.h>

#include "emit_diff_internal.h"
#include "emit_internal.h"

struct page_data {
	const struct xl_diff *d;
	const struct xl_diff_opts *o;
	size_t *order;
};

static void document(struct jsonw *w, const void *arg)
{
	const struct page_data *p = arg;
	xl_diff_document(p->d, w, p->o, p->order);
}

int xl_emit_diff_html(const struct xl_diff *d, FILE *f, const struct xl_diff_opts *o)
{
	struct page_data p = {d, o, malloc((2 * d->nfuncs + 1) * sizeof(size_t))};
	if (!p.order)
		return -1;
	xl_diff_sorted(d, o->sort, p.order);
	int rc = xl_html_page(f, xl_diff_html, xl_diff_css, xl_diff_js, document, &p);
	free(p.order);
	return rc;
}
