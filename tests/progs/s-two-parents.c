/*
 * s-two-parents.c - one leaf function reached through two call paths.
 *
 * Usage:   s-two-parents          (no arguments)
 * Stdout:  "alpha=12 beta=20\n"
 * Exit:    0
 *
 * Calls (debug -O0 and release -O3 alike; verified with XRay basic mode):
 *   main                   1
 *   main > alpha           1
 *   main > alpha > leaf    3
 *   main > beta            1
 *   main > beta > leaf     5
 *   leaf, all paths        8
 */
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static NOINLINE int leaf(int x)
{
    BARRIER(x);
    return x * 2;
}

static NOINLINE int alpha(void)
{
    int sum = 0;
    for (int i = 0; i < 3; i++)
        sum += leaf(i + 1); /* 2 + 4 + 6 */
    BARRIER(sum);
    return sum;
}

static NOINLINE int beta(void)
{
    int sum = 0;
    for (int i = 0; i < 5; i++)
        sum += leaf(i); /* 0 + 2 + 4 + 6 + 8 */
    BARRIER(sum);
    return sum;
}

int main(void)
{
    int a = alpha();
    int b = beta();
    printf("alpha=%d beta=%d\n", a, b);
    return 0;
}
