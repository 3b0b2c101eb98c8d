/*
 * pbw.c - protocol buffer encoding (pbw.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pbw.h"

enum {
	WIRE_VARINT = 0,
	WIRE_LEN = 2
};

void pb_init(struct pbw *b)
{
	memset(b, 0, sizeof(*b));
}

void pb_free(struct pbw *b)
{
	free(b->p);
	pb_init(b);
}

static int room(struct pbw *b, size_t n)
{
	if (b->oom)
		return 0;
	if (b->cap - b->len >= n)
		return 1;
	size_t cap = b->cap ? b->cap : 64;
	while (cap - b->len < n) {
		if (cap > SIZE_MAX / 2) {
			b->oom = 1;
			return 0;
		}
		cap *= 2;
	}
	unsigned char *p = realloc(b->p, cap);
	if (!p) {
		b->oom = 1;
		return 0;
	}
	b->p = p;
	b->cap = cap;
	return 1;
}

/* Base-128, least significant group first, high bit = more follows. */
static size_t varint(unsigned char *out, uint64_t v)
{
	size_t n = 0;
	while (v >= 0x80) {
		out[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	out[n++] = (unsigned char)v;
	return n;
}

static void put_varint(struct pbw *b, uint64_t v)
{
	if (room(b, 10))
		b->len += varint(b->p + b->len, v);
}

static void tag(struct pbw *b, uint32_t field, int wire)
{
	put_varint(b, (uint64_t)field << 3 | (uint64_t)wire);
}

void pb_uint(struct pbw *b, uint32_t field, uint64_t v)
{
	tag(b, field, WIRE_VARINT);
	put_varint(b, v);
}

void pb_bytes(struct pbw *b, uint32_t field, const void *data, size_t n)
{
	tag(b, field, WIRE_LEN);
	put_varint(b, n);
	if (n && room(b, n)) {
		memcpy(b->p + b->len, data, n);
		b->len += n;
	}
}

void pb_str(struct pbw *b, uint32_t field, const char *s)
{
	if (s)
		pb_bytes(b, field, s, strlen(s));
}

void pb_msg(struct pbw *b, uint32_t field, const struct pbw *sub)
{
	if (sub->oom)
		b->oom = 1;
	pb_bytes(b, field, sub->p, sub->len);
}

void pb_packed(struct pbw *b, uint32_t field, const uint64_t *v, size_t n)
{
	unsigned char tmp[10];
	size_t len = 0;
	for (size_t i = 0; i < n; i++)
		len += varint(tmp, v[i]);
	tag(b, field, WIRE_LEN);
	put_varint(b, len);
	if (room(b, len))
		for (size_t i = 0; i < n; i++)
			b->len += varint(b->p + b->len, v[i]);
}

void pb_append(struct pbw *b, const struct pbw *fields)
{
	if (fields->oom)
		b->oom = 1;
	if (fields->len && room(b, fields->len)) {
		memcpy(b->p + b->len, fields->p, fields->len);
		b->len += fields->len;
	}
}

int pb_put(FILE *f, uint32_t field, const struct pbw *msg)
{
	if (msg->oom) {
		errno = ENOMEM;
		return -1;
	}
	unsigned char head[20];
	size_t n = varint(head, (uint64_t)field << 3 | WIRE_LEN);
	n += varint(head + n, msg->len);
	if (fwrite(head, 1, n, f) != n || (msg->len && fwrite(msg->p, 1, msg->len, f) != msg->len))
		return -1;
	return 0;
}
