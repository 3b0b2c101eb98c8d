/*
 * analyze.h - the analyzer: a capture directory in, one model out.
 *
 * xl_model_load() reads `capture.xlc` (finalized or not), the run metadata
 * (`run.json`, written by the CLI) and the symbols (`symbols.json`, copied
 * from the build) into an in-memory model.  Every output format is an
 * emitter over this model (emit.h) and needs nothing else.
 *
 * Ownership: the model owns everything it points to; xl_model_free()
 * releases it all, including the read-only mapping of the capture file
 * that the timeline iterator reads from.  Memory grows with the call tree,
 * not with the number of events (the timeline stays in the mapped file).
 *
 * Times in the model are nanoseconds from the start of the profiled
 * process (the runtime's constructor), so all views share one axis.
 */
#ifndef XL_ANALYZE_H
#define XL_ANALYZE_H

#include <stddef.h>
#include <stdint.h>

#include "exaloop/xl_capture.h"
#include "xl_errors.h"

#define XL_NONE (-1)

/* Heap allocations of a call path, a function or the whole run (capture
 * format version 3, xl_capture.h struct xl_alloc_stat): frees are those of
 * the blocks allocated here, by whichever thread freed them. */
struct xl_alloc {
	uint64_t allocs, bytes;
	uint64_t frees, freed_bytes;
	uint64_t gc_bytes;  /* part of bytes: the Boehm collector's (never seen freed) */
	uint64_t peak_live; /* a path's: largest live figure after one of its
			     * allocations; a function's: the largest of its
			     * paths' (xl_func); the run's: 0 (not recorded) */
};
/* Bytes still allocated at the end (at exit: leaked): bytes - gc_bytes -
 * freed_bytes, 0 when that is negative (a corrupt capture). */
uint64_t xl_alloc_live(const struct xl_alloc *a);
void xl_alloc_add(struct xl_alloc *to, const struct xl_alloc *a);

/* Instruction samples of a function at one line of its own code (code
 * inlined into it counts at the call site's line), and of a function
 * inlined into it (samples.c). */
struct xl_inl_count {
	char *name;
	uint64_t samples;
};
struct xl_line_count {
	int line; /* 0: unknown */
	uint64_t samples;
	/* the inline chains of its samples in inlined code ("f > g": g
	 * inlined into f, f into the function), most samples first */
	struct xl_inl_count *chains;
	size_t nchains;
};

struct xl_func {
	int32_t xray_id;
	char *name;       /* never NULL ("#<id>" when unknown); C++: demangled in full */
	char *short_name; /* the name for display (shortname.h): C++ names shortened,
			   * told apart from the model's other functions' (NULL in a
			   * model made by hand: xl_func_shown() gives the name) */
	char *file;       /* NULL when unknown */
	int line;
	uint64_t calls;
	int64_t self_ns;
	int64_t total_ns;      /* outermost frames only: recursion not double counted */
	struct xl_alloc alloc; /* allocations made with this function on top of the
				* stack (self; peak_live: the largest peak of
				* one of its paths, not a sum) */
	/* Instruction samples in its own code, all threads (not per thread:
	 * xl_funcs_for_thread keeps these), by line (ascending) and by
	 * inlined function (most samples first; a sample counts once for
	 * each function of its inline chain). */
	uint64_t isamples;
	/* --timing=sampled: the position samples its self time comes from
	 * (xl_sampled_err_ns gives the bound); 0 otherwise. */
	uint64_t psamples;
	/* Exact timing: how far the profiler's own cost per call could move
	 * its self time, (its calls + the calls it makes) x the cost of one
	 * traced call (xl_call_cost); -1 under --timing=sampled or without
	 * traced calls. */
	int64_t cost_bound_ns;
	/* That bound is half its self time or more, and it is call-dense
	 * (XL_CALL_COST_MIN_CALLS calls to and from it): its self time is
	 * uncertain (the report's mark, the note call_cost's rule). */
	int cost_uncertain;
	struct xl_line_count *lines;
	size_t nlines;
	struct xl_inl_count *inlined;
	size_t ninlined;
};

/* The name a report shows for f: its short form, or with full set its
 * name as demangled. */
static inline const char *xl_func_shown(const struct xl_func *f, int full)
{
	return full || !f->short_name ? f->name : f->short_name;
}

