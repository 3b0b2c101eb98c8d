/*
 * tailcall.c - the ARM64 tail-call workaround of XRay builds (tailcall.h).
 *
 * Which functions make musttail calls is read from clang's own LLVM IR of
 * each source, not guessed from the text: a `musttail call` instruction
 * inside a `define` is exactly what XRay's tail-exit sled would wrap.  Only
 * sources whose text mentions "musttail" are compiled a second time, so
 * ordinary builds pay nothing.  The exclusion list is an XRay attribute
 * list (-fxray-attr-list) with one `fun:` entry per function, by its
 * symbol (mangled) name, which is what clang matches.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "demangle.h"
#include "process.h"
#include "strvec.h"
#include "tailcall.h"
#include "toolchain.h"
#include "fileio.h"

int xl_tailcall_workaround(void)
{
	const char *v = getenv("EXALOOP_XRAY_TAILCALL_WORKAROUND");
	if (v && *v)
		return strcmp(v, "0") != 0;
	return strcmp(xl_target_arch(), "aarch64") == 0;
}

/* Whether a file's text contains "musttail" (a source, or an IR file's
 * line).  Unreadable files count as "no": the build reports them. */
static int mentions_musttail(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	char *line = NULL;
	size_t cap = 0;
	int hit = 0;
	while (!hit && getline(&line, &cap, f) >= 0)
		hit = strstr(line, "musttail") != NULL;
	free(line);
	fclose(f);
	return hit;
}

/* The symbol name of an IR `define` line: `@name(` or `@"quoted"(` with
 * \XX escapes.  Returns a new string, or NULL. */
static char *define_name(const char *line)
{
	const char *at = strchr(line, '@');
	if (!at)
		return NULL;
	at++;
	size_t n = strlen(at);
	char *out = malloc(n + 1);
	if (!out)
		return NULL;
	size_t k = 0;
	if (*at == '"') {
		for (const char *p = at + 1; *p && *p != '"'; p++) {
			unsigned v;
			if (*p == '\\' && sscanf(p + 1, "%2x", &v) == 1) {
				out[k++] = (char)v;
				p += 2;
			} else {
				out[k++] = *p;
			}
		}
	} else {
		for (const char *p = at; *p && *p != '('; p++)
			out[k++] = *p;
	}
	out[k] = 0;
	if (k == 0) {
		free(out);
		return NULL;
	}
	return out;
}

/* Append the functions of one IR file that make musttail calls to the
 * list file, warning about each.  Returns how many, or -1. */
static int scan_ir(const char *ir, const char *source, FILE *list, const struct xl_msgs *m)
{
	FILE *f = fopen(ir, "r");
	if (!f)
		return -1;
	char *line = NULL, *fn = NULL;
	size_t cap = 0;
	int found = 0, marked = 0;
	while (getline(&line, &cap, f) >= 0) {
		if (strncmp(line, "define ", 7) == 0) {
			free(fn);
			fn = define_name(line);
			marked = 0;
		} else if (line[0] == '}') {
			free(fn);
			fn = NULL;
		} else if (fn && !marked && strstr(line, " musttail call ")) {
			marked = 1;
			found++;
			/* Special-case lists read entries as patterns: escape
			 * everything but name characters. */
			fputs("fun:", list);
			for (const char *c = fn; *c; c++) {
				if (!(*c == '_' || (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') ||
				      (*c >= 'A' && *c <= 'Z')))
					fputc('\\', list);
				fputc(*c, list);
			}
			fputc('\n', list);
			char *shown = xl_demangle(fn);
			xl_msgf(m, XL_MSG_WARN,
				"%s: '%s' makes musttail calls: excluded from XRay tracing on this architecture "
				"(its time shows in its callers)",
				source, shown ? shown : fn);
			free(shown);
		}
	}
	free(fn);
	free(line);
	fclose(f);
	return found;
}

int xl_musttail_exclusions(const char *compiler, const struct xl_build_args *a, char *list, size_t len,
			   const struct xl_msgs *m)
{
	list[0] = 0;
	/* Each source is read once: which ones need their IR. */
	char *wanted = calloc(a->nsources ? a->nsources : 1, 1);
	size_t candidates = 0;
	for (size_t i = 0; wanted && i < a->nsources; i++)
		candidates += (size_t)(wanted[i] = (char)mentions_musttail(a->sources[i]));
	if (!wanted || !candidates) {
		free(wanted);
		return wanted ? 0 : -1;
	}

	char ir[PATH_MAX];
	int lfd = xl_make_temp_file("xray-never", list, len);
	int ifd = lfd >= 0 ? xl_make_temp_file("ir", ir, sizeof(ir)) : -1;
	FILE *lf = lfd >= 0 ? fdopen(lfd, "w") : NULL;
	if (!lf || ifd < 0) {
		xl_msgf(m, XL_MSG_ERROR, "cannot create a temporary file: %s", strerror(errno));
		if (lfd >= 0) {
			lf ? fclose(lf) : close(lfd);
			unlink(list);
		}
		if (ifd >= 0) {
			close(ifd);
			unlink(ir);
		}
		list[0] = 0;
		free(wanted);
		return -1;
	}
	close(ifd);
	fputs("# written by exaloop: functions with musttail calls, kept out of XRay\n[never]\n", lf);

	int total = 0, rc = 0;
	for (size_t i = 0; i < a->nsources && rc == 0; i++) {
		if (!wanted[i])
			continue;
		/* The user's flags matter (-I, -D, -std); link flags are unused
		 * with -S and -w keeps that quiet.  Errors are the real build's
		 * to report, with the user's own diagnostics. */
		struct strvec argv;
		strvec_init(&argv);
		const char *const head[] = {compiler, "-S", "-emit-llvm", "-O0", "-w", NULL};
		strvec_pushv(&argv, head);
		for (size_t k = 0; k < a->nflags; k++)
			strvec_push(&argv, a->flags[k]);
		const char *const tail[] = {"-o", ir, a->sources[i], NULL};
		strvec_pushv(&argv, tail);
		struct xl_process cc = {.argv = argv.v, .signals = XL_SIGNALS_FORWARD, .stdio = XL_STDIO_QUIET};
		int st = argv.oom ? -1 : xl_process_run(&cc);
		strvec_release(&argv);
		if (st != 0) {
			rc = -1;
			break;
		}
		int got = scan_ir(ir, a->sources[i], lf, m);
		if (got < 0)
			rc = -1;
		else
			total += got;
	}
	free(wanted);
	unlink(ir);
	if (fclose(lf) != 0 || rc != 0 || total == 0) {
		unlink(list);
		list[0] = 0;
	}
	return rc;
}
