/*
 * cmd_pgo.c - `exaloop pgo train | evaluate`: clang's instrumentation PGO.
 *
 *   pgo train [--name NAME] [--fresh] [build options] SOURCE... [-- ARGS...]
 *   pgo train --target NAME [--fresh]
 *   pgo evaluate [--runs N] [--captures K] [--out DIR] [--name NAME] [build options] [--pgo FILE]
 *                SOURCE... [-- ARGS...]
 *   pgo evaluate --target NAME [--runs N] [--captures K] [--out DIR]
 *
 * train: builds with -fprofile-instr-generate, runs each input (the
 * arguments, or the target's [pgo] inputs) with LLVM_PROFILE_FILE pointing
 * into pgo/NAME.profraw.d/, and merges every raw profile there (earlier
 * trainings too, unless --fresh) into pgo/NAME.profdata with llvm-profdata.
 *
 * evaluate: builds the program twice with exaloop's instrumentation (XRay
 * and PGO instrumentation differ, so both builds carry the same XRay
 * sleds): release, and release with -fprofile-instr-use.  The ratio comes
 * from UNcaptured runs (an XRay build whose capture is not enabled runs
 * its sleds as nops), N of each, alternating so that the machine's load
 * falls on both alike; its median and spread are printed.  K captured runs
 * of each then explain where the change came from: their diff is written
 * as diff.txt and diff.html beside the captures.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analyze.h"
#include "args.h"
#include "build_setup.h"
#include "captures.h"
#include "cmd.h"
#include "diff.h"
#include "emit_diff.h"
#include "exitcode.h"
#include "fileio.h"
#include "globals.h"
#include "msg.h"
#include "options.h"
#include "pgo.h"
#include "pgo_diag.h"
#include "process.h"
#include "project.h"
#include "report_out.h"
#include "sdk.h"
#include "session.h"
#include "symbols.h"
#include "srcbuild.h"
#include "strvec.h"
#include "toolchain.h"
#include "units.h"

struct pgo_job {
	int is_eval;
	const char *target_name;
	const char *name_opt;
	int fresh;
	long runs, captures;
	const char *out_opt;
	/* resolved */
	struct xl_target t;
	int has_target;
	const char **targv;    /* the target's command line (owned) */
	const char **own_argv; /* the command line without pgo's options (the array owned) */
	struct xl_build_args a;
	char name[NAME_MAX + 1];
	char pgodir[PATH_MAX]; /* pgo/ (beside exaloop.toml for a target) */
	char profile[PATH_MAX + NAME_MAX + 16];
	const char *const **inputs; /* NULL-terminated argument lists */
	size_t ninputs;
};

static void job_release(struct pgo_job *j)
{
	xl_build_args_release(&j->a);
	xl_target_argv_free(j->targv);
	free(j->own_argv);
	free(j->inputs);
	if (j->has_target)
		xl_target_release(&j->t);
}

/* The leading arguments that are options of u (before the build options,
 * which pass through to args.h), parsed by the one option parser: *used is
 * set to how many argv entries they took.  XL_OPTS_PARSED, or the exit
 * code (help printed: 0; a usage error: 2). */
static int own_options(const struct xl_usage *u, int argc, const char **argv, int *used)
{
	int i = 1;
	while (i < argc && strncmp(argv[i], "--", 2) == 0 && argv[i][2]) {
		size_t len = strcspn(argv[i] + 2, "=");
		const struct xl_option *o = u->options;
		while (o->kind != XL_OPT_KIND_END &&
		       !(o->long_name && strlen(o->long_name) == len && strncmp(o->long_name, argv[i] + 2, len) == 0))
			o++;
		if (o->kind == XL_OPT_KIND_END && strcmp(argv[i], "--help") != 0)
			break;
		i += xl_option_has_value(o) && !argv[i][2 + len] && i + 1 < argc ? 2 : 1;
	}
	if (i < argc && strcmp(argv[i], "-h") == 0)
		i++;
	const char **own = calloc((size_t)i + 1, sizeof(char *));
	if (!own) {
		xl_error("out of memory");
		return XL_EXIT_FAIL;
	}
	memcpy(own, argv, (size_t)i * sizeof(char *));
	int n;
	int rc = xl_parse_options(u, i, own, 0, &n);
	free(own);
	*used = i;
	return rc;
}

