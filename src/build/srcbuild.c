/*
 * srcbuild.c - compile each source with its own driver through the
 * object cache, then link (see srcbuild.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exaloop/xl_capture.h"
#include "exitcode.h"
#include "fileio.h"
#include "msg.h"
#include "objcache.h"
#include "pgo_diag.h"
#include "process.h"
#include "srcbuild.h"
#include "tailcall.h"
#include "units.h"

void xl_build_init(struct xl_build *b, const struct xl_build_args *a, int profile, uint32_t mode, const char *runtime,
		   const char *output, const char *outdir)
{
	memset(b, 0, sizeof(*b));
	b->args = a;
	b->mode = !profile                 ? XL_BUILD_PLAIN
		  : mode == XL_MODE_MEMORY ? XL_BUILD_MEMORY
		  : mode == XL_MODE_XRAY   ? XL_BUILD_XRAY
					   : XL_BUILD_ALL;
	b->runtime = profile ? runtime : NULL;
	b->output = output;
	b->outdir = outdir;
	b->xray_threshold = 1;
}

/* Where a build option applies. */
enum {
	TO_BOTH,
	TO_COMPILE,
	TO_LINK,
	TO_C,
	TO_CXX
};

static int flag_target(const char *f)
{
	static const char *const compile[] = {"-I", "-D", "-U", "-isystem", "-include", NULL};
	static const char *const link[] = {"-l", "-L", "-Wl,", NULL};
	static const char *const link_exact[] = {"-static", "-shared", "-pie", "-no-pie", "-rdynamic", NULL};
	if (!strncmp(f, "-std=", 5))
		return strstr(f, "++") ? TO_CXX : TO_C;
	for (size_t i = 0; link_exact[i]; i++)
		if (!strcmp(f, link_exact[i]))
			return TO_LINK;
	for (size_t i = 0; link[i]; i++)
		if (!strncmp(f, link[i], strlen(link[i])))
			return TO_LINK;
	for (size_t i = 0; compile[i]; i++)
		if (!strncmp(f, compile[i], strlen(compile[i])))
			return TO_COMPILE;
	if (!strncmp(f, "-W", 2))
		return TO_COMPILE;
	return TO_BOTH; /* -O -g -f -m -pthread */
}

/* Options stored with their value in the next entry (args.c). */
static int takes_value(const char *f)
{
	static const char *const v[] = {"-I", "-D", "-U", "-l", "-L", "-isystem", "-include", NULL};
	for (size_t i = 0; v[i]; i++)
		if (!strcmp(f, v[i]))
			return 1;
	return 0;
}

/* Append the build options that apply to `to` (a compile of lang, or the
 * link: lang XL_LANG_NONE). */
static size_t add_flags(const struct xl_build_args *a, enum xl_lang lang, const char **argv, size_t n)
{
	for (size_t i = 0; i < a->nflags; i++) {
		const char *f = a->flags[i];
		int t = flag_target(f), with = takes_value(f) && i + 1 < a->nflags;
		int yes = lang == XL_LANG_NONE ? (t == TO_BOTH || t == TO_LINK)
					       : t == TO_BOTH || t == TO_COMPILE || (t == TO_C && lang == XL_LANG_C) ||
							 (t == TO_CXX && lang == XL_LANG_CXX);
		if (yes) {
			argv[n++] = f;
			if (with)
				argv[n++] = a->flags[i + 1];
		}
		i += (size_t)with;
	}
	return n;
}

/* Does the object define a global `main`?  (libelf; objects only.) */
static int defines_main(const char *obj)
{
	int fd = open(obj, O_RDONLY | O_CLOEXEC), found = 0;
	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	Elf_Scn *scn = NULL;
	while (e && !found && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize && !found; i++) {
			GElf_Sym sym;
			if (!gelf_getsym(d, (int)i, &sym) || sym.st_shndx == SHN_UNDEF ||
			    GELF_ST_BIND(sym.st_info) != STB_GLOBAL)
				continue;
			const char *name = elf_strptr(e, sh.sh_link, sym.st_name);
			found = name && strcmp(name, "main") == 0;
		}
	}
	elf_end(e);
	close(fd);
	return found;
}

/* A failed link is most often a library the program needs: name it. */
static int includes(const struct xl_build_args *a, const char *name)
{
	char line[512];
	for (size_t i = 0; i < a->nsources; i++) {
		enum xl_lang l = xl_source_lang(a->sources[i]);
		/* Regular files only, their first 4 MiB: a source linked to
		 * /dev/zero kept exaloop reading forever after the failed build. */
		int fd = l == XL_LANG_C || l == XL_LANG_CXX ? xl_open_regular(a->sources[i]) : -1;
		FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
		if (!f) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		while (ftell(f) < (4L << 20) && fgets(line, sizeof(line), f)) {
			const char *p = line + strspn(line, " \t");
			if (*p == '#' && strstr(p, "include") && strstr(p, name)) {
				fclose(f);
				return 1;
			}
		}
		fclose(f);
	}
	return 0;
}

