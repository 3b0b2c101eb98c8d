/*
 * args.c - split `run`/`build` command lines (see args.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "units.h"
#include "xl_array.h"

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n > k && strcmp(s + n - k, suffix) == 0;
}

/* The one suffix rule: what clang's driver takes each file for without
 * -x (its types.def), plus Codon, objects and archives.  `run` and
 * `build` (args.c, srcbuild.c) and the compiler wrappers (ccline.c) all
 * read inputs through it. */
static const struct {
	const char *suffix;
	enum xl_lang lang;
} suffixes[] = {
	{".c", XL_LANG_C},         {".i", XL_LANG_C},      {".cc", XL_LANG_CXX},   {".cp", XL_LANG_CXX},
	{".cxx", XL_LANG_CXX},     {".cpp", XL_LANG_CXX},  {".CPP", XL_LANG_CXX},  {".c++", XL_LANG_CXX},
	{".C", XL_LANG_CXX},       {".ii", XL_LANG_CXX},   {".m", XL_LANG_OBJC},   {".mm", XL_LANG_OBJCXX},
	{".codon", XL_LANG_CODON}, {".o", XL_LANG_OBJECT}, {".a", XL_LANG_OBJECT},
};

enum xl_lang xl_source_lang(const char *path)
{
	for (size_t i = 0; i < XL_ARRAY_SIZE(suffixes); i++)
		if (ends_with(path, suffixes[i].suffix))
			return suffixes[i].lang;
	return XL_LANG_NONE;
}

int xl_lang_is_clang_source(enum xl_lang lang)
{
	return lang == XL_LANG_C || lang == XL_LANG_CXX || lang == XL_LANG_OBJC || lang == XL_LANG_OBJCXX;
}

/* The suffixes of lang, as a message lists them (".cc, .cp, ..."). */
static void suffixes_of(enum xl_lang lang, char *out, size_t len)
{
	size_t k = 0;
	out[0] = 0;
	for (size_t i = 0; i < XL_ARRAY_SIZE(suffixes) && k < len; i++)
		if (suffixes[i].lang == lang)
			k += (size_t)snprintf(out + k, len - k, "%s%s", k ? " " : "", suffixes[i].suffix);
}

const char xl_build_options_help[] =
	"build options (between the command and the first input):\n"
	"  -release              optimised build (-O3 -g; the default is -O0 -g)\n"
	"  -debug                debug build (the default)\n"
	"  --pgo FILE            build with the PGO profile FILE (exaloop pgo train makes one)\n"
	"  -jN                   N parallel compiles (default: one per CPU)\n"
	"  -I, -D, -U, -l, -L, -isystem, -include VALUE (attached or separate)\n"
	"  -O..., -g..., -std=..., -W..., -f..., -m...\n"
	"  -pthread, -rdynamic, -static, -pie, -no-pie, -shared (not with --profile)\n"
	"\n"
	"inputs: C (.c) and C++ (.cc .cpp .cxx) sources, objects (.o), archives (.a)\n";

/* Options that take their value in the next argument when not attached. */
static const char *const with_value[] = {"-I", "-D", "-U", "-l", "-L", "-isystem", "-include", "-o"};
/* Prefixes of single-argument compiler options passed through. */
static const char *const passthrough[] = {"-O", "-g", "-std=", "-W", "-f",       "-m",      "-I",
					  "-D", "-U", "-l",    "-L", "-isystem", "-include"};
static const char *const exact[] = {"-pthread", "-rdynamic", "-static", "-shared", "-pie", "-no-pie"};
/* --pgo FILE, --pgo=FILE at argv[*ip] (advancing *ip past its value). */
static int option_pgo(int argc, const char **argv, int *ip, struct xl_build_args *out, char *err, size_t errlen)
{
	int i = *ip;
	const char *a = argv[i];
	if (a[5] == '=')
		out->pgo = a + 6;
	else if (i + 1 < argc)
		out->pgo = argv[ *ip = i + 1];
	if (!out->pgo || !*out->pgo) {
		snprintf(err, errlen, "'--pgo' needs a profile: --pgo pgo/NAME.profdata (made by 'exaloop pgo train')");
		return -1;
	}
	/* "--pgo app.c -o app" forgot the profile: the source would be read as
	 * one, and the build would then say it has no source */
	enum xl_lang l = xl_source_lang(out->pgo);
	if (l != XL_LANG_NONE && l != XL_LANG_OBJECT) {
		snprintf(err, errlen,
			 "'--pgo' needs a profile before the sources, not '%s': --pgo pgo/NAME.profdata %s", out->pgo,
			 out->pgo);
		return -1;
	}
	return 0;
}

