/*
 * build_setup.h - the first steps shared by `run` and `build`: a command
 * line (or a --target of exaloop.toml) made into split build arguments and
 * the SDK to link.  Both print what is wrong and return an exit code.
 */
#ifndef XL_BUILD_SETUP_H
#define XL_BUILD_SETUP_H

struct xl_build_args;
struct xl_ctx;
struct xl_sdk;
struct xl_target;

/* With --target: exaloop.toml found and ctx->target loaded into *t, the
 * command line's --profile MODE over its `mode`.  0, or an exit code
 * after printing why (free *t with xl_target_release() either way). */
int xl_target_load(const struct xl_ctx *ctx, struct xl_target *t);

/* With --target: the target's command line (build options, sources,
 * `--`, program arguments when with_args) as a NULL-terminated argv
 * starting with cmd, and its settings in *t.  argc > 1 (arguments given
 * besides the target) is refused.  Returns 0, or an exit code after
 * printing why.  Free the argv with xl_target_argv_free(), *t with
 * xl_target_release(). */
int xl_target_argv(const struct xl_ctx *ctx, const char *cmd, int argc, int with_args, struct xl_target *t,
		   const char ***argv_out, int *argc_out);
void xl_target_argv_free(const char **argv);

/* Split the command line (args.h), refuse -shared under --profile, find
 * the SDK (when profiling).  Returns 0, or an exit code after printing why
 * (*a is released then). */
int xl_build_prepare(const struct xl_ctx *ctx, int argc, const char **argv, int is_build, struct xl_build_args *a,
		     struct xl_sdk *sdk);

#endif
