/*
 * emit_diff_text.c - the terminal diff: run totals, then one row per
 * function sorted by the size of its change.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emit_diff.h"
#include "emit_internal.h"
#include "units.h"

/* "+1.23 ms" / "-400 us" / "0" */
static void fmt_change_ns(double ns, char *buf, size_t len)
{
	char a[24];
	int64_t v = (int64_t)llround(fabs(ns));
	if (!v) {
		snprintf(buf, len, "0");
		return;
	}
	xl_fmt_duration(v, a, sizeof(a));
	snprintf(buf, len, "%c%s", ns < 0 ? '-' : '+', a);
}

static void fmt_pct(const struct xl_dval *x, const int *present, char *buf, size_t len)
{
	if (present && !present[XL_BASE])
		snprintf(buf, len, "new");
	else if (present && !present[XL_NEW])
		snprintf(buf, len, "gone");
	else if (isnan(xl_diff_rel(x)))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f%%", 100.0 * xl_diff_rel(x));
}

static void fmt_ns(double ns, int present, char *buf, size_t len)
{
	if (!present)
		snprintf(buf, len, "-");
	else
		xl_fmt_duration((int64_t)llround(ns), buf, len);
}

/* A size as an integer: a corrupt capture's may reach 2^63, beyond which
 * the cast is undefined (fuzz-capture). */
static int64_t size_i64(double v)
{
	return v < 9e18 ? (int64_t)v : INT64_MAX;
}

/* " (1.2 s .. 1.3 s)" when a side has several runs */
static void range(FILE *f, const struct xl_dval *x, int s, int is_size)
{
	char a[32], b[32];
	if (is_size) {
		xl_fmt_size(size_i64(x->lo[s]), a, sizeof(a));
		xl_fmt_size(size_i64(x->hi[s]), b, sizeof(b));
	} else {
		xl_fmt_duration((int64_t)llround(x->lo[s]), a, sizeof(a));
		xl_fmt_duration((int64_t)llround(x->hi[s]), b, sizeof(b));
	}
	fprintf(f, "    %s runs: %s .. %s", s == XL_BASE ? "base" : "new", a, b);
}

static void total_line(FILE *f, const struct xl_diff *d, const char *label, const struct xl_dval *x, int kind)
{
	char a[32], b[32], c[32];
	if (x->v[XL_BASE] < 0 || x->v[XL_NEW] < 0) {
		fprintf(f, "  %-16s %12s\n", label, "unavailable");
		return;
	}
	if (kind == 0) {
		xl_fmt_duration((int64_t)llround(x->v[XL_BASE]), a, sizeof(a));
		xl_fmt_duration((int64_t)llround(x->v[XL_NEW]), b, sizeof(b));
	} else if (kind == 1) {
		xl_fmt_size(size_i64(x->v[XL_BASE]), a, sizeof(a));
		xl_fmt_size(size_i64(x->v[XL_NEW]), b, sizeof(b));
	} else {
		snprintf(a, sizeof(a), "%.0f", x->v[XL_BASE]);
		snprintf(b, sizeof(b), "%.0f", x->v[XL_NEW]);
	}
	fmt_pct(x, NULL, c, sizeof(c));
	fprintf(f, "  %-16s %12s %12s %9s", label, a, b, c);
	if (kind != 2)
		for (int s = 0; s < 2; s++)
			if (d->side[s]->nruns > 1)
				range(f, x, s, kind == 1);
	putc('\n', f);
}

static void side_line(FILE *f, const char *label, const struct xl_diff_side *s)
{
	const struct xl_run *r = &s->runs[0]->run;
	fprintf(f, "%s ", label);
	xl_put_text(f, r->program ? r->program : "?");
	fputs(" (", f);
	xl_put_text(f, r->capture_dir ? r->capture_dir : "?");
	if (s->nruns > 1)
		fprintf(f, " and %zu more: %zu runs, medians", s->nruns - 1, s->nruns);
	fputs(")\n", f);
}

