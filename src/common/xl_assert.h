/*
 * xl_assert.h - invariants that are checked in every build.
 *
 * XL_ASSERT(cond) states a precondition or an invariant the code relies on:
 * something only a bug in exaloop can make false (a NULL the caller must
 * not pass, an index past the end, a state that cannot be reached).  It is
 * not for what a user, a file or the system can cause: those are errors
 * (xl_errors.h) that the caller is told about.
 *
 * Unlike assert(), it does not depend on NDEBUG: Release, RelWithDebInfo
 * and the sanitizer builds check it too, so a broken invariant stops the
 * program where it broke instead of corrupting a report later.  When it
 * fails it prints "exaloop: internal error: FILE:LINE: COND" to stderr and
 * aborts.  It is the one place outside the CLI that may print or abort
 * (scripts/check-layers.py knows).  Never in src/rt: the runtime runs inside
 * the profiled program and must not stop it.
 */
#ifndef XL_ASSERT_H
#define XL_ASSERT_H

#define XL_ASSERT(cond) ((cond) ? (void)0 : xl_assert_fail(__FILE__, __LINE__, #cond))

/* Print the message above and abort. */
_Noreturn void xl_assert_fail(const char *file, int line, const char *cond);

#endif
