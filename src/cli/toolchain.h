/*
 * toolchain.h - building an executable for profiling.
 *
 * A small table maps source kinds to compiler drivers (clang for C,
 * clang++ for C++).  A Codon source is recognised and refused with what
 * would be needed.  Builds run the compiler with the user's stdio so its
 * diagnostics reach the user unchanged.
 */
#ifndef XL_TOOLCHAIN_H
#define XL_TOOLCHAIN_H

#include <stddef.h>
#include <stdint.h>

#include "args.h"

enum xl_build_mode {
	XL_BUILD_PLAIN,      /* no profiling */
	XL_BUILD_ALL,        /* XRay + runtime */
	XL_BUILD_MEMORY,     /* runtime only */
	XL_BUILD_XRAY,       /* XRay + runtime */
};

struct xl_build {
	const struct xl_build_args *args;
	enum xl_build_mode mode;
	const char *runtime;     /* libexaloop_rt.a (profiling builds) */
	const char *output;      /* executable to write */
	int xray_threshold;      /* -fxray-instruction-threshold */
	int pgo_generate;        /* -fprofile-instr-generate (exaloop pgo train) */
	/* results */
	int64_t compile_ns;
	char compiler[256];      /* driver used */
	char compiler_version[128];
	char command[8192];      /* the compile command line, for sidecars */
};

/* Fill the build request shared by `run` and `build`: what to build for
 * (no profiling, or the capture mode's instrumentation), the runtime to
 * link when profiling, and the output. */
void xl_build_init(struct xl_build *b, const struct xl_build_args *a, int profile, uint32_t mode,
		   const char *runtime, const char *output);

/* Find a driver for a language: "clang-14" or "clang" (C), "clang++-14" or
 * "clang++" (C++).  Returns 0 and fills path, or -1. */
int xl_find_compiler(enum xl_lang lang, char *path, size_t len);

/* Path of clang's XRay runtime archive for this machine, found through the
 * driver's runtime directory.  Returns 0 when it exists. */
int xl_xray_runtime(const char *cc, char *path, size_t len);

/* Path of one of clang's runtime archives for this machine ("xray",
 * "profile": libclang_rt.NAME-ARCH.a), found through the driver's runtime
 * directory.  Returns 0 when it exists. */
int xl_clang_runtime(const char *cc, const char *name, char *path, size_t len);

/* `cc -dumpversion` ("14.0.6"), or "" when it cannot run. */
void xl_compiler_version(const char *cc, char *out, size_t len);

/* Compile and link.  Returns 0, or an exit code (XL_EXIT_BUILD) after
 * printing what failed. */
int xl_build_run(struct xl_build *b);

#endif
