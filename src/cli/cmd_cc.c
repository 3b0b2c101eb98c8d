/*
 * cmd_cc.c - the compiler wrappers `exaloop cc` and `exaloop c++` (also
 * installed as the links exaloop-cc and exaloop-c++).
 *
 *   exaloop cc  [--profile[=MODE]] [COMPILER] ARGS...
 *   exaloop c++ [--profile[=MODE]] [COMPILER] ARGS...
 *
 * They run clang-14 (clang++-14) with the build system's arguments and
 * add only exaloop's flags, by step (ccline.h):
 *   - compiling and preprocessing: the XRay flags (memory mode: none);
 *     the process becomes the compiler (exec), so a configure probe costs
 *     one exec more than clang itself;
 *   - linking an executable: the XRay flags, the runtime and a build id,
 *     then OUT.profile.json and OUT.symbols.json beside the output;
 *   - linking a shared object or a relocatable object: the XRay flags only.
 *     clang 14's XRay runtime patches the executable's sleds only, so a
 *     shared library's functions stay untraced (their sleds are never
 *     patched); the executable's sidecar lists the project's shared
 *     libraries it links, and the report says they were not traced.
 * The mode is --profile=MODE, else $EXALOOP_PROFILE, else all.  A first
 * argument that is a program (not an option or an input file) is the
 * compiler to wrap: that is how CMake calls a compiler launcher.
 *
 * Nothing is printed on success: build systems and configure scripts
 * read the compiler's output.  When EXALOOP_CC_LOG names a file, each
 * link appends one line ("exe PATH" or "shared PATH") with a single
 * O_APPEND write, so parallel makes never interleave half lines;
 * `exaloop --profile build -- CMD` lists the executables from it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze.h"
#include "ccline.h"
#include "cmd.h"
#include "exitcode.h"
#include "globals.h"
#include "msg.h"
#include "options.h"
#include "process.h"
#include "sdk.h"
#include "strvec.h"
#include "buildinfo.h"
#include "tailcall.h"
#include "toolchain.h"
#include "units.h"

/* Is `a` the compiler to wrap (launcher form)?  A program found by path or
 * in PATH, and neither an option nor an input file.  Fills path. */
static int is_compiler_arg(const char *a, char *path, size_t len)
{
	if (a[0] == '-' || a[0] == '@' || xl_cc_is_source(a))
		return 0;
	const char *dot = strrchr(a, '.');
	const char *slash = strrchr(a, '/');
	if (dot && (!slash || dot > slash) &&
	    (!strcmp(dot, ".o") || !strcmp(dot, ".a") || !strcmp(dot, ".so") || !strcmp(dot, ".s") ||
	     !strcmp(dot, ".S")))
		return 0;
	if (slash) {
		if (access(a, X_OK) != 0)
			return 0;
		snprintf(path, len, "%s", a);
		return 1;
	}
	return xl_which(a, path, len) == 0;
}

