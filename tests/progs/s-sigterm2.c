/*
 * s-sigterm2.c - a service that shuts down gracefully on SIGTERM and treats a
 * second SIGTERM as "force quit", as many servers do.
 *
 * Usage:   s-sigterm2 [GRACE_MS]   (default 300; 0..60000)
 * Stdout:  "ready\n" (flushed) once SIGTERM is handled; after the first SIGTERM it
 *          calls shutdown_step() 3 times over GRACE_MS and prints "graceful: steps=3\n"
 * Exit:    0 after one SIGTERM; 99 (at once, from the handler) on a second one
 *
 * main polls the flag every 5 ms (no sigsuspend race, and the handler may run
 * on any thread of the process).
 *
 * Calls (debug and release, as the program's logic implies; it waits for a signal, so
 * verify-counts.sh does not run it): main 1; main > shutdown_step 3 (after one SIGTERM).
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

static volatile sig_atomic_t terms;

static void on_term(int sig)
{
    (void)sig;
    if (++terms > 1)
        _exit(99);
}

static NOINLINE void shutdown_step(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

int main(int argc, char **argv)
{
    long grace = argc > 1 ? strtol(argv[1], NULL, 10) : 300;
    if (grace < 0 || grace > 60000)
        return 2;
    struct sigaction sa = {0};
    sa.sa_handler = on_term;
    sigaction(SIGTERM, &sa, NULL);
    printf("ready\n");
    fflush(stdout);
    struct timespec poll = {0, 5000000L};
    while (!terms)
        nanosleep(&poll, NULL);
    /* A second SIGTERM may come at any time from now on. */
    for (int i = 0; i < 3; i++)
        shutdown_step(grace / 3);
    printf("graceful: steps=3\n");
    return 0;
}
