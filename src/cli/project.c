/*
 * project.c - read project targets from exaloop.toml (see project.h).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "ctx.h"
#include "msg.h"
#include "project.h"
#include "session.h"
#include "toml.h"
#include "units.h"

/* Limits of exaloop.toml's settings (the defaults are the runtime's, in
 * xl_capture.h). */
#define MAX_BUFFER_SIZE (64ull << 30) /* 64 GiB */
#define MIN_INTERVAL_NS 1000000u      /* 1 ms */

void xl_settings_defaults(struct xl_settings *s)
{
	memset(s, 0, sizeof(*s));
	s->mode = XL_MODE_ALL;
	s->buffer_size = XL_DEFAULT_BUFFER_SIZE;
	s->memory_interval_ns = XL_DEFAULT_INTERVAL_NS;
	s->allocations = 1;
	s->tl_mode = XL_TL_AUTO;
	s->sample_rate = XL_DEFAULT_SAMPLE_RATE;
	s->timing = XL_TIMING_EXACT;
}

int xl_timing_parse(const char *name, uint32_t *out)
{
	if (strcmp(name, "exact") == 0)
		*out = XL_TIMING_EXACT;
	else if (strcmp(name, "sampled") == 0)
		*out = XL_TIMING_SAMPLED;
	else
		return -1;
	return 0;
}

int xl_settings_check(const struct xl_settings *s, const struct xl_ctx *ctx, uint32_t mode)
{
	if ((ctx->timing ? ctx->timing : s->timing) != XL_TIMING_SAMPLED)
		return 0;
	const char *why = NULL;
	if (mode == XL_MODE_MEMORY)
		why = "it times traced calls, and --profile=memory traces none";
	else if (ctx->no_samples || (!ctx->sample_rate_set && s->sample_rate == 0))
		why = "its times come from position samples: drop --no-samples (or sample_rate = 0)";
	else if (ctx->tl_mode || ctx->tl_min_set || s->tl_min_ns || s->tl_mode != XL_TL_AUTO)
		why = "it keeps no timeline: drop the timeline options (--timeline, --timeline-min-duration)";
	if (!why)
		return 0;
	xl_error("--timing=sampled cannot be used here: %s", why);
	return -1;
}

void xl_settings_for_session(const struct xl_settings *s, const struct xl_ctx *ctx, struct xl_session *out)
{
	out->buffer_size = ctx->buffer_size ? ctx->buffer_size : s->buffer_size;
	out->interval_ns = ctx->interval_ns ? ctx->interval_ns : s->memory_interval_ns;
	out->delay_ns = ctx->delay_set ? ctx->delay_ns : s->delay_ns;
	out->duration_ns = ctx->duration_set ? ctx->duration_ns : s->duration_ns;
	out->include = ctx->ninclude ? (const char *const *)ctx->include : (const char *const *)s->include;
	out->tl_mode = ctx->tl_mode ? ctx->tl_mode : s->tl_mode;
	out->tl_min_ns = ctx->tl_min_set ? ctx->tl_min_ns : s->tl_min_ns;
	out->sample_rate = ctx->no_samples ? 0 : ctx->sample_rate_set ? ctx->sample_rate : s->sample_rate;
	out->no_source = ctx->no_source;
	out->timing = ctx->timing ? ctx->timing : s->timing;
}

const char *xl_buffer_size_problem(uint64_t bytes)
{
	if (bytes < XL_MIN_BUFFER_SIZE)
		return "must be at least 1MiB";
	if (bytes > MAX_BUFFER_SIZE)
		return "must be at most 64GiB";
	return NULL;
}

const char *xl_interval_problem(uint64_t ns)
{
	return ns < MIN_INTERVAL_NS ? "must be at least 1ms" : NULL;
}

