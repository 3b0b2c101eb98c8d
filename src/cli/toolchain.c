/*
 * toolchain.c - compile and link with clang (see toolchain.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exaloop/xl_capture.h"
#include "exitcode.h"
#include "msg.h"
#include "process.h"
#include "pgo_diag.h"
#include "tailcall.h"
#include "toolchain.h"

static const struct {
	enum xl_lang lang;
	const char *drivers[3];
} drivers[] = {
	{XL_LANG_C, {"clang-14", "clang", NULL}},
	{XL_LANG_CXX, {"clang++-14", "clang++", NULL}},
};

void xl_build_init(struct xl_build *b, const struct xl_build_args *a, int profile, uint32_t mode,
		   const char *runtime, const char *output)
{
	memset(b, 0, sizeof(*b));
	b->args = a;
	b->mode = !profile ? XL_BUILD_PLAIN
		  : mode == XL_MODE_MEMORY ? XL_BUILD_MEMORY
		  : mode == XL_MODE_XRAY ? XL_BUILD_XRAY : XL_BUILD_ALL;
	b->runtime = profile ? runtime : NULL;
	b->output = output;
	b->xray_threshold = 1;
}

int xl_find_compiler(enum xl_lang lang, char *path, size_t len)
{
	for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++) {
		if (drivers[i].lang != lang)
			continue;
		for (size_t k = 0; drivers[i].drivers[k]; k++)
			if (xl_which(drivers[i].drivers[k], path, len) == 0)
				return 0;
	}
	return -1;
}

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* In the compiler's child, before exec: stderr into the file arg. */
static void stderr_to_file(void *arg)
{
	int fd = open((const char *)arg, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd >= 0) {
		dup2(fd, 2);
		close(fd);
	}
}

void xl_compiler_version(const char *cc, char *out, size_t len)
{
	char *const argv[] = {(char *)cc, "-dumpversion", NULL};
	xl_process_read_line(argv, out, len);
}

int xl_xray_runtime(const char *cc, char *path, size_t len)
{
	return xl_clang_runtime(cc, "xray", path, len);
}

int xl_clang_runtime(const char *cc, const char *name, char *path, size_t len)
{
	char dir[PATH_MAX] = "";
	char *const argv[] = {(char *)cc, "--print-runtime-dir", NULL};
	xl_process_read_line(argv, dir, sizeof(dir));
	const char *arch =
#if defined(__aarch64__)
		"aarch64";
#else
		"x86_64";
#endif
	if (!dir[0] || (size_t)snprintf(path, len, "%s/libclang_rt.%s-%s.a", dir, name, arch) >= len)
		return -1;
	if (access(path, R_OK) == 0)
		return 0;
	/* Older layouts put the archive in <resource-dir>/lib/linux/. */
	return -1;
}