/* pgo's own options (before the build options): XL_OPTS_PARSED with *i
 * the first argument after them, else the exit code (0 after -h/--help). */
static int job_options(int argc, const char **argv, struct xl_ctx *ctx, struct pgo_job *j, int *i)
{
	j->runs = 5;
	j->captures = 3;
	j->target_name = ctx->target;
	const struct xl_option train_opts[] = {
		XL_OPT_STRING(0, "target", &j->target_name, "NAME",
			      "train the target NAME of exaloop.toml (its [pgo] inputs)"),
		XL_OPT_STRING(0, "name", &j->name_opt, "NAME",
			      "the profile's name: pgo/NAME.profdata (default: the program's)"),
		XL_OPT_BOOL(0, "fresh", &j->fresh, "drop the raw profiles of earlier trainings first"),
		XL_OPT_END(),
	};
	const struct xl_option eval_opts[] = {
		XL_OPT_STRING(0, "target", &j->target_name, "NAME", "evaluate the target NAME of exaloop.toml"),
		XL_OPT_STRING(0, "name", &j->name_opt, "NAME",
			      "the profile pgo/NAME.profdata (default: the program's name)"),
		XL_OPT_INT(0, "runs", &j->runs, "N", "uncaptured timing runs of each build (default 5)", 1, 1000, NULL),
		XL_OPT_INT(0, "captures", &j->captures, "K", "captured runs of each build (default 3)", 1, 1000, NULL),
		XL_OPT_STRING(0, "out", &j->out_opt, "DIR",
			      "write the captures and the diff to DIR (default pgo/NAME-eval-STAMP)"),
		XL_OPT_END(),
	};
	const struct xl_usage train = {
		"pgo train",
		"[build options] SOURCE... [-- program args...]",
		"Build with clang's PGO instrumentation, run each input and merge the raw profiles\n"
		"(these and earlier trainings') into pgo/NAME.profdata with llvm-profdata.",
		train_opts,
		NULL,
		xl_build_options_help};
	const struct xl_usage eval = {
		"pgo evaluate",
		"[build options] [--pgo FILE] SOURCE... [-- program args...]",
		"Build the program as given and with its PGO profile (both with exaloop's instrumentation),\n"
		"time N uncaptured runs of each, alternating, capture K of each, and write their diff.",
		eval_opts,
		NULL,
		xl_build_options_help};
	return own_options(j->is_eval ? &eval : &train, argc, argv, i);
}

/* The build command line from argv[i] on: the target's, or the rest of
 * argv (run's syntax).  0 or an exit code (printed). */
static int job_command(int argc, const char **argv, int i, struct xl_ctx *ctx, struct pgo_job *j)
{
	char err[1024];
	int bargc = argc - i + 1;
	j->own_argv = calloc((size_t)bargc + 1, sizeof(char *));
	if (!j->own_argv) {
		xl_error("out of memory");
		return XL_EXIT_FAIL;
	}
	j->own_argv[0] = j->is_eval ? "pgo evaluate" : "pgo train";
	memcpy(j->own_argv + 1, argv + i, (size_t)(argc - i) * sizeof(char *));
	const char **bargv = j->own_argv;
	if (j->target_name) {
		struct xl_ctx tctx = *ctx;
		tctx.target = j->target_name;
		int targc;
		int rc = xl_target_argv(&tctx, j->own_argv[0], bargc, 1, &j->t, &j->targv, &targc);
		if (rc)
			return rc;
		j->has_target = 1;
		bargc = targc;
		bargv = j->targv;
	}
	if (xl_split_build_args(bargc, bargv, 0, xl_is_global_option, &j->a, err, sizeof(err)) != 0) {
		xl_error("%s", err);
		return XL_EXIT_USAGE;
	}
	if (!j->is_eval && j->a.pgo) {
		xl_error("'pgo train' builds with PGO instrumentation, not with a profile: remove '--pgo %s'",
			 j->a.pgo);
		return XL_EXIT_USAGE;
	}
	return 0;
}

