/*
 * s-threads.c - 8 named worker threads with known per-thread call counts.
 *
 * Usage:   s-threads [K]          (K = 0..10000000, default 1000)
 * Stdout:  "threads=8 work=8K step=16K checksum=C\n"
 *          default: "threads=8 work=8000 step=16000 checksum=8008000"
 * Exit:    0 (2 for a bad argument)
 * Build:   needs -pthread (or -lpthread)
 *
 * main starts 8 threads. Thread t (t = 0..7) names itself "worker-t" with
 * pthread_setname_np, then calls work() K times, and each work() calls step() twice.
 * main joins all threads, then calls summarize() once.
 *
 * Calls (debug -O0 and release -O3 alike; verified with XRay basic mode), K=1000:
 *   main thread (name "s-threads", the executable's name):
 *     main                              1
 *     main > summarize                  1
 *   each of the 8 worker threads (names worker-0 .. worker-7); thread_main is the
 *   root, because it is called by libc's start_thread, which is not instrumented:
 *     thread_main                       1
 *     thread_main > work             1000      (K)
 *     thread_main > work > step      2000      (2K)
 *   all threads together: thread_main 8, work 8000 (8K), step 16000 (16K)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

enum { THREADS = 8 };

typedef struct Worker {
    pthread_t thread;
    int index;
    long iterations;
    long result;
} Worker;

static NOINLINE long step(long x)
{
    BARRIER(x);
    return x + 1;
}

static NOINLINE long work(long i)
{
    long r = step(i) + step(i);
    BARRIER(r);
    return r;
}

static NOINLINE void *thread_main(void *arg)
{
    Worker *w = arg;
    char name[16];
    snprintf(name, sizeof name, "worker-%d", w->index);
    pthread_setname_np(pthread_self(), name);
    long sum = 0;
    for (long i = 0; i < w->iterations; i++)
        sum += work(i); /* 2 * (i + 1); K * (K + 1) in all */
    w->result = sum;
    return NULL;
}

static NOINLINE long summarize(const Worker *workers, int n)
{
    long total = 0;
    for (int i = 0; i < n; i++)
        total += workers[i].result;
    BARRIER(total);
    return total;
}

int main(int argc, char **argv)
{
    long k = 1000;
    if (argc > 1) {
        char *end;
        k = strtol(argv[1], &end, 10);
        if (end == argv[1] || *end != '\0' || k < 0 || k > 10000000) {
            fprintf(stderr, "usage: s-threads [K]   (K = 0..10000000)\n");
            return 2;
        }
    }
    Worker workers[THREADS];
    for (int i = 0; i < THREADS; i++) {
        workers[i].index = i;
        workers[i].iterations = k;
        workers[i].result = 0;
        int rc = pthread_create(&workers[i].thread, NULL, thread_main, &workers[i]);
        if (rc != 0) {
            fprintf(stderr, "s-threads: pthread_create failed (%d)\n", rc);
            return 1;
        }
    }
    for (int i = 0; i < THREADS; i++)
        pthread_join(workers[i].thread, NULL);
    long checksum = summarize(workers, THREADS);
    printf("threads=%d work=%ld step=%ld checksum=%ld\n", THREADS, THREADS * k, 2 * THREADS * k, checksum);
    return 0;
}