/* -jN, -j N at argv[*ip]. */
static int option_jobs(int argc, const char **argv, int *ip, struct xl_build_args *out, char *err, size_t errlen)
{
	int i = *ip;
	const char *a = argv[i];
	const char *v = a[2] ? a + 2 : i + 1 < argc ? argv[++i] : "";
	long n;
	if (xl_parse_long(v, 1, 1024, &n) != 0) {
		snprintf(err, errlen, "'-j' needs a number of parallel compiles from 1 to 1024 (got '%s')", v);
		return -1;
	}
	out->jobs = (int)n;
	*ip = i;
	return 0;
}

/* -oFILE, -o FILE at argv[*ip]: build's, not run's. */
static int option_output(int argc, const char **argv, int *ip, int allow_output, struct xl_build_args *out, char *err,
			 size_t errlen)
{
	int i = *ip;
	const char *a = argv[i];
	if (!allow_output) {
		snprintf(err, errlen, "'-o' is an option of 'build'; 'run' builds into a temporary directory");
		return -1;
	}
	if (a[2]) {
		out->output = a + 2;
		return 0;
	}
	if (i + 1 >= argc) {
		snprintf(err, errlen, "'-o' needs a file name");
		return -1;
	}
	out->output = argv[++i];
	*ip = i;
	return 0;
}

/* One build option at argv[*i] (advancing *i past its value). */
static int parse_option(int argc, const char **argv, int *ip, int allow_output, int (*is_global)(const char *),
			const char *cmd, struct xl_build_args *out, char *err, size_t errlen)
{
	int i = *ip;
	const char *a = argv[i];
	int global = is_global ? is_global(a) : 0;
	if (global) {
		size_t n = strcspn(a, "=");
		const char *value = global == 2 && i + 1 < argc ? argv[i + 1] : NULL;
		snprintf(err, errlen, "'%.*s' must come before '%s': exaloop %s%s%s %s ...", (int)n, a, cmd, a,
			 value ? " " : "", value ? value : "", cmd);
		return -1;
	}
	if (strcmp(a, "-release") == 0) {
		out->release = 1;
		return 0;
	}
	if (strcmp(a, "-debug") == 0) {
		out->release = 0;
		return 0;
	}
	if (strcmp(a, "--pgo") == 0 || strncmp(a, "--pgo=", 6) == 0)
		return option_pgo(argc, argv, ip, out, err, errlen);
	if (strncmp(a, "-j", 2) == 0)
		return option_jobs(argc, argv, ip, out, err, errlen);
	if (strncmp(a, "-o", 2) == 0)
		return option_output(argc, argv, ip, allow_output, out, err, errlen);
	for (size_t k = 0; k < XL_ARRAY_SIZE(with_value); k++) {
		if (strcmp(a, with_value[k]) != 0)
			continue;
		if (i + 1 >= argc) {
			snprintf(err, errlen, "'%s' needs a value", a);
			return -1;
		}
		out->flags[out->nflags++] = a;
		out->flags[out->nflags++] = argv[++i];
		*ip = i;
		return 0;
	}
	int ok = 0;
	for (size_t k = 0; k < XL_ARRAY_SIZE(exact) && !ok; k++)
		ok = strcmp(a, exact[k]) == 0;
	for (size_t k = 0; k < XL_ARRAY_SIZE(passthrough) && !ok; k++)
		ok = strncmp(a, passthrough[k], strlen(passthrough[k])) == 0;
	if (!ok) {
		snprintf(
			err, errlen,
			"unknown build option '%s' (build options are -release, -debug, -jN, -o, --pgo, -I, -D, -U, -l, -L, "
			"-O..., -g..., -std=..., -W..., -f..., -m..., -pthread%s)",
			a, allow_output ? "" : "; program arguments go after the source");
		return -1;
	}
	if (strcmp(a, "-shared") == 0)
		out->shared = 1;
	out->flags[out->nflags++] = a;
	return 0;
}

