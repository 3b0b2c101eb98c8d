/*
 * exec_built.c - capture from an executable and its sidecars (see
 * exec_built.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "analyze.h"
#include "ctx.h"
#include "exec_built.h"
#include "exitcode.h"
#include "msg.h"
#include "project.h"
#include "session.h"
#include "buildinfo.h"
#include "symbols.h"

/* The sidecar is this executable's, and its mode allows the capture asked
 * for: 0, or the exit code after one error line. */
static int refuse(const char *exe, const struct xl_sidecar_info *built, const struct xl_settings *set)
{
	char exe_id[XL_BUILD_ID_HEX_SIZE] = "";
	if (xl_build_id(exe, exe_id, sizeof(exe_id)) <= 0 || strcmp(exe_id, built->build_id) != 0) {
		xl_error("'%s.profile.json' does not belong to '%s' (build id %s, sidecar %s): rebuild with "
			 "'exaloop --profile build' and keep the sidecars with the executable",
			 exe, exe, exe_id[0] ? exe_id : "none", built->build_id);
		return XL_EXIT_USAGE;
	}
	if (built->mode == XL_MODE_MEMORY && set->mode_set && set->mode != XL_MODE_MEMORY) {
		xl_error("'%s' was built with --profile=memory: it can capture memory only, not function tracing", exe);
		xl_hint("rebuild with 'exaloop --profile build' for function tracing");
		return XL_EXIT_USAGE;
	}
	return 0;
}

int xl_exec_built(const char *exe, const char *const *args, const struct xl_settings *set, int long_running,
		  const struct xl_ctx *ctx)
{
	struct xl_settings dflt;
	if (!set) {
		xl_settings_defaults(&dflt);
		set = &dflt;
	}
	if (access(exe, F_OK) != 0) {
		xl_error("cannot run '%s': %s", exe, strerror(errno));
		return XL_EXIT_NOTFOUND;
	}
	struct xl_sidecar_info built;
	char why[1024];
	if (xl_sidecar_read(exe, &built, why, sizeof(why)) != XL_OK) {
		xl_error("%s", why);
		return XL_EXIT_USAGE;
	}
	int rc = refuse(exe, &built, set);
	if (rc != 0) {
		xl_sidecar_info_release(&built);
		return rc;
	}
	struct xl_symtab tab = {0};
	char path[PATH_MAX], err[512] = "";
	snprintf(path, sizeof(path), "%s.symbols.json", exe);
	rc = xl_symbols_load_json(path, &tab, err, sizeof(err));
	if (rc != XL_OK) {
		xl_error("%s", err[0] ? err : xl_error_message(rc));
		xl_sidecar_info_release(&built);
		return xl_exit_for(rc, XL_EXIT_USAGE);
	}
	if (strcmp(tab.build_id, built.build_id) != 0) {
		xl_error("'%s' does not belong to '%s' (different build id): keep the sidecars of the same build", path,
			 exe);
		xl_symtab_release(&tab);
		xl_sidecar_info_release(&built);
		return XL_EXIT_USAGE;
	}
	uint32_t mode = set->mode_set ? set->mode : built.mode;
	char run_exe[PATH_MAX];
	snprintf(run_exe, sizeof(run_exe), "%s%s", strchr(exe, '/') ? "" : "./", exe);
	struct xl_session s = {0};
	s.exe = run_exe;
	s.args = args;
	s.capture = 1;
	s.mode = mode;
	s.buffer_size = set->buffer_size;
	s.interval_ns = set->memory_interval_ns;
	s.delay_ns = set->delay_ns;
	s.duration_ns = set->duration_ns;
	xl_settings_timeline(set, ctx, &s.tl_mode, &s.tl_min_ns);
	s.include = (const char *const *)set->include;
	s.long_running = long_running;
	s.untraced_libs = (const char *const *)built.untraced_libs;
	s.symtab = &tab;
	s.program = exe;
	s.command = ctx->argv;
	s.compile_ns = -1;
	s.no_open = ctx->no_open;
	rc = xl_session_run(&s);
	xl_symtab_release(&tab);
	xl_sidecar_info_release(&built);
	return rc;
}
