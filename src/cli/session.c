/*
 * session.c - run the program, collect the capture, write the report.
 *
 * Order of work, chosen so that nothing already captured can be lost:
 * the capture directory and its symbols exist before the program starts;
 * the runtime writes capture.xlc in place while the program runs; after
 * the program ends (however it ends) run.json is written, the capture file
 * is trimmed to what was used, and only then is the report rendered.  A
 * failure to render leaves the capture intact for `exaloop profile report`.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "analyze.h"
#include "captures.h"
#include "emulate.h"
#include "emit.h"
#include "fileio.h"
#include "exitcode.h"
#include "foreign_exec.h"
#include "msg.h"
#include "process.h"
#include "report_out.h"
#include "samples_out.h"
#include "session.h"
#include "inject.h"
#include "strbuf.h"
#include "strvec.h"
#include "units.h"
#include "xl_array.h"

/* profiles/capture-YYYYMMDD-HHMMSS[-N] */
static int make_capture_dir(const char *profiles, char *dir, size_t len)
{
	if (mkdir(profiles, 0755) != 0 && errno != EEXIST) {
		xl_error("cannot create '%s': %s", profiles, strerror(errno));
		return -1;
	}
	time_t t = time(NULL);
	struct tm tm;
	localtime_r(&t, &tm);
	char stamp[32];
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	for (int n = 1; n < 1000; n++) {
		if (n == 1)
			snprintf(dir, len, "%s/capture-%s", profiles, stamp);
		else
			snprintf(dir, len, "%s/capture-%s-%d", profiles, stamp, n);
		if (mkdir(dir, 0755) == 0)
			return 0;
		if (errno != EEXIST) {
			xl_error("cannot create capture directory '%s': %s", dir, strerror(errno));
			return -1;
		}
	}
	xl_error("cannot create a capture directory in '%s': too many captures this second", profiles);
	return -1;
}

/* Resolve include globs to XRay ids ("3,7,12"); -1 when nothing matches. */
static int include_ids(const struct xl_session *s, struct strbuf *ids)
{
	size_t matched = 0;
	for (size_t i = 0; s->symtab && i < s->symtab->count; i++) {
		const struct xl_symbol *sym = &s->symtab->syms[i];
		int hit = 0;
		for (size_t k = 0; s->include[k] && !hit; k++)
			hit = fnmatch(s->include[k], sym->name, 0) == 0 ||
			      (sym->linkage_name && fnmatch(s->include[k], sym->linkage_name, 0) == 0);
		if (hit) {
			strbuf_addf(ids, "%s%d", matched ? "," : "", sym->id);
			matched++;
		}
	}
	return matched ? 0 : -1;
}

static void set_env_u64(const char *name, uint64_t v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	setenv(name, buf, 1);
}

static const char *const capture_env[] = {XL_ENV_DIR,      XL_ENV_PID,          XL_ENV_MODE,        XL_ENV_BUFFER,
					  XL_ENV_INTERVAL, XL_ENV_DELAY,        XL_ENV_DURATION,    XL_ENV_INCLUDE,
					  XL_ENV_TIMELINE, XL_ENV_TIMELINE_MIN, XL_ENV_SAMPLE_RATE, XL_ENV_TIMING};

struct child_env {
	const struct xl_session *s;
	const char *dir; /* capture directory, NULL without capture */
	const char *ids; /* include ids, or NULL */
};

/* In the child, before exec: the capture environment names the child's
 * own pid, so programs it starts in turn stay uncaptured; without capture
 * (or without include patterns) any inherited capture variables are
 * removed. */
static void set_child_env(void *arg)
{
	const struct child_env *c = arg;
	for (size_t i = 0; i < XL_ARRAY_SIZE(capture_env); i++)
		unsetenv(capture_env[i]);
	if (!c->dir)
		return;
	setenv(XL_ENV_DIR, c->dir, 1);
	set_env_u64(XL_ENV_PID, (uint64_t)getpid());
	setenv(XL_ENV_MODE, xl_mode_name(c->s->mode), 1);
	set_env_u64(XL_ENV_BUFFER, c->s->buffer_size);
	set_env_u64(XL_ENV_INTERVAL, c->s->interval_ns);
	set_env_u64(XL_ENV_DELAY, c->s->delay_ns);
	set_env_u64(XL_ENV_DURATION, c->s->duration_ns);
	if (c->s->tl_mode)
		setenv(XL_ENV_TIMELINE, xl_tl_mode_name(c->s->tl_mode), 1);
	set_env_u64(XL_ENV_TIMELINE_MIN, c->s->tl_min_ns);
	set_env_u64(XL_ENV_SAMPLE_RATE, c->s->sample_rate);
	if (c->s->timing == XL_TIMING_SAMPLED)
		setenv(XL_ENV_TIMING, "sampled", 1);
	if (c->ids)
		setenv(XL_ENV_INCLUDE, c->ids, 1);
}

