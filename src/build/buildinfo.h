/*
 * sidecar.h - the two files that go with an executable built for
 * profiling: OUT.profile.json (how it was built) and OUT.symbols.json
 * (XRay function id -> name, file, line).  Both carry the executable's
 * GNU build id, which `profile exec` checks against the executable.
 *
 * Written by `exaloop --profile build` (cmd_build.c) and by the compiler
 * wrappers when they link an executable (cmd_cc.c).
 */
#ifndef XL_SIDECAR_H
#define XL_SIDECAR_H

#include <stdint.h>

#include "symbols.h"

struct xl_sidecar {
	uint32_t mode;        /* XL_MODE_* */
	int release;          /* 1/0, or -1 when the build's own flags decide (wrappers) */
	const char *built_by; /* "exaloop build", "exaloop cc", ... */
	const char *compiler, *compiler_version;
	const char *sdk_dir;
	const char *const *sources; /* NULL-terminated (or NULL) */
	const char *const *flags;   /* NULL-terminated (or NULL) */
	const char *command;        /* the compiler command line */
	int64_t build_ns;
	int xray_threshold;
	/* Shared libraries of the project the executable loads: clang 14's
	 * XRay runtime cannot patch sleds in shared objects, so their
	 * functions are not traced (the report says so).  NULL-terminated. */
	const char *const *untraced_libs;
};

/* Read exe's symbols and write exe.symbols.json and exe.profile.json.
 * Returns 0, or an exit code (exitcode.h) after printing what failed. */
int xl_sidecars_write(const char *exe, const struct xl_sidecar *sc);

/* What `profile exec` needs from exe.profile.json. */
struct xl_sidecar_info {
	uint32_t mode; /* XL_MODE_* the executable was built for */
	char build_id[XL_BUILD_ID_HEX_SIZE];
	char **untraced_libs; /* NULL-terminated, or NULL when there are none */
};

/* Read exe.profile.json (a regular file only: a FIFO there must not hang
 * exaloop).  0, or -1 after one error line saying what is wrong. */
int xl_sidecar_read(const char *exe, struct xl_sidecar_info *info);
void xl_sidecar_info_release(struct xl_sidecar_info *info);

#endif
