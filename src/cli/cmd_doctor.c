/*
 * cmd_doctor.c - `exaloop doctor [--profiling]`: one line per check, with
 * what to do when it fails.
 *
 * Without --profiling: the compiler, the XRay runtime, the SDK and /proc.
 * With --profiling, also the native capture path end to end: a tiny probe
 * is built with XRay and the runtime, run under capture, and its capture
 * must hold the probe's exact call counts and memory samples; then the
 * same without XRay (memory-only capture).  Exit 4 when a check that `run`
 * needs fails; notes (like "no display") never fail.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "cmd.h"
#include "exitcode.h"
#include "msg.h"
#include "options.h"
#include "pgo.h"
#include "sdk.h"
#include "session.h"
#include "symbols.h"
#include "process.h"
#include "srcbuild.h"
#include "fileio.h"
#include "xl_array.h"

/* main 1, mid 3, leaf 9; it sleeps so the sampler runs a few times. */
static const char probe_src[] =
	"#include <stdlib.h>\n"
	"#include <string.h>\n"
	"#include <time.h>\n"
	"__attribute__((noinline)) static int leaf(int x) { __asm__ volatile(\"\" : \"+r\"(x)); return x + 1; }\n"
	"__attribute__((noinline)) static int mid(int x) {\n"
	"  int s = 0;\n"
	"  for (int i = 0; i < 3; i++) s += leaf(x + i);\n"
	"  __asm__ volatile(\"\" : \"+r\"(s));\n"
	"  return s;\n"
	"}\n"
	"int main(void) {\n"
	"  int s = 0;\n"
	"  for (int i = 0; i < 3; i++) s += mid(i);\n"
	"  char *p = malloc(4 << 20);\n"
	"  if (p) memset(p, 1, 4 << 20);\n"
	"  struct timespec ts = {0, 60 * 1000 * 1000};\n"
	"  nanosleep(&ts, NULL);\n"
	"  free(p);\n"
	"  return s == 27 ? 0 : 1;\n"
	"}\n";

/* What the checks found so far: later checks need the compiler, the XRay
 * runtime and the SDK the earlier ones looked for. */
struct doctor {
	int blockers;
	int verbose;
	int profiling; /* --profiling: build and capture the probes */
	char cc[PATH_MAX];
	int have_cc, have_xray, have_sdk;
	struct xl_sdk sdk;
};

