/*
 * cmd_plugin.c - `exaloop plugin add|list|remove`.
 *
 *   plugin add profiling --path DIR    validate and register an installed SDK
 *   plugin list                        the registered SDK and the built-in one
 *   plugin remove profiling            forget the registered SDK
 *
 * The registration lives in the user's config.toml (sdk.h); a registered
 * SDK takes precedence over the one beside the CLI.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "exitcode.h"
#include "msg.h"
#include "sdk.h"
#include "toolchain.h"

static const char *installed_clang(char *ver, size_t len)
{
	char cc[PATH_MAX];
	ver[0] = 0;
	if (xl_find_compiler(XL_LANG_C, cc, sizeof(cc)) == 0)
		xl_compiler_version(cc, ver, len);
	return ver[0] ? ver : NULL;
}

static int check_name(const char *name)
{
	if (strcmp(name, "profiling") != 0) {
		xl_error("unknown plugin '%s' (the only plugin is 'profiling')", name);
		return -1;
	}
	return 0;
}

static int plugin_add(int argc, const char **argv)
{
	const char *name = NULL, *path = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--path") == 0 && i + 1 < argc)
			path = argv[++i];
		else if (strncmp(argv[i], "--path=", 7) == 0)
			path = argv[i] + 7;
		else if (argv[i][0] == '-') {
			xl_error("unknown option '%s' for 'plugin add'", argv[i]);
			return XL_EXIT_USAGE;
		} else if (!name)
			name = argv[i];
		else {
			xl_error("unexpected argument '%s': exaloop plugin add profiling --path DIR", argv[i]);
			return XL_EXIT_USAGE;
		}
	}
	if (!name || !path) {
		xl_error("usage: exaloop plugin add profiling --path DIR");
		return XL_EXIT_USAGE;
	}
	if (check_name(name))
		return XL_EXIT_USAGE;
	char ver[64], err[1024];
	struct xl_sdk sdk;
	if (xl_sdk_check(path, installed_clang(ver, sizeof(ver)), &sdk, err, sizeof(err)) != 0) {
		xl_error("%s", err);
		return XL_EXIT_FAIL;
	}
	if (xl_config_set_sdk(sdk.dir, sdk.version, err, sizeof(err)) != 0) {
		xl_error("%s", err);
		return XL_EXIT_FAIL;
	}
	char cfg[PATH_MAX];
	xl_config_path(cfg, sizeof(cfg));
	printf("registered profiling SDK %s (clang %s) at %s\n", sdk.version, sdk.compiler_version, sdk.dir);
	xl_note("saved in %s", cfg);
	return XL_EXIT_OK;
}

static int plugin_list(int argc, const char **argv)
{
	(void)argv;
	if (argc > 1) {
		xl_error("'plugin list' takes no arguments");
		return XL_EXIT_USAGE;
	}
	char dir[PATH_MAX + 64], err[1024], ver[64];
	struct xl_sdk sdk;
	const char *ccv = installed_clang(ver, sizeof(ver));
	if (xl_config_sdk(dir, sizeof(dir), err, sizeof(err)) != 0) {
		xl_error("%s", err);
		return XL_EXIT_FAIL;
	}
	int rc = XL_EXIT_OK;
	if (dir[0]) {
		if (xl_sdk_check(dir, ccv, &sdk, err, sizeof(err)) == 0)
			printf("profiling  %s  %s  (registered, in use)\n", sdk.version, sdk.dir);
		else {
			printf("profiling  ?  %s  (registered, BROKEN: %s)\n", dir, err);
			rc = XL_EXIT_FAIL;
		}
	}
	if (xl_sdk_builtin_dir(dir, sizeof(dir)) == 0 && access(dir, F_OK) == 0) {
		if (xl_sdk_check(dir, ccv, &sdk, err, sizeof(err)) == 0)
			printf("profiling  %s  %s  (built in)\n", sdk.version, sdk.dir);
		else
			printf("profiling  ?  %s  (built in, BROKEN: %s)\n", dir, err);
	}
	return rc;
}

static int plugin_remove(int argc, const char **argv)
{
	if (argc != 2) {
		xl_error("usage: exaloop plugin remove profiling");
		return XL_EXIT_USAGE;
	}
	if (check_name(argv[1]))
		return XL_EXIT_USAGE;
	char dir[PATH_MAX], err[1024];
	if (xl_config_sdk(dir, sizeof(dir), err, sizeof(err)) != 0) {
		xl_error("%s", err);
		return XL_EXIT_FAIL;
	}
	if (!dir[0]) {
		xl_error("no profiling SDK is registered");
		return XL_EXIT_FAIL;
	}
	if (xl_config_set_sdk(NULL, NULL, err, sizeof(err)) != 0) {
		xl_error("%s", err);
		return XL_EXIT_FAIL;
	}
	printf("removed the registered profiling SDK (%s); the built-in SDK is used again\n", dir);
	return XL_EXIT_OK;
}

int cmd_plugin(int argc, const char **argv, struct xl_ctx *ctx)
{
	(void)ctx;
	static const struct {
		const char *name;
		int (*fn)(int, const char **);
	} subs[] = {
		{"add", plugin_add},
		{"list", plugin_list},
		{"remove", plugin_remove},
	};
	if (argc < 2) {
		xl_error("'plugin' needs a subcommand: add, list or remove");
		return XL_EXIT_USAGE;
	}
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
		if (strcmp(argv[1], subs[i].name) == 0)
			return subs[i].fn(argc - 1, argv + 1);
	xl_error("'%s' is not a plugin subcommand (use add, list or remove)", argv[1]);
	return XL_EXIT_USAGE;
}