static int trim_one(const char *dir);

/* Trim capture.xlc to the bytes the runtime used (it was sized for the
 * whole buffer up front), and the captures of exec'd images and forked
 * children in its subdirectories (exec-<n>/, child-<pid>/).  Returns 1
 * when the top capture exists. */
static int trim_capture(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		char sub[PATH_MAX];
		if ((strncmp(e->d_name, "exec-", 5) == 0 || strncmp(e->d_name, "child-", 6) == 0) &&
		    (size_t)snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name) < sizeof(sub))
			trim_one(sub);
	}
	if (d)
		closedir(d);
	return trim_one(dir);
}

static int trim_one(const char *dir)
{
	char path[PATH_MAX + 16];
	snprintf(path, sizeof(path), "%s/%s", dir, XL_CAP_FILE);
	int fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return 0;
	struct xl_cap_header h;
	if (pread(fd, &h, sizeof(h), 0) == (ssize_t)sizeof(h) && memcmp(h.magic, XL_CAP_MAGIC, 8) == 0 &&
	    h.arena_cursor >= h.arena_off && h.arena_cursor <= h.file_size)
		if (ftruncate(fd, (off_t)h.arena_cursor) != 0)
			xl_warn("cannot trim '%s': %s", path, strerror(errno));
	close(fd);
	return 1;
}

/* The runtime's messages (it never writes to the program's stderr), one
 * warning each.  Returns how many there were. */
static int print_runtime_notes(const char *dir)
{
	char path[PATH_MAX + 32];
	snprintf(path, sizeof(path), "%s/%s", dir, XL_CAP_NOTE_FILE);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0)
		return 0;
	struct stat st;
	char buf[4096];
	ssize_t n = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, buf, sizeof(buf) - 1) : -1;
	close(fd);
	int count = 0;
	if (n <= 0)
		return 0;
	buf[n] = 0;
	for (char *line = buf, *end; *line; line = end) {
		end = line + strcspn(line, "\n");
		if (*end)
			*end++ = 0;
		if (*line) {
			xl_warn("%s", line);
			count++;
		}
	}
	return count;
}

/* Remove a capture directory that never received a capture. */
static void remove_capture_dir(const char *dir)
{
	char path[PATH_MAX + 16];
	static const char *const files[] = {"symbols.json", "run.json", XL_CAP_NOTE_FILE, XL_SAMPLES_FILE};
	for (size_t i = 0; i < XL_ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}

/* A JSON string of any bytes: invalid UTF-8 becomes U+FFFD.  (Fault test
 * t9008: json_string() refuses invalid UTF-8, and an argument with such a
 * byte silently disappeared from run.json, shifting the others.) */
static json_t *text_json(const char *s)
{
	json_t *j = json_string(s ? s : "");
	if (j)
		return j;
	struct strbuf b;
	strbuf_init(&b);
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t n = *p < 0x80             ? 1
			   : (*p & 0xe0) == 0xc0 ? 2
			   : (*p & 0xf0) == 0xe0 ? 3
			   : (*p & 0xf8) == 0xf0 ? 4
						 : 0;
		size_t k = 1;
		while (n && k < n && (p[k] & 0xc0) == 0x80)
			k++;
		json_t *one = n && k == n ? json_stringn((const char *)p, n) : NULL;
		if (one) {
			strbuf_addf(&b, "%.*s", (int)n, (const char *)p);
			json_decref(one);
			p += n;
		} else {
			strbuf_addf(&b, "\xef\xbf\xbd"); /* U+FFFD for one bad byte */
			p++;
		}
	}
	j = json_string(b.buf ? b.buf : "");
	strbuf_release(&b);
	return j;
}

