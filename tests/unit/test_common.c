/* Unit tests: the error vocabulary, the array helpers, the string vector, messages and temporaries
 * (src/common/xl_errors.c, xl_array.c, strvec.c, xl_msgs.c, fileio.c) and XL_ASSERT (xl_assert.c).
 * Built with NDEBUG defined (tests/unit/CMakeLists.txt): XL_ASSERT must not care. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "fileio.h"
#include "strbuf.h"
#include "strvec.h"
#include "xl_array.h"
#include "xl_assert.h"
#include "xl_errors.h"
#include "xl_msgs.h"

static void every_error_has_its_own_message(void **state)
{
	(void)state;
	static const int codes[] = {
#define CODE(name, value, message) XL_##name,
		XL_ERRORS(CODE)
#undef CODE
	};
	size_t n = XL_ARRAY_SIZE(codes);
	assert_int_equal(XL_OK, 0);
	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			assert_true(codes[i] < 0);
		const char *m = xl_error_message(codes[i]);
		assert_string_not_equal(m, "unknown error");
		for (size_t k = 0; k < i; k++) {
			assert_int_not_equal(codes[i], codes[k]);
			assert_string_not_equal(m, xl_error_message(codes[k]));
		}
	}
	assert_string_equal(xl_error_message(12345), "unknown error");
	assert_string_equal(xl_error_message(XL_ENOMEM), "out of memory");
}

static void grow_doubles_and_refuses_overflow(void **state)
{
	(void)state;
	int *a = NULL;
	size_t cap = 0;
	assert_int_equal(xl_grow((void **)&a, &cap, 1, sizeof(*a)), 0);
	assert_true(cap >= 1);
	size_t first = cap;
	for (int i = 0; i < 1000; i++) {
		assert_int_equal(xl_grow((void **)&a, &cap, (size_t)i + 1, sizeof(*a)), 0);
		a[i] = i;
	}
	assert_true(cap >= 1000 && cap <= 2048 && cap % first == 0);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(a[i], i);
	int *keep = a;
	assert_int_equal(xl_grow((void **)&a, &cap, SIZE_MAX / 2, sizeof(*a)), -1);
	assert_ptr_equal(a, keep);
	free(a);
}

static int cmp_int(const void *key, const void *elem)
{
	int k = *(const int *)key, e = *(const int *)elem;
	return k < e ? -1 : k > e;
}

static void lower_bound_finds_the_first_not_below(void **state)
{
	(void)state;
	const int v[] = {1, 3, 3, 3, 7, 9};
	size_t n = XL_ARRAY_SIZE(v);
	const struct {
		int key;
		size_t at;
	} cases[] = {{0, 0}, {1, 0}, {2, 1}, {3, 1}, {4, 4}, {7, 4}, {8, 5}, {9, 5}, {10, 6}};
	for (size_t i = 0; i < XL_ARRAY_SIZE(cases); i++)
		assert_int_equal(xl_lower_bound(v, n, sizeof(v[0]), &cases[i].key, cmp_int), cases[i].at);
	int key = 5;
	assert_int_equal(xl_lower_bound(v, 0, sizeof(v[0]), &key, cmp_int), 0);
}

static void strvec_is_always_an_argv(void **state)
{
	(void)state;
	struct strvec sv;
	strvec_init(&sv);
	assert_non_null(sv.v);
	assert_null(sv.v[0]);
	char word[] = "cc";
	strvec_push(&sv, word);
	word[0] = 'x'; /* pushed strings are copies */
	strvec_pushf(&sv, "-fxray-instruction-threshold=%d", 7);
	const char *more[] = {"-c", "app.c", NULL};
	strvec_pushv(&sv, more);
	strvec_pushv(&sv, NULL);
	for (int i = 0; i < 100; i++)
		strvec_pushf(&sv, "-D%d", i);
	assert_false(sv.oom);
	assert_int_equal(sv.n, 104);
	assert_string_equal(sv.v[0], "cc");
	assert_string_equal(sv.v[1], "-fxray-instruction-threshold=7");
	assert_string_equal(sv.v[3], "app.c");
	assert_string_equal(sv.v[103], "-D99");
	assert_null(sv.v[104]);
	char **v = strvec_detach(&sv);
	assert_int_equal(sv.n, 0);
	assert_null(sv.v[0]);
	for (size_t i = 0; v[i]; i++)
		free(v[i]);
	free(v);
	strvec_release(&sv); /* an empty vector: nothing to free, still usable */
	strvec_push(&sv, "again");
	assert_string_equal(sv.v[0], "again");
	strvec_release(&sv);
	strvec_release(&sv);
	v = strvec_detach(&sv); /* nothing pushed: an empty, terminated array */
	assert_non_null(v);
	assert_null(v[0]);
	free(v);
}

