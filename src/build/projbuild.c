/*
 * projbuild.c - a project's own build with the compiler wrappers (see
 * projbuild.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "exitcode.h"
#include "msg.h"
#include "process.h"
#include "projbuild.h"
#include "sdk.h"
#include "toolchain.h"
#include "units.h"

/* In the build's process before exec: its stdout is our stderr. */
static void stdout_to_stderr(void *arg)
{
	(void)arg;
	dup2(2, 1);
}

/* Add path to list unless present (a relinked executable moves last). */
static int add_unique(char ***list, size_t *n, const char *path)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*list)[i], path) == 0) {
			char *keep = (*list)[i];
			memmove(*list + i, *list + i + 1, (*n - i - 1) * sizeof(char *));
			(*list)[*n - 1] = keep;
			return 0;
		}
	char **v = realloc(*list, (*n + 2) * sizeof(char *));
	if (!v)
		return -1;
	*list = v;
	if (!(v[*n] = strdup(path)))
		return -1;
	v[++*n] = NULL;
	return 0;
}

static void read_log(const char *log, struct xl_projbuild *pb)
{
	FILE *f = fopen(log, "re");
	if (!f)
		return;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[len - 1] = 0;
		char *path = strchr(line, ' ');
		if (!path)
			continue;
		*path++ = 0;
		if (access(path, F_OK) != 0)
			continue; /* removed again by the build (a probe, a temporary) */
		if (strcmp(line, "exe") == 0)
			add_unique(&pb->exes, &pb->nexes, path);
		else if (strcmp(line, "shared") == 0)
			add_unique(&pb->shared, &pb->nshared, path);
	}
	free(line);
	fclose(f);
}

int xl_projbuild_run(const char *const *argv, uint32_t mode, const char *dir_in, int quiet_stdout,
		     struct xl_projbuild *pb)
{
	memset(pb, 0, sizeof(*pb));
	char self[PATH_MAX], cc[PATH_MAX + 16], cxx[PATH_MAX + 16];
	if (xl_self_dir(self, sizeof(self)) != 0) {
		xl_error("cannot find exaloop's own directory (/proc/self/exe): the compiler wrappers live there");
		return XL_EXIT_BUILD;
	}
	snprintf(cc, sizeof(cc), "%s/exaloop-cc", self);
	snprintf(cxx, sizeof(cxx), "%s/exaloop-c++", self);
	if (access(cc, X_OK) != 0 || access(cxx, X_OK) != 0) {
		xl_error("the compiler wrappers '%s' and '%s' are missing: reinstall exaloop (they are links to it)",
			 cc, cxx);
		return XL_EXIT_BUILD;
	}
	char dir[] = "/tmp/exaloop-build-XXXXXX", log[sizeof(dir) + 16];
	if (!mkdtemp(dir)) {
		xl_error("cannot create a temporary directory: %s", strerror(errno));
		return XL_EXIT_BUILD;
	}
	snprintf(log, sizeof(log), "%s/links", dir);
	/* The build's environment: the wrappers as the compilers.  A CMake
	 * tree configured before keeps its cached compiler; the hint after a
	 * build that linked nothing says so. */
	setenv("CC", cc, 1);
	setenv("CXX", cxx, 1);
	/* GNU make takes variable definitions in MAKEFLAGS as command-line
	 * ones, which beat a makefile's own `CC = gcc` (Lua's does that),
	 * here and in sub-makes. */
	const char *mf = getenv("MAKEFLAGS");
	char *makeflags = NULL;
	if (asprintf(&makeflags, "%s%sCC=%s CXX=%s", mf && *mf ? mf : "", mf && *mf ? " " : "", cc, cxx) < 0) {
		xl_error("out of memory");
		return XL_EXIT_FAIL;
	}
	setenv("MAKEFLAGS", makeflags, 1);
	free(makeflags);
	setenv("EXALOOP_PROFILE", xl_mode_name(mode), 1);
	setenv("EXALOOP_CC_LOG", log, 1);
	int64_t t0 = xl_now_ns();
	int here = dir_in ? open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	int rc = -1, err = 0;
	if (dir_in && (here < 0 || chdir(dir_in) != 0)) {
		xl_error("cannot enter the build directory '%s': %s", dir_in, strerror(errno));
		if (here >= 0)
			close(here);
		rmdir(dir);
		return XL_EXIT_BUILD;
	}
	struct xl_process p = {.argv = (char *const *)argv,
			       .signals = XL_SIGNALS_FORWARD,
			       .setup = quiet_stdout ? stdout_to_stderr : NULL};
	rc = xl_process_run(&p);
	err = errno;
	if (here >= 0) {
		if (fchdir(here) != 0)
			xl_warn("cannot return to the starting directory: %s", strerror(errno));
		close(here);
	}
	pb->build_ns = xl_now_ns() - t0;
	unsetenv("EXALOOP_CC_LOG");
	read_log(log, pb);
	unlink(log);
	rmdir(dir);
	if (rc < 0) {
		xl_error("cannot run the build command '%s': %s", argv[0], strerror(err));
		return err == ENOENT ? XL_EXIT_NOTFOUND : XL_EXIT_NOEXEC;
	}
	if (rc > 128 && (rc - 128 == SIGINT || rc - 128 == SIGTERM || rc - 128 == SIGHUP || rc - 128 == SIGQUIT)) {
		xl_error("the build was interrupted (%s)", strsignal(rc - 128));
		return rc;
	}
	if (rc != 0) {
		xl_error("the build command '%s' failed (exit status %d)", argv[0], rc);
		return XL_EXIT_BUILD;
	}
	return 0;
}

