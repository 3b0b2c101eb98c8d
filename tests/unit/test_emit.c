/*
 * Unit tests: the emitters against tests/golden.
 *
 * The captured run of tests/golden/capture/two-parents is loaded with
 * xl_model_load and written as text, folded stacks, the JSON summary and a
 * Chrome trace; each output, normalised as e2e.t4001 normalises a fresh
 * capture's (times, sizes, paths and ids vary between runs), must equal its
 * golden file.  So the golden files hold for a capture made once as well as
 * for one made now, and an emitter change shows up here without a build.
 */
#define _GNU_SOURCE
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "emit.h"

#define CAPTURE XL_GOLDEN_DIR "/capture/two-parents"

static struct xl_model *model;

static int load(void **state)
{
	(void)state;
	char err[256];
	if (xl_model_load(CAPTURE, &model, err, sizeof(err)) != XL_OK) {
		fprintf(stderr, "%s: %s\n", CAPTURE, err);
		return -1;
	}
	return 0;
}

static int unload(void **state)
{
	(void)state;
	xl_model_free(model);
	return 0;
}

/* What an emitter writes, as a string (malloc'd). */
static char *emit(const char *format, const struct xl_emit_opts *o)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(xl_emitter(format)(model, f, o), 0);
	assert_int_equal(fclose(f), 0);
	return text;
}

static char *golden(const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", XL_GOLDEN_DIR, name);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *text = NULL;
	size_t cap = 0;
	ssize_t len = getdelim(&text, &cap, 0, f);
	assert_true(len >= 0);
	fclose(f);
	return text;
}

/* Every match of pattern (POSIX extended, GNU \b) in *s replaced by with;
 * "\1" in with is the first group. */
static void replace(char **s, const char *pattern, const char *with)
{
	regex_t re;
	assert_int_equal(regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE), 0);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	const char *p = *s;
	regmatch_t g[2];
	int flags = 0;
	while (*p && regexec(&re, p, 2, g, flags) == 0) {
		fwrite(p, 1, (size_t)g[0].rm_so, f);
		for (const char *w = with; *w; w++) {
			if (w[0] == '\\' && w[1] == '1') {
				fwrite(p + g[1].rm_so, 1, (size_t)(g[1].rm_eo - g[1].rm_so), f);
				w++;
			} else
				fputc(*w, f);
		}
		if (g[0].rm_eo == 0) { /* an empty match: move on by one */
			fputc(*p, f);
			g[0].rm_eo = 1;
		}
		p += g[0].rm_eo;
		flags = REG_NOTBOL;
	}
	fputs(p, f);
	fclose(f);
	regfree(&re);
	free(*s);
	*s = out;
}

/* e2e.t4001's normalisation of the text report, rule for rule. */
static void normalise_text(char **s)
{
	static const char *const rules[][2] = {
		{"-?[0-9]+(\\.[0-9]+)? (ns|us|ms|s)\\b", "T"},
		{"[0-9]+\\.[0-9]%", "P%"},
		{"[0-9]+(\\.[0-9]+)? (B|KiB|MiB|GiB)", "M"},
		{"/[^ \t\n]*/(s-two-parents\\.c)", "\\1"},
		{"command: .*", "command: X"},
		{"process [0-9]+ \\(parent [0-9]+\\)", "process P (parent P)"},
		{"[0-9]+ events", "N events"},
		{"about [0-9]+ ns per traced call \\((measured|typical)\\), [0-9]+ calls: roughly T?[0-9.]+%",
		 "OVERHEAD"},
		{"roughly P%", "OVERHEAD"},
		{"per traced call \\((measured|typical)\\)", "per traced call (K)"},
		{"M \\(max M\\)", "M"},
		{"[ ]+", " "},
	};
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		replace(s, rules[i][0], rules[i][1]);
}

