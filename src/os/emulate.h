/*
 * emulate.h - running an executable built for another architecture.
 *
 * `exaloop --arch aarch64` builds AArch64 programs on an x86-64 machine;
 * `run` and `profile exec` then run them through qemu-user.  Where the
 * kernel already runs them itself (a binfmt_misc entry for the machine,
 * enabled) nothing is added; otherwise, or always with EXALOOP_QEMU=always,
 * the emulator's command goes before the program's.  The emulated program is the same process (same pid),
 * which is what the runtime's capture check needs (xl_capture.h,
 * XL_ENV_PID).
 */
#ifndef XL_EMULATE_H
#define XL_EMULATE_H

#include <stddef.h>

#include "strvec.h"

/* Push onto argv what runs exe on this machine before exe itself: nothing
 * for a native or kernel-handled executable, or `qemu-aarch64` (with
 * `-L /usr/aarch64-linux-gnu` when the AArch64 dynamic loader is not
 * installed as multiarch).  Returns 0, or -1 with one line in err when exe
 * needs an emulator that is not installed. */
int xl_emulator_argv(const char *exe, struct strvec *argv, char *err, size_t errlen);

/* The ELF machine exe is built for ("x86_64", "aarch64", "other"), or NULL
 * when exe is not a readable ELF file. */
const char *xl_elf_arch(const char *exe);

#endif