static int is_regular(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Is path this very exaloop (a wrapper given as the compiler to wrap:
 * CC=exaloop-cc together with the launcher variables)? */
static int is_self(const char *path)
{
	char a[PATH_MAX], b[PATH_MAX];
	return realpath(path, a) && realpath("/proc/self/exe", b) && strcmp(a, b) == 0;
}

/* The wrapped compiler must be clang: XRay is clang's. */
static int is_clang(const char *path)
{
	char real[PATH_MAX];
	const char *p = realpath(path, real) ? real : path;
	const char *base = strrchr(p, '/');
	return strstr(base ? base + 1 : p, "clang") != NULL;
}

/* Append one line to $EXALOOP_CC_LOG in a single write. */
static void log_link(const char *kind, const char *out)
{
	const char *log = getenv("EXALOOP_CC_LOG");
	if (!log || !*log)
		return;
	char abs[PATH_MAX], cwd[PATH_MAX], line[2 * PATH_MAX + 32];
	int n;
	if (realpath(out, abs))
		n = snprintf(line, sizeof(line), "%s %s\n", kind, abs);
	else if (out[0] == '/')
		n = snprintf(line, sizeof(line), "%s %s\n", kind, out);
	else /* not linked yet (shared objects are logged first) */
		n = snprintf(line, sizeof(line), "%s %s/%s\n", kind, getcwd(cwd, sizeof(cwd)) ? cwd : ".", out);
	if (n <= 0 || (size_t)n >= sizeof(line))
		return;
	int fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	if (write(fd, line, (size_t)n) != n) {
		/* the listing is a convenience: the build itself succeeded */
	}
	close(fd);
}

static int is_system_path(const char *p)
{
	return !strncmp(p, "/usr/", 5) || !strncmp(p, "/lib", 4);
}

static int is_shared_lib(const char *p)
{
	size_t n = strlen(p);
	return (n > 3 && !strcmp(p + n - 3, ".so")) || strstr(p, ".so.") != NULL;
}

/* The project's shared libraries this link uses: inputs named by path,
 * and -l names found in the -L directories of this command line (where a
 * project's own libraries are; the system's are not listed).  The linker
 * takes lib<name>.so before lib<name>.a in each directory. */
static void project_shared_libs(const struct xl_ccline *cl, struct strvec *out)
{
	for (size_t i = 0; i < cl->ninputs; i++)
		if (is_shared_lib(cl->inputs[i]) && !is_system_path(cl->inputs[i]))
			strvec_push(out, cl->inputs[i]);
	for (size_t i = 0; !cl->is_static && i < cl->nlibs; i++) {
		for (size_t d = 0; d < cl->nlibdirs; d++) {
			char so[PATH_MAX], ar[PATH_MAX];
			snprintf(so, sizeof(so), "%s/lib%s.so", cl->libdirs[d], cl->libs[i]);
			snprintf(ar, sizeof(ar), "%s/lib%s.a", cl->libdirs[d], cl->libs[i]);
			if (access(so, F_OK) == 0) {
				if (!is_system_path(so))
					strvec_push(out, so);
				break;
			}
			if (access(ar, F_OK) == 0)
				break;
		}
	}
}

/* Arguments for the musttail scan of a compile step (tailcall.h): the
 * sources, and the options that shape their IR (output, step and
 * dependency-file options left out). */
static int musttail_list(const char *compiler, const struct xl_ccline *cl, char *list, size_t len)
{
	struct xl_build_args a = {0};
	a.sources = calloc(cl->ninputs + 1, sizeof(char *));
	a.flags = calloc(cl->nargs + 1, sizeof(char *));
	if (!a.sources || !a.flags) {
		xl_build_args_release(&a);
		return -1;
	}
	static const char *const drop1[] = {"-c", "-S", "-E", "-M", "-MM", "-MD", "-MMD", "-MP", NULL};
	static const char *const drop2[] = {"-o", "-MF", "-MT", "-MQ", NULL};
	for (size_t i = 0; i < cl->nargs; i++) {
		const char *s = cl->args[i];
		int skip = 0;
		for (size_t k = 0; drop2[k]; k++)
			if (!strcmp(s, drop2[k])) {
				skip = 2;
				break;
			}
		for (size_t k = 0; !skip && drop1[k]; k++)
			skip = !strcmp(s, drop1[k]);
		if (!skip &&
		    (!strncmp(s, "-o", 2) || !strncmp(s, "-MF", 3) || !strncmp(s, "-MT", 3) || !strncmp(s, "-MQ", 3)))
			skip = 1;
		if (!skip && s[0] != '-' && xl_cc_is_source(s)) {
			a.sources[a.nsources++] = s;
			continue;
		}
		if (skip == 2)
			i++;
		else if (!skip)
			a.flags[a.nflags++] = s;
	}
	int rc = xl_musttail_exclusions(compiler, &a, list, len, &xl_stderr_msgs);
	xl_build_args_release(&a);
	return rc;
}

/* `exaloop cc --help` alone is exaloop's help; any other use of --help
 * (exaloop-cc --help, with arguments) is clang's.  (Called as exaloop-cc,
 * main passes the whole command line: argc == ctx->argc.)  1 when it was
 * exaloop's, printed. */
static int own_help(int argc, const char **argv, const struct xl_ctx *ctx, int cxx)
{
	static const char about[] =
		"Run %s with the same arguments plus exaloop's instrumentation: XRay flags when\n"
		"compiling; when linking an executable, the profiling runtime and OUT.profile.json,\n"
		"OUT.symbols.json beside it. For CC/CXX of a project's own build (also as the links\n"
		"exaloop-cc, exaloop-c++) and as CMAKE_<LANG>_COMPILER_LAUNCHER / _LINKER_LAUNCHER\n"
		"(COMPILER: the clang to run). The mode is --profile=MODE, else $EXALOOP_PROFILE,\n"
		"else all. Every other argument is the compiler's.";
	static const struct xl_usage usage_cc = {"cc", "[--profile=MODE] [COMPILER] ARGS...", NULL, NULL, NULL, NULL},
				     usage_cxx = {"c++", "[--profile=MODE] [COMPILER] ARGS...", NULL, NULL, NULL, NULL};
	if (!(argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) && ctx->argc > argc))
		return 0;
	char text[sizeof(about) + 16];
	snprintf(text, sizeof(text), about, cxx ? "clang++-14" : "clang-14");
	struct xl_usage u = cxx ? usage_cxx : usage_cc;
	u.about = text;
	xl_usage_print(&u, stdout);
	return 1;
}