/* Allocations of a thread's frames that had no regular node (a bounded
 * tree's "(more call paths)" subtrees): counted under their function, and
 * on the thread's root in the tree. */
struct xl_falloc {
	uint32_t thread;
	int32_t func; /* index into funcs */
	struct xl_alloc a;
};

/* "(more call paths)" (xray_id XL_FUNC_MORE), the name of bounded call
 * trees' overflow nodes: not a function, function tables leave it out. */
static inline int xl_func_is_more(const struct xl_func *f)
{
	return f->xray_id == XL_FUNC_MORE;
}

/* One function's statistics on one thread, from the thread's per-function
 * table in the capture (exact whatever became of the call tree). */
struct xl_fstat {
	int32_t func; /* index into funcs */
	uint64_t calls;
	int64_t self_ns;
	int64_t total_ns;
};

struct xl_tnode {
	uint32_t thread;     /* index into threads */
	int32_t parent;      /* node index, XL_NONE for a thread root */
	int32_t func;        /* index into funcs, XL_NONE for a thread root */
	int32_t first_child; /* XL_NONE when a leaf */
	int32_t next_sibling;
	uint64_t calls;
	int64_t total_ns;
	int64_t self_ns;
	uint64_t isamples; /* instruction samples matched to this path (samples.c) */
	uint64_t psamples; /* position samples on this path's own frame (--timing=sampled) */
};

/* A sampled frame (samples.c): code that runs inside a traced frame but
 * is no call of the tree, seen by its instruction samples: a function the
 * compiler inlined into the frame's function (XL_SF_INLINED; code inlined
 * at several levels nests, outermost first), or code outside the traced
 * functions, the frame's call into a shared library or into the
 * executable's untraced code (XL_SF_LIBRARY).  Statistical, never exact:
 * the tree's calls and times leave them out. */
enum xl_sframe_kind {
	XL_SF_INLINED = 1,
	XL_SF_LIBRARY = 2
};

struct xl_sframe {
	int32_t parent; /* a node index (< nnodes), or nnodes + the index of
			 * the sampled frame it is nested in (always lower) */
	uint32_t thread;
	uint32_t kind;    /* enum xl_sframe_kind */
	char *name;       /* the function (a symbol, "??" when none); owned */
	char *library;    /* soname; NULL: the executable; owned */
	uint64_t samples; /* its own (nested frames' apart) */
	/* its time: samples x the sampling period x its traced node's
	 * stretch (samples.c), scaled down when its traced node's sampled frames
	 * together would exceed its self_ns */
	int64_t est_ns;
};

/* One rise of a thread's timeline threshold (xl_tl_change in ns). */
struct xl_tl_step {
	int64_t t_ns;      /* on the model's axis */
	int64_t threshold; /* ns */
};

struct xl_thread {
	uint32_t slot;
	uint32_t tid;
	char name[XL_THREAD_NAME_MAX + 1];
	int32_t root; /* node index of this thread's root */
	uint32_t node_count;
	uint64_t events, timeline_events, dropped_events, repaired_exits;
	uint64_t unwound_frames, deep_events;
	uint64_t reentry_lost;     /* signal handlers' events the runtime could not keep */
	uint64_t lost_node_events; /* version 1: events that found no node (lost);
				    * version 2: calls with no node at all (in the
				    * function table, time in their caller's node) */
	int tree_bounded;          /* the call tree reached its bound (or has "(more
				    * call paths)" nodes, which only a bound makes) */
	uint64_t more_calls;       /* calls in "(more call paths)" nodes */
	uint32_t more_nodes;
	/* Functions: from the runtime's per-function table (func_table 1,
	 * fstats[fstat_first .. +nfstat)), or derived from the call tree
	 * (captures before version 2, threads without room for a table). */
	int func_table;
	size_t fstat_first, nfstat;
	int64_t dropped_from_ns; /* -1 when nothing was dropped */
	int64_t start_ns, end_ns, total_ns;
	/* CPU time the thread used from its first event until cpu_to_ns (its
	 * exit, the capture's end, or for a killed program the last reading);
	 * -1 both when unknown (captures before version 3). */
	int64_t cpu_ns, cpu_to_ns;
	uint32_t open_frames;     /* frames the analyzer had to close */
	uint64_t timeline_first;  /* file offset of first timeline block */
	uint64_t timeline_blocks; /* blocks of that list the loader read (claimed) */
	/* Open frames with no ENTRY record stored (version 7): tl_pend_n
	 * frames at file offset tl_pend_off, shown if they entered before
	 * tl_pend_until (ticks: the timeline's cut-off, or UINT64_MAX). */
	uint64_t tl_pend_off, tl_pend_until;
	uint32_t tl_pend_n;
	/* The timeline's threshold (version 5, xl_capture.h: xl_tl_mode):
	 * calls shorter than tl_threshold_ns when they exited are not in the
	 * timeline (they are in the tree and tables); it has been that since
	 * tl_since_ns (-1: never raised, 0 ns).  Its history: tl_steps. */
	int64_t tl_threshold_ns, tl_since_ns;
	uint64_t tl_short_calls; /* calls left out for being shorter */
	uint64_t tl_recycled;    /* XL_TL_LAST: blocks reused (oldest calls gone) */
	uint32_t ntl_steps;
	struct xl_tl_step tl_steps[XL_TL_HISTORY];
	/* The process it belongs to (index into the model's procs, 0 in a
	 * model of one capture), and the capture it was read from (part of
	 * the model: proctree.c, for its timeline). */
	uint32_t process, part;
};