static json_t *strv_json(const char *const *v)
{
	json_t *a = json_array();
	for (size_t i = 0; v && v[i]; i++)
		json_array_append_new(a, text_json(v[i]));
	return a;
}

/* finished == 0: the program is still running (long-running targets). */
static void write_run_json(const struct xl_session *s, const char *dir, int finished, int status, int64_t app_ns,
			   const char *started_at, long maxrss_kb)
{
	json_t *o = json_object();
	json_object_set_new(o, "schema", json_string("exaloop.run/1"));
	json_object_set_new(o, "program", text_json(s->program));
	char abs[PATH_MAX];
	json_object_set_new(o, "executable", text_json(realpath(s->exe, abs) ? abs : s->exe));
	json_object_set_new(o, "command", strv_json(s->command));
	json_object_set_new(o, "args", strv_json(s->args));
	if (!finished) {
		json_object_set_new(o, "exit_status", json_null());
		json_object_set_new(o, "signal", json_null());
		json_object_set_new(o, "running", json_true());
	} else if (WIFEXITED(status)) {
		json_object_set_new(o, "exit_status", json_integer(WEXITSTATUS(status)));
		json_object_set_new(o, "signal", json_null());
	} else {
		json_object_set_new(o, "exit_status", json_null());
		json_object_set_new(o, "signal", json_integer(WTERMSIG(status)));
	}
	json_object_set_new(o, "compile_time_ns", s->compile_ns >= 0 ? json_integer(s->compile_ns) : json_null());
	json_object_set_new(o, "app_time_ns", json_integer(app_ns));
	json_object_set_new(o, "started_at", json_string(started_at));
	json_object_set_new(o, "include", strv_json(s->include));
	json_object_set_new(o, "untraced_libraries", strv_json(s->untraced_libs));
	json_object_set_new(o, "peak_rss_rusage", json_integer((json_int_t)maxrss_kb * 1024));
	if (s->attached_at_ns > 0)
		json_object_set_new(o, "attached_at_ns", json_integer(s->attached_at_ns));
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/run.json", dir);
	if (json_dump_file(o, path, JSON_INDENT(2)) != 0)
		xl_warn("cannot write '%s': %s", path, strerror(errno));
	json_decref(o);
}

/* What render() prints besides errors. */
enum render_notes {
	NOTES_ALL,      /* the capture's warnings, where the report is, the privacy note */
	NOTES_UPDATED,  /* the report is being rewritten (long-running program ended after its
			   window): one line instead of repeating the warnings */
	NOTES_WARNINGS, /* only the warnings: the caller sums up (xl_session.quiet) */
};

/* Render the report of a capture directory and print where it is. */
static int render(const char *dir, int no_open, enum render_notes notes)
{
	struct xl_model *m;
	char err[512];
	int rc = xl_model_load(dir, &m, err, sizeof(err));
	if (rc != XL_OK) {
		xl_error("%s", err);
		return -1;
	}
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/index.html", dir);
	struct xl_emit_opts o;
	xl_emit_opts_init(&o);
	rc = xl_write_output(m, "html", &o, path, 0);
	if (rc == 0 && notes == NOTES_UPDATED) {
		xl_note("report updated with the program's exit status: %s", path);
	} else if (rc == 0) {
		for (size_t i = 0; i < m->nwarnings; i++)
			if (strcmp(m->warnings[i].kind, "overhead") != 0)
				xl_warn("%s", m->warnings[i].message);
		if (notes == NOTES_ALL) {
			xl_note("report: %s", path);
			xl_note("reports contain source paths%s and function names; review them before sharing "
				"outside your team",
				m->nsources ? " and source text" : "");
		}
		xl_open_browser(path, no_open);
	}
	xl_model_free(m);
	return rc;
}

/* Before the program starts: the include ids, the capture directory with its
 * symbols, and the disk check.  Returns 0 (*sp then points at *no_capture
 * when the disk is too full to capture), or an exit code after printing why. */