/* exaloop's own --profile[=MODE] (globals.h), which exaloop-cc gets here:
 * main parses no global options for it; else $EXALOOP_PROFILE, else all.
 * *i: the first argument after them.  0 or an exit code (printed). */
static int capture_mode(int argc, const char **argv, const struct xl_ctx *ctx, const char *name, int *i, uint32_t *mode)
{
	struct xl_ctx own = *ctx;
	for (*i = 1; *i < argc && !strncmp(argv[*i], "--profile", 9); (*i)++) {
		const char *a = argv[*i];
		if (a[9] && a[9] != '=') {
			xl_error("%s: invalid option '%s' (use --profile=all, --profile=memory or --profile=xray)",
				 name, a);
			return XL_EXIT_USAGE;
		}
		/* checked here, so that the error names the wrapper as its
		 * others do (xl_parse_profile's own message would not) */
		uint32_t m;
		if (a[9] && xl_mode_parse(a + 10, &m) != 0) {
			xl_error("%s: invalid profile mode '%s' (use all, memory or xray)", name, a + 10);
			return XL_EXIT_USAGE;
		}
		if (xl_parse_profile(a[9] ? a + 10 : NULL, &own) != 0)
			return XL_EXIT_USAGE;
	}
	*mode = own.mode_explicit ? own.mode : XL_MODE_ALL;
	const char *env = getenv("EXALOOP_PROFILE");
	if (!own.mode_explicit && env && *env && xl_mode_parse(env, mode) != 0) {
		xl_error("%s: invalid EXALOOP_PROFILE='%s' (use all, memory or xray)", name, env);
		return XL_EXIT_USAGE;
	}
	return 0;
}

/* The compiler to run: argv[*i] when it is one (launcher form; skipped
 * when it is exaloop's own wrapper, wrapped twice), else clang from PATH.
 * 0 or an exit code (printed). */
static int find_compiler(int argc, const char **argv, int *i, int cxx, const char *name, char *compiler, size_t len)
{
	if (*i < argc && is_compiler_arg(argv[*i], compiler, len) && is_self(compiler))
		(*i)++; /* wrapped twice: once is enough */
	if (*i < argc && is_compiler_arg(argv[*i], compiler, len)) {
		if (!is_clang(compiler)) {
			xl_error("%s: '%s' is not clang, and exaloop's function tracing needs clang 14's XRay", name,
				 argv[*i]);
			xl_hint("configure the project for clang: CC=clang-14 CXX=clang++-14 (CMake: "
				"-DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14)");
			return XL_EXIT_BUILD;
		}
		(*i)++;
		return 0;
	}
	if (xl_find_compiler(cxx ? XL_LANG_CXX : XL_LANG_C, compiler, len) != 0) {
		xl_error("%s: no %s compiler found (looked for %s in PATH)", name, cxx ? "C++" : "C",
			 cxx ? "clang++-14, clang++" : "clang-14, clang");
		xl_hint("install it: apt-get install clang-14 libclang-rt-14-dev");
		return XL_EXIT_BUILD;
	}
	return 0;
}

/* The command: compiler, exaloop's compile flags, the build's own
 * arguments as given (response files unexpanded), then the link flags.
 * never: the musttail exclusion list made for it ("" when none). */
static void compiler_command(struct strvec *cargv, const char *compiler, const struct xl_ccline *cl,
			     enum xl_build_mode bm, const char *const *args, int nargs, const struct xl_sdk *sdk,
			     char *never, size_t never_len)
{
	strvec_push(cargv, compiler);
	xl_arch_flags(cargv);
	if (cl->step != XL_CC_INFO) {
		int xray = bm == XL_BUILD_TRACED;
		int tailcall = xray && cl->step != XL_CC_PREPROCESS && xl_tailcall_workaround();
		if (tailcall && musttail_list(compiler, cl, never, never_len) != 0)
			xl_warn("could not list the functions that make musttail calls: they stay traced, and XRay's "
				"tail-exit trampoline may corrupt their callees' arguments on this architecture");
		xl_xray_compile_flags(cargv, bm, 1, tailcall, never[0] ? never : NULL);
	}
	for (int k = 0; k < nargs; k++)
		strvec_push(cargv, args[k]);
	if (cl->step == XL_CC_LINK_EXE) {
		xl_profile_link_flags(cargv, bm, xl_allocations_on(), sdk->runtime);
		strvec_push(cargv, "-pthread");
	}
}

/* After a link: OUT.profile.json and OUT.symbols.json beside the
 * executable out, and its line in the link log.  An exit code. */
