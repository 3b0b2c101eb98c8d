/* sym_resolve.c - a run's sampled addresses resolved into samples.json
 * (format in symbols.h): the function, line and inline chain of each
 * interrupted instruction, the function of each return address and the
 * function its call called, and the source text of the sampled lines.
 *
 * The executable's addresses are found by its load bias and resolved with
 * its ELF symbols and DWARF (libdw); an address elsewhere by the mapping
 * it is in: the library's symbol tables (.symtab, else .dynsym) at the
 * file-relative address its PT_LOAD segments give, and its soname.  Files
 * that cannot be read leave their addresses with what is known (the
 * library's name, or nothing). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "sym_internal.h"

#include "demangle.h"
#include "fileio.h"
#include "xl_array.h"

#include <dwarf.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* An ELF file sampled addresses fall in. */
struct image {
	char *path;
	int ok; /* opened and read */
	struct elf_file ef;
	struct esyms es;
	struct dwctx dw; /* the executable only */
	struct sym_scopes *sc;
	GElf_Phdr *loads;
	size_t nloads;
	char *soname; /* DT_SONAME, else the file's name */
};

static void image_close(struct image *im)
{
	sym_scopes_free(im->sc);
	if (im->dw.dbg != NULL)
		dwarf_end(im->dw.dbg);
	free(im->dw.fn);
	free(im->dw.cu);
	free(im->es.s);
	free(im->loads);
	free(im->soname);
	free(im->path);
	if (im->ok)
		sym_elf_close(&im->ef);
	memset(im, 0, sizeof(*im));
}

static char *soname_of(struct elf_file *ef, const char *path)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(ef->elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_DYNAMIC || sh.sh_entsize == 0)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		for (size_t i = 0; d != NULL && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Dyn dyn;
			if (gelf_getdyn(d, (int)i, &dyn) == NULL || dyn.d_tag == DT_NULL)
				break;
			const char *n = dyn.d_tag == DT_SONAME ? elf_strptr(ef->elf, sh.sh_link, dyn.d_un.d_val) : NULL;
			if (n != NULL && n[0])
				return strdup(n);
		}
	}
	const char *slash = strrchr(path, '/');
	return strdup(slash ? slash + 1 : path);
}

/* XL_OK (a file that cannot be read is not an error: !im->ok), or
 * XL_ENOMEM. */
static int image_open(struct image *im, const char *path, int dwarf)
{
	memset(im, 0, sizeof(*im));
	im->path = strdup(path);
	if (im->path == NULL)
		return XL_ENOMEM;
	if (path[0] == '[' || sym_elf_open(path, &im->ef, NULL, 0) != XL_OK) { /* [vdso] */
		const char *slash = strrchr(path, '/');
		im->soname = strdup(slash ? slash + 1 : path);
		return im->soname ? XL_OK : XL_ENOMEM;
	}
	im->ok = 1;
	size_t n = 0;
	if (sym_collect_elf_syms(&im->ef, &im->es) != 0 || (im->soname = soname_of(&im->ef, path)) == NULL)
		return XL_ENOMEM;
	if (elf_getphdrnum(im->ef.elf, &n) == 0 && n > 0) {
		im->loads = calloc(n, sizeof(*im->loads));
		if (im->loads == NULL)
			return XL_ENOMEM;
		for (size_t i = 0; i < n; i++)
			if (gelf_getphdr(im->ef.elf, (int)i, &im->loads[im->nloads]) != NULL &&
			    im->loads[im->nloads].p_type == PT_LOAD)
				im->nloads++;
	}
	if (dwarf && sym_has_debug_info(&im->ef)) {
		im->dw.dbg = dwarf_begin_elf(im->ef.elf, DWARF_C_READ, NULL);
		if (im->dw.dbg != NULL) {
			sym_dw_index(&im->dw);
			if ((im->sc = sym_scopes_new(im->dw.dbg)) == NULL)
				return XL_ENOMEM;
		}
		if (im->dw.oom)
			return XL_ENOMEM;
	}
	return XL_OK;
}

/* Is the file-relative address v inside one of the image's segments? */
static int in_image(const struct image *im, uint64_t v)
{
	for (size_t i = 0; i < im->nloads; i++)
		if (v >= im->loads[i].p_vaddr && v - im->loads[i].p_vaddr < im->loads[i].p_memsz)
			return 1;
	return 0;
}

/* The file-relative address of a file offset (a library's mapping). */
static int file_vaddr(const struct image *im, uint64_t off, uint64_t *v)
{
	for (size_t i = 0; i < im->nloads; i++)
		if (off >= im->loads[i].p_offset && off - im->loads[i].p_offset < im->loads[i].p_filesz) {
			*v = off - im->loads[i].p_offset + im->loads[i].p_vaddr;
			return 1;
		}
	return 0;
}

