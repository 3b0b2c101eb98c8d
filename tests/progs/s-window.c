/*
 * s-window.c - a run whose capture window opens inside one phase and closes inside the next.
 *
 * Usage:   s-window [P1_MS [P2_MS]]   (800 1600: when each phase ends, ms after start)
 * Stdout:  "steps1=A steps2=B allocs=N\n"
 * Exit:    0 (2 for bad arguments)
 *
 * main calls phase1(), which calls step() until P1_MS have passed since the start, then
 * phase2(), which calls step() until P2_MS have passed.  Every step() mallocs 64 bytes,
 * touches them and frees them; the program counts its mallocs (N = A + B).  A capture window
 * that opens during phase1 and closes during phase2 sees phase1's exit without its entry
 * (a frame open when recording began), and the mallocs before the window opened and after it
 * closed happen outside it.
 *
 * Calls (debug and release, by the program's own counts): main 1; main > phase1 1;
 * main > phase1 > step A; main > phase2 1; main > phase2 > step B.  Mallocs: N, one per step.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

static long allocs;
static struct timespec t0;

static __attribute__((always_inline)) inline long ms_since_start(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000;
}

static NOINLINE int step(int x)
{
	char *p = malloc(64);
	if (!p)
		exit(1);
	allocs++;
	memset(p, x & 0x7f, 64);
	x += p[17];
	free(p);
	struct timespec nap = {0, 100 * 1000};
	nanosleep(&nap, NULL);
	return x;
}

static __attribute__((always_inline)) inline long phase(long until_ms, int *x)
{
	long n = 0;
	while (ms_since_start() < until_ms) {
		*x = step(*x);
		n++;
	}
	return n;
}

static NOINLINE long phase1(long until_ms, int *x)
{
	return phase(until_ms, x);
}

static NOINLINE long phase2(long until_ms, int *x)
{
	return phase(until_ms, x);
}

int main(int argc, char **argv)
{
	clock_gettime(CLOCK_MONOTONIC, &t0);
	long p1 = argc > 1 ? atol(argv[1]) : 800, p2 = argc > 2 ? atol(argv[2]) : 1600;
	if (p1 < 0 || p2 < p1)
		return 2;
	int x = 0;
	long a = phase1(p1, &x);
	long b = phase2(p2, &x);
	printf("steps1=%ld steps2=%ld allocs=%ld\n", a, b, allocs);
	return x == -1;
}
