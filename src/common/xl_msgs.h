/*
 * xl_msgs.h - messages a library hands to its caller instead of printing.
 *
 * A library step that has more to say than one error line (the build: a
 * compile's warnings, hints after a failed link, the compiler's own
 * diagnostics relayed) takes a struct xl_msgs from its caller and calls it
 * once per message, in order, as it goes: the caller decides where they go
 * (the CLI prints them to stderr, msg.h; a test can collect them).  The
 * library never prints.
 *
 * A message is one line without a trailing newline, lowercase, without
 * the "exaloop: error: " prefix (the caller adds what its levels need);
 * XL_MSG_TEXT is text from another program, passed on verbatim (newlines
 * included).
 */
#ifndef XL_MSGS_H
#define XL_MSGS_H

#include <stdarg.h>

enum xl_msg_level {
	XL_MSG_ERROR,
	XL_MSG_WARN,
	XL_MSG_NOTE,
	XL_MSG_HINT,
	XL_MSG_TEXT,
};

struct xl_msgs {
	void (*put)(void *arg, enum xl_msg_level level, const char *text);
	void *arg;
};

/* Format a message and hand it to m (m NULL: dropped). */
void xl_msgf(const struct xl_msgs *m, enum xl_msg_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void xl_vmsgf(const struct xl_msgs *m, enum xl_msg_level level, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

#endif
