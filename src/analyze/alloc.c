/*
 * alloc.c - arithmetic on heap allocation figures (analyze.h, struct
 * xl_alloc), shared by the reader and the model.
 */
#include "analyze.h"

uint64_t xl_alloc_live(const struct xl_alloc *a)
{
	uint64_t gone = a->gc_bytes + a->freed_bytes;
	return a->bytes > gone ? a->bytes - gone : 0;
}

void xl_alloc_add(struct xl_alloc *to, const struct xl_alloc *a)
{
	to->allocs += a->allocs;
	to->bytes += a->bytes;
	to->frees += a->frees;
	to->freed_bytes += a->freed_bytes;
	to->gc_bytes += a->gc_bytes;
	to->peak_live = to->peak_live > a->peak_live ? to->peak_live : a->peak_live;
}