static void free_strv(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

void xl_settings_release(struct xl_settings *s)
{
	free_strv(s->include);
	s->include = NULL;
}

void xl_target_release(struct xl_target *t)
{
	free(t->name);
	free(t->kind);
	free(t->dir);
	free_strv(t->sources);
	free_strv(t->build_args);
	free_strv(t->args);
	free(t->pgo_profile);
	for (size_t i = 0; t->pgo_inputs && t->pgo_inputs[i]; i++)
		free_strv(t->pgo_inputs[i]);
	free(t->pgo_inputs);
	free_strv(t->build);
	free(t->binary);
	xl_settings_release(&t->profile);
	memset(t, 0, sizeof(*t));
}

int xl_project_find(char *path, size_t len)
{
	char dir[PATH_MAX];
	if (!getcwd(dir, sizeof(dir)))
		return -1;
	for (;;) {
		if ((size_t)snprintf(path, len, "%s/exaloop.toml", strcmp(dir, "/") ? dir : "") < len &&
		    access(path, F_OK) == 0)
			return 0;
		char *slash = strrchr(dir, '/');
		if (!slash || slash == dir) {
			if (strcmp(dir, "/") == 0)
				return -1;
			strcpy(dir, "/");
			continue;
		}
		*slash = 0;
	}
}

/* Parser state for one file: its name (for messages) and the error. */
struct ctx {
	const char *file;
	struct xl_toml_error err;
};

static int fail(struct ctx *c, const struct xl_toml_value *v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct ctx *c, const struct xl_toml_value *v, const char *fmt, ...)
{
	char msg[XL_TOML_MESSAGE_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	xl_toml_error_set(&c->err, c->file, xl_toml_pos_of(v), "%s", msg);
	return -1;
}

/* Reject keys of `table` not in `valid`, naming the valid ones. */
static int check_keys(struct ctx *c, const struct xl_toml_value *table, const char *where, const char *const *valid)
{
	struct xl_toml_entry e;
	for (size_t i = 0; xl_toml_table_entry(table, i, &e); i++) {
		int ok = 0;
		for (size_t k = 0; valid[k] && !ok; k++)
			ok = strlen(valid[k]) == e.key_len && memcmp(valid[k], e.key, e.key_len) == 0;
		if (ok)
			continue;
		char list[256] = "";
		for (size_t k = 0; valid[k]; k++) {
			strncat(list, k ? ", " : "", sizeof(list) - strlen(list) - 1);
			strncat(list, valid[k], sizeof(list) - strlen(list) - 1);
		}
		xl_toml_error_set(&c->err, c->file, e.key_pos, "unknown key '%s' in %s (valid keys: %s)", e.key, where,
				  list);
		return -1;
	}
	return 0;
}

static int get_string(struct ctx *c, const struct xl_toml_value *v, const char *key, char **out)
{
	const char *s;
	size_t n;
	if (!xl_toml_as_string(v, &s, &n))
		return fail(c, v, "expected a string for '%s', found %s", key, xl_toml_type_name(xl_toml_type_of(v)));
	if (strlen(s) != n)
		return fail(c, v, "'%s' must not contain NUL characters", key);
	*out = strdup(s);
	return *out ? 0 : -1;
}

/* A string naming one of a few choices (timeline, timing): parse gives
 * its value, or -1 for a name it does not know ("use <choices>"). */
static int get_choice(struct ctx *c, const struct xl_toml_value *v, const char *key,
		      int (*parse)(const char *, uint32_t *), uint32_t *out, const char *choices)
{
	char *name;
	if (get_string(c, v, key, &name) != 0)
		return -1;
	int bad = parse(name, out) != 0;
	if (bad)
		fail(c, v, "invalid %s '%s' (use %s)", key, name, choices);
	free(name);
	return bad ? -1 : 0;
}

/* A string or an array of strings (allow_single) into a NULL-terminated list. */
static int get_strings(struct ctx *c, const struct xl_toml_value *v, const char *key, int allow_single, char ***out)
{
	if (allow_single && xl_toml_type_of(v) == XL_TOML_STRING) {
		*out = calloc(2, sizeof(char *));
		return *out ? get_string(c, v, key, &(*out)[0]) : -1;
	}
	if (xl_toml_type_of(v) != XL_TOML_ARRAY)
		return fail(c, v, "expected %s for '%s', found %s",
			    allow_single ? "a string or a list of strings" : "a list of strings", key,
			    xl_toml_type_name(xl_toml_type_of(v)));
	size_t n = xl_toml_array_len(v);
	char **list = calloc(n + 1, sizeof(char *));
	if (!list)
		return -1;
	*out = list;
	for (size_t i = 0; i < n; i++) {
		const struct xl_toml_value *item = xl_toml_array_at(v, i);
		if (xl_toml_type_of(item) != XL_TOML_STRING)
			return fail(c, item, "expected only strings in '%s', found %s", key,
				    xl_toml_type_name(xl_toml_type_of(item)));
		if (get_string(c, item, key, &list[i]) != 0)
			return -1;
	}
	return 0;
}

typedef int (*unit_parser)(const char *, uint64_t *, char *, size_t);

static int get_unit(struct ctx *c, const struct xl_toml_value *v, const char *key, unit_parser parse, uint64_t *out)
{
	const char *s;
	if (!xl_toml_as_string(v, &s, NULL))
		return fail(c, v, "expected a string with a unit for '%s' (e.g. \"10s\" or \"64MiB\"), found %s", key,
			    xl_toml_type_name(xl_toml_type_of(v)));
	char msg[256];
	if (parse(s, out, msg, sizeof(msg)) != 0)
		return fail(c, v, "%s for '%s'", msg, key);
	return 0;
}

static int load_profile(struct ctx *c, const struct xl_toml_value *p, struct xl_settings *s)
{
	static const char *const valid[] = {
		"mode",    "delay",    "duration",    "memory_interval",       "buffer_size",
		"include", "timeline", "allocations", "timeline_min_duration", "sample_rate",
		"timing",  NULL};
	if (xl_toml_type_of(p) != XL_TOML_TABLE)
		return fail(c, p, "expected a table for 'profile', found %s", xl_toml_type_name(xl_toml_type_of(p)));
	if (check_keys(c, p, "[targets.*.profile]", valid) != 0)
		return -1;
	const struct xl_toml_value *v;
	if ((v = xl_toml_table_get(p, "mode"))) {
		char *mode;
		if (get_string(c, v, "mode", &mode) != 0)
			return -1;
		s->mode_set = 1;
		if (xl_mode_parse(mode, &s->mode) != 0) {
			fail(c, v, "invalid mode '%s' (use all, memory or xray)", mode);
			free(mode);
			return -1;
		}
		free(mode);
	}
	if ((v = xl_toml_table_get(p, "delay")) && get_unit(c, v, "delay", xl_parse_duration, &s->delay_ns))
		return -1;
	if ((v = xl_toml_table_get(p, "duration")) && get_unit(c, v, "duration", xl_parse_duration, &s->duration_ns))
		return -1;
	if ((v = xl_toml_table_get(p, "memory_interval"))) {
		if (get_unit(c, v, "memory_interval", xl_parse_duration, &s->memory_interval_ns))
			return -1;
		if (xl_interval_problem(s->memory_interval_ns))
			return fail(c, v, "'memory_interval' %s", xl_interval_problem(s->memory_interval_ns));
	}
	if ((v = xl_toml_table_get(p, "buffer_size"))) {
		if (get_unit(c, v, "buffer_size", xl_parse_size, &s->buffer_size))
			return -1;
		if (xl_buffer_size_problem(s->buffer_size))
			return fail(c, v, "'buffer_size' %s", xl_buffer_size_problem(s->buffer_size));
	}
	if ((v = xl_toml_table_get(p, "include")) && get_strings(c, v, "include", 0, &s->include))
		return -1;
	if ((v = xl_toml_table_get(p, "allocations"))) {
		bool on;
		if (!xl_toml_as_bool(v, &on))
			return fail(c, v, "expected true or false for 'allocations', found %s",
				    xl_toml_type_name(xl_toml_type_of(v)));
		s->allocations = on;
	}
	if ((v = xl_toml_table_get(p, "timeline")) &&
	    get_choice(c, v, "timeline", xl_tl_mode_parse, &s->tl_mode, "auto, first or last") != 0)
		return -1;
	if ((v = xl_toml_table_get(p, "timeline_min_duration")) &&
	    get_unit(c, v, "timeline_min_duration", xl_parse_duration, &s->tl_min_ns))
		return -1;
	if ((v = xl_toml_table_get(p, "sample_rate"))) {
		int64_t hz;
		if (!xl_toml_as_int(v, &hz) || hz < 0 || hz > XL_MAX_SAMPLE_RATE)
			return fail(c, v, "expected samples per second (0 to %u, 0: none) for 'sample_rate'",
				    XL_MAX_SAMPLE_RATE);
		s->sample_rate = (uint32_t)hz;
	}
	if ((v = xl_toml_table_get(p, "timing")) &&
	    get_choice(c, v, "timing", xl_timing_parse, &s->timing, "exact or sampled") != 0)
		return -1;
	return 0;
}

/* `pgo = "FILE"`, or a [targets.X.pgo] table with profile and inputs. */
static int load_pgo(struct ctx *c, const struct xl_toml_value *p, struct xl_target *t)
{
	static const char *const valid[] = {"profile", "inputs", NULL};
	if (xl_toml_type_of(p) == XL_TOML_STRING)
		return get_string(c, p, "pgo", &t->pgo_profile);
	if (xl_toml_type_of(p) != XL_TOML_TABLE)
		return fail(c, p, "expected a profile path or a table for 'pgo', found %s",
			    xl_toml_type_name(xl_toml_type_of(p)));
	if (check_keys(c, p, "[targets.*.pgo]", valid) != 0)
		return -1;
	const struct xl_toml_value *v;
	if ((v = xl_toml_table_get(p, "profile")) && get_string(c, v, "profile", &t->pgo_profile) != 0)
		return -1;
	if (!(v = xl_toml_table_get(p, "inputs")))
		return 0;
	if (xl_toml_type_of(v) != XL_TOML_ARRAY)
		return fail(
			c, v,
			"expected a list of argument lists for 'inputs' (inputs = [[\"--in\", \"a.json\"]]), found %s",
			xl_toml_type_name(xl_toml_type_of(v)));
	size_t n = xl_toml_array_len(v);
	t->pgo_inputs = calloc(n + 1, sizeof(char **));
	if (!t->pgo_inputs)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (get_strings(c, xl_toml_array_at(v, i), "inputs", 0, &t->pgo_inputs[i]) != 0)
			return -1;
	return 0;
}

static int load_target(struct ctx *c, const struct xl_toml_value *tv, const char *name, struct xl_target *t)
{
	static const char *const valid[] = {"kind",   "source", "codon_args", "build_args", "build",
					    "binary", "args",   "profile",    "pgo",        NULL};
	static const char *const kinds[] = {"app", "service", "kafka-consumer", NULL};
	if (xl_toml_type_of(tv) != XL_TOML_TABLE)
		return fail(c, tv, "expected a table for target '%s', found %s", name,
			    xl_toml_type_name(xl_toml_type_of(tv)));
	if (check_keys(c, tv, "a target", valid) != 0)
		return -1;
	const struct xl_toml_value *v;
	if ((v = xl_toml_table_get(tv, "kind"))) {
		if (get_string(c, v, "kind", &t->kind) != 0)
			return -1;
		int ok = 0;
		for (size_t k = 0; kinds[k] && !ok; k++)
			ok = strcmp(t->kind, kinds[k]) == 0;
		if (!ok)
			return fail(c, v, "unknown kind '%s' (use app, service or kafka-consumer)", t->kind);
	} else {
		t->kind = strdup("app");
	}
	t->long_running = strcmp(t->kind, "app") != 0;
	/* Either sources exaloop builds, or the project's own build command
	 * and the executable it produces. */
	const struct xl_toml_value *src = xl_toml_table_get(tv, "source"), *bld = xl_toml_table_get(tv, "build"),
				   *bin = xl_toml_table_get(tv, "binary");
	const struct xl_toml_value *ca = xl_toml_table_get(tv, "codon_args"), *ba = xl_toml_table_get(tv, "build_args");
	if (bld || bin) {
		if (src)
			return fail(c, src,
				    "target '%s' has both 'source' and 'build': give sources for exaloop to "
				    "build, or the project's build command and its 'binary'",
				    name);
		if (ca || ba)
			return fail(c, ca ? ca : ba,
				    "'%s' applies to 'source' targets; a target with 'build' takes "
				    "its flags from its own build",
				    ca ? "codon_args" : "build_args");
		if (!bld)
			return fail(c, bin,
				    "target '%s' has 'binary' but no 'build' (the command that builds it, "
				    "e.g. build = [\"make\", \"-j2\"])",
				    name);
		if (!bin)
			return fail(c, bld,
				    "target '%s' has 'build' but no 'binary' (the executable it produces, "
				    "relative to exaloop.toml)",
				    name);
		if (get_strings(c, bld, "build", 0, &t->build) != 0)
			return -1;
		if (!t->build[0])
			return fail(c, bld, "'build' of target '%s' is empty", name);
		if (get_string(c, bin, "binary", &t->binary) != 0)
			return -1;
		if (!t->binary[0])
			return fail(c, bin, "'binary' of target '%s' is empty", name);
	} else {
		if (!src)
			return fail(c, tv, "target '%s' has no 'source' (or 'build' and 'binary')", name);
		if (get_strings(c, src, "source", 1, &t->sources) != 0)
			return -1;
		if (!t->sources[0])
			return fail(c, src, "'%s' of target '%s' is empty", "source", name);
	}
	if (ca && ba)
		return fail(c, ba, "give either 'codon_args' or 'build_args' (they are the same key)");
	if ((v = ca ? ca : ba) && get_strings(c, v, ca ? "codon_args" : "build_args", 0, &t->build_args))
		return -1;
	if ((v = xl_toml_table_get(tv, "args")) && get_strings(c, v, "args", 0, &t->args))
		return -1;
	if ((v = xl_toml_table_get(tv, "profile")) && load_profile(c, v, &t->profile))
		return -1;
	if ((v = xl_toml_table_get(tv, "pgo")) && load_pgo(c, v, t))
		return -1;
	return 0;
}

int xl_project_load_target(const char *path, const char *name, struct xl_target *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	xl_settings_defaults(&t->profile);
	struct ctx c = {path, {{0, 0}, "", ""}};
	struct xl_toml_value *root = xl_toml_parse_file(path, &c.err);
	int rc = -1;
	if (!root)
		goto out;
	static const char *const top[] = {"targets", NULL};
	if (check_keys(&c, root, "exaloop.toml", top) != 0)
		goto out;
	const struct xl_toml_value *targets = xl_toml_table_get(root, "targets");
	const struct xl_toml_value *tv = targets ? xl_toml_table_get(targets, name) : NULL;
	if (!tv) {
		char list[256] = "";
		struct xl_toml_entry e;
		for (size_t i = 0; targets && xl_toml_table_entry(targets, i, &e); i++) {
			strncat(list, i ? ", " : "", sizeof(list) - strlen(list) - 1);
			strncat(list, e.key, sizeof(list) - strlen(list) - 1);
		}
		xl_toml_error_set(&c.err, path, (struct xl_toml_pos){0, 0}, "no target '%s' (%s%s)", name,
				  list[0] ? "targets: " : "no [targets.NAME] tables", list);
		goto out;
	}
	t->name = strdup(name);
	char *d = strdup(path), *slash = d ? strrchr(d, '/') : NULL;
	if (slash)
		*slash = 0;
	t->dir = d;
	rc = load_target(&c, tv, name, t);
out:
	if (rc != 0) {
		snprintf(err, errlen, "%s", c.err.text);
		xl_target_release(t);
	}
	xl_toml_free(root);
	return rc;
}
