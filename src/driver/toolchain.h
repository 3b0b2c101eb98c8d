/*
 * toolchain.h - the compilers and the flags of a profiling build.
 *
 * A small table maps source kinds to compiler drivers (clang for C,
 * clang++ for C++).  The compile and link flags that make a build
 * profilable are written here once, for the single-command build
 * (srcbuild.h) and the compiler wrappers (cmd_cc.c).
 */
#ifndef XL_TOOLCHAIN_H
#define XL_TOOLCHAIN_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "args.h"
#include "strvec.h"

/* What a build adds for profiling.  The capture modes all and xray build
 * alike (what they record is the runtime's choice at run time, from the
 * capture environment); memory builds link the runtime without XRay. */
enum xl_build_mode {
	XL_BUILD_PLAIN,  /* no profiling */
	XL_BUILD_MEMORY, /* the runtime only */
	XL_BUILD_TRACED, /* XRay instrumentation + the runtime */
};

/* The one mapping from a command line's profiling (on or off, and the
 * capture mode XL_MODE_*) to the build it needs. */
enum xl_build_mode xl_build_mode_for(int profile, uint32_t capture_mode);

/* The architecture exaloop builds programs for: $EXALOOP_ARCH, which the
 * global option --arch sets (for the compiler wrappers too), or this
 * machine's.  "x86_64" or "aarch64". */
#define XL_ENV_ARCH "EXALOOP_ARCH"
const char *xl_target_arch(void);
/* This machine's architecture ("x86_64" or "aarch64"). */
const char *xl_host_arch(void);
/* The canonical name of an architecture a user typed (x86_64 or amd64,
 * aarch64 or arm64), or NULL. */
const char *xl_arch_name(const char *typed);
/* 1 when programs are built for another architecture than this machine's
 * (clang then gets --target, and the runtime comes from the SDK's
 * <arch>/ directory: sdk.h). */
int xl_arch_is_cross(void);
/* Append the flags that make clang build for the target architecture
 * (--target=aarch64-linux-gnu in a cross build; nothing otherwise). */
void xl_arch_flags(struct strvec *cc);

/* Find a driver for a language: "clang-14" or "clang" (C), "clang++-14" or
 * "clang++" (C++).  Returns 0 and fills path, or -1. */
int xl_find_compiler(enum xl_lang lang, char *path, size_t len);

/* Path of clang's XRay runtime archive for this machine, found through the
 * driver's runtime directory.  Returns 0 when it exists. */
int xl_xray_runtime(const char *cc, char *path, size_t len);

/* Path of one of clang's runtime archives for the target architecture ("xray",
 * "profile": libclang_rt.NAME-ARCH.a), found through the driver's runtime
 * directory.  Returns 0 when it exists. */
int xl_clang_runtime(const char *cc, const char *name, char *path, size_t len);

/* `cc -dumpversion` ("14.0.6"), or "" when it cannot run.  Run once a
 * process for the same binary (by real path). */
void xl_compiler_version(const char *cc, char *out, size_t len);

/* Append the compile flags of a build in `mode` to cc (nothing for plain
 * and memory builds): -fxray-instrument, the instruction threshold, the
 * ARM64 tail-call workaround when `tailcall`, and an -fxray-attr-list= of
 * attr_list when not NULL, and -fno-omit-frame-pointer (the samples'
 * call chains). */
void xl_xray_compile_flags(struct strvec *cc, enum xl_build_mode mode, int threshold, int tailcall,
			   const char *attr_list);

/* 1 unless allocations are off ($EXALOOP_ALLOCATIONS=0, which
 * --no-allocations and `allocations = false` set). */
int xl_allocations_on(void);

/* Append the link flags of a profiling build to ld: the runtime
 * --whole-archive, a GNU build id, exaloop's XRay trampolines with the
 * --wrap options that route compiler-rt's calls to them, and, when
 * `allocs`, the allocation wrappers with the --wrap options for the
 * allocation functions (malloc family, operator new/delete, Boehm GC).
 * The caller adds -pthread (the runtime's control thread). */
void xl_profile_link_flags(struct strvec *ld, enum xl_build_mode mode, int allocs, const char *runtime);

#endif