int xl_emit_diff_text(const struct xl_diff *d, FILE *f, const struct xl_diff_opts *o)
{
	char a[32], b[32], c[32], e[32], g[32], h[32], k[32];
	fputs("exaloop profile diff\n", f);
	side_line(f, "base:", d->side[XL_BASE]);
	side_line(f, "new: ", d->side[XL_NEW]);
	if (d->normalized)
		fprintf(f, "times: normalized (base scaled by %.3f to new's thread time: changes are of shares)\n",
			d->scale);
	else
		fputs("times: absolute (--normalize compares shares of the run instead)\n", f);
	fprintf(f, "\n  %-16s %12s %12s %9s\n", "", "base", "new", "change");
	total_line(f, d, "wall time", &d->wall_ns, 0);
	total_line(f, d, "thread time", &d->thread_ns, 0);
	total_line(f, d, "peak RSS", &d->peak_rss, 1);
	total_line(f, d, "GC collections", &d->gc_collections, 2);

	int noise = d->side[XL_BASE]->nruns > 1 && d->side[XL_NEW]->nruns > 1;
	size_t *idx = malloc((d->nfuncs + 1) * sizeof(size_t));
	if (!idx)
		return -1;
	xl_diff_sorted(d, o->sort, idx);
	fprintf(f, "\nfunctions by change in %s time%s:\n", xl_diff_sort_name(o->sort),
		o->sort == XL_DSORT_CALLS ? " (calls)" : "");
	fprintf(f, "%11s %11s %11s %8s %11s %11s %8s %12s %12s  %s\n", "self base", "self new", "self diff", "self%",
		"total base", "total new", "total%", "calls base", "calls new", "function");
	size_t shown = 0, insignificant = 0;
	for (size_t i = 0; i < d->nfuncs; i++) {
		const struct xl_diff_func *fn = &d->funcs[idx[i]];
		if (o->top && shown == o->top)
			break;
		shown++;
		fmt_ns(fn->self_ns.v[XL_BASE], fn->present[XL_BASE], a, sizeof(a));
		fmt_ns(fn->self_ns.v[XL_NEW], fn->present[XL_NEW], b, sizeof(b));
		fmt_change_ns(fn->self_ns.v[XL_NEW] - fn->self_ns.v[XL_BASE], c, sizeof(c));
		fmt_pct(&fn->self_ns, fn->present, e, sizeof(e));
		fmt_ns(fn->total_ns.v[XL_BASE], fn->present[XL_BASE], g, sizeof(g));
		fmt_ns(fn->total_ns.v[XL_NEW], fn->present[XL_NEW], h, sizeof(h));
		fmt_pct(&fn->total_ns, fn->present, k, sizeof(k));
		fprintf(f, "%11s %11s %11s %7s%c %11s %11s %8s %12.0f %12.0f  ", a, b, c, e,
			fn->significant == 0 ? '~' : ' ', g, h, k, fn->calls.v[XL_BASE], fn->calls.v[XL_NEW]);
		insignificant += fn->significant == 0;
		xl_put_text(f, o->full_names || !fn->short_name ? fn->name : fn->short_name);
		if (fn->file) {
			fputs("  ", f);
			xl_put_text(f, fn->file);
			fprintf(f, ":%d", fn->line);
		}
		if (!fn->present[XL_BASE])
			fputs("  [only in new]", f);
		else if (!fn->present[XL_NEW])
			fputs("  [only in base]", f);
		putc('\n', f);
	}
	if (!shown)
		fputs("  (no traced calls in either capture)\n", f);
	if (o->top && d->nfuncs > shown)
		fprintf(f, "  (%zu more; --top 0 shows all)\n", d->nfuncs - shown);
	if (noise)
		fprintf(f, "\n~ = the change in self time is within the runs' spread: not significant (%zu shown)\n",
			insignificant);
	else
		fputs("\none run per side: no spread to judge noise by (captures with several runs show it)\n", f);
	free(idx);
	return ferror(f) ? -1 : 0;
}
