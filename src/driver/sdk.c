/*
 * sdk.c - find and validate the profiling SDK; the user's config file
 * (see sdk.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "sdk.h"
#include "toml.h"
#include "toolchain.h"

#ifndef XL_SDK_RELDIR
#define XL_SDK_RELDIR "lib/exaloop/profiling"
#endif
#ifndef XL_VERSION
#define XL_VERSION "0.0.0"
#endif

int xl_self_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	char *slash = strrchr(buf, '/');
	if (!slash)
		return -1;
	*slash = 0;
	return 0;
}

int xl_major_version(const char *v)
{
	return v ? atoi(v) : 0;
}

static int manifest_string(const struct xl_toml_value *root, const char *key, char *out, size_t len)
{
	const char *s;
	if (!xl_toml_as_string(xl_toml_table_get(root, key), &s, NULL) || !*s)
		return -1;
	snprintf(out, len, "%s", s);
	return 0;
}

/* The runtime library of the target architecture: <dir>/<runtime>, or
 * another architecture's in <dir>/<arch>/ (a cross build of the runtime
 * installs it there: cmake/aarch64-linux-gnu.cmake). */
static int runtime_path(struct xl_sdk *sdk, const char *runtime, char *err, size_t errlen)
{
	int cross = xl_arch_is_cross();
	const char *arch = xl_target_arch();
	snprintf(sdk->runtime, sizeof(sdk->runtime), "%s/%s%s%s", sdk->dir, cross ? arch : "", cross ? "/" : "",
		 runtime);
	if (access(sdk->runtime, R_OK) == 0)
		return 0;
	if (cross)
		snprintf(err, errlen,
			 "profiling SDK '%s' has no %s runtime ('%s/%s'): build it with cmake/%s-linux-gnu.cmake and "
			 "EXALOOP_RUNTIME_ONLY (docs/cli.md, \"--arch\")",
			 sdk->dir, arch, arch, runtime, arch);
	else
		snprintf(err, errlen, "profiling SDK '%s' lacks its runtime library '%s'", sdk->dir, runtime);
	return -1;
}

int xl_sdk_check(const char *dir, const char *cc_version, struct xl_sdk *sdk, char *err, size_t errlen)
{
	memset(sdk, 0, sizeof(*sdk));
	if (!realpath(dir, sdk->dir)) {
		snprintf(err, errlen, "profiling SDK '%s' does not exist: %s", dir, strerror(errno));
		return -1;
	}
	char path[PATH_MAX + 64];
	snprintf(path, sizeof(path), "%s/manifest.toml", sdk->dir);
	struct xl_toml_error terr;
	struct xl_toml_value *root = xl_toml_parse_file(path, &terr);
	if (!root) {
		snprintf(err, errlen, "profiling SDK '%s' has no valid manifest: %s", sdk->dir, terr.text);
		return -1;
	}
	char name[64] = "", runtime[256] = "";
	int bad = manifest_string(root, "name", name, sizeof(name)) ||
		  manifest_string(root, "version", sdk->version, sizeof(sdk->version)) ||
		  manifest_string(root, "compiler", sdk->compiler, sizeof(sdk->compiler)) ||
		  manifest_string(root, "compiler_version", sdk->compiler_version, sizeof(sdk->compiler_version)) ||
		  manifest_string(root, "runtime", runtime, sizeof(runtime));
	xl_toml_free(root);
	if (bad) {
		snprintf(err, errlen, "'%s' must give name, version, compiler, compiler_version and runtime as strings",
			 path);
		return -1;
	}
	if (strcmp(name, XL_SDK_NAME) != 0) {
		snprintf(err, errlen, "'%s' names '%s', not a profiling SDK ('%s')", path, name, XL_SDK_NAME);
		return -1;
	}
	if (strchr(runtime, '/')) {
		snprintf(err, errlen, "'%s': runtime must be a file name inside the SDK, not '%s'", path, runtime);
		return -1;
	}
	if (runtime_path(sdk, runtime, err, errlen) != 0)
		return -1;
	if (strcmp(sdk->compiler, "clang") != 0) {
		snprintf(err, errlen, "profiling SDK '%s' is for the compiler '%s'; exaloop builds with clang",
			 sdk->dir, sdk->compiler);
		return -1;
	}
	if (cc_version && xl_major_version(cc_version) != xl_major_version(sdk->compiler_version)) {
		snprintf(err, errlen,
			 "profiling SDK '%s' was built for clang %s, but the installed clang is %s: use an SDK built "
			 "for clang %d",
			 sdk->dir, sdk->compiler_version, cc_version, xl_major_version(cc_version));
		return -1;
	}
	/* The capture format and runtime interface change with minor versions
	 * before 1.0: major.minor must agree. */
	int a_major = -1, a_minor = -1, b_major = -2, b_minor = -2;
	sscanf(sdk->version, "%d.%d", &a_major, &a_minor);
	sscanf(XL_VERSION, "%d.%d", &b_major, &b_minor);
	if (a_major != b_major || a_minor != b_minor) {
		snprintf(err, errlen, "profiling SDK '%s' has version %s, but this exaloop is %s: use a matching SDK",
			 sdk->dir, sdk->version, XL_VERSION);
		return -1;
	}
	return 0;
}

