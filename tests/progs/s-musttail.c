/*
 * s-musttail.c - a mandatory tail call next to an optional one, for the
 * ARM64 tail-call rules (docs/cli.md, `run`).
 *
 * Usage:   s-musttail             (no arguments)
 * Stdout:  "musttail=45 relay=9\n"
 * Exit:    0
 *
 * hop() ends with a `musttail` return of leaf(): clang keeps it a tail
 * call at every optimisation level. relay() ends with an ordinary
 * "return middle(x * 2);", a tail call at -O2/-O3 only. main calls hop(i)
 * for i = 0..4 and relay(i) for i = 0..2.
 *
 * Calls, XRay builds with the ARM64 tail-call workaround (AArch64, or
 * EXALOOP_XRAY_TAILCALL_WORKAROUND=1), debug and release: hop is not
 * traced (excluded, with a warning); relay's call to middle is an
 * ordinary call
 *   main                              1
 *   main > leaf                       5   (hop's time is main's)
 *   main > relay                      3
 *   main > relay > middle             3
 *
 * Calls without the workaround, release (-O3): both are TAIL exits
 *   main                              1
 *   main > hop                        5
 *   main > leaf                       5
 *   main > relay                      3
 *   main > middle                     3
 * (debug: the same, but main > relay > middle 3.)
 */
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static NOINLINE long leaf(long x)
{
	BARRIER(x);
	return x * 3;
}

static NOINLINE long hop(long x)
{
	BARRIER(x);
	__attribute__((musttail)) return leaf(x + 1);
}

static NOINLINE long middle(long x)
{
	BARRIER(x);
	return x + 1;
}

static NOINLINE long relay(long x)
{
	BARRIER(x);
	return middle(x * 2);
}

int main(void)
{
	long a = 0, b = 0;
	for (long i = 0; i < 5; i++)
		a += hop(i);
	for (long i = 0; i < 3; i++)
		b += relay(i);
	printf("musttail=%ld relay=%ld\n", a, b);
	return 0;
}
