/*
 * s-throw.cc - C++ exceptions unwind traced frames; the catcher then calls
 * traced functions.
 *
 * Usage: s-throw [N]   (default 300)
 * Stdout: "caught=<N/3 rounded up> sum=<S>", exit 0.
 *
 * For i in 0..N-1, main calls guarded(i) then next_step(i).  guarded calls
 * middle(i), which calls inner(i); inner throws when i % 3 == 0.  guarded
 * catches and calls on_error(i).  Counts (debug and release):
 *   main 1; main > guarded N; main > guarded > middle N;
 *   main > guarded > middle > inner N; main > guarded > on_error ceil(N/3);
 *   main > next_step N.
 * The frames of middle and inner that a throw unwinds never exit: 2 per
 * throw, 2 * ceil(N/3) in all.
 */
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#define NOINLINE __attribute__((noinline))

static NOINLINE long inner(long i)
{
	if (i % 3 == 0)
		throw std::runtime_error("multiple of three");
	__asm__ __volatile__("" : "+r"(i));
	return i;
}

static NOINLINE long middle(long i)
{
	long r = inner(i) + 1;
	__asm__ __volatile__("" : "+r"(r));
	return r;
}

static NOINLINE long on_error(long i)
{
	__asm__ __volatile__("" : "+r"(i));
	return -i;
}

static long caught;

static NOINLINE long guarded(long i)
{
	try {
		return middle(i);
	} catch (const std::exception &) {
		caught++;
		return on_error(i);
	}
}

static NOINLINE long next_step(long i)
{
	__asm__ __volatile__("" : "+r"(i));
	return i * 2;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? std::atol(argv[1]) : 300;
	long sum = 0;
	for (long i = 0; i < n; i++) {
		sum += guarded(i);
		sum += next_step(i);
	}
	std::printf("caught=%ld sum=%ld\n", caught, sum);
	return 0;
}
