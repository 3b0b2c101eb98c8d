/*
 * ccline.c - read a compiler command line the way clang's driver does
 * (see ccline.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "ccline.h"
#include "strvec.h"
#include "xl_array.h"

/* Driver options whose value may be the next argument.  Reading one of
 * them without its value would make the value look like an input file
 * (`-MF deps.d`, `-o app`, `-x c`). */
static const char *const separate_value[] = {
	"-o",
	"-I",
	"-D",
	"-U",
	"-L",
	"-l",
	"-x",
	"-MF",
	"-MT",
	"-MQ",
	"-MJ",
	"-include",
	"-imacros",
	"-isystem",
	"-idirafter",
	"-iquote",
	"-isysroot",
	"-iprefix",
	"-iwithprefix",
	"-iwithprefixbefore",
	"-Xlinker",
	"-Xpreprocessor",
	"-Xassembler",
	"-Xclang",
	"-mllvm",
	"-target",
	"-arch",
	"-T",
	"-u",
	"-z",
	"-e",
	"-B",
	"--sysroot",
	"--param",
	"-dependency-file",
	"-serialize-diagnostics",
	"-F",
	"-G",
	"-aux-info",
	"--target",
	"-Xopenmp-target",
	"-ivfsoverlay",
	"-imultilib",
	"-isystem-after",
	NULL,
};

/* Options that ask the driver something instead of building. */
static const char *const info_only[] = {"--version", "-dumpversion",       "-dumpmachine", "-###",
					"--help",    "-print-search-dirs", "-dumpspecs",   NULL};

static int in_list(const char *a, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		if (strcmp(a, list[i]) == 0)
			return 1;
	return 0;
}

int xl_cc_is_source(const char *path)
{
	return xl_lang_is_clang_source(xl_source_lang(path));
}

static int push(struct strvec *s, const char *a)
{
	strvec_push(s, a);
	return s->oom ? -1 : 0;
}

static int expand(struct strvec *out, const char *arg, int depth, char *err, size_t errlen);

/* A response file: words separated by white space, with '…' and "…"
 * quoting and backslash escapes (GNU/clang's rules). */
