/* Internals of xl_symbols, shared by its files (not for other modules).
 *
 *   sym_util.c     one-line error messages, warnings, paths
 *   sym_elf.c      opening an ELF file, section names, words, the build id
 *   sym_xray.c     the XRay sections: relocations, the sled walk (function ids)
 *   sym_elfsyms.c  the ELF symbol tables: linkage name at an address
 *   sym_dwarf.c    DWARF: declaring file and line of a function
 *   sym_scopes.c   DWARF: the inline chain at an address
 *   symbols.c      xl_symbols_read() and the table (symbols.h) from the above
 *   sym_sidecar.c  the symbols.json sidecar: writer and validating loader
 *   sym_json.c     what both JSON files use: clean strings, atomic writes
 *   sym_resolve.c  sampled addresses -> function, line, inline chain (samples.json)
 *   sym_samples.c  samples.json's validating loader
 *   demangle.c     C++ names for display (demangle.h, also used by the CLI)
 *
 * Ownership: every struct here owns the arrays it points to, except
 * elf_file's section data (libelf's) and esym names (strings of the ELF
 * file, valid while it is open).  Functions return XL_SYM_* codes or 0/-1
 * where noted, and never print. */
#ifndef EXALOOP_SYMBOLS_SYM_INTERNAL_H
#define EXALOOP_SYMBOLS_SYM_INTERNAL_H

#include "symbols.h"

#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- sym_util.c */

/* err[errlen] = the formatted message, control characters replaced (one line). */
__attribute__((format(printf, 3, 4))) void sym_seterr(char *err, size_t errlen, const char *fmt, ...);
/* Append "; "-separated to tab->warning while it has room. */
__attribute__((format(printf, 2, 3))) void sym_add_warning(struct xl_symtab *tab, const char *fmt, ...);
/* dir/file (file alone when absolute or dir empty), malloc'd; NULL if file is. */
char *sym_path_join(const char *dir, const char *file);

/* ---- sym_json.c */

#include <jansson.h>
#include <stdio.h>

/* A JSON string of s with bytes that are not valid UTF-8 as '?' (null for
 * NULL); NULL out of memory. */
json_t *sym_jstr(const char *s);
/* "0x" followed by 1..16 hex digits into *v. */
bool sym_parse_addr(const char *s, uint64_t *v);
/* The JSON object in the regular file at path, or NULL with *rc (XL_EIO,
 * XL_EFORMAT) and the message. */
json_t *sym_read_object(const char *path, int *rc, char *err, size_t errlen);
/* An optional string member into *dst (strdup): 0 (absent or null:
 * NULL), -1 not a string, -2 out of memory. */
int sym_opt_string(json_t *obj, const char *key, char **dst);
/* An optional integer member 0..max into *dst (absent: *dst unchanged):
 * 0, or -1 for another type or value. */
int sym_opt_uint(json_t *obj, const char *key, json_int_t max, json_int_t *dst);
/* Write path atomically (a new temporary beside it, renamed over it):
 * body writes the contents and returns 0 or -1. */
int sym_write_atomic(const char *path, int (*body)(FILE *f, const void *arg), const void *arg, char *err,
		     size_t errlen);

/* ---- sym_elf.c */

struct elf_file {
	int fd;
	Elf *elf;
	GElf_Ehdr eh;
	size_t shstrndx;
	bool have_shstrndx;
	int wordsize; /* 4 or 8 */
	bool big_endian;
};

int sym_elf_open(const char *path, struct elf_file *ef, char *err, size_t errlen);
void sym_elf_close(struct elf_file *ef);
const char *sym_scn_name(struct elf_file *ef, const GElf_Shdr *sh);
/* A w-byte (4 or 8) word at p in the file's byte order. */
uint64_t sym_rd_word(const unsigned char *p, int w, bool be);
/* The NT_GNU_BUILD_ID bytes into id[XL_BUILD_ID_MAX_BYTES]: their number, 0 if none. */
size_t sym_find_build_id(struct elf_file *ef, unsigned char *id);
/* Does the file carry .debug_info (or .zdebug_info) with contents? */
bool sym_has_debug_info(struct elf_file *ef);