void xl_projbuild_release(struct xl_projbuild *pb)
{
	for (size_t i = 0; i < pb->nexes; i++)
		free(pb->exes[i]);
	for (size_t i = 0; i < pb->nshared; i++)
		free(pb->shared[i]);
	free(pb->exes);
	free(pb->shared);
	memset(pb, 0, sizeof(*pb));
}

/* path relative to the current directory when it lies below it */
static const char *shown(const char *path, const char *cwd)
{
	size_t n = strlen(cwd);
	if (n > 1 && strncmp(path, cwd, n) == 0 && path[n] == '/')
		return path + n + 1;
	return path;
}

void xl_projbuild_list(const struct xl_projbuild *pb)
{
	char cwd[PATH_MAX], took[32];
	if (!getcwd(cwd, sizeof(cwd)))
		cwd[0] = 0;
	xl_fmt_duration(pb->build_ns, took, sizeof(took));
	if (!pb->nexes) {
		xl_warn("the build (%s) linked no executable through exaloop's compiler wrappers", took);
		xl_hint("nothing was relinked (clean first: make clean), or the build does not use $CC/$CXX (a CMake or "
			"meson tree configured before keeps its compiler: configure a new build directory under exaloop)");
		return;
	}
	xl_note("built in %s: %zu instrumented executable%s (each with .profile.json and .symbols.json)", took,
		pb->nexes, pb->nexes == 1 ? "" : "s");
	for (size_t i = 0; i < pb->nexes; i++)
		fprintf(stderr, "  %s\n", shown(pb->exes[i], cwd));
	if (pb->nshared) {
		xl_note("%zu shared librar%s (not traced: clang 14's XRay instruments executables only)", pb->nshared,
			pb->nshared == 1 ? "y" : "ies");
		for (size_t i = 0; i < pb->nshared; i++)
			fprintf(stderr, "  %s\n", shown(pb->shared[i], cwd));
	}
	const char *first = shown(pb->exes[pb->nexes - 1], cwd);
	xl_hint("profile one: exaloop profile exec %s%s [args...]", strchr(first, '/') ? "" : "./", first);
}
