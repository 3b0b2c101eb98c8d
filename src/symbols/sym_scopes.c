/* sym_scopes.c - DWARF: the inline chain at an address, from the concrete
 * scopes the compiler left around its code.
 *
 * Not dwarf_getscopes(): inside inlined code it gives the inlined instance
 * followed by its abstract origin's scopes (where the inlined function is
 * declared, not where it was inlined), which cuts a chain of two inlinings
 * to one, and in a function inside a C++ namespace it finds none.  Here a
 * compile unit is read once for its concrete functions and their pc ranges
 * (in namespaces, classes and other functions too), and each function an
 * address falls in once for the tree of its inlined instances and blocks;
 * an address is then a binary search in each and a walk up that tree.
 * Walking the DIEs per address would not do: without DW_AT_sibling (clang
 * writes none) every step over a sibling reads all of its descendants. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "sym_internal.h"
#include "xl_array.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SCOPE_DEPTH 128

/* A scope with code (a concrete function, an inlined instance, a block):
 * its pc ranges are rg[first .. first + n) of its table. */
struct sc_node {
	Dwarf_Off off;
	int32_t parent; /* the node it is nested in, -1: none */
	bool inlined;   /* DW_TAG_inlined_subroutine */
	uint32_t first, n;
};

struct sc_range {
	uint64_t lo, hi;
	uint32_t node;
};

/* A compile unit's functions, or a function's scopes (node 0: itself). */
struct sc_table {
	Dwarf_Off off; /* of the CU's or the function's DIE */
	struct sc_node *node;
	size_t nnode, capnode;
	struct sc_range *rg;     /* in node order */
	struct sc_range *sorted; /* by start, nested ones after their parent */
	size_t nrg, caprg;
};

struct sym_scopes {
	Dwarf *dbg;
	struct sc_table *cu, *fn; /* built on first use, by DIE offset */
	size_t ncu, capcu, nfn, capfn;
	bool oom;
};

struct sym_scopes *sym_scopes_new(Dwarf *dbg)
{
	struct sym_scopes *s = calloc(1, sizeof(*s));
	if (s != NULL)
		s->dbg = dbg;
	return s;
}

static void tables_free(struct sc_table *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].node);
		free(v[i].rg);
		free(v[i].sorted);
	}
	free(v);
}

void sym_scopes_free(struct sym_scopes *s)
{
	if (s == NULL)
		return;
	tables_free(s->cu, s->ncu);
	tables_free(s->fn, s->nfn);
	free(s);
}

/* die as a node of t nested in parent when it has code: its index; parent
 * when it has none (what it holds has none either, or counts as parent's). */
static int32_t add_node(struct sym_scopes *s, struct sc_table *t, Dwarf_Die *die, int32_t parent)
{
	const size_t first = t->nrg;
	Dwarf_Addr base, lo, hi;
	ptrdiff_t o = 0;
	while ((o = dwarf_ranges(die, o, &base, &lo, &hi)) > 0) {
		if (!sym_plausible_pc(lo) || hi <= lo)
			continue;
		if (t->nnode >= INT32_MAX || xl_grow((void **)&t->rg, &t->caprg, t->nrg + 1, sizeof(*t->rg)) != 0)
			goto oom;
		t->rg[t->nrg++] = (struct sc_range){lo, hi, (uint32_t)t->nnode};
	}
	if (t->nrg == first)
		return parent;
	if (xl_grow((void **)&t->node, &t->capnode, t->nnode + 1, sizeof(*t->node)) != 0)
		goto oom;
	t->node[t->nnode] = (struct sc_node){.off = dwarf_dieoffset(die),
					     .parent = parent,
					     .inlined = dwarf_tag(die) == DW_TAG_inlined_subroutine,
					     .first = (uint32_t)first,
					     .n = (uint32_t)(t->nrg - first)};
	return (int32_t)t->nnode++;
oom: /* no range without its node */
	s->oom = true;
	t->nrg = first;
	return parent;
}

/* Where a CU's functions are: out-of-line definitions sit in namespaces
 * (clang) or beside their class; local classes' and GCC's nested
 * functions inside other functions and their blocks. */
static bool holds_functions(int tag)
{
	switch (tag) {
	case DW_TAG_subprogram:
	case DW_TAG_namespace:
	case DW_TAG_class_type:
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_lexical_block:
	case DW_TAG_module:
	case DW_TAG_interface_type: return true;
	default: return false;
	}
}

/* The concrete functions under parent (those with code), each nested in
 * the function it is declared in (up). */
