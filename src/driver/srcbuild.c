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
#include "fileio.h"
#include "objcache.h"
#include "pgo_diag.h"
#include "process.h"
#include "srcbuild.h"
#include "strvec.h"
#include "tailcall.h"
#include "units.h"
#include "xl_errors.h"

void xl_build_init(struct xl_build *b, const struct xl_build_args *a, int profile, uint32_t mode, const char *runtime,
		   const char *output, const char *outdir, const struct xl_msgs *msgs)
{
	memset(b, 0, sizeof(*b));
	b->msgs = msgs;
	b->args = a;
	b->mode = xl_build_mode_for(profile, mode);
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
static void add_flags(const struct xl_build_args *a, enum xl_lang lang, struct strvec *v)
{
	for (size_t i = 0; i < a->nflags; i++) {
		const char *f = a->flags[i];
		int t = flag_target(f), with = takes_value(f) && i + 1 < a->nflags;
		int yes = lang == XL_LANG_NONE ? (t == TO_BOTH || t == TO_LINK)
					       : t == TO_BOTH || t == TO_COMPILE || (t == TO_C && lang == XL_LANG_C) ||
							 (t == TO_CXX && lang == XL_LANG_CXX);
		if (yes) {
			strvec_push(v, f);
			if (with)
				strvec_push(v, a->flags[i + 1]);
		}
		i += (size_t)with;
	}
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

static void hint_libraries(const struct xl_build_args *a, const struct xl_msgs *m)
{
	if (includes(a, "gc.h>") && !has_flag(a, "-lgc"))
		xl_msgf(m, XL_MSG_HINT,
			"the program includes <gc.h>: add -lgc after 'run' or 'build' (exaloop --profile run -lgc app.c)");
	if (includes(a, "<math.h>") && !has_flag(a, "-lm"))
		xl_msgf(m, XL_MSG_HINT,
			"the program includes <math.h>: if the linker reports missing math functions, add -lm");
	if (includes(a, "<pthread.h>") && !has_flag(a, "-pthread") && !has_flag(a, "-lpthread"))
		xl_msgf(m, XL_MSG_HINT,
			"the program includes <pthread.h>: if the linker reports missing pthread functions, add -pthread");
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
			xl_msgf(b->msgs, XL_MSG_ERROR,
				"'%s' is a Codon source, and no Codon toolchain is installed here", a->sources[i]);
			xl_msgf(b->msgs, XL_MSG_HINT,
				"exaloop builds C (.c) and C++ (.cc, .cpp, .cxx) with clang 14; a Codon source needs the "
				"Codon compiler and its profiling SDK");
			return XL_EBUILD;
		}
		*any_cxx |= l == XL_LANG_CXX;
		any_c |= l == XL_LANG_C;
		b->nsources += l == XL_LANG_C || l == XL_LANG_CXX;
		if (access(a->sources[i], R_OK) != 0) {
			xl_msgf(b->msgs, XL_MSG_ERROR, "cannot read %s '%s': %s",
				l == XL_LANG_OBJECT ? "input" : "source", a->sources[i], strerror(errno));
			return XL_EBUILD;
		}
		/* A source must be a file: one linked to /dev/zero or a FIFO
		 * would be read without end (the object cache hashes sources,
		 * the hint scan reads them). */
		struct stat st;
		if (stat(a->sources[i], &st) == 0 && !S_ISREG(st.st_mode)) {
			xl_msgf(b->msgs, XL_MSG_ERROR, "%s '%s' is not a regular file",
				l == XL_LANG_OBJECT ? "input" : "source", a->sources[i]);
			return XL_EBUILD;
		}
	}
	/* cc[0]: C, cc[1]: C++.  The link needs C's driver even without C
	 * sources (objects only) unless C++ is there. */
	enum xl_lang need[2] = {any_c || !*any_cxx ? XL_LANG_C : XL_LANG_NONE, *any_cxx ? XL_LANG_CXX : XL_LANG_NONE};
	for (int k = 0; k < 2; k++) {
		if (need[k] == XL_LANG_NONE)
			continue;
		if (xl_find_compiler(need[k], cc[k], 256) != 0) {
			xl_msgf(b->msgs, XL_MSG_ERROR, "no %s compiler found (looked for %s in PATH)", k ? "C++" : "C",
				k ? "clang++-14, clang++" : "clang-14, clang");
			xl_msgf(b->msgs, XL_MSG_HINT, "install it: apt-get install clang-14 libclang-rt-14-dev");
			return XL_EBUILD;
		}
	}
	memcpy(b->compiler, cc[*any_cxx ? 1 : 0], sizeof(b->compiler));
	xl_compiler_version(b->compiler, b->compiler_version, sizeof(b->compiler_version));
	if (b->mode == XL_BUILD_TRACED) {
		char rt[PATH_MAX];
		if (xl_xray_runtime(b->compiler, rt, sizeof(rt)) != 0) {
			xl_msgf(b->msgs, XL_MSG_ERROR,
				"function tracing needs LLVM's XRay runtime, which '%s' cannot find", b->compiler);
			xl_msgf(b->msgs, XL_MSG_HINT,
				"install it (apt-get install libclang-rt-14-dev); memory capture is still available: "
				"exaloop --profile=memory run ...");
			return XL_EBUILD;
		}
	}
	return 0;
}

