/*
 * s-deadlock.c - known work, then two threads deadlock (lock-order inversion); never ends.
 *
 * Usage:   s-deadlock [N]                 (N = 0..100000000, default 100)
 * Stdout:  "progress: work=N\n" then "deadlocked\n" (both flushed at once)
 * Exit:    never exits by itself: a test kills it (SIGKILL or any fatal signal)
 * Build:   needs -pthread (or -lpthread)
 *
 * main calls work() N times, prints the progress line, then starts threads "left" and
 * "right". left locks A then B, right locks B then A; a barrier between the two locks
 * makes sure each holds its first lock before asking for the second, so they always
 * deadlock. main prints "deadlocked" once both are inside the barrier and joins them
 * forever.
 *
 * Calls (debug -O0 and release -O3 alike):
 *   main thread:  main 1 (never exits); main > work N (all complete)
 *   thread left:  left_main 1 (root, never exits); left_main > hold 1 (never exits)
 *   thread right: right_main 1 (root, never exits); right_main > hold 1 (never exits)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t both_hold;

static NOINLINE long work(long x)
{
    BARRIER(x);
    return x + 1;
}

static NOINLINE void hold(pthread_mutex_t *first, pthread_mutex_t *second)
{
    pthread_mutex_lock(first);
    pthread_barrier_wait(&both_hold);
    pthread_mutex_lock(second); /* never returns */
    pthread_mutex_unlock(second);
    pthread_mutex_unlock(first);
}

static NOINLINE void *left_main(void *arg)
{
    pthread_setname_np(pthread_self(), "left");
    hold(&lock_a, &lock_b);
    return arg;
}

static NOINLINE void *right_main(void *arg)
{
    pthread_setname_np(pthread_self(), "right");
    hold(&lock_b, &lock_a);
    return arg;
}

int main(int argc, char **argv)
{
    long n = 100;
    if (argc > 1) {
        char *end;
        n = strtol(argv[1], &end, 10);
        if (end == argv[1] || *end != '\0' || n < 0 || n > 100000000) {
            fprintf(stderr, "usage: s-deadlock [N]   (N = 0..100000000)\n");
            return 2;
        }
    }
    long calls = 0;
    for (long i = 0; i < n; i++)
        calls = work(calls);
    printf("progress: work=%ld\n", calls);
    fflush(stdout);
    pthread_barrier_init(&both_hold, NULL, 3);
    pthread_t l, r;
    if (pthread_create(&l, NULL, left_main, NULL) != 0 || pthread_create(&r, NULL, right_main, NULL) != 0) {
        fprintf(stderr, "s-deadlock: pthread_create failed\n");
        return 1;
    }
    pthread_barrier_wait(&both_hold); /* both threads hold their first lock */
    printf("deadlocked\n");
    fflush(stdout);
    pthread_join(l, NULL);
    pthread_join(r, NULL);
    return 0;
}
