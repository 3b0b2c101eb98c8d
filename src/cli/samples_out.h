/*
 * samples_out.h - after a run, the capture's sampled addresses resolved
 * into its samples.json (symbols.h), while the executable and the
 * libraries it ran with are still there, so that a later report needs
 * neither.
 */
#ifndef XL_SAMPLES_OUT_H
#define XL_SAMPLES_OUT_H

#include "symbols.h"

/* Resolve the instruction samples of the capture in dir (and of the
 * forked children's captures in its child-<pid>/ subdirectories, the same
 * executable) with exe and its functions tab; source: embed the sampled
 * lines' text.  Nothing is written for a capture without instruction
 * samples.  A failure is a warning: the report then has no line data. */
void xl_samples_write(const char *dir, const char *exe, const struct xl_symtab *tab, int source);

#endif
