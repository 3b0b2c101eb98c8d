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

#include "xl_msgs.h"

struct xl_projbuild {
	char **exes; /* executables linked (absolute, existing, each once, in link order), NULL-terminated */
	size_t nexes;
	char **shared; /* shared libraries linked, likewise */
	size_t nshared;
	int64_t build_ns;
	int signal; /* with XL_EINTR: the signal that interrupted the build */
};

/* Run argv (NULL-terminated) in dir (NULL: the current directory);
 * stdout_to_stderr: the build's stdout goes to stderr (before `run`).
 * Returns XL_OK, or after an error (m): XL_EBUILD (the command failed, or
 * no wrappers), XL_EINTR (pb->signal interrupted it), XL_ENOTFOUND or
 * XL_ENOEXEC (it could not start), XL_ENOMEM. */
int xl_projbuild_run(const char *const *argv, uint32_t mode, const char *dir, int stdout_to_stderr,
		     struct xl_projbuild *pb, const struct xl_msgs *m);
void xl_projbuild_release(struct xl_projbuild *pb);

#endif
