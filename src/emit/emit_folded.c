/*
 * emit_folded.c - folded stacks: "main;parse;lex 1234" (self ns per path,
 * or, with --weight bytes|allocs, the heap bytes or allocations made on
 * the path; then allocations with no traced frame are a "(no traced
 * frame)" stack of their thread, those the runtime could not attribute
 * one "(not attributed)" line and those made while the window was closed
 * one "(outside the window)" line, so the lines add up to the run's
 * total).
 *
 * Read by flamegraph.pl, speedscope, inferno and many others.  One line per
 * call path with self time; identical paths from different threads are
 * separate lines (the tools add them up).  Frame names may not contain ';'
 * or newlines in this format, so those characters are replaced.
 */
#include <stdlib.h>

#include "emit.h"

static void put_name(FILE *f, const char *s)
{
	for (; *s; s++)
		putc(*s == ';' ? ':' : (*s == '\n' || *s == '\r') ? ' ' : *s, f);
}

static int64_t weight(const struct xl_model *m, size_t i, enum xl_weight w)
{
	if (w == XL_WEIGHT_TIME)
		return m->nodes[i].self_ns;
	if (!m->node_alloc)
		return 0;
	return (int64_t)(w == XL_WEIGHT_BYTES ? m->node_alloc[i].bytes : m->node_alloc[i].allocs);
}

int xl_emit_folded(const struct xl_model *m, FILE *f, const struct xl_emit_opts *o)
{
	int32_t *path = malloc((m->nnodes + 1) * sizeof(int32_t));
	if (!path)
		return -1;
	for (size_t i = 0; i < m->nnodes; i++) {
		const struct xl_tnode *n = &m->nodes[i];
		int64_t v = weight(m, i, o->weight);
		if (v <= 0 || (o->thread >= 0 && n->thread != (uint32_t)o->thread))
			continue;
		if (n->parent == XL_NONE) {
			if (o->weight != XL_WEIGHT_TIME)
				fprintf(f, "(no traced frame) %lld\n", (long long)v);
			continue;
		}
		size_t depth = 0;
		for (int32_t c = (int32_t)i; m->nodes[c].parent != XL_NONE; c = m->nodes[c].parent)
			path[depth++] = m->nodes[c].func;
		while (depth-- > 0) {
			put_name(f, m->funcs[path[depth]].name);
			if (depth)
				putc(';', f);
		}
		fprintf(f, " %lld\n", (long long)v);
	}
	if (o->weight != XL_WEIGHT_TIME && o->thread < 0) {
		uint64_t na = o->weight == XL_WEIGHT_BYTES ? m->alloc_na.bytes : m->alloc_na.allocs;
		if (na)
			fprintf(f, "(not attributed) %llu\n", (unsigned long long)na);
		uint64_t out = o->weight == XL_WEIGHT_BYTES ? m->alloc_outside.bytes : m->alloc_outside.allocs;
		if (out)
			fprintf(f, "(outside the window) %llu\n", (unsigned long long)out);
	}
	free(path);
	return ferror(f) ? -1 : 0;
}