static int prepare(const struct xl_session **sp, struct xl_session *no_capture, char *dir, size_t len,
		   struct strbuf *ids)
{
	const struct xl_session *s = *sp;
	if (s->mode != XL_MODE_MEMORY && s->include && s->include[0] && include_ids(s, ids) != 0) {
		xl_error("no function matches the include pattern%s:", s->include[1] ? "s" : "");
		for (size_t k = 0; s->include[k]; k++)
			fprintf(stderr, "  %s\n", s->include[k]);
		xl_hint("patterns are shell globs matched against function names, e.g. '*process_batch*'");
		return XL_EXIT_USAGE;
	}
	if (make_capture_dir(s->profiles_dir ? s->profiles_dir : "profiles", dir, len) != 0)
		return XL_EXIT_FAIL;
	if (s->symtab) {
		char path[PATH_MAX + 16], err[512];
		snprintf(path, sizeof(path), "%s/symbols.json", dir);
		if (xl_symbols_write_json(s->symtab, path, err, sizeof(err)) != 0)
			xl_warn("%s", err);
	}
	/* The runtime reserves the whole capture file before the program
	 * starts and runs it uncaptured when the disk is too full.  Say so
	 * once, here, and run the program without the capture environment.
	 * (Fault test t9005: on a 2 MiB file system the runtime's error was
	 * followed by a misleading "was it built with --profile?".) */
	struct statvfs fs;
	uint64_t need = XL_HDR_SIZE + XL_THREAD_TABLE_SIZE + s->buffer_size;
	if (statvfs(dir, &fs) == 0 && (uint64_t)fs.f_bavail * fs.f_frsize < need) {
		char have[32], want[32];
		xl_fmt_size((int64_t)((uint64_t)fs.f_bavail * fs.f_frsize), have, sizeof(have));
		xl_fmt_size((int64_t)need, want, sizeof(want));
		xl_error("not enough space for a capture in '%s' (%s free, %s needed): running without capture", dir,
			 have, want);
		remove_capture_dir(dir);
		*no_capture = *s;
		no_capture->capture = 0;
		*sp = no_capture;
		return 0;
	}
	/* A file-size limit (ulimit -f) below the capture's size: the kernel
	 * kills a program that writes past it with SIGXFSZ (the runtime checks
	 * too, but says nothing the user sees before the program ends).  Use a
	 * smaller buffer when one of at least 1 MiB fits, else run without
	 * capture, and say which in one line. */
	struct rlimit fl;
	uint64_t fixed = XL_HDR_SIZE + XL_THREAD_TABLE_SIZE;
	if (getrlimit(RLIMIT_FSIZE, &fl) == 0 && fl.rlim_cur != RLIM_INFINITY && fl.rlim_cur < need) {
		char lim[32], want[32];
		xl_fmt_size((int64_t)fl.rlim_cur, lim, sizeof(lim));
		xl_fmt_size((int64_t)need, want, sizeof(want));
		*no_capture = *s;
		if (fl.rlim_cur >= fixed + (1u << 20)) {
			no_capture->buffer_size = ((uint64_t)fl.rlim_cur - fixed) & ~(uint64_t)0xffff;
			char got[32];
			xl_fmt_size((int64_t)no_capture->buffer_size, got, sizeof(got));
			xl_warn("the file-size limit (ulimit -f) is %s, below the capture's %s: capture buffer reduced to %s",
				lim, want, got);
		} else {
			xl_error(
				"the file-size limit (ulimit -f) is %s, below the smallest capture: running without capture (raise it with 'ulimit -f unlimited')",
				lim);
			remove_capture_dir(dir);
			no_capture->capture = 0;
		}
		*sp = no_capture;
	}
	return 0;
}

/* Has the runtime finalized the capture because its window closed (while
 * the program goes on)? */
static int window_closed(const char *dir)
{
	struct xl_cap_header h;
	int fd = xl_cap_header_open(dir, O_RDONLY, &h);
	if (fd < 0)
		return 0;
	close(fd);
	return h.state == XL_STATE_FINALIZED && h.end_reason == XL_END_WINDOW;
}

/* Wait for the program.  Only a target with a window that closes before
 * the program ends needs watching: its report is written then (*reported).
 * Returns 0 with *status, or -1 after printing why. */
static int wait_program(const struct xl_session *s, struct xl_process *p, const char *dir, int64_t t0,
			const char *started_at, int *status, struct rusage *ru, int *reported)
{
	int watch = s->capture && s->long_running && s->duration_ns;
	memset(ru, 0, sizeof(*ru));
	for (;;) {
		pid_t r = xl_process_wait(p, status, ru, watch && !*reported);
		if (r == p->pid)
			return 0;
		if (r < 0) {
			xl_error("lost track of the program: %s", strerror(errno));
			return -1;
		}
		if (window_closed(dir)) {
			xl_note("capture window closed; the program keeps running");
			xl_samples_write(dir, s->exe, s->symtab, !s->no_source);
			write_run_json(s, dir, 0, 0, xl_now_ns() - t0, started_at, 0);
			render(dir, s->no_open, s->quiet ? NOTES_WARNINGS : NOTES_ALL);
			*reported = 1;
		} else {
			struct timespec ts = {0, 50 * 1000 * 1000};
			nanosleep(&ts, NULL);
		}
	}
}

