/*
 * s-long.c - runs for a given time, calling tick() in a loop (capture-window tests).
 *
 * Usage:   s-long [SECONDS]       (0..3600, fractions allowed, default 3)
 * Stdout:  "seconds=S ticks=T\n"  e.g. "seconds=3.000 ticks=1234567" (T depends on the machine)
 * Exit:    0 (2 for a bad argument)
 *
 * main calls tick() until SECONDS have passed on CLOCK_MONOTONIC (checked after every
 * tick), then prints how many calls it made. Each tick does a fixed amount of
 * arithmetic (about 1 microsecond uninstrumented, at -O0 and -O3 alike), so calls are spread evenly over
 * the run: a capture window of d seconds sees about T*d/SECONDS of them.
 *
 * Calls (debug -O0 and release -O3 alike; verified with XRay basic mode):
 *   main              1
 *   main > tick       T      (the number printed; 0 for SECONDS = 0)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static NOINLINE unsigned long tick(unsigned long x)
{
    for (int i = 0; i < 400; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        BARRIER(x);
    }
    return x;
}

static inline __attribute__((always_inline)) double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    double seconds = 3.0;
    if (argc > 1) {
        char *end;
        seconds = strtod(argv[1], &end);
        if (end == argv[1] || *end != '\0' || !(seconds >= 0.0 && seconds <= 3600.0)) {
            fprintf(stderr, "usage: s-long [SECONDS]   (0..3600)\n");
            return 2;
        }
    }
    unsigned long x = 88172645463325252UL, ticks = 0;
    double start = now();
    while (now() - start < seconds) {
        x = tick(x);
        ticks++;
    }
    printf("seconds=%.3f ticks=%lu\n", seconds, ticks);
    return x == 0; /* never true for this xorshift seed; keeps x live */
}
