/*
 * s-proclife.c - process life that bypasses the usual paths: main() ending with pthread_exit(),
 * children made by syscall(SYS_fork) and by clone() without CLONE_VM (no pthread_atfork handlers).
 *
 * Usage:   s-proclife SCENARIO
 * Scenarios:
 *   pthread-exit        main starts thread "one" (work 100) and thread "two" (joins one, then
 *                       work 200) and calls pthread_exit(); the process ends when "two" ends
 *   pthread-exit-alone  main calls work 10 times, then pthread_exit() with no other thread
 *   sysfork             before 3, syscall(SYS_fork); the child calls child_work 5 times and exit(7)
 *                       (atexit handlers and destructors run in it); the parent waits, then after 4
 *   clone               the same with clone(SIGCHLD) on a stack of its own; the child exits with exit(8)
 * Stdout:  pthread-exit:       "one: work=100" / "two: work=200" / "atexit: ran"
 *          pthread-exit-alone: "main: work=10" / "atexit: ran"
 *          sysfork, clone:     "parent: before=3" / "child: child_work=5" / "atexit: ran" (the
 *                              child's) / "parent: after=4 child_status=7|8" / "atexit: ran"
 * Exit:    0 (the children 7 and 8); 1 when a system call fails, 2 for bad arguments
 *
 * Calls: pthread-exit: main 1 (never exits: pthread_exit); thread one: one_main 1 > work 100;
 * thread two: two_main 1 > work 200; at_end 1 (from exit, on whichever thread ends last).
 * pthread-exit-alone: main 1 (never exits) > work 10; at_end 1.  sysfork / clone, parent:
 * main 1 > before 3, main > after 4, at_end 1; child: child_work 5, child_main 1 (clone only),
 * at_end 1 — none of the child's calls may appear in the parent's capture.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static NOINLINE int work(int x)
{
    BARRIER(x);
    return x + 1;
}

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

static NOINLINE void at_end(void)
{
    printf("atexit: ran\n");
    fflush(stdout);
}

static pthread_t one;

static void *one_main(void *arg)
{
    (void)arg;
    int w = 0;
    for (int i = 0; i < 100; i++)
        w = work(w);
    printf("one: work=%d\n", w);
    fflush(stdout);
    return NULL;
}

static void *two_main(void *arg)
{
    (void)arg;
    pthread_join(one, NULL);
    int w = 0;
    for (int i = 0; i < 200; i++)
        w = work(w);
    printf("two: work=%d\n", w);
    fflush(stdout);
    return NULL;
}

static int child_main(void *arg)
{
    int status = *(int *)arg;
    int c = 0;
    for (int i = 0; i < 5; i++)
        c = child_work(c);
    printf("child: child_work=%d\n", c);
    fflush(stdout);
    exit(status);
}

static int forked(const char *how)
{
    int n = 0;
    for (int i = 0; i < 3; i++)
        n = before(n);
    printf("parent: before=%d\n", n);
    fflush(stdout);
    pid_t pid;
    static int status_sys = 7, status_clone = 8;
    if (strcmp(how, "sysfork") == 0) {
        pid = (pid_t)syscall(SYS_fork);
        if (pid == 0)
            child_main(&status_sys);
    } else {
        size_t size = 256 << 10;
        char *stack = malloc(size);
        if (!stack)
            return 1;
        pid = clone(child_main, stack + size, SIGCHLD, &status_clone);
    }
    if (pid < 0) {
        perror("s-proclife: fork");
        return 1;
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

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: s-proclife pthread-exit|pthread-exit-alone|sysfork|clone\n");
        return 2;
    }
    atexit(at_end);
    const char *sc = argv[1];
    if (strcmp(sc, "pthread-exit") == 0) {
        pthread_t two;
        if (pthread_create(&one, NULL, one_main, NULL) != 0 || pthread_create(&two, NULL, two_main, NULL) != 0)
            return 1;
        pthread_exit(NULL);
    }
    if (strcmp(sc, "pthread-exit-alone") == 0) {
        int w = 0;
        for (int i = 0; i < 10; i++)
            w = work(w);
        printf("main: work=%d\n", w);
        fflush(stdout);
        pthread_exit(NULL);
    }
    if (strcmp(sc, "sysfork") == 0 || strcmp(sc, "clone") == 0)
        return forked(sc);
    fprintf(stderr, "s-proclife: unknown scenario '%s'\n", sc);
    return 2;
}
