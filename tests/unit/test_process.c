/* Unit tests: starting and waiting for programs, one or a pool (src/os/process.c). */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "process.h"

static int sh(const char *script, enum xl_stdio_policy stdio)
{
	char *const argv[] = {"sh", "-c", (char *)script, NULL};
	struct xl_process p = {.argv = argv, .signals = XL_SIGNALS_FORWARD, .stdio = stdio};
	return xl_process_run(&p);
}

static void exit_status_and_signals(void **state)
{
	(void)state;
	assert_int_equal(sh("exit 0", XL_STDIO_INHERIT), 0);
	assert_int_equal(sh("exit 3", XL_STDIO_INHERIT), 3);
	assert_int_equal(sh("kill -TERM $$", XL_STDIO_INHERIT), 128 + SIGTERM);
	/* ^C is ignored by the parent while the child runs, not by the child */
	assert_int_equal(sh("kill -INT $$; sleep 5", XL_STDIO_INHERIT), 128 + SIGINT);
}

static void policies_are_undone(void **state)
{
	(void)state;
	struct sigaction sa;
	sh("exit 0", XL_STDIO_INHERIT);
	sigaction(SIGINT, NULL, &sa);
	assert_true(sa.sa_handler == SIG_DFL);
	sigaction(SIGTERM, NULL, &sa);
	assert_true(sa.sa_handler == SIG_DFL);
	sigset_t mask;
	sigprocmask(SIG_SETMASK, NULL, &mask);
	assert_false(sigismember(&mask, SIGTERM));
	assert_false(sigismember(&mask, SIGHUP));
}

/* A helper in our process group that sends us SIGTERM in 0.3 s. */
static pid_t sigterm_us_soon(void)
{
	pid_t helper = fork();
	if (helper == 0) {
		usleep(300 * 1000);
		kill(getppid(), SIGTERM);
		_exit(0);
	}
	return helper;
}

static void sigterm_is_forwarded(void **state)
{
	(void)state;
	/* Someone outside the child's process group (a helper in ours) sends
	 * us SIGTERM while the child runs; we pass it on to the child, which
	 * dies of it while we live on. */
	pid_t helper = sigterm_us_soon();
	assert_int_equal(sh("sleep 5", XL_STDIO_INHERIT), 128 + SIGTERM);
	waitpid(helper, NULL, 0);
}

static void own_group_signals_are_not_returned(void **state)
{
	(void)state;
	/* The child runs in a process group of its own; what its group sends
	 * to us is not sent back (a program signalling its parent). */
	assert_int_equal(sh("kill -USR1 $PPID; sleep 0.3; exit 7", XL_STDIO_INHERIT), 7);
	/* and the child is the leader of its own group */
	assert_int_equal(sh("test \"$(ps -o pgid= -p $$ | tr -d ' ')\" = \"$$\"", XL_STDIO_INHERIT), 0);
}

static void not_found_and_not_executable(void **state)
{
	(void)state;
	char *const missing[] = {"/nonexistent/program", NULL};
	struct xl_process p = {.argv = missing, .signals = XL_SIGNALS_FORWARD};
	errno = 0;
	assert_int_equal(xl_process_run(&p), -1);
	assert_int_equal(errno, ENOENT);
	char *const in_path[] = {"exaloop-no-such-program-anywhere", NULL};
	struct xl_process q = {.argv = in_path};
	assert_int_equal(xl_process_run(&q), -1);
	assert_int_equal(errno, ENOENT);
	char *const dir[] = {"/", NULL};
	struct xl_process r = {.argv = dir};
	assert_int_equal(xl_process_run(&r), -1);
	assert_int_equal(errno, EACCES);
}

static void set_marker(void *arg)
{
	setenv("XL_TEST_MARKER", arg, 1);
}

static void setup_runs_in_the_child_only(void **state)
{
	(void)state;
	unsetenv("XL_TEST_MARKER");
	char *const argv[] = {"sh", "-c", "test \"$XL_TEST_MARKER\" = yes", NULL};
	struct xl_process p = {.argv = argv, .setup = set_marker, .setup_arg = "yes"};
	assert_int_equal(xl_process_run(&p), 0);
	assert_null(getenv("XL_TEST_MARKER"));
}

