/*
 * s-segv.c - known work, then a NULL-pointer dereference (SIGSEGV).
 *
 * Usage:   s-segv [N]             (N = 0..100000000, default 100)
 * Stdout:  "progress: work=N\n"   (flushed before the crash)
 * Exit:    killed by SIGSEGV (signal 11; a shell reports status 139)
 *
 * main calls work() N times, prints and flushes the progress line, then calls
 * crash(), which reads through a NULL pointer. crash() never returns.
 *
 * Calls (debug -O0 and release -O3 alike; verified with XRay basic mode,
 * thread_buffer_size=1 so that every event reaches the log before the crash):
 *   main                  1     entered, never exits
 *   main > work         100     (N), all complete
 *   main > crash          1     entered, never exits (the fault is inside crash)
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static NOINLINE long work(long x)
{
    BARRIER(x);
    return x + 1;
}

static NOINLINE int crash(void)
{
    int *volatile p = NULL; /* volatile: the load cannot be optimised away */
    return *p;
}

int main(int argc, char **argv)
{
    long n = 100;
    if (argc > 1) {
        char *end;
        n = strtol(argv[1], &end, 10);
        if (end == argv[1] || *end != '\0' || n < 0 || n > 100000000) {
            fprintf(stderr, "usage: s-segv [N]   (N = 0..100000000)\n");
            return 2;
        }
    }
    long calls = 0;
    for (long i = 0; i < n; i++)
        calls = work(calls);
    printf("progress: work=%ld\n", calls);
    fflush(stdout);
    int r = crash(); /* not "return crash();": that would be a tail call at -O3 */
    BARRIER(r);
    return r;
}
