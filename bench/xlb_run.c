/*
 * xlb_run.c - the bench's process launcher: run one command, report its
 * wall time and resource usage.
 *
 * Usage:  xlb_run [--capture] RESULT_FILE COMMAND [ARGS...]
 *
 * Forks, execs COMMAND (stdio inherited), waits with wait4, and writes one
 * line to RESULT_FILE:
 *     wall_ns user_us sys_us maxrss_kb status
 * With --capture the child gets EXALOOP_CAPTURE_PID set to its own pid (the
 * runtime captures only the process the CLI names), as `exaloop profile
 * exec` would do.
 *
 * Why a separate launcher: the kernel folds the high-water RSS of a
 * process's previous image into its ru_maxrss at exec, so a command forked
 * from the Python runner would report at least the runner's own RSS.  This
 * launcher is small, and its child's accounting starts from it.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	int a = 1, capture = 0;
	if (a < argc && strcmp(argv[a], "--capture") == 0) {
		capture = 1;
		a++;
	}
	if (argc - a < 2) {
		fprintf(stderr, "usage: xlb_run [--capture] RESULT_FILE COMMAND [ARGS...]\n");
		return 2;
	}
	const char *result = argv[a++];
	long long t0 = now_ns();
	pid_t pid = fork();
	if (pid < 0) {
		perror("xlb_run: fork");
		return 2;
	}
	if (pid == 0) {
		if (capture) {
			char buf[32];
			snprintf(buf, sizeof(buf), "%d", (int)getpid());
			setenv("EXALOOP_CAPTURE_PID", buf, 1);
		}
		execvp(argv[a], argv + a);
		perror("xlb_run: exec");
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("xlb_run: wait4");
		return 2;
	}
	long long wall = now_ns() - t0;
	FILE *f = fopen(result, "w");
	if (!f) {
		perror("xlb_run: result file");
		return 2;
	}
	fprintf(f, "%lld %lld %lld %ld %d\n", wall,
		(long long)ru.ru_utime.tv_sec * 1000000LL + ru.ru_utime.tv_usec,
		(long long)ru.ru_stime.tv_sec * 1000000LL + ru.ru_stime.tv_usec, ru.ru_maxrss,
		WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	fclose(f);
	return 0;
}
