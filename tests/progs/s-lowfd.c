/*
 * s-lowfd.c - a thread that opens files in a loop and checks it always gets the lowest free
 * descriptor, while other threads sit named and idle (what a profiler's periodic work sees).
 *
 * Usage:   s-lowfd [SECONDS [THREADS]]   (default 2 s, 8 idle threads)
 * Stdout:  "idle=THREADS unexpected=0" (unexpected: opens that did not return the
 *          lowest free descriptor, which is computed before the loop)
 * Exit:    0 when every open returned the lowest free descriptor, 1 otherwise
 *
 * Calls: main 1, idle THREADS (one per idle thread), opener 1.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

static volatile int done;

static NOINLINE void idle(int k)
{
    char name[16];
    snprintf(name, sizeof(name), "idle-%d", k);
    pthread_setname_np(pthread_self(), name);
    while (!done)
        usleep(10000);
}

static void *idle_main(void *arg)
{
    idle((int)(long)arg);
    return NULL;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct opener_args {
    double seconds;
    int expected;
    long unexpected;
};

static NOINLINE void opener(struct opener_args *a)
{
    double end = now_s() + a->seconds;
    while (now_s() < end) {
        for (int i = 0; i < 100; i++) {
            int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
            if (fd != a->expected)
                a->unexpected++;
            if (fd >= 0)
                close(fd);
        }
    }
}

static void *opener_main(void *arg)
{
    opener(arg);
    return NULL;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 2;
    int n = argc > 2 ? atoi(argv[2]) : 8;
    if (n < 0 || n > 64)
        n = 8;
    struct opener_args a = {seconds, -1, 0};
    a.expected = open("/dev/null", O_RDONLY | O_CLOEXEC);
    close(a.expected);
    pthread_t t[64], o;
    for (int k = 0; k < n; k++)
        pthread_create(&t[k], NULL, idle_main, (void *)(long)k);
    pthread_create(&o, NULL, opener_main, &a);
    pthread_join(o, NULL);
    done = 1;
    for (int k = 0; k < n; k++)
        pthread_join(t[k], NULL);
    printf("idle=%d unexpected=%ld\n", n, a.unexpected);
    return a.unexpected ? 1 : 0;
}
