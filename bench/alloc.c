/*
 * alloc.c - allocation-heavy workload (issue 16): a churn of heap blocks
 * through a ring of 4096 live ones, each round freeing the oldest and
 * allocating a new block of 16..271 bytes, with a malloc/realloc/free mix
 * (one round in eight reallocates a neighbour too): about 10,600,000
 * allocation calls and as many frees for the default 10,000,000 rounds, on
 * two call paths.
 *
 * Usage: alloc [ROUNDS]   (default 10000000)
 * Prints "allocs=N checksum=C ns_per_alloc=X" (X: the loop's wall time per
 * allocation, clock_gettime, for a first look; bench/alloc.sh times the
 * whole process).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RING 4096u
#define KEEP(p) __asm__ __volatile__("" : "+r"(p))

static void *ring[RING];
static unsigned long calls; /* allocation calls made (malloc and realloc) */

static __attribute__((noinline)) void *make_block(size_t n)
{
	unsigned char *p = malloc(n);
	KEEP(p);
	calls++;
	p[0] = (unsigned char)n;
	return p;
}

static __attribute__((noinline)) void *grow_block(void *p, size_t n)
{
	unsigned char *q = realloc(p, n);
	KEEP(q);
	calls++;
	q[0] = (unsigned char)n;
	return q;
}

static __attribute__((noinline)) unsigned long churn(unsigned long rounds)
{
	unsigned long sum = 0;
	for (unsigned long i = 0; i < rounds; i++) {
		unsigned slot = (unsigned)(i * 2654435761u) % RING;
		if (ring[slot]) {
			sum += *(unsigned char *)ring[slot];
			free(ring[slot]);
		}
		size_t n = 16 + (i * 7919u) % 256u;
		ring[slot] = (i & 7) == 7 && ring[(slot + 1) % RING] ? NULL : make_block(n);
		if (!ring[slot]) { /* one in eight: a realloc of the neighbour, then a new block */
			ring[(slot + 1) % RING] = grow_block(ring[(slot + 1) % RING], n + 8);
			ring[slot] = make_block(n);
			i++;
		}
	}
	return sum;
}

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 10) : 10000000ul;
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	unsigned long sum = churn(rounds);
	clock_gettime(CLOCK_MONOTONIC, &b);
	for (unsigned i = 0; i < RING; i++)
		free(ring[i]);
	double ns = (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
	printf("allocs=%lu checksum=%lu ns_per_alloc=%.1f\n", calls, sum, ns / (double)calls);
	return 0;
}
