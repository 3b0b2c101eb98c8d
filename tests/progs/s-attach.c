/*
 * s-attach.c - a long-running loop to attach to: one traced call per iteration, a short sleep.
 *
 * Usage:   s-attach LOG SECONDS
 * Stdout:  "ready\n" (flushed) once running, then "iterations=N threads=T\n" at the end
 * Exit:    0 (2 for bad arguments or an unwritable LOG)
 *
 * Each iteration calls tick() once, then writes "i t_ns\n" to LOG (CLOCK_MONOTONIC after
 * tick returned; the file is flushed every iteration) and sleeps 1 ms (nanosleep: where the main
 * thread spends most of its time, a system call that holds no library lock).  A second thread
 * (worker) calls work() every 5 ms, so the process has two threads of its own; T is the number of
 * threads in /proc/self/task at the end, read while both still run.
 *
 * Calls (by the program's own log): main 1; main > tick N; worker thread: worker 1 > work M.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static volatile int stop;

static NOINLINE int tick(int x)
{
	BARRIER(x);
	return x + 1;
}

static NOINLINE int work(int x)
{
	BARRIER(x);
	return x * 3 + 1;
}

static NOINLINE void *worker(void *arg)
{
	int x = 0;
	struct timespec ts = {0, 5 * 1000 * 1000};
	while (!stop) {
		x = work(x);
		nanosleep(&ts, NULL);
	}
	*(int *)arg = x;
	return NULL;
}

static __attribute__((always_inline)) inline long long now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000000 + t.tv_nsec;
}

static __attribute__((always_inline)) inline int count_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	int n = 0;
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d));)
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	FILE *log = fopen(argv[1], "w");
	double secs = atof(argv[2]);
	if (!log || secs <= 0)
		return 2;
	int wx = 0;
	pthread_t t;
	if (pthread_create(&t, NULL, worker, &wx) != 0)
		return 2;
	printf("ready\n");
	fflush(stdout);
	long long end = now_ns() + (long long)(secs * 1e9);
	long n = 0;
	int x = 0;
	struct timespec ms = {0, 1000 * 1000};
	while (now_ns() < end) {
		x = tick(x);
		fprintf(log, "%ld %lld\n", n++, now_ns());
		fflush(log);
		nanosleep(&ms, NULL);
	}
	int threads = count_threads();
	stop = 1;
	pthread_join(t, NULL);
	fclose(log);
	printf("iterations=%ld threads=%d\n", n, threads);
	return x == (int)n ? 0 : 1;
}
