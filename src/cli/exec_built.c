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
#include "cmd.h"
#include "exec_built.h"
#include "exitcode.h"
#include "msg.h"
#include "project.h"
#include "session.h"
#include "sidecar.h"
#include "symbols.h"

/* Read OUT.profile.json; returns the build's mode or -1. */
static int read_build_mode(const char *path, char *build_id, size_t len)
{
	json_error_t jerr;
	json_t *o = json_load_file(path, 0, &jerr);
	if (!json_is_object(o)) {
		if (access(path, F_OK) != 0)
			xl_error("'%s' is missing: the executable was not built with 'exaloop --profile ... build', "
				 "or its sidecar files were not kept with it",
				 path);
		else
			xl_error("'%s' is not a valid build sidecar: %s (line %d)", path, jerr.text, jerr.line);
		json_decref(o);
		return -1;
	}
	const char *mode = json_string_value(json_object_get(o, "mode"));
	const char *id = json_string_value(json_object_get(o, "build_id"));
	uint32_t parsed;
	int m = xl_mode_parse(mode, &parsed) == 0 ? (int)parsed : -1;
	if (m < 0 || !id)
		xl_error("'%s' is not a valid build sidecar: %s", path,
			 m < 0 ? "missing or unknown 'mode'" : "missing 'build_id'");
	else
		snprintf(build_id, len, "%s", id);
	json_decref(o);
	return id ? m : -1;
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
	char path[PATH_MAX], sidecar_id[XL_BUILD_ID_HEX_SIZE] = "", exe_id[XL_BUILD_ID_HEX_SIZE] = "";
	snprintf(path, sizeof(path), "%s.profile.json", exe);
	int built = read_build_mode(path, sidecar_id, sizeof(sidecar_id));
	if (built < 0)
		return XL_EXIT_USAGE;
	if (xl_build_id(exe, exe_id, sizeof(exe_id)) <= 0 || strcmp(exe_id, sidecar_id) != 0) {
		xl_error("'%s' does not belong to '%s' (build id %s, sidecar %s): rebuild with "
			 "'exaloop --profile build' and keep the sidecars with the executable",
			 path, exe, exe_id[0] ? exe_id : "none", sidecar_id);
		return XL_EXIT_USAGE;
	}
	uint32_t mode = set->mode_set ? set->mode : (uint32_t)built;
	if (built == XL_MODE_MEMORY && mode != XL_MODE_MEMORY) {
		xl_error("'%s' was built with --profile=memory: it can capture memory only, not function tracing", exe);
		xl_hint("rebuild with 'exaloop --profile build' for function tracing");
		return XL_EXIT_USAGE;
	}
	struct xl_symtab tab = {0};
	char err[512] = "";
	snprintf(path, sizeof(path), "%s.symbols.json", exe);
	int rc = xl_symbols_load_json(path, &tab, err, sizeof(err));
	if (rc != XL_OK) {
		xl_error("%s", err[0] ? err : xl_error_message(rc));
		return xl_exit_for(rc, XL_EXIT_USAGE);
	}
	if (strcmp(tab.build_id, exe_id) != 0) {
		xl_error("'%s' does not belong to '%s' (different build id): keep the sidecars of the same build", path,
			 exe);
		xl_symtab_release(&tab);
		return XL_EXIT_USAGE;
	}
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
	s.include = (const char *const *)set->include;
	s.long_running = long_running;
	char **untraced = xl_sidecar_untraced(exe);
	s.untraced_libs = (const char *const *)untraced;
	s.symtab = &tab;
	s.program = exe;
	s.command = ctx->argv;
	s.compile_ns = -1;
	s.no_open = ctx->no_open;
	rc = xl_session_run(&s);
	xl_symtab_release(&tab);
	for (size_t i = 0; untraced && untraced[i]; i++)
		free(untraced[i]);
	free(untraced);
	return rc;
}
