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
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "analyze.h"
#include "ctx.h"
#include "exec_built.h"
#include "exitcode.h"
#include "fileio.h"
#include "msg.h"
#include "project.h"
#include "session.h"
#include "buildinfo.h"
#include "symbols.h"
#include "exaloop/xl_capture.h"

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

/* exe's sidecars, checked (present, valid, same build id, a mode that
 * can do what set asks), and its symbols: 0, or the exit code after one
 * error line (nothing to release then). */
static int load_built(const char *exe, const struct xl_settings *set, struct xl_sidecar_info *built,
		      struct xl_symtab *tab)
{
	char why[1024];
	int rc = xl_sidecar_read(exe, built, why, sizeof(why));
	if (rc != XL_OK) {
		xl_error("%s", why);
		return xl_exit_for(rc, XL_EXIT_USAGE);
	}
	rc = refuse(exe, built, set);
	if (rc != 0) {
		xl_sidecar_info_release(built);
		return rc;
	}
	char path[PATH_MAX], err[512] = "";
	snprintf(path, sizeof(path), "%s.symbols.json", exe);
	rc = xl_symbols_load_json(path, tab, err, sizeof(err));
	if (rc != XL_OK) {
		xl_error("%s", err[0] ? err : xl_error_message(rc));
		xl_sidecar_info_release(built);
		return xl_exit_for(rc, XL_EXIT_USAGE);
	}
	if (strcmp(tab->build_id, built->build_id) != 0) {
		xl_error("'%s' does not belong to '%s' (different build id): keep the sidecars of the same build", path,
			 exe);
		xl_symtab_release(tab);
		xl_sidecar_info_release(built);
		return XL_EXIT_USAGE;
	}
	return 0;
}

/* The capture of a built executable: its session as the build and the
 * settings say (exe's sidecars loaded into built and tab). */
static void built_session(struct xl_session *s, const char *exe, const struct xl_sidecar_info *built,
			  const struct xl_symtab *tab, const struct xl_settings *set, const struct xl_ctx *ctx)
{
	s->capture = 1;
	s->mode = set->mode_set ? set->mode : built->mode;
	xl_settings_for_session(set, ctx, s);
	s->untraced_libs = (const char *const *)built->untraced_libs;
	s->symtab = tab;
	s->program = exe;
	s->command = ctx->argv;
	s->compile_ns = -1;
	s->no_open = ctx->no_open;
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
	/* As a shell: found but not runnable is 126, said before its sidecars
	 * are looked for (the problem is not theirs). */
	struct stat st;
	if (access(exe, X_OK) != 0 || (stat(exe, &st) == 0 && S_ISDIR(st.st_mode))) {
		xl_error("cannot run '%s': %s", exe, access(exe, X_OK) != 0 ? strerror(errno) : "it is a directory");
		return XL_EXIT_NOEXEC;
	}
	struct xl_sidecar_info built;
	struct xl_symtab tab = {0};
	int rc = load_built(exe, set, &built, &tab);
	if (rc == 0 && xl_settings_check(set, ctx, set->mode_set ? set->mode : built.mode) != 0) {
		xl_symtab_release(&tab);
		xl_sidecar_info_release(&built);
		rc = XL_EXIT_USAGE;
	}
	if (rc != 0)
		return rc;
	char run_exe[PATH_MAX];
	snprintf(run_exe, sizeof(run_exe), "%s%s", strchr(exe, '/') ? "" : "./", exe);
	struct xl_session s = {0};
	built_session(&s, exe, &built, &tab, set, ctx);
	s.exe = run_exe;
	s.args = args;
	s.long_running = long_running || (ctx->duration_set && ctx->duration_ns);
	rc = xl_session_run(&s);
	xl_symtab_release(&tab);
	xl_sidecar_info_release(&built);
	return rc;
}

/* Where process pid maps exe: the load base (the mapping at file offset
 * 0) and the executable text.  0, or -1 when /proc does not say. */
static int exe_mapping(pid_t pid, const char *exe, uint64_t *base, uint64_t *lo, uint64_t *hi)
{
	char path[64], line[PATH_MAX + 128];
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int have_base = 0, have_text = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a, b, off;
		char perms[8];
		int name_at = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &a, &b, perms, &off, &name_at) < 4 || !name_at)
			continue;
		char *name = line + name_at;
		name[strcspn(name, "\n")] = 0;
		if (strcmp(name, exe) != 0)
			continue;
		if (off == 0 && !have_base) {
			*base = a;
			have_base = 1;
		}
		if (perms[2] == 'x' && !have_text) {
			*lo = a;
			*hi = b;
			have_text = 1;
		}
	}
	fclose(f);
	return have_base && have_text ? 0 : -1;
}

/* How long process pid has run, from its start time in /proc and the
 * boot clock; -1 when unknown. */