struct xl_sample {
	int64_t t_ns;
	int64_t rss, gc_heap, gc_free, gc_total, gc_collections; /* XL_UNAVAILABLE */
	/* The capture buffer's resident bytes, the profiler's share of rss
	 * (XL_UNAVAILABLE before capture format 3); rss minus it is the
	 * program's own (xl_program_rss). */
	int64_t capture_rss;
	int64_t alloc_bytes, alloc_calls; /* cumulative heap allocations (XL_UNAVAILABLE) */
};

/* An instruction sample (capture format 6, xl_capture.h "Samples"):
 * the interrupted instruction and the return addresses of its user call
 * chain, innermost first (ips[0..nips), inside the capture's mapping). */
struct xl_isamp {
	int64_t t_ns;
	uint32_t thread; /* index into threads */
	uint32_t nips;
	const uint64_t *ips;
	int cut;       /* the chain was longer than what was kept */
	int32_t node;  /* the call-tree node it was matched to, XL_NONE (samples.c) */
	int32_t frame; /* its innermost frame: node, or nnodes + the sampled frame
			* it counts in (samples.c); XL_NONE when not matched */
};

/* A position sample: the node of a thread's top frame at t_ns (its root
 * when no frame was open; a "(more call paths)" node inside one; XL_NONE
 * when the frame had no node). */
struct xl_psamp {
	int64_t t_ns;
	uint32_t thread;
	int32_t node;
};

/* An executable mapping of the profiled process (at window open or at
 * finalization): where a file's code was. */
struct xl_mapping {
	uint64_t start, end, offset;
	char *path; /* control characters replaced */
	int snapshot;
};

/* Source text of sampled lines (samples.json): lines[0] is line `first`
 * of `file`. */
struct xl_source {
	char *file;
	int first;
	char **lines;
	size_t nlines;
};

/* A warning says what limits the capture (data lost, estimated or cut
 * short); a note (same shape, model.notes) states a fact about the program
 * or the run that the reader should know but that costs the capture
 * nothing: the profiler's overhead, threads that overlapped, a program
 * without the Boehm GC.  `topic` says which part of a report a note
 * belongs to (XL_TOPIC_*, static strings; warnings: XL_TOPIC_RUN). */
#define XL_TOPIC_RUN "run"           /* the run as a whole (summary) */
#define XL_TOPIC_THREADS "threads"   /* the threads table */
#define XL_TOPIC_MEMORY "memory"     /* beside the memory chart */
#define XL_TOPIC_TIMELINE "timeline" /* beside the timeline */
struct xl_warning {
	char *kind;
	char *message;
	const char *topic;      /* XL_TOPIC_*, not owned */
	int64_t from_ns, to_ns; /* -1 = whole run */
	/* The process of a tree it came from (proctree.c's merge, which
	 * also says so in the message); -1: the capture's own process. */
	int64_t pid;
};

