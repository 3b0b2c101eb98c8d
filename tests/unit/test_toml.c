/* Unit tests for the TOML parser API (src/common/toml.h): positions in
 * errors and values, accessors, lookups, ownership edge cases.  Conformance
 * with the TOML grammar itself is covered by the toml-test suite
 * (tests/toml); these tests pin down what the suite cannot see. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "toml.h"

static struct xl_toml_value *parse_ok(const char *text)
{
	struct xl_toml_error err;
	struct xl_toml_value *root = xl_toml_parse(text, strlen(text), "test.toml", &err);
	if (!root)
		fail_msg("unexpected parse error: %s", err.text);
	return root;
}

static struct xl_toml_error parse_err(const char *text)
{
	struct xl_toml_error err;
	struct xl_toml_value *root = xl_toml_parse(text, strlen(text), "exaloop.toml", &err);
	if (root) {
		xl_toml_free(root);
		fail_msg("expected a parse error for: %s", text);
	}
	return err;
}

static void assert_pos(struct xl_toml_pos pos, unsigned line, unsigned column)
{
	if (pos.line != line || pos.column != column)
		fail_msg("position %u:%u, expected %u:%u", (unsigned)pos.line, (unsigned)pos.column, line, column);
}

/* ---- Errors ------------------------------------------------------------- */

static void test_error_text_has_name_line_column(void **state)
{
	(void)state;
	struct xl_toml_error err = parse_err("# project\n"
					     "[build]\n"
					     "  mode \"fast\"\n");
	assert_pos(err.pos, 3, 8);
	assert_string_equal(err.message, "expected '=' after key 'mode', found '\"'");
	assert_string_equal(err.text, "exaloop.toml:3:8: expected '=' after key 'mode', found '\"'");
}

static void test_error_column_counts_code_points(void **state)
{
	(void)state;
	/* "é" and "漢" are 2 and 3 bytes but one column each. */
	struct xl_toml_error err = parse_err("s = \"é漢\" x\n");
	assert_pos(err.pos, 1, 10);
	/* A tab is one column too. */
	err = parse_err("\tk = @\n");
	assert_pos(err.pos, 1, 6);
}

static void test_error_duplicate_key_cites_first_definition(void **state)
{
	(void)state;
	struct xl_toml_error err = parse_err("a = 1\n\n  a = 2\n");
	assert_pos(err.pos, 3, 3);
	assert_string_equal(err.message, "duplicate key 'a' (first defined at 1:1)");

	err = parse_err("[server]\nport = 1\n[server]\n");
	assert_pos(err.pos, 3, 1);
	assert_string_equal(err.message, "table [server] is defined twice (first at 1:1)");
}

static void test_error_message_is_one_line(void **state)
{
	(void)state;
	/* Quoted keys with control characters are escaped in messages. */
	struct xl_toml_error err = parse_err("\"a\\nb\" = 1\n\"a\\nb\" = 2\n");
	assert_null(strchr(err.text, '\n'));
	assert_non_null(strstr(err.message, "'\"a\\u000Ab\"'"));

	/* Very long keys are shortened rather than overflowing the buffer. */
	char doc[2048];
	char key[1000];
	memset(key, 'k', sizeof key - 1);
	key[sizeof key - 1] = '\0';
	snprintf(doc, sizeof doc, "%s = 1\n%s = 2\n", key, key);
	err = parse_err(doc);
	assert_non_null(strstr(err.message, "..."));
	assert_true(strlen(err.text) < sizeof err.text);
}

static void test_error_struct_may_be_null(void **state)
{
	(void)state;
	assert_null(xl_toml_parse("x = ", 4, NULL, NULL));
	struct xl_toml_error err;
	assert_null(xl_toml_parse("x = ", 4, NULL, &err));
	assert_string_equal(err.text, "<input>:1:5: missing value for key 'x'");
}

