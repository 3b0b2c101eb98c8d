/*
 * cmd.h - subcommands.  Each lives in its own cmd_<name>.c and is one row
 * of the table in main.c.  A command gets its own argv (argv[0] is the
 * command name) and the global options, and returns the exit code.
 * Commands call libraries and the CLI's shared modules, never each other;
 * this header declares only the context and the entry points.
 */
#ifndef XL_CMD_H
#define XL_CMD_H

#include <stdint.h>

struct xl_ctx {
	int profile;        /* --profile given */
	uint32_t mode;      /* XL_MODE_* (when profile) */
	int mode_explicit;  /* --profile=MODE (overrides exaloop.toml) */
	int no_open;        /* --no-open */
	const char *target; /* --target NAME */
	uint32_t tl_mode;   /* --timeline MODE (XL_TL_*), 0: not given */
	int tl_min_set;     /* --timeline-min-duration given */
	uint64_t tl_min_ns;
	/* The capture window and buffers from the command line, over the
	 * target's (project.h: xl_settings_for_session); 0 / NULL: not given. */
	int delay_set, duration_set;
	uint64_t delay_ns, duration_ns;
	uint64_t buffer_size; /* --buffer-size */
	uint64_t interval_ns; /* --memory-interval */
	const char **include; /* --include PATTERN (repeatable), NULL-terminated, owned */
	size_t ninclude;
	int argc; /* exaloop's whole command line */
	const char **argv;
};

int cmd_run(int argc, const char **argv, struct xl_ctx *ctx);
int cmd_build(int argc, const char **argv, struct xl_ctx *ctx);
int cmd_profile(int argc, const char **argv, struct xl_ctx *ctx);
int cmd_doctor(int argc, const char **argv, struct xl_ctx *ctx);
int cmd_plugin(int argc, const char **argv, struct xl_ctx *ctx);
int cmd_pgo(int argc, const char **argv, struct xl_ctx *ctx);
/* `profile diff` (cmd_diff.c), a row of cmd_profile's subcommand table. */
int cmd_profile_diff(int argc, const char **argv, struct xl_ctx *ctx);
/* `profile attach` (cmd_attach.c), likewise. */
int cmd_profile_attach(int argc, const char **argv, struct xl_ctx *ctx);
int cmd_cc(int argc, const char **argv, struct xl_ctx *ctx); /* `cc` and `c++` */

#endif
