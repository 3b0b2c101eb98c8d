/*
 * cmd_profile.c - `exaloop profile exec|report|export` (the `profile`
 * group's table is main.c's, with `profile diff` of cmd_diff.c).
 *
 *   profile exec ./app [args...]         capture from a program built with --profile build
 *   profile report CAPTURE [--text|--json] [--sort K] [--top N] [--thread I] [--timeline-calls N]
 *   profile export CAPTURE --format F [-o OUT] [--thread I] [--no-compress]
 *   profile diff BASE NEW [...]          (cmd_diff.c)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "analyze.h"
#include "build_setup.h"
#include "captures.h"
#include "cmd.h"
#include "emit.h"
#include "exec_built.h"
#include "exitcode.h"
#include "msg.h"
#include "options.h"
#include "project.h"
#include "report_out.h"
#include "session.h"
#include "symbols.h"
#include "xl_array.h"

/* Options shared by report and export. */
struct view_opts {
	const char *dir;
	const char *format;
	const char *output;
	const char *lines; /* report --lines FUNC */
	long process;      /* --process PID, -1: every process of the tree */
	struct xl_emit_opts emit;
};

static int parse_sort(const char *value, void *dest)
{
	if (xl_sort_parse(value, dest) != 0) {
		xl_error("invalid sort key '%s' (use self, total, calls, avg, name or alloc)", value);
		return -1;
	}
	return 0;
}

static int parse_weight(const char *value, void *dest)
{
	static const char *const names[] = {"time", "bytes", "allocs"};
	for (size_t i = 0; i < XL_ARRAY_SIZE(names); i++)
		if (strcmp(value, names[i]) == 0) {
			*(enum xl_weight *)dest = (enum xl_weight)i;
			return 0;
		}
	xl_error("invalid --weight '%s' (use time, bytes or allocs)", value);
	return -1;
}

/* The options `report` and `export` share, rows of their tables. */
#define VIEW_OPTIONS(v)                                                                                                \
	XL_OPT_PARSE(0, "sort", &(v)->emit.sort, "KEY",                                                                \
		     "order of the function table: self, total, calls, avg, name or alloc", parse_sort),               \
		XL_OPT_INT(0, "top", &(v)->emit.top, "N", "only the first N rows of the function table", 0, LONG_MAX,  \
			   "a number of rows"),                                                                        \
		XL_OPT_INT(0, "thread", &(v)->emit.thread, "I",                                                        \
			   "text, folded, pprof: only thread I (default: all merged)", 0, INT_MAX,                     \
			   "a thread index (see the report's thread list)"),                                           \
		XL_OPT_INT(0, "process", &(v)->process, "PID",                                                         \
			   "only process PID (default: every process of the capture's tree)", 0, INT_MAX,              \
			   "a process id (see the report's process list)"),                                            \
		XL_OPT_INT(0, "timeline-calls", &(v)->emit.timeline_max, "N",                                          \
			   "html: timeline calls the report keeps in all, the longest of each thread (default 20000)", \
			   1, LONG_MAX, "a number of calls (at least 1)")

/* The other formats keep every thread, each apart (the HTML report has a
 * thread selector): a silently ignored --thread would look like a
 * thread's figures. */
static int thread_format_ok(const struct view_opts *v)
{
	if (v->emit.thread < 0 || strcmp(v->format, "text") == 0 || strcmp(v->format, "folded") == 0 ||
	    strcmp(v->format, "pprof") == 0)
		return 1;
	xl_error("--thread is for the text, folded and pprof formats (the %s format keeps every thread, each apart; "
		 "drop --thread)",
		 v->format);
	return 0;
}

