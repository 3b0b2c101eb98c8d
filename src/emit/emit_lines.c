/*
 * emit_lines.c - `profile report CAPTURE --lines FUNC`: a function's
 * hottest lines by instruction samples (its own code; code inlined into
 * it at the call site's line), with the source text the capture embeds,
 * then the functions inlined into it.
 */
#include <stdlib.h>
#include <string.h>

#include "emit_internal.h"

static const struct xl_line_count *sort_lines;
static int hotter(const void *a, const void *b)
{
	const struct xl_line_count *x = &sort_lines[*(const size_t *)a], *y = &sort_lines[*(const size_t *)b];
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

/* A source line on one line of the terminal: tabs to the next multiple
 * of 8, other control characters as \xNN. */
static void put_source(FILE *f, const char *s)
{
	size_t col = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++, col++) {
		if (*p == '\t') {
			do
				putc(' ', f);
			while (++col % 8);
			col--;
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\x%02x", *p);
		} else {
			putc(*p, f);
		}
	}
}

/* The instruction samples on func's call paths, and those of them in
 * untraced code it called (its nodes' sampled library frames, nested
 * ones included): the largest such frame into *top. */
static uint64_t called_samples(const struct xl_model *m, int32_t func, uint64_t *on_paths, const struct xl_sframe **top)
{
	uint64_t called = 0;
	*on_paths = 0;
	*top = NULL;
	for (size_t i = 0; i < m->nnodes; i++)
		if (m->nodes[i].func == func)
			*on_paths += m->nodes[i].isamples;
	for (size_t i = 0; i < m->nsframes; i++) {
		const struct xl_sframe *s = &m->sframes[i];
		int32_t p = s->parent;
		while (p >= (int32_t)m->nnodes)
			p = m->sframes[p - m->nnodes].parent;
		if (m->nodes[p].func != func || s->kind != XL_SF_LIBRARY)
			continue;
		called += s->samples;
		if (!*top || s->samples > (*top)->samples)
			*top = s;
	}
	return called;
}

/* Why a function has no line data. */
static const char *no_lines(const struct xl_model *m, int32_t func, char *buf, size_t len)
{
	if (!m->sample_rate)
		return "the capture has no samples (--no-samples, sample_rate = 0, a memory-only capture, or an "
		       "exaloop before samples)";
	if (xl_samples_unavailable(m, buf, len))
		return buf;
	if (m->nisamples && !m->resolved)
		return m->samples_problem;
	uint64_t on_paths;
	const struct xl_sframe *top;
	uint64_t called = called_samples(m, func, &on_paths, &top);
	if (called) {
		snprintf(buf, len,
			 "no instruction sample fell in its own code; %llu of the %llu on its call paths were in "
			 "untraced code it called, most in %s%s%s (%llu): the flame graph's sampled frames under it",
			 (unsigned long long)called, (unsigned long long)on_paths, top->library ? top->library : "",
			 top->library ? " " : "", top->name, (unsigned long long)top->samples);
		return buf;
	}
	return "no instruction sample fell in its own code (it used little CPU time, or it waited)";
}

