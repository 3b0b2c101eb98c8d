/*
 * strbuf.c - growable byte buffer (see strbuf.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

static char empty[1];

void strbuf_init(struct strbuf *sb)
{
	sb->buf = empty;
	sb->len = sb->cap = 0;
	sb->oom = 0;
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->cap)
		free(sb->buf);
	strbuf_init(sb);
}

static int reserve(struct strbuf *sb, size_t extra)
{
	if (sb->len + extra + 1 <= sb->cap)
		return 0;
	size_t ncap = sb->cap ? sb->cap : 64;
	while (ncap < sb->len + extra + 1)
		ncap *= 2;
	char *p = sb->cap ? realloc(sb->buf, ncap) : malloc(ncap);
	if (!p) {
		sb->oom = 1;
		return -1;
	}
	if (!sb->cap)
		p[0] = 0;
	sb->buf = p;
	sb->cap = ncap;
	return 0;
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (reserve(sb, len))
		return;
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = 0;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || reserve(sb, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *p = sb->cap ? sb->buf : calloc(1, 1);
	if (len)
		*len = sb->len;
	strbuf_init(sb);
	return p;
}
