/* symbols.c - xl_symbols_read() and the symbol table: see symbols.h for the
 * contract, sym_internal.h for the parts. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "sym_internal.h"

#include "demangle.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	char *d = xl_demangle(name);
	return d != NULL ? d : strdup(name);
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

static int fill_symbol(struct xl_symbol *sym, uint64_t addr, const struct esyms *es, struct dwctx *dw)
{
	Dwarf_Die die;
	bool have_die = dw->dbg != NULL && sym_dw_find_fn(dw, addr, &die);
	const char *link = sym_elf_name_at(es, addr);
	if (link == NULL && have_die) {
		link = sym_die_linkage_name(&die);
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
		const char *f = sym_die_decl_file(&die, &dir);
		if (f != NULL && dwarf_decl_line(&die, &line) == 0 && line > 0) {
			sym->file = sym_path_join(dir, f);
			if (sym->file == NULL)
				return -1;
			sym->line = line;
			return 0;
		}
		Dwarf_Die cudie;
		if (dwarf_diecu(&die, &cudie, NULL, NULL) != NULL)
			return sym_line_at(&cudie, addr, &sym->file, &sym->line);
		return 0;
	}
	Dwarf_Die cudie;
	if (dw->dbg != NULL && sym_dw_find_cu(dw, addr, &cudie))
		return sym_line_at(&cudie, addr, &sym->file, &sym->line);
	return 0;
}

/* DWARF of the file, indexed, into *dw; a file without (readable) DWARF is
 * a warning, not an error.  XL_OK or XL_ENOMEM. */
static int open_dwarf(struct elf_file *ef, struct dwctx *dw, struct xl_symtab *out)
{
	dw->dbg = sym_has_debug_info(ef) ? dwarf_begin_elf(ef->elf, DWARF_C_READ, NULL) : NULL;
	if (dw->dbg == NULL) {
		if (!sym_has_debug_info(ef))
			sym_add_warning(out, "no DWARF debug info: file/line unavailable");
		else
			sym_add_warning(out, "cannot read DWARF (%s): file/line unavailable", dwarf_errmsg(-1));
		return XL_OK;
	}
	sym_dw_index(dw);
	return dw->oom ? XL_ENOMEM : XL_OK;
}

/* out->syms for the functions the sled walk found: names from the symbol
 * tables (or DWARF), files and lines from DWARF.  XL_OK or XL_ENOMEM. */
static int name_functions(struct elf_file *ef, const struct xray_map *map, struct xl_symtab *out)
{
	struct esyms es = {0};
	struct dwctx dw = {0};
	int rc = sym_collect_elf_syms(ef, &es) != 0 ? XL_ENOMEM : open_dwarf(ef, &dw, out);
	if (rc == XL_OK) {
		out->syms = calloc(map->nfns, sizeof *out->syms);
		rc = out->syms ? XL_OK : XL_ENOMEM;
	}
	size_t unnamed = 0;
	if (rc == XL_OK) {
		out->count = map->nfns;
		for (size_t i = 0; i < map->nfns && rc == XL_OK; i++) {
			struct xl_symbol *s = &out->syms[i];
			s->id = (int32_t)(i + 1);
			s->addr = map->fns[i].addr;
			if (fill_symbol(s, s->addr, &es, &dw) != 0)
				rc = XL_ENOMEM;
			else if (s->linkage_name == NULL)
				unnamed++;
		}
	}
	if (rc == XL_OK && unnamed > 0)
		sym_add_warning(out, "%zu function(s) without a symbol name", unnamed);
	if (dw.dbg != NULL)
		dwarf_end(dw.dbg);
	free(dw.fn);
	free(dw.cu);
	free(es.s);
	return rc;
}

int xl_symbols_read(const char *exe_path, struct xl_symtab *out, char *err, size_t errlen)
{
	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (out == NULL) {
		sym_seterr(err, errlen, "xl_symbols_read: no output table");
		return XL_EINVAL;
	}
	memset(out, 0, sizeof *out);
	if (exe_path == NULL) {
		sym_seterr(err, errlen, "xl_symbols_read: no executable path");
		return XL_EINVAL;
	}

	struct elf_file ef;
	int rc = sym_elf_open(exe_path, &ef, err, errlen);
	if (rc != XL_OK)
		return rc;
	struct xray_map map = {0};
	if (ef.eh.e_type != ET_EXEC && ef.eh.e_type != ET_DYN) {
		sym_seterr(err, errlen, "%s: not an executable (ELF type %u%s)", exe_path, (unsigned)ef.eh.e_type,
			   ef.eh.e_type == ET_REL ? ", a relocatable object: link it first" : "");
		rc = XL_EFORMAT;
		goto out;
	}

	unsigned char id[XL_BUILD_ID_MAX_BYTES];
	size_t idlen = sym_find_build_id(&ef, id);
	if (idlen > 0)
		to_hex(id, idlen, out->build_id);

	rc = sym_xray_read(&ef, exe_path, &map, out, err, errlen);
	if (rc == XL_OK && map.nfns > 0)
		rc = name_functions(&ef, &map, out);
	if (rc == XL_OK) {
		char *rp = realpath(exe_path, NULL);
		out->executable = rp != NULL ? rp : strdup(exe_path);
		if (out->executable == NULL)
			rc = XL_ENOMEM;
	}
	if (rc == XL_ENOMEM)
		sym_seterr(err, errlen, "%s: out of memory", exe_path);

out:
	sym_xray_release(&map);
	sym_elf_close(&ef);
	if (rc != XL_OK)
		xl_symtab_release(out);
	return rc;
}

int xl_build_id(const char *exe_path, char *hex, size_t len)
{
	if (hex != NULL && len > 0)
		hex[0] = '\0';
	if (exe_path == NULL || hex == NULL || len == 0)
		return XL_EINVAL;
	struct elf_file ef;
	int rc = sym_elf_open(exe_path, &ef, NULL, 0);
	if (rc != XL_OK)
		return rc;
	unsigned char id[XL_BUILD_ID_MAX_BYTES];
	size_t n = sym_find_build_id(&ef, id);
	sym_elf_close(&ef);
	if (n == 0)
		return 0;
	if (len < 2 * n + 1)
		return XL_EINVAL;
	to_hex(id, n, hex);
	return (int)n;
}

int xl_elf_function(const char *path, const char *name, uint64_t *addr, int *pie)
{
	struct elf_file ef;
	int rc = sym_elf_open(path, &ef, NULL, 0);
	if (rc != XL_OK)
		return rc;
	struct esyms es = {0};
	rc = sym_collect_elf_syms(&ef, &es) == 0 ? XL_ENOENT : XL_ENOMEM;
	for (size_t i = 0; i < es.n && rc == XL_ENOENT; i++) {
		if (strcmp(es.s[i].name, name) == 0) {
			*addr = es.s[i].value;
			rc = XL_OK;
		}
	}
	GElf_Ehdr eh;
	*pie = gelf_getehdr(ef.elf, &eh) != NULL && eh.e_type == ET_DYN;
	free(es.s);
	sym_elf_close(&ef);
	return rc;
}

const struct xl_symbol *xl_symtab_find(const struct xl_symtab *tab, int32_t id)
{
	if (tab == NULL || id <= 0 || (uint64_t)id > tab->count)
		return NULL;
	const struct xl_symbol *s = &tab->syms[id - 1];
	return s->id == id ? s : NULL;
}
