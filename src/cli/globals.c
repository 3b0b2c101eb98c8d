/*
 * globals.c - exaloop's global options (see globals.h).
 */
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "globals.h"
#include "msg.h"
#include "project.h"
#include "toolchain.h"
#include "units.h"

int xl_parse_profile(const char *mode, void *dest)
{
	struct xl_ctx *ctx = dest;
	ctx->profile = 1;
	if (!mode) {
		ctx->mode = XL_MODE_ALL;
		return 0;
	}
	ctx->mode_explicit = 1;
	if (xl_mode_parse(mode, &ctx->mode) != 0) {
		xl_error("invalid profile mode '%s' (use all, memory or xray)", mode);
		return -1;
	}
	return 0;
}

/* --arch: the architecture programs are built for.  It goes into the
 * environment (toolchain.h, XL_ENV_ARCH), where the build driver and the
 * compiler wrappers a project's build starts read it. */
static int parse_arch(const char *value, void *dest)
{
	struct xl_ctx *ctx = dest;
	const char *name = xl_arch_name(value);
	if (!name) {
		xl_error("unknown architecture '%s' for '--arch' (use x86_64 or aarch64; amd64 and arm64 are the "
			 "same)",
			 value);
		return -1;
	}
	if (setenv(XL_ENV_ARCH, name, 1) != 0) {
		xl_error("out of memory");
		return -1;
	}
	ctx->arch = name;
	return 0;
}

static int parse_timeline(const char *mode, void *dest)
{
	struct xl_ctx *ctx = dest;
	if (xl_tl_mode_parse(mode, &ctx->tl_mode) != 0) {
		xl_error("invalid timeline mode '%s' (use auto, first or last)", mode);
		return -1;
	}
	return 0;
}

static int parse_timeline_min(const char *value, void *dest)
{
	struct xl_ctx *ctx = dest;
	char msg[256];
	if (xl_parse_duration(value, &ctx->tl_min_ns, msg, sizeof(msg)) != 0) {
		xl_error("%s for '--timeline-min-duration' (e.g. 10us)", msg);
		return -1;
	}
	ctx->tl_min_set = 1;
	return 0;
}

/* The capture window and buffers, with exaloop.toml's units and bounds
 * (docs/toml.md); they override the target's values.  One value of
 * option `opt`: parsed with `parse`, then checked against `problem`
 * (NULL: any value); *set says it was given. */
static int parse_setting(const char *value, const char *opt, int (*parse)(const char *, uint64_t *, char *, size_t),
			 const char *(*problem)(uint64_t), uint64_t *out, int *set)
{
	char msg[256];
	if (parse(value, out, msg, sizeof(msg)) != 0) {
		xl_error("%s for '--%s'", msg, opt);
		return -1;
	}
	if (problem && problem(*out)) {
		xl_error("'--%s' %s", opt, problem(*out));
		return -1;
	}
	if (set)
		*set = 1;
	return 0;
}

static int parse_delay(const char *value, void *dest)
{
	struct xl_ctx *ctx = dest;
	return parse_setting(value, "delay", xl_parse_duration, NULL, &ctx->delay_ns, &ctx->delay_set);
}

static int parse_duration(const char *value, void *dest)
{
	struct xl_ctx *ctx = dest;
	return parse_setting(value, "duration", xl_parse_duration, NULL, &ctx->duration_ns, &ctx->duration_set);
}

static int parse_interval(const char *value, void *dest)
{
	struct xl_ctx *ctx = dest;
	return parse_setting(value, "memory-interval", xl_parse_duration, xl_interval_problem, &ctx->interval_ns, NULL);
}

static int parse_buffer_size(const char *value, void *dest)
{
	struct xl_ctx *ctx = dest;
	return parse_setting(value, "buffer-size", xl_parse_size, xl_buffer_size_problem, &ctx->buffer_size, NULL);
}

static int parse_include(const char *value, void *dest)
{
	struct xl_ctx *ctx = dest;
	if (!value[0]) {
		xl_error("empty pattern for '--include' (e.g. --include '*process_batch*')");
		return -1;
	}
	const char **v = realloc(ctx->include, (ctx->ninclude + 2) * sizeof(*v));
	if (!v) {
		xl_error("out of memory");
		return -1;
	}
	v[ctx->ninclude++] = value;
	v[ctx->ninclude] = NULL;
	ctx->include = v;
	return 0;
}

