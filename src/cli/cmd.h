/*
 * cmd.h - subcommands.  Each lives in its own cmd_<name>.c and is one row
 * of the table in main.c.  A command gets its own argv (argv[0] is the
 * command name) and the global options, and returns the exit code.
 */
#ifndef XL_CMD_H
#define XL_CMD_H

#include <stdint.h>

struct xl_ctx {
	int profile;             /* --profile given */
	uint32_t mode;           /* XL_MODE_* (when profile) */
	int mode_explicit;       /* --profile=MODE (overrides exaloop.toml) */
	int no_open;             /* --no-open */
	const char *target;      /* --target NAME */
	int argc;                /* exaloop's whole command line */
	const char **argv;
};

/* With --target: the target's command line (build options, sources,
 * `--`, program arguments) as a NULL-terminated argv starting with cmd,
 * and its settings.  Returns 0, or an exit code after printing why.
 * Frees with target_argv_free(). */
struct xl_target;
int target_argv(const struct xl_ctx *ctx, const char *cmd, int argc, int with_args, struct xl_target *t,
		const char ***argv_out, int *argc_out);
void target_argv_free(const char **argv);

/* Shared first steps of `run` and `build`: split the command line, refuse
 * -shared under --profile, find the SDK (when profiling).  Returns 0, or
 * an exit code after printing why (a is released then). */
struct xl_build_args;
struct xl_sdk;
int prepare_build(const struct xl_ctx *ctx, int argc, const char **argv, int is_build, struct xl_build_args *a,
		  struct xl_sdk *sdk);

int cmd_run(int argc, const char **argv, struct xl_ctx *ctx);
int cmd_build(int argc, const char **argv, struct xl_ctx *ctx);
int cmd_profile(int argc, const char **argv, struct xl_ctx *ctx);
int cmd_doctor(int argc, const char **argv, struct xl_ctx *ctx);
int cmd_plugin(int argc, const char **argv, struct xl_ctx *ctx);

#endif
