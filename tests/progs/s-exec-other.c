/*
 * s-exec-other.c - a program that replaces itself with another program (exec, same pid).
 *
 * Usage:   s-exec-other PROGRAM [ARG...]   (PROGRAM: an absolute path, e.g. /bin/true)
 * Stdout:  "before exec: work=3" (then whatever PROGRAM prints)
 * Exit:    PROGRAM's; 127 when the exec fails; 2 without arguments
 *
 * Calls: main 1 > work 3, main > swap 1 (execv, never returns: its frame and main's are open
 * at the exec).
 */
#include <stdio.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static NOINLINE int work(int x)
{
    BARRIER(x);
    return x + 1;
}

static NOINLINE void swap(char **argv)
{
    execv(argv[0], argv);
    perror("s-exec-other: execv");
    _exit(127);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: s-exec-other PROGRAM [ARG...]\n");
        return 2;
    }
    int w = 0;
    for (int k = 0; k < 3; k++)
        w = work(w);
    printf("before exec: work=%d\n", w);
    fflush(stdout);
    swap(argv + 1);
    return 0;
}
