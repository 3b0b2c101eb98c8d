/*
 * ctx.h - the global options of one exaloop command line (globals.h
 * parses them, before the command), as every command and the CLI's shared
 * pieces read them.  main owns it; everyone else borrows it.
 */
#ifndef XL_CTX_H
#define XL_CTX_H

#include <stdint.h>

struct xl_ctx {
	int profile;        /* --profile given */
	uint32_t mode;      /* XL_MODE_* (when profile) */
	int mode_explicit;  /* --profile=MODE (overrides exaloop.toml) */
	int no_open;        /* --no-open */
	const char *target; /* --target NAME */
	const char *arch;   /* --arch ARCH, canonical (toolchain.h), or NULL */
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
	int sample_rate_set;  /* --sample-rate HZ given */
	uint32_t sample_rate; /* its value */
	int no_samples;       /* --no-samples */
	uint32_t timing;      /* --timing MODE (XL_TIMING_*), 0: not given */
	int no_source;        /* --no-source */
	int argc;             /* exaloop's whole command line */
	const char **argv;
};

#endif
