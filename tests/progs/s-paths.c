/*
 * s-paths.c - a call tree with 4^D distinct call paths (call-tree space tests).
 *
 * Usage:   s-paths [D]                    (D = 1..12, default 8)
 * Stdout:  "depth=D paths=P calls=C\n", P = 4 + 4^2 + ... + 4^D distinct paths below
 *          main, C = P calls (each path is entered exactly once); default
 *          "depth=8 paths=87380 calls=87380"
 * Exit:    0 (2 for a bad argument)
 *
 * Four functions a, b, c, d each call all four (a, b, c, d, in that order) until depth D,
 * so every sequence of D letters is a distinct calling context: a profiler keeps one
 * call-tree node per path, 87,380 of them for D = 8.
 *
 * Calls (debug -O0 and release -O3 alike):
 *   main 1; main > x (x in a..d) 1 each; every path main > x1 > ... > xk (k <= D) 1.
 *   Per function: a, b, c, d each (4 + ... + 4^D) / 4 = 21845 for D = 8.
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static long calls;
static NOINLINE void a(int depth);
static NOINLINE void b(int depth);
static NOINLINE void c(int depth);
static NOINLINE void d(int depth);

static inline __attribute__((always_inline)) void all(int depth)
{
    if (depth <= 0)
        return;
    a(depth - 1);
    b(depth - 1);
    c(depth - 1);
    d(depth - 1);
}

static NOINLINE void a(int depth) { calls++; all(depth); BARRIER(depth); }
static NOINLINE void b(int depth) { calls++; all(depth); BARRIER(depth); }
static NOINLINE void c(int depth) { calls++; all(depth); BARRIER(depth); }
static NOINLINE void d(int depth) { calls++; all(depth); BARRIER(depth); }

int main(int argc, char **argv)
{
    long depth = 8;
    if (argc > 1) {
        char *end;
        depth = strtol(argv[1], &end, 10);
        if (end == argv[1] || *end != '\0' || depth < 1 || depth > 12) {
            fprintf(stderr, "usage: s-paths [D]   (D = 1..12)\n");
            return 2;
        }
    }
    all((int)depth);
    long paths = 0, level = 1;
    for (long i = 0; i < depth; i++) {
        level *= 4;
        paths += level;
    }
    printf("depth=%ld paths=%ld calls=%ld\n", depth, paths, calls);
    return 0;
}