/* ---- sym_xray.c */

struct fn_rec {
	uint64_t addr;
	size_t first; /* index of its first sled */
	size_t nsleds;
};

struct xray_map {
	bool present;
	uint64_t vaddr;           /* section address */
	const unsigned char *buf; /* section bytes */
	size_t size;
	size_t entsize;
	size_t nsleds;
	int max_version;
	struct fn_rec *fns; /* fns[id - 1]: the functions in id order */
	size_t nfns, cap;
};

/* Find the XRay sections and walk the sleds: map->fns in id order, and the
 * informational sleds/sled_version of out, warnings about xray_fn_idx.
 * No xray_instr_map is not an error (map->nfns == 0). */
int sym_xray_read(struct elf_file *ef, const char *path, struct xray_map *map, struct xl_symtab *out, char *err,
		  size_t errlen);
void sym_xray_release(struct xray_map *map);

/* ---- sym_elfsyms.c */

struct esym {
	uint64_t value, size;
	const char *name;
	size_t order; /* position in the symbol table */
	int runtime;  /* a local symbol of one of exaloop's runtime sources
		       * (sym_runtime_file): the profiler's own code */
};

struct esyms {
	struct esym *s;
	size_t n, cap;
};

/* Function symbols of .symtab (else .dynsym), sorted: 0, or -1 out of memory. */
int sym_collect_elf_syms(struct elf_file *ef, struct esyms *es);
/* The function symbol at or around addr (llvm-symbolizer's pick), or NULL. */
const struct esym *sym_elf_at(const struct esyms *es, uint64_t addr);
/* Its linkage name, or NULL. */
const char *sym_elf_name_at(const struct esyms *es, uint64_t addr);

/* ---- sym_dwarf.c */

struct dw_fn {
	uint64_t addr;
	Dwarf_Off off; /* DIE offset in .debug_info */
};

struct dw_cu {
	uint64_t lo, hi;
	Dwarf_Off off; /* CU DIE offset */
};

struct dwctx {
	Dwarf *dbg;
	struct dw_fn *fn;
	size_t nfn, capfn;
	struct dw_cu *cu;
	size_t ncu, capcu;
	bool oom;
};

/* Is pc an address code can have (not 0 or the linker's -1/-2 tombstones
 * for code it dropped)? */
bool sym_plausible_pc(Dwarf_Addr pc);
/* Index the subprograms and compile units of c->dbg (c->oom on failure). */
void sym_dw_index(struct dwctx *c);
bool sym_dw_find_fn(const struct dwctx *c, uint64_t addr, Dwarf_Die *die);
bool sym_dw_find_cu(const struct dwctx *c, uint64_t addr, Dwarf_Die *cudie);
const char *sym_die_linkage_name(Dwarf_Die *die);
const char *sym_die_decl_file(Dwarf_Die *die, const char **comp_dir);
/* The file a file attribute names (DW_AT_decl_file, DW_AT_call_file), or NULL. */
const char *sym_die_file(Dwarf_Die *die, unsigned attr, const char **comp_dir);
/* File and line of addr in the CU's line table: 0 (none found is fine), -1 out of memory. */
int sym_line_at(Dwarf_Die *cudie, uint64_t addr, char **file, int *line);

/* ---- sym_scopes.c */

/* The concrete scopes of a Dwarf's code, read as addresses need them. */
struct sym_scopes;

/* NULL out of memory; dbg stays the caller's. */
struct sym_scopes *sym_scopes_new(Dwarf *dbg);
void sym_scopes_free(struct sym_scopes *s);
/* The inline chain at addr (in the CU of cudie): into chain[0..max) the
 * DW_TAG_inlined_subroutine DIEs of the code inlined there, outermost
 * (inlined into the out-of-line function) first; their number (0: addr is
 * in no inlined code, or in no function the CU describes), or -1 out of
 * memory. */
int sym_inline_chain(struct sym_scopes *s, Dwarf_Die *cudie, uint64_t addr, Dwarf_Die *chain, int max);

#endif
