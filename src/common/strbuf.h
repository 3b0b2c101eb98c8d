/*
 * strbuf.h - growable NUL-terminated byte buffer.
 *
 * A strbuf owns `buf`; strbuf_release() frees it and leaves an empty,
 * reusable buffer.  `buf` is never NULL after strbuf_init().  On allocation
 * failure the buffer keeps its old contents and `oom` is set; callers check
 * it once at the end instead of after every append.
 */
#ifndef XL_STRBUF_H
#define XL_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len, cap;
	int oom;
};

void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Take ownership of the buffer out of sb (sb is reset). */
char *strbuf_detach(struct strbuf *sb, size_t *len);

#endif
