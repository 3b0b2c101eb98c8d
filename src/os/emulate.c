/*
 * emulate.c - running an executable built for another architecture
 * (emulate.h).
 *
 * Only the ELF header's e_machine is read.  The binfmt_misc entry that
 * Debian's qemu-user-binfmt installs is named after the emulator
 * (qemu-aarch64); the kernel uses it only when binfmt_misc is mounted and
 * both the entry and binfmt_misc itself say "enabled".
 */
#define _GNU_SOURCE
#include <elf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emulate.h"
#include "process.h"
#include "xl_array.h"

static const struct {
	unsigned machine;
	const char *arch;
	const char *qemu;          /* qemu-user's binary for it */
	const char *loader;        /* the multiarch dynamic loader */
	const char *cross_sysroot; /* Debian's cross libc, for -L */
} machines[] = {
	{EM_X86_64, "x86_64", "qemu-x86_64", "/lib64/ld-linux-x86-64.so.2", "/usr/x86_64-linux-gnu"},
	{EM_AARCH64, "aarch64", "qemu-aarch64", "/lib/ld-linux-aarch64.so.1", "/usr/aarch64-linux-gnu"},
};

static int elf_machine(const char *exe)
{
	FILE *f = fopen(exe, "rb");
	if (!f)
		return -1;
	unsigned char h[20];
	size_t n = fread(h, 1, sizeof(h), f);
	fclose(f);
	if (n < sizeof(h) || memcmp(h, ELFMAG, SELFMAG) != 0 || h[EI_DATA] != ELFDATA2LSB)
		return -1;
	return h[18] | h[19] << 8;
}

const char *xl_elf_arch(const char *exe)
{
	int m = elf_machine(exe);
	if (m < 0)
		return NULL;
	for (size_t i = 0; i < XL_ARRAY_SIZE(machines); i++)
		if ((int)machines[i].machine == m)
			return machines[i].arch;
	return "other";
}

/* Whether a binfmt_misc file's first line is "enabled". */
static int says_enabled(const char *path)
{
	char line[32] = "";
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	int ok = fgets(line, sizeof(line), f) && strncmp(line, "enabled", 7) == 0;
	fclose(f);
	return ok;
}

/* EXALOOP_QEMU=always: through qemu even where binfmt_misc would run the
 * program (a binfmt entry for another emulator, or a test of this path). */
static int kernel_runs(const char *qemu)
{
	const char *force = getenv("EXALOOP_QEMU");
	if (force && strcmp(force, "always") == 0)
		return 0;
	char entry[PATH_MAX];
	snprintf(entry, sizeof(entry), "/proc/sys/fs/binfmt_misc/%s", qemu);
	return says_enabled("/proc/sys/fs/binfmt_misc/status") && says_enabled(entry);
}

int xl_emulator_argv(const char *exe, struct strvec *argv, char *err, size_t errlen)
{
#if defined(__aarch64__)
	const unsigned host = EM_AARCH64;
#elif defined(__x86_64__)
	const unsigned host = EM_X86_64;
#else
#error "exaloop runs on x86-64 and AArch64"
#endif
	int m = elf_machine(exe);
	for (size_t i = 0; m >= 0 && (unsigned)m != host && i < XL_ARRAY_SIZE(machines); i++) {
		if ((int)machines[i].machine != m || kernel_runs(machines[i].qemu))
			continue;
		char qemu[PATH_MAX], loader[PATH_MAX];
		if (xl_which(machines[i].qemu, qemu, sizeof(qemu)) != 0) {
			snprintf(err, errlen,
				 "'%s' is an %s program and needs '%s' to run here (apt-get install qemu-user)", exe,
				 machines[i].arch, machines[i].qemu);
			return -1;
		}
		strvec_push(argv, qemu);
		snprintf(loader, sizeof(loader), "%s%s", machines[i].cross_sysroot, machines[i].loader);
		if (access(machines[i].loader, R_OK) != 0 && access(loader, R_OK) == 0) {
			strvec_push(argv, "-L");
			strvec_push(argv, machines[i].cross_sysroot);
		}
	}
	return 0;
}
