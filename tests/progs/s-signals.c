/*
 * s-signals.c - a single-threaded program that relies on its own signal mask.
 *
 * Usage:   s-signals SCENARIO [ROUNDS]   (ROUNDS default 20)
 * Scenarios (each repeats ROUNDS times, calling work() once per round):
 *   sigwait      blocks SIGTERM, SIGUSR1, SIGCHLD; kill(getpid(), ...) each and takes them with sigwait
 *   sigwaitinfo  the same with sigwaitinfo (checks si_pid == getpid())
 *   signalfd     the same through a signalfd
 *   supervisor   blocks SIGCHLD, forks a child that _exits at once, waits for SIGCHLD with
 *                sigtimedwait (10 s: the test fails instead of hanging), then reaps it
 *   masked       a SIGUSR2 handler; SIGUSR2 blocked, sent to the process, then unblocked:
 *                the handler must run only after the unblock, never inside the blocked section
 *   sigprof      an ITIMER_PROF timer (1 ms of CPU) whose handler notes the thread it runs on;
 *                the program blocks SIGPROF for half of each round: every delivery must be on
 *                the main thread (the program has no other)
 *   all          every scenario above, in that order
 * Stdout:  one line per scenario, "SCENARIO: rounds=R work=W" (+ details), R = W = ROUNDS
 * Exit:    0; 3 when a scenario saw something a plain run never does (the line says what);
 *          a signal's default action when it reaches no waiting thread (e.g. 138 for SIGUSR1)
 *
 * Calls: main 1; main > run_SCENARIO 1 > work ROUNDS for each scenario run (all: work
 * 6*ROUNDS in all); run_sigprof > spin 2*ROUNDS.  Helpers (set3, fail) are called too; the
 * SIGPROF/SIGUSR2 handlers run at unpredictable points, so their counts vary.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static int bad;

static NOINLINE int work(int x)
{
    BARRIER(x);
    return x + 1;
}

static void fail(const char *scenario, const char *what, int round)
{
    printf("%s: FAILED in round %d: %s\n", scenario, round, what);
    fflush(stdout);
    bad = 1;
}

static sigset_t set3(void)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGTERM);
    sigaddset(&s, SIGUSR1);
    sigaddset(&s, SIGCHLD);
    return s;
}

static const int three[] = {SIGTERM, SIGUSR1, SIGCHLD};

static void run_sigwait(int rounds)
{
    sigset_t s = set3();
    sigprocmask(SIG_BLOCK, &s, NULL);
    int w = 0;
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < 3; k++) {
            kill(getpid(), three[k]);
            int got = 0;
            if (sigwait(&s, &got) != 0 || got != three[k])
                fail("sigwait", "wrong or no signal", r);
        }
        w = work(w);
    }
    sigprocmask(SIG_UNBLOCK, &s, NULL);
    printf("sigwait: rounds=%d work=%d\n", rounds, w);
}

static void run_sigwaitinfo(int rounds)
{
    sigset_t s = set3();
    sigprocmask(SIG_BLOCK, &s, NULL);
    int w = 0;
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < 3; k++) {
            kill(getpid(), three[k]);
            siginfo_t si;
            int got = sigwaitinfo(&s, &si);
            if (got != three[k] || si.si_pid != getpid())
                fail("sigwaitinfo", "wrong or no signal", r);
        }
        w = work(w);
    }
    sigprocmask(SIG_UNBLOCK, &s, NULL);
    printf("sigwaitinfo: rounds=%d work=%d\n", rounds, w);
}

static void run_signalfd(int rounds)
{
    sigset_t s = set3();
    sigprocmask(SIG_BLOCK, &s, NULL);
    int fd = signalfd(-1, &s, SFD_CLOEXEC);
    if (fd < 0) {
        fail("signalfd", strerror(errno), 0);
        return;
    }
    int w = 0;
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < 3; k++) {
            kill(getpid(), three[k]);
            struct signalfd_siginfo si;
            if (read(fd, &si, sizeof(si)) != (ssize_t)sizeof(si) || (int)si.ssi_signo != three[k])
                fail("signalfd", "wrong or no signal", r);
        }
        w = work(w);
    }
    close(fd);
    sigprocmask(SIG_UNBLOCK, &s, NULL);
    printf("signalfd: rounds=%d work=%d\n", rounds, w);
}

static void run_supervisor(int rounds)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGCHLD);
    sigprocmask(SIG_BLOCK, &s, NULL);
    int w = 0;
    for (int r = 0; r < rounds; r++) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0)
            _exit(r % 100);
        if (pid < 0) {
            fail("supervisor", "fork failed", r);
            break;
        }
        struct timespec limit = {10, 0};
        siginfo_t si;
        int got = sigtimedwait(&s, &si, &limit);
        if (got != SIGCHLD)
            fail("supervisor", got < 0 && errno == EAGAIN ? "no SIGCHLD within 10 s" : "wrong signal", r);
        int status = 0;
        if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != r % 100)
            fail("supervisor", "child status", r);
        w = work(w);
    }
    sigprocmask(SIG_UNBLOCK, &s, NULL);
    printf("supervisor: rounds=%d work=%d\n", rounds, w);
}

static volatile sig_atomic_t usr2_runs;

static void on_usr2(int sig)
{
    (void)sig;
    usr2_runs++;
}

static void run_masked(int rounds)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_usr2;
    sigaction(SIGUSR2, &sa, NULL);
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGUSR2);
    int w = 0;
    for (int r = 0; r < rounds; r++) {
        usr2_runs = 0;
        sigprocmask(SIG_BLOCK, &s, NULL);
        kill(getpid(), SIGUSR2);
        struct timespec nap = {0, 1000000};
        nanosleep(&nap, NULL);        /* time for another thread to take it */
        if (usr2_runs != 0)
            fail("masked", "handler ran while the signal was blocked", r);
        sigprocmask(SIG_UNBLOCK, &s, NULL);
        if (usr2_runs != 1)
            fail("masked", "handler did not run once at the unblock", r);
        w = work(w);
    }
    signal(SIGUSR2, SIG_DFL);
    printf("masked: rounds=%d work=%d\n", rounds, w);
}

