/*
 * s-stress.c - T threads call at full speed for S seconds and print their own counts.
 *
 * Usage:   s-stress [T [SECONDS]]          (T = 1..256, default 32; SECONDS 0..3600, default 30)
 * Stdout:  one line per thread, in thread order, then a total:
 *              "stress-I work=W step=2W"      (I = 0..T-1, zero-padded to 2 digits)
 *              "total threads=T work=SUM step=2SUM"
 * Exit:    0 (2 for a bad argument)
 * Build:   needs -pthread (or -lpthread)
 *
 * main starts T threads named "stress-00", "stress-01", ... They wait on a barrier, then
 * each calls work() in a loop until the shared deadline (SECONDS after the barrier) has
 * passed; each work() calls step() twice. Every thread counts its own calls, and main
 * prints the counts after joining all threads. A profiler's capture of this program must
 * show exactly these counts per thread, however many events it could keep in its timeline.
 *
 * Calls (debug -O0 and release -O3 alike):
 *   main thread:  main 1; main > report 1
 *   thread stress-I: stress_main 1 (root); stress_main > work W_I; stress_main > work > step 2 W_I
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

typedef struct Worker {
    pthread_t thread;
    int index;
    long work;
} Worker;

static pthread_barrier_t start;
static atomic_int stop;
static double seconds = 30.0;

static NOINLINE long step(long x)
{
    BARRIER(x);
    return x + 1;
}

static NOINLINE long work(long x)
{
    long r = step(x) + step(x);
    BARRIER(r);
    return r;
}

static inline __attribute__((always_inline)) double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static NOINLINE void *stress_main(void *arg)
{
    Worker *w = arg;
    char name[16];
    snprintf(name, sizeof name, "stress-%02d", w->index);
    pthread_setname_np(pthread_self(), name);
    pthread_barrier_wait(&start);
    long n = 0, x = 0;
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        for (int i = 0; i < 256; i++) {   /* check the flag every 256 calls */
            x = work(x);
            n++;
        }
    }
    w->work = n;
    return NULL;
}

static NOINLINE long report(const Worker *w, int t)
{
    long total = 0;
    for (int i = 0; i < t; i++) {
        printf("stress-%02d work=%ld step=%ld\n", w[i].index, w[i].work, 2 * w[i].work);
        total += w[i].work;
    }
    printf("total threads=%d work=%ld step=%ld\n", t, total, 2 * total);
    return total;
}

int main(int argc, char **argv)
{
    long t = 32;
    char *end;
    if (argc > 1) {
        t = strtol(argv[1], &end, 10);
        if (end == argv[1] || *end != '\0' || t < 1 || t > 256) {
            fprintf(stderr, "usage: s-stress [T [SECONDS]]   (T = 1..256, SECONDS = 0..3600)\n");
            return 2;
        }
    }
    if (argc > 2) {
        seconds = strtod(argv[2], &end);
        if (end == argv[2] || *end != '\0' || !(seconds >= 0.0 && seconds <= 3600.0)) {
            fprintf(stderr, "usage: s-stress [T [SECONDS]]   (T = 1..256, SECONDS = 0..3600)\n");
            return 2;
        }
    }
    Worker *w = calloc((size_t)t, sizeof(Worker));
    if (!w)
        return 1;
    pthread_barrier_init(&start, NULL, (unsigned)t + 1);
    for (int i = 0; i < t; i++) {
        w[i].index = i;
        if (pthread_create(&w[i].thread, NULL, stress_main, &w[i]) != 0) {
            fprintf(stderr, "s-stress: pthread_create failed\n");
            return 1;
        }
    }
    pthread_barrier_wait(&start);
    double deadline = now() + seconds;
    while (now() < deadline) {
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    atomic_store(&stop, 1);
    for (int i = 0; i < t; i++)
        pthread_join(w[i].thread, NULL);
    long total = report(w, (int)t);
    BARRIER(total);
    free(w);
    return 0;
}
