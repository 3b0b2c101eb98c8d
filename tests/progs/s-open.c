/*
 * s-open.c - calls still open when the program is killed, for the timeline
 * (t1362): the runtime stores a call's ENTRY record only when the call is
 * kept, so the reader must show the frames that never got one.
 *
 * Usage:   s-open MODE        MODE: fresh | kept
 * Stdout:  "ready\n" (flushed) once inner() spins; the program then spins
 *          until it is killed.
 *
 * Calls:
 *   fresh: main > outer > inner, all three entered and never left; no call
 *          has ended, so the timeline stored nothing at all.
 *   kept:  main > outer, which first makes 20 calls of kept() (2 ms each,
 *          long enough for any threshold the run reaches, so stored with
 *          main's and outer's ENTRY records), then outer > inner as above.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

static volatile unsigned long sink;

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static NOINLINE void kept(void)
{
	double end = now_ms() + 2.0;
	while (now_ms() < end)
		sink++;
}

static NOINLINE void inner(void)
{
	fputs("ready\n", stdout);
	fflush(stdout);
	for (;;)
		sink++;
}

static NOINLINE void outer(int with_kept)
{
	if (with_kept)
		for (int i = 0; i < 20; i++)
			kept();
	inner();
}

int main(int argc, char **argv)
{
	if (argc != 2 || (strcmp(argv[1], "fresh") != 0 && strcmp(argv[1], "kept") != 0)) {
		fputs("usage: s-open fresh|kept\n", stderr);
		return 2;
	}
	outer(strcmp(argv[1], "kept") == 0);
	return 0;
}
