/* XRay function-id symbolization: see symbols.h for the contract.
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

#include "symbols.h"

#include <dwarf.h>
#include <elf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <jansson.h>
#include <libelf.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The C++ ABI's demangler (libstdc++); declared here to stay a C file. */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

#define XRAY_MAP_SECTION "xray_instr_map"
#define XRAY_IDX_SECTION "xray_fn_idx"
#define MAX_DIE_DEPTH 128

#if JSON_INTEGER_IS_LONG_LONG
#define XL_JSON_INT_MAX LLONG_MAX
#else
#define XL_JSON_INT_MAX LONG_MAX
#endif

/* ------------------------------------------------------------------------ */
/* errors and small helpers */

__attribute__((format(printf, 3, 4)))
static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
	if (err == NULL || errlen == 0)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	/* one line, whatever a path or a parser message contains */
	for (char *p = err; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
}

__attribute__((format(printf, 2, 3)))
static void add_warning(struct xl_symtab *tab, const char *fmt, ...)
{
	size_t used = strlen(tab->warning);
	if (used + 3 >= sizeof tab->warning)
		return;
	if (used > 0) {
		memcpy(tab->warning + used, "; ", 3);
		used += 2;
	}
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(tab->warning + used, sizeof tab->warning - used, fmt, ap);
	va_end(ap);
	for (char *p = tab->warning; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
}

static int grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t ncap = *cap ? *cap : 16;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2 / elem)
			return -1;
		ncap *= 2;
	}
	void *p = realloc(*arr, ncap * elem);
	if (p == NULL)
		return -1;
	*arr = p;
	*cap = ncap;
	return 0;
}

static const char hexdig[] = "0123456789abcdef";

static void to_hex(const unsigned char *b, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = hexdig[b[i] >> 4];
		out[2 * i + 1] = hexdig[b[i] & 15];
	}
	out[2 * n] = '\0';
}

static char *demangle_dup(const char *name)
{
	if (name[0] == '_' && name[1] == 'Z') {
		int status = -1;
		char *d = __cxa_demangle(name, NULL, NULL, &status);
		if (d != NULL && status == 0)
			return d;
		free(d);
	}
	return strdup(name);
}

static char *path_join(const char *dir, const char *file)
{
	if (file == NULL)
		return NULL;
	if (file[0] == '/' || dir == NULL || dir[0] == '\0')
		return strdup(file);
	size_t a = strlen(dir), b = strlen(file);
	char *p = malloc(a + b + 2);
	if (p == NULL)
		return NULL;
	memcpy(p, dir, a);
	size_t n = a;
	if (dir[a - 1] != '/')
		p[n++] = '/';
	memcpy(p + n, file, b + 1);
	return p;
}

/* ------------------------------------------------------------------------ */
/* ELF access */

struct elf_file {
	int fd;
	Elf *elf;
	GElf_Ehdr eh;
	size_t shstrndx;
	bool have_shstrndx;
	int wordsize;      /* 4 or 8 */
	bool big_endian;
};

static void elf_file_close(struct elf_file *ef)
{
	if (ef->elf != NULL)
		elf_end(ef->elf);
	if (ef->fd >= 0)
		close(ef->fd);
	ef->elf = NULL;
	ef->fd = -1;
}

