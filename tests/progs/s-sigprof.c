/*
 * s-sigprof.c - signal handlers that call traced functions while the thread is busy in traced code.
 *
 * Usage:   s-sigprof [SIGNALS [WORK [USR1]]]   (100 2 1)
 *          SIGNALS: the number of SIGPROF (and of SIGUSR1) to take; WORK: prof_work() calls per
 *          SIGPROF, 1..1000; USR1: 0 leaves SIGUSR1 out (no helper thread)
 * Stdout:  "prof=P usr1=U nested=N loop=L\n"  (P >= SIGNALS, U >= SIGNALS or 0: the handlers' counts)
 * Exit:    0 (1 if a timer or thread cannot be set up, 2 for bad arguments)
 *
 * The main thread calls leaf() in a tight loop, so a signal almost always lands while it is
 * inside a traced call's entry or exit.  Two sources of signals interrupt it:
 *  - setitimer(ITIMER_PROF, 200 us): on_prof() (the SIGPROF handler) calls prof_work() WORK times;
 *  - a helper thread (never instrumented) sends SIGUSR1 to the main thread every 300 us:
 *    on_usr1() runs on an alternate signal stack (sigaltstack) and calls usr1_work() once.
 * SIGPROF may arrive inside on_usr1 (nested handlers); on_prof counts those in `nested`.
 * The loop runs until both handlers have run SIGNALS times.
 *
 * Calls, all on the main thread (debug and release; by the program's own counters):
 *   main 1; main > leaf L; on_prof P, on_prof > prof_work WORK*P; on_usr1 U, on_usr1 > usr1_work U.
 *   Where a handler's frame sits in the tree depends on where the signal landed (below main,
 *   below leaf, or below the other handler); the totals per function do not.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))
#define UNTRACED __attribute__((xray_never_instrument))

static volatile sig_atomic_t prof_calls, usr1_calls, in_usr1, nested;
static volatile sig_atomic_t stop_helper;
static volatile int sink;
static int work = 2;

static NOINLINE int leaf(int x)
{
	BARRIER(x);
	return x + 1;
}

static NOINLINE int prof_work(int x)
{
	BARRIER(x);
	return x + 3;
}

static NOINLINE int usr1_work(int x)
{
	BARRIER(x);
	return x + 5;
}

static NOINLINE void on_prof(int sig)
{
	(void)sig;
	if (in_usr1)
		nested = nested + 1;
	for (int i = 0; i < work; i++)
		sink = prof_work(sink);
	prof_calls = prof_calls + 1;
}

static NOINLINE void on_usr1(int sig)
{
	(void)sig;
	in_usr1 = 1;
	sink = usr1_work(sink);
	usr1_calls = usr1_calls + 1;
	in_usr1 = 0;
}

static pthread_t main_thread;

static UNTRACED void *helper(void *arg)
{
	(void)arg;
	struct timespec ts = {0, 300 * 1000};
	while (!stop_helper) {
		pthread_kill(main_thread, SIGUSR1);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int want = argc > 1 ? atoi(argv[1]) : 100;
	int usr1 = argc > 3 ? atoi(argv[3]) : 1;
	if (argc > 2)
		work = atoi(argv[2]);
	if (want < 1 || work < 1 || work > 1000)
		return 2;
	static char altstack[1 << 16];
	stack_t ss = {.ss_sp = altstack, .ss_size = sizeof(altstack), .ss_flags = 0};
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_prof;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaltstack(&ss, NULL) != 0 || sigaction(SIGPROF, &sa, NULL) != 0)
		return 1;
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART | SA_ONSTACK;
	if (sigaction(SIGUSR1, &sa, NULL) != 0)
		return 1;
	struct itimerval it = {{0, 200}, {0, 200}};
	if (setitimer(ITIMER_PROF, &it, NULL) != 0)
		return 1;
	main_thread = pthread_self();
	pthread_t h;
	if (usr1 && pthread_create(&h, NULL, helper, NULL) != 0)
		return 1;
	long loop = 0;
	int x = 0;
	while (prof_calls < want || (usr1 && usr1_calls < want)) {
		for (int i = 0; i < 1000; i++)
			x = leaf(x);
		loop += 1000;
	}
	struct itimerval off = {{0, 0}, {0, 0}};
	setitimer(ITIMER_PROF, &off, NULL);
	stop_helper = 1;
	if (usr1)
		pthread_join(h, NULL);
	/* Block both before reading the counts: none may change after they are printed. */
	sigset_t both;
	sigemptyset(&both);
	sigaddset(&both, SIGPROF);
	sigaddset(&both, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &both, NULL);
	printf("prof=%d usr1=%d nested=%d loop=%ld\n", (int)prof_calls, (int)usr1_calls, (int)nested, loop);
	return x == (int)loop ? 0 : 1;
}