static void text_matches_golden(void **state)
{
	(void)state;
	struct xl_emit_opts o;
	xl_emit_opts_init(&o);
	o.sort = XL_SORT_CALLS;
	char *text = emit("text", &o);
	normalise_text(&text);
	char *want = golden("text/two-parents.txt");
	assert_string_equal(text, want);
	free(text);
	free(want);
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void folded_matches_golden(void **state)
{
	(void)state;
	struct xl_emit_opts o;
	xl_emit_opts_init(&o);
	char *text = emit("folded", &o);
	char *lines[64];
	size_t n = 0;
	for (char *save, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		assert_true(n < 64);
		char *weight = strrchr(l, ' ');
		assert_non_null(weight);
		assert_true(strspn(weight + 1, "0123456789") == strlen(weight + 1));
		strcpy(weight, " N");
		lines[n++] = l;
	}
	qsort(lines, n, sizeof(*lines), by_string);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s\n", lines[i]);
	fclose(f);
	char *want = golden("folded/two-parents.txt");
	assert_string_equal(out, want);
	free(out);
	free(want);
	free(text);
}

/* An array's elements in the order of their compact JSON texts (the
 * golden files' Python sort, for these strings and lists of strings). */
static int by_dump(const void *a, const void *b)
{
	char *x = json_dumps(*(json_t *const *)a, JSON_COMPACT | JSON_ENCODE_ANY);
	char *y = json_dumps(*(json_t *const *)b, JSON_COMPACT | JSON_ENCODE_ANY);
	int r = strcmp(x, y);
	free(x);
	free(y);
	return r;
}

static json_t *sorted(json_t *arr)
{
	size_t n = json_array_size(arr);
	json_t **v = calloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = json_incref(json_array_get(arr, i));
	qsort(v, n, sizeof(*v), by_dump);
	json_t *out = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(out, v[i]);
	free(v);
	json_decref(arr);
	return out;
}

static json_t *parse(const char *text)
{
	json_error_t e;
	json_t *doc = json_loads(text, 0, &e);
	if (!doc)
		fail_msg("not JSON: %s at %d:%d", e.text, e.line, e.column);
	return doc;
}

/* Each call path's calls, summed over threads, as "main/alpha x1". */
static json_t *paths(json_t *doc)
{
	json_t *tree = json_object_get(doc, "tree"), *funcs = json_object_get(doc, "functions");
	json_t *parent = json_object_get(tree, "parent"), *func = json_object_get(tree, "func");
	json_t *calls = json_object_get(tree, "calls");
	size_t n = json_array_size(parent);
	char **path = calloc(n + 1, sizeof(*path));
	json_t *sums = json_object();
	for (size_t i = 0; i < n; i++) {
		json_int_t p = json_integer_value(json_array_get(parent, i));
		if (p < 0) {
			path[i] = strdup("");
			continue;
		}
		assert_true((size_t)p < i);
		const char *name = json_string_value(
			json_object_get(json_array_get(funcs, json_integer_value(json_array_get(func, i))), "name"));
		assert_int_not_equal(asprintf(&path[i], "%s%s%s", path[p], path[p][0] ? "/" : "", name), -1);
		json_int_t sum = json_integer_value(json_object_get(sums, path[i])) +
				 json_integer_value(json_array_get(calls, i));
		json_object_set_new(sums, path[i], json_integer(sum));
	}
	json_t *out = json_array();
	const char *key;
	json_t *v;
	json_object_foreach(sums, key, v)
	{
		char *s;
		assert_int_not_equal(asprintf(&s, "%s x%lld", key, (long long)json_integer_value(v)), -1);
		json_array_append_new(out, json_string(s));
		free(s);
	}
	for (size_t i = 0; i < n; i++)
		free(path[i]);
	free(path);
	json_decref(sums);
	return sorted(out);
}

/* e2e.t4001's shape of the JSON summary: what does not vary between runs. */
static json_t *shape(json_t *doc)
{
	json_t *out = json_object(), *a = json_array();
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(doc, "functions"), i, x)
	{
		const char *file = json_string_value(json_object_get(x, "file"));
		const char *base = file && strrchr(file, '/') ? strrchr(file, '/') + 1 : file ? file : "";
		json_array_append_new(a, json_pack("[s s O O]", json_string_value(json_object_get(x, "name")), base,
						   json_object_get(x, "line"), json_object_get(x, "calls")));
	}
	json_object_set_new(out, "functions", sorted(a));
	json_object_set_new(out, "paths", paths(doc));
	a = json_array();
	json_array_foreach(json_object_get(doc, "threads"), i, x)
	{
		json_array_append_new(a, json_pack("[O O O O]", json_object_get(x, "index"),
						   json_object_get(x, "events"), json_object_get(x, "timeline_events"),
						   json_object_get(x, "dropped_events")));
	}
	json_object_set_new(out, "threads", a);
	a = json_array();
	json_array_foreach(json_object_get(doc, "warnings"), i, x)
	{
		json_array_append(a, json_object_get(x, "kind"));
	}
	json_object_set_new(out, "warnings", sorted(a));
	a = json_array();
	json_array_foreach(json_object_get(doc, "notes"), i, x)
	{
		json_array_append_new(a, json_pack("[O O]", json_object_get(x, "kind"), json_object_get(x, "topic")));
	}
	json_object_set_new(out, "notes", sorted(a));
	json_t *run = json_object_get(doc, "run"), *r = json_object();
	static const char *const keys[] = {"exit_status", "signal", "mode", "finalized", "end_reason", "args"};
	for (i = 0; i < 6; i++)
		json_object_set(r, keys[i], json_object_get(run, keys[i]));
	json_object_set_new(out, "run", r);
	a = json_array();
	const char *key;
	json_object_foreach(json_object_get(json_object_get(doc, "memory"), "summary"), key, x)
	{
		if (json_is_null(json_object_get(x, "value")))
			json_array_append_new(a, json_string(key));
	}
	json_object_set_new(out, "memory", sorted(a));
	return out;
}

