/*
 * sdk.h - the profiling SDK: runtime library, report assets and a manifest
 * naming it, its version and the compiler it matches.
 *
 *   <dir>/manifest.toml      name = "exaloop-profiling", version, compiler,
 *                            compiler_version, runtime
 *   <dir>/libexaloop_rt.a
 *   <dir>/report/report.{html,css,js}
 *
 * Lookup order: the SDK registered with `exaloop plugin add profiling
 * --path DIR` (the user's config.toml), then the SDK beside the CLI (the
 * build tree and an installed tree share the layout bin/exaloop +
 * <libdir>/exaloop/profiling/).
 */
#ifndef XL_SDK_H
#define XL_SDK_H

#include <limits.h>
#include <stddef.h>

#define XL_SDK_NAME "exaloop-profiling"

struct xl_sdk {
	char dir[PATH_MAX];
	char runtime[PATH_MAX + 256 + 2]; /* dir + "/" + the manifest's runtime name */
	char version[64];
	char compiler[64];
	char compiler_version[64];
	int registered; /* came from the user's config */
};

/* Validate the SDK in dir: manifest, runtime, report assets, and the
 * compiler version against the installed clang (cc_version, e.g.
 * "14.0.6"; NULL skips that check).  Returns 0, or -1 with one line. */
int xl_sdk_check(const char *dir, const char *cc_version, struct xl_sdk *sdk, char *err, size_t errlen);

/* Find the SDK to use (registered, then beside the CLI) and check it. */
int xl_sdk_find(struct xl_sdk *sdk, char *err, size_t errlen);

/* The SDK shipped beside this exaloop executable (not checked). */
int xl_sdk_builtin_dir(char *dir, size_t len);

/* Directory of the running exaloop executable. */
int xl_self_dir(char *buf, size_t len);

/* The user's config file: $XDG_CONFIG_HOME/exaloop/config.toml, or
 * ~/.config/exaloop/config.toml. */
int xl_config_path(char *path, size_t len);
/* The registered profiling SDK directory from the config ("" if none).
 * Returns 0, or -1 with one line when the config cannot be read. */
int xl_config_sdk(char *dir, size_t len, char *err, size_t errlen);
/* Register (dir != NULL) or unregister (dir == NULL) the profiling SDK. */
int xl_config_set_sdk(const char *dir, const char *version, char *err, size_t errlen);

/* Major version of a "14.0.6"-style string (0 when unparsable). */
int xl_major_version(const char *v);

#endif
