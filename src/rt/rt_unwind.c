/*
 * rt_unwind.c - does this program leave frames without returning?
 *
 * The hot path can keep each open frame's stack pointer and close frames
 * that a C++ exception or a longjmp unwound (rt_hot.c, stale()).  That
 * costs a load, a compare and a store per entry, which a program that
 * never unwinds should not pay.  A dynamically linked executable that
 * throws or jumps calls the C++ runtime's or libc's functions for it
 * through its own dynamic symbol table, so the constructor reads that
 * table from /proc/self/exe once: no such import, no tracking.  Whenever
 * the answer is not certain (a static executable, a file that cannot be
 * read or parsed) tracking stays on.
 *
 * Not on the hot path: open, fstat, mmap and munmap, once, before main.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_internal.h"

/* Imports through which a program unwinds frames it did not return from. */
static const char *const unwinders[] = {
	"__cxa_begin_catch", /* catches: also what the C++ library throws */
	"__cxa_throw",
	"__cxa_rethrow",
	"_Unwind_RaiseException",
	"_Unwind_Resume_or_Rethrow",
	"longjmp",
	"_longjmp",
	"siglongjmp",
	"__longjmp_chk",
	NULL,
};

static int is_unwinder(const char *name, size_t max)
{
	for (const char *const *u = unwinders; *u; u++)
		if (strnlen(name, max) == strlen(*u) && memcmp(name, *u, strlen(*u)) == 0)
			return 1;
	return 0;
}

/* 1 when the ELF image `p` (`size` bytes) imports an unwinder or cannot be
 * judged, 0 when it certainly does not. */
static int image_may_unwind(const unsigned char *p, size_t size)
{
	const Elf64_Ehdr *eh = (const void *)p;
	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > size ||
	    (size - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum)
		return 1;
	const Elf64_Shdr *sh = (const void *)(p + eh->e_shoff);
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_DYNSYM)
			continue;
		const Elf64_Shdr *sym = &sh[i];
		if (sym->sh_link >= eh->e_shnum || sym->sh_entsize != sizeof(Elf64_Sym) || sym->sh_offset > size ||
		    sym->sh_size > size - sym->sh_offset)
			return 1;
		const Elf64_Shdr *str = &sh[sym->sh_link];
		if (str->sh_offset > size || str->sh_size > size - str->sh_offset)
			return 1;
		const Elf64_Sym *s = (const void *)(p + sym->sh_offset);
		const char *names = (const char *)(p + str->sh_offset);
		size_t n = sym->sh_size / sizeof(Elf64_Sym);
		for (size_t k = 0; k < n; k++)
			if (s[k].st_shndx == SHN_UNDEF && s[k].st_name < str->sh_size &&
			    is_unwinder(names + s[k].st_name, str->sh_size - s[k].st_name))
				return 1;
		return 0;
	}
	return 1; /* no dynamic symbols: a static executable, anything may be inside */
}

int rt__program_may_unwind(void)
{
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 1;
	struct stat st;
	int may = 1;
	if (fstat(fd, &st) == 0 && st.st_size > 0) {
		void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p != MAP_FAILED) {
			may = image_may_unwind(p, (size_t)st.st_size);
			munmap(p, (size_t)st.st_size);
		}
	}
	close(fd);
	return may;
}