static int has_flag(const struct xl_build_args *a, const char *flag)
{
	for (size_t i = 0; i < a->nflags; i++)
		if (strcmp(a->flags[i], flag) == 0)
			return 1;
	return 0;
}

static void hint_libraries(const struct xl_build_args *a)
{
	if (includes(a, "gc.h>") && !has_flag(a, "-lgc"))
		xl_hint("the program includes <gc.h>: add -lgc after 'run' or 'build' (exaloop --profile run -lgc app.c)");
	if (includes(a, "<math.h>") && !has_flag(a, "-lm"))
		xl_hint("the program includes <math.h>: if the linker reports missing math functions, add -lm");
	if (includes(a, "<pthread.h>") && !has_flag(a, "-pthread") && !has_flag(a, "-lpthread"))
		xl_hint("the program includes <pthread.h>: if the linker reports missing pthread functions, add -pthread");
}

static int interrupted(int rc)
{
	return rc > 128 && (rc - 128 == SIGINT || rc - 128 == SIGTERM || rc - 128 == SIGHUP || rc - 128 == SIGQUIT);
}

/* Check the inputs and find the drivers.  Returns 0 or an exit code. */
static int prepare(struct xl_build *b, int *any_cxx, char (*cc)[256])
{
	const struct xl_build_args *a = b->args;
	*any_cxx = 0;
	int any_c = 0;
	for (size_t i = 0; i < a->nsources; i++) {
		enum xl_lang l = xl_source_lang(a->sources[i]);
		if (l == XL_LANG_CODON) {
			xl_error("'%s' is a Codon source, and no Codon toolchain is installed here", a->sources[i]);
			xl_hint("exaloop builds C (.c) and C++ (.cc, .cpp, .cxx) with clang 14; a Codon source needs the "
				"Codon compiler and its profiling SDK");
			return XL_EXIT_BUILD;
		}
		*any_cxx |= l == XL_LANG_CXX;
		any_c |= l == XL_LANG_C;
		b->nsources += l == XL_LANG_C || l == XL_LANG_CXX;
		if (access(a->sources[i], R_OK) != 0) {
			xl_error("cannot read %s '%s': %s", l == XL_LANG_OBJECT ? "input" : "source", a->sources[i],
				 strerror(errno));
			return XL_EXIT_BUILD;
		}
		/* A source must be a file: one linked to /dev/zero or a FIFO
		 * would be read without end (the object cache hashes sources,
		 * the hint scan reads them). */
		struct stat st;
		if (stat(a->sources[i], &st) == 0 && !S_ISREG(st.st_mode)) {
			xl_error("%s '%s' is not a regular file", l == XL_LANG_OBJECT ? "input" : "source",
				 a->sources[i]);
			return XL_EXIT_BUILD;
		}
	}
	/* cc[0]: C, cc[1]: C++.  The link needs C's driver even without C
	 * sources (objects only) unless C++ is there. */
	enum xl_lang need[2] = {any_c || !*any_cxx ? XL_LANG_C : XL_LANG_NONE, *any_cxx ? XL_LANG_CXX : XL_LANG_NONE};
	for (int k = 0; k < 2; k++) {
		if (need[k] == XL_LANG_NONE)
			continue;
		if (xl_find_compiler(need[k], cc[k], 256) != 0) {
			xl_error("no %s compiler found (looked for %s in PATH)", k ? "C++" : "C",
				 k ? "clang++-14, clang++" : "clang-14, clang");
			xl_hint("install it: apt-get install clang-14 libclang-rt-14-dev");
			return XL_EXIT_BUILD;
		}
	}
	memcpy(b->compiler, cc[*any_cxx ? 1 : 0], sizeof(b->compiler));
	xl_compiler_version(b->compiler, b->compiler_version, sizeof(b->compiler_version));
	if (b->mode == XL_BUILD_ALL || b->mode == XL_BUILD_XRAY) {
		char rt[PATH_MAX];
		if (xl_xray_runtime(b->compiler, rt, sizeof(rt)) != 0) {
			xl_error("function tracing needs LLVM's XRay runtime, which '%s' cannot find", b->compiler);
			xl_hint("install it (apt-get install libclang-rt-14-dev); memory capture is still available: "
				"exaloop --profile=memory run ...");
			return XL_EXIT_BUILD;
		}
	}
	return 0;
}

/* Per-source state of the compile step. */
struct unit {
	const char **argv;
	char threshold[64];
	char never[PATH_MAX]; /* musttail exclusion list (tailcall.h), or "" */
	char attr[PATH_MAX + 32];
	char pgo_use[PATH_MAX + 32];
	char pgo_log[32]; /* the compile's stderr with a PGO profile (pgo_diag.h), or "" */
	int scan_failed;  /* the musttail scan failed: warn if the compile succeeds */
};

