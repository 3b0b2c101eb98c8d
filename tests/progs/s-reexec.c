/*
 * s-reexec.c - a program that re-executes itself (same pid) a given number of times.
 *
 * Usage:   s-reexec [TIMES [IMAGE]]   (TIMES default 2; IMAGE is set by the program itself)
 * Stdout:  "image I: work=I+1" for I = 0..TIMES, each image printing its own line
 * Exit:    0 (the last image's); 1 when exec fails
 *
 * Calls per image I: main 1 > work I+1; images 0..TIMES-1 also main > reexec 1, which calls
 * execv("/proc/self/exe") and never returns (its frame and main's are open at the exec).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static NOINLINE int work(int x)
{
    BARRIER(x);
    return x + 1;
}

static NOINLINE void reexec(int times, int image)
{
    char t[16], i[16];
    snprintf(t, sizeof(t), "%d", times);
    snprintf(i, sizeof(i), "%d", image + 1);
    char *argv[] = {"s-reexec", t, i, NULL};
    execv("/proc/self/exe", argv);
    perror("s-reexec: execv");
    exit(1);
}

int main(int argc, char **argv)
{
    int times = argc > 1 ? atoi(argv[1]) : 2;
    int image = argc > 2 ? atoi(argv[2]) : 0;
    int w = 0;
    for (int k = 0; k <= image; k++)
        w = work(w);
    printf("image %d: work=%d\n", image, w);
    fflush(stdout);
    if (image < times)
        reexec(times, image);
    return 0;
}