/* After the program: how it ended, then the capture's run.json and report. */
static int finish(const struct xl_session *s, const char *dir, int status, int64_t app_ns, const char *started_at,
		  long maxrss, int reported, pid_t pid, const struct xl_exec_probe *probe)
{
	char took[32];
	xl_fmt_duration(app_ns, took, sizeof(took));
	if (WIFSIGNALED(status))
		xl_note("application ran %s and was killed by signal %d (%s)", took, WTERMSIG(status),
			strsignal(WTERMSIG(status)));
	else if (!s->quiet && (s->capture || s->compile_ns >= 0))
		xl_note("application ran %s, exit status %d", took, WEXITSTATUS(status));
	if (!s->capture)
		return xl_exit_status(status);
	if (!trim_capture(dir)) {
		/* The program was built for profiling (run built it, profile exec
		 * checked its sidecars), so say what happened to its capture: the
		 * runtime's own note, or the directory gone.  (t1203: a program
		 * that deleted ./profiles was asked whether it was built with
		 * --profile.) */
		struct stat st;
		if (stat(dir, &st) != 0)
			xl_error(
				"the capture directory '%s' was removed while the program ran (%s): its capture is lost",
				dir, strerror(errno));
		else if (!print_runtime_notes(dir))
			xl_error("the program left no capture in '%s': its profiling runtime did not start or the "
				 "program removed '%s'",
				 dir, XL_CAP_FILE);
		remove_capture_dir(dir);
		return xl_exit_status(status);
	}
	print_runtime_notes(dir);
	if (xl_exec_probe_finish(probe, dir, pid, s->exe))
		xl_warn("the program exec'd '%s', which exaloop did not build: its capture ends at the exec and the "
			"rest of the run was not captured",
			probe->comm);
	write_run_json(s, dir, 1, status, app_ns, started_at, maxrss);
	if (!reported)
		xl_samples_write(dir, s->exe, s->symtab, !s->no_source);
	render(dir, s->no_open || reported, reported ? NOTES_UPDATED : s->quiet ? NOTES_WARNINGS : NOTES_ALL);
	return xl_exit_status(status);
}