static int elf_file_open(const char *path, struct elf_file *ef, char *err,
			 size_t errlen)
{
	memset(ef, 0, sizeof *ef);
	ef->fd = -1;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		seterr(err, errlen, "%s: libelf is out of date", path);
		return XL_SYM_EFORMAT;
	}
	ef->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (ef->fd < 0) {
		seterr(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return XL_SYM_EIO;
	}
	struct stat st;
	if (fstat(ef->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		seterr(err, errlen, "%s: not a regular file", path);
		elf_file_close(ef);
		return XL_SYM_EIO;
	}
	ef->elf = elf_begin(ef->fd, ELF_C_READ_MMAP, NULL);
	if (ef->elf == NULL || elf_kind(ef->elf) != ELF_K_ELF) {
		seterr(err, errlen, "%s: not an ELF file", path);
		elf_file_close(ef);
		return XL_SYM_EFORMAT;
	}
	if (gelf_getehdr(ef->elf, &ef->eh) == NULL) {
		seterr(err, errlen, "%s: bad ELF header: %s", path, elf_errmsg(-1));
		elf_file_close(ef);
		return XL_SYM_EFORMAT;
	}
	switch (ef->eh.e_ident[EI_CLASS]) {
	case ELFCLASS32: ef->wordsize = 4; break;
	case ELFCLASS64: ef->wordsize = 8; break;
	default:
		seterr(err, errlen, "%s: unknown ELF class", path);
		elf_file_close(ef);
		return XL_SYM_EFORMAT;
	}
	switch (ef->eh.e_ident[EI_DATA]) {
	case ELFDATA2LSB: ef->big_endian = false; break;
	case ELFDATA2MSB: ef->big_endian = true; break;
	default:
		seterr(err, errlen, "%s: unknown ELF byte order", path);
		elf_file_close(ef);
		return XL_SYM_EFORMAT;
	}
	ef->have_shstrndx = elf_getshdrstrndx(ef->elf, &ef->shstrndx) == 0;
	return XL_SYM_OK;
}

static const char *scn_name(struct elf_file *ef, const GElf_Shdr *sh)
{
	if (!ef->have_shstrndx)
		return NULL;
	return elf_strptr(ef->elf, ef->shstrndx, sh->sh_name);
}

static uint64_t rd_word(const unsigned char *p, int w, bool be)
{
	uint64_t v = 0;
	if (be) {
		for (int i = 0; i < w; i++)
			v = (v << 8) | p[i];
	} else {
		for (int i = w - 1; i >= 0; i--)
			v = (v << 8) | p[i];
	}
	return v;
}

/* Notes in one data block; returns the id length when a GNU build id was
 * found (copied to id[]), 0 otherwise. */
static size_t build_id_in_notes(Elf_Data *data, unsigned char *id)
{
	size_t off = 0, next;
	GElf_Nhdr nh;
	size_t name_off, desc_off;
	while (off < data->d_size &&
	       (next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const char *nm = (const char *)data->d_buf + name_off;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    memcmp(nm, "GNU", 4) == 0) {
			if (nh.n_descsz == 0 || nh.n_descsz > XL_BUILD_ID_MAX_BYTES)
				return 0;
			memcpy(id, (const unsigned char *)data->d_buf + desc_off,
			       nh.n_descsz);
			return nh.n_descsz;
		}
		off = next;
	}
	return 0;
}

static size_t find_build_id(struct elf_file *ef, unsigned char *id)
{
	Elf_Scn *scn = NULL;
	bool had_note_sections = false;
	while ((scn = elf_nextscn(ef->elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_NOTE)
			continue;
		had_note_sections = true;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (d == NULL)
			continue;
		size_t n = build_id_in_notes(d, id);
		if (n > 0)
			return n;
	}
	if (had_note_sections)
		return 0;
	/* No section headers (e.g. sstrip'ed): look at the program headers. */
	size_t phnum;
	if (elf_getphdrnum(ef->elf, &phnum) != 0)
		return 0;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(ef->elf, (int)i, &ph) == NULL || ph.p_type != PT_NOTE)
			continue;
		Elf_Data *d = elf_getdata_rawchunk(ef->elf, (int64_t)ph.p_offset,
						   ph.p_filesz,
						   ph.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR);
		if (d == NULL)
			continue;
		size_t n = build_id_in_notes(d, id);
		if (n > 0)
			return n;
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* relocations that target the XRay sections (needed for absolute entries
 * left as 0 in the file, as lld does for PIEs) */

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
	case EM_X86_64:
		return type == R_X86_64_RELATIVE ? 1 : type == R_X86_64_64 ? 2 : 0;
	case EM_386:
		return type == R_386_RELATIVE ? 1 : type == R_386_32 ? 2 : 0;
	case EM_AARCH64:
		return type == R_AARCH64_RELATIVE ? 1 : type == R_AARCH64_ABS64 ? 2 : 0;
	case EM_PPC64:
		return type == R_PPC64_RELATIVE ? 1 : type == R_PPC64_ADDR64 ? 2 : 0;
	default:
		return 0;
	}
}

static int cmp_reloc(const void *a, const void *b)
{
	const struct reloc *x = a, *y = b;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int collect_relocs(struct elf_file *ef, const struct vrange *rg,
			  size_t nrg, struct reloc_map *rm)
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
			int k = reloc_kind(ef->eh.e_machine,
					   (unsigned)GELF_R_TYPE(ra.r_info));
			uint64_t v;
			if (k == 1) {
				v = (uint64_t)ra.r_addend;
			} else if (k == 2) {
				GElf_Sym s;
				size_t si = GELF_R_SYM(ra.r_info);
				if (si == 0 || symd == NULL ||
				    gelf_getsym(symd, (int)si, &s) == NULL)
					continue;
				v = s.st_value + (uint64_t)ra.r_addend;
			} else {
				continue;
			}
			if (grow((void **)&rm->r, &rm->cap, rm->n + 1, sizeof *rm->r))
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

static bool reloc_lookup(const struct reloc_map *rm, uint64_t off, uint64_t *val)
{
	size_t lo = 0, hi = rm->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (rm->r[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < rm->n && rm->r[lo].off == off) {
		*val = rm->r[lo].val;
		return true;
	}
	return false;
}

/* ------------------------------------------------------------------------ */
/* the sled walk */

struct fn_rec {
	uint64_t addr;
	size_t first;   /* index of its first sled */
	size_t nsleds;
};

struct xray_map {
	bool present;
	uint64_t vaddr;            /* section address */
	const unsigned char *buf;  /* section bytes */
	size_t size;
	size_t entsize;
	size_t nsleds;
	int max_version;
	struct fn_rec *fns;
	size_t nfns, cap;
};

static int walk_sleds(struct elf_file *ef, const char *path, struct xray_map *m,
		      const struct reloc_map *rm, char *err, size_t errlen)
{
	int w = ef->wordsize;
	uint64_t mask = w == 8 ? UINT64_MAX : UINT32_MAX;
	m->entsize = (size_t)w * 4;
	if (m->size % m->entsize != 0) {
		seterr(err, errlen,
		       "%s: %s size %zu is not a multiple of the %zu-byte sled entry",
		       path, XRAY_MAP_SECTION, m->size, m->entsize);
		return XL_SYM_EFORMAT;
	}
	m->nsleds = m->size / m->entsize;
	uint64_t cur = 0;
	for (size_t i = 0; i < m->nsleds; i++) {
		const unsigned char *e = m->buf + i * m->entsize;
		uint64_t field = m->vaddr + i * m->entsize;  /* &Address */
		uint64_t f = rd_word(e + w, w, ef->big_endian);
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
			seterr(err, errlen,
			       "%s: %s entry %zu (version %u) has an unresolved function "
			       "address (absolute entry without a relocation)",
			       path, XRAY_MAP_SECTION, i, version);
			return XL_SYM_EFORMAT;
		}
		/* Same rule as compiler-rt's controlPatching(): a new id whenever
		 * the function differs from the previous sled's. */
		if (i == 0 || fn != cur) {
			if (m->nfns >= (size_t)INT32_MAX) {
				seterr(err, errlen, "%s: more than %d XRay functions", path,
				       INT32_MAX);
				return XL_SYM_EFORMAT;
			}
			if (grow((void **)&m->fns, &m->cap, m->nfns + 1, sizeof *m->fns)) {
				seterr(err, errlen, "%s: out of memory", path);
				return XL_SYM_ENOMEM;
			}
			m->fns[m->nfns].addr = fn;
			m->fns[m->nfns].first = i;
			m->fns[m->nfns].nsleds = 0;
			m->nfns++;
			cur = fn;
		}
		m->fns[m->nfns - 1].nsleds++;
	}
	return XL_SYM_OK;
}

/* Compare xray_fn_idx with the walk; differences become a warning. */
static void check_fn_idx(struct elf_file *ef, const struct xray_map *m,
			 uint64_t idx_vaddr, const unsigned char *buf, size_t size,
			 const struct reloc_map *rm, struct xl_symtab *tab)
{
	int w = ef->wordsize;
	uint64_t mask = w == 8 ? UINT64_MAX : UINT32_MAX;
	size_t es = 2 * (size_t)w;
	if (size % es != 0) {
		add_warning(tab, "%s size %zu is not a multiple of %zu", XRAY_IDX_SECTION,
			    size, es);
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
			uint64_t v0 = rd_word(e, w, ef->big_endian);
			uint64_t v1 = rd_word(e + w, w, ef->big_endian);
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
			if (b < map_lo || end > map_hi || end < b ||
			    (b - map_lo) % m->entsize != 0 ||
			    (end - b) % m->entsize != 0) {
				ok = false;
				break;
			}
			size_t bi = (size_t)((b - map_lo) / m->entsize);
			size_t cnt = (size_t)((end - b) / m->entsize);
			if (first_bad == SIZE_MAX &&
			    (k >= m->nfns || m->fns[k].first != bi ||
			     m->fns[k].nsleds != cnt))
				first_bad = k;
		}
		if (!ok)
			continue;
		if (n != m->nfns)
			add_warning(tab,
				    "%s lists %zu functions but the sled walk finds %zu; "
				    "the runtime's __xray_max_function_id() will not match",
				    XRAY_IDX_SECTION, n, m->nfns);
		else if (first_bad != SIZE_MAX)
			add_warning(tab,
				    "%s entry %zu disagrees with the sled walk; "
				    "__xray_function_address() will not match the ids",
				    XRAY_IDX_SECTION, first_bad);
		return;
	}
	add_warning(tab, "unrecognised %s layout (not checked)", XRAY_IDX_SECTION);
}

