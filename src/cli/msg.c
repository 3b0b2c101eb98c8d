/*
 * msg.c - message helpers (see msg.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "msg.h"

static int quiet;

void xl_msg_quiet(int q)
{
	quiet = q;
}

static const char *const prefix[] = {
	[XL_MSG_ERROR] = "exaloop: error: ",
	[XL_MSG_WARN] = "exaloop: warning: ",
	[XL_MSG_NOTE] = "exaloop: ",
	[XL_MSG_HINT] = "hint: ",
};

/* One line, whatever the message quotes: control characters (a newline
 * in a path or an argument) are written \xNN. */
static void put(void *arg, enum xl_msg_level level, const char *text)
{
	(void)arg;
	if (level == XL_MSG_TEXT) {
		fputs(text, stderr);
		return;
	}
	if (quiet && level != XL_MSG_ERROR)
		return;
	fputs(prefix[level], stderr);
	for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
		if (*c < 0x20 || *c == 0x7f)
			fprintf(stderr, "\\x%02x", *c);
		else
			fputc(*c, stderr);
	}
	fputc('\n', stderr);
}

const struct xl_msgs xl_stderr_msgs = {put, NULL};

/* The message is formatted first (xl_vmsgf), so that a path quoted with
 * %s is escaped too. */
__attribute__((format(printf, 2, 0))) static void vmsg(enum xl_msg_level level, const char *fmt, va_list ap)
{
	if (quiet && level != XL_MSG_ERROR)
		return;
	xl_vmsgf(&xl_stderr_msgs, level, fmt, ap);
}

void xl_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(XL_MSG_ERROR, fmt, ap);
	va_end(ap);
}

void xl_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(XL_MSG_WARN, fmt, ap);
	va_end(ap);
}

void xl_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(XL_MSG_NOTE, fmt, ap);
	va_end(ap);
}

void xl_hint(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(XL_MSG_HINT, fmt, ap);
	va_end(ap);
}