static void test_error_set_for_callers(void **state)
{
	(void)state;
	struct xl_toml_value *root = parse_ok("[build]\nsource = 42\n");
	const struct xl_toml_value *v = xl_toml_lookup(root, "build.source");
	assert_int_equal(xl_toml_type_of(v), XL_TOML_INTEGER);
	struct xl_toml_error err;
	xl_toml_error_set(&err, "exaloop.toml", xl_toml_pos_of(v), "expected a string for '%s', found %s", "source",
			  xl_toml_type_name(xl_toml_type_of(v)));
	assert_string_equal(err.text, "exaloop.toml:2:10: expected a string for 'source', found integer");
	xl_toml_error_set(&err, "exaloop.toml", (struct xl_toml_pos){0, 0}, "no [build] table");
	assert_string_equal(err.text, "exaloop.toml: no [build] table");
	xl_toml_error_set(NULL, "x", (struct xl_toml_pos){1, 1}, "ignored");
	xl_toml_free(root);
}

static void test_error_integer_overflow(void **state)
{
	(void)state;
	struct xl_toml_value *root = parse_ok("min = -9223372036854775808\nmax = 9223372036854775807\n"
					      "hex = 0x7FFFFFFFFFFFFFFF\n");
	int64_t i;
	assert_true(xl_toml_as_int(xl_toml_table_get(root, "min"), &i));
	assert_true(i == INT64_MIN);
	assert_true(xl_toml_as_int(xl_toml_table_get(root, "max"), &i));
	assert_true(i == INT64_MAX);
	assert_true(xl_toml_as_int(xl_toml_table_get(root, "hex"), &i));
	assert_true(i == INT64_MAX);
	xl_toml_free(root);

	struct xl_toml_error err = parse_err("n = 9223372036854775808\n");
	assert_pos(err.pos, 1, 5);
	assert_non_null(strstr(err.message, "does not fit in 64 bits"));
	parse_err("n = -9223372036854775809\n");
	parse_err("n = 0x8000000000000000\n");
	parse_err("n = 0b1"
		  "0000000000000000000000000000000000000000000000000000000000000000\n");
	err = parse_err("f = 1e400\n");
	assert_non_null(strstr(err.message, "out of range"));
}

/* ---- Positions of values and keys -------------------------------------- */

static void test_positions(void **state)
{
	(void)state;
	struct xl_toml_value *root = parse_ok("title = \"x\"\n"             /* 1 */
					      "[build]\n"                   /* 2 */
					      "  mode  =  'fast'\n"         /* 3 */
					      "  opt.level = 2\n"           /* 4 */
					      "[[target]]\n"                /* 5 */
					      "name = \"a\"\n"              /* 6 */
					      "[[target]]\n"                /* 7 */
					      "\"ké\" = [1, { x = 2 }]\n"); /* 8 */
	struct xl_toml_entry e;
	assert_pos(xl_toml_pos_of(root), 1, 1);

	assert_true(xl_toml_table_find(root, "title", 5, &e));
	assert_pos(e.key_pos, 1, 1);
	assert_pos(xl_toml_pos_of(e.value), 1, 9);

	const struct xl_toml_value *build = xl_toml_table_get(root, "build");
	assert_true(xl_toml_table_find(root, "build", 5, &e));
	assert_pos(e.key_pos, 2, 2);
	assert_pos(xl_toml_pos_of(build), 2, 1);

	assert_true(xl_toml_table_find(build, "mode", 4, &e));
	assert_pos(e.key_pos, 3, 3);
	assert_pos(xl_toml_pos_of(e.value), 3, 12);

	/* A table made by a dotted key sits where its key component was written. */
	assert_true(xl_toml_table_find(build, "opt", 3, &e));
	assert_pos(e.key_pos, 4, 3);
	assert_pos(xl_toml_pos_of(e.value), 4, 3);
	assert_true(xl_toml_table_find(e.value, "level", 5, &e));
	assert_pos(e.key_pos, 4, 7);
	assert_pos(xl_toml_pos_of(e.value), 4, 15);

	const struct xl_toml_value *targets = xl_toml_table_get(root, "target");
	assert_int_equal(xl_toml_array_len(targets), 2);
	assert_pos(xl_toml_pos_of(xl_toml_array_at(targets, 0)), 5, 1);
	assert_pos(xl_toml_pos_of(xl_toml_array_at(targets, 1)), 7, 1);

	const struct xl_toml_value *t1 = xl_toml_array_at(targets, 1);
	assert_true(xl_toml_table_find(t1, "k\xc3\xa9", 3, &e));
	assert_pos(e.key_pos, 8, 1);
	assert_pos(xl_toml_pos_of(e.value), 8, 8);
	assert_pos(xl_toml_pos_of(xl_toml_array_at(e.value, 1)), 8, 12);
	assert_pos(xl_toml_pos_of(xl_toml_table_get(xl_toml_array_at(e.value, 1), "x")), 8, 18);
	xl_toml_free(root);
}

