/*
 * msg.c - message helpers (see msg.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "msg.h"

static int quiet;

void xl_msg_quiet(int q)
{
	quiet = q;
}

__attribute__((format(printf, 2, 0))) static void emit(const char *prefix, const char *fmt, va_list ap)
{
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void xl_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit("exaloop: error: ", fmt, ap);
	va_end(ap);
}

void xl_warn(const char *fmt, ...)
{
	if (quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	emit("exaloop: warning: ", fmt, ap);
	va_end(ap);
}

void xl_note(const char *fmt, ...)
{
	if (quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	emit("exaloop: ", fmt, ap);
	va_end(ap);
}

void xl_hint(const char *fmt, ...)
{
	if (quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	emit("hint: ", fmt, ap);
	va_end(ap);
}
