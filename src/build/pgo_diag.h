/*
 * pgo_diag.h - the PGO profile of a build (--pgo FILE): checked before the
 * compiler runs, and clang's warnings about it summarised afterwards.
 */
#ifndef XL_PGO_DIAG_H
#define XL_PGO_DIAG_H

/* Is the profile readable?  Returns 0, or -1 after a one-line error. */
int xl_pgo_check_profile(const char *profile);

/* Relay a compile's stderr (saved in log) to exaloop's stderr, replacing
 * clang's profile warnings (out of date, missing) with one line each that
 * counts the functions affected and says what to do. */
void xl_pgo_relay_diagnostics(const char *log, const char *profile);

#endif