/* The executable's traced functions by entry address. */
struct fid {
	uint64_t addr;
	int32_t id;
};

static int cmp_fid(const void *a, const void *b)
{
	const struct fid *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int32_t id_at(const struct fid *v, size_t n, uint64_t addr)
{
	struct fid key = {addr, 0};
	const struct fid *f = bsearch(&key, v, n, sizeof(*v), cmp_fid);
	return f ? f->id : 0;
}

/* A sampled source line of a traced function. */
struct srcline {
	char *file;
	int line;
};

struct ctx {
	const struct xl_resolve_req *r;
	struct image exe;
	struct image *libs; /* one per mapping path */
	size_t nlibs;
	struct fid *ids;
	size_t nids;
	struct srcline *src;
	size_t nsrc, srccap;
	int oom;
};

static int set_str(json_t *o, const char *key, const char *v)
{
	return v == NULL ? 0 : json_object_set_new(o, key, sym_jstr(v));
}

static int set_demangled(json_t *o, const char *key, const char *linkage)
{
	char *d = linkage ? xl_demangle(linkage) : NULL;
	int rc = set_str(o, key, d ? d : linkage);
	free(d);
	return rc;
}

/* The name of an inlined function's DIE (its abstract origin's). */
static char *inline_name(Dwarf_Die *die)
{
	const char *link = sym_die_linkage_name(die);
	if (link != NULL) {
		char *d = xl_demangle(link);
		return d ? d : strdup(link);
	}
	Dwarf_Attribute at;
	const char *n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &at));
	return strdup(n ? n : "(inlined)");
}

/* The file and line an inlined instance was called from: 0, or -1 out of
 * memory. */
static int call_site(Dwarf_Die *inl, char **file, int *line)
{
	Dwarf_Attribute at;
	Dwarf_Word l = 0;
	if (dwarf_formudata(dwarf_attr(inl, DW_AT_call_line, &at), &l) != 0 || l == 0 || l > INT_MAX)
		return 0;
	const char *dir;
	const char *f = sym_die_file(inl, DW_AT_call_file, &dir);
	if (f == NULL)
		return 0;
	if ((*file = sym_path_join(dir, f)) == NULL)
		return -1;
	*line = (int)l;
	return 0;
}

/* The line of v in its function's own code and the inline chain there:
 * code inlined into the function counts at the outermost call site. */
static void ip_line(struct ctx *c, uint64_t v, json_t *o, int traced)
{
	Dwarf_Die cudie;
	if (c->exe.dw.dbg == NULL || !sym_dw_find_cu(&c->exe.dw, v, &cudie))
		return;
	Dwarf_Die chain[XL_INLINE_MAX];
	int n = sym_inline_chain(c->exe.sc, &cudie, v, chain, XL_INLINE_MAX);
	char *file = NULL;
	int line = 0;
	if (n < 0 || (n > 0 && call_site(&chain[0], &file, &line) != 0))
		c->oom = 1;
	if (line == 0 && sym_line_at(&cudie, v, &file, &line) != 0)
		c->oom = 1;
	json_t *inl = n > 0 ? json_array() : NULL;
	for (int i = 0; i < n && inl != NULL; i++) {
		char *name = inline_name(&chain[i]);
		if (name == NULL || json_array_append_new(inl, sym_jstr(name)) != 0)
			c->oom = 1;
		free(name);
	}
	if (inl != NULL)
		json_object_set_new(o, "inline", inl);
	else if (n > 0)
		c->oom = 1;
	if (file != NULL && line > 0) {
		set_str(o, "file", file);
		json_object_set_new(o, "line", json_integer(line));
		if (traced && xl_grow((void **)&c->src, &c->srccap, c->nsrc + 1, sizeof(*c->src)) == 0) {
			c->src[c->nsrc++] = (struct srcline){file, line};
			return;
		}
	}
	free(file);
}

/* The direct call instruction ending at p + len, of the executable's
 * machine (not this one's: an AArch64 capture is read on x86-64 too): 1
 * and its target as an offset from the return address in *off, or 0 when
 * it is not one. */
static int call_offset(unsigned machine, const unsigned char *p, uint64_t len, int64_t *off)
{
	if (machine == EM_X86_64) { /* e8 rel32 */
		*off = (int32_t)((uint32_t)p[1] | (uint32_t)p[2] << 8 | (uint32_t)p[3] << 16 | (uint32_t)p[4] << 24);
		return p[0] == 0xe8;
	}
	/* AArch64: bl imm26, in words of 4 bytes from the bl itself */
	uint32_t insn = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	*off = ((int64_t)((insn & 0x03ffffffu) << 6) >> 4) - (int64_t)len;
	return (insn & 0xfc000000u) == 0x94000000u;
}

