/*
 * emit_names.c - which functions share a name, for the trace exports
 * (Chrome, Perfetto): their events say which function they are; and the
 * name a sampled frame goes by in the exports that name frames (pprof,
 * Chrome).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_internal.h"

static const struct xl_func *sort_funcs;
static int by_name(const void *a, const void *b)
{
	return strcmp(sort_funcs[*(const size_t *)a].name, sort_funcs[*(const size_t *)b].name);
}

/* Which functions share their name with another one (*out NULL: none
 * do).  Out of memory is an error: the events would not say which
 * function they are. */
int xl_shared_names(const struct xl_model *m, unsigned char **out)
{
	*out = NULL;
	if (m->nfuncs < 2)
		return 0;
	size_t *ix = malloc(m->nfuncs * sizeof(*ix));
	unsigned char *shared = calloc(m->nfuncs, 1);
	if (!ix || !shared) {
		free(ix);
		free(shared);
		return -1;
	}
	for (size_t i = 0; i < m->nfuncs; i++)
		ix[i] = i;
	sort_funcs = m->funcs;
	qsort(ix, m->nfuncs, sizeof(*ix), by_name);
	for (size_t i = 1; i < m->nfuncs; i++)
		if (!strcmp(m->funcs[ix[i - 1]].name, m->funcs[ix[i]].name))
			shared[ix[i - 1]] = shared[ix[i]] = 1;
	free(ix);
	*out = shared;
	return 0;
}

void xl_sframe_label(const struct xl_sframe *s, char *buf, size_t len)
{
	if (s->kind == XL_SF_INLINED)
		snprintf(buf, len, "%s (inlined)", s->name);
	else
		snprintf(buf, len, "%s`%s", s->library ? s->library : "(program)", s->name);
}
