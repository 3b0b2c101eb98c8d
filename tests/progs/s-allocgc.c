/*
 * s-allocgc.c - Boehm GC allocations of known sizes on known call paths,
 * beside malloc.
 *
 * Usage: s-allocgc          stdout: "gc sum 45"   exit 0
 * Build: needs -lgc (libgc-dev)
 *
 * Calls: main 1; main > gc_make 1; main > gc_atomic 1; main > mixed 1.
 * Allocations (calls, bytes):
 *   main > gc_make    10 GC_MALLOC(32)                        10  320  (all GC)
 *   main > gc_atomic   4 GC_MALLOC_ATOMIC(100), one GC_FREE'd   4  400  (all GC)
 *   main > mixed       malloc(64), freed; GC_MALLOC(16)         2   80  (16 GC)
 * Totals: 16 allocations, 800 bytes, 736 of them the collector's; nothing
 * live at exit (the collector's memory never counts as live); 1 GC_free.
 */
#include <gc.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define KEEP(p) __asm__ __volatile__("" : "+r"(p))

static void *roots[16];

NOINLINE static void gc_make(void)
{
	for (int i = 0; i < 10; i++) {
		roots[i] = GC_MALLOC(32);
		KEEP(roots[i]);
	}
}

NOINLINE static void gc_atomic(void)
{
	for (int i = 0; i < 4; i++) {
		roots[10 + i] = GC_MALLOC_ATOMIC(100);
		KEEP(roots[10 + i]);
	}
	GC_FREE(roots[13]);
	roots[13] = NULL;
}

NOINLINE static long mixed(void)
{
	long *p = malloc(64);
	KEEP(p);
	p[0] = 45;
	long s = p[0];
	free(p);
	roots[14] = GC_MALLOC(16);
	KEEP(roots[14]);
	return s;
}

int main(void)
{
	GC_INIT();
	gc_make();
	gc_atomic();
	printf("gc sum %ld\n", mixed());
	return 0;
}
