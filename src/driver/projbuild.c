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
#include "process.h"
#include "projbuild.h"
#include "sdk.h"
#include "toolchain.h"
#include "units.h"
#include "xl_errors.h"
#include "fileio.h"

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

/* The build's environment: the wrappers as the compilers.  A CMake tree
 * configured before keeps its cached compiler; the hint after a build
 * that linked nothing says so.  0, or -1 when out of memory. */
static int wrapper_env(const char *cc, const char *cxx, uint32_t mode, const char *log)
{
	setenv("CC", cc, 1);
	setenv("CXX", cxx, 1);
	/* GNU make takes variable definitions in MAKEFLAGS as command-line
	 * ones, which beat a makefile's own `CC = gcc` (Lua's does that),
	 * here and in sub-makes. */
	const char *mf = getenv("MAKEFLAGS");
	char *makeflags = NULL;
	if (asprintf(&makeflags, "%s%sCC=%s CXX=%s", mf && *mf ? mf : "", mf && *mf ? " " : "", cc, cxx) < 0)
		return -1;
	setenv("MAKEFLAGS", makeflags, 1);
	free(makeflags);
	setenv("EXALOOP_PROFILE", xl_mode_name(mode), 1);
	setenv("EXALOOP_CC_LOG", log, 1);
	return 0;
}

/* What the build command's status rc (errno err when it could not run)
 * means: XL_OK or an error, said to m. */
static int build_status(int rc, int err, const char *cmd, struct xl_projbuild *pb, const struct xl_msgs *m)
{
	if (rc < 0) {
		xl_msgf(m, XL_MSG_ERROR, "cannot run the build command '%s': %s", cmd, strerror(err));
		return err == ENOENT ? XL_ENOTFOUND : XL_ENOEXEC;
	}
	if (rc > 128 && (rc - 128 == SIGINT || rc - 128 == SIGTERM || rc - 128 == SIGHUP || rc - 128 == SIGQUIT)) {
		xl_msgf(m, XL_MSG_ERROR, "the build was interrupted (%s)", strsignal(rc - 128));
		pb->signal = rc - 128;
		return XL_EINTR;
	}
	if (rc != 0) {
		xl_msgf(m, XL_MSG_ERROR, "the build command '%s' failed (exit status %d)", cmd, rc);
		return XL_EBUILD;
	}
	return XL_OK;
}

int xl_projbuild_run(const char *const *argv, uint32_t mode, const char *dir_in, int quiet_stdout,
		     struct xl_projbuild *pb, const struct xl_msgs *m)
{
	memset(pb, 0, sizeof(*pb));
	char self[PATH_MAX], cc[PATH_MAX + 16], cxx[PATH_MAX + 16];
	if (xl_self_dir(self, sizeof(self)) != 0) {
		xl_msgf(m, XL_MSG_ERROR,
			"cannot find exaloop's own directory (/proc/self/exe): the compiler wrappers live there");
		return XL_EBUILD;
	}
	snprintf(cc, sizeof(cc), "%s/exaloop-cc", self);
	snprintf(cxx, sizeof(cxx), "%s/exaloop-c++", self);
	if (access(cc, X_OK) != 0 || access(cxx, X_OK) != 0) {
		xl_msgf(m, XL_MSG_ERROR,
			"the compiler wrappers '%s' and '%s' are missing: reinstall exaloop (they are links to it)", cc,
			cxx);
		return XL_EBUILD;
	}
	char dir[PATH_MAX - 16], log[PATH_MAX];
	if (xl_make_temp_dir("build", dir, sizeof(dir)) != 0) {
		xl_msgf(m, XL_MSG_ERROR, "cannot create a temporary directory: %s", strerror(errno));
		return XL_EBUILD;
	}
	snprintf(log, sizeof(log), "%s/links", dir);
	if (wrapper_env(cc, cxx, mode, log) != 0) {
		xl_msgf(m, XL_MSG_ERROR, "out of memory");
		rmdir(dir);
		return XL_ENOMEM;
	}
	int64_t t0 = xl_now_ns();
	int here = dir_in ? open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	int rc = -1, err = 0;
	if (dir_in && (here < 0 || chdir(dir_in) != 0)) {
		xl_msgf(m, XL_MSG_ERROR, "cannot enter the build directory '%s': %s", dir_in, strerror(errno));
		if (here >= 0)
			close(here);
		rmdir(dir);
		return XL_EBUILD;
	}
	struct xl_process p = {.argv = (char *const *)argv,
			       .signals = XL_SIGNALS_FORWARD,
			       .setup = quiet_stdout ? stdout_to_stderr : NULL};
	rc = xl_process_run(&p);
	err = errno;
	if (here >= 0) {
		if (fchdir(here) != 0)
			xl_msgf(m, XL_MSG_WARN, "cannot return to the starting directory: %s", strerror(errno));
		close(here);
	}
	pb->build_ns = xl_now_ns() - t0;
	unsetenv("EXALOOP_CC_LOG");
	read_log(log, pb);
	unlink(log);
	rmdir(dir);
	return build_status(rc, err, argv[0], pb, m);
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
