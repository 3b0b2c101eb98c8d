/*
 * cmd_build.c - `exaloop [--profile[=MODE]] build [build options] SOURCE... [-o OUT]`
 *                `exaloop --profile[=MODE] build -- BUILD-COMMAND [ARGS...]`
 *
 * The second form runs the project's own build with the compiler
 * wrappers (projbuild.h) and lists the executables it linked.
 *
 * Under --profile the executable gets two sidecars that `profile exec`
 * needs later: OUT.profile.json (how it was built) and OUT.symbols.json
 * (XRay function id -> name, file, line; plus the build id that ties both
 * to this very executable).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "analyze.h"
#include "args.h"
#include "build_setup.h"
#include "cmd.h"
#include "exitcode.h"
#include "msg.h"
#include "options.h"
#include "projbuild.h"
#include "project.h"
#include "sdk.h"
#include "buildinfo.h"
#include "srcbuild.h"
#include "units.h"

static int build(int argc, const char **argv, struct xl_ctx *ctx);

/* path relative to the current directory when it lies below it */
static const char *shown(const char *path, const char *cwd)
{
	size_t n = strlen(cwd);
	if (n > 1 && strncmp(path, cwd, n) == 0 && path[n] == '/')
		return path + n + 1;
	return path;
}

/* What a project's build linked: each executable with its sidecars, the
 * shared libraries (not traced), and the next step. */
static void list_built(const struct xl_projbuild *pb)
{
	char cwd[PATH_MAX], took[32];
	if (!getcwd(cwd, sizeof(cwd)))
		cwd[0] = 0;
	xl_fmt_duration(pb->build_ns, took, sizeof(took));
	if (!pb->nexes) {
		xl_warn("the build (%s) linked no executable through exaloop's compiler wrappers", took);
		xl_hint("nothing was relinked (clean first: make clean), or the build does not use $CC/$CXX (a CMake or "
			"meson tree configured before keeps its compiler: configure a new build directory under exaloop)");
		return;
	}
	xl_note("built in %s: %zu instrumented executable%s (each with .profile.json and .symbols.json)", took,
		pb->nexes, pb->nexes == 1 ? "" : "s");
	for (size_t i = 0; i < pb->nexes; i++)
		fprintf(stderr, "  %s\n", shown(pb->exes[i], cwd));
	if (pb->nshared) {
		xl_note("%zu shared librar%s (not traced: clang 14's XRay instruments executables only)", pb->nshared,
			pb->nshared == 1 ? "y" : "ies");
		for (size_t i = 0; i < pb->nshared; i++)
			fprintf(stderr, "  %s\n", shown(pb->shared[i], cwd));
	}
	const char *first = shown(pb->exes[pb->nexes - 1], cwd);
	xl_hint("profile one: exaloop profile exec %s%s [args...]", strchr(first, '/') ? "" : "./", first);
}

static int project_build(const char *const *cmd, const char *dir, const struct xl_ctx *ctx)
{
	if (!ctx->profile) {
		xl_error("'build -- %s' builds a project for profiling: exaloop --profile build -- %s ...", cmd[0],
			 cmd[0]);
		return XL_EXIT_USAGE;
	}
	struct xl_projbuild pb;
	int rc = xl_projbuild_run(cmd, ctx->mode, dir, 0, &pb, &xl_stderr_msgs);
	if (rc == XL_OK)
		list_built(&pb);
	xl_projbuild_release(&pb);
	return xl_exit_for_build(rc, pb.signal);
}

