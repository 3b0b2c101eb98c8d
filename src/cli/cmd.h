/*
 * cmd.h - subcommands.  Each lives in its own cmd_<name>.c and is one row
 * of the table in main.c.  A command gets its own argv (argv[0] is the
 * command name) and the global options, and returns the exit code.
 * Commands call libraries and the CLI's shared modules, never each other:
 * only main.c calls them (scripts/check-layers.py checks it).  This header
 * declares the entry points; the context is ctx.h's.
 */
#ifndef XL_CMD_H
#define XL_CMD_H

#include "ctx.h"

int cmd_run(int argc, const char **argv, struct xl_ctx *ctx);
int cmd_build(int argc, const char **argv, struct xl_ctx *ctx);
int cmd_doctor(int argc, const char **argv, struct xl_ctx *ctx);
int cmd_plugin(int argc, const char **argv, struct xl_ctx *ctx);
int cmd_pgo(int argc, const char **argv, struct xl_ctx *ctx);
/* `profile exec|report|export` (cmd_profile.c) and `profile diff`
 * (cmd_diff.c): rows of the `profile` group's table in main.c. */
int cmd_profile_exec(int argc, const char **argv, struct xl_ctx *ctx);
int cmd_profile_report(int argc, const char **argv, struct xl_ctx *ctx);
int cmd_profile_export(int argc, const char **argv, struct xl_ctx *ctx);
int cmd_profile_diff(int argc, const char **argv, struct xl_ctx *ctx);
/* `profile attach` (cmd_attach.c), likewise. */
int cmd_profile_attach(int argc, const char **argv, struct xl_ctx *ctx);
int cmd_cc(int argc, const char **argv, struct xl_ctx *ctx); /* `cc` and `c++` */

#endif