/* The direct call whose return address is v: its target, or 0. */
static uint64_t call_target(struct ctx *c, uint64_t v)
{
	const unsigned machine = c->exe.ef.eh.e_machine;
	if (machine != EM_X86_64 && machine != EM_AARCH64)
		return 0;
	const uint64_t len = machine == EM_X86_64 ? 5 : 4;
	Elf_Scn *scn = NULL;
	while (v >= len && (scn = elf_nextscn(c->exe.ef.elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) == NULL || !(sh.sh_flags & SHF_EXECINSTR) || sh.sh_type != SHT_PROGBITS ||
		    v - len < sh.sh_addr || v > sh.sh_addr + sh.sh_size)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (d == NULL || d->d_buf == NULL || v - sh.sh_addr > d->d_size)
			return 0;
		int64_t off;
		if (!call_offset(machine, (const unsigned char *)d->d_buf + (v - len - sh.sh_addr), len, &off))
			return 0;
		return v + (uint64_t)off;
	}
	return 0;
}

/* The library image an address is in (by the mappings), its
 * file-relative address in *v; NULL when no mapping holds it. */
static struct image *lib_of(struct ctx *c, uint64_t a, uint64_t *v)
{
	const struct xl_resolve_req *r = c->r;
	for (size_t i = 0; i < r->nmaps; i++) {
		const struct xl_addr_map *m = &r->maps[i];
		if (a < m->start || a >= m->end || m->path == NULL)
			continue;
		size_t k = 0;
		while (k < c->nlibs && strcmp(c->libs[k].path, m->path) != 0)
			k++;
		if (k == c->nlibs) {
			struct image *p = realloc(c->libs, (c->nlibs + 1) * sizeof(*p));
			if (p == NULL) {
				c->oom = 1;
				return NULL;
			}
			c->libs = p;
			if (image_open(&c->libs[c->nlibs++], m->path, 0) != XL_OK)
				c->oom = 1;
		}
		struct image *im = &c->libs[k];
		*v = 0;
		if (im->ok && !file_vaddr(im, a - m->start + m->offset, v))
			*v = 0;
		return im;
	}
	return NULL;
}

/* One address: ret 0 for an interrupted instruction, 1 for a return
 * address (whose call is the instruction before it). */
static json_t *resolve_one(struct ctx *c, uint64_t a, int ret)
{
	json_t *o = json_object();
	char hex[24];
	snprintf(hex, sizeof(hex), "0x%" PRIx64, a);
	if (o == NULL || json_object_set_new(o, "addr", json_string(hex)) != 0) {
		json_decref(o);
		return NULL;
	}
	uint64_t v = a - c->r->exe_base;
	if (c->exe.ok && in_image(&c->exe, v)) {
		const struct esym *s = sym_elf_at(&c->exe.es, v - (uint64_t)ret);
		int32_t id = s ? id_at(c->ids, c->nids, s->value) : 0;
		json_object_set_new(o, "func", json_integer(id));
		if (s)
			set_demangled(o, "symbol", s->name);
		if (s && s->runtime) /* the profiler's own code, whatever its name */
			json_object_set_new(o, "runtime", json_true());
		if (ret)
			json_object_set_new(o, "calls", json_integer(id_at(c->ids, c->nids, call_target(c, v))));
		else
			ip_line(c, v, o, id != 0);
		return o;
	}
	json_object_set_new(o, "func", json_integer(0));
	struct image *im = lib_of(c, a, &v);
	if (im != NULL) {
		set_str(o, "library", im->soname);
		const struct esym *s = im->ok && v ? sym_elf_at(&im->es, v - (uint64_t)ret) : NULL;
		if (s)
			set_demangled(o, "symbol", s->name);
	}
	return o;
}