static void test_implicit_table_gets_header_position(void **state)
{
	(void)state;
	struct xl_toml_value *root = parse_ok("[a.b]\nx = 1\n\n[a]\ny = 2\n");
	struct xl_toml_entry e;
	assert_true(xl_toml_table_find(root, "a", 1, &e));
	assert_pos(e.key_pos, 4, 2);
	assert_pos(xl_toml_pos_of(e.value), 4, 1);
	xl_toml_free(root);
}

static void test_positions_after_crlf_and_multiline(void **state)
{
	(void)state;
	struct xl_toml_value *root = parse_ok("a = \"\"\"\r\none\r\ntwo\"\"\"\r\nb = 1\r\n");
	assert_pos(xl_toml_pos_of(xl_toml_table_get(root, "b")), 4, 5);
	const char *s;
	assert_true(xl_toml_as_string(xl_toml_table_get(root, "a"), &s, NULL));
	assert_string_equal(s, "one\ntwo"); /* CRLF normalised, first newline trimmed */
	xl_toml_free(root);
}

/* ---- Tables and lookups ------------------------------------------------- */

static void test_iteration_in_document_order(void **state)
{
	(void)state;
	struct xl_toml_value *root = parse_ok("zeta = 1\nalpha = 2\nmid.x = 3\n[beta]\n[gamma.delta]\n");
	static const char *const want[] = {"zeta", "alpha", "mid", "beta", "gamma"};
	assert_int_equal(xl_toml_table_len(root), 5);
	struct xl_toml_entry e;
	for (size_t i = 0; i < 5; i++) {
		assert_true(xl_toml_table_entry(root, i, &e));
		assert_string_equal(e.key, want[i]);
		assert_int_equal(e.key_len, strlen(want[i]));
	}
	assert_false(xl_toml_table_entry(root, 5, &e));
	xl_toml_free(root);
}

static void test_lookups(void **state)
{
	(void)state;
	struct xl_toml_value *root = parse_ok("[build]\nmode = \"fast\"\n\"dotted.key\" = true\n"
					      "\"nul\\u0000key\" = 7\n[build.deep]\nx = 1\n");
	const char *s;
	size_t len;
	assert_true(xl_toml_as_string(xl_toml_lookup(root, "build.mode"), &s, &len));
	assert_string_equal(s, "fast");
	assert_int_equal(len, 4);
	assert_true(xl_toml_as_string(xl_toml_table_get(xl_toml_table_get(root, "build"), "mode"), &s, NULL));
	assert_non_null(xl_toml_lookup(root, "build.deep.x"));
	/* Keys containing '.' are reachable with table_get, not lookup. */
	assert_null(xl_toml_lookup(root, "build.dotted.key"));
	bool b = false;
	assert_true(xl_toml_as_bool(xl_toml_table_get(xl_toml_table_get(root, "build"), "dotted.key"), &b));
	assert_true(b);
	/* Keys with NUL bytes need the length-taking variants. */
	int64_t i = 0;
	assert_true(xl_toml_as_int(xl_toml_table_getn(xl_toml_table_get(root, "build"), "nul\0key", 7), &i));
	assert_int_equal(i, 7);
	assert_null(xl_toml_table_get(xl_toml_table_get(root, "build"), "nul"));
	/* Missing steps and NULLs chain to NULL. */
	assert_null(xl_toml_lookup(root, "nope.mode"));
	assert_null(xl_toml_lookup(root, "build.mode.x"));
	assert_null(xl_toml_table_get(NULL, "x"));
	assert_null(xl_toml_table_get(root, NULL));
	assert_null(xl_toml_lookup(NULL, "a"));
	assert_int_equal(xl_toml_table_len(NULL), 0);
	assert_int_equal(xl_toml_type_of(NULL), XL_TOML_NONE);
	struct xl_toml_pos none = xl_toml_pos_of(NULL);
	assert_pos(none, 0, 0);
	xl_toml_free(root);
}

