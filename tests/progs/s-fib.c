/*
 * s-fib.c - recursive Fibonacci with exactly known call counts.
 *
 * Usage:   s-fib [N]          (N = 0..40, default 20)
 * Stdout:  "fib(N) = F(N)\n"  e.g. "fib(20) = 6765"
 * Exit:    0 (2 for a bad argument)
 *
 * Calls (debug -O0 and release -O3 alike; verified with XRay basic mode):
 *   main                          1
 *   fib, all call paths           2*F(N+1) - 1     N=20: 21891   N=10: 177   N=5: 15
 *     main > fib                  1
 *     fib > fib (recursive)       2*F(N+1) - 2     N=20: 21890
 *   By recursion depth (main > fib is depth 1; each further "> fib" is one deeper):
 *     N=5:  depth 1..5  = 1 2 4 6 2
 *     N=10: depth 1..10 = 1 2 4 8 16 32 52 44 16 2
 *     N=20: depth 1..20 = 1 2 4 8 16 32 64 128 256 512 1024 2026 3632 5020 4760 2942 1152 274 36 2
 *
 * The result goes through an empty asm barrier, so clang cannot turn the
 * recursion into a loop (tail-recursion/accumulator elimination) even at -O3.
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static NOINLINE long fib(int n)
{
    long r;
    if (n < 2) {
        r = n;
    } else {
        r = fib(n - 1) + fib(n - 2);
    }
    BARRIER(r);
    return r;
}

int main(int argc, char **argv)
{
    int n = 20;
    if (argc > 1) {
        char *end;
        long v = strtol(argv[1], &end, 10);
        if (end == argv[1] || *end != '\0' || v < 0 || v > 40) {
            fprintf(stderr, "usage: s-fib [N]   (N = 0..40)\n");
            return 2;
        }
        n = (int)v;
    }
    printf("fib(%d) = %ld\n", n, fib(n));
    return 0;
}
