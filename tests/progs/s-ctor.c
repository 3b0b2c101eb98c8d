/*
 * s-ctor.c - traced calls made before main (constructors) and after it (destructors).
 *
 * Usage:   s-ctor
 * Stdout:  "main: work=5"
 *          "ctor: early=3 early_prio=2" (printed by main: what the constructors did)
 *          "dtor: late=4" (printed by the destructor, after main returned)
 * Exit:    0
 *
 * Calls (debug and release; what the program prints says the same):
 *   setup_prio 1 (constructor, priority 200) > early_prio 2
 *   setup 1 (constructor, default priority) > early 3
 *   main 1 > work 5
 *   teardown 1 (destructor, default priority) > late 4
 * Constructors with a priority run before those without; each is a root of the main thread
 * (called from the C library's start-up code, which is not traced).  LLVM XRay basic mode
 * counts only setup > early 3 and main > work 5: its logger starts in a default-priority
 * constructor (after setup_prio) and writes its log from an atexit handler (before teardown).
 */
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static int n_early, n_early_prio;

static NOINLINE int early(int x)
{
    BARRIER(x);
    return x + 1;
}

static NOINLINE int early_prio(int x)
{
    BARRIER(x);
    return x + 1;
}

static NOINLINE int work(int x)
{
    BARRIER(x);
    return x + 1;
}

static NOINLINE int late(int x)
{
    BARRIER(x);
    return x + 1;
}

__attribute__((constructor(200))) static void setup_prio(void)
{
    for (int i = 0; i < 2; i++)
        n_early_prio = early_prio(n_early_prio);
}

__attribute__((constructor)) static void setup(void)
{
    for (int i = 0; i < 3; i++)
        n_early = early(n_early);
}

__attribute__((destructor)) static void teardown(void)
{
    int n = 0;
    for (int i = 0; i < 4; i++)
        n = late(n);
    printf("dtor: late=%d\n", n);
    fflush(stdout);
}

int main(void)
{
    int w = 0;
    for (int i = 0; i < 5; i++)
        w = work(w);
    printf("main: work=%d\n", w);
    printf("ctor: early=%d early_prio=%d\n", n_early, n_early_prio);
    return 0;
}
