/*
 * s-forkvec.c - a forked child's first traced event carries a 256-bit vector.
 *
 * A thread's first traced event is the one a profiler's runtime does its set-up in (a forked
 * child's: its own capture), with library calls whose AVX code may clear the upper halves of
 * the ymm registers.  Here that event is, in the first child, the entry of sum() with its
 * __m256d argument in ymm0, and in the second child the exit of fork_twice(), whose __m256d
 * return value is in ymm0.
 *
 * Usage:   s-forkvec
 * Stdout:  "parent: 1111\n" "child 1: 1111\n" "child 2: 2222\n" "parent: 2222\n",
 *          or "no avx\n" when the CPU lacks AVX (nothing else is run)
 * Exit:    0 (1 if fork fails or a child fails)
 *
 * Calls (debug and release): parent: main 1 > run 1; run > make 1, run > sum 2, run > fork_twice 1.
 * Child 1 (events after its fork, inside the inherited main > run): sum 1.
 * Child 2: the exit of fork_twice (entered in the parent, no ENTER in the child), then sum 1.
 */
#include <immintrin.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define AVX __attribute__((target("avx")))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static volatile int sink; /* the calls have an effect: never folded, never moved across fork */

static NOINLINE AVX __m256d make(double x)
{
    sink++;
    return _mm256_set_pd(1000 * x, 100 * x, 10 * x, x);
}

static NOINLINE AVX double sum(__m256d v)
{
    double o[4];
    sink++;
    _mm256_storeu_pd(o, v);
    return o[0] + o[1] + o[2] + o[3];
}

/* fork(), then return v + v: computed after the fork, in ymm0 at the exit. */
static NOINLINE AVX __m256d fork_twice(__m256d v, pid_t *pid)
{
    sink++;
    *pid = fork();
    return _mm256_add_pd(v, v);
}

static inline __attribute__((always_inline)) int reap(pid_t pid)
{
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static NOINLINE AVX int run(void)
{
    __m256d v = make(1.0);
    printf("parent: %g\n", sum(v));
    fflush(stdout); /* nothing buffered may be copied into a child */

    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        printf("child 1: %g\n", sum(v));
        fflush(stdout);
        _exit(0);
    }
    int ok = reap(pid);

    __m256d w = fork_twice(v, &pid);
    if (pid < 0)
        return 1;
    if (pid == 0) {
        printf("child 2: %g\n", sum(w));
        fflush(stdout);
        _exit(0);
    }
    ok &= reap(pid);
    printf("parent: %g\n", sum(w));
    return ok ? 0 : 1;
}

int main(void)
{
    if (!__builtin_cpu_supports("avx")) {
        puts("no avx");
        return 0;
    }
    int rc = run();
    BARRIER(rc); /* no tail call: run stays below main */
    return rc;
}