static void test_large_table(void **state)
{
	(void)state;
	/* Enough keys to exercise the hash index and its regrowth. */
	size_t cap = 1 << 20, w = 0;
	char *doc = malloc(cap);
	assert_non_null(doc);
	for (int k = 0; k < 5000; k++)
		w += (size_t)snprintf(doc + w, cap - w, "key%d = %d\n", k, k);
	struct xl_toml_error err;
	struct xl_toml_value *root = xl_toml_parse(doc, w, "big", &err);
	assert_non_null(root);
	assert_int_equal(xl_toml_table_len(root), 5000);
	for (int k = 0; k < 5000; k += 7) {
		char key[32];
		snprintf(key, sizeof key, "key%d", k);
		int64_t i;
		assert_true(xl_toml_as_int(xl_toml_table_get(root, key), &i));
		assert_int_equal(i, k);
	}
	assert_null(xl_toml_table_get(root, "key5000"));
	xl_toml_free(root);
	/* A duplicate late in a big table is still caught. */
	w += (size_t)snprintf(doc + w, cap - w, "key4321 = 0\n");
	assert_null(xl_toml_parse(doc, w, "big", &err));
	assert_pos(err.pos, 5001, 1);
	free(doc);
}

/* ---- Arrays and scalars -------------------------------------------------- */

static void test_arrays(void **state)
{
	(void)state;
	struct xl_toml_value *root = parse_ok("mixed = [1, 'two', 3.0, [4], {five = 5}]\nempty = []\n");
	const struct xl_toml_value *a = xl_toml_table_get(root, "mixed");
	assert_int_equal(xl_toml_type_of(a), XL_TOML_ARRAY);
	assert_int_equal(xl_toml_array_len(a), 5);
	assert_int_equal(xl_toml_type_of(xl_toml_array_at(a, 0)), XL_TOML_INTEGER);
	assert_int_equal(xl_toml_type_of(xl_toml_array_at(a, 1)), XL_TOML_STRING);
	assert_int_equal(xl_toml_type_of(xl_toml_array_at(a, 2)), XL_TOML_FLOAT);
	assert_int_equal(xl_toml_type_of(xl_toml_array_at(a, 3)), XL_TOML_ARRAY);
	assert_int_equal(xl_toml_type_of(xl_toml_array_at(a, 4)), XL_TOML_TABLE);
	assert_null(xl_toml_array_at(a, 5));
	assert_int_equal(xl_toml_array_len(xl_toml_table_get(root, "empty")), 0);
	assert_int_equal(xl_toml_array_len(root), 0); /* not an array */
	xl_toml_free(root);
}

static void test_scalars_and_type_checks(void **state)
{
	(void)state;
	struct xl_toml_value *root = parse_ok("s = \"tab\\there \\u00e9 \\U0001F600\"\n"
					      "nul = \"a\\u0000b\"\n"
					      "i = 0xff\n"
					      "f = -1_000.5e-1\n"
					      "pinf = +inf\n"
					      "nnan = -nan\n"
					      "z = -0.0\n"
					      "b = false\n");
	const char *s;
	size_t len;
	assert_true(xl_toml_as_string(xl_toml_table_get(root, "s"), &s, &len));
	assert_string_equal(s, "tab\there \xc3\xa9 \xf0\x9f\x98\x80");
	assert_true(xl_toml_as_string(xl_toml_table_get(root, "nul"), &s, &len));
	assert_int_equal(len, 3);
	assert_memory_equal(s, "a\0b", 3);
	int64_t i;
	assert_true(xl_toml_as_int(xl_toml_table_get(root, "i"), &i));
	assert_int_equal(i, 255);
	double f;
	assert_true(xl_toml_as_float(xl_toml_table_get(root, "f"), &f));
	assert_true(f == -100.05);
	assert_true(xl_toml_as_float(xl_toml_table_get(root, "pinf"), &f));
	assert_true(isinf(f) && f > 0);
	assert_true(xl_toml_as_float(xl_toml_table_get(root, "nnan"), &f));
	assert_true(isnan(f));
	assert_true(xl_toml_as_float(xl_toml_table_get(root, "z"), &f));
	assert_true(f == 0.0 && signbit(f));
	bool b = true;
	assert_true(xl_toml_as_bool(xl_toml_table_get(root, "b"), &b));
	assert_false(b);

	/* Wrong types report false and leave outputs alone. */
	i = 42;
	assert_false(xl_toml_as_int(xl_toml_table_get(root, "f"), &i));
	assert_int_equal(i, 42);
	assert_false(xl_toml_as_float(xl_toml_table_get(root, "i"), &f)); /* no int->float */
	assert_false(xl_toml_as_string(xl_toml_table_get(root, "i"), &s, NULL));
	assert_false(xl_toml_as_bool(NULL, &b));
	struct xl_toml_datetime dt;
	assert_false(xl_toml_as_datetime(xl_toml_table_get(root, "s"), &dt));
	assert_string_equal(xl_toml_type_name(XL_TOML_BOOL), "boolean");
	assert_string_equal(xl_toml_type_name(XL_TOML_LOCAL_DATETIME), "local datetime");
	xl_toml_free(root);
}