static void json_matches_golden(void **state)
{
	(void)state;
	struct xl_emit_opts o;
	xl_emit_opts_init(&o);
	char *text = emit("json", &o);
	json_t *doc = parse(text), *got = shape(doc);
	char *want_text = golden("json/two-parents.json");
	json_t *want = parse(want_text);
	if (!json_equal(got, want)) {
		char *g = json_dumps(got, JSON_INDENT(1) | JSON_SORT_KEYS);
		fail_msg("the summary's shape differs from tests/golden/json/two-parents.json:\n%s", g);
	}
	json_decref(got);
	json_decref(want);
	json_decref(doc);
	free(want_text);
	free(text);
}

/* Events in the golden order: metadata first, then by start, longer
 * (enclosing) first. */
static int by_time(const void *a, const void *b)
{
	json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	int mx = strcmp(json_string_value(json_object_get(x, "ph")), "M") != 0;
	int my = strcmp(json_string_value(json_object_get(y, "ph")), "M") != 0;
	if (mx != my)
		return mx - my;
	double tx = json_number_value(json_object_get(x, "ts")), ty = json_number_value(json_object_get(y, "ts"));
	if (tx != ty)
		return tx < ty ? -1 : 1;
	double dx = json_number_value(json_object_get(x, "dur")), dy = json_number_value(json_object_get(y, "dur"));
	return (dx < dy) - (dx > dy);
}

static void chrome_matches_golden(void **state)
{
	(void)state;
	struct xl_emit_opts o;
	xl_emit_opts_init(&o);
	char *text = emit("chrome", &o);
	json_t *doc = parse(text);
	json_t *evs = json_object_get(doc, "traceEvents");
	json_t **v = calloc(json_array_size(evs) + 1, sizeof(*v));
	size_t n = 0, i;
	json_t *e;
	json_array_foreach(evs, i, e)
	{
		const char *ph = json_string_value(json_object_get(e, "ph"));
		if (!strcmp(ph, "X") || !strcmp(ph, "M"))
			v[n++] = e;
	}
	/* Python's sort is stable: so is this one, by index on ties */
	for (size_t k = 1; k < n; k++)
		for (size_t j = k; j > 0 && by_time(&v[j - 1], &v[j]) > 0; j--) {
			json_t *t = v[j - 1];
			v[j - 1] = v[j];
			v[j] = t;
		}
	json_t *got = json_array();
	for (size_t k = 0; k < n; k++)
		json_array_append_new(got,
				      json_pack("[O O]", json_object_get(v[k], "ph"), json_object_get(v[k], "name")));
	char *want_text = golden("chrome/two-parents.json");
	json_t *want = parse(want_text);
	if (!json_equal(got, want))
		fail_msg("the trace's events differ from tests/golden/chrome/two-parents.json:\n%s",
			 json_dumps(got, JSON_COMPACT));
	json_decref(got);
	json_decref(want);
	json_decref(doc);
	free(v);
	free(want_text);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(text_matches_golden),
		cmocka_unit_test(folded_matches_golden),
		cmocka_unit_test(json_matches_golden),
		cmocka_unit_test(chrome_matches_golden),
	};
	return cmocka_run_group_tests(tests, load, unload);
}
