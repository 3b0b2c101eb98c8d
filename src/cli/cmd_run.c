/*
 * cmd_run.c - `exaloop [--profile[=MODE]] [--target NAME] run [build options] SOURCE... [args...]`
 *
 * Builds the program into a private temporary directory, runs it with its
 * arguments (capturing under --profile), and exits with its status.  With
 * --target the sources, build options, arguments and capture settings
 * come from exaloop.toml; flags on the command line override the file.
 *
 *   exaloop --profile[=MODE] run -- BUILD-COMMAND [ARGS...] :: PROGRAM [ARGS...]
 *
 * runs a project's own build with the compiler wrappers (projbuild.h),
 * then captures from PROGRAM, one of the executables it linked.  So does
 * a target whose exaloop.toml names `build` and `binary`.
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
#include "exec_built.h"
#include "projbuild.h"
#include "project.h"
#include "sdk.h"
#include "session.h"
#include "symbols.h"
#include "srcbuild.h"
#include "units.h"
#include "fileio.h"

static const char *mode_label(const struct xl_ctx *ctx, uint32_t mode)
{
	return !ctx->profile ? "no profiling" : xl_mode_name(mode);
}

static int run(int argc, const char **argv, struct xl_ctx *ctx, const struct xl_settings *set, int long_running)
{
	struct xl_build_args a;
	struct xl_sdk sdk;
	char err[512];
	if (ctx->profile && xl_settings_check(set, ctx, set->mode) != 0)
		return XL_EXIT_USAGE;
	int rc = xl_build_prepare(ctx, argc, argv, 0, &a, &sdk);
	if (rc != 0)
		return rc;
	char tmpdir[PATH_MAX - NAME_MAX - 2];
	if (xl_make_temp_dir("run", tmpdir, sizeof(tmpdir)) != 0) {
		xl_error("cannot create a temporary build directory: %m");
		xl_build_args_release(&a);
		return XL_EXIT_BUILD;
	}
	struct xl_build b;
	xl_build_init(&b, &a, ctx->profile, set->mode, sdk.runtime, NULL, tmpdir, &xl_stderr_msgs);
	rc = xl_build_run(&b);
	rc = xl_exit_for_build(rc, b.signal);
	if (rc == 0) {
		char took[32];
		xl_fmt_duration(b.compile_ns, took, sizeof(took));
		if (b.nsources > 1)
			xl_note("compiled %zu sources in %s (%zu reused from the cache; %s build, %s)", b.nsources,
				took, b.nreused, a.release ? "release" : "debug", mode_label(ctx, set->mode));
		else
			xl_note("compiled %s in %s (%s build, %s)", b.main_source, took,
				a.release ? "release" : "debug", mode_label(ctx, set->mode));
		struct xl_symtab tab = {0};
		if (ctx->profile && xl_symbols_read(b.output, &tab, err, sizeof(err)) != 0)
			xl_warn("cannot read function symbols of the build: %s", err);
		struct xl_session s = {0};
		s.exe = b.output;
		s.args = a.prog_args;
		s.capture = ctx->profile;
		s.mode = set->mode;
		xl_settings_for_session(set, ctx, &s);
		s.symtab = ctx->profile ? &tab : NULL;
		s.program = b.main_source;
		s.command = ctx->argv;
		s.compile_ns = b.compile_ns;
		s.no_open = ctx->no_open;
		s.long_running = long_running || (ctx->duration_set && ctx->duration_ns);
		rc = xl_session_run(&s);
		xl_symtab_release(&tab);
	}
	if (b.output)
		unlink(b.output);
	rmdir(tmpdir);
	xl_build_args_release(&a);
	return rc;
}

/* Build with the project's own command in dir, then capture from exe. */
static int build_then_exec(const char *const *build, const char *dir, const char *exe, const char *const *args,
			   const struct xl_settings *set, int long_running, const struct xl_ctx *ctx)
{
	if (!ctx->profile) {
		xl_error("a project's own build is profiled with --profile: exaloop --profile run -- %s ... :: %s",
			 build[0], exe);
		return XL_EXIT_USAGE;
	}
	struct xl_projbuild pb;
	int rc = xl_projbuild_run(build, set->mode, dir, 1, &pb, &xl_stderr_msgs);
	rc = xl_exit_for_build(rc, pb.signal);
	if (rc == 0) {
		char took[32];
		xl_fmt_duration(pb.build_ns, took, sizeof(took));
		xl_note("built in %s with '%s' (%zu instrumented executable%s)", took, build[0], pb.nexes,
			pb.nexes == 1 ? "" : "s");
		char abs[PATH_MAX];
		int relinked = 0;
		for (size_t i = 0; realpath(exe, abs) && i < pb.nexes; i++)
			relinked |= strcmp(pb.exes[i], abs) == 0;
		if (!relinked)
			xl_note("'%s' was not linked by this build (up to date, or not built through $CC/$CXX): "
				"profiling it as it is",
				exe);
	}
	xl_projbuild_release(&pb);
	if (rc != 0)
		return rc;
	return xl_exec_built(exe, args, set, long_running, ctx);
}

