/* sym_dwarf.c - DWARF: the declaring file and line of a function. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "sym_internal.h"
#include "xl_array.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DIE_DEPTH 128

bool sym_plausible_pc(Dwarf_Addr pc)
{
	/* 0 and the -1/-2 tombstones mark code dropped by the linker */
	return pc != 0 && pc < (Dwarf_Addr)-2;
}

static void add_subprogram(struct dwctx *c, Dwarf_Die *die)
{
	Dwarf_Addr pc = 0;
	if (dwarf_entrypc(die, &pc) != 0 || !sym_plausible_pc(pc)) {
		Dwarf_Addr base, start, end;
		ptrdiff_t o = dwarf_ranges(die, 0, &base, &start, &end);
		if (o <= 0 || !sym_plausible_pc(start))
			return;
		pc = start;
	}
	if (xl_grow((void **)&c->fn, &c->capfn, c->nfn + 1, sizeof *c->fn)) {
		c->oom = true;
		return;
	}
	c->fn[c->nfn].addr = pc;
	c->fn[c->nfn].off = dwarf_dieoffset(die);
	c->nfn++;
}

static void walk_dies(struct dwctx *c, Dwarf_Die *parent, int depth)
{
	Dwarf_Die child;
	if (depth > MAX_DIE_DEPTH || dwarf_child(parent, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		if (tag == DW_TAG_subprogram)
			add_subprogram(c, &child);
		if (c->oom)
			return;
		switch (tag) {
		case DW_TAG_subprogram:
		case DW_TAG_namespace:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
		case DW_TAG_lexical_block:
		case DW_TAG_module:
		case DW_TAG_interface_type:
			if (dwarf_haschildren(&child) > 0)
				walk_dies(c, &child, depth + 1);
			break;
		default: break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

static int cmp_dwfn(const void *a, const void *b)
{
	const struct dw_fn *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int cmp_dwcu(const void *a, const void *b)
{
	const struct dw_cu *x = a, *y = b;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->hi < y->hi ? -1 : x->hi > y->hi;
}

void sym_dw_index(struct dwctx *c)
{
	Dwarf_CU *cu = NULL, *next;
	Dwarf_Half version;
	uint8_t ut;
	Dwarf_Die cudie, subdie;
	while (dwarf_get_units(c->dbg, cu, &next, &version, &ut, &cudie, &subdie) == 0) {
		cu = next;
		/* A skeleton unit (split DWARF) keeps its ranges and line table
		 * here but its DIEs in a .dwo: line-table fallback only. */
		Dwarf_Die *top = &cudie;
		if (ut != DW_UT_compile && ut != DW_UT_partial && ut != DW_UT_skeleton)
			continue;
		Dwarf_Addr base, start, end;
		ptrdiff_t o = 0;
		while ((o = dwarf_ranges(top, o, &base, &start, &end)) > 0) {
			if (!sym_plausible_pc(start) || end <= start)
				continue;
			if (xl_grow((void **)&c->cu, &c->capcu, c->ncu + 1, sizeof *c->cu)) {
				c->oom = true;
				return;
			}
			c->cu[c->ncu].lo = start;
			c->cu[c->ncu].hi = end;
			c->cu[c->ncu].off = dwarf_dieoffset(top);
			c->ncu++;
		}
		if (ut != DW_UT_skeleton)
			walk_dies(c, top, 0);
		if (c->oom)
			return;
	}
	if (c->nfn > 1)
		qsort(c->fn, c->nfn, sizeof *c->fn, cmp_dwfn);
	if (c->ncu > 1)
		qsort(c->cu, c->ncu, sizeof *c->cu, cmp_dwcu);
}

static int cmp_fn_addr(const void *key, const void *elem)
{
	uint64_t addr = *(const uint64_t *)key, at = ((const struct dw_fn *)elem)->addr;
	return addr < at ? -1 : addr > at;
}

/* Orders addr after every CU starting at or before it: the lower bound is
 * the first CU that starts after addr. */
static int cmp_cu_start(const void *key, const void *elem)
{
	return *(const uint64_t *)key < ((const struct dw_cu *)elem)->lo ? -1 : 1;
}

bool sym_dw_find_fn(const struct dwctx *c, uint64_t addr, Dwarf_Die *die)
{
	size_t lo = xl_lower_bound(c->fn, c->nfn, sizeof(*c->fn), &addr, cmp_fn_addr);
	/* among several DIEs at addr, take the first that resolves */
	for (; lo < c->nfn && c->fn[lo].addr == addr; lo++)
		if (dwarf_offdie(c->dbg, c->fn[lo].off, die) != NULL)
			return true;
	return false;
}

bool sym_dw_find_cu(const struct dwctx *c, uint64_t addr, Dwarf_Die *cudie)
{
	/* ranges may overlap or nest: scan back from the last start <= addr */
	size_t lo = xl_lower_bound(c->cu, c->ncu, sizeof(*c->cu), &addr, cmp_cu_start);
	for (size_t i = lo, steps = 0; i > 0 && steps < 64; i--, steps++) {
		const struct dw_cu *r = &c->cu[i - 1];
		if (addr >= r->lo && addr < r->hi)
			return dwarf_offdie(c->dbg, r->off, cudie) != NULL;
	}
	return false;
}

const char *sym_die_linkage_name(Dwarf_Die *die)
{
	Dwarf_Attribute at;
	const char *s = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &at));
	if (s == NULL)
		s = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &at));
	return s;
}

/* The file named by a file attribute of die (DW_AT_decl_file, following
 * abstract_origin/specification; DW_AT_call_file), or NULL.  Not
 * dwarf_decl_file(): elfutils 0.188 treats file index 0 as "no file", but
 * in DWARF 5 index 0 is the primary source file, which is what clang 14
 * records whenever the file was named as compiled (cc foo.c). */
const char *sym_die_file(Dwarf_Die *die, unsigned attr, const char **comp_dir)
{
	Dwarf_Attribute at;
	*comp_dir = NULL;
	Dwarf_Word idx;
	if (dwarf_formudata(dwarf_attr_integrate(die, attr, &at), &idx) != 0)
		return NULL;
	Dwarf_Die cudie;
	Dwarf_Half version = 0;
	if (at.cu == NULL || dwarf_cu_die(at.cu, &cudie, &version, NULL, NULL, NULL, NULL, NULL) == NULL)
		return NULL;
	if (idx == 0 && version < 5)
		return NULL; /* "no file" before DWARF 5 */
	Dwarf_Files *files;
	size_t nfiles;
	if (dwarf_getsrcfiles(&cudie, &files, &nfiles) != 0 || idx >= nfiles)
		return NULL;
	Dwarf_Attribute cd;
	*comp_dir = dwarf_formstring(dwarf_attr(&cudie, DW_AT_comp_dir, &cd));
	return dwarf_filesrc(files, idx, NULL, NULL);
}

const char *sym_die_decl_file(Dwarf_Die *die, const char **comp_dir)
{
	return sym_die_file(die, DW_AT_decl_file, comp_dir);
}

/* file + line of the function at addr from the line table of cudie */
int sym_line_at(Dwarf_Die *cudie, uint64_t addr, char **file, int *line)
{
	Dwarf_Line *ln = dwarf_getsrc_die(cudie, addr);
	if (ln == NULL)
		return 0;
	int l = 0;
	const char *src = dwarf_linesrc(ln, NULL, NULL);
	if (dwarf_lineno(ln, &l) != 0 || src == NULL)
		return 0;
	Dwarf_Attribute at;
	char *p = sym_path_join(dwarf_formstring(dwarf_attr(cudie, DW_AT_comp_dir, &at)), src);
	if (p == NULL)
		return -1;
	*file = p;
	*line = l > 0 ? l : 0;
	return 0;
}