/* ------------------------------------------------------------------------ */
/* symbol tables */

struct esym {
	uint64_t value, size;
	const char *name;
	size_t order;   /* position in the symbol table */
};

struct esyms {
	struct esym *s;
	size_t n, cap;
};

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

/* Function symbols of .symtab, or of .dynsym when there is no .symtab. */
static int collect_syms(struct elf_file *ef, struct esyms *es)
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
			for (size_t i = 1; i < n; i++) {
				GElf_Sym sym;
				if (gelf_getsym(d, (int)i, &sym) == NULL)
					break;
				int type = GELF_ST_TYPE(sym.st_info);
				if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
				    sym.st_shndx == SHN_UNDEF || sym.st_value == 0)
					continue;
				const char *name = elf_strptr(ef->elf, sh.sh_link, sym.st_name);
				if (name == NULL || name[0] == '\0')
					continue;
				if (grow((void **)&es->s, &es->cap, es->n + 1, sizeof *es->s))
					return -1;
				es->s[es->n].value = sym.st_value;
				es->s[es->n].size = sym.st_size;
				es->s[es->n].name = name;
				es->s[es->n].order = es->n;
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
static const char *sym_for(const struct esyms *es, uint64_t addr)
{
	size_t lo = 0, hi = es->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (es->s[mid].value < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < es->n && es->s[lo].value == addr)
		return es->s[lo].name;
	/* containing symbol: look back a little (nested/overlapping symbols) */
	for (size_t i = lo, steps = 0; i > 0 && steps < 64; i--, steps++) {
		const struct esym *s = &es->s[i - 1];
		if (s->value <= addr && addr - s->value < s->size)
			return s->name;
	}
	return NULL;
}

/* ------------------------------------------------------------------------ */
/* DWARF */

struct dw_fn {
	uint64_t addr;
	Dwarf_Off off;   /* DIE offset in .debug_info */
};

struct dw_cu {
	uint64_t lo, hi;
	Dwarf_Off off;   /* CU DIE offset */
};

struct dwctx {
	Dwarf *dbg;
	struct dw_fn *fn;
	size_t nfn, capfn;
	struct dw_cu *cu;
	size_t ncu, capcu;
	bool oom;
};

static bool plausible_pc(Dwarf_Addr pc)
{
	/* 0 and the -1/-2 tombstones mark code dropped by the linker */
	return pc != 0 && pc < (Dwarf_Addr)-2;
}

