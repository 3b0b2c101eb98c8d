/*
 * s-timeline.c - many short calls and a few long ones over a long run, for
 * the timeline's threshold (docs/capture-format.md: timeline modes).
 *
 * Usage:   s-timeline ROUNDS SHORT [forever]
 * Each round makes SHORT calls of tick() (a few instructions each) and
 * then one call of slow(), which spins on CLOCK_MONOTONIC for at least
 * 300 us.  With "forever" it runs until killed and prints "round R" (flushed)
 * every 100 rounds; otherwise it prints "rounds R ticks T" at the end.
 * Calls: main 1, tick ROUNDS*SHORT, slow ROUNDS (the program's own counters,
 * printed).
 * Exit: 0 (2 for bad arguments).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))
#define SLOW_NS 300000L

static long ticks, slows;

static NOINLINE void tick(void)
{
	long t = ticks + 1;
	BARRIER(t);
	ticks = t;
}

static long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static NOINLINE void slow(void)
{
	long until = now_ns() + SLOW_NS;
	while (now_ns() < until)
		;
	slows++;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	long rounds = atol(argv[1]), shorts = atol(argv[2]);
	int forever = argc > 3 && strcmp(argv[3], "forever") == 0;
	if (rounds <= 0 || shorts < 0)
		return 2;
	for (long r = 0; forever || r < rounds; r++) {
		for (long i = 0; i < shorts; i++)
			tick();
		slow();
		if (forever && (r + 1) % 100 == 0) {
			printf("round %ld\n", r + 1);
			fflush(stdout);
		}
	}
	printf("rounds %ld ticks %ld\n", slows, ticks);
	return 0;
}