static volatile sig_atomic_t prof_main, prof_other;
static pid_t main_tid;

static void on_prof(int sig)
{
    (void)sig;
    if ((pid_t)syscall(SYS_gettid) == main_tid)
        prof_main++;
    else
        prof_other++;
}

static inline __attribute__((always_inline)) uint64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* About `ms` milliseconds of CPU. */
static NOINLINE uint64_t spin(int ms)
{
    uint64_t x = 0, end = cpu_ns() + (uint64_t)ms * 1000000u;
    while (cpu_ns() < end)
        for (int i = 0; i < 1000; i++) {
            x += (uint64_t)i * 2654435761u;
            BARRIER(x);
        }
    return x;
}

static void run_sigprof(int rounds)
{
    main_tid = (pid_t)syscall(SYS_gettid);
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_prof;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGPROF, &sa, NULL);
    struct itimerval it = {{0, 1000}, {0, 1000}};
    setitimer(ITIMER_PROF, &it, NULL);
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGPROF);
    int w = 0;
    for (int r = 0; r < rounds; r++) {
        sigprocmask(SIG_BLOCK, &s, NULL);
        spin(2);
        sigprocmask(SIG_UNBLOCK, &s, NULL);
        spin(2);
        w = work(w);
    }
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_PROF, &off, NULL);
    signal(SIGPROF, SIG_DFL);
    if (prof_other)
        fail("sigprof", "the handler ran on a thread that is not the program's", rounds);
    printf("sigprof: rounds=%d work=%d other_thread=%d\n", rounds, w, (int)prof_other);
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: s-signals sigwait|sigwaitinfo|signalfd|supervisor|masked|sigprof|all [ROUNDS]\n");
        return 2;
    }
    int rounds = argc == 3 ? atoi(argv[2]) : 20;
    const char *sc = argv[1];
    int all = strcmp(sc, "all") == 0;
    int known = all;
    if (all || strcmp(sc, "sigwait") == 0)
        known = 1, run_sigwait(rounds);
    if (all || strcmp(sc, "sigwaitinfo") == 0)
        known = 1, run_sigwaitinfo(rounds);
    if (all || strcmp(sc, "signalfd") == 0)
        known = 1, run_signalfd(rounds);
    if (all || strcmp(sc, "supervisor") == 0)
        known = 1, run_supervisor(rounds);
    if (all || strcmp(sc, "masked") == 0)
        known = 1, run_masked(rounds);
    if (all || strcmp(sc, "sigprof") == 0)
        known = 1, run_sigprof(rounds);
    if (!known) {
        fprintf(stderr, "s-signals: unknown scenario '%s'\n", sc);
        return 2;
    }
    return bad ? 3 : 0;
}
