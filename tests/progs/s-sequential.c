/*
 * s-sequential.c - threads that run one after another, for the timeline's
 * "last" mode (docs/cli.md: the timeline): each takes its share of the
 * timeline when it starts, so the threads that start after others ended
 * must be able to take the ended threads' oldest blocks.
 *
 * Usage:   s-sequential CALLS THREADS
 * main makes CALLS calls of step(), then starts THREADS threads one at a
 * time (each joined before the next starts), each making CALLS calls of
 * step() from its start routine run_steps().
 * Calls: step CALLS * (THREADS + 1), run_steps THREADS, burst THREADS + 1.
 * Prints "steps N" (the program's own counter).  Exit: 0 (2: bad arguments).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

static long calls;
static _Atomic long steps;

static NOINLINE void step(void)
{
	steps++;
}

static NOINLINE void burst(void)
{
	for (long i = 0; i < calls; i++)
		step();
}

static NOINLINE void *run_steps(void *arg)
{
	(void)arg;
	burst();
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	calls = atol(argv[1]);
	int threads = atoi(argv[2]);
	if (calls <= 0 || threads < 0)
		return 2;
	burst();
	for (int k = 0; k < threads; k++) {
		pthread_t t;
		if (pthread_create(&t, NULL, run_steps, NULL) != 0 || pthread_join(t, NULL) != 0)
			return 1;
	}
	printf("steps %ld\n", (long)steps);
	return 0;
}