static void add_subprogram(struct dwctx *c, Dwarf_Die *die)
{
	Dwarf_Addr pc = 0;
	if (dwarf_entrypc(die, &pc) != 0 || !plausible_pc(pc)) {
		Dwarf_Addr base, start, end;
		ptrdiff_t o = dwarf_ranges(die, 0, &base, &start, &end);
		if (o <= 0 || !plausible_pc(start))
			return;
		pc = start;
	}
	if (grow((void **)&c->fn, &c->capfn, c->nfn + 1, sizeof *c->fn)) {
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
		default:
			break;
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

static void dw_index(struct dwctx *c)
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
			if (!plausible_pc(start) || end <= start)
				continue;
			if (grow((void **)&c->cu, &c->capcu, c->ncu + 1, sizeof *c->cu)) {
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

static bool dw_find_fn(const struct dwctx *c, uint64_t addr, Dwarf_Die *die)
{
	size_t lo = 0, hi = c->nfn;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->fn[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* among several DIEs at addr, take the first that resolves */
	for (; lo < c->nfn && c->fn[lo].addr == addr; lo++)
		if (dwarf_offdie(c->dbg, c->fn[lo].off, die) != NULL)
			return true;
	return false;
}

static bool dw_find_cu(const struct dwctx *c, uint64_t addr, Dwarf_Die *cudie)
{
	/* ranges may overlap or nest: scan back from the last start <= addr */
	size_t lo = 0, hi = c->ncu;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->cu[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo, steps = 0; i > 0 && steps < 64; i--, steps++) {
		const struct dw_cu *r = &c->cu[i - 1];
		if (addr >= r->lo && addr < r->hi)
			return dwarf_offdie(c->dbg, r->off, cudie) != NULL;
	}
	return false;
}

static const char *die_linkage_name(Dwarf_Die *die)
{
	Dwarf_Attribute at;
	const char *s = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &at));
	if (s == NULL)
		s = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &at));
	return s;
}

/* DW_AT_decl_file of die (following abstract_origin/specification), or
 * NULL.  Not dwarf_decl_file(): elfutils 0.188 treats file index 0 as "no
 * file", but in DWARF 5 index 0 is the primary source file, which is what
 * clang 14 records whenever the file was named as compiled (cc foo.c). */
static const char *die_decl_file(Dwarf_Die *die, const char **comp_dir)
{
	Dwarf_Attribute at;
	*comp_dir = NULL;
	Dwarf_Word idx;
	if (dwarf_formudata(dwarf_attr_integrate(die, DW_AT_decl_file, &at), &idx) != 0)
		return NULL;
	Dwarf_Die cudie;
	Dwarf_Half version = 0;
	if (at.cu == NULL ||
	    dwarf_cu_die(at.cu, &cudie, &version, NULL, NULL, NULL, NULL, NULL) == NULL)
		return NULL;
	if (idx == 0 && version < 5)
		return NULL;   /* "no file" before DWARF 5 */
	Dwarf_Files *files;
	size_t nfiles;
	if (dwarf_getsrcfiles(&cudie, &files, &nfiles) != 0 || idx >= nfiles)
		return NULL;
	Dwarf_Attribute cd;
	*comp_dir = dwarf_formstring(dwarf_attr(&cudie, DW_AT_comp_dir, &cd));
	return dwarf_filesrc(files, idx, NULL, NULL);
}

/* file + line of the function at addr from the line table of cudie */
static int line_at(Dwarf_Die *cudie, uint64_t addr, char **file, int *line)
{
	Dwarf_Line *ln = dwarf_getsrc_die(cudie, addr);
	if (ln == NULL)
		return 0;
	int l = 0;
	const char *src = dwarf_linesrc(ln, NULL, NULL);
	if (dwarf_lineno(ln, &l) != 0 || src == NULL)
		return 0;
	Dwarf_Attribute at;
	char *p = path_join(dwarf_formstring(dwarf_attr(cudie, DW_AT_comp_dir, &at)), src);
	if (p == NULL)
		return -1;
	*file = p;
	*line = l > 0 ? l : 0;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* xl_symbols_read */

static bool has_debug_info(struct elf_file *ef)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(ef->elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type == SHT_NOBITS)
			continue;
		const char *nm = scn_name(ef, &sh);
		if (nm != NULL && (strcmp(nm, ".debug_info") == 0 ||
				   strcmp(nm, ".zdebug_info") == 0))
			return true;
	}
	return false;
}

void xl_symtab_release(struct xl_symtab *tab)
{
	if (tab == NULL)
		return;
	for (size_t i = 0; i < tab->count; i++) {
		free(tab->syms[i].name);
		free(tab->syms[i].linkage_name);
		free(tab->syms[i].file);
	}
	free(tab->syms);
	free(tab->executable);
	memset(tab, 0, sizeof *tab);
}

static int fill_symbol(struct xl_symbol *sym, uint64_t addr, const struct esyms *es,
		       struct dwctx *dw)
{
	Dwarf_Die die;
	bool have_die = dw->dbg != NULL && dw_find_fn(dw, addr, &die);
	const char *link = sym_for(es, addr);
	if (link == NULL && have_die) {
		link = die_linkage_name(&die);
		if (link == NULL)
			link = dwarf_diename(&die);
	}

	if (link != NULL) {
		sym->linkage_name = strdup(link);
		sym->name = demangle_dup(link);
		if (sym->linkage_name == NULL || sym->name == NULL)
			return -1;
	} else {
		char buf[32];
		snprintf(buf, sizeof buf, "0x%" PRIx64, addr);
		sym->name = strdup(buf);
		if (sym->name == NULL)
			return -1;
	}

	if (have_die) {
		int line = 0;
		const char *dir;
		const char *f = die_decl_file(&die, &dir);
		if (f != NULL && dwarf_decl_line(&die, &line) == 0 && line > 0) {
			sym->file = path_join(dir, f);
			if (sym->file == NULL)
				return -1;
			sym->line = line;
			return 0;
		}
		Dwarf_Die cudie;
		if (dwarf_diecu(&die, &cudie, NULL, NULL) != NULL)
			return line_at(&cudie, addr, &sym->file, &sym->line);
		return 0;
	}
	Dwarf_Die cudie;
	if (dw->dbg != NULL && dw_find_cu(dw, addr, &cudie))
		return line_at(&cudie, addr, &sym->file, &sym->line);
	return 0;
}

