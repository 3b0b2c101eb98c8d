/*
 * pgo_diag.h - the PGO profile of a build (--pgo FILE): checked before the
 * compiler runs, and clang's warnings about it summarised afterwards.
 */
#ifndef XL_PGO_DIAG_H
#define XL_PGO_DIAG_H

#include "xl_msgs.h"

/* Is the profile readable?  Returns XL_OK, or XL_EINVAL after an error and
 * a hint (m). */
int xl_pgo_check_profile(const char *profile, const struct xl_msgs *m);

/* Relay a compile's stderr (saved in log) to m (XL_MSG_TEXT), replacing
 * clang's profile warnings (out of date, missing) with one warning each
 * that counts the functions affected and says what to do. */
void xl_pgo_relay_diagnostics(const char *log, const char *profile, const struct xl_msgs *m);

#endif
