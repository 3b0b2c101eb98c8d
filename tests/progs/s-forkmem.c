/*
 * s-forkmem.c - a forked child (no exec) that touches memory and keeps running.
 *
 * Usage:   s-forkmem [MIB [MS]]   (64 MiB, 600 ms)
 * Stdout:  "child: touched=MIB status=0" (printed by the parent after the child ended)
 * Exit:    0 (1 when fork or the child failed)
 *
 * The parent forks once and waits.  The child writes every byte of MIB MiB (so its RSS
 * is at least MIB MiB while it holds them), then holds them for MS ms, calling tick()
 * every 10 ms, and exits with 0.
 *
 * Calls: parent: main 1 > spawn 1.  Child (after the fork): touch 1, hold 1 > tick MS/10.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static NOINLINE char *touch(long mib)
{
    char *p = malloc((size_t)mib << 20);
    if (p)
        memset(p, 0x5a, (size_t)mib << 20);
    return p;
}

static NOINLINE int tick(int k)
{
    BARRIER(k);
    struct timespec ts = {0, 10 * 1000 * 1000};
    nanosleep(&ts, NULL);
    return k + 1;
}

static NOINLINE int hold(long ms)
{
    int k = 0;
    for (long i = 0; i < ms / 10; i++)
        k = tick(k);
    return k;
}

static NOINLINE pid_t spawn(long mib, long ms)
{
    pid_t pid = fork();
    if (pid == 0) {
        char *p = touch(mib);
        if (!p)
            _exit(1);
        hold(ms);
        BARRIER(p);
        exit(p[((size_t)mib << 20) - 1] == 0x5a ? 0 : 1);
    }
    return pid;
}

int main(int argc, char **argv)
{
    long mib = argc > 1 ? atol(argv[1]) : 64;
    long ms = argc > 2 ? atol(argv[2]) : 600;
    pid_t pid = spawn(mib, ms);
    if (pid < 0)
        return 1;
    int st = 0;
    if (waitpid(pid, &st, 0) != pid)
        return 1;
    int status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    printf("child: touched=%ld status=%d\n", mib, status);
    return status ? 1 : 0;
}