static void collect(void *arg, enum xl_msg_level level, const char *text)
{
	strbuf_addf(arg, "%d:%s|", (int)level, text);
}

static void messages_go_to_the_callers_sink(void **state)
{
	(void)state;
	struct strbuf got;
	strbuf_init(&got);
	const struct xl_msgs m = {collect, &got};
	xl_msgf(&m, XL_MSG_ERROR, "cannot read '%s'", "a.c");
	xl_msgf(&m, XL_MSG_HINT, "install %s", "clang");
	xl_msgf(NULL, XL_MSG_WARN, "dropped");
	char long_text[3000];
	memset(long_text, 'x', sizeof(long_text) - 1);
	long_text[sizeof(long_text) - 1] = 0;
	xl_msgf(&m, XL_MSG_TEXT, "%s", long_text); /* not cut at any buffer size */
	assert_int_equal(got.len, strlen("0:cannot read 'a.c'|3:install clang|4:") + sizeof(long_text) - 1 + 1);
	assert_memory_equal(got.buf, "0:cannot read 'a.c'|3:install clang|4:xxx", 41);
	strbuf_release(&got);
}

static void temporaries_follow_tmpdir(void **state)
{
	(void)state;
	char dir[4096], path[4096], small[16];
	const char *old = getenv("TMPDIR");
	char *keep = old ? strdup(old) : NULL;
	setenv("TMPDIR", "relative/dir", 1); /* not absolute: /tmp */
	assert_int_equal(xl_make_temp_dir("unit", dir, sizeof(dir)), 0);
	assert_memory_equal(dir, "/tmp/exaloop-unit-", 18);
	struct stat st;
	assert_int_equal(stat(dir, &st), 0);
	assert_true(S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0700);
	setenv("TMPDIR", dir, 1);
	int fd = xl_make_temp_file("log", path, sizeof(path));
	assert_true(fd >= 0);
	assert_int_equal(strncmp(path, dir, strlen(dir)), 0);
	assert_memory_equal(path + strlen(dir), "/exaloop-log-", 13);
	assert_int_equal(fstat(fd, &st), 0);
	assert_true(S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0600 && st.st_size == 0);
	close(fd);
	unlink(path);
	assert_int_equal(xl_make_temp_dir("unit", small, sizeof(small)), -1);
	assert_int_equal(errno, ENAMETOOLONG);
	assert_int_equal(rmdir(dir), 0);
	if (keep)
		setenv("TMPDIR", keep, 1);
	else
		unsetenv("TMPDIR");
	free(keep);
}

/* A failed XL_ASSERT prints where and what, then aborts; a true one does nothing.  The child
 * process's stderr goes to a pipe the test reads. */
static void assert_stops_with_file_line_and_condition(void **state)
{
	(void)state;
	int fds[2];
	int two = 2;
	int line = __LINE__ + 8; /* the failing XL_ASSERT's */
	assert_int_equal(pipe(fds), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fds[1], 2);
		signal(SIGABRT, SIG_DFL); /* cmocka's handler would report a failed test instead */
		XL_ASSERT(two == 2);
		XL_ASSERT(two == 3);
		_exit(0);
	}
	close(fds[1]);
	char out[512] = "";
	size_t len = 0;
	ssize_t got;
	while ((got = read(fds[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += (size_t)got;
	out[len] = 0;
	close(fds[0]);
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
	char want[128];
	snprintf(want, sizeof(want), "/test_common.c:%d: two == 3\n", line);
	assert_true(strncmp(out, "exaloop: internal error: ", 25) == 0);
	const char *at = strstr(out, want);
	assert_non_null(at);
	/* Nothing after the line; under qemu-user (the AArch64 build's tests, scripts/test-arm64.sh)
	 * the emulator itself then reports the signal on the same stderr, in one line of its own. */
	const char *rest = at + strlen(want);
	if (*rest != 0 && strncmp(rest, "qemu: uncaught target signal 6", 30) == 0 &&
	    strchr(rest, '\n') == strrchr(rest, '\n'))
		rest = strchr(rest, '\n') + 1;
	assert_string_equal(rest, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_error_has_its_own_message),
		cmocka_unit_test(grow_doubles_and_refuses_overflow),
		cmocka_unit_test(lower_bound_finds_the_first_not_below),
		cmocka_unit_test(strvec_is_always_an_argv),
		cmocka_unit_test(messages_go_to_the_callers_sink),
		cmocka_unit_test(temporaries_follow_tmpdir),
		cmocka_unit_test(assert_stops_with_file_line_and_condition),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