static void quiet_and_detached(void **state)
{
	(void)state;
	char path[] = "/tmp/xl-test-process-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	/* quiet: stdout/stderr to /dev/null, so the file stays empty */
	int saved = dup(1);
	dup2(fd, 1);
	int rc = sh("echo visible", XL_STDIO_QUIET);
	dup2(saved, 1);
	close(saved);
	assert_int_equal(rc, 0);
	assert_int_equal(lseek(fd, 0, SEEK_END), 0);
	/* detached: start returns without a child to wait for; the program runs */
	char script[128];
	snprintf(script, sizeof(script), "echo $PPID > %s", path);
	char *const argv[] = {"sh", "-c", script, NULL};
	struct xl_process p = {.argv = argv, .stdio = XL_STDIO_DETACHED};
	assert_int_equal(xl_process_start(&p), 0);
	assert_int_equal(p.pid, 0);
	xl_process_end(&p);
	char buf[32] = "";
	for (int i = 0; i < 500 && buf[0] == 0; i++) {
		usleep(10000);
		if (pread(fd, buf, sizeof(buf) - 1, 0) < 0)
			buf[0] = 0;
	}
	assert_true(buf[0] != 0);
	assert_int_not_equal(atoi(buf), getpid()); /* not our child */
	close(fd);
	unlink(path);
}

static void read_line_takes_the_first_line(void **state)
{
	(void)state;
	char out[64];
	char *const two[] = {"sh", "-c", "echo one; echo two; echo err >&2", NULL};
	assert_int_equal(xl_process_read_line(two, out, sizeof(out)), 0);
	assert_string_equal(out, "one");
	char *const none[] = {"sh", "-c", "exit 3", NULL};
	assert_int_equal(xl_process_read_line(none, out, sizeof(out)), -1);
	assert_string_equal(out, "");
	char *const missing[] = {"/nonexistent/program", NULL};
	assert_int_equal(xl_process_read_line(missing, out, sizeof(out)), -1);
	char small[4];
	char *const longer[] = {"sh", "-c", "echo abcdefgh", NULL};
	assert_int_equal(xl_process_read_line(longer, small, sizeof(small)), 0);
	assert_string_equal(small, "abc");
	/* more output than a pipe holds: read to the end, no deadlock */
	char *const lots[] = {"sh", "-c", "echo first; yes | head -c 300000", NULL};
	assert_int_equal(xl_process_read_line(lots, out, sizeof(out)), 0);
	assert_string_equal(out, "first");
}

struct lines_seen {
	char text[256];
	int calls, stop_after;
};

static int note_line(const char *line, void *arg)
{
	struct lines_seen *l = arg;
	size_t used = strlen(l->text);
	snprintf(l->text + used, sizeof(l->text) - used, "[%s]", line);
	return ++l->calls == l->stop_after;
}

