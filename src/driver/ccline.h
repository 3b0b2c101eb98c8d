/*
 * ccline.h - what a compiler command line does, read the way the clang
 * driver reads it.
 *
 * The compiler wrappers (`exaloop cc`, `exaloop c++`, cmd_cc.c) pass the
 * build system's arguments to clang unchanged and only add flags; to know
 * which flags, they need the step: preprocessing, compiling, linking an
 * executable, linking a shared object, or nothing to build (--version,
 * -print-*).  Response files (`@file`) are expanded for this reading only
 * (clang still gets `@file`).
 *
 * A struct xl_ccline owns the expanded argument list; the other strings
 * point into it.  xl_ccline_release() frees everything.
 */
#ifndef XL_CCLINE_H
#define XL_CCLINE_H

#include <stddef.h>

enum xl_ccstep {
	XL_CC_INFO,        /* no input, or only asks the driver something */
	XL_CC_PREPROCESS,  /* -E, -M, -MM (output is text) */
	XL_CC_COMPILE,     /* -c or -S: objects or assembly, no link */
	XL_CC_LINK_EXE,    /* links an executable (possibly compiling first) */
	XL_CC_LINK_SHARED, /* -shared */
	XL_CC_LINK_OTHER,  /* -r: a relocatable object, not an executable */
};

struct xl_ccline {
	enum xl_ccstep step;
	char **args; /* expanded arguments (response files read), NULL-terminated */
	size_t nargs;
	const char *output;  /* -o value, NULL when none */
	const char **inputs; /* input files (sources, objects, archives, libraries), NULL-terminated */
	size_t ninputs;
	const char **libdirs; /* -L directories given on this line, NULL-terminated */
	size_t nlibdirs;
	const char **libs; /* -l names, NULL-terminated */
	size_t nlibs;
	int is_static; /* -static */
};

/* Read argv[0..argc) (the compiler's arguments, without the compiler).
 * Returns 0, or -1 with a one-line message (unreadable response file,
 * out of memory). */
int xl_ccline_parse(int argc, const char *const *argv, struct xl_ccline *cl, char *err, size_t errlen);
void xl_ccline_release(struct xl_ccline *cl);

/* The executable a link step writes: -o, else "a.out". */
const char *xl_ccline_exe(const struct xl_ccline *cl);

/* 1 when the file name is a source clang compiles (by suffix, as the
 * driver decides without -x: args.h's xl_source_lang, the one rule). */
int xl_cc_is_source(const char *path);

/* 1 when the link looks like a configure or build-system probe (autoconf's
 * conftest, CMake's try_compile and compiler identification, meson's
 * sanity checks): such executables are linked like the real ones but get
 * no sidecars and are not listed. */
int xl_ccline_is_probe(const struct xl_ccline *cl);

#endif