static int link_sidecars(const char *out, const struct xl_ccline *cl, const struct strvec *cargv, uint32_t mode,
			 const char *name, const char *compiler, const struct xl_sdk *sdk, const char *const *flags,
			 int64_t took)
{
	char command[8192], version[128];
	size_t len = 0;
	command[0] = 0;
	for (size_t k = 0; k < cargv->n && len < sizeof(command); k++)
		len += (size_t)snprintf(command + len, sizeof(command) - len, "%s%s", k ? " " : "", cargv->v[k]);
	xl_compiler_version(compiler, version, sizeof(version));
	const char **sources = calloc(cl->ninputs + 1, sizeof(char *));
	size_t ns = 0;
	for (size_t k = 0; sources && k < cl->ninputs; k++)
		if (xl_cc_is_source(cl->inputs[k]))
			sources[ns++] = cl->inputs[k];
	struct strvec libs;
	strvec_init(&libs);
	project_shared_libs(cl, &libs);
	struct xl_sidecar sc = {0};
	sc.mode = mode;
	sc.release = -1;
	sc.built_by = name;
	sc.compiler = compiler;
	sc.compiler_version = version;
	sc.sdk_dir = sdk->dir;
	sc.sources = sources;
	sc.flags = flags;
	sc.command = command;
	sc.build_ns = took;
	sc.xray_threshold = 1;
	sc.untraced_libs = (const char *const *)libs.v;
	char why[1024];
	int rc = xl_sidecars_write(out, &sc, why, sizeof(why));
	if (rc != XL_OK)
		xl_error("%s", why);
	rc = xl_exit_for_build(rc, 0);
	if (rc == 0)
		log_link("exe", out);
	strvec_release(&libs);
	free(sources);
	return rc;
}

/* Become the compiler: its status, signals and output are the build's,
 * and a probe pays one exec.  Returns only when exec failed. */
static int become_compiler(const char *compiler, struct strvec *cargv, const struct xl_ccline *cl, const char *name)
{
	/* Logged before the link (the process becomes clang): a failed link
	 * leaves no file, and the listing skips missing files. */
	if (cl->step == XL_CC_LINK_SHARED)
		log_link("shared", xl_ccline_exe(cl));
	execv(compiler, cargv->v);
	xl_error("%s: cannot run '%s': %s", name, compiler, strerror(errno));
	return errno == ENOENT ? XL_EXIT_NOTFOUND : XL_EXIT_NOEXEC;
}

int cmd_cc(int argc, const char **argv, struct xl_ctx *ctx)
{
	int cxx = strcmp(argv[0], "c++") == 0;
	const char *name = cxx ? "exaloop c++" : "exaloop cc";
	if (own_help(argc, argv, ctx, cxx))
		return XL_EXIT_OK;
	int i;
	uint32_t mode;
	char compiler[PATH_MAX];
	int rc = capture_mode(argc, argv, ctx, name, &i, &mode);
	if (rc == 0)
		rc = find_compiler(argc, argv, &i, cxx, name, compiler, sizeof(compiler));
	if (rc != 0)
		return rc;

	struct xl_ccline cl;
	char err[512];
	if (xl_ccline_parse(argc - i, argv + i, &cl, err, sizeof(err)) != 0) {
		xl_error("%s: %s", name, err);
		return XL_EXIT_BUILD;
	}
	enum xl_build_mode bm = xl_build_mode_for(1, mode);
	int link_exe = cl.step == XL_CC_LINK_EXE;
	struct xl_sdk sdk;
	if (link_exe && xl_sdk_find(&sdk, err, sizeof(err)) != 0) {
		xl_error("%s: %s", name, err);
		xl_ccline_release(&cl);
		return XL_EXIT_BUILD;
	}
	struct strvec cargv;
	strvec_init(&cargv);
	char never[PATH_MAX] = "";
	compiler_command(&cargv, compiler, &cl, bm, argv + i, argc - i, &sdk, never, sizeof(never));
	if (cargv.oom) {
		xl_error("%s: out of memory", name);
		rc = XL_EXIT_FAIL;
	} else if (!link_exe && !never[0]) {
		rc = become_compiler(compiler, &cargv, &cl, name);
	} else {
		int64_t t0 = xl_now_ns();
		struct xl_process cc = {.argv = cargv.v, .signals = XL_SIGNALS_FORWARD};
		rc = xl_process_run(&cc);
		int64_t took = xl_now_ns() - t0;
		if (never[0])
			unlink(never);
		if (rc < 0) {
			xl_error("%s: cannot run '%s': %s", name, compiler, strerror(errno));
			rc = errno == ENOENT ? XL_EXIT_NOTFOUND : XL_EXIT_NOEXEC;
		} else if (rc == 0 && link_exe && !xl_ccline_is_probe(&cl) && is_regular(xl_ccline_exe(&cl))) {
			/* (-o /dev/null, a probe's favourite, gets nothing beside it) */
			rc = link_sidecars(xl_ccline_exe(&cl), &cl, &cargv, mode, name, compiler, &sdk, argv + i, took);
		}
	}
	strvec_release(&cargv);
	xl_ccline_release(&cl);
	return rc;
}
