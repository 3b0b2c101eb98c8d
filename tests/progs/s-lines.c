/*
 * s-lines.c - CPU work on known lines in known ratios, for the samples' line view.
 *
 * Usage:   s-lines [N]   (default 30000000: about 1 s of work in all at -O3 here)
 * Stdout:  "lines: x=X y=Y z=Z"   (values of the three dependency chains)
 * Exit:    0 (2 for a bad argument)
 *
 * Every loop below runs the same body (one step of a 64-bit LCG through an asm barrier, so the
 * steps form a chain the compiler can neither vectorise nor fold) on one line of its own, marked
 * LINE_*; the tests find the lines by those markers.
 *   two_loops:    LINE_A runs 3N steps, LINE_B N steps: 3:1, so 75 % and 25 % of two_loops' own
 *                 instruction samples
 *   with_inline:  LINE_C runs N steps in with_inline itself; LINE_D calls step_n, an always_inline
 *                 helper whose loop (LINE_E) runs N steps: with_inline's samples are half at LINE_C,
 *                 half at LINE_D (inlined code counts at its call site), and step_n is an inlined
 *                 function with half of them
 *
 * Calls: main 1, main > two_loops 1, main > with_inline 1 (step_n is inlined: no call of its own).
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))
#define K 6364136223846793005L
#define C 1442695040888963407L

static NOINLINE long two_loops(long n)
{
    long x = 1, y = 2;
    for (long i = 0; i < 3 * n; i++) { x = x * K + C; BARRIER(x); } /* LINE_A */
    for (long i = 0; i < n; i++) { y = y * K + C; BARRIER(y); } /* LINE_B */
    return x ^ y;
}

static inline __attribute__((always_inline)) long step_n(long z, long n)
{
    for (long i = 0; i < n; i++) { z = z * K + C; BARRIER(z); } /* LINE_E */
    return z;
}

static NOINLINE long with_inline(long n)
{
    long z = 3;
    for (long i = 0; i < n; i++) { z = z * K + C; BARRIER(z); } /* LINE_C */
    z = step_n(z, n); /* LINE_D */
    return z;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 30000000L;
    if (n < 1) {
        fprintf(stderr, "usage: s-lines [N]\n");
        return 2;
    }
    long x = two_loops(n);
    long z = with_inline(n);
    printf("lines: x=%ld z=%ld\n", x, z);
    return 0;
}
