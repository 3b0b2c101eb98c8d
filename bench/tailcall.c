/*
 * tailcall.c - the tail-call benchmark workload: a chain of 6-argument
 * indirect tail calls whose target clang keeps in r11.
 *
 * Usage:  tailcall [N]   (default 2000000 steps, 0..100000000)
 * Stdout: "steps=N result=R calls=C"
 *
 * Each step is a function of a 4-entry table (step_a..step_d) that calls
 * salt() and then tail-calls the next step through the table with six
 * arguments: every argument register is taken and salt's result came in
 * rax, so at -O3 clang 14 jumps through r11 right after XRay's tail sled
 * (`jmp *%r11`, as in SQLite's collation callbacks).  The exit events
 * are TAIL events, so this workload measures the tail trampoline, which
 * fib (entry and exit only) does not.
 *
 * Instrumented calls: main 1, N + 1 steps, N salts: C = 2N + 2.
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

typedef long (*step_fn)(long n, long a, long b, long c, long d, long e);
static step_fn const *table;

static NOINLINE long salt(long a)
{
	BARRIER(a);
	return a * 31 + 7;
}

#define STEP(name, k)                                                          \
	static NOINLINE long name(long n, long a, long b, long c, long d, long e) \
	{                                                                      \
		if (n == 0)                                                    \
			return a + b * 3 + c * 5 + d * 7 + e * k;              \
		long x = salt(a);                                              \
		return table[n & 3](n - 1, b, c, d, e ^ k, x);                 \
	}
STEP(step_a, 11)
STEP(step_b, 13)
STEP(step_c, 17)
STEP(step_d, 19)

static step_fn const steps[4] = {step_a, step_b, step_c, step_d};

int main(int argc, char **argv)
{
	long n = 2000000;
	if (argc > 1) {
		char *end;
		n = strtol(argv[1], &end, 10);
		if (end == argv[1] || *end || n < 0 || n > 100000000) {
			fprintf(stderr, "usage: tailcall [N]   (N = 0..100000000)\n");
			return 2;
		}
	}
	step_fn const *t = steps;
	BARRIER(t);     /* keep the calls indirect */
	table = t;
	long r = table[n & 3](n, 1, 2, 3, 4, 5);
	printf("steps=%ld result=%ld calls=%ld\n", n, r, 2 * n + 2);
	return 0;
}
