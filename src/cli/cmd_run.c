/*
 * cmd_run.c - `exaloop [--profile[=MODE]] [--target NAME] run [build options] SOURCE... [args...]`
 *
 * Builds the program into a private temporary directory, runs it with its
 * arguments (capturing under --profile), and exits with its status.  With
 * --target the sources, build options, arguments and capture settings
 * come from exaloop.toml; flags on the command line override the file.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "args.h"
#include "build_setup.h"
#include "cmd.h"
#include "exitcode.h"
#include "msg.h"
#include "options.h"
#include "project.h"
#include "sdk.h"
#include "session.h"
#include "symbols.h"
#include "toolchain.h"
#include "units.h"

static const char *mode_label(const struct xl_ctx *ctx, uint32_t mode)
{
	return !ctx->profile ? "no profiling" : xl_mode_name(mode);
}

static int run(int argc, const char **argv, struct xl_ctx *ctx, const struct xl_settings *set, int long_running)
{
	struct xl_build_args a;
	struct xl_sdk sdk;
	char err[512];
	int rc = xl_build_prepare(ctx, argc, argv, 0, &a, &sdk);
	if (rc != 0)
		return rc;
	char tmpdir[] = "/tmp/exaloop-run-XXXXXX";
	if (!mkdtemp(tmpdir)) {
		xl_error("cannot create a temporary build directory: %m");
		xl_build_args_release(&a);
		return XL_EXIT_BUILD;
	}
	char name[NAME_MAX + 1], exe[PATH_MAX + NAME_MAX + 2];
	xl_default_output(a.sources[0], name, sizeof(name));
	snprintf(exe, sizeof(exe), "%s/%s", tmpdir, name);

	struct xl_build b;
	xl_build_init(&b, &a, ctx->profile, set->mode, sdk.runtime, exe);
	rc = xl_build_run(&b);
	if (rc == 0) {
		char took[32];
		xl_fmt_duration(b.compile_ns, took, sizeof(took));
		xl_note("compiled %s in %s (%s build, %s)", a.sources[0], took, a.release ? "release" : "debug",
			mode_label(ctx, set->mode));
		struct xl_symtab tab = {0};
		if (ctx->profile && xl_symbols_read(exe, &tab, err, sizeof(err)) != 0)
			xl_warn("cannot read function symbols of the build: %s", err);
		struct xl_session s = {0};
		s.exe = exe;
		s.args = a.prog_args;
		s.capture = ctx->profile;
		s.mode = set->mode;
		s.buffer_size = set->buffer_size;
		s.interval_ns = set->memory_interval_ns;
		s.delay_ns = set->delay_ns;
		s.duration_ns = set->duration_ns;
		s.include = (const char *const *)set->include;
		s.symtab = ctx->profile ? &tab : NULL;
		s.program = a.sources[0];
		s.command = ctx->argv;
		s.compile_ns = b.compile_ns;
		s.no_open = ctx->no_open;
		s.long_running = long_running;
		rc = xl_session_run(&s);
		xl_symtab_release(&tab);
	}
	unlink(exe);
	rmdir(tmpdir);
	xl_build_args_release(&a);
	return rc;
}

int cmd_run(int argc, const char **argv, struct xl_ctx *ctx)
{
	static const struct xl_usage usage = {
		"run", "[build options] SOURCE... [program args...]",
		"Build a program with clang and run it with its arguments, capturing under --profile.\n"
		"Everything after the sources goes to the program ('--' ends the sources).", NULL, NULL,
		xl_build_options_help};
	if (xl_help_requested(&usage, argc, argv))
		return XL_EXIT_OK;
	if (!ctx->target) {
		struct xl_settings set;
		xl_settings_defaults(&set);
		set.mode = ctx->mode;
		return run(argc, argv, ctx, &set, 0);
	}
	struct xl_target t;
	const char **targv = NULL;
	int targc = 0;
	int rc = xl_target_argv(ctx, argv[0], argc, 1, &t, &targv, &targc);
	if (rc != 0)
		return rc;
	if (ctx->mode_explicit)
		t.profile.mode = ctx->mode;
	rc = run(targc, targv, ctx, &t.profile, t.long_running);
	xl_target_argv_free(targv);
	xl_target_release(&t);
	return rc;
}