static void line(struct doctor *d, const char *status, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void line(struct doctor *d, const char *status, const char *what, const char *fmt, ...)
{
	va_list ap;
	printf("%-5s %-15s ", status, what);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (strcmp(status, "FAIL") == 0)
		d->blockers++;
	fflush(stdout);
}

static int latest_capture(const char *profiles, char *out, size_t len)
{
	DIR *dir = opendir(profiles);
	if (!dir)
		return -1;
	struct dirent *e;
	out[0] = 0;
	char best[256] = "";
	while ((e = readdir(dir)))
		if (strncmp(e->d_name, "capture-", 8) == 0 && strcmp(e->d_name, best) > 0)
			snprintf(best, sizeof(best), "%s", e->d_name);
	closedir(dir);
	if (!best[0])
		return -1;
	return (size_t)snprintf(out, len, "%s/%s", profiles, best) < len ? 0 : -1;
}

/* Build the probe in tmp for mode, run it under capture, load the model. */
static int probe(const char *tmp, const struct xl_sdk *sdk, uint32_t mode, struct xl_model **m, char *why, size_t len)
{
	char src[PATH_MAX], exe[PATH_MAX], profiles[PATH_MAX], cap[PATH_MAX], err[512];
	snprintf(src, sizeof(src), "%s/probe.c", tmp);
	snprintf(exe, sizeof(exe), "%s/probe-%s", tmp, xl_mode_name(mode));
	snprintf(profiles, sizeof(profiles), "%s/profiles-%s", tmp, xl_mode_name(mode));
	const char *argv[] = {"build", src, NULL};
	struct xl_build_args a = {0};
	a.sources = argv + 1;
	a.nsources = 1;
	a.flags = argv + 2;
	a.prog_args = argv + 2;
	struct xl_build b;
	xl_build_init(&b, &a, 1, mode, sdk->runtime, exe, NULL, &xl_stderr_msgs);
	if (xl_build_run(&b) != 0) {
		snprintf(why, len, "the probe did not build (see the compiler's messages above)");
		return -1;
	}
	struct xl_symtab tab = {0};
	if (xl_symbols_read(exe, &tab, err, sizeof(err)) != 0) {
		snprintf(why, len, "cannot read the probe's symbols: %s", err);
		return -1;
	}
	struct xl_session s = {0};
	s.exe = exe;
	s.args = argv + 2;
	s.capture = 1;
	s.mode = mode;
	s.buffer_size = 4u << 20;
	s.interval_ns = 10000000u;
	s.symtab = &tab;
	s.program = "probe.c";
	s.command = argv;
	s.compile_ns = b.compile_ns;
	s.no_open = 1;
	s.profiles_dir = profiles;
	int rc = xl_session_run(&s);
	xl_symtab_release(&tab);
	if (rc != 0) {
		snprintf(why, len, "the probe exited with status %d under capture", rc);
		return -1;
	}
	if (latest_capture(profiles, cap, sizeof(cap)) != 0) {
		snprintf(why, len, "the probe wrote no capture");
		return -1;
	}
	if (xl_model_load(cap, m, err, sizeof(err)) != XL_OK) {
		snprintf(why, len, "%s", err);
		return -1;
	}
	return 0;
}

static uint64_t calls_of(const struct xl_model *m, const char *name)
{
	for (size_t i = 0; i < m->nfuncs; i++)
		if (strcmp(m->funcs[i].name, name) == 0)
			return m->funcs[i].calls;
	return 0;
}

static void check_capture(struct doctor *d, const char *tmp, const struct xl_sdk *sdk, int have_xray)
{
	char why[1024];
	struct xl_model *m = NULL;
	xl_msg_quiet(1);
	int rc = have_xray ? probe(tmp, sdk, XL_MODE_ALL, &m, why, sizeof(why)) : -1;
	xl_msg_quiet(0);
	if (!have_xray)
		line(d, "FAIL", "capture", "skipped: function tracing needs the XRay runtime (see above)");
	else if (rc != 0)
		line(d, "FAIL", "capture", "%s; run 'exaloop --profile run' on a small program to see more", why);
	else {
		uint64_t mn = calls_of(m, "main"), mid = calls_of(m, "mid"), leaf = calls_of(m, "leaf");
		if (mn == 1 && mid == 3 && leaf == 9 && m->nsamples > 0 && m->finalized)
			line(d, "ok", "capture",
			     "probe traced exactly (main 1, mid 3, leaf 9 calls), %zu memory samples", m->nsamples);
		else
			line(d, "FAIL", "capture",
			     "probe capture is wrong: main %llu, mid %llu, leaf %llu calls (expected 1, 3, 9), %zu samples%s",
			     (unsigned long long)mn, (unsigned long long)mid, (unsigned long long)leaf, m->nsamples,
			     m->finalized ? "" : ", not finalized");
	}
	xl_model_free(m);
	m = NULL;
	xl_msg_quiet(1);
	rc = probe(tmp, sdk, XL_MODE_MEMORY, &m, why, sizeof(why));
	xl_msg_quiet(0);
	if (rc != 0)
		line(d, "FAIL", "memory capture", "%s", why);
	else if (m->nsamples == 0 || m->nfuncs != 0)
		line(d, "FAIL", "memory capture", "probe capture is wrong: %zu samples, %zu functions (expected >0, 0)",
		     m->nsamples, m->nfuncs);
	else
		line(d, "ok", "memory capture", "probe without XRay: %zu memory samples", m->nsamples);
	xl_model_free(m);
}

static void check_compiler(struct doctor *d)
{
	char ver[64] = "";
	d->have_cc = xl_find_compiler(XL_LANG_C, d->cc, sizeof(d->cc)) == 0;
	if (d->have_cc) {
		xl_compiler_version(d->cc, ver, sizeof(ver));
		line(d, "ok", "compiler", "clang %s (%s)", ver[0] ? ver : "?", d->cc);
	} else
		line(d, "FAIL", "compiler", "no clang-14 or clang in PATH: apt-get install clang-14");
}

static void check_cxx(struct doctor *d)
{
	char cxx[PATH_MAX];
	if (xl_find_compiler(XL_LANG_CXX, cxx, sizeof(cxx)) == 0)
		line(d, "ok", "c++ compiler", "%s", cxx);
	else
		line(d, "note", "c++ compiler",
		     "no clang++ in PATH: C++ sources cannot be built (apt-get install clang-14)");
}

static void check_xray(struct doctor *d)
{
	char rt[PATH_MAX];
	d->have_xray = d->have_cc && xl_xray_runtime(d->cc, rt, sizeof(rt)) == 0;
	if (d->have_xray)
		line(d, "ok", "xray runtime", "%s", rt);
	else
		line(d, "FAIL", "xray runtime",
		     "clang's XRay runtime is missing: apt-get install libclang-rt-14-dev "
		     "(memory capture, --profile=memory, still works)");
}

/* PGO (exaloop pgo) is optional: its tools are notes, not blockers. */
static void check_pgo(struct doctor *d)
{
	char pgo_tool[PATH_MAX];
	if (xl_find_profdata(pgo_tool, sizeof(pgo_tool)) == 0)
		line(d, "ok", "llvm-profdata", "%s (exaloop pgo)", pgo_tool);
	else
		line(d, "note", "llvm-profdata",
		     "not in PATH: 'exaloop pgo' cannot merge profiles (apt-get install llvm-14)");
	if (d->have_cc && xl_clang_runtime(d->cc, "profile", pgo_tool, sizeof(pgo_tool)) == 0)
		line(d, "ok", "pgo runtime", "%s", pgo_tool);
	else
		line(d, "note", "pgo runtime",
		     "clang's profile runtime is missing: 'exaloop pgo train' cannot build (apt-get install libclang-rt-14-dev)");
}

static void check_sdk(struct doctor *d)
{
	char err[1024];
	d->have_sdk = xl_sdk_find(&d->sdk, err, sizeof(err)) == 0;
	if (d->have_sdk)
		line(d, "ok", "sdk", "%s for clang %s at %s (%s)", d->sdk.version, d->sdk.compiler_version, d->sdk.dir,
		     d->sdk.registered ? "registered" : "built in");
	else
		line(d, "FAIL", "sdk", "%s", err);
}

static void check_proc(struct doctor *d)
{
	FILE *f = fopen("/proc/self/statm", "re");
	int proc_ok = f != NULL;
	if (f)
		fclose(f);
	f = fopen("/proc/self/status", "re");
	int hwm = 0;
	char buf[256];
	while (f && fgets(buf, sizeof(buf), f))
		hwm |= strncmp(buf, "VmHWM:", 6) == 0;
	if (f)
		fclose(f);
	if (proc_ok && hwm)
		line(d, "ok", "/proc", "RSS (/proc/self/statm) and peak RSS (VmHWM) readable");
	else
		line(d, "FAIL", "/proc", "cannot read %s: memory metrics would be unavailable (mount /proc)",
		     proc_ok ? "VmHWM in /proc/self/status" : "/proc/self/statm");
}

/* --profiling: the probe program built and captured, in a temporary
 * directory removed afterwards. */
static void check_probes(struct doctor *d)
{
	if (!d->profiling)
		return;
	if (!d->have_cc || !d->have_sdk) {
		line(d, "FAIL", "capture", "skipped: needs the compiler and the SDK (see above)");
		return;
	}
	char tmp[PATH_MAX - 16];
	if (xl_make_temp_dir("doctor", tmp, sizeof(tmp)) != 0) {
		line(d, "FAIL", "capture", "cannot create a temporary directory: %s", strerror(errno));
		return;
	}
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/probe.c", tmp);
	FILE *p = fopen(path, "we");
	if (p) {
		fputs(probe_src, p);
		fclose(p);
	}
	check_capture(d, tmp, &d->sdk, d->have_xray);
	char *const rm[] = {"rm", "-rf", tmp, NULL};
	struct xl_process rmp = {.argv = rm};
	if (xl_process_run(&rmp) != 0)
		xl_warn("cannot remove '%s'", tmp);
}

static void check_browser(struct doctor *d)
{
	char opener[PATH_MAX];
	const char *browser = getenv("EXALOOP_BROWSER");
	if (getenv("CI"))
		line(d, "note", "browser", "CI is set: reports are not opened automatically");
	else if (!getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY"))
		line(d, "note", "browser",
		     "no display: reports are not opened automatically (open index.html yourself)");
	else if (xl_which(browser && *browser ? browser : "xdg-open", opener, sizeof(opener)) == 0)
		line(d, "ok", "browser", "reports open with %s", opener);
	else
		line(d, "note", "browser",
		     "no xdg-open: reports are not opened automatically (apt-get install xdg-utils)");
}

/* The checks, in the order they are printed.  A check prints one or more
 * lines (line(): a FAIL counts as a blocker) and may leave what later
 * checks need in struct doctor.  A new check is one function and one
 * entry here. */
static void (*const checks[])(struct doctor *d) = {
	check_compiler, check_cxx, check_xray, check_pgo, check_sdk, check_proc, check_probes, check_browser,
};

int cmd_doctor(int argc, const char **argv, struct xl_ctx *ctx)
{
	(void)ctx;
	struct doctor d = {0};
	const struct xl_option opts[] = {
		XL_OPT_BOOL(0, "profiling", &d.profiling,
			    "also build and capture probe programs (the native capture path)"),
		XL_OPT_END(),
	};
	const struct xl_usage usage = {
		"doctor",
		NULL,
		"Check the toolchain, the profiling SDK and, with --profiling, the capture path.\n"
		"Exits 4 when a check that 'run' needs fails.",
		opts,
		NULL,
		NULL};
	int n;
	int rc = xl_parse_options(&usage, argc, argv, 0, &n);
	if (rc != XL_OPTS_PARSED)
		return rc;
	if (n > 0) {
		xl_error("unexpected argument '%s' for 'doctor'", argv[1]);
		xl_usage_print(&usage, stderr);
		return XL_EXIT_USAGE;
	}
	for (size_t i = 0; i < XL_ARRAY_SIZE(checks); i++)
		checks[i](&d);
	if (d.blockers) {
		printf("%d check%s failed\n", d.blockers, d.blockers == 1 ? "" : "s");
		return XL_EXIT_DOCTOR;
	}
	printf("all checks passed\n");
	return XL_EXIT_OK;
}