struct xl_run {
	char *program, *executable, *started_at, *capture_dir;
	char **command; /* NULL-terminated */
	char **args;
	int has_exit_status;
	int exit_status;
	int signal;                  /* 0 when not killed */
	int64_t compile_time_ns;     /* -1 unknown */
	int64_t app_time_ns;         /* -1 unknown */
	char **include;              /* include patterns */
	char **untraced_libs;        /* the project's shared libraries, not traced (absent: none) */
	double overhead_ns_per_call; /* measured by the CLI, <0 unknown */
	int64_t attached_at_ns;      /* profile attach: the process's age then; -1 unknown or not attached */
};

/* Another capture of the same run, in a subdirectory of this one
 * (related.c): an image the process exec'd, or a forked child. */
struct xl_related {
	char dir[64]; /* "exec-<n>" or "child-<pid>" */
	uint32_t pid, ppid, image, fork_child, end_reason;
	int finalized;
};

/* A process of the tree a capture directory holds (proctree.c): the one
 * exaloop started, its forked children (child-<pid>/, at any depth) and
 * the images it exec'd (exec-<n>/, the same process).  Its own totals are
 * those of its threads. */
struct xl_proc {
	uint32_t pid, ppid;
	int forked;                               /* forked by ppid (the started process: 0) */
	char *command;                            /* owned; a forked child's is its parent's (a copy
			      * of the same program); NULL when unknown */
	uint32_t images;                          /* captures of it: 1 + exec'd images captured */
	uint32_t end_reason;                      /* its last capture's (XL_END_*) */
	int finalized;                            /* its last capture was finalized */
	int exec_uncaptured;                      /* ended by exec into a program not captured
			      * (one exaloop did not build) */
	char *exec_command;                       /* owned: the program (arguments) it exec'd, as its
			      * exec note said (forked children); NULL unknown */
	int has_exit_status, exit_status, signal; /* the started process only
						   * (run.json) */
	/* its own totals */
	uint32_t nthreads;
	uint64_t calls, events;
	int64_t thread_time_ns, cpu_ns; /* cpu_ns: -1 unknown */
	int64_t start_ns, end_ns;       /* on the model's axis */
	struct xl_alloc alloc;          /* its threads' allocations (self) */
};

/* A capture read into the model beside the top one (proctree.c). */
struct xl_part;

struct xl_model {
	/* capture header facts */
	uint32_t version, state, mode, clock, end_reason, flags;
	/* which process: pid, parent, image (0 first, n = exec-<n>/), the
	 * next image's n when this one ended by exec, forked child or not */
	uint32_t pid, ppid, image, next_image, fork_child;
	struct xl_related *related; /* captures in subdirectories */
	size_t nrelated;
	int finalized;
	double ticks_per_ns;
	uint64_t t0_ticks;
	int64_t window_start_ns, window_end_ns, last_ns;
	int64_t start_realtime_ns;              /* CLOCK_REALTIME (ns since the epoch) at the axis' 0 */
	char build_id[2 * XL_BUILD_ID_MAX + 1]; /* the executable's GNU build id in hex, "" unknown */
	uint64_t buffer_size, memory_interval_ns, delay_ns, duration_ns;
	uint32_t tl_mode;    /* enum xl_tl_mode (XL_TL_FIRST before version 5) */
	int64_t tl_min_ns;   /* timeline_min_duration, 0: none */
	int64_t peak_rss;    /* the process's VmHWM at finalization */
	int64_t capture_rss; /* the capture buffer's resident bytes then (XL_UNAVAILABLE) */
	uint64_t mem_samples_missed;
	uint32_t threads_dropped;
	uint32_t threads_unplaced;  /* threads that found no room in the buffer */
	uint64_t unrecorded_events; /* events of unrecorded threads (lower bound) */
	uint64_t open_exits;        /* exits of frames open before recording began */

	struct xl_run run;

	struct xl_thread *threads;
	size_t nthreads;
	struct xl_tnode *nodes;
	size_t nnodes;
	struct xl_func *funcs;
	size_t nfuncs;
	struct xl_fstat *fstats; /* per thread, see xl_thread */
	size_t nfstats;
	struct xl_sample *samples;
	size_t nsamples;

