/*
 * rt_arena.c - block allocation inside the capture file.
 *
 * One atomic add on the header's cursor hands out a block; nothing is ever
 * freed.  A block is usable only when it ends at or below `limit`, so the
 * timeline (limit = timeline_limit) can never eat the space the call trees
 * and memory samples need (limit = file_size).  A failed allocation leaves
 * the cursor past the limit, which only makes later allocations fail too.
 */
#include "rt_internal.h"

RT_NOINSTR struct xl_cap_block *rt__alloc_block(uint32_t kind, uint32_t owner, uint64_t size, uint64_t limit)
{
	size = (size + 63u) & ~(uint64_t)63u; /* keep blocks cache-line aligned */
	_Atomic uint64_t *cursor = (_Atomic uint64_t *)&rt__hdr->arena_cursor;
	uint64_t at = atomic_load_explicit(cursor, memory_order_relaxed);
	do {
		if (at + size > limit)
			return NULL;
	} while (!atomic_compare_exchange_weak_explicit(cursor, &at, at + size, memory_order_relaxed,
							memory_order_relaxed));
	struct xl_cap_block *b = (struct xl_cap_block *)(rt__base + at);
	b->kind = kind;
	b->owner = owner;
	b->size = size;
	b->next = 0;
	b->count = 0;
	b->capacity = 0;
	return b;
}
