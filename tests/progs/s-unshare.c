/*
 * s-unshare.c - a single-threaded program that joins its own mount namespace again (setns) and
 * enters a new user namespace (unshare), two calls the kernel refuses in a process with more than
 * one thread (EINVAL): under capture they must do what they do without it.  A forked child enters
 * a user namespace of its own first; after its own, the parent holds 32 MiB for HOLD_MS (memory
 * samples go on).
 *
 * Usage:   s-unshare [CALLS [HOLD_MS]]   (defaults 1000, 300)
 * Stdout:  "setns: R", "child unshare: R", "unshare: R" (R: "ok" or the errno's name), then
 *          "work: CALLS" after CALLS calls of step() made in the new namespace.
 * Exit:    0 (1 when fork fails)
 *
 * Calls: main 1; main > report 2; main > step CALLS (the parent's); report 1 in the child.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

static const char *result(int rc)
{
    static char buf[32];
    if (rc == 0)
        return "ok";
    switch (errno) {
    case EINVAL: return "EINVAL";
    case EPERM: return "EPERM";
    case ENOSPC: return "ENOSPC";
    case ENOSYS: return "ENOSYS";
    case EUSERS: return "EUSERS";
    default: snprintf(buf, sizeof(buf), "errno %d", errno); return buf;
    }
}

NOINLINE void report(const char *what, int rc)
{
    printf("%s: %s\n", what, result(rc));
    fflush(stdout);
}

static volatile unsigned long sink;

NOINLINE void step(unsigned long i)
{
    sink += i * 2654435761u;
}

int main(int argc, char **argv)
{
    long calls = argc > 1 ? atol(argv[1]) : 1000;
    int hold_ms = argc > 2 ? atoi(argv[2]) : 300;
    int mnt = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
    report("setns", mnt >= 0 ? setns(mnt, CLONE_NEWNS) : -1);
    pid_t pid = fork(); /* before the parent's namespace, in which its uid has no mapping */
    if (pid < 0)
        return 1;
    if (pid == 0) {
        report("child unshare", unshare(CLONE_NEWUSER));
        exit(0);
    }
    waitpid(pid, NULL, 0);
    report("unshare", unshare(CLONE_NEWUSER));
    for (long i = 0; i < calls; i++)
        step((unsigned long)i);
    char *block = malloc(32u << 20);
    if (block) {
        memset(block, 1, 32u << 20);
        __asm__ __volatile__("" : : "r"(block) : "memory"); /* the pages are written, not optimised away */
    }
    usleep((useconds_t)hold_ms * 1000u);
    printf("work: %ld\n", calls);
    free(block);
    return 0;
}