static int64_t process_age_ns(pid_t pid)
{
	char state;
	unsigned long long start = 0;
	if (xl_proc_stat(pid, &state, &start) != 0)
		return -1;
	struct timespec ts;
	long hz = sysconf(_SC_CLK_TCK);
	if (hz <= 0 || clock_gettime(CLOCK_BOOTTIME, &ts) != 0)
		return -1;
	int64_t now = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	int64_t began = (int64_t)(start * (1000000000ull / (unsigned long long)hz));
	return now > began ? now - began : -1;
}

/* The process that traces pid (TracerPid in /proc/PID/status), 0 none. */
static long tracer_of(pid_t pid)
{
	char path[64], line[256];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	long tracer = 0;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "TracerPid: %ld", &tracer) == 1)
			break;
	if (f)
		fclose(f);
	return tracer;
}

/* Why process pid cannot be attached to before ptrace is tried (its
 * program unknown, replaced, stopped, traced): said, and the exit code;
 * else 0 and its executable in exe. */
static int attachable(pid_t pid, char *exe, size_t len)
{
	char link[64], state = 0;
	unsigned long long start;
	snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
	ssize_t n = readlink(link, exe, len - 1);
	int have_stat = xl_proc_stat(pid, &state, &start) == 0;
	if (n < 0 && (errno == ENOENT || errno == ESRCH)) {
		if (have_stat && state == 'Z')
			xl_error("process %d's main thread has exited (its other threads may run on): exaloop attaches "
				 "through the main thread",
				 (int)pid);
		else if (have_stat)
			xl_error("process %d is a kernel thread: nothing to attach to", (int)pid);
		else
			xl_error("no process %d", (int)pid);
		return have_stat ? XL_EXIT_USAGE : XL_EXIT_NOTFOUND;
	}
	if (n < 0) {
		xl_error("cannot see which program process %d runs: %s", (int)pid, strerror(errno));
		if (errno == EACCES)
			xl_hint("attach as the process's owner, or as root");
		return XL_EXIT_FAIL;
	}
	exe[n] = 0;
	static const char deleted[] = " (deleted)";
	size_t dl = sizeof(deleted) - 1;
	if ((size_t)n > dl && strcmp(exe + n - dl, deleted) == 0) {
		exe[n - dl] = 0;
		xl_error("the executable of process %d was replaced or deleted after it started ('%s'): its sidecars "
			 "would be another build's; start the program again, then attach",
			 (int)pid, exe);
		return XL_EXIT_USAGE;
	}
	long tracer = tracer_of(pid);
	if (tracer > 0) {
		xl_error("process %d is already traced by process %ld (a debugger, strace): detach that first",
			 (int)pid, tracer);
		return XL_EXIT_USAGE;
	}
	if (have_stat && state == 'T') {
		xl_error("process %d is stopped (SIGSTOP, or a job-control stop): continue it first (kill -CONT %d), "
			 "then attach",
			 (int)pid, (int)pid);
		return XL_EXIT_USAGE;
	}
	return 0;
}

int xl_attach_built(pid_t pid, const struct xl_settings *set, const struct xl_ctx *ctx)
{
	char exe[PATH_MAX];
	int bad = attachable(pid, exe, sizeof(exe));
	if (bad)
		return bad;
	uint64_t entry = 0, base = 0, lo = 0, hi = 0;
	int pie = 0;
	if (xl_elf_function(exe, XL_ATTACH_SYMBOL, &entry, &pie) != XL_OK) {
		xl_error("process %d runs '%s', which has no exaloop profiling runtime: only programs built with "
			 "'exaloop --profile build' can be attached to",
			 (int)pid, exe);
		return XL_EXIT_USAGE;
	}
	if (exe_mapping(pid, exe, &base, &lo, &hi) != 0) {
		xl_error("cannot find where process %d maps '%s' (/proc/%d/maps)", (int)pid, exe, (int)pid);
		return XL_EXIT_FAIL;
	}
	struct xl_sidecar_info built;
	struct xl_symtab tab = {0};
	int rc = load_built(exe, set, &built, &tab);
	if (rc == 0 && xl_settings_check(set, ctx, set->mode_set ? set->mode : built.mode) != 0) {
		xl_symtab_release(&tab);
		xl_sidecar_info_release(&built);
		rc = XL_EXIT_USAGE;
	}
	if (rc != 0)
		return rc;
	struct xl_session s = {0};
	built_session(&s, exe, &built, &tab, set, ctx);
	s.exe = exe;
	s.long_running = 1;
	s.attached_at_ns = process_age_ns(pid);
	rc = xl_session_attach(&s, pid, pie ? base + entry : entry, lo, hi);
	xl_symtab_release(&tab);
	xl_sidecar_info_release(&built);
	return rc;
}