/* The time now as run.json's started_at: "2026-12-02T17:19:12Z". */
static void utc_now(char *buf, size_t len)
{
	time_t wall = time(NULL);
	struct tm tm;
	gmtime_r(&wall, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int xl_session_run(const struct xl_session *s)
{
	struct xl_session no_capture; /* s without capture (full disk) */
	char dir[PATH_MAX] = "";
	struct strbuf ids;
	strbuf_init(&ids);
	if (s->capture) {
		int rc = prepare(&s, &no_capture, dir, sizeof(dir), &ids);
		if (rc != 0) {
			strbuf_release(&ids);
			return rc;
		}
	}

	char started_at[32];
	utc_now(started_at, sizeof(started_at));

	/* The program runs as a job of its own (process.h): ^C in the
	 * terminal reaches it directly, a signal sent to exaloop or its group
	 * is passed on once, and exaloop lives on to write the report. */
	struct strvec argv;
	strvec_init(&argv);
	char err[PATH_MAX + 128];
	if (xl_emulator_argv(s->exe, &argv, err, sizeof(err)) != 0) { /* another architecture's program */
		strvec_release(&argv);
		strbuf_release(&ids);
		xl_error("%s", err);
		if (s->capture)
			remove_capture_dir(dir);
		return XL_EXIT_NOEXEC;
	}
	strvec_push(&argv, s->exe);
	strvec_pushv(&argv, s->args);
	struct child_env env = {s, s->capture ? dir : NULL, ids.len ? ids.buf : NULL};
	struct xl_exec_probe probe = {""};
	struct xl_process p = {.argv = argv.v,
			       .signals = XL_SIGNALS_FORWARD,
			       .stdio = s->quiet ? XL_STDIO_QUIET : XL_STDIO_INHERIT,
			       .setup = set_child_env,
			       .setup_arg = &env,
			       .ended_hook = s->capture ? xl_exec_probe_hook : NULL,
			       .ended_arg = &probe};
	int64_t t0 = xl_now_ns();
	int started = -1, e = ENOMEM;
	if (!argv.oom) {
		started = xl_process_start(&p);
		e = errno;
	}
	strbuf_release(&ids);
	if (started != 0) {
		xl_process_end(&p);
		strvec_release(&argv);
		xl_error("cannot run '%s': %s", s->exe, strerror(e));
		if (s->capture)
			remove_capture_dir(dir);
		return e == ENOENT ? XL_EXIT_NOTFOUND : XL_EXIT_NOEXEC;
	}
	int status = 0, reported = 0;
	struct rusage ru;
	int rc = wait_program(s, &p, dir, t0, started_at, &status, &ru, &reported);
	int64_t app_ns = xl_now_ns() - t0;
	pid_t pid = p.pid;
	xl_process_end(&p);
	strvec_release(&argv);
	if (rc != 0)
		return XL_EXIT_FAIL;
	return finish(s, dir, status, app_ns, started_at, ru.ru_maxrss, reported, pid, &probe);
}

/* The runtime's settings for an attach: the variables a captured child's
 * environment would hold, as "NAME=VALUE\0" strings ended by an empty one
 * (xl_capture.h: XL_ATTACH_SYMBOL). */
static void attach_settings(const struct xl_session *s, const char *dir, const char *ids, pid_t pid, struct strbuf *b)
{
	/* Absolute: the process has a working directory of its own. */
	char abs[PATH_MAX];
	strbuf_addf(b, "%s=%s", XL_ENV_DIR, realpath(dir, abs) ? abs : dir);
	strbuf_add(b, "", 1);
	strbuf_addf(b, "%s=%d", XL_ENV_PID, (int)pid);
	strbuf_add(b, "", 1);
	strbuf_addf(b, "%s=%s", XL_ENV_MODE, xl_mode_name(s->mode));
	strbuf_add(b, "", 1);
	const char *names[] = {XL_ENV_BUFFER, XL_ENV_INTERVAL, XL_ENV_DURATION, XL_ENV_TIMELINE_MIN,
			       XL_ENV_SAMPLE_RATE};
	const uint64_t values[] = {s->buffer_size, s->interval_ns, s->duration_ns, s->tl_min_ns, s->sample_rate};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		strbuf_addf(b, "%s=%llu", names[i], (unsigned long long)values[i]);
		strbuf_add(b, "", 1);
	}
	if (s->tl_mode) {
		strbuf_addf(b, "%s=%s", XL_ENV_TIMELINE, xl_tl_mode_name(s->tl_mode));
		strbuf_add(b, "", 1);
	}
	if (s->timing == XL_TIMING_SAMPLED) {
		strbuf_addf(b, "%s=sampled", XL_ENV_TIMING);
		strbuf_add(b, "", 1);
	}
	if (ids) {
		strbuf_addf(b, "%s=%s", XL_ENV_INCLUDE, ids);
		strbuf_add(b, "", 1);
	}
	strbuf_add(b, "", 1);
}

/* Process pid's state letter (R, S, T, Z, ...), 0 when it is gone. */
static char proc_state(pid_t pid)
{
	char st;
	unsigned long long start;
	return xl_proc_stat(pid, &st, &start) == 0 ? st : 0;
}

/* Process pid still runs: it exists and is not a zombie waiting for its
 * parent (which is not exaloop). */
static int still_runs(pid_t pid)
{
	char st = proc_state(pid);
	return st && st != 'Z' && st != 'X';
}

static const char *attach_problem(int rc)
{
	switch (rc) {
	case XL_ATTACH_BUSY: return "it is being captured, or was attached to before (once per run of a process)";
	case XL_ATTACH_REQUEST: return "its runtime refused the request (a different exaloop version?)";
	default: return "its runtime could not start the capture";
	}
}

static volatile sig_atomic_t attach_interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	attach_interrupted = 1;
}

/* Ask the program's runtime to close the window now (the header's
 * close_request, read by its control thread at its next wake-up). */