static void one_function(const struct xl_model *m, int32_t func, FILE *f, size_t top)
{
	const struct xl_func *fn = &m->funcs[func];
	char why[400];
	xl_put_text(f, fn->name);
	if (fn->file) {
		fputs("  (", f);
		xl_put_text(f, fn->file);
		fprintf(f, ":%d)", fn->line);
	}
	if (!fn->isamples) {
		fputs(": no line data: ", f);
		xl_put_text(f, no_lines(m, func, why, sizeof(why)));
		fputc('\n', f);
		return;
	}
	fprintf(f, ": %llu instruction sample%s in its own code, %zu line%s\n", (unsigned long long)fn->isamples,
		fn->isamples == 1 ? "" : "s", fn->nlines, fn->nlines == 1 ? "" : "s");
	size_t *ix = malloc((fn->nlines + 1) * sizeof(*ix));
	if (!ix)
		return;
	for (size_t i = 0; i < fn->nlines; i++)
		ix[i] = i;
	sort_lines = fn->lines;
	qsort(ix, fn->nlines, sizeof(*ix), hotter);
	size_t rows = top && top < fn->nlines ? top : fn->nlines;
	fprintf(f, "  %6s %9s %7s  %s\n", "line", "samples", "share", "source");
	for (size_t r = 0; r < rows; r++) {
		const struct xl_line_count *l = &fn->lines[ix[r]];
		const char *text = l->line ? xl_source_line(m, fn->file, l->line) : NULL;
		if (l->line)
			fprintf(f, "  %6d", l->line);
		else
			fprintf(f, "  %6s", "?");
		fprintf(f, " %9llu %6.1f%%  ", (unsigned long long)l->samples,
			100.0 * (double)l->samples / (double)fn->isamples);
		put_source(f, text ? text : l->line ? "" : "(no line information)");
		for (size_t c = 0; c < l->nchains; c++) {
			fputs(c == 0 ? "   [inlined: " : "; ", f);
			xl_put_text(f, l->chains[c].name);
		}
		fputs(l->nchains ? "]\n" : "\n", f);
	}
	if (rows < fn->nlines)
		fprintf(f, "  (%zu more line%s)\n", fn->nlines - rows, fn->nlines - rows == 1 ? "" : "s");
	free(ix);
	for (size_t i = 0; i < fn->ninlined; i++) {
		fputs(i == 0 ? "  inlined: " : ", ", f);
		xl_put_text(f, fn->inlined[i].name);
		fprintf(f, " %llu (%.1f%%)", (unsigned long long)fn->inlined[i].samples,
			100.0 * (double)fn->inlined[i].samples / (double)fn->isamples);
	}
	if (fn->ninlined)
		fputc('\n', f);
	uint64_t on_paths;
	const struct xl_sframe *most;
	uint64_t called = called_samples(m, func, &on_paths, &most);
	if (called) {
		fprintf(f, "  and %llu sample%s on its call paths in untraced code it called, most in %s%s",
			(unsigned long long)called, called == 1 ? "" : "s", most->library ? most->library : "",
			most->library ? " " : "");
		xl_put_text(f, most->name);
		fprintf(f, " (%llu): the flame graph's sampled frames under it\n", (unsigned long long)most->samples);
	}
}

/* The end of a name inside a demangled C++ name: its parameter list or
 * template arguments follow, or nothing. */
static int name_ends(const char *p)
{
	return *p == '\0' || *p == '(' || *p == '<';
}

/* FUNC names fn: its name, the short name the function table shows, or
 * in a demangled C++ name its qualified name or a trailing part of it
 * after "::" ("ns::over" and "over" both name "ns::over(long)", and
 * "app::spin" names "unsigned long app::spin<long>(long)"). */
static int names(const struct xl_func *fn, const char *func)
{
	if (strcmp(fn->name, func) == 0 || strcmp(xl_func_shown(fn, 0), func) == 0)
		return 1;
	size_t len = strlen(func);
	if (!len)
		return 0;
	for (const char *p = strstr(fn->name, func); p; p = strstr(p + 1, func)) {
		int starts = p == fn->name || p[-1] == ' ' || p[-1] == '*' || p[-1] == '&' ||
			     (p - fn->name >= 2 && p[-1] == ':' && p[-2] == ':');
		if (starts && name_ends(p + len))
			return 1;
	}
	return 0;
}

int xl_emit_lines(const struct xl_model *m, FILE *f, const char *name, size_t top)
{
	int found = 0;
	for (size_t i = 0; i < m->nfuncs; i++) {
		const struct xl_func *fn = &m->funcs[i];
		if (xl_func_is_more(fn) || !names(fn, name))
			continue;
		if (found++)
			fputc('\n', f);
		one_function(m, (int32_t)i, f, top);
	}
	if (!found)
		return -1;
	return ferror(f) ? -2 : 0;
}