static int parse_timing(const char *mode, void *dest)
{
	struct xl_ctx *ctx = dest;
	if (xl_timing_parse(mode, &ctx->timing) != 0) {
		xl_error("invalid timing '%s' for '--timing' (use exact or sampled)", mode);
		return -1;
	}
	return 0;
}

static int parse_sample_rate(const char *value, void *dest)
{
	struct xl_ctx *ctx = dest;
	char *end;
	unsigned long hz = strtoul(value, &end, 10);
	if (*value < '0' || *value > '9' || *end || hz < 1 || hz > XL_MAX_SAMPLE_RATE) {
		xl_error("invalid sample rate '%s' for '--sample-rate' (samples per second, 1 to %u; --no-samples "
			 "turns sampling off)",
			 value, XL_MAX_SAMPLE_RATE);
		return -1;
	}
	ctx->sample_rate = (uint32_t)hz;
	ctx->sample_rate_set = 1;
	return 0;
}

void xl_global_options(struct xl_globals *g, struct xl_option *opts)
{
	struct xl_ctx *ctx = g->ctx;
	const struct xl_option table[XL_GLOBAL_OPTIONS] = {
		XL_OPT_OPTARG(0, "profile", ctx, "MODE",
			      "capture functions and memory; MODE: all (default), memory or xray", xl_parse_profile),
		XL_OPT_BOOL(0, "no-open", &ctx->no_open, "do not open the report in a browser"),
		XL_OPT_BOOL(0, "no-allocations", &g->no_allocations,
			    "do not record heap allocations (malloc, new, GC_malloc)"),
		XL_OPT_STRING(0, "target", &ctx->target, "NAME", "build or run a target of exaloop.toml"),
		XL_OPT_PARSE(0, "arch", ctx, "ARCH",
			     "build for ARCH: x86_64 or aarch64 (default: this machine's); see docs/cli.md",
			     parse_arch),
		XL_OPT_PARSE(0, "timeline", ctx, "MODE",
			     "timeline kept: auto (default: all the run, short calls left out), first or last",
			     parse_timeline),
		XL_OPT_PARSE(0, "timeline-min-duration", ctx, "D",
			     "leave calls shorter than D (e.g. 10us) out of the timeline", parse_timeline_min),
		XL_OPT_PARSE(0, "delay", ctx, "D", "open the capture window D after the start (e.g. 10s)", parse_delay),
		XL_OPT_PARSE(0, "duration", ctx, "D", "close the capture window D after it opens; the program runs on",
			     parse_duration),
		XL_OPT_PARSE(0, "include", ctx, "PATTERN",
			     "trace only functions matching PATTERN (e.g. '*process_batch*'); repeatable",
			     parse_include),
		XL_OPT_PARSE(0, "buffer-size", ctx, "SIZE", "capture buffer (e.g. 256MiB; default 64MiB)",
			     parse_buffer_size),
		XL_OPT_PARSE(0, "memory-interval", ctx, "D", "memory sample interval (e.g. 100ms; default 100ms)",
			     parse_interval),
		XL_OPT_PARSE(0, "sample-rate", ctx, "HZ", "samples per second and thread (default 1000)",
			     parse_sample_rate),
		XL_OPT_BOOL(0, "no-samples", &ctx->no_samples, "take no instruction or position samples"),
		XL_OPT_PARSE(0, "timing", ctx, "MODE",
			     "exact (default: the clock read at every call) or sampled (calls counted, times from "
			     "samples)",
			     parse_timing),
		XL_OPT_BOOL(0, "no-source", &ctx->no_source, "leave the sampled lines' source text out of the capture"),
		XL_OPT_BOOL(0, "version", &g->version, "print exaloop's version"),
		XL_OPT_END(),
	};
	memcpy(opts, table, sizeof(table));
}

int xl_is_global_option(const char *arg)
{
	struct xl_ctx ctx;
	struct xl_globals g = {&ctx, 0, 0};
	struct xl_option opts[XL_GLOBAL_OPTIONS];
	xl_global_options(&g, opts);
	if (strncmp(arg, "--", 2) != 0)
		return 0;
	size_t n = strcspn(arg + 2, "=");
	for (const struct xl_option *o = opts; o->kind != XL_OPT_KIND_END; o++)
		if (strlen(o->long_name) == n && strncmp(o->long_name, arg + 2, n) == 0)
			return xl_option_has_value(o) && !arg[2 + n] ? 2 : 1;
	return 0;
}
