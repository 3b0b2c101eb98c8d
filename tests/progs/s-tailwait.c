/*
 * s-tailwait.c - instruction samples under a tail call, and a traced function that waits.
 *
 * - caller() reaches work() by a tail call (a jump: XRay records caller's exit there, and the
 *   tree has main > work), so a sample in work shows main's return address after "call caller":
 *   its samples must still land on main > work.
 * - waiter() copies with libc's memcpy for a while, then sleeps: the libc frame's estimate must be
 *   the time the copying took (printed: its thread CPU time, and its elapsed time, longer on a busy
 *   machine), and the sleep must stay waiter's own time.
 *
 * Usage:   s-tailwait [STEPS [ROUNDS [SLEEP_MS]]]   (defaults 200000000, 40, 300)
 * Stdout:  "work=W copy_cpu_ns=C copy_ns=E sleep_ms=S"
 * Exit:    0 (2 for a bad argument)
 *
 * Calls: main 1; main > caller 1; main > work 1; main > waiter 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))
#define BLOCK (8u << 20)

static long long clock_ns(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long copy_elapsed;

NOINLINE unsigned long work(long steps)
{
    unsigned long x = 1;
    for (long i = 0; i < steps; i++) {
        x = x * 6364136223846793005UL + 1442695040888963407UL;
        BARRIER(x);
    }
    return x;
}

/* The call is the last thing it does: a jump at -O2 (sibling call). */
NOINLINE unsigned long caller(long steps)
{
    return work(steps + 1);
}

static char *src, *dst;

NOINLINE long long waiter(int rounds, int sleep_ms)
{
    long long t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID), e0 = clock_ns(CLOCK_MONOTONIC);
    long sum = 0;
    for (int r = 0; r < rounds; r++) {
        memcpy(dst, src + (r & 63), BLOCK - 64);
        sum += dst[(unsigned)r * 4099u % (BLOCK - 64)];
        BARRIER(sum);
    }
    long long spent = clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
    copy_elapsed = clock_ns(CLOCK_MONOTONIC) - e0;
    usleep((useconds_t)sleep_ms * 1000u);
    return sum >= 0 ? spent : -spent;
}

int main(int argc, char **argv)
{
    long steps = argc > 1 ? atol(argv[1]) : 200000000L;
    int rounds = argc > 2 ? atoi(argv[2]) : 40;
    int sleep_ms = argc > 3 ? atoi(argv[3]) : 300;
    if (steps < 1 || rounds < 1 || sleep_ms < 0) {
        fprintf(stderr, "usage: s-tailwait [STEPS [ROUNDS [SLEEP_MS]]]\n");
        return 2;
    }
    src = malloc(BLOCK);
    dst = malloc(BLOCK);
    if (!src || !dst)
        return 1;
    memset(src, 7, BLOCK);
    memset(dst, 1, BLOCK); /* its pages faulted in before waiter's clock starts */
    unsigned long w = caller(steps);
    long long c = waiter(rounds, sleep_ms);
    printf("work=%lu copy_cpu_ns=%lld copy_ns=%lld sleep_ms=%d\n", w % 1000, c < 0 ? -c : c, copy_elapsed, sleep_ms);
    free(src);
    free(dst);
    return 0;
}
