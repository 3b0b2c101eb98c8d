/*
 * s-abort.c - known work, then abort() (SIGABRT).
 *
 * Usage:   s-abort [N]            (N = 0..100000000, default 100)
 * Stdout:  "progress: work=N\n"   (flushed before abort)
 * Exit:    killed by SIGABRT (signal 6; a shell reports status 134)
 *
 * main calls work() N times, prints and flushes the progress line, then calls
 * give_up(), which calls abort(). give_up() never returns.
 *
 * Calls (debug -O0 and release -O3 alike; verified with XRay basic mode,
 * thread_buffer_size=1 so that every event reaches the log before the abort):
 *   main                  1     entered, never exits
 *   main > work         100     (N), all complete
 *   main > give_up        1     entered, never exits
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

static NOINLINE __attribute__((noreturn)) void give_up(void)
{
    fprintf(stderr, "s-abort: giving up\n");
    abort();
}

int main(int argc, char **argv)
{
    long n = 100;
    if (argc > 1) {
        char *end;
        n = strtol(argv[1], &end, 10);
        if (end == argv[1] || *end != '\0' || n < 0 || n > 100000000) {
            fprintf(stderr, "usage: s-abort [N]   (N = 0..100000000)\n");
            return 2;
        }
    }
    long calls = 0;
    for (long i = 0; i < n; i++)
        calls = work(calls);
    printf("progress: work=%ld\n", calls);
    fflush(stdout);
    give_up();
}