	/* Heap allocations (version 3, flag XL_FLAG_ALLOCS; all zero/NULL
	 * otherwise).  node_alloc[i]: the allocations made on node i's path
	 * (self), parallel to nodes; a thread root's holds those made with no
	 * traced frame and those of frames without a regular node (fallocs).
	 * alloc_total = every node's + alloc_na: what the wrappers saw. */
	int allocs;                  /* allocations were recorded */
	struct xl_alloc *node_alloc; /* NULL unless allocs */
	struct xl_falloc *fallocs;
	size_t nfallocs;
	struct xl_alloc alloc_na; /* "(not attributed)" */
	/* Made while the window was closed (before it opened, after it
	 * closed); kept apart from alloc_na since format 5's later
	 * runtimes (alloc_outside_kept), in alloc_na before. */
	struct xl_alloc alloc_outside;
	int alloc_outside_kept;
	struct xl_alloc alloc_total;
	uint64_t alloc_unmatched_frees, alloc_unmatched_bytes; /* frees of blocks not seen allocated */
	uint64_t alloc_untracked; /* allocations whose frees could not be matched (table full) */
	uint64_t gc_frees;
	struct xl_warning *warnings; /* what limits the capture */
	size_t nwarnings;
	struct xl_warning *notes; /* facts beside the figures (see xl_warning) */
	size_t nnotes;

	uint64_t total_events, total_timeline_events, total_dropped;
	uint64_t more_calls; /* all threads' calls in "(more call paths)" nodes */
	uint32_t more_nodes;
	int64_t timeline_full_ns; /* earliest timeline drop of any thread, -1 none */

	/* Samples (capture format 6; all zero before): the rate asked for
	 * (0: none), whether instruction samples could be taken
	 * (enum xl_sample_status) and why not (errno, the kernel's
	 * perf_event_paranoid or XL_PARANOID_UNKNOWN). */
	uint32_t sample_rate, sample_status;
	int sample_errno, perf_paranoid;
	uint32_t sample_threads, sample_threads_failed;
	uint64_t isamples_lost, isamples_dropped, psamples_missed;
	/* --timing=sampled: the time one position sample stands for, on
	 * average (model.c: sampled_self; more than the period when rounds
	 * were missed); 0 otherwise */
	double psample_ns;
	uint64_t exe_base; /* the executable's load bias */
	struct xl_isamp *isamples;
	size_t nisamples;
	struct xl_psamp *psamples;
	size_t npsamples;
	struct xl_mapping *maps;
	size_t nmaps;
	/* What samples.json (the resolved addresses) gave: resolved 0 when it
	 * is missing or refused (samples_problem says why); the samples
	 * matched to a call path; the embedded source text. */
	int resolved;
	char samples_problem[320];
	uint64_t isamples_matched;
	struct xl_sframe *sframes; /* parents before the frames nested in them */
	size_t nsframes;
	struct xl_source *sources;
	size_t nsources;

	/* The processes (proctree.c): procs[0] is the top capture's; each
	 * thread's process indexes it.  One process when the directory holds
	 * no other capture, or when one process was asked for; 0 in a model
	 * made by hand.  The captures read besides the top one: parts. */
	struct xl_proc *procs;
	size_t nprocs;
	struct xl_part *parts;
	size_t nparts;

	/* read-only mapping of capture.xlc (timeline iteration) */
	const char *map;
	size_t map_size;
};

/* samples.c: 1 with the reason in buf (one phrase, "the kernel refused
 * perf_event_open (EACCES: ...)") when instruction samples were asked for
 * but could not be taken; 0 otherwise. */
int xl_samples_unavailable(const struct xl_model *m, char *buf, size_t len);

/* The source text of file:line, or NULL when it is not embedded. */
const char *xl_source_line(const struct xl_model *m, const char *file, int line);

/* Load a capture directory: its capture and those of the process tree in
 * its subdirectories (proctree.c), merged into one model.  On failure
 * returns a negative XL_E* and puts a one-line message (naming the file
 * and the problem) in err. */
int xl_model_load(const char *dir, struct xl_model **out, char *err, size_t errlen);
/* One capture directory's capture alone, without the process tree's in
 * its subdirectories (what a writer of a capture's sidecars needs). */
int xl_model_load_capture(const char *dir, struct xl_model **out, char *err, size_t errlen);
/* The same for one process of the tree (pid < 0: all).  XL_ENOPROC when
 * no capture of the directory is of that pid (err lists the pids). */
int xl_model_load_process(const char *dir, long pid, struct xl_model **out, char *err, size_t errlen);
/* The pid of a thread's process (the capture's pid in a model made by
 * hand). */