int cmd_build(int argc, const char **argv, struct xl_ctx *ctx)
{
	static const struct xl_usage usage = {
		"build",
		"[build options] INPUT... [-o OUT]\n"
		"   or: exaloop --profile build -- BUILD-COMMAND [args...]",
		"Build a program with clang; under --profile, instrumented and with its sidecars\n"
		"(OUT.profile.json, OUT.symbols.json) for 'exaloop profile exec'. The second form\n"
		"runs a project's own build with exaloop's compiler wrappers as CC and CXX and lists\n"
		"the executables it linked.",
		NULL,
		NULL,
		xl_build_options_help};
	if (xl_help_requested(&usage, argc, argv))
		return XL_EXIT_OK;
	if (!ctx->target && argc > 1 && strcmp(argv[1], "--") == 0) {
		if (argc < 3) {
			xl_error("no build command after '--': exaloop --profile build -- make -j2");
			return XL_EXIT_USAGE;
		}
		return project_build(argv + 2, NULL, ctx);
	}
	if (!ctx->target)
		return build(argc, argv, ctx);
	struct xl_target t;
	const char **targv = NULL;
	int targc = 0;
	int rc = xl_target_argv(ctx, argv[0], argc, 0, &t, &targv, &targc);
	if (rc != 0)
		return rc;
	ctx->mode = t.profile.mode; /* xl_target_argv applied an explicit --profile */
	if (t.build)
		rc = project_build((const char *const *)t.build, t.dir, ctx);
	else
		rc = build(targc, targv, ctx);
	xl_target_argv_free(targv);
	xl_target_release(&t);
	return rc;
}

/* -o naming one of the inputs (the same file, by device and inode) would
 * replace a source with the program: refused before anything is built, as
 * gcc does ("input file is the same as output file"). */
static int output_is_input(const struct xl_build_args *a)
{
	struct stat o, in;
	if (!a->output || stat(a->output, &o) != 0)
		return 0;
	for (size_t i = 0; i < a->nsources; i++)
		if (stat(a->sources[i], &in) == 0 && in.st_dev == o.st_dev && in.st_ino == o.st_ino) {
			xl_error("-o '%s' is the input '%s': building would overwrite it (choose another -o)",
				 a->output, a->sources[i]);
			return 1;
		}
	return 0;
}

static int build(int argc, const char **argv, struct xl_ctx *ctx)
{
	struct xl_build_args a;
	struct xl_sdk sdk;
	int rc = xl_build_prepare(ctx, argc, argv, 1, &a, &sdk);
	if (rc != 0)
		return rc;
	if (output_is_input(&a)) {
		xl_build_args_release(&a);
		return XL_EXIT_USAGE;
	}
	struct xl_build b;
	xl_build_init(&b, &a, ctx->profile, ctx->mode, sdk.runtime, a.output, NULL, &xl_stderr_msgs);
	rc = xl_build_run(&b);
	if (rc != XL_OK) {
		xl_build_args_release(&a);
		return xl_exit_for_build(rc, b.signal);
	}
	char took[32], what[64] = "";
	const char *out = b.output;
	xl_fmt_duration(b.compile_ns, took, sizeof(took));
	if (b.nsources > 1)
		snprintf(what, sizeof(what), " from %zu sources (%zu reused from the cache)", b.nsources, b.nreused);
	if (ctx->profile) {
		struct xl_sidecar sc = {0};
		sc.mode = ctx->mode;
		sc.release = a.release;
		sc.built_by = "exaloop build";
		sc.compiler = b.compiler;
		sc.compiler_version = b.compiler_version;
		sc.sdk_dir = sdk.dir;
		sc.sources = a.sources;
		sc.flags = a.flags;
		sc.command = b.command;
		sc.build_ns = b.compile_ns;
		sc.xray_threshold = b.xray_threshold;
		char err[1024];
		rc = xl_sidecars_write(out, &sc, err, sizeof(err));
		if (rc != XL_OK)
			xl_error("%s", err);
		rc = xl_exit_for_build(rc, 0);
		if (rc == 0)
			xl_note("built '%s'%s in %s (%s build, profiling: %s); keep %s.profile.json and %s.symbols.json "
				"with it",
				out, what, took, a.release ? "release" : "debug", xl_mode_name(ctx->mode), out, out);
	} else {
		xl_note("built '%s'%s in %s (%s build)", out, what, took, a.release ? "release" : "debug");
	}
	xl_build_args_release(&a);
	return rc;
}