int xl_sdk_builtin_dir(char *dir, size_t len)
{
	char self[PATH_MAX];
	if (xl_self_dir(self, sizeof(self)) != 0)
		return -1;
	return (size_t)snprintf(dir, len, "%s/../%s", self, XL_SDK_RELDIR) < len ? 0 : -1;
}

int xl_sdk_find(struct xl_sdk *sdk, char *err, size_t errlen)
{
	char cc[PATH_MAX], ver[64] = "", dir[PATH_MAX + 64];
	const char *ccv = NULL;
	if (xl_find_compiler(XL_LANG_C, cc, sizeof(cc)) == 0) {
		xl_compiler_version(cc, ver, sizeof(ver));
		ccv = ver[0] ? ver : NULL;
	}
	if (xl_config_sdk(dir, sizeof(dir), err, errlen) != 0)
		return -1;
	if (dir[0]) {
		if (xl_sdk_check(dir, ccv, sdk, err, errlen) != 0) {
			/* say where it was registered, and how to undo that */
			char cfg[PATH_MAX];
			size_t n = strlen(err);
			if (xl_config_path(cfg, sizeof(cfg)) == 0 && n < errlen)
				snprintf(err + n, errlen - n,
					 " (registered in %s; 'exaloop plugin remove profiling' goes back to the SDK "
					 "beside exaloop)",
					 cfg);
			return -1;
		}
		sdk->registered = 1;
		return 0;
	}
	if (xl_sdk_builtin_dir(dir, sizeof(dir)) != 0 || access(dir, F_OK) != 0) {
		snprintf(err, errlen,
			 "no profiling SDK found beside exaloop ('%s'): build exaloop with CMake, or register one with "
			 "'exaloop plugin add profiling --path DIR'",
			 dir);
		return -1;
	}
	return xl_sdk_check(dir, ccv, sdk, err, errlen);
}

int xl_config_path(char *path, size_t len)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	int n;
	if (xdg && *xdg)
		n = snprintf(path, len, "%s/exaloop/config.toml", xdg);
	else if (home && *home)
		n = snprintf(path, len, "%s/.config/exaloop/config.toml", home);
	else
		return -1;
	return n > 0 && (size_t)n < len ? 0 : -1;
}

int xl_config_sdk(char *dir, size_t len, char *err, size_t errlen)
{
	char path[PATH_MAX];
	dir[0] = 0;
	if (xl_config_path(path, sizeof(path)) != 0 || access(path, F_OK) != 0)
		return 0;
	struct xl_toml_error terr;
	struct xl_toml_value *root = xl_toml_parse_file(path, &terr);
	if (!root) {
		snprintf(err, errlen, "%s (fix or remove the file)", terr.text);
		return -1;
	}
	const struct xl_toml_value *v = xl_toml_lookup(root, "plugins.profiling.path");
	const char *s;
	if (v && !xl_toml_as_string(v, &s, NULL)) {
		snprintf(err, errlen, "%s: plugins.profiling.path must be a string", path);
		xl_toml_free(root);
		return -1;
	}
	if (v)
		snprintf(dir, len, "%s", s);
	xl_toml_free(root);
	return 0;
}

static void toml_quote(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

int xl_config_set_sdk(const char *dir, const char *version, char *err, size_t errlen)
{
	char path[PATH_MAX], tmp[PATH_MAX + 16];
	if (xl_config_path(path, sizeof(path)) != 0) {
		snprintf(err, errlen, "cannot place the config file: neither XDG_CONFIG_HOME nor HOME is set");
		return -1;
	}
	/* The file holds only what exaloop writes to it, so it is rewritten
	 * whole; anything else found there is a reason to stop, not to lose. */
	if (access(path, F_OK) == 0) {
		struct xl_toml_error terr;
		struct xl_toml_value *root = xl_toml_parse_file(path, &terr);
		if (!root) {
			snprintf(err, errlen, "%s (fix or remove the file)", terr.text);
			return -1;
		}
		size_t n = xl_toml_table_len(root);
		const struct xl_toml_value *plugins = xl_toml_table_get(root, "plugins");
		int other = n > 1 || (n == 1 && !plugins) ||
			    (plugins && (xl_toml_table_len(plugins) > 1 || (xl_toml_table_len(plugins) == 1 &&
									    !xl_toml_table_get(plugins, "profiling"))));
		xl_toml_free(root);
		if (other) {
			snprintf(err, errlen, "'%s' holds settings exaloop does not know; edit it by hand", path);
			return -1;
		}
	}
	char parent[PATH_MAX];
	snprintf(parent, sizeof(parent), "%s", path);
	*strrchr(parent, '/') = 0; /* (xl_config_path's paths have a directory) */
	if (xl_mkdirs(parent, 0755) != 0) {
		snprintf(err, errlen, "cannot create the directory of '%s': %s", path, strerror(errno));
		return -1;
	}
	int fd = xl_create_temp_beside(path, tmp, sizeof(tmp));
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		return -1;
	}
	fputs("# exaloop user configuration (written by `exaloop plugin`)\n", f);
	if (dir) {
		fputs("[plugins.profiling]\npath = ", f);
		toml_quote(f, dir);
		fputs("\nversion = ", f);
		toml_quote(f, version ? version : "");
		fputc('\n', f);
	}
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}
