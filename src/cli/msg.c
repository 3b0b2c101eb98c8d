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

/* One line, whatever the message quotes: control characters (a newline
 * in a path or an argument) are written \xNN.  The message is formatted
 * first, so that a path quoted with %s is escaped too. */
__attribute__((format(printf, 2, 0))) static void emit(const char *prefix, const char *fmt, va_list ap)
{
	char small[1024];
	va_list copy;
	va_copy(copy, ap);
	int n = vsnprintf(small, sizeof(small), fmt, copy);
	va_end(copy);
	char *text = small;
	if (n >= (int)sizeof(small)) {
		text = malloc((size_t)n + 1);
		if (text)
			vsnprintf(text, (size_t)n + 1, fmt, ap);
		else
			text = small; /* cut, still one line */
	}
	fputs(prefix, stderr);
	for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
		if (*c < 0x20 || *c == 0x7f)
			fprintf(stderr, "\\x%02x", *c);
		else
			fputc(*c, stderr);
	}
	fputc('\n', stderr);
	if (text != small)
		free(text);
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
