/*
 * exec_built.h - capture from an executable built for profiling, using
 * the sidecars written when it was linked (sidecar.h).
 *
 * Shared by `profile exec`, `run -- BUILD-COMMAND :: ./app` and targets
 * whose exaloop.toml names a build command and a binary.
 */
#ifndef XL_EXEC_BUILT_H
#define XL_EXEC_BUILT_H

#include <stdint.h>
#include <sys/types.h>

struct xl_ctx;
struct xl_settings;

/* Check exe's sidecars (present, valid, same build id, a mode that can do
 * what is asked), then run exe with args under capture.  set: capture
 * settings (mode applies when set->mode_set, else the build's mode);
 * NULL for defaults.  Returns the program's status or an exit code. */
int xl_exec_built(const char *exe, const char *const *args, const struct xl_settings *set, int long_running,
		  const struct xl_ctx *ctx);

/* `profile attach`: capture from process pid, which runs an executable
 * built for profiling (its sidecars beside it, checked the same way) and
 * is not captured yet, for set's window (a duration is required). */
int xl_attach_built(pid_t pid, const struct xl_settings *set, const struct xl_ctx *ctx);

#endif
