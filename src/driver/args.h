/*
 * args.h - splitting `run`/`build` command lines.
 *
 *   exaloop [global options] run [build options] SOURCE... [program args...]
 *
 * Build options come between the subcommand and the first input; inputs
 * are the consecutive arguments with a source suffix (xl_source_lang:
 * C, C++, Codon) or an object/archive suffix (.o .a); everything after them goes
 * to the program untouched.  `--` ends the inputs explicitly (`run app.c
 * -- other.c` passes other.c to the program).  `build` has no program
 * arguments, so there options may also follow the inputs.  The caller's
 * global options given after the subcommand are refused with the right
 * order in the message.
 *
 * The struct borrows the argv strings; xl_build_args_release() frees only
 * the arrays.
 */
#ifndef XL_ARGS_H
#define XL_ARGS_H

#include <stddef.h>

struct xl_build_args {
	int release;        /* -release (default: debug build) */
	int shared;         /* -shared was given */
	const char *output; /* -o OUT (build only) */
	const char *pgo;    /* --pgo FILE: build with this PGO profile (.profdata) */
	int jobs;           /* -jN: parallel compiles (0: one per CPU) */
	const char **flags; /* compiler/linker flags, in order */
	size_t nflags;
	const char **sources; /* inputs in command-line order: sources, objects, archives */
	size_t nsources;
	const char **prog_args; /* NULL-terminated */
	int dashdash;           /* `--` ended the inputs */
	size_t nprog;
};

/* Input kinds by suffix: the one rule (args.c's table), as clang's driver
 * reads a file name without -x. */
enum xl_lang {
	XL_LANG_NONE,
	XL_LANG_C,      /* .c, .i (preprocessed) */
	XL_LANG_CXX,    /* .cc .cp .cxx .cpp .CPP .c++ .C, .ii (preprocessed) */
	XL_LANG_OBJC,   /* .m (the wrappers pass it on; run/build refuse it) */
	XL_LANG_OBJCXX, /* .mm (likewise) */
	XL_LANG_CODON,  /* .codon */
	XL_LANG_OBJECT  /* .o .a */
};
enum xl_lang xl_source_lang(const char *path);
/* A source clang compiles (C, C++, Objective-C, Objective-C++). */
int xl_lang_is_clang_source(enum xl_lang lang);

/* argv[0] is the subcommand name.  allow_output: -o is accepted (build).
 * is_global (or NULL): does an argument name one of the caller's global
 * options (1; 2 when its value is the next argument)?  They are refused
 * with the order they go in ("'--timeline' must come before 'run':
 * exaloop --timeline last run ..."); the splitter knows no names of its
 * own.
 * Returns 0, or -1 with a one-line message in err. */
int xl_split_build_args(int argc, const char **argv, int allow_output, int (*is_global)(const char *arg),
			struct xl_build_args *out, char *err, size_t errlen);
void xl_build_args_release(struct xl_build_args *a);

/* The build options as the usage of `run` and `build` lists them. */
extern const char xl_build_options_help[];

/* The first program argument that looks like a link input or option
 * (-l..., -L..., -Wl,..., -pthread, .o, .a, .so), or NULL: `run` gives
 * those to the program, and says so with a hint. */
const char *xl_link_like_arg(const struct xl_build_args *a);

/* The default executable name for a source: its file name without the
 * last suffix ("dir/app.test.c" -> "app.test"), "a.out" when that leaves
 * nothing. */
void xl_default_output(const char *source, char *out, size_t len);

#endif
