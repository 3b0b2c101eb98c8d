/*
 * projbuild.h - running a project's own build (make, CMake, meson, a
 * script) with exaloop's compiler wrappers.
 *
 * The build command runs with CC and CXX naming the wrappers (exaloop-cc,
 * exaloop-c++ beside this exaloop), EXALOOP_PROFILE set to the mode, and
 * EXALOOP_CC_LOG naming a private log file the wrappers append each link
 * to.  Afterwards the log says which executables (with sidecars) and
 * shared libraries the build linked.
 */
#ifndef XL_PROJBUILD_H
#define XL_PROJBUILD_H

#include <stddef.h>
#include <stdint.h>

struct xl_projbuild {
	char **exes; /* executables linked (absolute, existing, each once, in link order), NULL-terminated */
	size_t nexes;
	char **shared; /* shared libraries linked, likewise */
	size_t nshared;
	int64_t build_ns;
};

/* Run argv (NULL-terminated) in dir (NULL: the current directory);
 * stdout_to_stderr: the build's stdout goes to stderr (before `run`).  Returns 0, or an
 * exit code after printing why (the command failed: XL_EXIT_BUILD, or
 * 128+N when interrupted; it could not start: XL_EXIT_NOTFOUND). */
int xl_projbuild_run(const char *const *argv, uint32_t mode, const char *dir, int stdout_to_stderr,
		     struct xl_projbuild *pb);
void xl_projbuild_release(struct xl_projbuild *pb);

/* Print what was built: each executable with its sidecars, the shared
 * libraries (not traced), and the next step. */
void xl_projbuild_list(const struct xl_projbuild *pb);

#endif