static void test_datetimes(void **state)
{
	(void)state;
	struct xl_toml_value *root = parse_ok("odt = 1979-05-27T00:32:00.999999-07:30\n"
					      "utc = 1979-05-27 07:32:00Z\n"
					      "ldt = 1979-05-27t07:32:00.1234567891234\n"
					      "ld = 2000-02-29\n"
					      "lt = 23:59:60.5\n");
	struct xl_toml_datetime dt;
	const struct xl_toml_value *v = xl_toml_table_get(root, "odt");
	assert_int_equal(xl_toml_type_of(v), XL_TOML_DATETIME);
	assert_true(xl_toml_as_datetime(v, &dt));
	assert_true(dt.has_date && dt.has_time && dt.has_offset);
	assert_int_equal(dt.year, 1979);
	assert_int_equal(dt.month, 5);
	assert_int_equal(dt.day, 27);
	assert_int_equal(dt.minute, 32);
	assert_int_equal(dt.nanosecond, 999999000);
	assert_int_equal(dt.offset_minutes, -450);

	assert_true(xl_toml_as_datetime(xl_toml_table_get(root, "utc"), &dt));
	assert_true(dt.has_offset);
	assert_int_equal(dt.offset_minutes, 0);
	assert_int_equal(dt.hour, 7);

	v = xl_toml_table_get(root, "ldt");
	assert_int_equal(xl_toml_type_of(v), XL_TOML_LOCAL_DATETIME);
	assert_true(xl_toml_as_datetime(v, &dt));
	assert_false(dt.has_offset);
	assert_int_equal(dt.nanosecond, 123456789); /* truncated past 9 digits */

	v = xl_toml_table_get(root, "ld");
	assert_int_equal(xl_toml_type_of(v), XL_TOML_LOCAL_DATE);
	assert_true(xl_toml_as_datetime(v, &dt));
	assert_true(dt.has_date && !dt.has_time);
	assert_int_equal(dt.hour, 0);

	v = xl_toml_table_get(root, "lt");
	assert_int_equal(xl_toml_type_of(v), XL_TOML_LOCAL_TIME);
	assert_true(xl_toml_as_datetime(v, &dt));
	assert_true(!dt.has_date && dt.has_time);
	assert_int_equal(dt.second, 60);
	assert_int_equal(dt.nanosecond, 500000000);
	xl_toml_free(root);

	struct xl_toml_error err = parse_err("d = 2023-02-29\n");
	assert_string_equal(err.message, "invalid date: day 29 is out of range for 2023-02");
	/* A date followed by a comment is not mistaken for a date-time. */
	root = parse_ok("d = 1979-05-27 # birthday\n");
	assert_int_equal(xl_toml_type_of(xl_toml_table_get(root, "d")), XL_TOML_LOCAL_DATE);
	xl_toml_free(root);
}

/* ---- Limits, files, ownership, threads --------------------------------- */

