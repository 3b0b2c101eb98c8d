/*
 * sort.c - function-table orderings shared by every emitter, and the
 * lookup of a function by XRay id (funcs are sorted by it).
 */
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "xl_array.h"

int xl_sort_parse(const char *s, enum xl_sort *out)
{
	static const struct {
		const char *name;
		enum xl_sort by;
	} names[] = {
		{"self", XL_SORT_SELF}, {"total", XL_SORT_TOTAL}, {"calls", XL_SORT_CALLS},
		{"avg", XL_SORT_AVG},   {"name", XL_SORT_NAME},   {"alloc", XL_SORT_ALLOC},
	};
	for (size_t i = 0; i < XL_ARRAY_SIZE(names); i++)
		if (strcmp(s, names[i].name) == 0) {
			*out = names[i].by;
			return 0;
		}
	return -1;
}

static const struct xl_func *sort_funcs;
static enum xl_sort sort_by;

static double avg(const struct xl_func *f)
{
	return f->calls ? (double)f->total_ns / (double)f->calls : 0;
}

static int cmp(const void *a, const void *b)
{
	const struct xl_func *x = &sort_funcs[*(const size_t *)a], *y = &sort_funcs[*(const size_t *)b];
	int r = 0;
	switch (sort_by) {
	case XL_SORT_SELF: r = (y->self_ns > x->self_ns) - (y->self_ns < x->self_ns); break;
	case XL_SORT_TOTAL: r = (y->total_ns > x->total_ns) - (y->total_ns < x->total_ns); break;
	case XL_SORT_CALLS: r = (y->calls > x->calls) - (y->calls < x->calls); break;
	case XL_SORT_AVG: r = (avg(y) > avg(x)) - (avg(y) < avg(x)); break;
	case XL_SORT_NAME: r = strcmp(xl_func_shown(x, 0), xl_func_shown(y, 0)); break;
	case XL_SORT_ALLOC:
		r = (y->alloc.bytes > x->alloc.bytes) - (y->alloc.bytes < x->alloc.bytes);
		if (!r)
			r = (y->alloc.allocs > x->alloc.allocs) - (y->alloc.allocs < x->alloc.allocs);
		break;
	}
	if (!r)
		r = strcmp(x->name, y->name);
	if (!r)
		r = (x->xray_id > y->xray_id) - (x->xray_id < y->xray_id);
	return r;
}

void xl_funcs_sorted(const struct xl_func *funcs, size_t n, enum xl_sort by, size_t *idx)
{
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	sort_funcs = funcs; /* single-threaded CLI: qsort has no context argument */
	sort_by = by;
	qsort(idx, n, sizeof(size_t), cmp);
}

static int cmp_xray_id(const void *key, const void *elem)
{
	int32_t id = *(const int32_t *)key, at = ((const struct xl_func *)elem)->xray_id;
	return id < at ? -1 : id > at;
}

int32_t xl_func_index(const struct xl_model *m, int32_t xray_id)
{
	size_t lo = xl_lower_bound(m->funcs, m->nfuncs, sizeof(*m->funcs), &xray_id, cmp_xray_id);
	return lo < m->nfuncs && m->funcs[lo].xray_id == xray_id ? (int32_t)lo : XL_NONE;
}
