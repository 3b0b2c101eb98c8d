/* sym_xray.c - the XRay sections: function ids from the sled walk.
 *
 * Layout facts this file relies on (clang/compiler-rt 14, verified against
 * llvm-xray 14 by tests/unit/test_symbols.c):
 *
 *  - xray_instr_map is an array of sled entries of 4 * word size bytes
 *    (32 on 64-bit, 16 on 32-bit): { word Address; word Function; u8 Kind;
 *    u8 AlwaysInstrument; u8 Version; padding }.
 *  - Version >= 2: Address and Function are PC-relative, each relative to
 *    the address of the field itself.  Version 0/1: absolute addresses,
 *    which in a PIE linked by lld may be 0 in the file with the real value
 *    in a dynamic R_*_RELATIVE relocation.
 *  - Ids: walk the sleds in section order; id 1 is the first sled's
 *    function and the id grows by one whenever a sled's (absolute) function
 *    address differs from the previous sled's.  controlPatching() writes
 *    these ids into the sleds, so they are the ids handlers see.
 *  - xray_fn_idx (emitted by clang 14 only with -fno-xray-function-index,
 *    whose meaning is inverted in that release) holds one {begin, end} pair
 *    of absolute sled pointers per function; when present the runtime takes
 *    __xray_max_function_id() and __xray_function_address() from it.  We
 *    check that it agrees with the walk (newer LLVMs store {pc-relative
 *    begin, sled count}; both layouts are recognised).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "sym_internal.h"
#include "xl_array.h"

#include <stdlib.h>
#include <string.h>

#define XRAY_MAP_SECTION "xray_instr_map"
#define XRAY_IDX_SECTION "xray_fn_idx"

/* Relocations that target the XRay sections (needed for absolute entries
 * left as 0 in the file, as lld does for PIEs). */

struct reloc {
	uint64_t off;
	uint64_t val;
};

struct reloc_map {
	struct reloc *r;
	size_t n, cap;
};

struct vrange {
	uint64_t lo, hi;
};

static bool in_ranges(const struct vrange *rg, size_t nrg, uint64_t a)
{
	for (size_t i = 0; i < nrg; i++)
		if (a >= rg[i].lo && a < rg[i].hi)
			return true;
	return false;
}

static int reloc_kind(unsigned machine, unsigned type)
{
	/* 1 = base-relative (value = addend), 2 = absolute (symbol + addend) */
	switch (machine) {
	case EM_X86_64: return type == R_X86_64_RELATIVE ? 1 : type == R_X86_64_64 ? 2 : 0;
	case EM_386: return type == R_386_RELATIVE ? 1 : type == R_386_32 ? 2 : 0;
	case EM_AARCH64: return type == R_AARCH64_RELATIVE ? 1 : type == R_AARCH64_ABS64 ? 2 : 0;
	case EM_PPC64: return type == R_PPC64_RELATIVE ? 1 : type == R_PPC64_ADDR64 ? 2 : 0;
	default: return 0;
	}
}

static int cmp_reloc(const void *a, const void *b)
{
	const struct reloc *x = a, *y = b;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int collect_relocs(struct elf_file *ef, const struct vrange *rg, size_t nrg, struct reloc_map *rm)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(ef->elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_RELA)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (d == NULL || sh.sh_entsize == 0)
			continue;
		Elf_Data *symd = NULL;
		Elf_Scn *symscn = elf_getscn(ef->elf, sh.sh_link);
		if (symscn != NULL)
			symd = elf_getdata(symscn, NULL);
		size_t n = sh.sh_size / sh.sh_entsize;
		for (size_t i = 0; i < n; i++) {
			GElf_Rela ra;
			if (gelf_getrela(d, (int)i, &ra) == NULL)
				break;
			if (!in_ranges(rg, nrg, ra.r_offset))
				continue;
			int k = reloc_kind(ef->eh.e_machine, (unsigned)GELF_R_TYPE(ra.r_info));
			uint64_t v;
			if (k == 1) {
				v = (uint64_t)ra.r_addend;
			} else if (k == 2) {
				GElf_Sym s;
				size_t si = GELF_R_SYM(ra.r_info);
				if (si == 0 || symd == NULL || gelf_getsym(symd, (int)si, &s) == NULL)
					continue;
				v = s.st_value + (uint64_t)ra.r_addend;
			} else {
				continue;
			}
			if (xl_grow((void **)&rm->r, &rm->cap, rm->n + 1, sizeof *rm->r))
				return -1;
			rm->r[rm->n].off = ra.r_offset;
			rm->r[rm->n].val = v;
			rm->n++;
		}
	}
	if (rm->n > 1)
		qsort(rm->r, rm->n, sizeof *rm->r, cmp_reloc);
	return 0;
}

