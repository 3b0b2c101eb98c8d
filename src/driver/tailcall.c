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

/* A function of one IR file that makes musttail calls: its symbol name,
 * its debug-info id (`!dbg !N` on its define; -1: none) and the source
 * line that id's DISubprogram gives (0: unknown). */
struct mt_func {
	char *name;
	long dbg, line;
};

struct mt_scan {
	struct mt_func *v;
	size_t n, cap;
};

static long dbg_ref(const char *define)
{
	const char *d = strstr(define, "!dbg !");
	return d ? strtol(d + 6, NULL, 10) : -1;
}

/* `!N = distinct !DISubprogram(... line: L, ...)`: the line of any found
 * function whose id is N. */
static void note_subprogram(struct mt_scan *sc, const char *line)
{
	long id;
	const char *at = strstr(line, "line: ");
	if (line[0] != '!' || !strstr(line, "!DISubprogram(") || !at || sscanf(line + 1, "%ld", &id) != 1)
		return;
	for (size_t i = 0; i < sc->n; i++)
		if (sc->v[i].dbg == id)
			sc->v[i].line = strtol(at + 6, NULL, 10);
}

static int add_func(struct mt_scan *sc, const char *define)
{
	if (sc->n == sc->cap) {
		size_t cap = sc->cap ? 2 * sc->cap : 8;
		struct mt_func *v = realloc(sc->v, cap * sizeof(*v));
		if (!v)
			return -1;
		sc->v = v;
		sc->cap = cap;
	}
	char *name = define_name(define);
	if (!name)
		return -1;
	sc->v[sc->n++] = (struct mt_func){name, dbg_ref(define), 0};
	return 0;
}

/* The list entry (special-case lists read entries as patterns: everything
 * but name characters escaped) and the compiler-style warning, with the
 * function's line when the IR has it. */
static void report_func(const struct mt_func *f, const char *source, FILE *list, const struct xl_msgs *m)
{
	fputs("fun:", list);
	for (const char *c = f->name; *c; c++) {
		if (!(*c == '_' || (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')))
			fputc('\\', list);
		fputc(*c, list);
	}
	fputc('\n', list);
	char *shown = xl_demangle(f->name);
	char where[32] = "";
	if (f->line > 0)
		snprintf(where, sizeof(where), ":%ld", f->line);
	xl_msgf(m, XL_MSG_WARN,
		"%s%s: '%s' makes musttail calls: excluded from XRay tracing on this architecture (its time "
		"shows in its callers)",
		source, where, shown ? shown : f->name);
	free(shown);
}

/* Append the functions of one IR file that make musttail calls to the
 * list file, warning about each.  Returns how many, or -1. */
static int scan_ir(const char *ir, const char *source, FILE *list, const struct xl_msgs *m)
{
	FILE *f = fopen(ir, "r");
	if (!f)
		return -1;
	char *line = NULL, *define = NULL;
	size_t cap = 0;
	struct mt_scan sc = {0};
	int marked = 0, rc = 0;
	while (rc == 0 && getline(&line, &cap, f) >= 0) {
		if (strncmp(line, "define ", 7) == 0) {
			free(define);
			define = strdup(line);
			marked = 0;
		} else if (line[0] == '}') {
			free(define);
			define = NULL;
		} else if (define && !marked && strstr(line, " musttail call ")) {
			marked = 1;
			rc = add_func(&sc, define);
		} else {
			note_subprogram(&sc, line);
		}
	}
	for (size_t i = 0; i < sc.n; i++) {
		if (rc == 0)
			report_func(&sc.v[i], source, list, m);
		free(sc.v[i].name);
	}
	free(sc.v);
	free(define);
	free(line);
	fclose(f);
	return rc == 0 ? (int)sc.n : -1;
}

/* The IR compile of one source for the scan: the user's flags matter (-I,
 * -D, -std), and so does the target architecture; link flags are unused
 * with -S, and -w keeps that quiet.  Line tables give the warnings their
 * lines. */
static void scan_command(struct strvec *argv, const char *compiler, const struct xl_build_args *a, const char *source,
			 const char *ir)
{
	const char *const head[] = {compiler, "-S", "-emit-llvm", "-O0", "-w", "-gline-tables-only", NULL};
	strvec_pushv(argv, head);
	xl_arch_flags(argv);
	for (size_t k = 0; k < a->nflags; k++)
		strvec_push(argv, a->flags[k]);
	const char *const tail[] = {"-o", ir, source, NULL};
	strvec_pushv(argv, tail);
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
		/* Errors are the real build's to report, with the user's own
		 * diagnostics. */
		struct strvec argv;
		strvec_init(&argv);
		scan_command(&argv, compiler, a, a->sources[i], ir);
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
