/*
 * globals.h - exaloop's global options, the ones before the command:
 *
 *   exaloop [--profile[=MODE]] [--no-open] [--no-allocations] [--target NAME] [--arch ARCH]
 *           [--timeline MODE] [--timeline-min-duration D] [--delay D] [--duration D]
 *           [--include PATTERN]... [--buffer-size SIZE] [--memory-interval D]
 *           [--sample-rate HZ] [--no-samples] [--no-source] [--version] COMMAND ...
 *
 * The one place that knows them: main parses the table below, `run` and
 * `build` refuse their names after the command with the right order in the
 * message (xl_is_global_option, given to args.h's splitter), and the
 * compiler wrappers parse their own --profile=MODE with the same function.
 */
#ifndef XL_GLOBALS_H
#define XL_GLOBALS_H

#include "ctx.h"
#include "options.h"

/* Where the global options go: the context, and main's own two. */
struct xl_globals {
	struct xl_ctx *ctx;
	int version;        /* --version */
	int no_allocations; /* --no-allocations */
};

/* The table of the global options for g, ended by XL_OPT_END(), in opts
 * (room for XL_GLOBAL_OPTIONS entries). */
#define XL_GLOBAL_OPTIONS 18
void xl_global_options(struct xl_globals *g, struct xl_option *opts);

/* Does arg name a global option ("--target", "--profile=memory")?  0 no,
 * 1 yes, 2 yes and its value is the next argument ("--target NAME"). */
int xl_is_global_option(const char *arg);

/* --profile[=MODE] into the context (dest: struct xl_ctx *): profiling on,
 * MODE all (the default), memory or xray.  0, or -1 after printing why. */
int xl_parse_profile(const char *mode, void *ctx);

#endif