/* `run -- BUILD... :: PROGRAM ARGS...` */
static int run_project(int argc, const char **argv, struct xl_ctx *ctx)
{
	int sep = 2;
	while (sep < argc && strcmp(argv[sep], "::") != 0)
		sep++;
	if (sep == 2 || sep >= argc - 1) {
		xl_error(sep == 2 ? "no build command after '--': exaloop --profile run -- make -j2 :: ./app [args...]"
				  : "no program after the build command: end it with ':: ./app [args...]' "
				    "(exaloop --profile run -- make -j2 :: ./app [args...])");
		return XL_EXIT_USAGE;
	}
	const char **build = calloc((size_t)(sep - 1), sizeof(char *));
	if (!build) {
		xl_error("out of memory");
		return XL_EXIT_FAIL;
	}
	for (int i = 2; i < sep; i++)
		build[i - 2] = argv[i];
	struct xl_settings set;
	xl_settings_defaults(&set);
	set.mode_set = ctx->mode_explicit;
	set.mode = ctx->mode;
	int rc = build_then_exec(build, NULL, argv[sep + 1], argv + sep + 2, &set, 0, ctx);
	free(build);
	return rc;
}

int cmd_run(int argc, const char **argv, struct xl_ctx *ctx)
{
	static const struct xl_usage usage = {
		"run",
		"[build options] INPUT... [program args...]\n"
		"   or: exaloop --profile run -- BUILD-COMMAND [args...] :: PROGRAM [program args...]",
		"Build a program with clang and run it with its arguments, capturing under --profile.\n"
		"Everything after the inputs goes to the program ('--' ends the inputs). The second\n"
		"form runs a project's own build with exaloop's compiler wrappers, then PROGRAM.",
		NULL,
		NULL,
		xl_build_options_help};
	if (xl_help_requested(&usage, argc, argv))
		return XL_EXIT_OK;
	if (!ctx->target && argc > 1 && strcmp(argv[1], "--") == 0)
		return run_project(argc, argv, ctx);
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
	if (t.build) {
		char exe[PATH_MAX];
		snprintf(exe, sizeof(exe), "%s%s%s", t.binary[0] == '/' ? "" : t.dir, t.binary[0] == '/' ? "" : "/",
			 t.binary);
		rc = build_then_exec((const char *const *)t.build, t.dir, exe,
				     (const char *const *)(t.args ? t.args : (char *[]){NULL}), &t.profile,
				     t.long_running, ctx);
	} else {
		rc = run(targc, targv, ctx, &t.profile, t.long_running);
	}
	xl_target_argv_free(targv);
	xl_target_release(&t);
	return rc;
}