/* Per-source state of the compile step. */
struct unit {
	struct strvec argv;
	char never[PATH_MAX];   /* musttail exclusion list (tailcall.h), or "" */
	char pgo_log[PATH_MAX]; /* the compile's stderr with a PGO profile (pgo_diag.h), or "" */
	int scan_failed;        /* the musttail scan failed: warn if the compile succeeds */
};

/* The musttail scan of one source, with the flags of its compile
 * (tailcall.h).  (A scan that fails on a source that does not compile says
 * nothing: the compile reports the error.) */
static void scan_musttail(struct xl_build *b, const char *source, enum xl_lang l, const char *driver, struct unit *u)
{
	struct strvec flags;
	strvec_init(&flags);
	add_flags(b->args, l, &flags);
	const char *one[2] = {source, NULL};
	struct xl_build_args sub = {0};
	sub.sources = one;
	sub.nsources = 1;
	sub.flags = (const char **)flags.v;
	sub.nflags = flags.n;
	u->scan_failed = flags.oom || xl_musttail_exclusions(driver, &sub, u->never, sizeof(u->never), b->msgs) != 0;
	strvec_release(&flags);
}

/* One source's compile command (objcache.h adds -c, -o and the
 * dependency file).  0, or XL_ENOMEM. */
static int compile_command(struct xl_build *b, const char *source, enum xl_lang l, const char *driver, int tailcall,
			   struct unit *u, struct xl_compile_job *job)
{
	const struct xl_build_args *a = b->args;
	struct strvec *cc = &u->argv;
	strvec_init(cc);
	strvec_push(cc, driver);
	xl_arch_flags(cc);
	strvec_push(cc, a->release ? "-O3" : "-O0");
	strvec_push(cc, "-g");
	if (tailcall)
		scan_musttail(b, source, l, driver, u);
	xl_xray_compile_flags(cc, b->mode, b->xray_threshold, tailcall, u->never[0] ? u->never : NULL);
	if (b->pgo_generate)
		strvec_push(cc, "-fprofile-instr-generate");
	if (a->pgo) { /* clang's diagnostics about the profile are summarised (pgo_diag.h) */
		strvec_pushf(cc, "-fprofile-instr-use=%s", a->pgo);
		strvec_push(cc, "-Wprofile-instr-missing");
		int fd = xl_make_temp_file("pgo-diag", u->pgo_log, sizeof(u->pgo_log));
		if (fd >= 0)
			close(fd);
		else
			u->pgo_log[0] = 0;
		job->stderr_log = u->pgo_log[0] ? u->pgo_log : NULL;
		job->key_file = a->pgo; /* a retrained profile rebuilds */
	}
	add_flags(a, l, cc);
	job->source = source;
	job->argv = (const char *const *)cc->v;
	if (!cc->oom)
		return 0;
	xl_msgf(b->msgs, XL_MSG_ERROR, "out of memory");
	return XL_ENOMEM;
}