static void test_nesting_limit(void **state)
{
	(void)state;
	char doc[1024];
	size_t w = 0;
	w += (size_t)snprintf(doc + w, sizeof doc - w, "a = ");
	for (int k = 0; k < XL_TOML_MAX_DEPTH; k++)
		doc[w++] = '[';
	for (int k = 0; k < XL_TOML_MAX_DEPTH; k++)
		doc[w++] = ']';
	doc[w] = '\0';
	struct xl_toml_value *root = parse_ok(doc);
	xl_toml_free(root);

	w = 0;
	w += (size_t)snprintf(doc + w, sizeof doc - w, "a = ");
	for (int k = 0; k <= XL_TOML_MAX_DEPTH; k++)
		doc[w++] = '[';
	for (int k = 0; k <= XL_TOML_MAX_DEPTH; k++)
		doc[w++] = ']';
	doc[w] = '\0';
	struct xl_toml_error err = parse_err(doc);
	assert_non_null(strstr(err.message, "nested more than"));
}

static void test_parse_file(void **state)
{
	(void)state;
	char path[] = "/tmp/xl_test_toml_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	const char *text = "\xef\xbb\xbfname = \"demo\"\nbad = \n";
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	struct xl_toml_error err;
	assert_null(xl_toml_parse_file(path, &err));
	/* The BOM does not count as a column; the file name is the path. */
	char want[128];
	snprintf(want, sizeof want, "%s:2:7: missing value for key 'bad'", path);
	assert_string_equal(err.text, want);
	unlink(path);

	assert_null(xl_toml_parse_file("/nonexistent/exaloop.toml", &err));
	assert_pos(err.pos, 0, 0);
	assert_string_equal(err.text, "/nonexistent/exaloop.toml: cannot open: No such file or directory");
}

static void test_free_edge_cases(void **state)
{
	(void)state;
	xl_toml_free(NULL);
	struct xl_toml_value *root = parse_ok("[a]\nb = 1\n");
	/* Only the root frees the tree; other nodes are ignored. */
	xl_toml_free((struct xl_toml_value *)xl_toml_table_get(root, "a"));
	assert_non_null(xl_toml_lookup(root, "a.b"));
	xl_toml_free(root);
	/* Empty input is an empty table. */
	root = xl_toml_parse(NULL, 0, NULL, NULL);
	assert_non_null(root);
	assert_int_equal(xl_toml_table_len(root), 0);
	xl_toml_free(root);
}

static const char thread_doc[] = "[build]\nmode = \"fast\"\nratio = 2.5\n[[t]]\nx = 1\n[[t]]\nx = 2\n";

static void *parse_repeatedly(void *arg)
{
	(void)arg;
	for (int k = 0; k < 500; k++) {
		struct xl_toml_value *root = xl_toml_parse(thread_doc, sizeof thread_doc - 1, "t", NULL);
		double f = 0;
		if (!root || !xl_toml_as_float(xl_toml_lookup(root, "build.ratio"), &f) || f != 2.5) {
			xl_toml_free(root);
			return (void *)1;
		}
		xl_toml_free(root);
	}
	return NULL;
}

static void test_concurrent_parses(void **state)
{
	(void)state;
	pthread_t th[4];
	for (int k = 0; k < 4; k++)
		assert_int_equal(pthread_create(&th[k], NULL, parse_repeatedly, NULL), 0);
	for (int k = 0; k < 4; k++) {
		void *res;
		assert_int_equal(pthread_join(th[k], &res), 0);
		assert_null(res);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_text_has_name_line_column),
		cmocka_unit_test(test_error_column_counts_code_points),
		cmocka_unit_test(test_error_duplicate_key_cites_first_definition),
		cmocka_unit_test(test_error_message_is_one_line),
		cmocka_unit_test(test_error_struct_may_be_null),
		cmocka_unit_test(test_error_set_for_callers),
		cmocka_unit_test(test_error_integer_overflow),
		cmocka_unit_test(test_positions),
		cmocka_unit_test(test_implicit_table_gets_header_position),
		cmocka_unit_test(test_positions_after_crlf_and_multiline),
		cmocka_unit_test(test_iteration_in_document_order),
		cmocka_unit_test(test_lookups),
		cmocka_unit_test(test_large_table),
		cmocka_unit_test(test_arrays),
		cmocka_unit_test(test_scalars_and_type_checks),
		cmocka_unit_test(test_datetimes),
		cmocka_unit_test(test_nesting_limit),
		cmocka_unit_test(test_parse_file),
		cmocka_unit_test(test_free_edge_cases),
		cmocka_unit_test(test_concurrent_parses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