/* The profile's name, the pgo/ directory, the profile, and the inputs:
 * the target's [pgo] inputs, else the program arguments.  0 or an exit
 * code (printed). */
static int job_profile(struct pgo_job *j)
{
	if (j->name_opt)
		snprintf(j->name, sizeof(j->name), "%s", j->name_opt);
	else if (j->has_target)
		snprintf(j->name, sizeof(j->name), "%s", j->t.name);
	else
		xl_default_output(j->a.sources[0], j->name, sizeof(j->name));
	if (strchr(j->name, '/') || !j->name[0]) {
		xl_error("invalid PGO name '%s': a file name without '/'", j->name);
		return XL_EXIT_USAGE;
	}
	snprintf(j->pgodir, sizeof(j->pgodir), "%s%spgo", j->has_target ? j->t.dir : "", j->has_target ? "/" : "");
	if (j->a.pgo)
		snprintf(j->profile, sizeof(j->profile), "%s", j->a.pgo);
	else if (j->has_target && j->t.pgo_profile)
		snprintf(j->profile, sizeof(j->profile), "%s%s%s", j->t.pgo_profile[0] == '/' ? "" : j->t.dir,
			 j->t.pgo_profile[0] == '/' ? "" : "/", j->t.pgo_profile);
	else
		snprintf(j->profile, sizeof(j->profile), "%s/%s.profdata", j->pgodir, j->name);
	size_t n = 0;
	while (j->has_target && j->t.pgo_inputs && j->t.pgo_inputs[n])
		n++;
	j->inputs = calloc(n + 2, sizeof(*j->inputs));
	if (!j->inputs) {
		xl_error("out of memory");
		return XL_EXIT_FAIL;
	}
	if (n)
		for (size_t k = 0; k < n; k++)
			j->inputs[k] = (const char *const *)j->t.pgo_inputs[k];
	else
		j->inputs[n++] = j->a.prog_args;
	j->ninputs = n;
	return 0;
}

/* pgo's own options, then the build command line.  XL_OPTS_PARSED when
 * the job is ready, else the exit code (0 after -h/--help). */
static int job_setup(int argc, const char **argv, struct xl_ctx *ctx, struct pgo_job *j)
{
	int i;
	int rc = job_options(argc, argv, ctx, j, &i);
	if (rc != XL_OPTS_PARSED)
		return rc;
	rc = job_command(argc, argv, i, ctx, j);
	if (rc == 0)
		rc = job_profile(j);
	return rc == 0 ? XL_OPTS_PARSED : rc;
}

static void args_text(const char *const *args, char *out, size_t len)
{
	size_t k = 0;
	out[0] = 0;
	for (size_t i = 0; args && args[i] && k < len; i++)
		k += (size_t)snprintf(out + k, len - k, "%s%s", i ? " " : "", args[i]);
	if (!out[0])
		snprintf(out, len, "(no arguments)");
}

/* ------------------------------------------------------------------ train */

/* The training runs: each input once, under capture, its raw profile
 * in rawdir.  0 or an exit code (printed). */
static int training_runs(const struct pgo_job *j, const char *exe, const char *rawdir, struct xl_ctx *ctx)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	int rc = 0;
	for (size_t k = 0; !rc && k < j->ninputs; k++) {
		char raw[PATH_MAX + NAME_MAX + 96], what[512];
		snprintf(raw, sizeof(raw), "%s/%s-%d-%zu.profraw", rawdir, stamp, (int)getpid(), k);
		setenv("LLVM_PROFILE_FILE", raw, 1);
		args_text(j->inputs[k], what, sizeof(what));
		xl_note("training run %zu of %zu: %s", k + 1, j->ninputs, what);
		struct xl_session s = {0};
		s.exe = exe;
		s.args = j->inputs[k];
		s.program = j->a.sources[0];
		s.command = ctx->argv;
		s.compile_ns = -1;
		s.no_open = 1;
		int st = xl_session_run(&s);
		unsetenv("LLVM_PROFILE_FILE");
		if (st != 0) {
			unlink(raw);
			xl_error("training run %zu (%s) exited with status %d: its profile is not used", k + 1, what,
				 st);
			rc = st >= XL_EXIT_BUILD ? st : XL_EXIT_FAIL;
		} else if (access(raw, R_OK) != 0) {
			xl_error("training run %zu wrote no raw profile '%s'", k + 1, raw);
			rc = XL_EXIT_FAIL;
		}
	}
	return rc;
}

