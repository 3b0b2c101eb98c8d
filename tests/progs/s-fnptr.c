/*
 * s-fnptr.c - calls through a function-pointer table.
 *
 * Usage:   s-fnptr [N]            (N = 0..1000000, default 10)
 * Stdout:  "calls=N result=R\n"   default: "calls=10 result=-8"
 * Exit:    0 (2 for a bad argument)
 *
 * main calls apply(i % 4, ...) for i = 0..N-1. apply() calls ops[op] through a table
 * of four function pointers (op_add, op_sub, op_mul, op_div). The table's address goes
 * through an asm barrier, so the calls stay indirect ("call *...") at -O3, and the
 * result goes through a barrier too, so the indirect call is not a tail call.
 *
 * Calls (debug -O0 and release -O3 alike; verified with XRay basic mode), default N=10:
 *   main                       1
 *   main > apply              10      (N)
 *   main > apply > op_add      3      (i % 4 == 0: ceil(N/4))
 *   main > apply > op_sub      3      (i % 4 == 1)
 *   main > apply > op_mul      2      (i % 4 == 2)
 *   main > apply > op_div      2      (i % 4 == 3)
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

typedef long (*binop)(long, long);

static NOINLINE long op_add(long a, long b) { BARRIER(a); return a + b; }
static NOINLINE long op_sub(long a, long b) { BARRIER(a); return a - b; }
static NOINLINE long op_mul(long a, long b) { BARRIER(a); return a * b; }
static NOINLINE long op_div(long a, long b) { BARRIER(a); return b != 0 ? a / b : a; }

static binop const ops[4] = {op_add, op_sub, op_mul, op_div};

static NOINLINE long apply(int op, long a, long b)
{
    binop const *table = ops;
    BARRIER(table); /* hide the table's contents from the optimiser */
    long r = table[op](a, b);
    BARRIER(r);
    return r;
}

int main(int argc, char **argv)
{
    long n = 10;
    if (argc > 1) {
        char *end;
        n = strtol(argv[1], &end, 10);
        if (end == argv[1] || *end != '\0' || n < 0 || n > 1000000) {
            fprintf(stderr, "usage: s-fnptr [N]   (N = 0..1000000)\n");
            return 2;
        }
    }
    long acc = 1;
    for (long i = 0; i < n; i++)
        acc = apply((int)(i % 4), acc, i % 7 + 1) % 1000003;
    printf("calls=%ld result=%ld\n", n, acc);
    return 0;
}
