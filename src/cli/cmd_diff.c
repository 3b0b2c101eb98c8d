/*
 * cmd_diff.c - `exaloop profile diff BASE NEW`: what changed between two
 * captures (or two sets of runs) of a program, and where.
 *
 *   profile diff BASE NEW [--text|--json|--html] [-o OUT] [--sort self|total|calls]
 *                [--top N] [--full-names] [--normalize]
 *
 * BASE and NEW are each a capture directory, or a directory holding several
 * capture directories (runs of the same program, as `pgo evaluate` writes):
 * then values are medians and changes within the runs' spread are marked
 * not significant (diff.h).  Text goes to stdout by default; when a browser
 * can be opened the HTML page is also written (NEW/diff.html, or -o) and
 * opened, as `run` does with reports.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "captures.h"
#include "cmd.h"
#include "diff.h"
#include "emit_diff.h"
#include "exitcode.h"
#include "msg.h"
#include "options.h"
#include "report_out.h"

static int parse_sort(const char *value, void *dest)
{
	if (xl_diff_sort_parse(value, dest) != 0) {
		xl_error("invalid sort key '%s' for 'profile diff' (use self, total or calls)", value);
		return -1;
	}
	return 0;
}

/* Text or JSON to output (stdout when NULL); the page to output or
 * NEW/diff.html, printed and opened.  Without a format: text, and the page
 * too when a browser can show it. */
static int outputs(const struct xl_diff *d, const struct xl_diff_opts *o, const char *format, const char *output,
		   const char *new_dir, int no_open)
{
	int explicit_html = format && strcmp(format, "html") == 0;
	if (!explicit_html) {
		if (xl_diff_write(d, o, format ? format : "text", output ? output : "-") != 0)
			return XL_EXIT_FAIL;
		if (output && strcmp(output, "-") != 0)
			xl_note("wrote %s", output);
	}
	if (!explicit_html && (format || !xl_can_open_browser(no_open)))
		return 0;
	char path[PATH_MAX + 16];
	if (explicit_html && output)
		snprintf(path, sizeof(path), "%s", output);
	else
		snprintf(path, sizeof(path), "%s/diff.html", new_dir);
	if (xl_diff_write(d, o, "html", path) != 0)
		return XL_EXIT_FAIL;
	if (explicit_html)
		printf("%s\n", path);
	else
		xl_note("diff page: %s", path);
	xl_open_browser(path, no_open);
	return 0;
}

int cmd_profile_diff(int argc, const char **argv, struct xl_ctx *ctx)
{
	const char *format = NULL, *output = NULL;
	struct xl_diff_opts o = {XL_DSORT_SELF, 0, 0};
	int normalize = 0;
	const struct xl_option opts[] = {
		XL_OPT_SET(0, "text", &format, "text", "print the comparison as a table (the default)"),
		XL_OPT_SET(0, "json", &format, "json", "print the diff document (diff-json.md)"),
		XL_OPT_SET(0, "html", &format, "html", "write the diff page (NEW/diff.html or -o) and open it"),
		XL_OPT_STRING('o', NULL, &output, "OUT", "write to OUT instead"),
		XL_OPT_PARSE(0, "sort", &o.sort, "KEY", "order functions by the change in self, total or calls",
			     parse_sort),
		XL_OPT_INT(0, "top", &o.top, "N", "only the first N functions in the text (0: all)", 0, LONG_MAX,
			   "a number of rows (0: all)"),
		XL_OPT_BOOL(0, "full-names", &o.full_names,
			    "text: C++ functions by their full demangled names (default: short forms)"),
		XL_OPT_BOOL(0, "normalize", &normalize, "scale BASE's times to NEW's thread time (compare shares)"),
		XL_OPT_END(),
	};
	const struct xl_usage u = {
		"profile diff",
		"BASE NEW",
		"Compare two captures, or two directories of captures (runs: medians, spread and significance),\n"
		"paired by function name and call path, so that two different builds compare.",
		opts,
		NULL,
		NULL};
	int n;
	int rc = xl_parse_options(&u, argc, argv, 0, &n);
	if (rc != XL_OPTS_PARSED)
		return rc;
	if (n != 2) {
		if (n > 2)
			xl_error("unexpected argument '%s': 'profile diff' compares two captures, BASE and NEW",
				 argv[3]);
		else
			xl_error(
				"'profile diff' needs two captures: exaloop profile diff BASE NEW (capture directories, "
				"or directories of several captures)");
		return XL_EXIT_USAGE;
	}
	struct xl_diff_side side[2];
	rc = xl_diff_side_load(argv[1], &side[0]);
	if (rc)
		return rc;
	rc = xl_diff_side_load(argv[2], &side[1]);
	if (rc) {
		xl_diff_side_release(&side[0]);
		return rc;
	}
	struct xl_diff d;
	if (xl_diff_build(&side[0], &side[1], normalize, &d) != XL_OK) {
		xl_error("out of memory comparing '%s' and '%s'", argv[1], argv[2]);
		rc = XL_EXIT_FAIL;
	} else {
		rc = outputs(&d, &o, format, output, argv[2], ctx->no_open);
		xl_diff_free(&d);
	}
	xl_diff_side_release(&side[0]);
	xl_diff_side_release(&side[1]);
	return rc;
}