static inline uint32_t xl_thread_pid(const struct xl_model *m, const struct xl_thread *t)
{
	return t->process < m->nprocs ? m->procs[t->process].pid : m->pid;
}

/* How a process ended, one word for every output: "exit" (exited; the
 * started process's status in exit_status), "signal" (killed by one),
 * "exec" (exec'd a program exaloop did not build), "window" (still
 * running when the capture window closed), "unknown" (its capture was not
 * finalized: _exit, a crash, or killed without a status to tell). */
const char *xl_proc_status(const struct xl_proc *p);
/* The index into funcs of a function a thread's timeline names by its
 * XRay id (each capture of the tree has its own ids), or XL_NONE. */
int32_t xl_thread_func_index(const struct xl_model *m, const struct xl_thread *t, int32_t xray_id);
void xl_model_free(struct xl_model *m);

/* Convert capture ticks to ns on the model's axis. */
int64_t xl_model_ns(const struct xl_model *m, uint64_t ticks);

/* --timing=sampled: calls were counted, and times come from the position
 * samples (model.c: sampled_self). */
static inline int xl_timing_sampled(const struct xl_model *m)
{
	return (m->flags & XL_FLAG_TIMING_SAMPLED) != 0;
}
/* The bound of a time estimated from k position samples, 19 times in 20:
 * 1.96 standard deviations of a Poisson count (sqrt(k)), times the time a
 * sample stands for (psample_ns), in ns. */
int64_t xl_sampled_err_ns(const struct xl_model *m, uint64_t k);

/* Index into funcs of an XRay id, or XL_NONE (funcs are sorted by id). */
int32_t xl_func_index(const struct xl_model *m, int32_t xray_id);
/* The threads' times summed ("thread time"; more than the wall time when
 * threads ran in parallel).  Cannot overflow: at most XL_MAX_THREADS (2^10)
 * threads of at most 2^52 ns each (xl_clamp_ns).  Inline: warnings.c uses
 * it, and model.c calls warnings.c. */
static inline int64_t xl_thread_time(const struct xl_model *m)
{
	int64_t t = 0;
	for (size_t i = 0; i < m->nthreads; i++)
		t += m->threads[i].total_ns;
	return t;
}

/* The CPU time of the threads that have one (capture format 3), summed;
 * *with (if not NULL) counts them.  -1 when none has.  Inline like
 * xl_thread_time. */
static inline int64_t xl_cpu_time(const struct xl_model *m, size_t *with)
{
	int64_t t = 0;
	size_t n = 0;
	for (size_t i = 0; i < m->nthreads; i++)
		if (m->threads[i].cpu_ns >= 0) {
			t += m->threads[i].cpu_ns;
			n++;
		}
	if (with)
		*with = n;
	return n ? t : -1;
}

/* Timeline: iterate one thread's stored events in order. */
struct xl_tl_iter {
	const struct xl_model *m;
	uint64_t block; /* current block offset */
	uint32_t i, count;
	uint64_t blocks_left; /* of the thread's timeline_blocks */
	int any_order;        /* a ring's list (XL_TL_LAST): links may go back */
	/* a thread of another capture of the tree: its events' ticks are
	 * turned into the top model's, shift_ns later (NULL: the same) */
	const struct xl_model *top;
	int64_t shift_ns;
	/* then the thread's open frames with no record (xl_thread.tl_pend_*);
	 * last_ticks: the latest record's ticks so far (its own capture's) */
	uint64_t pend_off, pend_until, last_ticks;
	uint32_t pend_left;
};
void xl_tl_begin(const struct xl_model *m, const struct xl_thread *t, struct xl_tl_iter *it);
/* Returns 1 and fills *ev, or 0 at the end. */
int xl_tl_next(struct xl_tl_iter *it, struct xl_event *ev);

/* Sort orders for function tables. */
enum xl_sort {
	XL_SORT_SELF,
	XL_SORT_TOTAL,
	XL_SORT_CALLS,
	XL_SORT_AVG,
	XL_SORT_NAME,
	XL_SORT_ALLOC, /* bytes allocated (self) */
};
int xl_sort_parse(const char *s, enum xl_sort *out);
/* Fill idx[0..n) with indices of funcs[] in the given order. */
void xl_funcs_sorted(const struct xl_func *funcs, size_t n, enum xl_sort by, size_t *idx);