static void request_close(const char *dir)
{
	struct xl_cap_header h;
	int fd = xl_cap_header_open(dir, O_RDWR, &h);
	if (fd < 0)
		return;
	uint32_t one = 1;
	if (pwrite(fd, &one, sizeof(one), (off_t)offsetof(struct xl_cap_header, close_request)) != sizeof(one))
		xl_warn("could not ask process's runtime to end the capture: %s", strerror(errno));
	close(fd);
}

/* Until the attached program's window closes or it ends: 1 when it
 * ended.  SIGINT and SIGTERM (^C) close the window early, and the report
 * is written as usual; a second one leaves at once, the program still
 * attached (its window closes as it was set). */
static int attach_wait(pid_t pid, const char *dir)
{
	struct sigaction sa, old_int, old_term;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	int gone = 0, asked = 0, said_stopped = 0;
	while (!window_closed(dir)) {
		if (!still_runs(pid)) {
			gone = 1;
			break;
		}
		if (!said_stopped && proc_state(pid) == 'T') {
			xl_note("process %d is stopped: its capture window closes when it runs again (kill -CONT %d)",
				(int)pid, (int)pid);
			said_stopped = 1;
		}
		if (attach_interrupted && !asked) {
			xl_note("interrupted: closing the capture window now (again to leave without a report)");
			request_close(dir);
			asked = 1;
			attach_interrupted = 0;
			sigaction(SIGINT, &old_int, NULL);
			sigaction(SIGTERM, &old_term, NULL);
		}
		struct timespec ts = {0, 20 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	if (!asked) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
	}
	return gone;
}

int xl_session_attach(const struct xl_session *s, pid_t pid, uint64_t entry, uint64_t text_lo, uint64_t text_hi)
{
	struct xl_session no_capture;
	char dir[PATH_MAX] = "", err[512];
	struct strbuf ids, b;
	strbuf_init(&ids);
	strbuf_init(&b);
	int rc = prepare(&s, &no_capture, dir, sizeof(dir), &ids);
	if (rc == 0 && !s->capture)
		rc = XL_EXIT_FAIL; /* prepare said why (disk full) */
	if (rc != 0) {
		strbuf_release(&ids);
		return rc;
	}
	char started_at[32];
	utc_now(started_at, sizeof(started_at));
	attach_settings(s, dir, ids.len ? ids.buf : NULL, pid, &b);
	strbuf_release(&ids);
	struct xl_inject_call c = {
		.pid = pid, .func = entry, .data = b.buf, .len = b.len, .safe_lo = text_lo, .safe_hi = text_hi};
	int irc = xl_inject_call(&c, err, sizeof(err));
	strbuf_release(&b);
	if (irc != 0 || c.result != XL_ATTACH_OK) {
		if (irc == XL_INJECT_STOPPED)
			xl_error("%s", err);
		else if (irc != 0)
			xl_error("cannot attach to process %d: %s", (int)pid, err);
		else
			xl_error("cannot attach to process %d: %s", (int)pid, attach_problem(c.result));
		if (irc == XL_INJECT_DENIED)
			xl_hint("ptrace is allowed for the process's owner when /proc/sys/kernel/yama/ptrace_scope is 0, "
				"and with CAP_SYS_PTRACE (root)");
		if (irc == 0)
			print_runtime_notes(dir);
		remove_capture_dir(dir);
		return irc == XL_INJECT_NO_PROCESS ? XL_EXIT_NOTFOUND
		       : irc == XL_INJECT_STOPPED  ? XL_EXIT_USAGE
						   : XL_EXIT_FAIL;
	}
	char at[32], span[32];
	xl_fmt_duration(s->attached_at_ns, at, sizeof(at));
	xl_fmt_duration((int64_t)s->duration_ns, span, sizeof(span));
	xl_note("attached to process %d at %s of its run: capturing for %s; the program runs on", (int)pid, at, span);
	int gone = attach_wait(pid, dir);
	if (gone)
		xl_note("process %d ended during the capture", (int)pid);
	else
		xl_note("capture window closed; exaloop let go of process %d, which runs on", (int)pid);
	print_runtime_notes(dir);
	/* No application time: exaloop saw a part of the run, not the program's
	 * (the note `attached` says when in it the window was). */
	write_run_json(s, dir, 0, 0, -1, started_at, 0);
	return render(dir, s->no_open, 0) == 0 ? XL_EXIT_OK : XL_EXIT_FAIL;
}
