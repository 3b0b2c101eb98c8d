/*
 * toolchain.c - compile and link with clang (see toolchain.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exaloop/xl_capture.h"
#include "process.h"
#include "toolchain.h"
#include "xl_array.h"

static const struct {
	enum xl_lang lang;
	const char *drivers[3];
} drivers[] = {
	{XL_LANG_C, {"clang-14", "clang", NULL}},
	{XL_LANG_CXX, {"clang++-14", "clang++", NULL}},
};

enum xl_build_mode xl_build_mode_for(int profile, uint32_t capture_mode)
{
	return !profile ? XL_BUILD_PLAIN : capture_mode == XL_MODE_MEMORY ? XL_BUILD_MEMORY : XL_BUILD_TRACED;
}

/* The architectures exaloop builds for: the name used everywhere (SDK
 * directory, compiler-rt's archive suffix), the other name users type,
 * and clang's target triple for a cross build on Debian. */
static const struct {
	const char *name, *alias, *triple;
} arches[] = {
	{"x86_64", "amd64", "x86_64-linux-gnu"},
	{"aarch64", "arm64", "aarch64-linux-gnu"},
};

const char *xl_host_arch(void)
{
#if defined(__aarch64__)
	return "aarch64";
#elif defined(__x86_64__)
	return "x86_64";
#else
#error "exaloop runs on x86-64 and AArch64 (its runtime and trampolines are written for those)"
#endif
}

const char *xl_arch_name(const char *typed)
{
	for (size_t i = 0; typed && i < XL_ARRAY_SIZE(arches); i++)
		if (strcmp(typed, arches[i].name) == 0 || strcmp(typed, arches[i].alias) == 0)
			return arches[i].name;
	return NULL;
}

const char *xl_target_arch(void)
{
	const char *name = xl_arch_name(getenv(XL_ENV_ARCH));
	return name ? name : xl_host_arch();
}

int xl_arch_is_cross(void)
{
	return strcmp(xl_target_arch(), xl_host_arch()) != 0;
}

void xl_arch_flags(struct strvec *cc)
{
	if (!xl_arch_is_cross())
		return;
	const char *arch = xl_target_arch();
	for (size_t i = 0; i < XL_ARRAY_SIZE(arches); i++)
		if (strcmp(arch, arches[i].name) == 0)
			strvec_pushf(cc, "--target=%s", arches[i].triple);
}

int xl_find_compiler(enum xl_lang lang, char *path, size_t len)
{
	for (size_t i = 0; i < XL_ARRAY_SIZE(drivers); i++) {
		if (drivers[i].lang != lang)
			continue;
		for (size_t k = 0; drivers[i].drivers[k]; k++)
			if (xl_which(drivers[i].drivers[k], path, len) == 0)
				return 0;
	}
	return -1;
}