/* Does any source include <name> (a cheap textual check for hints)? */
static int includes(const struct xl_build_args *a, const char *name)
{
	char line[512];
	for (size_t i = 0; i < a->nsources; i++) {
		FILE *f = fopen(a->sources[i], "re");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
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

/* A failed link is most often a library the program needs: name it. */
static void hint_libraries(const struct xl_build_args *a)
{
	if (includes(a, "gc.h>") && !has_flag(a, "-lgc"))
		xl_hint("the program includes <gc.h>: add -lgc after 'run' or 'build' (exaloop --profile run -lgc app.c)");
	if (includes(a, "<math.h>") && !has_flag(a, "-lm"))
		xl_hint("the program includes <math.h>: if the linker reports missing math functions, add -lm");
	if (includes(a, "<pthread.h>") && !has_flag(a, "-pthread") && !has_flag(a, "-lpthread"))
		xl_hint("the program includes <pthread.h>: if the linker reports missing pthread functions, add -pthread");
}

/* exaloop's own XRay trampolines (libexaloop_xray.a beside the runtime in
 * the SDK; see src/rt/rt_tramp_x86_64.S).  The clang driver links
 * compiler-rt's XRay runtime --whole-archive, trampolines included, so
 * ours cannot simply be linked too (duplicate symbols).  Instead --wrap
 * redirects compiler-rt's references to __xray_Function{Entry,Exit,
 * TailExit} (from its sled-patching code) to the __wrap___xray_* symbols
 * the archive defines; compiler-rt's trampolines stay in, unused.
 * EXALOOP_STOCK_TRAMPOLINES=1 at build time keeps compiler-rt's.
 * Returns 0 and fills path when the lean trampolines are to be linked. */
static int lean_trampolines(const char *runtime, char *path, size_t len)
{
	const char *stock = getenv("EXALOOP_STOCK_TRAMPOLINES");
	if ((stock && *stock && strcmp(stock, "0") != 0) || !runtime)
		return -1;
	const char *slash = strrchr(runtime, '/');
	int dir = slash ? (int)(slash - runtime) : 1;
	if ((size_t)snprintf(path, len, "%.*s/libexaloop_xray.a", dir, slash ? runtime : ".") >= len)
		return -1;
	return access(path, R_OK) == 0 ? 0 : -1;
}

int xl_build_run(struct xl_build *b)
{
	const struct xl_build_args *a = b->args;
	enum xl_lang lang = XL_LANG_C;
	for (size_t i = 0; i < a->nsources; i++) {
		enum xl_lang l = xl_source_lang(a->sources[i]);
		if (l == XL_LANG_CODON) {
			xl_error("'%s' is a Codon source, and no Codon toolchain is installed here", a->sources[i]);
			xl_hint("exaloop builds C (.c) and C++ (.cc, .cpp, .cxx) with clang 14; a Codon source needs the "
				"Codon compiler and its profiling SDK");
			return XL_EXIT_BUILD;
		}
		if (l == XL_LANG_CXX)
			lang = XL_LANG_CXX;
		if (access(a->sources[i], R_OK) != 0) {
			xl_error("cannot read source '%s': %s", a->sources[i], strerror(errno));
			return XL_EXIT_BUILD;
		}
	}
	if (xl_find_compiler(lang, b->compiler, sizeof(b->compiler)) != 0) {
		xl_error("no %s compiler found (looked for %s in PATH)", lang == XL_LANG_CXX ? "C++" : "C",
			 lang == XL_LANG_CXX ? "clang++-14, clang++" : "clang-14, clang");
		xl_hint("install it: apt-get install clang-14 libclang-rt-14-dev");
		return XL_EXIT_BUILD;
	}
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

	size_t max = a->nflags + a->nsources + 32;
	const char **argv = calloc(max, sizeof(char *));
	if (!argv) {
		xl_error("out of memory");
		return XL_EXIT_BUILD;
	}
	char threshold[64], tramp[PATH_MAX], attr_list[PATH_MAX + 32], never[PATH_MAX] = "";
	char pgo_use[PATH_MAX + 32], pgo_log[] = "/tmp/exaloop-pgo-diag-XXXXXX";
	if (a->pgo && xl_pgo_check_profile(a->pgo) != 0) {
		free(argv);
		return XL_EXIT_USAGE;
	}
	int tailcall = (b->mode == XL_BUILD_ALL || b->mode == XL_BUILD_XRAY) && xl_tailcall_workaround();
	int never_unknown = tailcall && xl_musttail_exclusions(b->compiler, a, never, sizeof(never)) != 0;
	size_t n = 0;
	argv[n++] = b->compiler;
	if (a->release) {
		argv[n++] = "-O3";
		argv[n++] = "-g";
	} else {
		argv[n++] = "-O0";
		argv[n++] = "-g";
	}
	if (b->mode == XL_BUILD_ALL || b->mode == XL_BUILD_XRAY) {
		argv[n++] = "-fxray-instrument";
		snprintf(threshold, sizeof(threshold), "-fxray-instruction-threshold=%d",
			 b->xray_threshold > 0 ? b->xray_threshold : 1);
		argv[n++] = threshold;
		if (tailcall)
			argv[n++] = "-fno-optimize-sibling-calls";   /* tailcall.h */
		if (never[0]) {
			snprintf(attr_list, sizeof(attr_list), "-fxray-attr-list=%s", never);
			argv[n++] = attr_list;
		}
	}
	if (b->pgo_generate)
		argv[n++] = "-fprofile-instr-generate";
	if (a->pgo) {   /* clang's diagnostics about the profile are summarised (pgo.h) */
		snprintf(pgo_use, sizeof(pgo_use), "-fprofile-instr-use=%s", a->pgo);
		argv[n++] = pgo_use;
		argv[n++] = "-Wprofile-instr-missing";
		int fd = mkstemp(pgo_log);
		if (fd >= 0)
			close(fd);
		else
			pgo_log[0] = 0;
	}
	for (size_t i = 0; i < a->nsources; i++)
		argv[n++] = a->sources[i];
	argv[n++] = "-o";
	argv[n++] = b->output;
	if (b->mode != XL_BUILD_PLAIN) {
		argv[n++] = "-Wl,--whole-archive";
		argv[n++] = b->runtime;
		argv[n++] = "-Wl,--no-whole-archive";
		argv[n++] = "-Wl,--build-id";
		if ((b->mode == XL_BUILD_ALL || b->mode == XL_BUILD_XRAY) &&
		    lean_trampolines(b->runtime, tramp, sizeof(tramp)) == 0) {
			argv[n++] = "-Wl,--wrap=__xray_FunctionEntry,--wrap=__xray_FunctionExit,"
				    "--wrap=__xray_FunctionTailExit";
			argv[n++] = tramp;
		}
	}
	for (size_t i = 0; i < a->nflags; i++)
		argv[n++] = a->flags[i];
	if (b->mode != XL_BUILD_PLAIN)
		argv[n++] = "-pthread";
	argv[n] = NULL;

	size_t len = 0;
	b->command[0] = 0;
	for (size_t i = 0; i < n && len < sizeof(b->command); i++)
		len += (size_t)snprintf(b->command + len, sizeof(b->command) - len, "%s%s", i ? " " : "", argv[i]);

	int64_t t0 = now_ns();
	/* ^C goes to the compiler, not to exaloop, so that exaloop always gets
	 * to clean up its temporary build directory.  With a PGO profile its
	 * stderr is collected, to summarise clang's profile warnings. */
	struct xl_process cc = {.argv = (char *const *)argv, .signals = XL_SIGNALS_FORWARD};
	if (a->pgo && pgo_log[0]) {
		cc.setup = stderr_to_file;
		cc.setup_arg = pgo_log;
	}
	int rc = xl_process_run(&cc);
	b->compile_ns = now_ns() - t0;
	if (a->pgo && pgo_log[0]) {
		xl_pgo_relay_diagnostics(pgo_log, a->pgo);
		unlink(pgo_log);
	}
	free(argv);
	if (never[0])
		unlink(never);
	if (rc < 0) {
		xl_error("cannot run the compiler '%s': %s", b->compiler, strerror(errno));
		return XL_EXIT_BUILD;
	}
	if (rc > 128 && (rc - 128 == SIGINT || rc - 128 == SIGTERM || rc - 128 == SIGHUP || rc - 128 == SIGQUIT)) {
		xl_error("compilation interrupted (%s)", strsignal(rc - 128));
		return rc;
	}
	if (rc != 0) {
		xl_error("compilation failed ('%s' exited with status %d)", b->compiler, rc);
		hint_libraries(a);
		return XL_EXIT_BUILD;
	}
	if (never_unknown)
		xl_warn("could not list the functions that make musttail calls: they stay traced, and XRay's "
			"tail-exit trampoline may corrupt their callees' arguments on this architecture");
	return 0;
}
