/*
 * s-forkexit.c - a thread forks; the child's only thread ends with pthread_exit().
 *
 * Usage:   s-forkexit [N]       (N = 7: calls of child_work() in the child)
 * Stdout:  "child: work=N\n" (the child, flushed), then
 *          "parent: child ended status=0 parent_work=3\n"
 *          or "parent: child still running after 20 s\n" (the child is then killed)
 * Exit:    0 when the child ended by itself, 1 when it had to be killed (or fork failed)
 *
 * The main thread starts one thread, which forks.  In the child that thread is the only one
 * (a copy of the forking thread, not of main): it calls child_work() N times, prints, and
 * returns from the thread function, which ends the thread as pthread_exit() does.  POSIX:
 * the process then ends with status 0 once its last thread is gone.  A profiler thread left
 * running in the child would keep the process alive, so the parent's waitpid() would never
 * return: the parent waits at most 20 s, polling, and says so.
 *
 * Calls (debug and release; the thread root is spawn_and_wait, entered before the fork):
 *   parent process:   main 1; main > parent_work 3; thread: spawn_and_wait 1
 *   child process (events after the fork): child_work N (below the inherited
 *   spawn_and_wait, which has no ENTER in the child; it exits there, an unmatched exit)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static int n_child = 7;
static int child_status = -1;
static int child_hung;

static NOINLINE int child_work(int x)
{
	BARRIER(x);
	return x + 1;
}

static NOINLINE int parent_work(int x)
{
	BARRIER(x);
	return x + 1;
}

static NOINLINE void *spawn_and_wait(void *arg)
{
	(void)arg;
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return NULL;
	if (pid == 0) {
		int w = 0;
		for (int i = 0; i < n_child; i++)
			w = child_work(w);
		printf("child: work=%d\n", w);
		fflush(stdout);
		return NULL; /* the child's only thread ends: the process ends, status 0 */
	}
	struct timespec nap = {0, 10 * 1000 * 1000};
	for (int i = 0; i < 2000; i++) {
		int st;
		pid_t r = waitpid(pid, &st, WNOHANG);
		if (r == pid) {
			child_status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
			return NULL;
		}
		nanosleep(&nap, NULL);
	}
	child_hung = 1;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		n_child = atoi(argv[1]);
	pthread_t t;
	if (pthread_create(&t, NULL, spawn_and_wait, NULL) != 0)
		return 1;
	pthread_join(t, NULL);
	int w = 0;
	for (int i = 0; i < 3; i++)
		w = parent_work(w);
	if (child_hung) {
		printf("parent: child still running after 20 s\n");
		return 1;
	}
	printf("parent: child ended status=%d parent_work=%d\n", child_status, w);
	return child_status < 0;
}