int xl_symbols_read(const char *exe_path, struct xl_symtab *out, char *err,
		    size_t errlen)
{
	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (out == NULL) {
		seterr(err, errlen, "xl_symbols_read: no output table");
		return XL_SYM_EINVAL;
	}
	memset(out, 0, sizeof *out);
	if (exe_path == NULL) {
		seterr(err, errlen, "xl_symbols_read: no executable path");
		return XL_SYM_EINVAL;
	}

	struct elf_file ef;
	int rc = elf_file_open(exe_path, &ef, err, errlen);
	if (rc != XL_SYM_OK)
		return rc;

	struct xray_map map = {0};
	struct reloc_map rm = {0};
	struct esyms es = {0};
	struct dwctx dw = {0};

	if (ef.eh.e_type != ET_EXEC && ef.eh.e_type != ET_DYN) {
		seterr(err, errlen, "%s: not an executable (ELF type %u%s)", exe_path,
		       (unsigned)ef.eh.e_type,
		       ef.eh.e_type == ET_REL ? ", a relocatable object: link it first" : "");
		rc = XL_SYM_EFORMAT;
		goto out;
	}

	unsigned char id[XL_BUILD_ID_MAX_BYTES];
	size_t idlen = find_build_id(&ef, id);
	if (idlen > 0)
		to_hex(id, idlen, out->build_id);

	/* locate the XRay sections */
	Elf_Scn *scn = NULL;
	Elf_Scn *idx_scn = NULL;
	GElf_Shdr idx_sh = {0};
	while ((scn = elf_nextscn(ef.elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) == NULL)
			continue;
		const char *nm = scn_name(&ef, &sh);
		if (nm == NULL)
			continue;
		if (strcmp(nm, XRAY_MAP_SECTION) == 0) {
			if (map.present) {
				seterr(err, errlen, "%s: more than one %s section", exe_path,
				       XRAY_MAP_SECTION);
				rc = XL_SYM_EFORMAT;
				goto out;
			}
			if (sh.sh_type == SHT_NOBITS) {
				seterr(err, errlen, "%s: %s has no contents (a debug-only file?)",
				       exe_path, XRAY_MAP_SECTION);
				rc = XL_SYM_EFORMAT;
				goto out;
			}
			Elf_Data *d = elf_getdata(scn, NULL);
			if (sh.sh_size > 0 && (d == NULL || d->d_buf == NULL ||
					       d->d_size != sh.sh_size)) {
				seterr(err, errlen, "%s: cannot read %s: %s", exe_path,
				       XRAY_MAP_SECTION, elf_errmsg(-1));
				rc = XL_SYM_EFORMAT;
				goto out;
			}
			map.present = true;
			map.vaddr = sh.sh_addr;
			map.buf = d != NULL ? d->d_buf : NULL;
			map.size = sh.sh_size;
		} else if (strcmp(nm, XRAY_IDX_SECTION) == 0 && sh.sh_type != SHT_NOBITS) {
			idx_scn = scn;
			idx_sh = sh;
		}
	}

	if (map.present && map.size > 0) {
		struct vrange rg[2] = {{map.vaddr, map.vaddr + map.size}, {0, 0}};
		size_t nrg = 1;
		if (idx_scn != NULL)
			rg[nrg++] = (struct vrange){idx_sh.sh_addr, idx_sh.sh_addr + idx_sh.sh_size};
		if (collect_relocs(&ef, rg, nrg, &rm) != 0) {
			seterr(err, errlen, "%s: out of memory", exe_path);
			rc = XL_SYM_ENOMEM;
			goto out;
		}
		rc = walk_sleds(&ef, exe_path, &map, &rm, err, errlen);
		if (rc != XL_SYM_OK)
			goto out;
		out->sleds = map.nsleds;
		out->sled_version = map.max_version;
		if (idx_scn != NULL) {
			Elf_Data *d = elf_getdata(idx_scn, NULL);
			if (d != NULL && d->d_buf != NULL && d->d_size == idx_sh.sh_size)
				check_fn_idx(&ef, &map, idx_sh.sh_addr, d->d_buf, d->d_size,
					     &rm, out);
			else
				add_warning(out, "cannot read %s", XRAY_IDX_SECTION);
		}
	}

	if (map.nfns > 0) {
		if (collect_syms(&ef, &es) != 0) {
			seterr(err, errlen, "%s: out of memory", exe_path);
			rc = XL_SYM_ENOMEM;
			goto out;
		}
		dw.dbg = has_debug_info(&ef) ? dwarf_begin_elf(ef.elf, DWARF_C_READ, NULL)
					     : NULL;
		if (dw.dbg == NULL) {
			if (!has_debug_info(&ef))
				add_warning(out, "no DWARF debug info: file/line unavailable");
			else
				add_warning(out, "cannot read DWARF (%s): file/line unavailable",
					    dwarf_errmsg(-1));
		} else {
			dw_index(&dw);
			if (dw.oom) {
				seterr(err, errlen, "%s: out of memory", exe_path);
				rc = XL_SYM_ENOMEM;
				goto out;
			}
		}

		out->syms = calloc(map.nfns, sizeof *out->syms);
		if (out->syms == NULL) {
			seterr(err, errlen, "%s: out of memory", exe_path);
			rc = XL_SYM_ENOMEM;
			goto out;
		}
		out->count = map.nfns;
		size_t unnamed = 0;
		for (size_t i = 0; i < map.nfns; i++) {
			struct xl_symbol *s = &out->syms[i];
			s->id = (int32_t)(i + 1);
			s->addr = map.fns[i].addr;
			if (fill_symbol(s, s->addr, &es, &dw) != 0) {
				seterr(err, errlen, "%s: out of memory", exe_path);
				rc = XL_SYM_ENOMEM;
				goto out;
			}
			if (s->linkage_name == NULL)
				unnamed++;
		}
		if (unnamed > 0)
			add_warning(out, "%zu function(s) without a symbol name", unnamed);
	}

	char *rp = realpath(exe_path, NULL);
	out->executable = rp != NULL ? rp : strdup(exe_path);
	if (out->executable == NULL) {
		seterr(err, errlen, "%s: out of memory", exe_path);
		rc = XL_SYM_ENOMEM;
		goto out;
	}
	rc = XL_SYM_OK;

out:
	if (dw.dbg != NULL)
		dwarf_end(dw.dbg);
	free(dw.fn);
	free(dw.cu);
	free(es.s);
	free(rm.r);
	free(map.fns);
	elf_file_close(&ef);
	if (rc != XL_SYM_OK)
		xl_symtab_release(out);
	return rc;
}

