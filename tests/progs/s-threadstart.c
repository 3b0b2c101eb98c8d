/*
 * s-threadstart.c - the same work on short-lived threads and on the main thread: each thread's
 * instruction samples must start with the thread, so both get the same share of samples.
 *
 * Usage:   s-threadstart [THREADS [STEPS]]   (defaults 16, 20000000: about 10 ms a call)
 * Stdout:  "threadstart: T threads, x=X"
 * Exit:    0 (2 for a bad argument)
 *
 * Calls: main 1; main > spin THREADS; worker THREADS (one per thread, each at its thread's root);
 *        worker > spin THREADS.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static long steps = 20000000L;
static volatile unsigned long sink;

NOINLINE unsigned long spin(long n)
{
    unsigned long x = 1;
    for (long i = 0; i < n; i++) {
        x = x * 6364136223846793005UL + 1442695040888963407UL;
        BARRIER(x);
    }
    return x;
}

NOINLINE void *worker(void *arg)
{
    (void)arg;
    sink = spin(steps);
    return NULL;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 16;
    if (argc > 2)
        steps = atol(argv[2]);
    if (threads < 1 || steps < 1) {
        fprintf(stderr, "usage: s-threadstart [THREADS [STEPS]]\n");
        return 2;
    }
    for (int k = 0; k < threads; k++) { /* one at a time: each starts while the others are gone */
        pthread_t t;
        if (pthread_create(&t, NULL, worker, NULL) != 0)
            return 1;
        pthread_join(t, NULL);
    }
    unsigned long x = 0;
    for (int k = 0; k < threads; k++)
        x ^= spin(steps);
    printf("threadstart: %d threads, x=%lu\n", threads, (x ^ sink) % 1000);
    return 0;
}
