/*
 * s-inline.c - nested inlining on known lines in known ratios, for the samples' inline chains.
 *
 * Usage:   s-inline [N]   (default 40000000)
 * Stdout:  "inline: x=X"   (the value of the dependency chain)
 * Exit:    0 (2 for a bad argument)
 *
 * host calls outer, always_inline, which calls inner, always_inline too: code inlined two levels
 * deep.  Each loop runs the same body (one step of a 64-bit LCG through an asm barrier) N times
 * on a line of its own, marked LINE_*; the tests find the lines by those markers.
 *   inner's loop (LINE_INNER), outer's own loop (LINE_OUTER) and host's own loop (LINE_HOST):
 *   N steps each, a third of host's own instruction samples each.  Inlined code counts at the
 *   line of host that called it (LINE_CALL): two thirds there, outer in the inline chain of all
 *   of them and inner (as "outer > inner") of half.
 *
 * Calls: main 1, main > host 1 (outer and inner are inlined: no call of their own).
 */
#include <stdio.h>
#include <stdlib.h>

#define AI static inline __attribute__((always_inline))
#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))
#define K 6364136223846793005UL
#define C 1442695040888963407UL

AI unsigned long inner(unsigned long x, long n)
{
    for (long i = 0; i < n; i++) { x = x * K + C; BARRIER(x); } /* LINE_INNER */
    return x;
}

AI unsigned long outer(unsigned long x, long n)
{
    x = inner(x, n); /* LINE_OUTER_CALL */
    for (long i = 0; i < n; i++) { x = x * K + C; BARRIER(x); } /* LINE_OUTER */
    return x;
}

static NOINLINE unsigned long host(long n)
{
    unsigned long x = outer(1, n); /* LINE_CALL */
    for (long i = 0; i < n; i++) { x = x * K + C; BARRIER(x); } /* LINE_HOST */
    return x;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 40000000L;
    if (n < 1) {
        fprintf(stderr, "usage: s-inline [N]\n");
        return 2;
    }
    printf("inline: x=%lu\n", host(n));
    return 0;
}