/* XL_OPTS_PARSED, or the exit code (after -h/--help or an error). */
static int parse_view(int argc, const char **argv, int is_export, struct view_opts *v)
{
	memset(v, 0, sizeof(*v));
	xl_emit_opts_init(&v->emit);
	v->process = -1;
	v->format = is_export ? NULL : "html";
	const struct xl_option report_opts[] = {
		XL_OPT_SET(0, "text", &v->format, "text", "print an aligned text report"),
		XL_OPT_SET(0, "json", &v->format, "json", "print the JSON summary (summary-json.md)"),
		XL_OPT_SET(0, "html", &v->format, "html", "write CAPTURE/index.html and open it (the default)"),
		VIEW_OPTIONS(v),
		XL_OPT_BOOL(0, "full-names", &v->emit.full_names,
			    "text: C++ functions by their full demangled names (default: short forms)"),
		XL_OPT_STRING(0, "lines", &v->lines, "FUNC",
			      "print FUNC's hottest lines: samples, share, source text (--top N: the first N)"),
		XL_OPT_STRING('o', NULL, &v->output, "OUT", "write to OUT instead (- for stdout)"),
		XL_OPT_END(),
	};
	const struct xl_option export_opts[] = {
		XL_OPT_STRING(0, "format", &v->format, "F", "html, json, chrome, perfetto, folded, pprof or text"),
		XL_OPT_STRING('o', NULL, &v->output, "OUT", "write to OUT (default: stdout)"),
		XL_OPT_BOOL(0, "no-compress", &v->emit.uncompressed,
			    "perfetto, pprof: not compressed (larger; for protoc --decode)"),
		VIEW_OPTIONS(v),
		XL_OPT_PARSE(0, "weight", &v->emit.weight, "W",
			     "folded: a stack's weight: time (self ns, default), bytes or allocs (heap)", parse_weight),
		XL_OPT_BOOL(0, "no-source", &v->emit.no_source, "html: leave the sampled lines' source text out"),
		XL_OPT_END(),
	};
	const struct xl_usage report = {
		"profile report",
		"CAPTURE",
		"Report a capture: HTML (CAPTURE/index.html, opened unless --no-open), text or JSON.",
		report_opts,
		NULL,
		NULL};
	const struct xl_usage export = {
		"profile export",
		"CAPTURE",
		"Write a capture in another format: Chrome trace, Perfetto trace, folded stacks, pprof, HTML, JSON or text.",
		export_opts,
		NULL,
		NULL};
	int n;
	int rc = xl_parse_options(is_export ? &export : &report, argc, argv, 0, &n);
	if (rc != XL_OPTS_PARSED)
		return rc;
	if (n > 1) {
		xl_error("unexpected argument '%s' (one capture directory at a time)", argv[2]);
		return XL_EXIT_USAGE;
	}
	v->dir = n == 1 ? argv[1] : NULL;
	if (!v->dir) {
		xl_error("no capture given: exaloop profile %s profiles/capture-... %s", argv[0],
			 is_export ? "--format html|json|chrome|perfetto|folded|pprof|text -o OUT" : "[--text|--json]");
		return XL_EXIT_USAGE;
	}
	if (is_export && !v->format) {
		xl_error("'profile export' needs --format (%s)", xl_emitter_names());
		return XL_EXIT_USAGE;
	}
	if (!xl_emitter(v->format)) {
		xl_error("unknown format '%s' (use %s)", v->format, xl_emitter_names());
		return XL_EXIT_USAGE;
	}
	if (v->emit.uncompressed && strcmp(v->format, "perfetto") != 0 && strcmp(v->format, "pprof") != 0) {
		xl_error("--no-compress is for --format perfetto or pprof (the %s format is never compressed inside; "
			 "an OUT ending in .gz compresses any format)",
			 v->format);
		return XL_EXIT_USAGE;
	}
	if (v->emit.no_source && strcmp(v->format, "html") != 0) {
		xl_error("--no-source is for --format html (the %s format holds no source text)", v->format);
		return XL_EXIT_USAGE;
	}
	return thread_format_ok(v) ? XL_OPTS_PARSED : XL_EXIT_USAGE;
}

static int check_thread(const struct xl_model *m, const struct view_opts *v)
{
	if (v->emit.thread >= 0 && !m->nthreads) {
		xl_error("no thread %d in this capture: it recorded no thread (drop --thread)", v->emit.thread);
		return -1;
	}
	if (v->emit.thread >= 0 && (size_t)v->emit.thread >= m->nthreads) {
		xl_error("no thread %d in this capture (it has %zu: 0..%zu)", v->emit.thread, m->nthreads,
			 m->nthreads - 1);
		return -1;
	}
	return 0;
}

/* Parse report/export options and load the capture they name: XL_OPTS_PARSED
 * with *m loaded, or the exit code. */