/* Every raw profile matching pattern (these runs' and, unless --fresh,
 * earlier ones') merged into the profile, and what it holds said.  0 or
 * an exit code (printed). */
static int merge_profiles(const struct pgo_job *j, const char *profdata, const char *pattern)
{
	glob_t g = {0};
	size_t total_raw = 0;
	int rc = 0;
	if (glob(pattern, 0, NULL, &g) == 0) {
		total_raw = g.gl_pathc;
		char err[1024];
		if (xl_pgo_merge(profdata, g.gl_pathv, j->profile, err, sizeof(err)) != XL_OK) {
			xl_error("%s", err);
			rc = XL_EXIT_FAIL;
		}
	}
	globfree(&g);
	if (rc)
		return rc;
	long total = 0, counted = 0;
	if (xl_pgo_functions(profdata, j->profile, &total, &counted) != 0)
		xl_warn("cannot list the functions of '%s'", j->profile);
	printf("pgo: %s: %zu training run%s now, %zu in total (%s); %ld of %ld functions have counts\n", j->profile,
	       j->ninputs, j->ninputs == 1 ? "" : "s", total_raw, j->fresh ? "fresh" : "earlier runs kept", counted,
	       total);
	xl_hint("build with it: exaloop build -release --pgo %s SOURCE...; compare: exaloop pgo evaluate%s%s ...",
		j->profile, j->has_target ? " --target " : "", j->has_target ? j->t.name : "");
	return 0;
}

/* The PGO-instrumented build into exe.  0 or an exit code (printed). */
static int instrumented_build(struct pgo_job *j, const char *exe)
{
	struct xl_build b;
	xl_build_init(&b, &j->a, 0, 0, NULL, exe, NULL, &xl_stderr_msgs);
	b.pgo_generate = 1;
	int rc = xl_exit_for_build(xl_build_run(&b), b.signal);
	if (!rc) {
		char took[32];
		xl_fmt_duration(b.compile_ns, took, sizeof(took));
		xl_note("built '%s' with PGO instrumentation in %s (%s build)", j->name, took,
			j->a.release ? "release" : "debug");
	}
	return rc;
}

static int pgo_train(int argc, const char **argv, struct xl_ctx *ctx)
{
	struct pgo_job j = {0};
	char profdata[PATH_MAX], rawdir[PATH_MAX + NAME_MAX + 32], tmpdir[PATH_MAX - NAME_MAX - 2];
	char exe[PATH_MAX];
	int rc = job_setup(argc, argv, ctx, &j);
	if (rc != XL_OPTS_PARSED) {
		job_release(&j);
		return rc;
	}
	rc = xl_exit_for_build(xl_pgo_tools(NULL, 0, profdata, sizeof(profdata), &xl_stderr_msgs), 0);
	if (rc) {
		job_release(&j);
		return rc;
	}
	snprintf(rawdir, sizeof(rawdir), "%s/%s.profraw.d", j.pgodir, j.name);
	if (xl_mkdirs(rawdir, 0777) != 0) {
		xl_error("cannot create '%s': %s", rawdir, strerror(errno));
		job_release(&j);
		return XL_EXIT_FAIL;
	}
	glob_t g = {0};
	char pattern[sizeof(rawdir) + 16];
	snprintf(pattern, sizeof(pattern), "%s/*.profraw", rawdir);
	if (j.fresh && glob(pattern, 0, NULL, &g) == 0)
		for (size_t k = 0; k < g.gl_pathc; k++)
			unlink(g.gl_pathv[k]);
	globfree(&g);
	if (xl_make_temp_dir("pgo", tmpdir, sizeof(tmpdir)) != 0) {
		xl_error("cannot create a temporary build directory: %s", strerror(errno));
		job_release(&j);
		return XL_EXIT_BUILD;
	}
	snprintf(exe, sizeof(exe), "%s/%s", tmpdir, j.name);
	rc = instrumented_build(&j, exe);
	if (!rc)
		rc = training_runs(&j, exe, rawdir, ctx);
	unlink(exe);
	rmdir(tmpdir);
	if (!rc)
		rc = merge_profiles(&j, profdata, pattern);
	job_release(&j);
	return rc;
}