void xl_compiler_version(const char *cc, char *out, size_t len)
{
	/* Asked several times a command (the SDK check, then the build or the
	 * wrapped link, about clang-14 and clang++-14: one binary), each an
	 * exec of clang: the last answer is kept for that binary. */
	static char last_real[PATH_MAX], last_version[64];
	char real[PATH_MAX];
	int known = realpath(cc, real) != NULL;
	if (known && last_version[0] && strcmp(real, last_real) == 0) {
		snprintf(out, len, "%s", last_version);
		return;
	}
	char *const argv[] = {(char *)cc, "-dumpversion", NULL};
	xl_process_read_line(argv, out, len);
	if (known && out[0] && strlen(out) < sizeof(last_version)) {
		memcpy(last_real, real, sizeof(real));
		memcpy(last_version, out, strlen(out) + 1);
	}
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
	const char *arch = xl_target_arch();
	if (!dir[0] || (size_t)snprintf(path, len, "%s/libclang_rt.%s-%s.a", dir, name, arch) >= len)
		return -1;
	if (access(path, R_OK) == 0)
		return 0;
	/* Older layouts put the archive in <resource-dir>/lib/linux/. */
	return -1;
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

void xl_xray_compile_flags(struct strvec *cc, enum xl_build_mode mode, int threshold, int tailcall,
			   const char *attr_list)
{
	if (mode != XL_BUILD_TRACED)
		return;
	strvec_push(cc, "-fxray-instrument");
	/* The samplers' call chains are the kernel's walk over frame
	 * pointers (docs/benchmarks.md: its cost). */
	strvec_push(cc, "-fno-omit-frame-pointer");
	strvec_pushf(cc, "-fxray-instruction-threshold=%d", threshold > 0 ? threshold : 1);
	if (tailcall)
		strvec_push(cc, "-fno-optimize-sibling-calls"); /* tailcall.h */
	if (attr_list)
		strvec_pushf(cc, "-fxray-attr-list=%s", attr_list);
}

/* The functions whose calls the allocation wrappers see
 * (src/rt/rt_wrap_*.c define __wrap_ for each).  Wrapping a function the
 * program does not call costs nothing. */
static const char alloc_wraps[] =
	"-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=reallocarray,--wrap=free,--wrap=aligned_alloc,"
	"--wrap=posix_memalign,--wrap=memalign,--wrap=valloc,--wrap=pvalloc,"
	"--wrap=_Znwm,--wrap=_Znam,--wrap=_ZnwmRKSt9nothrow_t,--wrap=_ZnamRKSt9nothrow_t,"
	"--wrap=_ZnwmSt11align_val_t,--wrap=_ZnamSt11align_val_t,--wrap=_ZnwmSt11align_val_tRKSt9nothrow_t,"
	"--wrap=_ZnamSt11align_val_tRKSt9nothrow_t,--wrap=_ZdlPv,--wrap=_ZdaPv,--wrap=_ZdlPvm,--wrap=_ZdaPvm,"
	"--wrap=_ZdlPvRKSt9nothrow_t,--wrap=_ZdaPvRKSt9nothrow_t,--wrap=_ZdlPvSt11align_val_t,"
	"--wrap=_ZdaPvSt11align_val_t,--wrap=_ZdlPvmSt11align_val_t,--wrap=_ZdaPvmSt11align_val_t,"
	"--wrap=_ZdlPvSt11align_val_tRKSt9nothrow_t,--wrap=_ZdaPvSt11align_val_tRKSt9nothrow_t,"
	"--wrap=GC_malloc,--wrap=GC_malloc_atomic,--wrap=GC_malloc_uncollectable,"
	"--wrap=GC_malloc_atomic_uncollectable,--wrap=GC_malloc_ignore_off_page,"
	"--wrap=GC_malloc_atomic_ignore_off_page,--wrap=GC_memalign,--wrap=GC_realloc,--wrap=GC_free";

/* The exec functions (src/rt/rt_wrap_exec.c): a forked child notes the
 * program it execs, for the report's process list; unshare and setns
 * (rt_wrap_ns.c): those the kernel refuses in a multithreaded process
 * stop the control thread around them.  In the allocation wrappers'
 * archive, and linked with allocations off too: they are about the
 * program's behaviour, not its heap. */
static const char proc_wraps[] = "-Wl,--wrap=execve,--wrap=execv,--wrap=execvp,--wrap=execvpe,--wrap=execl,"
				 "--wrap=execlp,--wrap=execle,--wrap=unshare,--wrap=setns";

int xl_allocations_on(void)
{
	const char *v = getenv(XL_ENV_ALLOCS);
	return !(v && strcmp(v, "0") == 0);
}

/* libexaloop_alloc.a beside the runtime, when it is there (an SDK of an
 * older exaloop has none: its builds record no allocations). */
static int alloc_wrappers(const char *runtime, char *path, size_t len)
{
	const char *slash = strrchr(runtime, '/');
	int dir = slash ? (int)(slash - runtime) : 1;
	if ((size_t)snprintf(path, len, "%.*s/libexaloop_alloc.a", dir, slash ? runtime : ".") >= len)
		return -1;
	return access(path, R_OK) == 0 ? 0 : -1;
}

void xl_profile_link_flags(struct strvec *ld, enum xl_build_mode mode, int allocs, const char *runtime)
{
	if (mode == XL_BUILD_PLAIN)
		return;
	char path[PATH_MAX];
	/* A -x LANG earlier on the command line (a probe's `-x c++ -`) would
	 * have the archives below compiled as LANG: from here on, by suffix. */
	strvec_push(ld, "-x");
	strvec_push(ld, "none");
	const char *const whole[] = {"-Wl,--whole-archive", runtime, "-Wl,--no-whole-archive", "-Wl,--build-id", NULL};
	strvec_pushv(ld, whole);
	if (mode == XL_BUILD_TRACED && lean_trampolines(runtime, path, sizeof(path)) == 0) {
		strvec_push(ld, "-Wl,--wrap=__xray_FunctionEntry,--wrap=__xray_FunctionExit,"
				"--wrap=__xray_FunctionTailExit");
		strvec_push(ld, path);
	}
	if (runtime && alloc_wrappers(runtime, path, sizeof(path)) == 0) {
		if (allocs)
			strvec_push(ld, alloc_wraps);
		strvec_push(ld, proc_wraps);
		strvec_push(ld, path);
	}
}
