/*
 * s-proctree.c - a process tree with known calls in each process: the parent forks four
 * children, one of which forks a grandchild, another execs this program again, the last execs
 * a shell at once.
 *
 * Usage:   s-proctree
 *          s-proctree --leaf    (the image child D execs: calls work() 100 times, prints nothing)
 * Stdout:  "parent: work=3 children=ok" (the children print nothing; "children=failed" when one
 *          did not exit 0)
 * Exit:    0; 1 when fork fails or a child did not exit 0
 *
 * Processes (events after each fork only; a child's frames inherited open have no ENTER in it):
 *   parent    main 1; main > work 3; main > spawn 3 (each forks one child)
 *   child A   child 1 > work 5, then exit(0)
 *   child B   child 1 > work 7; child > spawn 1 (forks C), waits for C, exit(0)
 *   child C   (forked by B inside child > spawn) child 1 > work 11, then exit(0)
 *   child D   child 1 > work 13, then execv of this program with --leaf (an image of another pid
 *             than the run's: its runtime stays inert, so none of its 100 work() calls is recorded;
 *             D's capture ends by exec)
 *   child E   forked by main itself, execl's "/bin/sh -c 'exit 0'" at once: no traced call at all
 *   (wait_ok: parent 3, child B 1)
 * All processes: work 3+5+7+11+13 = 39, child 4, spawn 4, wait_ok 4, main 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

enum { CHILD_A = 5, CHILD_B = 7, CHILD_C = 11, CHILD_D = 13 };

static NOINLINE int work(int x)
{
    BARRIER(x);
    return x + 1;
}

static NOINLINE int wait_ok(pid_t pid)
{
    int st = 0;
    while (waitpid(pid, &st, 0) < 0) {
    }
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static NOINLINE pid_t spawn(int n);

/* A child's own work: n calls of work(), then the child's end. */
static NOINLINE __attribute__((noreturn)) void child(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s = work(s);
    BARRIER(s);
    if (n == CHILD_B) {
        pid_t c = spawn(CHILD_C);
        exit(c > 0 && wait_ok(c) ? 0 : 1);
    }
    if (n == CHILD_D) {
        char *argv[] = {"s-proctree", "--leaf", NULL};
        execv("/proc/self/exe", argv);
        _exit(1);
    }
    exit(0);
}

static NOINLINE pid_t spawn(int n)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0)
        child(n);
    return pid;
}

int main(int argc, char **argv)
{
    int s = 0;
    if (argc == 2 && strcmp(argv[1], "--leaf") == 0) {
        for (int i = 0; i < 100; i++)
            s = work(s);
        return s == 100 ? 0 : 1;
    }
    for (int i = 0; i < 3; i++)
        s = work(s);
    pid_t a = spawn(CHILD_A), b = spawn(CHILD_B), d = spawn(CHILD_D);
    if (a < 0 || b < 0 || d < 0)
        return 1;
    fflush(stdout);
    pid_t e = fork(); /* no traced call between the fork and the exec */
    if (e == 0) {
        execl("/bin/sh", "sh", "-c", "exit 0", (char *)NULL);
        _exit(127);
    }
    int st = 0;
    while (e > 0 && waitpid(e, &st, 0) < 0) {
    }
    int ok = wait_ok(a) & wait_ok(b) & wait_ok(d) & (e > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0);
    printf("parent: work=%d children=%s\n", s, ok ? "ok" : "failed");
    return ok ? 0 : 1;
}