static int compile_all(struct xl_build *b, char (*cc)[256], struct xl_compile_job *jobs, struct unit *units,
		       size_t *njobs, struct xl_objcache *cache)
{
	const struct xl_build_args *a = b->args;
	int xray = b->mode == XL_BUILD_ALL || b->mode == XL_BUILD_XRAY;
	int tailcall = xray && xl_tailcall_workaround();
	size_t nj = 0;
	int rc = 0;
	if (a->pgo && xl_pgo_check_profile(a->pgo) != 0)
		return XL_EXIT_USAGE;
	for (size_t i = 0; i < a->nsources && rc == 0; i++) {
		enum xl_lang l = xl_source_lang(a->sources[i]);
		if (l != XL_LANG_C && l != XL_LANG_CXX)
			continue;
		struct unit *u = &units[nj];
		u->argv = calloc(2 * a->nflags + 20, sizeof(char *));
		if (!u->argv) {
			xl_error("out of memory");
			return XL_EXIT_FAIL;
		}
		size_t n = 0;
		const char *driver = cc[l == XL_LANG_CXX];
		u->argv[n++] = driver;
		u->argv[n++] = a->release ? "-O3" : "-O0";
		u->argv[n++] = "-g";
		if (tailcall) {
			/* The scan compiles this one source with its own flags. */
			const char *one[2] = {a->sources[i], NULL};
			struct xl_build_args sub = {0};
			sub.sources = one;
			sub.nsources = 1;
			sub.flags = calloc(2 * a->nflags + 1, sizeof(char *));
			if (sub.flags) {
				sub.nflags = add_flags(a, l, sub.flags, 0);
				/* (a scan that fails on a source that does not compile
				 * says nothing: the compile reports the error) */
				u->scan_failed = xl_musttail_exclusions(driver, &sub, u->never, sizeof(u->never)) != 0;
				free(sub.flags);
			}
			if (u->never[0])
				snprintf(u->attr, sizeof(u->attr), "-fxray-attr-list=%s", u->never);
		}
		n = xl_xray_compile_flags(b->mode, b->xray_threshold, tailcall, u->never[0] ? u->attr : NULL, u->argv,
					  n, u->threshold, sizeof(u->threshold));
		if (b->pgo_generate)
			u->argv[n++] = "-fprofile-instr-generate";
		if (a->pgo) { /* clang's diagnostics about the profile are summarised (pgo_diag.h) */
			snprintf(u->pgo_use, sizeof(u->pgo_use), "-fprofile-instr-use=%s", a->pgo);
			u->argv[n++] = u->pgo_use;
			u->argv[n++] = "-Wprofile-instr-missing";
			snprintf(u->pgo_log, sizeof(u->pgo_log), "/tmp/exaloop-pgo-diag-XXXXXX");
			int fd = mkstemp(u->pgo_log);
			if (fd >= 0)
				close(fd);
			else
				u->pgo_log[0] = 0;
			jobs[nj].stderr_log = u->pgo_log[0] ? u->pgo_log : NULL;
			jobs[nj].key_file = a->pgo; /* a retrained profile rebuilds */
		}
		n = add_flags(a, l, u->argv, n);
		u->argv[n] = NULL;
		jobs[nj].source = a->sources[i];
		jobs[nj].argv = u->argv;
		nj++;
	}
	*njobs = nj;
	int parallel = a->jobs > 0 ? a->jobs : xl_ncpus();
	int st = xl_objcache_compile(cache, jobs, nj, parallel, b->compiler_version);
	for (size_t k = 0; k < nj; k++) {
		b->nreused += (size_t)jobs[k].reused;
		if (units[k].never[0])
			unlink(units[k].never);
		if (units[k].pgo_log[0]) {
			xl_pgo_relay_diagnostics(units[k].pgo_log, a->pgo);
			unlink(units[k].pgo_log);
		}
	}
	if (st < 0) {
		xl_error("cannot run the compiler: %s", strerror(errno));
		return XL_EXIT_BUILD;
	}
	if (interrupted(st)) {
		xl_error("compilation interrupted (%s)", strsignal(st - 128));
		return st;
	}
	if (st != 0) {
		xl_error("compilation failed (the compiler exited with status %d)", st);
		return XL_EXIT_BUILD;
	}
	for (size_t k = 0; k < nj; k++)
		if (units[k].scan_failed)
			xl_warn("could not list the functions of '%s' that make musttail calls: they stay traced, and "
				"XRay's tail-exit trampoline may corrupt their callees' arguments on this architecture",
				jobs[k].source);
	return 0;
}