static json_t *resolve_list(struct ctx *c, const uint64_t *addrs, size_t n, int ret)
{
	json_t *a = json_array();
	for (size_t i = 0; a != NULL && i < n; i++) {
		json_t *o = resolve_one(c, addrs[i], ret);
		if (o == NULL || json_array_append_new(a, o) != 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static int cmp_srcline(const void *a, const void *b)
{
	const struct srcline *x = a, *y = b;
	int d = strcmp(x->file, y->file);
	return d ? d : (x->line > y->line) - (x->line < y->line);
}

/* Lines [first, last] of an open file into a JSON array (what exists). */
static json_t *read_lines(FILE *f, int *at, int first, int last)
{
	json_t *a = json_array();
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	while (a != NULL && *at <= last && (len = getline(&buf, &cap, f)) >= 0) {
		int n = (*at)++;
		if (n < first)
			continue;
		if (len > 0 && buf[len - 1] == '\n')
			buf[--len] = '\0';
		if (len > XL_SOURCE_LINE_MAX)
			buf[XL_SOURCE_LINE_MAX] = '\0';
		json_array_append_new(a, sym_jstr(buf));
	}
	free(buf);
	return a;
}

/* The text around the sampled lines, file by file, ranges merged, within
 * XL_SOURCE_MAX_LINES lines in all. */
static json_t *sources(struct ctx *c)
{
	json_t *out = json_array();
	if (out == NULL || !c->r->source)
		return out;
	if (c->nsrc > 1)
		qsort(c->src, c->nsrc, sizeof(*c->src), cmp_srcline);
	size_t budget = XL_SOURCE_MAX_LINES;
	for (size_t i = 0; i < c->nsrc && budget > 0;) {
		size_t end = i;
		while (end < c->nsrc && strcmp(c->src[end].file, c->src[i].file) == 0)
			end++;
		int fd = xl_open_regular(c->src[i].file);
		FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
		if (f == NULL && fd >= 0)
			close(fd);
		int at = 1;
		for (size_t k = i; f != NULL && k < end && budget > 0;) {
			int first = c->src[k].line > XL_SOURCE_CONTEXT ? c->src[k].line - XL_SOURCE_CONTEXT : 1;
			int last = c->src[k].line + XL_SOURCE_CONTEXT;
			while (++k < end && c->src[k].line - XL_SOURCE_CONTEXT <= last + 1)
				last = c->src[k].line + XL_SOURCE_CONTEXT;
			if ((size_t)(last - first + 1) > budget)
				last = first + (int)budget - 1;
			if (first < at) /* overlaps the range before: go on from there */
				first = at;
			json_t *lines = read_lines(f, &at, first, last);
			json_t *o = json_object();
			if (lines != NULL && json_array_size(lines) > 0 && o != NULL) {
				budget -= json_array_size(lines);
				json_object_set_new(o, "file", sym_jstr(c->src[i].file));
				json_object_set_new(o, "first", json_integer(first));
				json_object_set(o, "lines", lines);
				json_array_append(out, o);
			}
			json_decref(o);
			json_decref(lines);
		}
		if (f != NULL)
			fclose(f);
		i = end;
	}
	return out;
}

static int write_doc(FILE *f, const void *arg)
{
	return json_dumpf((json_t *)(uintptr_t)arg, f, JSON_COMPACT) == 0 && fputc('\n', f) != EOF ? 0 : -1;
}

static int prepare(struct ctx *c, const struct xl_resolve_req *r)
{
	int rc = image_open(&c->exe, r->exe, 1);
	if (rc != XL_OK)
		return rc;
	if (r->tab != NULL && r->tab->count > 0) {
		c->ids = calloc(r->tab->count, sizeof(*c->ids));
		if (c->ids == NULL)
			return XL_ENOMEM;
		for (size_t i = 0; i < r->tab->count; i++)
			c->ids[c->nids++] = (struct fid){r->tab->syms[i].addr, r->tab->syms[i].id};
		qsort(c->ids, c->nids, sizeof(*c->ids), cmp_fid);
	}
	return XL_OK;
}

int xl_samples_resolve(const struct xl_resolve_req *r, const char *path, char *err, size_t errlen)
{
	if (err != NULL && errlen > 0)
		err[0] = '\0';
	struct ctx c = {.r = r};
	int rc = prepare(&c, r);
	json_t *root = rc == XL_OK ? json_object() : NULL;
	if (root != NULL) {
		unsigned char id[XL_BUILD_ID_MAX_BYTES];
		size_t n = c.exe.ok ? sym_find_build_id(&c.exe.ef, id) : 0;
		char hex[XL_BUILD_ID_HEX_SIZE] = "";
		for (size_t i = 0; i < n; i++)
			snprintf(hex + 2 * i, 3, "%02x", id[i]);
		json_object_set_new(root, "schema", json_string(XL_SAMPLES_SCHEMA));
		json_object_set_new(root, "build_id", json_string(hex));
		json_t *ips = resolve_list(&c, r->ips, r->nips, 0);
		json_t *rets = resolve_list(&c, r->rets, r->nrets, 1);
		json_t *src = sources(&c);
		if (ips == NULL || rets == NULL || src == NULL || c.oom)
			rc = XL_ENOMEM;
		json_object_set_new(root, "ips", ips ? ips : json_array());
		json_object_set_new(root, "returns", rets ? rets : json_array());
		json_object_set_new(root, "sources", src ? src : json_array());
	} else if (rc == XL_OK) {
		rc = XL_ENOMEM;
	}
	if (rc == XL_OK)
		rc = sym_write_atomic(path, write_doc, root, err, errlen);
	else
		sym_seterr(err, errlen, "%s: out of memory", path);
	json_decref(root);
	for (size_t i = 0; i < c.nsrc; i++)
		free(c.src[i].file);
	free(c.src);
	for (size_t i = 0; i < c.nlibs; i++)
		image_close(&c.libs[i]);
	free(c.libs);
	free(c.ids);
	image_close(&c.exe);
	return rc;
}