int xl_split_build_args(int argc, const char **argv, int allow_output, int (*is_global)(const char *arg),
			struct xl_build_args *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	const char *cmd = argv[0];
	out->flags = calloc((size_t)argc + 1, sizeof(char *));
	out->sources = calloc((size_t)argc + 1, sizeof(char *));
	out->prog_args = calloc((size_t)argc + 1, sizeof(char *));
	if (!out->flags || !out->sources || !out->prog_args) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* `run`: options, then sources, then program arguments.  `build` has no
	 * program arguments, so options and sources may come in any order
	 * (`build -release app.c -o app`). */
	int i = 1;
	for (; i < argc; i++) {
		const char *a = argv[i];
		int is_opt = a[0] == '-' && a[1] != 0;
		if (strcmp(a, "--") == 0) {
			if (allow_output) {
				snprintf(err, errlen, "'--': 'build' takes no program arguments");
				return -1;
			}
			out->dashdash = 1;
			i++;
			break;
		}
		if (!is_opt) {
			enum xl_lang lang = xl_source_lang(a);
			if (lang == XL_LANG_OBJC || lang == XL_LANG_OBJCXX) {
				snprintf(err, errlen,
					 "'%s' is an Objective-C source: '%s' builds C and C++ (build an Objective-C "
					 "project with its own build: exaloop --profile build -- make)",
					 a, cmd);
				return -1;
			}
			if (lang != XL_LANG_NONE) {
				out->sources[out->nsources++] = a;
				continue;
			}
			if (out->nsources && !allow_output)
				break; /* the program's first argument */
			if (out->nsources)
				snprintf(
					err, errlen,
					"'%s' is not a source file or build option ('build' takes no program arguments)",
					a);
			else {
				char c[64], cxx[128];
				suffixes_of(XL_LANG_C, c, sizeof(c));
				suffixes_of(XL_LANG_CXX, cxx, sizeof(cxx));
				snprintf(err, errlen,
					 "'%s' is not a source file (expected C: %s, C++: %s, Codon: .codon, or an "
					 "object .o or archive .a)",
					 a, c, cxx);
			}
			return -1;
		}
		if (out->nsources && !allow_output)
			break; /* options after the source belong to the program */
		if (parse_option(argc, argv, &i, allow_output, is_global, cmd, out, err, errlen) != 0)
			return -1;
	}
	if (out->nsources == 0) {
		snprintf(err, errlen, "no source file given: exaloop %s [options] SOURCE [args...]", cmd);
		return -1;
	}
	for (; i < argc; i++)
		out->prog_args[out->nprog++] = argv[i];
	return 0;
}

void xl_build_args_release(struct xl_build_args *a)
{
	free(a->flags);
	free(a->sources);
	free(a->prog_args);
	memset(a, 0, sizeof(*a));
}

const char *xl_link_like_arg(const struct xl_build_args *a)
{
	for (size_t i = 0; i < a->nprog; i++) {
		const char *p = a->prog_args[i];
		if (!strncmp(p, "-l", 2) || !strncmp(p, "-L", 2) || !strncmp(p, "-Wl,", 4) || !strcmp(p, "-pthread") ||
		    ends_with(p, ".o") || ends_with(p, ".a") || ends_with(p, ".so"))
			return p;
	}
	return NULL;
}

void xl_default_output(const char *source, char *out, size_t len)
{
	const char *base = strrchr(source, '/');
	base = base ? base + 1 : source;
	const char *dot = strrchr(base, '.');
	size_t n = dot ? (size_t)(dot - base) : strlen(base); /* ".c" leaves nothing */
	if (n == 0)
		snprintf(out, len, "a.out");
	else
		snprintf(out, len, "%.*s", (int)n, base);
}
