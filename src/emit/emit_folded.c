/*
 * emit_folded.c - folded stacks: "main;parse;lex 1234" (self ns per path).
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

int xl_emit_folded(const struct xl_model *m, FILE *f, const struct xl_emit_opts *o)
{
	int32_t *path = malloc((m->nnodes + 1) * sizeof(int32_t));
	if (!path)
		return -1;
	for (size_t i = 0; i < m->nnodes; i++) {
		const struct xl_tnode *n = &m->nodes[i];
		if (n->parent == XL_NONE || n->self_ns <= 0)
			continue;
		if (o->thread >= 0 && n->thread != (uint32_t)o->thread)
			continue;
		size_t depth = 0;
		for (int32_t c = (int32_t)i; m->nodes[c].parent != XL_NONE; c = m->nodes[c].parent)
			path[depth++] = m->nodes[c].func;
		while (depth-- > 0) {
			put_name(f, m->funcs[path[depth]].name);
			if (depth)
				putc(';', f);
		}
		fprintf(f, " %lld\n", (long long)n->self_ns);
	}
	free(path);
	return ferror(f) ? -1 : 0;
}
