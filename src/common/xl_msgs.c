/*
 * xl_msgs.c - see xl_msgs.h.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "xl_msgs.h"

void xl_vmsgf(const struct xl_msgs *m, enum xl_msg_level level, const char *fmt, va_list ap)
{
	if (!m || !m->put)
		return;
	char small[1024], *text = small;
	va_list copy;
	va_copy(copy, ap);
	int n = vsnprintf(small, sizeof(small), fmt, copy);
	va_end(copy);
	/* A long message (a relayed compiler diagnostic, paths) is not cut. */
	if (n >= (int)sizeof(small) && vasprintf(&text, fmt, ap) < 0)
		text = small;
	m->put(m->arg, level, text);
	if (text != small)
		free(text);
}

void xl_msgf(const struct xl_msgs *m, enum xl_msg_level level, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	xl_vmsgf(m, level, fmt, ap);
	va_end(ap);
}
