/*
 * objcache.h - compiling a build's sources in parallel into a cache of
 * object files, reused by the next build.
 *
 * An entry is keyed by everything that decides the object: the compiler
 * and its version, the compile command (flags), the include variables
 * (CPATH...), the source's absolute path, the working directory and the
 * source's content.  Each entry also records the headers the compiler
 * read (its -MD output) with a hash of their content, and the directories
 * an #include may have searched before finding one (-I and the like, the
 * include variables', the source's and each header's) with their state;
 * an entry is reused only while all of them are unchanged, so a header
 * that would now be found first elsewhere recompiles.  So a second build
 * with one edited file (or one edited header's users) recompiles just
 * those.
 *
 * Location: $EXALOOP_CACHE_DIR, else $XDG_CACHE_HOME/exaloop/objects,
 * else ~/.cache/exaloop/objects; when none can be created, a temporary
 * directory that lives for one build.  Entries are written under unique
 * temporary names and renamed into place, so concurrent builds (and the
 * parallel compiles of one build) never share a temporary file; deleting
 * the directory is always safe.
 *
 * Hashes are two independent 64-bit FNV-1a sums (128 bits): enough
 * against accidental collisions, not against someone planting objects
 * in your cache directory (which is yours, mode 0700).
 */
#ifndef XL_OBJCACHE_H
#define XL_OBJCACHE_H

#include <limits.h>
#include <stddef.h>

struct xl_objcache {
	char dir[PATH_MAX - 128]; /* room for entry names below it */
	int temporary;            /* removed by xl_objcache_close */
};

struct xl_compile_job {
	const char *source;
	const char *const *argv; /* compiler and flags, NULL-terminated; objcache adds -c, -o, -MD -MF, source */
	const char *stderr_log;  /* the compiler's stderr goes to this file (NULL: exaloop's stderr) */
	const char *key_file;    /* another input whose content is part of the key (a PGO profile), or NULL */
	char object[PATH_MAX];   /* out: the object to link */
	int reused;              /* out: found in the cache */
};

/* Open (create) the cache.  Returns 0, or -1 with a one-line message. */
int xl_objcache_open(struct xl_objcache *c, char *err, size_t errlen);
void xl_objcache_close(struct xl_objcache *c);

/* Compile the jobs not in the cache, at most `parallel` at a time, as a
 * pool of processes (process.h: each compiler a process group of its own,
 * signals to exaloop passed on to all of them).  version: the compiler's
 * version (part of the key).  Compiler diagnostics go to exaloop's stderr
 * (or the job's log) as they come.  Returns 0; the first failing
 * compiler's status (after the running ones finished, none started
 * after a failure); 128+N when a compile was interrupted by signal N; or
 * -1 with errno when a compiler could not be started. */
int xl_objcache_compile(struct xl_objcache *c, struct xl_compile_job *jobs, size_t n, int parallel,
			const char *version);

/* The number of online CPUs (at least 1): the default parallelism. */
int xl_ncpus(void);

#endif
