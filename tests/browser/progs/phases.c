/*
 * phases.c - two threads, each making 310,005 calls in three bursts separated by two rests,
 * the threads kept in step by a barrier, so that what runs in each span of time is known.
 * For browser.timeline-window (tests/browser/report.test.mjs --timeline-prog).
 *
 * Usage:   phases            (no arguments)
 * Stdout:  "phases: 620000 ticks\n"
 * Exit:    0
 *
 * Each thread (main, and one worker started by main) runs phases():
 *   tick_a() x 150,000 | barrier | rest() 120 ms | barrier | burst() -> tick_b() x 60,000 |
 *   barrier | rest() 120 ms | barrier | tick_a() x 100,000
 * Calls, per thread: phases 1, tick_a 250,000, rest 2, burst 1, tick_b 60,000; main 1, worker 1.
 * Between a moment inside both threads' first rest and one inside both threads' second rest
 * (the rests of the two threads overlap: they start together after a barrier and last 120 ms),
 * the calls are exactly: tick_b 120,000, burst 2, rest 4 (cut by the window's ends), phases 2,
 * main 1, worker 1, and no tick_a.
 */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

enum { PHASE_A = 150000, PHASE_B = 60000, PHASE_C = 100000, REST_MS = 120 };

static pthread_barrier_t step;

static NOINLINE long tick_a(long x)
{
    BARRIER(x);
    return x + 1;
}

static NOINLINE long tick_b(long x)
{
    BARRIER(x);
    return x + 2;
}

static NOINLINE long burst(long x)
{
    for (int i = 0; i < PHASE_B; i++)
        x = tick_b(x);
    return x;
}

static NOINLINE void rest(void)
{
    struct timespec ts = {0, REST_MS * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

static NOINLINE long phases(void)
{
    long x = 0;
    for (int i = 0; i < PHASE_A; i++)
        x = tick_a(x);
    pthread_barrier_wait(&step);
    rest();
    pthread_barrier_wait(&step);
    x = burst(x);
    pthread_barrier_wait(&step);
    rest();
    pthread_barrier_wait(&step);
    for (int i = 0; i < PHASE_C; i++)
        x = tick_a(x);
    return x;
}

static NOINLINE void *worker(void *arg)
{
    long *out = arg;
    *out = phases();
    return NULL;
}

int main(void)
{
    pthread_t t;
    long other = 0;
    pthread_barrier_init(&step, NULL, 2);
    if (pthread_create(&t, NULL, worker, &other) != 0)
        return 1;
    long mine = phases();
    pthread_join(t, NULL);
    long ticks = (mine + other) - 2L * PHASE_B; /* tick_b adds 2, tick_a 1 */
    printf("phases: %ld ticks\n", ticks);
    return ticks == 2L * (PHASE_A + PHASE_B + PHASE_C) ? 0 : 1;
}
