/*
 * project.h - project targets from exaloop.toml.
 *
 *   [targets.events]
 *   kind = "kafka-consumer"          # app (default) | service | kafka-consumer
 *   source = "events.c"              # string or list; relative to exaloop.toml
 *   codon_args = ["-release"]        # build options (build_args is the same key)
 *   args = ["--batch", "500"]        # program arguments
 *
 *   [targets.lua]                    # a project with its own build:
 *   build = ["make", "-j2"]          # the command (run in exaloop.toml's directory)
 *   binary = "src/lua"               # the executable it links, relative to exaloop.toml
 *   [targets.events.profile]
 *   mode = "all"                     # all | memory | xray
 *   delay = "10s"
 *   duration = "30s"
 *   memory_interval = "100ms"
 *   buffer_size = "64MiB"
 *   timeline = "auto"                # auto | first | last
 *   timeline_min_duration = "10us"   # fixed timeline threshold
 *   sample_rate = 1000               # samples per second and thread, 0: none
 *   timing = "sampled"               # exact (default) | sampled: counts, times from samples
 *   include = ["*process_batch*"]
 *   allocations = false              # do not record heap allocations
 *   [targets.events.pgo]             # or: pgo = "pgo/events.profdata" in the target
 *   profile = "pgo/events.profdata"  # build/run with it; pgo train writes it
 *   inputs = [["--batch", "50"], ["--batch", "5000"]]   # training/evaluation runs
 *
 * Every problem is reported as "FILE:LINE:COLUMN: message", naming the
 * valid keys when a key is unknown.  A loaded target owns all its strings;
 * xl_target_release() frees them.
 */
#ifndef XL_PROJECT_H
#define XL_PROJECT_H

#include <stddef.h>
#include <stdint.h>

struct xl_ctx;

/* Capture settings: defaults, then exaloop.toml, then the command line. */
struct xl_settings {
	int mode_set;  /* mode came from a file or flag */
	uint32_t mode; /* XL_MODE_* */
	uint64_t buffer_size;
	uint64_t memory_interval_ns;
	uint64_t delay_ns;
	uint64_t duration_ns;
	char **include;       /* NULL-terminated, owned */
	int allocations;      /* record heap allocations (default 1; `allocations = false`) */
	uint32_t tl_mode;     /* XL_TL_*: timeline = "auto" (default) | "first" | "last" */
	uint64_t tl_min_ns;   /* timeline_min_duration, 0: none */
	uint32_t sample_rate; /* sample_rate (default XL_DEFAULT_SAMPLE_RATE), 0: none */
	uint32_t timing;      /* timing = "exact" (default) | "sampled" (XL_TIMING_*) */
};

/* "exact" or "sampled" into *out (XL_TIMING_*, session.h); -1 for
 * anything else. */
int xl_timing_parse(const char *name, uint32_t *out);

void xl_settings_defaults(struct xl_settings *s);
void xl_settings_release(struct xl_settings *s);
struct xl_session;
/* A run's capture settings into its session: the command line's
 * (--delay, --duration, --include, --buffer-size, --memory-interval,
 * --timeline, --timeline-min-duration, --sample-rate, --no-samples,
 * --no-source) over exaloop.toml's (or the
 * defaults).  Strings are borrowed from s and ctx.  (A --duration also
 * makes the run a long-running one: the callers say so.) */
void xl_settings_for_session(const struct xl_settings *s, const struct xl_ctx *ctx, struct xl_session *out);
/* The combinations a capture cannot take (--timing=sampled without
 * samples, with a timeline option or in memory mode): 0, or -1 after one
 * error line.  mode: the capture's XL_MODE_*. */
int xl_settings_check(const struct xl_settings *s, const struct xl_ctx *ctx, uint32_t mode);

/* The bounds exaloop.toml and the command line share: NULL when the value
 * is allowed, else what is wrong ("must be at least 1MiB"). */
const char *xl_buffer_size_problem(uint64_t bytes);
const char *xl_interval_problem(uint64_t ns);

struct xl_target {
	char *name;
	char *kind;       /* "app" unless set */
	int long_running; /* kind is not "app" */
	char *dir;        /* directory of exaloop.toml */
	char **sources;   /* NULL-terminated, as written (relative to dir) */
	char **build_args;
	char **args;
	char **build; /* the project's build command (or NULL: sources) */
	char *binary; /* with build: the executable, as written */
	struct xl_settings profile;
	char *pgo_profile;  /* NULL unless set; as written (relative to dir) */
	char ***pgo_inputs; /* NULL-terminated list of NULL-terminated argument lists, or NULL */
};

/* Find exaloop.toml in the current directory or its parents.  Returns 0
 * and the path, or -1. */
int xl_project_find(char *path, size_t len);

/* Load target `name` from the file at path.  Returns 0, or -1 with a
 * one-line message in err. */
int xl_project_load_target(const char *path, const char *name, struct xl_target *t, char *err, size_t errlen);
void xl_target_release(struct xl_target *t);

#endif
