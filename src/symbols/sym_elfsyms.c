/* sym_elfsyms.c - the ELF symbol tables: the linkage name at an address. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "sym_internal.h"
#include "xl_array.h"

#include <stdlib.h>
#include <string.h>

/* By address; among aliases the largest size first, then the one that comes
 * last in the symbol table.  That is llvm-symbolizer's pick (it keeps the
 * last of a stable sort by (address, size)), so names match llvm-xray's,
 * e.g. C1 rather than C2 for a constructor emitted once under both names. */
static int cmp_esym(const void *a, const void *b)
{
	const struct esym *x = a, *y = b;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return x->order > y->order ? -1 : x->order < y->order;
}

/* exaloop's runtime sources (src/rt; test_symbols checks the list against
 * the directory).  The static archive keeps one STT_FILE symbol per object
 * before its local symbols. */
static const char *const runtime_files[] = {
	"rt_alloc.c",     "rt_apart.c",    "rt_arch_x86_64.c",   "rt_arena.c",        "rt_calib.c",  "rt_clock.c",
	"rt_control.c",   "rt_hot.c",      "rt_init.c",          "rt_mem.c",          "rt_patch.c",  "rt_sample.c",
	"rt_state.c",     "rt_timeline.c", "rt_tramp_aarch64.S", "rt_tramp_x86_64.S", "rt_unwind.c", "rt_wrap_cxx.c",
	"rt_wrap_exec.c", "rt_wrap_gc.c",  "rt_wrap_libc.c",     "rt_wrap_ns.c",      "rt_xray.c",
};

int xl_sym_runtime_file(const char *name)
{
	const char *base = name ? strrchr(name, '/') : NULL;
	base = base ? base + 1 : name;
	for (size_t i = 0; base && i < XL_ARRAY_SIZE(runtime_files); i++)
		if (strcmp(base, runtime_files[i]) == 0)
			return 1;
	return 0;
}

/* Function symbols of .symtab, or of .dynsym when there is no .symtab. */
int sym_collect_elf_syms(struct elf_file *ef, struct esyms *es)
{
	for (int pass = 0; pass < 2 && es->n == 0; pass++) {
		Elf32_Word want = pass == 0 ? SHT_SYMTAB : SHT_DYNSYM;
		Elf_Scn *scn = NULL;
		while ((scn = elf_nextscn(ef->elf, scn)) != NULL) {
			GElf_Shdr sh;
			if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != want)
				continue;
			Elf_Data *d = elf_getdata(scn, NULL);
			if (d == NULL || sh.sh_entsize == 0)
				continue;
			size_t n = sh.sh_size / sh.sh_entsize;
			int in_runtime = 0; /* the local symbols follow their file's STT_FILE */
			for (size_t i = 1; i < n; i++) {
				GElf_Sym sym;
				if (gelf_getsym(d, (int)i, &sym) == NULL)
					break;
				int type = GELF_ST_TYPE(sym.st_info);
				if (type == STT_FILE) {
					in_runtime = xl_sym_runtime_file(elf_strptr(ef->elf, sh.sh_link, sym.st_name));
					continue;
				}
				if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_shndx == SHN_UNDEF ||
				    sym.st_value == 0)
					continue;
				const char *name = elf_strptr(ef->elf, sh.sh_link, sym.st_name);
				if (name == NULL || name[0] == '\0')
					continue;
				if (xl_grow((void **)&es->s, &es->cap, es->n + 1, sizeof *es->s))
					return -1;
				es->s[es->n].value = sym.st_value;
				es->s[es->n].size = sym.st_size;
				es->s[es->n].name = name;
				es->s[es->n].order = es->n;
				es->s[es->n].runtime = in_runtime && GELF_ST_BIND(sym.st_info) == STB_LOCAL;
				es->n++;
			}
		}
	}
	if (es->n > 1)
		qsort(es->s, es->n, sizeof *es->s, cmp_esym);
	return 0;
}

/* The symbol naming a function entry: the preferred alias at addr, else the
 * symbol whose extent contains addr. */
static int cmp_value(const void *key, const void *elem)
{
	uint64_t addr = *(const uint64_t *)key, at = ((const struct esym *)elem)->value;
	return addr < at ? -1 : addr > at;
}

const struct esym *sym_elf_at(const struct esyms *es, uint64_t addr)
{
	size_t lo = xl_lower_bound(es->s, es->n, sizeof(*es->s), &addr, cmp_value);
	if (lo < es->n && es->s[lo].value == addr)
		return &es->s[lo];
	/* containing symbol: look back a little (nested/overlapping symbols) */
	for (size_t i = lo, steps = 0; i > 0 && steps < 64; i--, steps++) {
		const struct esym *s = &es->s[i - 1];
		if (s->value <= addr && addr - s->value < s->size)
			return s;
	}
	return NULL;
}

const char *sym_elf_name_at(const struct esyms *es, uint64_t addr)
{
	const struct esym *s = sym_elf_at(es, addr);
	return s ? s->name : NULL;
}
