/*
 * s-prefork.c - a pre-forking server in miniature: the parent forks workers that keep running
 * traced code after fork() (no exec), waits for them, then does some work of its own.
 *
 * Usage:   s-prefork [WORKERS]   (3, at most 8)
 * Worker k (k = 0..WORKERS-1) calls serve() 10*(k+1) times and prints "worker k: served=S".
 * Workers end with exit(0), except the last, which then execs this program again with
 * "--again" (an image that prints "again: done" and exits 0 without a traced call but main).
 * Before forking, the parent also runs system("true") (a fork + exec that runs no traced code).
 * Stdout:  "worker k: served=10*(k+1)" per worker (in any order), "again: done", then
 *          "parent: workers=W after=2"
 * Exit:    0; 1 when fork or a worker fails
 *
 * Calls: parent: main 1 > spawn W > (fork); main > after 2.  Worker k (events after its fork,
 * inside the inherited main > spawn frames): serve 10*(k+1), finish 1 (never exits: exit or exec).
 * The --again image: main 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static NOINLINE int serve(int x)
{
    BARRIER(x);
    return x + 1;
}

static NOINLINE int after(int x)
{
    BARRIER(x);
    return x + 1;
}

static NOINLINE __attribute__((noreturn)) void finish(int k, int last)
{
    if (last) {
        char *argv[] = {"s-prefork", "--again", NULL};
        execv("/proc/self/exe", argv);
        _exit(1);
    }
    (void)k;
    exit(0);
}

static NOINLINE pid_t spawn(int k, int last)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    int s = 0;
    for (int i = 0; i < 10 * (k + 1); i++)
        s = serve(s);
    printf("worker %d: served=%d\n", k, s);
    fflush(stdout);
    finish(k, last);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--again") == 0) {
        printf("again: done\n");
        return 0;
    }
    int workers = argc > 1 ? atoi(argv[1]) : 3;
    if (workers < 1 || workers > 8)
        workers = 3;
    if (system("true") != 0)
        return 1;
    pid_t pids[8];
    for (int k = 0; k < workers; k++)
        if ((pids[k] = spawn(k, k == workers - 1)) < 0)
            return 1;
    int bad = 0;
    for (int k = 0; k < workers; k++) {
        int st = 0;
        while (waitpid(pids[k], &st, 0) < 0) {
        }
        bad |= !WIFEXITED(st) || WEXITSTATUS(st) != 0;
    }
    int a = 0;
    for (int i = 0; i < 2; i++)
        a = after(a);
    printf("parent: workers=%d after=%d\n", workers, a);
    return bad;
}