/* The executable's name: -o, else the source that defines main. */
static void name_output(struct xl_build *b, const struct xl_compile_job *jobs, size_t njobs)
{
	const struct xl_build_args *a = b->args;
	b->main_source = a->sources[0];
	for (size_t k = 0; k < njobs; k++)
		if (njobs == 1 || defines_main(jobs[k].object)) {
			b->main_source = jobs[k].source;
			break;
		}
	if (b->output)
		return;
	char name[NAME_MAX + 1];
	xl_default_output(b->main_source, name, sizeof(name));
	if (b->outdir)
		snprintf(b->out_buf, sizeof(b->out_buf), "%s/%s", b->outdir, name);
	else
		snprintf(b->out_buf, sizeof(b->out_buf), "%s", name);
	b->output = b->out_buf;
}

int xl_build_run(struct xl_build *b)
{
	const struct xl_build_args *a = b->args;
	char cc[2][256] = {"", ""};
	int any_cxx;
	int64_t t0 = xl_now_ns();
	int rc = prepare(b, &any_cxx, cc);
	if (rc != 0)
		return rc;
	struct xl_objcache cache;
	char err[512];
	if (xl_objcache_open(&cache, err, sizeof(err)) != 0) {
		xl_error("%s", err);
		return XL_EXIT_BUILD;
	}
	struct xl_compile_job *jobs = calloc(a->nsources + 1, sizeof(*jobs));
	struct unit *units = calloc(a->nsources + 1, sizeof(*units));
	const char **argv = calloc(a->nsources + 2 * a->nflags + 32, sizeof(char *));
	size_t njobs = 0;
	if (!jobs || !units || !argv) {
		xl_error("out of memory");
		rc = XL_EXIT_FAIL;
		goto out;
	}
	rc = compile_all(b, cc, jobs, units, &njobs, &cache);
	if (rc != 0)
		goto out;
	name_output(b, jobs, njobs);

	/* Link: inputs in command-line order, sources replaced by objects. */
	char threshold[64];
	struct xl_link_extras extras;
	size_t n = 0, k = 0;
	argv[n++] = b->compiler;
	n = xl_xray_compile_flags(b->mode, b->xray_threshold, 0, NULL, argv, n, threshold, sizeof(threshold));
	for (size_t i = 0; i < a->nsources; i++) {
		enum xl_lang l = xl_source_lang(a->sources[i]);
		argv[n++] = l == XL_LANG_C || l == XL_LANG_CXX ? jobs[k++].object : a->sources[i];
	}
	argv[n++] = "-o";
	argv[n++] = b->output;
	if (b->pgo_generate)
		argv[n++] = "-fprofile-instr-generate"; /* its runtime */
	n = xl_profile_link_flags(b->mode, xl_allocations_on(), b->runtime, argv, n, &extras);
	n = add_flags(a, XL_LANG_NONE, argv, n);
	if (b->mode != XL_BUILD_PLAIN)
		argv[n++] = "-pthread";
	argv[n] = NULL;
	/* For the sidecar: each compile (as exaloop ran it, less the cache's
	 * own output names), then the link. */
	size_t len = 0;
	b->command[0] = 0;
	for (size_t u = 0; u < njobs && len < sizeof(b->command); u++) {
		for (size_t i = 0; units[u].argv[i] && len < sizeof(b->command); i++)
			len += (size_t)snprintf(b->command + len, sizeof(b->command) - len, "%s ", units[u].argv[i]);
		if (len < sizeof(b->command))
			len += (size_t)snprintf(b->command + len, sizeof(b->command) - len, "-c %s; ", jobs[u].source);
	}
	for (size_t i = 0; i < n && len < sizeof(b->command); i++)
		len += (size_t)snprintf(b->command + len, sizeof(b->command) - len, "%s%s", i ? " " : "", argv[i]);
	/* ^C goes to the linker, not to exaloop, so that exaloop always gets
	 * to clean up its temporary build directory. */
	struct xl_process ld = {.argv = (char *const *)argv, .signals = XL_SIGNALS_FORWARD};
	int st = xl_process_run(&ld);
	if (st < 0) {
		xl_error("cannot run the compiler '%s': %s", b->compiler, strerror(errno));
		rc = XL_EXIT_BUILD;
	} else if (interrupted(st)) {
		xl_error("linking interrupted (%s)", strsignal(st - 128));
		rc = st;
	} else if (st != 0) {
		xl_error("linking failed ('%s' exited with status %d)", b->compiler, st);
		hint_libraries(a);
		rc = XL_EXIT_BUILD;
	}
out:
	b->compile_ns = xl_now_ns() - t0;
	for (size_t i = 0; units && i < a->nsources; i++)
		free(units[i].argv);
	free(units);
	free(jobs);
	free(argv);
	xl_objcache_close(&cache);
	return rc;
}
