/*
 * cmd_attach.c - `exaloop profile attach PID`: capture from a program
 * exaloop built that is already running without capture.
 *
 *   profile attach PID [--duration D] [--include PATTERN]...
 *
 * The program's profiling runtime is linked in but dormant; exaloop calls
 * its entry point through ptrace (exec_built.c: xl_attach_built, then
 * session.c and src/os/inject.c), the runtime opens a window of D (10 s
 * unless told), and when it closes the runtime unpatches its sleds, ends
 * its thread and lets go of the process, which runs on.  The capture goes
 * under profiles/ of the current directory, as every other does.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "exec_built.h"
#include "exitcode.h"
#include "msg.h"
#include "options.h"
#include "project.h"
#include "toolchain.h"
#include "units.h"

#define ATTACH_DEFAULT_NS (10ull * 1000000000ull)

struct attach_opts {
	struct xl_settings set;
	size_t ninclude;
	int duration_given;
};

static int parse_duration(const char *value, void *dest)
{
	struct attach_opts *a = dest;
	char msg[256];
	if (xl_parse_duration(value, &a->set.duration_ns, msg, sizeof(msg)) != 0 || !a->set.duration_ns) {
		xl_error("%s for '--duration' (e.g. 30s)",
			 a->set.duration_ns ? msg : "a window of 0 (until the program ends) cannot be attached");
		return -1;
	}
	a->duration_given = 1;
	return 0;
}

/* The global capture options that mean something here: --duration and
 * --include, as the command's own (not both); --delay (attach captures
 * from the moment it attaches) and --target (a target's settings are for
 * run, build and profile exec) are refused rather than ignored.  0, or
 * the exit code after saying why. */
static int global_options(const struct attach_opts *a, const struct xl_ctx *ctx)
{
	const char *bad = NULL;
	if (ctx->delay_set)
		bad = "--delay: 'profile attach' captures from the moment it attaches (wait, then attach)";
	else if (ctx->target)
		bad = "--target: a target's settings are for run, build and profile exec; give 'profile attach' its "
		      "--duration and --include";
	else if (ctx->duration_set && a->duration_given)
		bad = "--duration twice: before 'profile attach' and after it; give it once";
	else if (ctx->duration_set && !ctx->duration_ns)
		bad = "--duration 0s: 'profile attach' needs a window to end (e.g. --duration 30s)";
	else if (ctx->ninclude && a->ninclude)
		bad = "--include both before 'profile attach' and after it; give the patterns in one place";
	if (!bad)
		return 0;
	xl_error("%s", bad);
	return XL_EXIT_USAGE;
}

static int parse_include(const char *value, void *dest)
{
	struct attach_opts *a = dest;
	char **v = realloc(a->set.include, (a->ninclude + 2) * sizeof(*v));
	if (!v || !value[0] || !(v[a->ninclude] = strdup(value))) {
		if (v)
			a->set.include = v;
		xl_error(value[0] ? "out of memory"
				  : "empty pattern for '--include' (e.g. --include '*process_batch*')");
		return -1;
	}
	v[++a->ninclude] = NULL;
	a->set.include = v;
	return 0;
}

int cmd_profile_attach(int argc, const char **argv, struct xl_ctx *ctx)
{
	struct attach_opts a = {0};
	xl_settings_defaults(&a.set);
	a.set.duration_ns = ATTACH_DEFAULT_NS;
	const struct xl_option opts[] = {
		XL_OPT_PARSE(0, "duration", &a, "D", "capture for D (default 10s), then let go of the process",
			     parse_duration),
		XL_OPT_PARSE(0, "include", &a, "PATTERN", "trace only functions matching PATTERN; repeatable",
			     parse_include),
		XL_OPT_END(),
	};
	const struct xl_usage usage = {"profile attach",
				       "PID",
				       "Capture from a running program built with 'exaloop --profile build'.",
				       opts,
				       NULL,
				       NULL};
	int n;
	int rc = xl_parse_options(&usage, argc, argv, 0, &n);
	if (rc == XL_OPTS_PARSED && ctx->arch && strcmp(ctx->arch, "x86_64") != 0) {
		xl_error("'profile attach' works on x86-64 programs only, not with '--arch %s'", ctx->arch);
		rc = XL_EXIT_USAGE;
	} else if (rc == XL_OPTS_PARSED && strcmp(xl_host_arch(), "x86_64") != 0) {
		/* Before anything touches the process: inject.c's ptrace code is x86-64's. */
		xl_error("'profile attach' works on x86-64 only, not on this %s machine", xl_host_arch());
		rc = XL_EXIT_USAGE;
	} else if (rc == XL_OPTS_PARSED && n != 1) {
		xl_error("'profile attach' takes one process id");
		rc = XL_EXIT_USAGE;
	}
	char *end = NULL;
	long pid = rc == XL_OPTS_PARSED ? strtol(argv[1], &end, 10) : 0;
	if (rc == XL_OPTS_PARSED && (!*argv[1] || *end || pid <= 0 || pid > 0x3fffffff)) {
		xl_error("'%s' is not a process id", argv[1]);
		rc = XL_EXIT_USAGE;
	}
	if (rc == XL_OPTS_PARSED)
		rc = global_options(&a, ctx) ? XL_EXIT_USAGE : XL_OPTS_PARSED;
	if (rc == XL_OPTS_PARSED) {
		if (ctx->mode_explicit) {
			a.set.mode = ctx->mode;
			a.set.mode_set = 1;
		}
		rc = xl_attach_built((pid_t)pid, &a.set, ctx);
	}
	xl_settings_release(&a.set);
	return rc;
}
