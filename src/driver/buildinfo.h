/*
 * buildinfo.h - the two sidecar files that go with an executable built
 * for profiling: OUT.profile.json (how it was built: this file's format)
 * and OUT.symbols.json (XRay function id -> name, file, line: written
 * through symbols.h, sym_sidecar.c).  Both carry the executable's GNU
 * build id, which `profile exec` checks against the executable.
 *
 * Written by `exaloop --profile build` (cmd_build.c) and by the compiler
 * wrappers when they link an executable (cmd_cc.c).
 */
#ifndef XL_BUILDINFO_H
#define XL_BUILDINFO_H

#include <stddef.h>
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
 * Returns XL_OK, or with a one-line message in err: XL_EBUILD (exe's
 * symbols cannot be read), XL_EIO (a sidecar cannot be written). */
int xl_sidecars_write(const char *exe, const struct xl_sidecar *sc, char *err, size_t errlen);

/* What `profile exec` needs from exe.profile.json. */
struct xl_sidecar_info {
	uint32_t mode; /* XL_MODE_* the executable was built for */
	char build_id[XL_BUILD_ID_HEX_SIZE];
	char **untraced_libs; /* NULL-terminated, or NULL when there are none */
};

/* Read exe.profile.json (a regular file only: a FIFO there must not hang
 * exaloop).  XL_OK, or XL_ENOENT (there is none), XL_EFORMAT or XL_ENOMEM
 * with a one-line message in err saying what is wrong; on failure *info
 * is empty. */
int xl_sidecar_read(const char *exe, struct xl_sidecar_info *info, char *err, size_t errlen);
void xl_sidecar_info_release(struct xl_sidecar_info *info);

#endif
