/*
 * s-diff.c - a program in two versions for `profile diff`: build it plain, and with
 * -DSLOW=3 (hot() takes 3x as long) or -DRENAMED (helper() is called helper_renamed()).
 *
 * Usage:   s-diff [ROUNDS]   (1..100000, default 5)
 * Stdout:  "rounds=R slept=MS hot_us=H steady_us=S helper_us=P\n"
 *          default: "rounds=5 slept=450 ..."  (-DSLOW=3: slept=850); H, S, P are the elapsed times
 *          the functions measured themselves (CLOCK_MONOTONIC around their sleeps), in microseconds
 * Exit:    0 (2 for a bad argument)
 *
 * Each function's cost is a fixed wall-clock duration: it sleeps (hot 40 ms, or 120 ms with
 * SLOW=3; steady 40 ms; helper 10 ms).  A sleep is stretched by a loaded machine far less than a
 * busy loop is (only by the wake-up latency), and each function also measures its own elapsed
 * time, an oracle for the profiler's figures that holds under any load.  Calls (any build),
 * default R=5:
 *   main                     1
 *   main > hot               5   (R)
 *   main > steady            5   (R)
 *   main > helper            5   (R)   (helper_renamed with -DRENAMED)
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))
#ifndef SLOW
#define SLOW 1
#endif
#define UNIT_US 40000L

static long slept_us, hot_us, steady_us, helper_us;

static inline __attribute__((always_inline)) long now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000L + t.tv_nsec / 1000;
}

/* Sleep us microseconds; add the elapsed time to *spent. */
static inline __attribute__((always_inline)) void pause_us(long us, long *spent)
{
    long t0 = now_us();
    struct timespec t = {us / 1000000, (us % 1000000) * 1000};
    while (clock_nanosleep(CLOCK_MONOTONIC, 0, &t, &t) == EINTR)
        ;
    slept_us += us;
    *spent += now_us() - t0;
}

NOINLINE void hot(void) { pause_us(UNIT_US * SLOW, &hot_us); }
NOINLINE void steady(void) { pause_us(UNIT_US, &steady_us); }
#ifdef RENAMED
NOINLINE void helper_renamed(void) { pause_us(UNIT_US / 4, &helper_us); }
#define helper helper_renamed
#else
NOINLINE void helper(void) { pause_us(UNIT_US / 4, &helper_us); }
#endif

int main(int argc, char **argv)
{
    long rounds = 5;
    if (argc > 1) {
        char *end;
        rounds = strtol(argv[1], &end, 10);
        if (*end || rounds < 1 || rounds > 100000) {
            fprintf(stderr, "usage: s-diff [ROUNDS 1..100000]\n");
            return 2;
        }
    }
    for (long r = 0; r < rounds; r++) {
        hot();
        steady();
        helper();
    }
    printf("rounds=%ld slept=%ld hot_us=%ld steady_us=%ld helper_us=%ld\n", rounds, slept_us / 1000, hot_us,
           steady_us, helper_us);
    return 0;
}