/* ------------------------------------------------------------------ evaluate */

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(double), cmp_dbl);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One timing run: every input once, program output discarded.  Returns
 * the wall time, or -1 after an error. */
static int64_t timed_run(const char *exe, const struct pgo_job *j)
{
	int64_t total = 0;
	for (size_t k = 0; k < j->ninputs; k++) {
		struct strvec argv;
		strvec_init(&argv);
		strvec_push(&argv, exe);
		strvec_pushv(&argv, j->inputs[k]);
		if (argv.oom) {
			strvec_release(&argv);
			return -1;
		}
		struct xl_process p = {.argv = argv.v, .signals = XL_SIGNALS_FORWARD, .stdio = XL_STDIO_QUIET};
		int64_t t0 = xl_now_ns();
		int st = xl_process_run(&p);
		total += xl_now_ns() - t0;
		strvec_release(&argv);
		if (st != 0) {
			char what[512];
			args_text(j->inputs[k], what, sizeof(what));
			xl_error("timing run of '%s' (%s) exited with status %d", exe, what, st);
			return -1;
		}
	}
	return total;
}

struct eval_build {
	const char *label;
	char exe[PATH_MAX];
	struct xl_symtab tab;
	char dir[PATH_MAX + NAME_MAX + 80]; /* captures */
	double *times;
};

static int eval_build(struct pgo_job *j, struct xl_sdk *sdk, struct eval_build *e, const char *pgo)
{
	j->a.pgo = pgo;
	struct xl_build b;
	xl_build_init(&b, &j->a, 1, XL_MODE_ALL, sdk->runtime, e->exe, NULL, &xl_stderr_msgs);
	int rc = xl_build_run(&b);
	if (rc)
		return xl_exit_for_build(rc, b.signal);
	char took[32], err[512];
	xl_fmt_duration(b.compile_ns, took, sizeof(took));
	xl_note("built the %s in %s", e->label, took);
	if (xl_symbols_read(e->exe, &e->tab, err, sizeof(err)) != 0) {
		xl_error("cannot read the symbols of the %s: %s", e->label, err);
		return XL_EXIT_BUILD;
	}
	return 0;
}

static void print_summary(const struct xl_diff *d, double ratio, double lo, double hi, long n, double base_ns,
			  double pgo_ns)
{
	char a[32], b[32];
	xl_fmt_duration((int64_t)base_ns, a, sizeof(a));
	xl_fmt_duration((int64_t)pgo_ns, b, sizeof(b));
	printf("PGO build: %.2f\u00d7 wall time (N=%ld, spread %.2f\u2013%.2f\u00d7; median %s \u2192 %s)", ratio, n,
	       lo, hi, a, b);
	size_t *idx = malloc((d->nfuncs + 1) * sizeof(size_t));
	if (idx) {
		xl_diff_sorted(d, XL_DSORT_SELF, idx);
		int shown = 0;
		for (size_t i = 0; i < d->nfuncs && shown < 3; i++) {
			const struct xl_diff_func *f = &d->funcs[idx[i]];
			double rel = xl_diff_rel(&f->self_ns);
			if (!f->present[XL_BASE] || !f->present[XL_NEW] || isnan(rel) || f->significant == 0)
				continue;
			printf("%s %s %+.0f %% self", shown ? "," : ";", f->name, 100.0 * rel);
			shown++;
		}
		free(idx);
	}
	putchar('\n');
}

/* Where the captures and the diff go: --out, else pgo/NAME-eval-STAMP
 * ("" when that does not fit). */
static void eval_outdir(const struct pgo_job *j, char *outdir, size_t len)
{
	if (j->out_opt) {
		snprintf(outdir, len, "%s", j->out_opt);
		return;
	}
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	if ((size_t)snprintf(outdir, len, "%.*s/%s-eval-%s", PATH_MAX - NAME_MAX - 64, j->pgodir, j->name, stamp) >=
	    len)
		outdir[0] = 0;
}

