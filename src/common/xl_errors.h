/*
 * xl_errors.h - exaloop's one error vocabulary (the libraries' return codes).
 *
 * The symbolizer, the analyzer, the build driver and the common helpers return 0 (XL_OK) or
 * one of these negative codes, with a one-line message of their own in the
 * caller's buffer when there is more to say; they never print.  The CLI
 * turns a code into an exit code (exitcode.h) where it knows the context.
 * New codes go at the end of the list (values are never reused).
 */
#ifndef XL_ERRORS_H
#define XL_ERRORS_H

/* X(name, value, message) */
#define XL_ERRORS(X)                                                                  \
	X(OK, 0, "success")                                                           \
	X(ENOENT, -1, "no such file or capture")                                      \
	X(EIO, -2, "cannot open, read or write a file")                               \
	X(EFORMAT, -3, "malformed: corrupt, truncated or not in the expected format") \
	X(EVERSION, -4, "written by a newer exaloop")                                 \
	X(ENOMEM, -5, "out of memory")                                                \
	X(EINVAL, -6, "invalid argument")                                             \
	X(EBUILD, -7, "the compiler, the linker or the build command failed")         \
	X(EINTR, -8, "interrupted by a signal")                                       \
	X(ENOTFOUND, -9, "program not found")                                         \
	X(ENOEXEC, -10, "program found but could not be run")                         \
	X(ENOPROC, -11, "no such process in the capture")

enum xl_error {
#define XL_ERROR_ENUM(name, value, message) XL_##name = (value),
	XL_ERRORS(XL_ERROR_ENUM)
#undef XL_ERROR_ENUM
};

/* The message of a code ("unknown error" for anything else). */
const char *xl_error_message(int code);

#endif
