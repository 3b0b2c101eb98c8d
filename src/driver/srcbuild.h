/*
 * srcbuild.h - the single-command build of `exaloop run|build`: sources,
 * objects and archives given on exaloop's command line, into one
 * executable.
 *
 * Each source is compiled by the driver of its language (clang for .c,
 * clang++ for .cc .cpp .cxx), in parallel, into the object cache
 * (objcache.h), which the next build reuses; the objects, .o and .a
 * inputs are linked in command-line order, by clang++ when any source is
 * C++.  Build options apply where they mean something: -I -D -U -include
 * -isystem -W... to compiles, -std=c... to C and -std=c++... to C++ only,
 * -l -L -Wl,... -static -pie -rdynamic to the link, -O -g -f -m -pthread
 * to both.
 */
#ifndef XL_SRCBUILD_H
#define XL_SRCBUILD_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "args.h"
#include "toolchain.h"
#include "xl_msgs.h"

struct xl_build {
	const struct xl_build_args *args;
	enum xl_build_mode mode;
	const char *runtime;        /* libexaloop_rt.a (profiling builds) */
	const char *output;         /* executable to write; NULL: named after the sources, in outdir */
	const char *outdir;         /* with output NULL: where (NULL: the current directory) */
	int xray_threshold;         /* -fxray-instruction-threshold */
	int pgo_generate;           /* -fprofile-instr-generate (exaloop pgo train) */
	const struct xl_msgs *msgs; /* errors, warnings, hints and the compilers' PGO diagnostics */
	/* results */
	int signal;              /* with XL_EINTR: the signal that interrupted the build */
	int64_t compile_ns;      /* compiles and link, wall time */
	size_t nsources;         /* C and C++ sources */
	size_t nreused;          /* of which objects came from the cache */
	const char *main_source; /* the source defining main (or the first input) */
	char compiler[256];      /* the link driver */
	char compiler_version[128];
	char command[8192]; /* the compile commands and the link's, for sidecars ("...; ...") */
	char out_buf[PATH_MAX];
};

/* Fill the build request shared by `run` and `build`: what to build for
 * (no profiling, or the capture mode's instrumentation), the runtime to
 * link when profiling, and the output (NULL: named after the source that
 * defines main, in outdir). */
void xl_build_init(struct xl_build *b, const struct xl_build_args *a, int profile, uint32_t mode, const char *runtime,
		   const char *output, const char *outdir, const struct xl_msgs *msgs);

/* Compile and link.  Returns XL_OK with b->output set, or after saying
 * what failed (b->msgs): XL_EBUILD (a tool is missing, a source cannot be
 * read, a compile or the link failed), XL_EINTR (b->signal interrupted
 * it), XL_EINVAL (the PGO profile cannot be read), XL_ENOMEM.  The
 * compilers' own diagnostics go to stderr as they come. */
int xl_build_run(struct xl_build *b);

#endif
