/*
 * cmd_run.c - `exaloop [--profile[=MODE]] run [build options] SOURCE... [args...]`
 *
 * Builds the program into a private temporary directory, runs it with its
 * arguments (capturing under --profile), and exits with its status.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "args.h"
#include "cmd.h"
#include "exitcode.h"
#include "msg.h"
#include "sdk.h"
#include "session.h"
#include "symbols.h"
#include "toolchain.h"
#include "units.h"

static enum xl_build_mode build_mode(const struct xl_ctx *ctx)
{
	if (!ctx->profile)
		return XL_BUILD_PLAIN;
	return ctx->mode == XL_MODE_MEMORY ? XL_BUILD_MEMORY : ctx->mode == XL_MODE_XRAY ? XL_BUILD_XRAY : XL_BUILD_ALL;
}

static const char *mode_label(const struct xl_ctx *ctx)
{
	return !ctx->profile ? "no profiling" : xl_mode_name(ctx->mode);
}

int cmd_run(int argc, const char **argv, struct xl_ctx *ctx)
{
	if (ctx->target) {
		xl_error("'--target %s': project targets from exaloop.toml are not supported by this build yet",
			 ctx->target);
		return XL_EXIT_USAGE;
	}
	struct xl_build_args a;
	char err[512];
	if (xl_split_build_args(argc, argv, 0, &a, err, sizeof(err)) != 0) {
		xl_error("%s", err);
		xl_build_args_release(&a);
		return XL_EXIT_USAGE;
	}
	if (ctx->profile && a.shared) {
		xl_error("'-shared' cannot be profiled: profiling applies to standalone applications");
		xl_build_args_release(&a);
		return XL_EXIT_USAGE;
	}
	struct xl_sdk sdk;
	if (ctx->profile && xl_sdk_find(&sdk, err, sizeof(err)) != 0) {
		xl_error("%s", err);
		xl_build_args_release(&a);
		return XL_EXIT_BUILD;
	}

	char tmpdir[] = "/tmp/exaloop-run-XXXXXX";
	if (!mkdtemp(tmpdir)) {
		xl_error("cannot create a temporary build directory: %m");
		xl_build_args_release(&a);
		return XL_EXIT_BUILD;
	}
	const char *base = strrchr(a.sources[0], '/');
	base = base ? base + 1 : a.sources[0];
	char exe[PATH_MAX];
	snprintf(exe, sizeof(exe), "%s/%.*s", tmpdir, (int)strcspn(base, "."), base);

	struct xl_build b = {0};
	b.args = &a;
	b.mode = build_mode(ctx);
	b.runtime = ctx->profile ? sdk.runtime : NULL;
	b.output = exe;
	b.xray_threshold = 1;
	int rc = xl_build_run(&b);
	if (rc == 0) {
		char took[32];
		xl_fmt_duration(b.compile_ns, took, sizeof(took));
		xl_note("compiled %s in %s (%s build, %s)", a.sources[0], took, a.release ? "release" : "debug",
			mode_label(ctx));
		struct xl_symtab tab = {0};
		if (ctx->profile && xl_symbols_read(exe, &tab, err, sizeof(err)) != 0) {
			xl_warn("cannot read function symbols of the build: %s", err);
		}
		struct xl_session s = {0};
		s.exe = exe;
		s.args = a.prog_args;
		s.capture = ctx->profile;
		s.mode = ctx->mode;
		s.buffer_size = 64u << 20;
		s.interval_ns = 100000000u;
		s.symtab = ctx->profile ? &tab : NULL;
		s.program = a.sources[0];
		s.command = ctx->argv;
		s.compile_ns = b.compile_ns;
		s.no_open = ctx->no_open;
		rc = xl_session_run(&s);
		xl_symtab_release(&tab);
	}
	unlink(exe);
	rmdir(tmpdir);
	xl_build_args_release(&a);
	return rc;
}
