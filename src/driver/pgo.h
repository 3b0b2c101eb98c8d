/*
 * pgo.h - clang's instrumentation PGO as exaloop uses it: the tools it
 * needs (llvm-profdata, the profile runtime), merging raw profiles, what a
 * profile holds, and clang's diagnostics about a profile summarised as one
 * line each (pgo_diag.h).  Commands: cmd_pgo.c (train, evaluate);
 * `build`/`run --pgo` go through srcbuild.c.
 */
#ifndef XL_PGO_H
#define XL_PGO_H

#include <stddef.h>

#include "xl_msgs.h"

/* Find llvm-profdata ("llvm-profdata-14", then "llvm-profdata").  Returns 0
 * and fills path, or -1. */
int xl_find_profdata(char *path, size_t len);

/* The compiler, llvm-profdata and clang's profile runtime (training
 * builds need it).  Returns XL_OK, or XL_EBUILD after an error naming what
 * is missing and a hint naming what to install (m).  cc/profdata may be
 * NULL. */
int xl_pgo_tools(char *cc, size_t cclen, char *profdata, size_t plen, const struct xl_msgs *m);

/* Merge the raw profiles (NULL-terminated) into out, atomically.  Returns
 * XL_OK, or an XL_E* code with a one-line message in err. */
int xl_pgo_merge(const char *profdata, char *const *raw, const char *out, char *err, size_t errlen);

/* Functions in a profile, and how many have a nonzero entry count.
 * Returns 0, or -1 when llvm-profdata cannot read it. */
int xl_pgo_functions(const char *profdata, const char *profile, long *total, long *counted);

#endif