int xl_build_id(const char *exe_path, char *hex, size_t len)
{
	if (hex != NULL && len > 0)
		hex[0] = '\0';
	if (exe_path == NULL || hex == NULL || len == 0)
		return XL_SYM_EINVAL;
	struct elf_file ef;
	int rc = elf_file_open(exe_path, &ef, NULL, 0);
	if (rc != XL_SYM_OK)
		return rc;
	unsigned char id[XL_BUILD_ID_MAX_BYTES];
	size_t n = find_build_id(&ef, id);
	elf_file_close(&ef);
	if (n == 0)
		return 0;
	if (len < 2 * n + 1)
		return XL_SYM_EINVAL;
	to_hex(id, n, hex);
	return (int)n;
}

const struct xl_symbol *xl_symtab_find(const struct xl_symtab *tab, int32_t id)
{
	if (tab == NULL || id <= 0 || (uint64_t)id > tab->count)
		return NULL;
	const struct xl_symbol *s = &tab->syms[id - 1];
	return s->id == id ? s : NULL;
}

/* ------------------------------------------------------------------------ */
/* JSON sidecar */

/* Copy of s with every byte that is not part of valid UTF-8 (as jansson
 * checks it: no overlongs, surrogates or code points > U+10FFFF) as '?'. */
static char *utf8_clean(const char *s)
{
	size_t n = strlen(s);
	char *o = malloc(n + 1);
	if (o == NULL)
		return NULL;
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	while (i < n) {
		unsigned c = p[i];
		size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2
			   : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
		bool ok = len > 0 && i + len <= n;
		if (ok && len > 1) {
			uint32_t cp = c & (0xffu >> (len + 1));
			for (size_t k = 1; k < len; k++) {
				if ((p[i + k] & 0xc0) != 0x80) {
					ok = false;
					break;
				}
				cp = (cp << 6) | (p[i + k] & 0x3f);
			}
			if (ok && ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
				   (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
				   (cp >= 0xd800 && cp <= 0xdfff)))
				ok = false;
		}
		if (ok) {
			memcpy(o + i, p + i, len);
			i += len;
		} else {
			o[i++] = '?';
		}
	}
	o[n] = '\0';
	return o;
}

static json_t *jstr(const char *s)
{
	if (s == NULL)
		return json_null();
	char *c = utf8_clean(s);
	if (c == NULL)
		return NULL;
	json_t *j = json_string(c);
	free(c);
	return j;
}

static int dump_any(FILE *f, json_t *j)
{
	if (j == NULL)
		return -1;
	int rc = json_dumpf(j, f, JSON_ENCODE_ANY);
	json_decref(j);
	return rc;
}