static void walk_cu(struct sym_scopes *s, struct sc_table *t, Dwarf_Die *parent, int32_t up, int depth)
{
	Dwarf_Die child;
	if (depth > MAX_SCOPE_DEPTH || dwarf_child(parent, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		int32_t at = tag == DW_TAG_subprogram ? add_node(s, t, &child, up) : up;
		if (holds_functions(tag) && dwarf_haschildren(&child) > 0)
			walk_cu(s, t, &child, at, depth + 1);
	} while (!s->oom && dwarf_siblingof(&child, &child) == 0);
}

/* The inlined instances and blocks under parent, as a tree: the concrete
 * instances of what was inlined into what, each DIE's children being what
 * was inlined into it (not its abstract origin's scopes). */
static void walk_fn(struct sym_scopes *s, struct sc_table *t, Dwarf_Die *parent, int32_t up, int depth)
{
	Dwarf_Die child;
	if (depth > MAX_SCOPE_DEPTH || dwarf_child(parent, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_lexical_block)
			continue;
		int32_t at = add_node(s, t, &child, up);
		if (dwarf_haschildren(&child) > 0)
			walk_fn(s, t, &child, at, depth + 1);
	} while (!s->oom && dwarf_siblingof(&child, &child) == 0);
}

static void fill_cu(struct sym_scopes *s, struct sc_table *t, Dwarf_Die *cudie)
{
	walk_cu(s, t, cudie, -1, 0);
}

static void fill_fn(struct sym_scopes *s, struct sc_table *t, Dwarf_Die *fn)
{
	if (add_node(s, t, fn, -1) == 0)
		walk_fn(s, t, fn, 0, 0);
}

static int cmp_range(const void *a, const void *b)
{
	const struct sc_range *x = a, *y = b;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	/* nodes are numbered outside in: at one start, inner ones last */
	return x->node < y->node ? -1 : x->node > y->node;
}

static int cmp_table_off(const void *key, const void *elem)
{
	Dwarf_Off k = *(const Dwarf_Off *)key, at = ((const struct sc_table *)elem)->off;
	return k < at ? -1 : k > at;
}

/* The table of die in v[*n] (by DIE offset), filled on first use; NULL
 * out of memory. */
static struct sc_table *table_of(struct sym_scopes *s, struct sc_table **v, size_t *n, size_t *cap, Dwarf_Die *die,
				 void (*fill)(struct sym_scopes *, struct sc_table *, Dwarf_Die *))
{
	const Dwarf_Off off = dwarf_dieoffset(die);
	size_t i = xl_lower_bound(*v, *n, sizeof(**v), &off, cmp_table_off);
	if (i < *n && (*v)[i].off == off)
		return &(*v)[i];
	if (xl_grow((void **)v, cap, *n + 1, sizeof(**v)) != 0) {
		s->oom = true;
		return NULL;
	}
	struct sc_table *t = &(*v)[i];
	memmove(t + 1, t, (*n - i) * sizeof(*t));
	(*n)++;
	*t = (struct sc_table){.off = off};
	fill(s, t, die);
	if (t->nrg > 0 && (t->sorted = malloc(t->nrg * sizeof(*t->sorted))) == NULL)
		s->oom = true;
	if (t->sorted != NULL) {
		memcpy(t->sorted, t->rg, t->nrg * sizeof(*t->sorted));
		qsort(t->sorted, t->nrg, sizeof(*t->sorted), cmp_range);
	}
	return t;
}

static bool node_holds(const struct sc_table *t, int32_t k, uint64_t addr)
{
	const struct sc_node *n = &t->node[k];
	for (uint32_t i = n->first; i < n->first + n->n; i++)
		if (addr >= t->rg[i].lo && addr < t->rg[i].hi)
			return true;
	return false;
}

/* Orders addr after every range starting at or before it. */
static int cmp_range_start(const void *key, const void *elem)
{
	return *(const uint64_t *)key < ((const struct sc_range *)elem)->lo ? -1 : 1;
}

/* The innermost node of t holding addr, or -1.  Scopes nest and siblings
 * do not overlap, so that is the node of the last range starting at or
 * before addr, or one that node is nested in. */
static int32_t innermost(const struct sc_table *t, uint64_t addr)
{
	if (t->sorted == NULL)
		return -1;
	size_t i = xl_lower_bound(t->sorted, t->nrg, sizeof(*t->sorted), &addr, cmp_range_start);
	if (i == 0)
		return -1;
	for (int32_t k = (int32_t)t->sorted[i - 1].node; k >= 0; k = t->node[k].parent)
		if (node_holds(t, k, addr))
			return k;
	return -1;
}

int sym_inline_chain(struct sym_scopes *s, Dwarf_Die *cudie, uint64_t addr, Dwarf_Die *chain, int max)
{
	struct sc_table *cu = table_of(s, &s->cu, &s->ncu, &s->capcu, cudie, fill_cu);
	if (s->oom)
		return -1;
	int32_t k = innermost(cu, addr);
	Dwarf_Die fn;
	if (k < 0 || dwarf_offdie(s->dbg, cu->node[k].off, &fn) == NULL)
		return 0;
	struct sc_table *t = table_of(s, &s->fn, &s->nfn, &s->capfn, &fn, fill_fn);
	if (s->oom)
		return -1;
	/* the instances from the innermost out (the walks nest at most
	 * MAX_SCOPE_DEPTH deep), then outermost first */
	Dwarf_Off path[MAX_SCOPE_DEPTH + 2];
	int np = 0;
	for (k = innermost(t, addr); k > 0 && np < (int)XL_ARRAY_SIZE(path); k = t->node[k].parent)
		if (t->node[k].inlined)
			path[np++] = t->node[k].off;
	int n = 0;
	while (n < max && np > 0)
		if (dwarf_offdie(s->dbg, path[--np], &chain[n]) != NULL)
			n++;
	return n;
}
