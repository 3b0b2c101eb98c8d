/*
 * s-killme.c - works in batches with pauses, so a test can SIGKILL it at a known point.
 *
 * Usage:   s-killme [--batches N] [--batch-size S] [--sleep-ms M]
 *          defaults: N = 10, S = 1000, M = 200  (N 1..1000000, S 0..100000000, M 0..60000)
 * Stdout:  after batch b (b = 1..N), flushed at once:
 *              "batch b done: step=b*S run_batch=b\n"     e.g. "batch 3 done: step=3000 run_batch=3"
 *          at the end: "done: batches=N step=N*S\n"
 * Exit:    0 when not killed
 *
 * main calls run_batch() once per batch; run_batch calls step() S times. After each
 * batch except the last, main prints the line above, then calls nap(M), which sleeps
 * for M ms (nanosleep). A test waits for "batch b done", then kills the process during
 * the nap that follows.
 *
 * Calls (debug -O0 and release -O3 alike; verified with XRay basic mode):
 *   complete run:                     killed during the nap after batch b (b < N):
 *     main                   1          main                  1    entered, never exits
 *     main > run_batch       N          main > run_batch      b    all complete
 *     main > run_batch > step N*S       main > run_batch > step b*S  all complete
 *     main > nap             N-1        main > nap            b    b-1 complete + 1 entered
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static NOINLINE long step(long x)
{
    BARRIER(x);
    return x + 1;
}

static NOINLINE long run_batch(long size, long counter)
{
    for (long i = 0; i < size; i++)
        counter = step(counter);
    BARRIER(counter);
    return counter;
}

static NOINLINE void nap(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

static inline __attribute__((always_inline)) int parse(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    long batches = 10, size = 1000, sleep_ms = 200;
    for (int i = 1; i < argc; i++) {
        int bad = i + 1 >= argc;
        if (!bad && strcmp(argv[i], "--batches") == 0)
            bad = parse(argv[++i], 1, 1000000, &batches);
        else if (!bad && strcmp(argv[i], "--batch-size") == 0)
            bad = parse(argv[++i], 0, 100000000, &size);
        else if (!bad && strcmp(argv[i], "--sleep-ms") == 0)
            bad = parse(argv[++i], 0, 60000, &sleep_ms);
        else
            bad = 1;
        if (bad) {
            fprintf(stderr, "usage: s-killme [--batches N] [--batch-size S] [--sleep-ms M]\n");
            return 2;
        }
    }
    long steps = 0;
    for (long b = 1; b <= batches; b++) {
        steps = run_batch(size, steps);
        printf("batch %ld done: step=%ld run_batch=%ld\n", b, steps, b);
        fflush(stdout);
        if (b < batches)
            nap(sleep_ms);
    }
    printf("done: batches=%ld step=%ld\n", batches, steps);
    return 0;
}
