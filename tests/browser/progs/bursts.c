/* Two large heap allocations in neighbouring memory samples: 24 MiB, then 16 MiB 100 ms later (one
 * sample interval by default; under capture one to three samples apart), between two busy
 * stretches of 2.4 s.  On the report's memory chart the two bursts are then a few tens of pixels
 * apart, less than one label's width: their "+24.0 MiB allocated" and "+16.0 MiB allocated"
 * labels must not be drawn on top of each other (as loans' "+22.9 MiB" and "+15.3 MiB" were).
 * browser.bursts checks that this happened and that the labels' boxes do not meet. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long mix(unsigned long i)
{
	return (i * 2654435761u) ^ (i >> 7);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static void spin(double seconds)
{
	double end = now() + seconds;
	for (unsigned long i = 0; now() < end; i++)
		for (int k = 0; k < 1000; k++)
			sink += mix(i + (unsigned long)k);
}

__attribute__((noinline)) static char *big(size_t n)
{
	return malloc(n);
}

static void touch(char *p, size_t n)
{
	if (p)
		memset(p, 1, n); /* resident, so the RSS shows it too */
}

int main(void)
{
	spin(2.4);
	/* both allocated before either is touched: writing 24 MiB could take
	 * long enough on a loaded machine to part the two bursts by more than
	 * a label's width */
	char *a = big((size_t)24 << 20);
	struct timespec gap = {0, 100 * 1000 * 1000};
	nanosleep(&gap, NULL);
	char *b = big((size_t)16 << 20);
	touch(a, (size_t)24 << 20);
	touch(b, (size_t)16 << 20);
	spin(2.4);
	int ok = a && b && a[1 << 20] == 1 && b[1 << 20] == 1;
	free(a);
	free(b);
	return ok ? 0 : 1;
}