static int open_view(int argc, const char **argv, int is_export, struct view_opts *v, struct xl_model **m)
{
	int rc = parse_view(argc, argv, is_export, v);
	if (rc != XL_OPTS_PARSED)
		return rc;
	rc = xl_capture_load_process(v->dir, v->process, m);
	if (rc)
		return rc;
	if (check_thread(*m, v) != 0) {
		xl_model_free(*m);
		return XL_EXIT_USAGE;
	}
	if (v->emit.weight != XL_WEIGHT_TIME && !(*m)->allocs) {
		xl_error("'%s' has no heap allocations (captured with --no-allocations, or by an older exaloop): "
			 "--weight %s needs them",
			 v->dir, v->emit.weight == XL_WEIGHT_BYTES ? "bytes" : "allocs");
		xl_model_free(*m);
		return XL_EXIT_USAGE;
	}
	return XL_OPTS_PARSED;
}

int cmd_profile_report(int argc, const char **argv, struct xl_ctx *ctx)
{
	struct view_opts v;
	struct xl_model *m;
	int rc = open_view(argc, argv, 0, &v, &m);
	if (rc != XL_OPTS_PARSED)
		return rc;
	v.emit.no_source |= ctx->no_source;
	if (v.lines) {
		rc = xl_emit_lines(m, stdout, v.lines, v.emit.top);
		if (rc == -1)
			xl_error("no function named '%s' in '%s' (the names are those of the function table: exaloop "
				 "profile report %s --text)",
				 v.lines, v.dir, v.dir);
		xl_model_free(m);
		return rc == -1 ? XL_EXIT_USAGE : rc ? XL_EXIT_FAIL : 0;
	}
	if (strcmp(v.format, "html") == 0) {
		char path[PATH_MAX];
		snprintf(path, sizeof(path), "%s/index.html", v.dir);
		int to_file = !v.output || strcmp(v.output, "-") != 0;
		rc = xl_write_output(m, "html", &v.emit, v.output ? v.output : path, v.output != NULL) ? XL_EXIT_FAIL
												       : 0;
		if (!rc && to_file) {
			printf("%s\n", v.output ? v.output : path);
			xl_open_browser(v.output ? v.output : path, ctx->no_open);
		}
	} else {
		rc = xl_write_output(m, v.format, &v.emit, v.output ? v.output : "-", 1) ? XL_EXIT_FAIL : 0;
	}
	xl_model_free(m);
	return rc;
}

int cmd_profile_export(int argc, const char **argv, struct xl_ctx *ctx)
{
	struct view_opts v;
	struct xl_model *m;
	int rc = open_view(argc, argv, 1, &v, &m);
	if (rc != XL_OPTS_PARSED)
		return rc;
	v.emit.no_source |= ctx->no_source;
	rc = xl_write_output(m, v.format, &v.emit, v.output ? v.output : "-", 1) ? XL_EXIT_FAIL : 0;
	if (!rc && v.output && strcmp(v.output, "-") != 0)
		xl_note("wrote %s", v.output);
	xl_model_free(m);
	return rc;
}

int cmd_profile_exec(int argc, const char **argv, struct xl_ctx *ctx)
{
	static const struct xl_usage usage = {
		"profile exec",
		"./app [args...]",
		"Capture from a program built with 'exaloop --profile build', using its sidecars.\n"
		"Everything from ./app on goes to the program.",
		NULL,
		NULL,
		NULL};
	int n;
	int rc = xl_parse_options(&usage, argc, argv, XL_OPTS_STOP_AT_ARG, &n);
	if (rc != XL_OPTS_PARSED)
		return rc;
	if (n < 1) {
		xl_error("no program given: exaloop profile exec ./app [args...]");
		return XL_EXIT_USAGE;
	}
	if (!ctx->target) {
		struct xl_settings set;
		xl_settings_defaults(&set);
		set.mode_set = ctx->profile;
		set.mode = ctx->mode;
		return xl_exec_built(argv[1], argv + 2, &set, 0, ctx);
	}
	/* A target's capture settings (its profile table: window, include,
	 * intervals, timing) for a program built before; its sources, build
	 * options and arguments are run's and build's, not used here. */
	struct xl_target t;
	rc = xl_target_load(ctx, &t);
	if (rc == 0)
		rc = xl_exec_built(argv[1], argv + 2, &t.profile, t.long_running, ctx);
	xl_target_release(&t);
	return rc;
}
