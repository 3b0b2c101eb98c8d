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
#include "options.h"
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

static int plugin_add(int argc, const char **argv, struct xl_ctx *ctx)
{
	(void)ctx;
	const char *name = NULL, *path = NULL;
	const struct xl_option opts[] = {
		XL_OPT_STRING(0, "path", &path, "DIR", "the SDK's directory (lib/exaloop/profiling of an install)"),
		XL_OPT_END(),
	};
	const struct xl_usage usage = {
		"plugin add",
		"profiling",
		"Validate an installed profiling SDK (--path DIR) and register it in config.toml.",
		opts,
		NULL,
		NULL};
	int n;
	int rc = xl_parse_options(&usage, argc, argv, 0, &n);
	if (rc != XL_OPTS_PARSED)
		return rc;
	if (n > 1) {
		xl_error("unexpected argument '%s': exaloop plugin add profiling --path DIR", argv[2]);
		return XL_EXIT_USAGE;
	}
	name = n == 1 ? argv[1] : NULL;
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

static int plugin_list(int argc, const char **argv, struct xl_ctx *ctx)
{
	(void)ctx;
	static const struct xl_usage usage = {"plugin list", NULL, "The registered profiling SDK and the built-in one.",
					      NULL,          NULL, NULL};
	int n;
	int rc = xl_parse_options(&usage, argc, argv, 0, &n);
	if (rc != XL_OPTS_PARSED)
		return rc;
	if (n > 0) {
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
	rc = XL_EXIT_OK;
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

static int plugin_remove(int argc, const char **argv, struct xl_ctx *ctx)
{
	(void)ctx;
	static const struct xl_usage usage = {"plugin remove",
					      "profiling",
					      "Forget the registered SDK: the built-in one is used again.",
					      NULL,
					      NULL,
					      NULL};
	int n;
	int rc = xl_parse_options(&usage, argc, argv, 0, &n);
	if (rc != XL_OPTS_PARSED)
		return rc;
	if (n != 1) {
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
	static const struct xl_subcommand subs[] = {
		{"add", plugin_add, "validate and register an installed profiling SDK"},
		{"list", plugin_list, "the registered SDK and the built-in one"},
		{"remove", plugin_remove, "forget the registered SDK"},
		{NULL, NULL, NULL},
	};
	static const struct xl_usage usage = {"plugin", NULL, "Register an installed profiling SDK.", NULL, subs, NULL};
	return xl_dispatch(&usage, argc, argv, ctx);
}
