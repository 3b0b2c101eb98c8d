/*
 * s-fork.c - the parent forks a child; both do known work.
 *
 * Usage:   s-fork                 child ends with _exit(7) (no atexit handlers, no destructors)
 *          s-fork --child-exit    child ends with exit(7) (runs atexit handlers and destructors,
 *                                 including any a profiler's runtime registered in the parent)
 * Stdout:  "parent: before=3\n"
 *          "child: child_work=5\n"
 *          "parent: after=4 child_status=7\n"
 *          (each line is flushed at once; the parent waits for the child before the last line)
 * Exit:    0 (the child's status is 7; 1 if fork fails, 2 for a bad argument)
 *
 * The parent calls before() 3 times, forks, waits for the child, then calls after() 4 times.
 * The child (a copy of the parent, main still on its stack) calls child_work() 5 times,
 * then child_done(), which calls _exit(7) or exit(7) and never returns.
 *
 * Calls (debug -O0 and release -O3 alike; verified with XRay basic mode):
 *   parent process:                   child process (events after the fork only):
 *     main                1             main                    (entered in the parent,
 *     main > before       3                                      never exits in the child)
 *     main > after        4             main > child_work    5
 *                                       main > child_done    1   entered, never exits
 *   A profiler that copies its state on fork sees the parent's 3 calls of before() in the
 *   child too (they happened before the fork): counting them again for the child would
 *   double-count them.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static NOINLINE int before(int x)
{
    BARRIER(x);
    return x + 1;
}

static NOINLINE int after(int x)
{
    BARRIER(x);
    return x + 1;
}

static NOINLINE int child_work(int x)
{
    BARRIER(x);
    return x + 1;
}

static NOINLINE __attribute__((noreturn)) void child_done(int use_exit)
{
    if (use_exit)
        exit(7);
    _exit(7);
}

int main(int argc, char **argv)
{
    int use_exit = 0;
    if (argc > 2 || (argc == 2 && strcmp(argv[1], "--child-exit") != 0)) {
        fprintf(stderr, "usage: s-fork [--child-exit]\n");
        return 2;
    }
    use_exit = argc == 2;

    int n = 0;
    for (int i = 0; i < 3; i++)
        n = before(n);
    printf("parent: before=%d\n", n);
    fflush(stdout); /* nothing buffered may be copied into the child */

    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 1;
    }
    if (pid == 0) {
        int c = 0;
        for (int i = 0; i < 5; i++)
            c = child_work(c);
        printf("child: child_work=%d\n", c);
        fflush(stdout);
        child_done(use_exit);
    }

    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
    }
    int m = 0;
    for (int i = 0; i < 4; i++)
        m = after(m);
    printf("parent: after=%d child_status=%d\n", m, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
}