/* Timing: one untimed warm-up each, then N uncaptured runs each,
 * alternating which build goes first.  0 or an exit code (printed). */
static int timing_runs(const struct pgo_job *j, struct eval_build *e)
{
	xl_note("timing: %ld uncaptured runs of each build, alternating (%zu input%s each)", j->runs, j->ninputs,
		j->ninputs == 1 ? "" : "s");
	if (timed_run(e[0].exe, j) < 0 || timed_run(e[1].exe, j) < 0)
		return XL_EXIT_FAIL;
	for (long r = 0; r < j->runs; r++)
		for (int k = 0; k < 2; k++) {
			int which = (int)(r % 2) ^ k;
			int64_t t = timed_run(e[which].exe, j);
			if (t < 0)
				return XL_EXIT_FAIL;
			e[which].times[r] = (double)t;
		}
	return 0;
}

/* Captures: K of each, alternating, on the first input.  0 or an exit
 * code (printed). */
static int capture_runs(const struct pgo_job *j, struct eval_build *e, const struct xl_ctx *ctx)
{
	xl_note("capturing %ld run%s of each build to explain the difference", j->captures,
		j->captures == 1 ? "" : "s");
	for (long r = 0; r < j->captures; r++)
		for (int k = 0; k < 2; k++) {
			struct xl_session s = {0};
			s.exe = e[k].exe;
			s.args = j->inputs[0];
			s.capture = 1;
			s.mode = XL_MODE_ALL;
			s.buffer_size = 64u << 20;
			s.interval_ns = 100000000u;
			s.symtab = &e[k].tab;
			s.program = j->a.sources[0];
			s.command = ctx->argv;
			s.compile_ns = -1;
			s.no_open = 1;
			s.profiles_dir = e[k].dir;
			s.quiet = 1; /* one line per build below, not three per capture */
			int st = xl_session_run(&s);
			if (st != 0) {
				xl_error("captured run of the %s exited with status %d", e[k].label, st);
				return st > XL_EXIT_FAIL ? st : XL_EXIT_FAIL;
			}
		}
	for (int k = 0; k < 2; k++)
		xl_note("%s: %ld capture%s in %s/ (each with its index.html)", e[k].label, j->captures,
			j->captures == 1 ? "" : "s", e[k].dir);
	return 0;
}

/* The ratio of the timings and the diff of the captures: said in one
 * line, written to outdir/diff.{txt,html}.  0 or an exit code (printed). */
static int eval_result(const struct pgo_job *j, struct eval_build *e, const char *outdir, double *ratio,
		       const struct xl_ctx *ctx)
{
	for (long r = 0; r < j->runs; r++)
		ratio[r] = e[1].times[r] / e[0].times[r];
	double m = median(ratio, (size_t)j->runs), lo = ratio[0], hi = ratio[j->runs - 1];
	double mb = median(e[0].times, (size_t)j->runs), mp = median(e[1].times, (size_t)j->runs);
	struct xl_diff_side side[2];
	int rc = xl_diff_side_load(e[0].dir, &side[0]);
	if (!rc && (rc = xl_diff_side_load(e[1].dir, &side[1])) != 0)
		xl_diff_side_release(&side[0]);
	if (rc)
		return rc;
	struct xl_diff d;
	struct xl_diff_opts o = {XL_DSORT_SELF, 0, 0};
	char path[PATH_MAX + NAME_MAX + 80];
	if (xl_diff_build(&side[0], &side[1], 0, &d) != XL_OK) {
		xl_error("out of memory comparing the captures");
		rc = XL_EXIT_FAIL;
	} else {
		print_summary(&d, m, lo, hi, j->runs, mb, mp);
		snprintf(path, sizeof(path), "%s/diff.txt", outdir);
		if (xl_diff_write(&d, &o, "text", path) != 0)
			rc = XL_EXIT_FAIL;
		snprintf(path, sizeof(path), "%s/diff.html", outdir);
		if (!rc && xl_diff_write(&d, &o, "html", path) != 0)
			rc = XL_EXIT_FAIL;
		if (!rc) {
			printf("diff: %s/diff.txt, %s\n", outdir, path);
			xl_open_browser(path, ctx->no_open);
		}
		xl_diff_free(&d);
	}
	xl_diff_side_release(&side[0]);
	xl_diff_side_release(&side[1]);
	return rc;
}