static void lines_each_and_status(void **state)
{
	(void)state;
	/* every line, an empty one, a last one without its newline, stderr
	 * dropped, and the exit status */
	struct lines_seen l = {"", 0, 0};
	char *const three[] = {"sh", "-c", "printf 'a b\\n\\nc'; echo err >&2; exit 5", NULL};
	assert_int_equal(xl_process_lines(three, note_line, &l), 5);
	assert_string_equal(l.text, "[a b][][c]");
	/* fn stops it: no more calls, the rest drained (more than a pipe holds) */
	struct lines_seen two = {"", 0, 2};
	char *const lots[] = {"sh", "-c", "echo 1; echo 2; echo 3; yes | head -c 300000", NULL};
	assert_int_equal(xl_process_lines(lots, note_line, &two), 0);
	assert_string_equal(two.text, "[1][2]");
	struct lines_seen none = {"", 0, 0};
	char *const missing[] = {"/nonexistent/program", NULL};
	assert_int_equal(xl_process_lines(missing, note_line, &none), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(none.calls, 0);
}

static void which_searches_path(void **state)
{
	(void)state;
	char out[4096];
	assert_int_equal(xl_which("sh", out, sizeof(out)), 0);
	assert_int_equal(access(out, X_OK), 0);
	assert_int_equal(xl_which("exaloop-no-such-program-anywhere", out, sizeof(out)), -1);
}

/* A pool of shell scripts, one per task. */
struct scripts {
	const char *const *script; /* NULL-terminated */
	size_t next;
	int status[16]; /* as done() heard it, by task */
	int done_calls;
	int stop_on_failure;
	char *argv[16][4];
};

static int next_script(void *arg, struct xl_process *p, void **task)
{
	struct scripts *s = arg;
	if (!s->script[s->next])
		return 0;
	size_t i = s->next++;
	char **argv = s->argv[i];
	argv[0] = strstr(s->script[i], "/nonexistent") == s->script[i] ? (char *)s->script[i] : "sh";
	argv[1] = argv[0] == s->script[i] ? NULL : "-c";
	argv[2] = (char *)s->script[i];
	argv[3] = NULL;
	p->argv = argv;
	*task = (void *)i;
	return 1;
}

static int script_done(void *arg, void *task, int status)
{
	struct scripts *s = arg;
	s->status[(size_t)task] = status;
	s->done_calls++;
	return s->stop_on_failure ? status : 0;
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void pool_runs_each_program_within_the_limit(void **state)
{
	(void)state;
	char log[] = "/tmp/exaloop-test-pool-XXXXXX";
	int fd = mkstemp(log);
	assert_true(fd >= 0);
	close(fd);
	setenv("XL_POOL_LOG", log, 1);
	/* Each marks its start (+) and end (-) in the log, and exits 0 only as
	 * the leader of a process group of its own. */
	const char *body = "echo + >> \"$XL_POOL_LOG\"; sleep 0.3; echo - >> \"$XL_POOL_LOG\"; "
			   "test \"$(ps -o pgid= -p $$ | tr -d ' ')\" = \"$$\"";
	const char *six[] = {body, body, body, body, body, "exit 5", NULL};
	struct scripts s = {.script = six};
	const struct xl_pool pool = {2, next_script, script_done, &s};
	assert_int_equal(xl_process_pool(&pool), 0);
	assert_int_equal(s.done_calls, 6);
	for (int i = 0; i < 5; i++)
		assert_int_equal(s.status[i], 0);
	assert_int_equal(s.status[5], 5); /* heard, but done() did not stop the pool */
	FILE *f = fopen(log, "r");
	assert_non_null(f);
	int c, running = 0, most = 0, marks = 0;
	while ((c = fgetc(f)) != EOF) {
		if (c == '+' || c == '-') {
			running += c == '+' ? 1 : -1;
			most = running > most ? running : most;
			marks++;
		}
	}
	fclose(f);
	unlink(log);
	unsetenv("XL_POOL_LOG");
	assert_int_equal(marks, 10);
	assert_int_equal(most, 2); /* two at a time, never more */
}

static void pool_starts_nothing_after_a_failure(void **state)
{
	(void)state;
	const char *tasks[] = {"exit 3", "sleep 0.3; exit 0", "exit 0", "exit 0", NULL};
	struct scripts s = {.script = tasks, .stop_on_failure = 1};
	const struct xl_pool pool = {2, next_script, script_done, &s};
	assert_int_equal(xl_process_pool(&pool), 3);
	assert_int_equal(s.next, 2); /* the two first only */
	assert_int_equal(s.done_calls, 2);
	assert_int_equal(s.status[1], 0); /* the running one was waited for */
}

static void pool_passes_signals_on_to_every_program(void **state)
{
	(void)state;
	/* SIGTERM from outside (a helper in our group) reaches each program's
	 * group at once; the pool starts no more and says 128+SIGTERM. */
	pid_t helper = sigterm_us_soon();
	const char *tasks[] = {"sleep 5", "sleep 5", "sleep 5", "sleep 5", NULL};
	struct scripts s = {.script = tasks};
	const struct xl_pool pool = {3, next_script, script_done, &s};
	double t0 = now_s();
	assert_int_equal(xl_process_pool(&pool), 128 + SIGTERM);
	assert_true(now_s() - t0 < 3);
	waitpid(helper, NULL, 0);
	assert_int_equal(s.next, 3);
	for (int i = 0; i < 3; i++)
		assert_int_equal(s.status[i], 128 + SIGTERM);
	struct sigaction sa;
	sigaction(SIGTERM, NULL, &sa);
	assert_true(sa.sa_handler == SIG_DFL); /* exaloop's own disposition back */
	sigset_t mask;
	sigprocmask(SIG_SETMASK, NULL, &mask);
	assert_false(sigismember(&mask, SIGCHLD) || sigismember(&mask, SIGTERM));
}

static void pool_says_when_a_program_cannot_start(void **state)
{
	(void)state;
	const char *tasks[] = {"/nonexistent/compiler", "exit 0", NULL};
	struct scripts s = {.script = tasks};
	const struct xl_pool pool = {1, next_script, script_done, &s};
	errno = 0;
	assert_int_equal(xl_process_pool(&pool), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(s.status[0], -1);
	assert_int_equal(s.next, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exit_status_and_signals),
		cmocka_unit_test(policies_are_undone),
		cmocka_unit_test(sigterm_is_forwarded),
		cmocka_unit_test(own_group_signals_are_not_returned),
		cmocka_unit_test(not_found_and_not_executable),
		cmocka_unit_test(setup_runs_in_the_child_only),
		cmocka_unit_test(quiet_and_detached),
		cmocka_unit_test(read_line_takes_the_first_line),
		cmocka_unit_test(lines_each_and_status),
		cmocka_unit_test(which_searches_path),
		cmocka_unit_test(pool_runs_each_program_within_the_limit),
		cmocka_unit_test(pool_starts_nothing_after_a_failure),
		cmocka_unit_test(pool_passes_signals_on_to_every_program),
		cmocka_unit_test(pool_says_when_a_program_cannot_start),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
