/*
 * s-cputime.c - threads that mostly sleep, or mostly run, each measuring its own CPU time.
 *
 * Usage:   s-cputime sleep|spin [THREADS [ROUNDS [CALLS]]]   (defaults 4 50 2000)
 * Stdout:  one line per worker, "cpu cpu-I NS" (its CLOCK_THREAD_CPUTIME_ID from the start
 *          of its body to its end), then "mode=M threads=T ticks=T*ROUNDS*CALLS"
 * Exit:    0 (2 on bad arguments)
 *
 * Each worker (named cpu-I with pthread_setname_np) does ROUNDS rounds of CALLS calls to
 * tick(), and after each round either sleeps 2 ms (sleep: a thread that waits most of its
 * life) or spins until its own CPU clock advanced 2 ms (spin: a thread that runs all the
 * time, whatever the machine's load).  So a sleeping thread's CPU time is a small part of its
 * elapsed time and a spinning one's most of it, which is what a profiler's overhead estimate
 * must tell apart.
 *
 * Calls (debug -O0 and release -O3 alike), per worker thread:
 *   worker 1; worker > tick ROUNDS*CALLS; worker > pause ROUNDS
 * and main 1 on the main thread.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static int spin, rounds = 50, calls = 2000;

static __attribute__((always_inline)) inline long cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static NOINLINE long tick(long x)
{
	BARRIER(x);
	return x + 1;
}

static NOINLINE void pause_round(void)
{
	if (spin) {
		long until = cpu_ns() + 2000000;
		while (cpu_ns() < until)
			;
	} else {
		struct timespec ts = {0, 2000000};
		nanosleep(&ts, NULL);
	}
}

static NOINLINE void *worker(void *arg)
{
	long id = (long)arg, start = cpu_ns(), sum = 0;
	char name[16];
	snprintf(name, sizeof(name), "cpu-%ld", id);
	pthread_setname_np(pthread_self(), name);
	for (int r = 0; r < rounds; r++) {
		for (int c = 0; c < calls; c++)
			sum = tick(sum);
		pause_round();
	}
	printf("cpu %s %ld\n", name, cpu_ns() - start);
	return (void *)sum;
}

static __attribute__((always_inline)) inline int arg(int argc, char **argv, int i, int dflt)
{
	return argc > i ? atoi(argv[i]) : dflt;
}

int main(int argc, char **argv)
{
	if (argc < 2 || (strcmp(argv[1], "sleep") != 0 && strcmp(argv[1], "spin") != 0)) {
		fprintf(stderr, "usage: s-cputime sleep|spin [THREADS [ROUNDS [CALLS]]]\n");
		return 2;
	}
	spin = strcmp(argv[1], "spin") == 0;
	int n = arg(argc, argv, 2, 4);
	rounds = arg(argc, argv, 3, 50);
	calls = arg(argc, argv, 4, 2000);
	if (n < 1 || n > 64 || rounds < 1 || calls < 0) {
		fprintf(stderr, "usage: s-cputime sleep|spin [THREADS [ROUNDS [CALLS]]]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	pthread_t t[64];
	for (long i = 0; i < n; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	long ticks = 0;
	for (int i = 0; i < n; i++) {
		void *r;
		pthread_join(t[i], &r);
		ticks += (long)r;
	}
	printf("mode=%s threads=%d ticks=%ld\n", argv[1], n, ticks);
	return 0;
}