/* Per-thread function table: stats of one thread only (thread < 0: all),
 * from the threads' per-function tables, or their call trees for threads
 * without one.  Returns XL_OK or XL_ENOMEM. */
int xl_funcs_for_thread(const struct xl_model *m, int thread, struct xl_func *out);

/* Memory summary over the window's samples (memory.c).  A metric that no
 * sample could read has available == 0 and a reason. */
struct xl_metric {
	int available;
	int64_t value; /* last sample (or peak for peak RSS) */
	int64_t min, max;
	int64_t delta;      /* last - first (cumulative metrics) */
	double rate_per_s;  /* delta over the window's duration */
	const char *reason; /* static text when unavailable */
};
struct xl_mem_summary {
	/* rss and peak_rss: the whole process, the capture buffer included;
	 * program_rss, profiler_rss: rss without the buffer, and the buffer
	 * (unavailable before capture format 3); program_peak_rss: the
	 * program's peak (memory.c), with the buffer's resident bytes at that
	 * moment in profiler_at_peak. */
	struct xl_metric rss, peak_rss, program_rss, profiler_rss, program_peak_rss;
	int64_t profiler_at_peak;
	struct xl_metric gc_heap, gc_free, gc_occupied, gc_allocated, gc_collections;
};
void xl_memory_summary(const struct xl_model *m, struct xl_mem_summary *s);
/* GC occupied estimate of one sample: heap - free, clamped at 0. */
int64_t xl_gc_occupied(const struct xl_sample *s);
/* The program's RSS at one sample: rss minus the capture buffer's share
 * (XL_UNAVAILABLE when either is). */
int64_t xl_program_rss(const struct xl_sample *s);

/* The profiler's estimated share of the time (overhead.c): the cost of a
 * traced call (measured by the runtime, else typical) times the calls,
 * against the traced threads' CPU time (capture format 3) and the capture
 * window's wall time.  Shares are fractions in [0, 1], -1 when unknown.
 * A memory-only capture, or one without events, leaves calls 0. */
struct xl_overhead {
	double ns_per_call;
	int measured; /* 0: the typical figure, nothing was measured */
	uint64_t calls;
	double cost_ns;       /* ns_per_call x calls */
	int64_t cpu_ns;       /* the threads' CPU time, -1 unknown (before format 3) */
	double cpu_share;     /* of the threads' CPU time (threads with one) */
	int64_t wall_ns;      /* the capture window */
	double wall_share;    /* cost over the wall time */
	double elapsed_share; /* cost over the summed thread time (before format 3) */
	int busiest;          /* thread with the largest share of its CPU time, or -1 */
	double busiest_share;
};
void xl_overhead(const struct xl_model *m, struct xl_overhead *o);
/* Call-dense: at least this many calls to and from a function.  Below
 * it the bound is tens of microseconds, within a run's noise (a function
 * called a few times in a short run would be marked for a few hundred ns). */
#define XL_CALL_COST_MIN_CALLS 1000
/* Each function's cost_bound_ns and cost_uncertain from the call tree's
 * counts (calls it makes: its nodes' children's calls) and m's cost per
 * call (xl_overhead); bound -1 for all under --timing=sampled or without
 * traced calls.  Part of building a model: run again after a merge
 * changes its counts.  XL_OK or XL_ENOMEM. */
int xl_call_cost(struct xl_model *m);

const char *xl_mode_name(uint32_t mode);
/* "auto", "first" or "last" (enum xl_tl_mode), and back: 0, or -1. */
const char *xl_tl_mode_name(uint32_t mode);
int xl_tl_mode_parse(const char *name, uint32_t *mode);
/* What a thread's timeline kept, one phrase for every report: "all
 * calls", "calls ≥ 12.0 us" (a fixed threshold), "calls ≥ 12.0 us after
 * 0.812 s" (the adaptive threshold's last rise), then ", until 0.390 s
 * (timeline buffer full)" or ", the most recent from 3.200 s" (last). */
void xl_tl_note(const struct xl_model *m, const struct xl_thread *t, char *buf, size_t len);
/* The mode named "all", "memory" or "xray" into *mode: 0, or -1 for any other name. */
int xl_mode_parse(const char *name, uint32_t *mode);

#endif
