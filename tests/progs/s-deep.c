/*
 * s-deep.c - recursion deeper than a typical profiler shadow stack (2048 frames).
 *
 * Usage:   s-deep [DEPTH]         (DEPTH = 0..100000, default 5000)
 * Stdout:  "depth=DEPTH frames=DEPTH+1 after=3\n"    default: "depth=5000 frames=5001 after=3"
 * Exit:    0 (2 for a bad argument)
 *
 * main calls descend(DEPTH); descend(d) calls descend(d - 1) until d == 0, so the
 * deepest stack is main + DEPTH+1 frames of descend. The result passes through an
 * asm barrier, so the recursion stays real (no tail-recursion elimination) at -O3.
 * Afterwards main calls after_deep() 3 times: these must again be children of main.
 *
 * Calls (debug -O0 and release -O3 alike; verified with XRay basic mode), DEPTH=5000:
 *   main                                         1
 *   main > descend                               1
 *   main > descend > descend                     1
 *   ... one call at every depth ...
 *   main > descend x 5001 (deepest path)         1
 *   descend, all paths                        5001     (DEPTH+1)
 *   main > after_deep                            3
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static NOINLINE long descend(long d)
{
    long r = d == 0 ? 1 : descend(d - 1) + 1;
    BARRIER(r);
    return r;
}

static NOINLINE long after_deep(long x)
{
    BARRIER(x);
    return x + 1;
}

int main(int argc, char **argv)
{
    long depth = 5000;
    if (argc > 1) {
        char *end;
        depth = strtol(argv[1], &end, 10);
        if (end == argv[1] || *end != '\0' || depth < 0 || depth > 100000) {
            fprintf(stderr, "usage: s-deep [DEPTH]   (DEPTH = 0..100000)\n");
            return 2;
        }
    }
    long frames = descend(depth);
    long after = 0;
    for (int i = 0; i < 3; i++)
        after = after_deep(after);
    printf("depth=%ld frames=%ld after=%ld\n", depth, frames, after);
    return 0;
}