static int cmp_off(const void *key, const void *elem)
{
	uint64_t off = *(const uint64_t *)key, at = ((const struct reloc *)elem)->off;
	return off < at ? -1 : off > at;
}

static bool reloc_lookup(const struct reloc_map *rm, uint64_t off, uint64_t *val)
{
	size_t lo = xl_lower_bound(rm->r, rm->n, sizeof(*rm->r), &off, cmp_off);
	if (lo < rm->n && rm->r[lo].off == off) {
		*val = rm->r[lo].val;
		return true;
	}
	return false;
}

/* The sled walk. */

static int walk_sleds(struct elf_file *ef, const char *path, struct xray_map *m, const struct reloc_map *rm, char *err,
		      size_t errlen)
{
	int w = ef->wordsize;
	uint64_t mask = w == 8 ? UINT64_MAX : UINT32_MAX;
	m->entsize = (size_t)w * 4;
	if (m->size % m->entsize != 0) {
		sym_seterr(err, errlen, "%s: %s size %zu is not a multiple of the %zu-byte sled entry", path,
			   XRAY_MAP_SECTION, m->size, m->entsize);
		return XL_EFORMAT;
	}
	m->nsleds = m->size / m->entsize;
	uint64_t cur = 0;
	for (size_t i = 0; i < m->nsleds; i++) {
		const unsigned char *e = m->buf + i * m->entsize;
		uint64_t field = m->vaddr + i * m->entsize; /* &Address */
		uint64_t f = sym_rd_word(e + w, w, ef->big_endian);
		unsigned version = e[2 * w + 2];
		if ((int)version > m->max_version)
			m->max_version = (int)version;
		uint64_t fn;
		if (version >= 2) {
			fn = (field + (uint64_t)w + f) & mask;
		} else {
			fn = f;
			if (fn == 0)
				reloc_lookup(rm, field + (uint64_t)w, &fn);
		}
		if (fn == 0) {
			sym_seterr(err, errlen,
				   "%s: %s entry %zu (version %u) has an unresolved function "
				   "address (absolute entry without a relocation)",
				   path, XRAY_MAP_SECTION, i, version);
			return XL_EFORMAT;
		}
		/* Same rule as compiler-rt's controlPatching(): a new id whenever
		 * the function differs from the previous sled's. */
		if (i == 0 || fn != cur) {
			if (m->nfns >= (size_t)INT32_MAX) {
				sym_seterr(err, errlen, "%s: more than %d XRay functions", path, INT32_MAX);
				return XL_EFORMAT;
			}
			if (xl_grow((void **)&m->fns, &m->cap, m->nfns + 1, sizeof *m->fns)) {
				sym_seterr(err, errlen, "%s: out of memory", path);
				return XL_ENOMEM;
			}
			m->fns[m->nfns].addr = fn;
			m->fns[m->nfns].first = i;
			m->fns[m->nfns].nsleds = 0;
			m->nfns++;
			cur = fn;
		}
		m->fns[m->nfns - 1].nsleds++;
	}
	return XL_OK;
}

/* Compare xray_fn_idx with the walk; differences become a warning. */
static void check_fn_idx(struct elf_file *ef, const struct xray_map *m, uint64_t idx_vaddr, const unsigned char *buf,
			 size_t size, const struct reloc_map *rm, struct xl_symtab *tab)
{
	int w = ef->wordsize;
	uint64_t mask = w == 8 ? UINT64_MAX : UINT32_MAX;
	size_t es = 2 * (size_t)w;
	if (size % es != 0) {
		sym_add_warning(tab, "%s size %zu is not a multiple of %zu", XRAY_IDX_SECTION, size, es);
		return;
	}
	size_t n = size / es;
	tab->fn_idx = n;
	uint64_t map_lo = m->vaddr, map_hi = m->vaddr + m->size;
	/* Layout A (LLVM <= 17): {begin, end} absolute pointers.
	 * Layout B (LLVM >= 18): {begin relative to the entry, sled count}. */
	for (int layout = 0; layout < 2; layout++) {
		bool ok = true;
		size_t first_bad = SIZE_MAX;
		for (size_t k = 0; k < n && ok; k++) {
			const unsigned char *e = buf + k * es;
			uint64_t field = idx_vaddr + k * es;
			uint64_t v0 = sym_rd_word(e, w, ef->big_endian);
			uint64_t v1 = sym_rd_word(e + w, w, ef->big_endian);
			uint64_t b, end;
			if (layout == 0) {
				if (v0 == 0)
					reloc_lookup(rm, field, &v0);
				if (v1 == 0)
					reloc_lookup(rm, field + (uint64_t)w, &v1);
				b = v0;
				end = v1;
			} else {
				b = (field + v0) & mask;
				if (v1 > m->nsleds) {
					ok = false;
					break;
				}
				end = b + v1 * m->entsize;
			}
			if (b < map_lo || end > map_hi || end < b || (b - map_lo) % m->entsize != 0 ||
			    (end - b) % m->entsize != 0) {
				ok = false;
				break;
			}
			size_t bi = (size_t)((b - map_lo) / m->entsize);
			size_t cnt = (size_t)((end - b) / m->entsize);
			if (first_bad == SIZE_MAX && (k >= m->nfns || m->fns[k].first != bi || m->fns[k].nsleds != cnt))
				first_bad = k;
		}
		if (!ok)
			continue;
		if (n != m->nfns)
			sym_add_warning(tab,
					"%s lists %zu functions but the sled walk finds %zu; "
					"the runtime's __xray_max_function_id() will not match",
					XRAY_IDX_SECTION, n, m->nfns);
		else if (first_bad != SIZE_MAX)
			sym_add_warning(tab,
					"%s entry %zu disagrees with the sled walk; "
					"__xray_function_address() will not match the ids",
					XRAY_IDX_SECTION, first_bad);
		return;
	}
	sym_add_warning(tab, "unrecognised %s layout (not checked)", XRAY_IDX_SECTION);
}

