/*
 * fib.c - the call-heavy benchmark workload: naive recursive Fibonacci.
 *
 * Usage:  fib [N]   (default 32, 0..40)
 * Stdout: "fib(N) = F(N) calls=C"
 *
 * Instrumented calls: fib 2*F(N+1) - 1 plus main, so N=32 gives
 * 7,049,155 + 1 = 7,049,156 (the research figure).  The empty asm barrier on
 * the sum stops clang and gcc from turning half the calls into a loop
 * (accumulator tail-recursion elimination), so every build makes the same
 * calls.  The program prints its own count so the bench can check it.
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static NOINLINE long fib(int n)
{
	long r;
	if (n < 2)
		r = n;
	else
		r = fib(n - 1) + fib(n - 2);
	BARRIER(r);
	return r;
}

/* 2*F(n+1) - 1 calls of fib for fib(n), computed without calls to fib. */
static long expected_calls(int n)
{
	long a = 0, b = 1;
	for (int i = 0; i < n + 1; i++) {
		long c = a + b;
		a = b;
		b = c;
	}
	return 2 * a - 1;
}

int main(int argc, char **argv)
{
	int n = 32;
	if (argc > 1) {
		char *end;
		long v = strtol(argv[1], &end, 10);
		if (end == argv[1] || *end || v < 0 || v > 40) {
			fprintf(stderr, "usage: fib [N]   (N = 0..40)\n");
			return 2;
		}
		n = (int)v;
	}
	long r = fib(n);
	printf("fib(%d) = %ld calls=%ld\n", n, r, expected_calls(n) + 1);
	return 0;
}
