/*
 * pbw.h - protocol buffer encoding for the Perfetto and pprof exports.
 *
 * A message is built in a growable byte buffer (struct pbw) because a
 * nested message is written as its length, then its bytes: the inner
 * message is encoded first, then copied into its parent with pb_msg().
 * Only the two wire types the export needs: varint (0) and
 * length-delimited (2).  Allocation failure is sticky (oom) and makes
 * pb_put() fail, so a caller checks once per message, not per field.
 */
#ifndef XL_PBW_H
#define XL_PBW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct pbw {
	unsigned char *p;
	size_t len, cap;
	int oom;
};

void pb_init(struct pbw *b);
void pb_free(struct pbw *b);
static inline void pb_reset(struct pbw *b)
{
	b->len = 0;
}

/* A varint field (uint32/uint64/bool/enum; int64 as two's complement). */
void pb_uint(struct pbw *b, uint32_t field, uint64_t v);
/* A length-delimited field: bytes, a string (NULL: left out), a message. */
void pb_bytes(struct pbw *b, uint32_t field, const void *data, size_t n);
void pb_str(struct pbw *b, uint32_t field, const char *s);
void pb_msg(struct pbw *b, uint32_t field, const struct pbw *sub);
/* A packed repeated varint field (proto3's encoding of repeated scalars):
 * one length-delimited field holding v[0..n) as varints. */
void pb_packed(struct pbw *b, uint32_t field, const uint64_t *v, size_t n);
/* Append fields encoded elsewhere (say, the same labels for many samples). */
void pb_append(struct pbw *b, const struct pbw *fields);

/* Write msg to f as field `field` of an enclosing message that is never
 * held in memory (a Trace's packets).  0, or -1 (write error, or msg ran
 * out of memory: errno ENOMEM). */
int pb_put(FILE *f, uint32_t field, const struct pbw *msg);

#endif