static bool valid_hex_id(const char *s)
{
	size_t n = strlen(s);
	if (n % 2 != 0 || n > 2 * XL_BUILD_ID_MAX_BYTES)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

static int write_body(const struct xl_symtab *tab, FILE *f)
{
	if (fputs("{\"schema\": ", f) < 0 || dump_any(f, jstr(XL_SYMBOLS_SCHEMA)) ||
	    fputs(",\n \"build_id\": ", f) < 0 || dump_any(f, jstr(tab->build_id)) ||
	    fputs(",\n \"executable\": ", f) < 0 || dump_any(f, jstr(tab->executable)))
		return -1;
	if (fprintf(f, ",\n \"xray\": {\"sleds\": %" PRIu64 ", \"sled_version\": %d, "
		    "\"fn_idx\": %" PRIu64 "},\n \"functions\": [",
		    tab->sleds, tab->sled_version, tab->fn_idx) < 0)
		return -1;
	for (size_t i = 0; i < tab->count; i++) {
		const struct xl_symbol *s = &tab->syms[i];
		char addr[24];
		snprintf(addr, sizeof addr, "0x%" PRIx64, s->addr);
		json_t *o = json_object();
		if (o == NULL)
			return -1;
		int bad = json_object_set_new(o, "id", json_integer(s->id));
		bad |= json_object_set_new(o, "addr", json_string(addr));
		bad |= json_object_set_new(o, "name", jstr(s->name));
		bad |= json_object_set_new(o, "linkage_name", jstr(s->linkage_name));
		bad |= json_object_set_new(o, "file", jstr(s->file));
		bad |= json_object_set_new(o, "line", json_integer(s->line));
		if (bad || fputs(i == 0 ? "\n  " : ",\n  ", f) < 0 ||
		    json_dumpf(o, f, 0) != 0) {
			json_decref(o);
			return -1;
		}
		json_decref(o);
	}
	if (fputs(tab->count ? "\n ]}\n" : "]}\n", f) < 0)
		return -1;
	return 0;
}

int xl_symbols_write_json(const struct xl_symtab *tab, const char *path,
			  char *err, size_t errlen)
{
	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (tab == NULL || path == NULL) {
		seterr(err, errlen, "xl_symbols_write_json: missing argument");
		return XL_SYM_EINVAL;
	}
	if (!valid_hex_id(tab->build_id)) {
		seterr(err, errlen, "%s: build id is not lowercase hex", path);
		return XL_SYM_EINVAL;
	}
	for (size_t i = 0; i < tab->count; i++) {
		const struct xl_symbol *s = &tab->syms[i];
		if ((uint64_t)s->id != i + 1 || s->name == NULL || s->name[0] == '\0' ||
		    s->line < 0) {
			seterr(err, errlen, "%s: function table entry %zu is inconsistent "
			       "(ids must be 1..N in order, names non-empty)", path, i);
			return XL_SYM_EINVAL;
		}
	}

	size_t plen = strlen(path);
	char *tmp = malloc(plen + 32);
	if (tmp == NULL) {
		seterr(err, errlen, "%s: out of memory", path);
		return XL_SYM_ENOMEM;
	}
	snprintf(tmp, plen + 32, "%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0666);
	if (fd < 0) {
		seterr(err, errlen, "%s: cannot create: %s", tmp, strerror(errno));
		free(tmp);
		return XL_SYM_EIO;
	}
	FILE *f = fdopen(fd, "w");
	if (f == NULL) {
		seterr(err, errlen, "%s: %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		free(tmp);
		return XL_SYM_EIO;
	}
	int rc = write_body(tab, f);
	int saved = errno;
	if (fflush(f) != 0 && rc == 0) {
		rc = -1;
		saved = errno;
	}
	if (fclose(f) != 0 && rc == 0) {
		rc = -1;
		saved = errno;
	}
	if (rc != 0) {
		seterr(err, errlen, "%s: write failed: %s", tmp,
		       saved ? strerror(saved) : "encoding error");
		unlink(tmp);
		free(tmp);
		return XL_SYM_EIO;
	}
	if (rename(tmp, path) != 0) {
		seterr(err, errlen, "%s: cannot rename into place: %s", path,
		       strerror(errno));
		unlink(tmp);
		free(tmp);
		return XL_SYM_EIO;
	}
	free(tmp);
	return XL_SYM_OK;
}

/* "0x" followed by 1..16 hex digits */
static bool parse_addr(const char *s, uint64_t *v)
{
	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return false;
	s += 2;
	size_t n = 0;
	uint64_t a = 0;
	for (; s[n] != '\0'; n++) {
		char c = s[n];
		unsigned d;
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return false;
		if (n >= 16)
			return false;
		a = (a << 4) | d;
	}
	if (n == 0)
		return false;
	*v = a;
	return true;
}

/* optional string member: absent/null -> NULL; returns -1 on a wrong type */
static int opt_string(json_t *obj, const char *key, char **dst)
{
	json_t *v = json_object_get(obj, key);
	*dst = NULL;
	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return -1;
	*dst = strdup(json_string_value(v));
	return *dst == NULL ? -2 : 0;
}

static int opt_uint(json_t *obj, const char *key, json_int_t max, json_int_t *dst)
{
	json_t *v = json_object_get(obj, key);
	if (v == NULL)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    json_integer_value(v) > max)
		return -1;
	*dst = json_integer_value(v);
	return 0;
}

#define LOADFAIL(code, ...)                                                  \
	do {                                                                 \
		seterr(err, errlen, __VA_ARGS__);                            \
		rc = (code);                                                 \
		goto out;                                                    \
	} while (0)

int xl_symbols_load_json(const char *path, struct xl_symtab *out, char *err,
			 size_t errlen)
{
	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (out == NULL || path == NULL) {
		seterr(err, errlen, "xl_symbols_load_json: missing argument");
		return XL_SYM_EINVAL;
	}
	memset(out, 0, sizeof *out);

	int rc = XL_SYM_OK;
	json_t *root = NULL;
	FILE *f = fopen(path, "rb");
	if (f == NULL) {
		seterr(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return XL_SYM_EIO;
	}
	struct stat st;
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
		fclose(f);
		seterr(err, errlen, "%s: not a regular file", path);
		return XL_SYM_EIO;
	}
	json_error_t je;
	root = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
	fclose(f);
	if (root == NULL)
		LOADFAIL(XL_SYM_EFORMAT, "%s:%d:%d: invalid JSON: %s", path, je.line,
			 je.column, je.text);
	if (!json_is_object(root))
		LOADFAIL(XL_SYM_EFORMAT, "%s: top level is not a JSON object", path);

	json_t *v = json_object_get(root, "schema");
	if (v == NULL)
		LOADFAIL(XL_SYM_EFORMAT, "%s: missing \"schema\"", path);
	if (!json_is_string(v))
		LOADFAIL(XL_SYM_EFORMAT, "%s: \"schema\" is not a string", path);
	if (strcmp(json_string_value(v), XL_SYMBOLS_SCHEMA) != 0)
		LOADFAIL(XL_SYM_EFORMAT, "%s: unsupported schema \"%.64s\" (expected \"%s\")",
			 path, json_string_value(v), XL_SYMBOLS_SCHEMA);

	v = json_object_get(root, "build_id");
	if (v == NULL)
		LOADFAIL(XL_SYM_EFORMAT, "%s: missing \"build_id\"", path);
	if (!json_is_string(v) || !valid_hex_id(json_string_value(v)))
		LOADFAIL(XL_SYM_EFORMAT,
			 "%s: \"build_id\" is not a lowercase hex string of at most %d bytes",
			 path, XL_BUILD_ID_MAX_BYTES);
	strcpy(out->build_id, json_string_value(v));

	int sr = opt_string(root, "executable", &out->executable);
	if (sr == -1)
		LOADFAIL(XL_SYM_EFORMAT, "%s: \"executable\" is not a string or null", path);
	if (sr == -2)
		LOADFAIL(XL_SYM_ENOMEM, "%s: out of memory", path);

	v = json_object_get(root, "xray");
	if (v != NULL) {
		json_int_t sleds = 0, ver = 0, idx = 0;
		if (!json_is_object(v) || opt_uint(v, "sleds", XL_JSON_INT_MAX, &sleds) ||
		    opt_uint(v, "sled_version", 255, &ver) ||
		    opt_uint(v, "fn_idx", XL_JSON_INT_MAX, &idx))
			LOADFAIL(XL_SYM_EFORMAT,
				 "%s: \"xray\" must be an object of non-negative integers "
				 "sleds, sled_version (<= 255), fn_idx", path);
		out->sleds = (uint64_t)sleds;
		out->sled_version = (int)ver;
		out->fn_idx = (uint64_t)idx;
	}

	json_t *fns = json_object_get(root, "functions");
	if (fns == NULL)
		LOADFAIL(XL_SYM_EFORMAT, "%s: missing \"functions\"", path);
	if (!json_is_array(fns))
		LOADFAIL(XL_SYM_EFORMAT, "%s: \"functions\" is not an array", path);
	size_t n = json_array_size(fns);
	if (n > (size_t)INT32_MAX)
		LOADFAIL(XL_SYM_EFORMAT, "%s: too many functions (%zu)", path, n);
	if (n > 0) {
		out->syms = calloc(n, sizeof *out->syms);
		if (out->syms == NULL)
			LOADFAIL(XL_SYM_ENOMEM, "%s: out of memory", path);
	}
	out->count = n;   /* release() walks only filled slots (NULL-safe) */

	for (size_t i = 0; i < n; i++) {
		json_t *o = json_array_get(fns, i);
		if (!json_is_object(o))
			LOADFAIL(XL_SYM_EFORMAT, "%s: functions[%zu] is not an object", path, i);

		v = json_object_get(o, "id");
		if (v == NULL)
			LOADFAIL(XL_SYM_EFORMAT, "%s: functions[%zu]: missing \"id\"", path, i);
		if (!json_is_integer(v))
			LOADFAIL(XL_SYM_EFORMAT, "%s: functions[%zu].id is not an integer", path, i);
		json_int_t id = json_integer_value(v);
		if (id < 1 || (uint64_t)id > n)
			LOADFAIL(XL_SYM_EFORMAT,
				 "%s: functions[%zu].id %" JSON_INTEGER_FORMAT
				 " is out of range 1..%zu", path, i, id, n);
		struct xl_symbol *s = &out->syms[id - 1];
		if (s->id != 0)
			LOADFAIL(XL_SYM_EFORMAT, "%s: functions[%zu]: duplicate id %" JSON_INTEGER_FORMAT,
				 path, i, id);
		s->id = (int32_t)id;

		v = json_object_get(o, "addr");
		if (v == NULL)
			LOADFAIL(XL_SYM_EFORMAT, "%s: functions[%zu]: missing \"addr\"", path, i);
		if (!json_is_string(v) || !parse_addr(json_string_value(v), &s->addr))
			LOADFAIL(XL_SYM_EFORMAT,
				 "%s: functions[%zu].addr is not a \"0x...\" hex string of at most 16 digits",
				 path, i);

		v = json_object_get(o, "name");
		if (v == NULL)
			LOADFAIL(XL_SYM_EFORMAT, "%s: functions[%zu]: missing \"name\"", path, i);
		if (!json_is_string(v) || json_string_length(v) == 0)
			LOADFAIL(XL_SYM_EFORMAT, "%s: functions[%zu].name is not a non-empty string",
				 path, i);
		s->name = strdup(json_string_value(v));
		if (s->name == NULL)
			LOADFAIL(XL_SYM_ENOMEM, "%s: out of memory", path);

		sr = opt_string(o, "linkage_name", &s->linkage_name);
		if (sr == -1)
			LOADFAIL(XL_SYM_EFORMAT, "%s: functions[%zu].linkage_name is not a string or null",
				 path, i);
		if (sr == 0)
			sr = opt_string(o, "file", &s->file);
		if (sr == -1)
			LOADFAIL(XL_SYM_EFORMAT, "%s: functions[%zu].file is not a string or null",
				 path, i);
		if (sr == -2)
			LOADFAIL(XL_SYM_ENOMEM, "%s: out of memory", path);

		json_int_t line = 0;
		if (opt_uint(o, "line", INT_MAX, &line))
			LOADFAIL(XL_SYM_EFORMAT, "%s: functions[%zu].line is not an integer 0..%d",
				 path, i, INT_MAX);
		s->line = (int)line;
	}
	/* n objects, each id in 1..n, no duplicates: every slot is filled */

out:
	json_decref(root);
	if (rc != XL_SYM_OK)
		xl_symtab_release(out);
	return rc;
}
