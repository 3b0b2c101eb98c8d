/* sym_elf.c - opening an ELF file: header, section names, words, build id. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "sym_internal.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void sym_elf_close(struct elf_file *ef)
{
	if (ef->elf != NULL)
		elf_end(ef->elf);
	if (ef->fd >= 0)
		close(ef->fd);
	ef->elf = NULL;
	ef->fd = -1;
}

int sym_elf_open(const char *path, struct elf_file *ef, char *err, size_t errlen)
{
	memset(ef, 0, sizeof *ef);
	ef->fd = -1;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		sym_seterr(err, errlen, "%s: libelf is out of date", path);
		return XL_EFORMAT;
	}
	ef->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (ef->fd < 0) {
		sym_seterr(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return XL_EIO;
	}
	struct stat st;
	if (fstat(ef->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		sym_seterr(err, errlen, "%s: not a regular file", path);
		sym_elf_close(ef);
		return XL_EIO;
	}
	ef->elf = elf_begin(ef->fd, ELF_C_READ_MMAP, NULL);
	if (ef->elf == NULL || elf_kind(ef->elf) != ELF_K_ELF) {
		sym_seterr(err, errlen, "%s: not an ELF file", path);
		sym_elf_close(ef);
		return XL_EFORMAT;
	}
	if (gelf_getehdr(ef->elf, &ef->eh) == NULL) {
		sym_seterr(err, errlen, "%s: bad ELF header: %s", path, elf_errmsg(-1));
		sym_elf_close(ef);
		return XL_EFORMAT;
	}
	switch (ef->eh.e_ident[EI_CLASS]) {
	case ELFCLASS32: ef->wordsize = 4; break;
	case ELFCLASS64: ef->wordsize = 8; break;
	default:
		sym_seterr(err, errlen, "%s: unknown ELF class", path);
		sym_elf_close(ef);
		return XL_EFORMAT;
	}
	switch (ef->eh.e_ident[EI_DATA]) {
	case ELFDATA2LSB: ef->big_endian = false; break;
	case ELFDATA2MSB: ef->big_endian = true; break;
	default:
		sym_seterr(err, errlen, "%s: unknown ELF byte order", path);
		sym_elf_close(ef);
		return XL_EFORMAT;
	}
	ef->have_shstrndx = elf_getshdrstrndx(ef->elf, &ef->shstrndx) == 0;
	return XL_OK;
}

const char *sym_scn_name(struct elf_file *ef, const GElf_Shdr *sh)
{
	if (!ef->have_shstrndx)
		return NULL;
	return elf_strptr(ef->elf, ef->shstrndx, sh->sh_name);
}

uint64_t sym_rd_word(const unsigned char *p, int w, bool be)
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
	while (off < data->d_size && (next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const char *nm = (const char *)data->d_buf + name_off;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && memcmp(nm, "GNU", 4) == 0) {
			if (nh.n_descsz == 0 || nh.n_descsz > XL_BUILD_ID_MAX_BYTES)
				return 0;
			memcpy(id, (const unsigned char *)data->d_buf + desc_off, nh.n_descsz);
			return nh.n_descsz;
		}
		off = next;
	}
	return 0;
}

size_t sym_find_build_id(struct elf_file *ef, unsigned char *id)
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
		Elf_Data *d = elf_getdata_rawchunk(ef->elf, (int64_t)ph.p_offset, ph.p_filesz,
						   ph.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR);
		if (d == NULL)
			continue;
		size_t n = build_id_in_notes(d, id);
		if (n > 0)
			return n;
	}
	return 0;
}

bool sym_has_debug_info(struct elf_file *ef)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(ef->elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type == SHT_NOBITS)
			continue;
		const char *nm = sym_scn_name(ef, &sh);
		if (nm != NULL && (strcmp(nm, ".debug_info") == 0 || strcmp(nm, ".zdebug_info") == 0))
			return true;
	}
	return false;
}
