/*
 * cmd_build.c - `exaloop [--profile[=MODE]] build [build options] SOURCE... [-o OUT]`
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
#include <time.h>

#include <jansson.h>

#include "analyze.h"
#include "args.h"
#include "build_setup.h"
#include "cmd.h"
#include "exitcode.h"
#include "msg.h"
#include "options.h"
#include "project.h"
#include "sdk.h"
#include "symbols.h"
#include "toolchain.h"
#include "units.h"

static int write_profile_json(const char *path, const struct xl_ctx *ctx, const struct xl_build *b,
			      const struct xl_build_args *a, const struct xl_sdk *sdk, const char *build_id)
{
	json_t *o = json_object();
	json_object_set_new(o, "schema", json_string("exaloop.build/1"));
	json_object_set_new(o, "mode", json_string(xl_mode_name(ctx->mode)));
	json_object_set_new(o, "build_id", json_string(build_id));
	json_object_set_new(o, "release", json_boolean(a->release));
	json_object_set_new(o, "compiler", json_string(b->compiler));
	json_object_set_new(o, "compiler_version", json_string(b->compiler_version));
	json_object_set_new(o, "sdk", json_string(sdk->dir));
	json_object_set_new(o, "sdk_version", json_string(XL_VERSION));
	json_t *srcs = json_array(), *flags = json_array();
	for (size_t i = 0; i < a->nsources; i++) {
		char abs[PATH_MAX];
		json_array_append_new(srcs, json_string(realpath(a->sources[i], abs) ? abs : a->sources[i]));
	}
	for (size_t i = 0; i < a->nflags; i++)
		json_array_append_new(flags, json_string(a->flags[i]));
	json_object_set_new(o, "sources", srcs);
	json_object_set_new(o, "flags", flags);
	json_object_set_new(o, "command", json_string(b->command));
	json_object_set_new(o, "build_time_ns", json_integer(b->compile_ns));
	json_object_set_new(o, "xray_instruction_threshold", json_integer(b->xray_threshold));
	time_t t = time(NULL);
	struct tm tm;
	char when[32];
	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_set_new(o, "built_at", json_string(when));
	int rc = json_dump_file(o, path, JSON_INDENT(2));
	json_decref(o);
	if (rc != 0)
		xl_error("cannot write '%s': %m", path);
	return rc;
}

static int build(int argc, const char **argv, struct xl_ctx *ctx);

int cmd_build(int argc, const char **argv, struct xl_ctx *ctx)
{
	static const struct xl_usage usage = {
		"build", "[build options] SOURCE... [-o OUT]",
		"Build a program with clang; under --profile, instrumented and with its sidecars\n"
		"(OUT.profile.json, OUT.symbols.json) for 'exaloop profile exec'.", NULL, NULL,
		xl_build_options_help};
	if (xl_help_requested(&usage, argc, argv))
		return XL_EXIT_OK;
	if (!ctx->target)
		return build(argc, argv, ctx);
	struct xl_target t;
	const char **targv = NULL;
	int targc = 0;
	int rc = xl_target_argv(ctx, argv[0], argc, 0, &t, &targv, &targc);
	if (rc != 0)
		return rc;
	if (!ctx->mode_explicit)
		ctx->mode = t.profile.mode;
	rc = build(targc, targv, ctx);
	xl_target_argv_free(targv);
	xl_target_release(&t);
	return rc;
}

static int build(int argc, const char **argv, struct xl_ctx *ctx)
{
	struct xl_build_args a;
	struct xl_sdk sdk;
	char err[512];
	int rc = xl_build_prepare(ctx, argc, argv, 1, &a, &sdk);
	if (rc != 0)
		return rc;
	char out[PATH_MAX];
	if (a.output)
		snprintf(out, sizeof(out), "%s", a.output);
	else
		xl_default_output(a.sources[0], out, sizeof(out));
	struct xl_build b;
	xl_build_init(&b, &a, ctx->profile, ctx->mode, sdk.runtime, out);
	rc = xl_build_run(&b);
	if (rc != 0) {
		xl_build_args_release(&a);
		return rc;
	}
	char took[32];
	xl_fmt_duration(b.compile_ns, took, sizeof(took));
	if (ctx->profile) {
		struct xl_symtab tab = {0};
		char path[PATH_MAX + 32];
		if (xl_symbols_read(out, &tab, err, sizeof(err)) != 0) {
			xl_error("cannot read the symbols of '%s': %s", out, err);
			rc = XL_EXIT_BUILD;
		} else {
			snprintf(path, sizeof(path), "%s.symbols.json", out);
			if (xl_symbols_write_json(&tab, path, err, sizeof(err)) != 0) {
				xl_error("%s", err);
				rc = XL_EXIT_FAIL;
			}
			snprintf(path, sizeof(path), "%s.profile.json", out);
			if (rc == 0 && write_profile_json(path, ctx, &b, &a, &sdk, tab.build_id) != 0)
				rc = XL_EXIT_FAIL;
		}
		xl_symtab_release(&tab);
		if (rc == 0)
			xl_note("built '%s' in %s (%s build, profiling: %s); keep %s.profile.json and %s.symbols.json with it",
				out, took, a.release ? "release" : "debug", xl_mode_name(ctx->mode), out, out);
	} else {
		xl_note("built '%s' in %s (%s build)", out, took, a.release ? "release" : "debug");
	}
	xl_build_args_release(&a);
	return rc;
}