static int pgo_evaluate(int argc, const char **argv, struct xl_ctx *ctx)
{
	struct pgo_job j = {.is_eval = 1};
	struct xl_sdk sdk;
	char err[1024], tmpdir[PATH_MAX - NAME_MAX - 8], outdir[PATH_MAX + NAME_MAX + 64];
	struct eval_build e[2] = {{.label = "release build"}, {.label = "PGO build"}};
	int rc = job_setup(argc, argv, ctx, &j);
	if (rc == XL_OPTS_PARSED)
		rc = 0;
	else if (!rc)
		rc = -1; /* help printed: exit 0 below */
	if (!rc && xl_pgo_check_profile(j.profile, &xl_stderr_msgs) != XL_OK)
		rc = XL_EXIT_USAGE;
	if (!rc && xl_sdk_find(&sdk, err, sizeof(err)) != 0) {
		xl_error("%s", err);
		rc = XL_EXIT_BUILD;
	}
	if (!rc && xl_make_temp_dir("pgo", tmpdir, sizeof(tmpdir)) != 0) {
		xl_error("cannot create a temporary build directory: %s", strerror(errno));
		rc = XL_EXIT_BUILD;
	}
	if (rc) {
		job_release(&j);
		return rc < 0 ? XL_EXIT_OK : rc;
	}
	char profile[sizeof(j.profile)];
	snprintf(profile, sizeof(profile), "%s", j.profile);
	eval_outdir(&j, outdir, sizeof(outdir));
	for (int k = 0; k < 2; k++) {
		snprintf(e[k].exe, sizeof(e[k].exe), "%s/%s%s", tmpdir, j.name, k ? "-pgo" : "");
		snprintf(e[k].dir, sizeof(e[k].dir), "%s/%s", outdir, k ? "pgo" : "base");
		e[k].times = calloc((size_t)j.runs, sizeof(double));
		if (!e[k].times)
			rc = XL_EXIT_FAIL;
	}
	for (int k = 0; !rc && k < 2; k++)
		rc = eval_build(&j, &sdk, &e[k], k ? profile : NULL);
	j.a.pgo = NULL;
	if (!rc && (xl_mkdirs(e[0].dir, 0777) != 0 || xl_mkdirs(e[1].dir, 0777) != 0)) {
		xl_error("cannot create '%s': %s", outdir, strerror(errno));
		rc = XL_EXIT_FAIL;
	}
	double *ratio = calloc((size_t)j.runs, sizeof(double));
	if (!rc && !ratio)
		rc = XL_EXIT_FAIL;
	if (!rc)
		rc = timing_runs(&j, e);
	if (!rc)
		rc = capture_runs(&j, e, ctx);
	if (!rc)
		rc = eval_result(&j, e, outdir, ratio, ctx);
	for (int k = 0; k < 2; k++) {
		unlink(e[k].exe);
		xl_symtab_release(&e[k].tab);
		free(e[k].times);
	}
	rmdir(tmpdir);
	free(ratio);
	job_release(&j);
	return rc;
}

int cmd_pgo(int argc, const char **argv, struct xl_ctx *ctx)
{
	static const struct xl_subcommand subs[] = {
		{"train", pgo_train, "build with PGO instrumentation, run the inputs, merge pgo/NAME.profdata"},
		{"evaluate", pgo_evaluate, "time and capture the plain and the PGO build, and diff them"},
		{NULL, NULL, NULL},
	};
	static const struct xl_usage usage = {
		"pgo",
		NULL,
		"Profile-guided optimisation with clang: train a profile, build with it (build/run --pgo FILE),\n"
		"and measure what it changed.",
		NULL,
		subs,
		NULL};
	return xl_dispatch(&usage, argc, argv, ctx);
}