static int read_response(struct strvec *out, const char *path, int depth, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	if (!f) {
		/* clang treats an unreadable @file as an input named "@file";
		 * so do we (the compiler reports it). */
		return push(out, path - 1);
	}
	char *word = NULL;
	size_t len = 0, cap = 0;
	int c, quote = 0, inword = 0, rc = 0;
	while (rc == 0 && (c = fgetc(f)) != EOF) {
		if (!quote && (c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
			if (inword) {
				word[len] = 0;
				rc = expand(out, word, depth + 1, err, errlen);
				len = 0;
				inword = 0;
			}
			continue;
		}
		if (c == '\\') {
			int d = fgetc(f);
			if (d == EOF)
				break;
			c = d;
		} else if (quote && c == quote) {
			quote = 0;
			continue;
		} else if (!quote && (c == '\'' || c == '"')) {
			quote = c;
			inword = 1;
			continue;
		}
		if (len + 2 > cap) {
			cap = cap ? 2 * cap : 128;
			char *w = realloc(word, cap);
			if (!w) {
				rc = -1;
				break;
			}
			word = w;
		}
		word[len++] = (char)c;
		inword = 1;
	}
	if (rc == 0 && inword) {
		if (!word && !(word = calloc(1, 1)))
			rc = -1;
		else {
			word[len] = 0;
			rc = expand(out, word, depth + 1, err, errlen);
		}
	}
	free(word);
	fclose(f);
	if (rc != 0 && !err[0])
		snprintf(err, errlen, "out of memory reading response file '%s'", path);
	return rc;
}

static int expand(struct strvec *out, const char *arg, int depth, char *err, size_t errlen)
{
	if (arg[0] == '@' && arg[1]) {
		if (depth > 20) {
			snprintf(err, errlen, "response files nested more than 20 deep ('%s')", arg);
			return -1;
		}
		return read_response(out, arg + 1, depth, err, errlen);
	}
	return push(out, arg);
}

static int add_ref(const char ***list, size_t *n, const char *s)
{
	const char **v = realloc(*list, (*n + 2) * sizeof(char *));
	if (!v)
		return -1;
	v[(*n)++] = s;
	v[*n] = NULL;
	*list = v;
	return 0;
}

/* cl->args: argv with its response files expanded.  0 or -1 (err). */
static int expand_all(int argc, const char *const *argv, struct xl_ccline *cl, char *err, size_t errlen)
{
	struct strvec s;
	strvec_init(&s);
	for (int i = 0; i < argc; i++)
		if (expand(&s, argv[i], 0, err, errlen) != 0) {
			strvec_release(&s);
			if (!err[0])
				snprintf(err, errlen, "out of memory");
			return -1;
		}
	cl->nargs = s.n;
	cl->args = strvec_detach(&s);
	if (!cl->args) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

int xl_ccline_parse(int argc, const char *const *argv, struct xl_ccline *cl, char *err, size_t errlen)
{
	memset(cl, 0, sizeof(*cl));
	err[0] = 0;
	if (expand_all(argc, argv, cl, err, errlen) != 0)
		return -1;
	const char *const *args = (const char *const *)cl->args;
	int compile = 0, preprocess = 0, shared = 0, reloc = 0, info = 0, verbose = 0, oom = 0;
	for (size_t i = 0; i < cl->nargs; i++) {
		const char *a = args[i];
		const char *val = i + 1 < cl->nargs ? args[i + 1] : NULL;
		if (a[0] != '-' || strcmp(a, "-") == 0) {
			oom |= add_ref(&cl->inputs, &cl->ninputs, a);
			continue;
		}
		if (in_list(a, separate_value)) {
			if (!val)
				continue; /* the driver reports the missing value */
			if (strcmp(a, "-o") == 0)
				cl->output = val;
			else if (strcmp(a, "-L") == 0)
				oom |= add_ref(&cl->libdirs, &cl->nlibdirs, val);
			else if (strcmp(a, "-l") == 0)
				oom |= add_ref(&cl->libs, &cl->nlibs, val);
			i++;
			continue;
		}
		if (strncmp(a, "-o", 2) == 0)
			cl->output = a + 2;
		else if (strncmp(a, "-L", 2) == 0)
			oom |= add_ref(&cl->libdirs, &cl->nlibdirs, a + 2);
		else if (strncmp(a, "-l", 2) == 0)
			oom |= add_ref(&cl->libs, &cl->nlibs, a + 2);
		else if (!strcmp(a, "-c") || !strcmp(a, "-S") || !strcmp(a, "-fsyntax-only"))
			compile = 1;
		else if (!strcmp(a, "-E") || !strcmp(a, "-M") || !strcmp(a, "-MM"))
			preprocess = 1;
		else if (!strcmp(a, "-shared"))
			shared = 1;
		else if (!strcmp(a, "-r"))
			reloc = 1;
		else if (!strcmp(a, "-static"))
			cl->is_static = 1;
		else if (!strcmp(a, "-v"))
			verbose = 1;
		else if (in_list(a, info_only) || !strncmp(a, "-print-", 7) || !strncmp(a, "--print-", 8))
			info = 1;
	}
	if (oom) {
		xl_ccline_release(cl);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	(void)verbose; /* `cc -v` alone has no input: INFO below; with inputs it builds */
	if (info || cl->ninputs == 0)
		cl->step = XL_CC_INFO;
	else if (preprocess)
		cl->step = XL_CC_PREPROCESS;
	else if (compile)
		cl->step = XL_CC_COMPILE;
	else if (shared)
		cl->step = XL_CC_LINK_SHARED;
	else if (reloc)
		cl->step = XL_CC_LINK_OTHER;
	else
		cl->step = XL_CC_LINK_EXE;
	return 0;
}

void xl_ccline_release(struct xl_ccline *cl)
{
	for (size_t i = 0; cl->args && cl->args[i]; i++)
		free(cl->args[i]);
	free(cl->args);
	free(cl->inputs);
	free(cl->libdirs);
	free(cl->libs);
	memset(cl, 0, sizeof(*cl));
}

const char *xl_ccline_exe(const struct xl_ccline *cl)
{
	return cl->output ? cl->output : "a.out";
}

int xl_ccline_is_probe(const struct xl_ccline *cl)
{
	const char *out = xl_ccline_exe(cl);
	const char *base = strrchr(out, '/');
	base = base ? base + 1 : out;
	if (!strncmp(base, "conftest", 8) || !strncmp(base, "cmTC_", 5))
		return 1;
	for (size_t i = 0; i < cl->ninputs; i++) { /* autoconf's `cc conftest.c` writes a.out */
		const char *in = strrchr(cl->inputs[i], '/');
		if (!strncmp(in ? in + 1 : cl->inputs[i], "conftest", 8))
			return 1;
		if (strcmp(cl->inputs[i], "-") == 0) /* source on stdin: a hand-written probe (LevelDB's) */
			return 1;
	}
	char cwd[PATH_MAX];
	const char *markers[] = {"/CMakeFiles/", "/meson-private/"};
	int have_cwd = getcwd(cwd, sizeof(cwd) - 1) != NULL;
	if (have_cwd)
		strcat(cwd, "/");
	for (size_t i = 0; i < XL_ARRAY_SIZE(markers); i++)
		if (strstr(out, markers[i]) || (have_cwd && strstr(cwd, markers[i])))
			return 1;
	return 0;
}
