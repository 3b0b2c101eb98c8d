/*
 * s-selfprof.c - a program that profiles itself, as gperftools or a language runtime does: SIGPROF
 * from setitimer(ITIMER_PROF), and perf_event_open of its own (a counting task-clock event and a
 * sampling cpu-clock event with its ring mapped).  A profiler beside it must change none of that.
 *
 * Usage:   s-selfprof [TICKS]   (default 100, 1..10000)
 * Stdout:  "fds: count=N sample=M"    the descriptors perf_event_open returned: the lowest free
 *                                     ones (3 and 4 when started with 0, 1, 2 open)
 *          "sigprof: ticks=TICKS"     it spins until TICKS SIGPROF signals (1 ms of CPU time each)
 *                                     were handled
 *          "perf: count=ok samples=ok" its counting event counted its CPU time (at least TICKS
 *                                     ms of it) and its sampling event's ring holds samples of it
 *          or "perf: unavailable ERRNO" when the kernel refuses perf_event_open
 * Exit:    0, 1 when a check failed, 2 for a bad argument
 *
 * Calls: main 1, open_events 1, spin (until TICKS ticks: not a fixed number), report 1.  The
 * signal handler is not traced (xray_never_instrument): what it does is count.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static volatile sig_atomic_t ticks;

__attribute__((xray_never_instrument)) static void on_prof(int sig)
{
    (void)sig;
    ticks++;
}

static int perf_open(uint32_t type, uint64_t config, uint64_t period)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof(a));
    a.size = sizeof(a);
    a.type = type;
    a.config = config;
    a.sample_period = period;
    a.sample_type = period ? PERF_SAMPLE_IP : 0;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static int count_fd = -1, sample_fd = -1;
static void *ring;

static NOINLINE int open_events(void)
{
    count_fd = perf_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 0);
    if (count_fd < 0)
        return errno;
    sample_fd = perf_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 1000000);
    if (sample_fd < 0)
        return errno;
    ring = mmap(NULL, 9 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, sample_fd, 0);
    return ring == MAP_FAILED ? errno : 0;
}

static NOINLINE long spin(long x)
{
    for (int i = 0; i < 1000; i++) {
        x = x * 6364136223846793005L + 1442695040888963407L;
        BARRIER(x);
    }
    return x;
}

static NOINLINE int report(int target)
{
    int bad = 0;
    printf("sigprof: ticks=%d\n", (int)ticks == target ? target : (int)ticks);
    bad |= ticks != target;
    uint64_t ns = 0;
    int counted = read(count_fd, &ns, sizeof(ns)) == (ssize_t)sizeof(ns) && ns >= (uint64_t)target * 1000000u;
    struct perf_event_mmap_page *mp = ring;
    int sampled = mp->data_head > 0;
    printf("perf: count=%s samples=%s\n", counted ? "ok" : "bad", sampled ? "ok" : "bad");
    bad |= !counted || !sampled;
    return bad;
}

int main(int argc, char **argv)
{
    int target = argc > 1 ? atoi(argv[1]) : 100;
    if (target < 1 || target > 10000) {
        fprintf(stderr, "usage: s-selfprof [TICKS]\n");
        return 2;
    }
    int err = open_events();
    if (err) {
        printf("perf: unavailable %s\n", strerror(err));
        return 0;
    }
    printf("fds: count=%d sample=%d\n", count_fd, sample_fd);
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_prof;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGPROF, &sa, NULL);
    struct itimerval it = {{0, 1000}, {0, 1000}};
    setitimer(ITIMER_PROF, &it, NULL);
    long x = 1;
    while (ticks < target)
        x = spin(x);
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_PROF, &off, NULL);
    BARRIER(x);
    return report(target);
}