/* ------------------------------------------------------------------------ */

int sym_xray_read(struct elf_file *ef, const char *exe_path, struct xray_map *map, struct xl_symtab *out, char *err,
		  size_t errlen)
{
	struct reloc_map rm = {0};
	int rc = XL_OK;

	/* locate the XRay sections */
	Elf_Scn *scn = NULL;
	Elf_Scn *idx_scn = NULL;
	GElf_Shdr idx_sh = {0};
	while ((scn = elf_nextscn(ef->elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) == NULL)
			continue;
		const char *nm = sym_scn_name(ef, &sh);
		if (nm == NULL)
			continue;
		if (strcmp(nm, XRAY_MAP_SECTION) == 0) {
			if (map->present) {
				sym_seterr(err, errlen, "%s: more than one %s section", exe_path, XRAY_MAP_SECTION);
				rc = XL_EFORMAT;
				goto out;
			}
			if (sh.sh_type == SHT_NOBITS) {
				sym_seterr(err, errlen, "%s: %s has no contents (a debug-only file?)", exe_path,
					   XRAY_MAP_SECTION);
				rc = XL_EFORMAT;
				goto out;
			}
			Elf_Data *d = elf_getdata(scn, NULL);
			if (sh.sh_size > 0 && (d == NULL || d->d_buf == NULL || d->d_size != sh.sh_size)) {
				sym_seterr(err, errlen, "%s: cannot read %s: %s", exe_path, XRAY_MAP_SECTION,
					   elf_errmsg(-1));
				rc = XL_EFORMAT;
				goto out;
			}
			map->present = true;
			map->vaddr = sh.sh_addr;
			map->buf = d != NULL ? d->d_buf : NULL;
			map->size = sh.sh_size;
		} else if (strcmp(nm, XRAY_IDX_SECTION) == 0 && sh.sh_type != SHT_NOBITS) {
			idx_scn = scn;
			idx_sh = sh;
		}
	}

	if (map->present && map->size > 0) {
		struct vrange rg[2] = {{map->vaddr, map->vaddr + map->size}, {0, 0}};
		size_t nrg = 1;
		if (idx_scn != NULL)
			rg[nrg++] = (struct vrange){idx_sh.sh_addr, idx_sh.sh_addr + idx_sh.sh_size};
		if (collect_relocs(ef, rg, nrg, &rm) != 0) {
			sym_seterr(err, errlen, "%s: out of memory", exe_path);
			rc = XL_ENOMEM;
			goto out;
		}
		rc = walk_sleds(ef, exe_path, map, &rm, err, errlen);
		if (rc != XL_OK)
			goto out;
		out->sleds = map->nsleds;
		out->sled_version = map->max_version;
		if (idx_scn != NULL) {
			Elf_Data *d = elf_getdata(idx_scn, NULL);
			if (d != NULL && d->d_buf != NULL && d->d_size == idx_sh.sh_size)
				check_fn_idx(ef, map, idx_sh.sh_addr, d->d_buf, d->d_size, &rm, out);
			else
				sym_add_warning(out, "cannot read %s", XRAY_IDX_SECTION);
		}
	}

out:
	free(rm.r);
	return rc;
}

void sym_xray_release(struct xray_map *map)
{
	free(map->fns);
	memset(map, 0, sizeof *map);
}
