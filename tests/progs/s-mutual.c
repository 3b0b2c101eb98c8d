/*
 * s-mutual.c - mutual recursion (is_even / is_odd) with known counts.
 *
 * Usage:   s-mutual [A [B]]       (0..100000, defaults A=10, B=7)
 * Stdout:  "is_even(A)=X is_odd(B)=Y\n"   defaults: "is_even(10)=1 is_odd(7)=1"
 * Exit:    0 (2 for a bad argument)
 *
 * main calls is_even(A) once, then is_odd(B) once. Each call with n > 0 calls the
 * other function with n - 1. The results pass through an asm barrier, so the
 * calls are real calls, not tail calls, even at -O3.
 *
 * Calls (debug -O0 and release -O3 alike; verified with XRay basic mode), defaults A=10, B=7:
 *   main                                          1
 *   main > is_even                                1
 *   main > is_even > is_odd                       1
 *   main > is_even > is_odd > is_even             1
 *   ... alternating, 11 frames deep in total (is_even(10) down to is_even(0))
 *   main > is_odd                                 1
 *   main > is_odd > is_even                       1
 *   ... alternating, 8 frames deep in total (is_odd(7) down to is_even(0))
 *   is_even, all paths   10   (6 from is_even(10): n=10,8,6,4,2,0; 4 from is_odd(7): n=6,4,2,0)
 *   is_odd,  all paths    9   (5 from is_even(10): n=9,7,5,3,1;   4 from is_odd(7): n=7,5,3,1)
 *   In general: the chain from main has A+1 (resp. B+1) frames, each path is called once.
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static NOINLINE int is_odd(int n);

static NOINLINE int is_even(int n)
{
    int r = n == 0 ? 1 : is_odd(n - 1);
    BARRIER(r);
    return r;
}

static NOINLINE int is_odd(int n)
{
    int r = n == 0 ? 0 : is_even(n - 1);
    BARRIER(r);
    return r;
}

static inline __attribute__((always_inline)) int parse(const char *s, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || v < 0 || v > 100000)
        return -1;
    *out = (int)v;
    return 0;
}

int main(int argc, char **argv)
{
    int a = 10, b = 7;
    if ((argc > 1 && parse(argv[1], &a) != 0) || (argc > 2 && parse(argv[2], &b) != 0)) {
        fprintf(stderr, "usage: s-mutual [A [B]]   (0..100000)\n");
        return 2;
    }
    int x = is_even(a);
    int y = is_odd(b);
    printf("is_even(%d)=%d is_odd(%d)=%d\n", a, x, b, y);
    return 0;
}