static int compile_all(struct xl_build *b, char (*cc)[256], struct xl_compile_job *jobs, struct unit *units,
		       size_t *njobs, struct xl_objcache *cache)
{
	const struct xl_build_args *a = b->args;
	int xray = b->mode == XL_BUILD_TRACED;
	int tailcall = xray && xl_tailcall_workaround();
	size_t nj = 0;
	int rc = 0;
	if (a->pgo && xl_pgo_check_profile(a->pgo, b->msgs) != XL_OK)
		return XL_EINVAL;
	for (size_t i = 0; i < a->nsources && rc == 0; i++) {
		enum xl_lang l = xl_source_lang(a->sources[i]);
		if (l != XL_LANG_C && l != XL_LANG_CXX)
			continue;
		rc = compile_command(b, a->sources[i], l, cc[l == XL_LANG_CXX], tailcall, &units[nj], &jobs[nj]);
		nj++;
	}
	*njobs = nj;
	int parallel = a->jobs > 0 ? a->jobs : xl_ncpus();
	int st = rc == 0 ? xl_objcache_compile(cache, jobs, nj, parallel, b->compiler_version) : 0;
	int e = errno;
	for (size_t k = 0; k < nj; k++) {
		b->nreused += (size_t)jobs[k].reused;
		if (units[k].never[0])
			unlink(units[k].never);
		if (units[k].pgo_log[0]) {
			xl_pgo_relay_diagnostics(units[k].pgo_log, a->pgo, b->msgs);
			unlink(units[k].pgo_log);
		}
	}
	if (rc != 0)
		return rc;
	if (st < 0) {
		xl_msgf(b->msgs, XL_MSG_ERROR, "cannot run the compiler: %s", strerror(e));
		return XL_EBUILD;
	}
	if (interrupted(st)) {
		xl_msgf(b->msgs, XL_MSG_ERROR, "compilation interrupted (%s)", strsignal(st - 128));
		b->signal = st - 128;
		return XL_EINTR;
	}
	if (st != 0) {
		xl_msgf(b->msgs, XL_MSG_ERROR, "compilation failed (the compiler exited with status %d)", st);
		return XL_EBUILD;
	}
	for (size_t k = 0; k < nj; k++)
		if (units[k].scan_failed)
			xl_msgf(b->msgs, XL_MSG_WARN,
				"could not list the functions of '%s' that make musttail calls: they stay traced, and "
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

/* The sidecar's record of the build: each compile (as exaloop ran it, less
 * the cache's own output names), then the link. */
static void record_command(struct xl_build *b, const struct unit *units, const struct xl_compile_job *jobs,
			   size_t njobs, const struct strvec *ld)
{
	size_t len = 0, cap = sizeof(b->command);
	b->command[0] = 0;
	for (size_t u = 0; u < njobs && len < cap; u++) {
		for (size_t i = 0; i < units[u].argv.n && len < cap; i++)
			len += (size_t)snprintf(b->command + len, cap - len, "%s ", units[u].argv.v[i]);
		if (len < cap)
			len += (size_t)snprintf(b->command + len, cap - len, "-c %s; ", jobs[u].source);
	}
	for (size_t i = 0; i < ld->n && len < cap; i++)
		len += (size_t)snprintf(b->command + len, cap - len, "%s%s", i ? " " : "", ld->v[i]);
}

/* Link: inputs in command-line order, sources replaced by objects. */
static int link_program(struct xl_build *b, const struct unit *units, const struct xl_compile_job *jobs, size_t njobs)
{
	const struct xl_build_args *a = b->args;
	struct strvec ld;
	strvec_init(&ld);
	strvec_push(&ld, b->compiler);
	xl_arch_flags(&ld);
	xl_xray_compile_flags(&ld, b->mode, b->xray_threshold, 0, NULL);
	for (size_t i = 0, k = 0; i < a->nsources; i++) {
		enum xl_lang l = xl_source_lang(a->sources[i]);
		strvec_push(&ld, l == XL_LANG_C || l == XL_LANG_CXX ? jobs[k++].object : a->sources[i]);
	}
	strvec_push(&ld, "-o");
	strvec_push(&ld, b->output);
	if (b->pgo_generate)
		strvec_push(&ld, "-fprofile-instr-generate"); /* its runtime */
	xl_profile_link_flags(&ld, b->mode, xl_allocations_on(), b->runtime);
	add_flags(a, XL_LANG_NONE, &ld);
	if (b->mode != XL_BUILD_PLAIN)
		strvec_push(&ld, "-pthread");
	if (ld.oom) {
		strvec_release(&ld);
		xl_msgf(b->msgs, XL_MSG_ERROR, "out of memory");
		return XL_ENOMEM;
	}
	record_command(b, units, jobs, njobs, &ld);
	/* ^C goes to the linker, not to exaloop, so that exaloop always gets
	 * to clean up its temporary build directory. */
	struct xl_process p = {.argv = ld.v, .signals = XL_SIGNALS_FORWARD};
	int st = xl_process_run(&p), rc = XL_OK;
	if (st < 0) {
		xl_msgf(b->msgs, XL_MSG_ERROR, "cannot run the compiler '%s': %s", b->compiler, strerror(errno));
		rc = XL_EBUILD;
	} else if (interrupted(st)) {
		xl_msgf(b->msgs, XL_MSG_ERROR, "linking interrupted (%s)", strsignal(st - 128));
		b->signal = st - 128;
		rc = XL_EINTR;
	} else if (st != 0) {
		xl_msgf(b->msgs, XL_MSG_ERROR, "linking failed ('%s' exited with status %d)", b->compiler, st);
		hint_libraries(a, b->msgs);
		rc = XL_EBUILD;
	}
	strvec_release(&ld);
	return rc;
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
		xl_msgf(b->msgs, XL_MSG_ERROR, "%s", err);
		return XL_EBUILD;
	}
	struct xl_compile_job *jobs = calloc(a->nsources + 1, sizeof(*jobs));
	struct unit *units = calloc(a->nsources + 1, sizeof(*units));
	size_t njobs = 0;
	if (!jobs || !units) {
		xl_msgf(b->msgs, XL_MSG_ERROR, "out of memory");
		rc = XL_ENOMEM;
	}
	if (rc == 0)
		rc = compile_all(b, cc, jobs, units, &njobs, &cache);
	if (rc == 0) {
		name_output(b, jobs, njobs);
		rc = link_program(b, units, jobs, njobs);
	}
	b->compile_ns = xl_now_ns() - t0;
	for (size_t i = 0; units && i < njobs; i++)
		strvec_release(&units[i].argv);
	free(units);
	free(jobs);
	xl_objcache_close(&cache);
	return rc;
}
