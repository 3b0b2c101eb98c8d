/*
 * xl_capture.h - the on-disk capture format: the one contract between the
 * runtime (writer, inside the profiled process) and the analyzer (reader).
 *
 * A capture directory holds `capture.xlc`, one file of fixed size
 * (XL_HDR_SIZE + XL_THREAD_TABLE_SIZE + arena) that the runtime maps
 * MAP_SHARED and writes in place.  Because the kernel owns the pages, whatever
 * the process wrote is in the file even if it is killed with SIGKILL; the
 * `state` word says whether the runtime got to finalize.  The file is sparse:
 * disk and memory grow with what is written, not with buffer_size.
 *
 *   offset 0                    struct xl_cap_header   (XL_HDR_SIZE bytes)
 *   XL_HDR_SIZE                 thread table: u64 offsets of thread blocks
 *   arena_off                   arena: blocks handed out by atomic bump
 *
 * Every arena block starts with struct xl_cap_block.  All offsets are from
 * the start of the file; 0 means "none".  All integers are little-endian
 * (x86-64 and AArch64 Linux, the only targets XRay supports here).
 *
 * Invariants the writer keeps so that a capture cut off at any instruction
 * still reads consistently:
 *   - a record is fully written before the counter or link that publishes it
 *     is stored (release order), so readers never see half a record;
 *   - each thread block, its node chunks and its timeline chunks are written
 *     by exactly one thread; the header's shared counters are atomics;
 *   - nothing is ever moved or freed inside the file.
 *
 * Versioning: `version` increases on any incompatible change.  A reader
 * refuses versions newer than it knows (saying which), and keeps code for
 * the older ones it still supports.
 */
#ifndef XL_CAPTURE_H
#define XL_CAPTURE_H

#include <stdint.h>

#define XL_CAP_MAGIC "XLCAPTUR" /* 8 bytes, no terminator in file */
#define XL_CAP_VERSION \
	7u /* 2: per-function tables, bounded call trees;
			   * 3: threads' CPU time, the capture's resident
			   * bytes per memory sample and at finalization;
			   * 4: heap allocations (xl_alloc_stat);
			   * 5: timeline modes, short calls left out of the
			   * timeline, each thread's threshold history;
			   * 6: instruction and position samples, the
			   * process's file mappings;
			   * 7: a call's ENTRY record is stored when the
			   * call is kept (at its exit), tl_written */
#define XL_CAP_FILE "capture.xlc"
#define XL_CAP_NOTE_FILE "runtime-notes.txt" /* the runtime's messages, one a line */
/* In child-<pid>/: the program a forked child exec'd (its exec wrapper
 * writes it just before the exec, and removes it when exec fails): the
 * child's parent pid, the path, then the arguments separated by spaces,
 * one line each. */
#define XL_EXEC_NOTE_FILE "exec.txt"

#define XL_HDR_SIZE 4096u
#define XL_MAX_THREADS 1024u
#define XL_THREAD_TABLE_SIZE (XL_MAX_THREADS * 8u)
#define XL_BUILD_ID_MAX 44u /* bytes; GNU build ids are 8..20 (sha1) or 32 */
#define XL_UNRECORDED_BATCH 4096u

/* Capture states (header.state). */
enum xl_cap_state {
	XL_STATE_INIT = 0,      /* file created, window not yet open */
	XL_STATE_RECORDING = 1, /* window open; a crash leaves this */
	XL_STATE_FINALIZED = 2, /* window closed or process exited cleanly */
};

/* Clock sources (header.clock). */
enum xl_cap_clock {
	XL_CLOCK_TSC = 1,       /* rdtsc; ticks_per_sec from calibration */
	XL_CLOCK_MONOTONIC = 2, /* clock_gettime(CLOCK_MONOTONIC) in ns */
};

/* Why the window closed / how finalization happened (header.end_reason). */
enum xl_cap_end {
	XL_END_NONE = 0,   /* not finalized */
	XL_END_EXIT = 1,   /* exit()/return from main (destructor ran) */
	XL_END_WINDOW = 2, /* duration elapsed; program kept running */
	XL_END_EXEC = 3,   /* the process exec'd another image; set by
				  * that image's runtime when it starts (so a
				  * non-exaloop image leaves the capture as if
				  * it had crashed) */
};

/* Capture modes (header.mode). */
enum xl_cap_mode {
	XL_MODE_ALL = 0,    /* functions + memory */
	XL_MODE_MEMORY = 1, /* memory only */
	XL_MODE_XRAY = 2,   /* functions only */
};

/* Flags (header.flags). */
#define XL_FLAG_XRAY_PRESENT 0x1u  /* executable has an XRay runtime */
#define XL_FLAG_GC_PRESENT 0x2u    /* Boehm GC getters resolved */
#define XL_FLAG_TIMELINE_FULL 0x4u /* timeline stopped: budget spent */
#define XL_FLAG_NODES_FULL \
	0x8u                       /* a thread found no room for its block
				      * (version 1: also node space ran out) */
#define XL_FLAG_THREADS_FULL 0x10u /* more than XL_MAX_THREADS threads */
#define XL_FLAG_PATCH_FAILED 0x20u /* __xray_patch did not succeed */
#define XL_FLAG_UNWIND_TRACKED \
	0x40u /* frames' stack pointers kept: the
				      * program may throw or longjmp */
#define XL_FLAG_TREE_BOUNDED \
	0x80u /* a thread's call tree reached its bound:
				      * new paths went to "(more call paths)" */
#define XL_FLAG_NO_FUNC_TABLE \
	0x100u                /* a thread found no room for its
				       * per-function table */
#define XL_FLAG_ALLOCS 0x200u /* version 4: heap allocations recorded */
#define XL_FLAG_ALLOCS_FULL \
	0x400u                  /* version 4: an allocation found no record
				    * (buffer spent) or no room in the address
				    * table: see alloc_untracked */
#define XL_FLAG_ATTACHED 0x800u /* started by `profile attach` in a running process */
#define XL_FLAG_TIMING_SAMPLED \
	0x1000u /* --timing=sampled: calls counted, no clock read per call; the
		 * nodes' and function tables' times are not kept (0), and the
		 * analysis takes times from the position samples */
#define XL_FLAG_EVENT_ABANDONED \
	0x2000u /* a signal handler left a traced event without returning to
		 * it (siglongjmp, exit): that thread's later events were not
		 * recorded; they are counted in its reentry_lost */

/* Value stored for a memory metric that could not be read. */
#define XL_UNAVAILABLE INT64_MIN

struct xl_cap_header {
	char magic[8];
	uint32_t version;
	uint32_t hdr_size;   /* XL_HDR_SIZE */
	uint32_t state;      /* enum xl_cap_state (atomic) */
	uint32_t mode;       /* enum xl_cap_mode */
	uint32_t clock;      /* enum xl_cap_clock */
	uint32_t end_reason; /* enum xl_cap_end */
	uint32_t flags;      /* XL_FLAG_* (atomic or) */
	uint32_t pid;
	uint64_t file_size;      /* total size of capture.xlc */
	uint64_t arena_off;      /* first arena byte */
	uint64_t arena_cursor;   /* next free arena byte (atomic add) */
	uint64_t timeline_limit; /* timeline chunks only below this offset */

	/* Clock calibration: two (tick, CLOCK_MONOTONIC ns) pairs.  cal0 is
	 * taken at start-up; cal1 is refreshed by the sampler thread and at
	 * finalization, so a crashed capture still has a usable pair. */
	uint64_t cal0_ticks, cal0_ns;
	uint64_t cal1_ticks, cal1_ns;
	uint64_t start_realtime_ns; /* CLOCK_REALTIME at start-up */

	/* Time points, in ticks.  0 = did not happen. */
	uint64_t process_start_ticks; /* runtime constructor */
	uint64_t window_open_ticks;
	uint64_t window_close_ticks;
	uint64_t last_ticks;          /* latest timestamp seen (sampler) */
	uint64_t timeline_full_ticks; /* first timeline drop */

	/* Settings the capture ran with. */
	uint64_t buffer_size;
	uint64_t memory_interval_ns;
	uint64_t delay_ns;
	uint64_t duration_ns;

	/* Thread table. */
	uint32_t thread_count;    /* slots claimed (atomic add) */
	uint32_t threads_dropped; /* threads beyond XL_MAX_THREADS */

	/* Memory samples: chunks of struct xl_mem_sample, linked. */
	uint64_t mem_first_chunk;
	uint64_t mem_samples_missed;  /* intervals skipped (late wake-ups) */
	int64_t peak_rss_bytes;       /* VmHWM at finalization, or UNAVAILABLE */
	int64_t gc_first_collections; /* gc_no at window open */

	uint32_t patched_functions; /* sleds patched at window open */
	uint32_t max_function_id;   /* __xray_max_function_id() */

	/* The runtime's own cost per traced call, measured at finalization:
	 * cal_calls entry+exit pairs through the trampolines and the handler
	 * took cal_ticks (on a scratch thread state, not recorded).  0 = not
	 * measured (older runtimes, memory-only, clock_gettime clock). */
	uint64_t cal_calls;
	uint64_t cal_ticks;

	/* The executable's NT_GNU_BUILD_ID, written at start-up, so that the
	 * analyzer can tell whether a symbols.json belongs to this capture.
	 * build_id_size 0 = none or unknown (older runtimes left it zero). */
	uint32_t build_id_size;
	uint8_t build_id[XL_BUILD_ID_MAX];

	/* Threads that were not recorded: registrations that found no room
	 * in the buffer (threads beyond XL_MAX_THREADS are threads_dropped),
	 * and the events of all unrecorded threads, added in batches of
	 * XL_UNRECORDED_BATCH and at thread exit, so a lower bound when the
	 * program was killed.  Zero in older captures. */
	uint32_t threads_unplaced;
	/* Written by the CLI, not the runtime: non-zero asks the control
	 * thread to close the window now (profile attach interrupted: ^C).
	 * Zero in older captures. */
	uint32_t close_request;
	uint64_t unrecorded_events;

	/* Which process and image this is (zero in older captures).  A
	 * capture directory holds the started process's capture; a forked
	 * child that runs traced code gets child-<pid>/ inside it (fork_child
	 * 1), and an image the process exec'd gets exec-<n>/ (image n). */
	uint32_t ppid;       /* getppid() at start-up */
	uint32_t image;      /* 0: the process's first image; n: exec-<n>/ */
	uint32_t next_image; /* set with XL_END_EXEC: the next image's n */
	uint32_t fork_child; /* 1: the capture of a forked child */

	/* Version 3: the resident bytes of this file's mapping (the profiler's
	 * share of the process's RSS, mincore) when peak_rss_bytes was read at
	 * finalization, or XL_UNAVAILABLE.  VmHWM minus it is a lower bound of
	 * the program's own peak (the mapping only grows). */
	int64_t capture_rss_bytes;

	/* Version 4: heap allocations (XL_FLAG_ALLOCS), see xl_alloc_stat.
	 * alloc_na is the "(not attributed)" record: allocations made while
	 * the window was closed, by threads that made no traced call yet,
	 * in memory mode, or with no room for a record; updated with atomics
	 * by every thread (its node is XL_ALLOC_NO_NODE, func 0).
	 * alloc_unmatched_*: frees of blocks the runtime did not see allocated
	 * (before the window, by a shared library such as libc's strdup),
	 * with malloc_usable_size bytes.  alloc_untracked: allocations counted
	 * but not entered in the address table (full), whose frees then count
	 * as unmatched.  gc_frees: GC_free calls (collected memory is never
	 * seen freed). */
	uint32_t alloc_rec_size; /* sizeof(struct xl_alloc_stat) */
	uint32_t reserved1;
	uint64_t alloc_unmatched_frees;
	uint64_t alloc_unmatched_bytes;
	uint64_t alloc_untracked;
	uint64_t gc_frees;
	uint64_t reserved2;    /* alloc_na 16-aligned (offset 384) */
	uint64_t alloc_na[10]; /* struct xl_alloc_stat, 16-aligned: file offset / 16 names it */

	/* Version 5: how the timeline was kept (enum xl_tl_mode; 0 in older
	 * captures, whose timelines are XL_TL_FIRST), and the fixed threshold
	 * timeline_min_duration in ns (0: none; XL_TL_AUTO then adapts). */
	uint32_t timeline_mode;
	uint32_t reserved3;
	uint64_t timeline_min_ns;
	/* Version 5, XL_TL_AUTO and XL_TL_LAST: bytes of regular node chunks
	 * claimed by all threads (atomic add).  In those modes the timeline
	 * leaves most of its budget unused for a while, so the call trees'
	 * regular nodes are held to half of the space kept above
	 * timeline_limit (the rest is room for "(more call paths)" nodes),
	 * as they are in effect once a "first" timeline has filled. */
	uint64_t tree_bytes;
	/* Both in what was reserved space in version 5 (zero from older
	 * runtimes).  open_exits: exits whose function was not on the
	 * thread's shadow stack while the stack was empty: frames open
	 * before the thread's recording began (a window that opened later,
	 * a forked child's inherited frames), counted apart from repairs
	 * (atomic add).  alloc_outside: like alloc_na, the allocations made
	 * while the window was closed (before it opened, after it closed),
	 * which alloc_na then no longer holds; owner XL_ALLOC_SHARED once
	 * the runtime keeps it. */
	uint64_t open_exits;
	uint64_t alloc_outside[10]; /* struct xl_alloc_stat, offset 496 */
	/* Version 6 (offset 576): samples (see "Samples" below).  sample_rate: per second
	 * and thread (0: no samples were asked for); sample_status: whether
	 * instruction samples could be taken (enum xl_sample_status), and
	 * when not, the errno of the first call that failed and the kernel's
	 * perf_event_paranoid read then (XL_PARANOID_UNKNOWN: not read). */
	uint32_t sample_rate;
	uint32_t sample_status;
	int32_t sample_errno;
	int32_t perf_paranoid;
	uint32_t sample_threads;        /* threads with an instruction sampler */
	uint32_t sample_threads_failed; /* threads whose sampler was refused */
	uint64_t isample_first;         /* first XL_BLOCK_ISAMPLES block, or 0 */
	uint64_t psample_first;         /* first XL_BLOCK_PSAMPLES block, or 0 */
	uint64_t maps_first;            /* first XL_BLOCK_MAPS block, or 0 */
	uint64_t exe_base;              /* the executable's load bias (PIE) */
	uint64_t isamples;              /* instruction samples stored */
	uint64_t isamples_lost;         /* the kernel's count of samples lost
					 * (a ring full between two drains) */
	uint64_t isamples_dropped;      /* not stored: the sample budget was spent */
	uint64_t psamples;              /* position samples stored */
	uint64_t psamples_missed;       /* position rounds missed (late
					 * wake-ups, or the budget spent) */
	uint64_t sample_bytes;          /* bytes of sample and map blocks */
	uint8_t reserved[XL_HDR_SIZE - 680];
};

/* Every arena block starts with this. */
enum xl_block_kind {
	XL_BLOCK_THREAD = 1,
	XL_BLOCK_NODES = 2,
	XL_BLOCK_TIMELINE = 3,
	XL_BLOCK_MEMORY = 4,
	XL_BLOCK_ALLOCS = 5,   /* version 4: struct xl_alloc_stat records */
	XL_BLOCK_PRIVATE = 6,  /* version 4: the writer's own tables (never
			* linked from anything the reader follows) */
	XL_BLOCK_ISAMPLES = 7, /* version 6: instruction samples; count and
				* capacity in 8-byte words (xl_isample) */
	XL_BLOCK_PSAMPLES = 8, /* version 6: struct xl_psample records */
	XL_BLOCK_MAPS = 9,     /* version 6: struct xl_map records */
};

struct xl_cap_block {
	uint32_t kind;     /* enum xl_block_kind */
	uint32_t owner;    /* thread slot, or 0 for memory */
	uint64_t size;     /* bytes including this header */
	uint64_t next;     /* next block of the same list, or 0 */
	uint32_t count;    /* records published in this block */
	uint32_t capacity; /* records that fit */
};

/* A calling-context tree node: one per distinct call path per thread.
 * Node 0 of every thread is the root (func 0: "thread"); real functions
 * hang below it.  `parent` is all the reader needs; `child`/`sibling` are the
 * writer's lookup links (a node is published only after it is complete). */
struct xl_node {
	int32_t func;     /* XRay function id; 0 for the root */
	uint32_t parent;  /* node index; root points to itself */
	uint32_t child;   /* first child (writer's index) */
	uint32_t sibling; /* next sibling (writer's index) */
	uint64_t calls;   /* entries into this path */
	uint64_t ticks;   /* inclusive ticks of completed calls */
};

/* The function of a "(more call paths)" node (version 2).  When a thread's
 * call tree reaches its bound (its node space is spent), a call path not
 * in the tree is not dropped: the call and everything below it are counted
 * in one such node, a child of the deepest node of the path that exists
 * (the caller's node).  Its `calls` are all entries made below that point
 * on paths that had no node; its `ticks` the inclusive time of the
 * outermost of them.  The per-function table (struct xl_func_stat) still
 * has every one of those calls under its own function. */
#define XL_FUNC_MORE (-1)

#define XL_NODES_PER_CHUNK 4096u
/* A thread's first node chunk holds XL_FIRST_NODES nodes only, so that a
 * thread with a small call tree costs little of the buffer.  When it
 * fills, the writer copies it into a full-size chunk and republishes
 * node_chunks[0] before publishing node XL_FIRST_NODES; the small block
 * stays behind, unused.  A reader takes a chunk's size from its block's
 * capacity. */
#define XL_FIRST_NODES 256u
#define XL_MAX_NODE_CHUNKS 1024u /* 4M distinct paths per thread */
#define XL_MAX_DEPTH 2048u       /* deeper frames are counted, not kept */
#define XL_THREAD_NAME_MAX 32u

/* One open frame of a thread's shadow stack.  Kept in the file so that a
 * crashed capture can close open frames at the last timestamp.
 *
 * `node` is the frame's node index, or (version 2) a "(more call paths)"
 * node's index with XL_FRAME_MORE set: the frame is inside the subtree that
 * node stands for, and only the outermost such frame (the one whose
 * caller's frame has another node) adds its time to the node; or
 * XL_FRAME_NONE: the frame has no node at all (no room even for a "(more
 * call paths)" node; the call is counted in lost_node_events and the
 * function table, its time stays in the caller's node). */
#define XL_FRAME_MORE 0x80000000u
#define XL_FRAME_NONE 0xFFFFFFFFu

struct xl_frame {
	uint32_t node;
	int32_t func;
	uint64_t entry_ticks;
};

/* Timeline event (16 bytes). */
enum xl_event_kind {
	XL_EV_ENTRY = 0,
	XL_EV_EXIT = 1,
	XL_EV_TAIL = 2,
};

struct xl_event {
	uint64_t ticks;
	int32_t func;
	uint32_t kind; /* enum xl_event_kind */
};

/*
 * Timeline modes (version 5; header.timeline_mode).  In every mode a call
 * shorter than its thread's threshold (xl_thread_block.tl_threshold, in
 * ticks) is taken out of the timeline when it exits: the writer rewinds
 * its block's count over the call's ENTRY record when that is the last
 * record (no callee was kept; otherwise the call is kept).  A block may
 * so end up holding fewer records than its capacity although a later
 * block holds more: readers take each block's count.  The call tree
 * and function table count every call whatever the threshold.  So the
 * stored timeline stays balanced, and every kept call lasted at least the
 * threshold in force when it exited.
 *   XL_TL_AUTO   the threshold starts at 0 (or timeline_min_ns, which
 *                fixes it) and doubles whenever the thread's share of
 *                the timeline budget would run out before the end of the
 *                window at its current rate (xl_thread_block.tl_history);
 *                the timeline stops only if the budget runs out anyway;
 *   XL_TL_FIRST  fixed threshold; the timeline stops when the budget is
 *                spent (XL_FLAG_TIMELINE_FULL): the first calls;
 *   XL_TL_LAST   fixed threshold; a thread that reached its share reuses
 *                its oldest timeline block (unlinked from the front of its
 *                list, emptied, linked at the end: tl_recycled): the most
 *                recent calls.  Its list is then not in file order, and
 *                it starts with exits of calls whose entries were
 *                overwritten (a reader closes them from the list's first
 *                timestamp).
 */
enum xl_tl_mode {
	XL_TL_AUTO = 1,
	XL_TL_FIRST = 2,
	XL_TL_LAST = 3,
};

/* One rise of a thread's threshold: from `ticks` on, calls shorter than
 * `threshold` ticks were left out of the timeline. */
struct xl_tl_change {
	uint64_t ticks;
	uint64_t threshold;
};

/* Changes a thread block holds: the threshold starts at 1024 ticks and
 * doubles, so 54 changes reach 2^64; a fixed threshold is one entry. */
#define XL_TL_HISTORY 64u

/* Events per timeline chunk (8 KiB): small, so that a thread with few
 * events takes little of the buffer; a chunk costs one atomic add on the
 * arena cursor per 512 events.  (Captures of older runtimes have 8192-event
 * chunks: the reader takes each block's capacity.) */
#define XL_EVENTS_PER_CHUNK 512u

/* Per-function statistics of one thread (version 2): a table of
 * `func_slots` records indexed by XRay function id (slot 0 is the thread
 * root's and means nothing), sized at the thread's registration from
 * __xray_max_function_id, so it never overflows.  It holds what the call
 * tree cannot: the frames of "(more call paths)" subtrees and frames
 * without a node (frame node >= XL_FRAME_MORE), so that a function's
 * figures are those of its nodes plus its record here:
 *   calls        entries;
 *   self_ticks   on each such frame's close, its time is added to its
 *                function and subtracted from its caller's function,
 *                unless the caller has a regular node and the frame a
 *                "(more call paths)" node (that node, the caller node's
 *                child, already takes the time out of the caller's self);
 *                modulo 2^64, may end negative (a frame without a node
 *                leaves its time in its regular caller's node);
 *   total_ticks  the time of such frames while no other frame of their
 *                function is open, regular ones included: recursion
 *                counted once;
 *   active       open frames of the function (the writer's; while a
 *                subtree is open, it counts the regular frames below it).
 * Frames still open in a cut-off capture are closed by the reader from the
 * shadow stack the same way.  Plain stores, not publication points: at
 * most one event behind after a crash. */
struct xl_func_stat {
	uint64_t calls;
	uint64_t self_ticks;
	uint64_t total_ticks;
	uint32_t active;
	uint32_t reserved;
};

/* Per-thread block.  Owned and written by its thread only; the sampler
 * only reads it. */
struct xl_thread_block {
	struct xl_cap_block blk;
	uint32_t slot; /* index in the thread table */
	uint32_t tid;  /* gettid() */
	char name[XL_THREAD_NAME_MAX];
	uint64_t first_ticks;        /* first event */
	uint64_t last_ticks;         /* latest event (updated on every event) */
	uint64_t exit_ticks;         /* thread ended (0 = still running) */
	uint64_t events;             /* events handled (aggregate) */
	uint64_t timeline_events;    /* events stored in the timeline */
	uint64_t dropped_events;     /* timeline events dropped (budget) */
	uint64_t dropped_from_ticks; /* first drop */
	uint64_t repaired_exits;     /* exits with no matching entry */
	uint64_t unwound_frames;     /* frames closed by a deeper exit */
	uint64_t deep_events;        /* events beyond XL_MAX_DEPTH */
	uint64_t lost_node_events;   /* version 1: events lost, node space
				      * exhausted; version 2: calls with no
				      * node (XL_FRAME_NONE frames) */
	uint32_t node_count;         /* nodes published */
	uint32_t depth;              /* open frames in `stack` */
	uint64_t timeline_first;     /* first timeline block, or 0 */
	uint64_t node_chunks[XL_MAX_NODE_CHUNKS];
	struct xl_frame stack[XL_MAX_DEPTH];
	/* Version 2 (after the version-1 layout, which is unchanged). */
	uint64_t func_table;   /* offset of func_slots xl_func_stat
				      * records; 0: no room (XL_FLAG_NO_FUNC_TABLE) */
	uint32_t func_slots;   /* max_function_id + 1 */
	uint32_t tree_bounded; /* 1 once the tree reached its bound */
	/* Version 3: the thread's CPU time (CLOCK_THREAD_CPUTIME_ID, ns): at
	 * its registration, and its latest reading, taken at cpu_at_ticks (at
	 * the thread's exit, at finalization for threads still running, and
	 * every RT_RENAME_NS by the control thread meanwhile, so a killed
	 * program keeps one).  cpu_at_ticks 0 = never read. */
	uint64_t cpu_start_ns;
	uint64_t cpu_ns;
	uint64_t cpu_at_ticks;
	/* Version 4: heap
	 * allocations.  alloc_first: the first XL_BLOCK_ALLOCS block (linked
	 * through `next`, `count` records published in each), 0 = none.  The
	 * totals are this thread's allocations (attributed ones) and the
	 * frees it made of blocks in the address table (any thread's), for
	 * the sampler's running sums; plain stores by the thread. */
	uint64_t alloc_first;
	uint64_t alloc_calls;
	uint64_t alloc_bytes;
	uint64_t free_calls;
	uint64_t freed_bytes;
	/* Version 5: the timeline's threshold (xl_tl_mode). */
	uint64_t tl_threshold;   /* current threshold, ticks */
	uint64_t tl_short_calls; /* calls taken out of the timeline */
	uint64_t tl_recycled;    /* XL_TL_LAST: timeline blocks reused */
	uint32_t tl_changes;     /* tl_history entries published (release) */
	/* Events of signal handlers that ran inside another event of the
	 * thread and could not be kept (more than the runtime's deferred
	 * buffer holds, or made after the thread's last event); the rest are
	 * in the tree.  0 in captures of runtimes before it was counted. */
	uint32_t reentry_lost;
	struct xl_tl_change tl_history[XL_TL_HISTORY];
	/* Version 7: the open frames whose ENTRY record is in the timeline,
	 * from the bottom of `stack`.  A call's ENTRY record is stored only
	 * when the call is kept, with its EXIT, or when a callee's is (before
	 * it, so records stay in time order); frames from tl_written to depth
	 * have entered but have no record yet (a reader shows them as open
	 * calls: xl_tl_next).  It is stored after the records it counts are
	 * published, so a reader of a killed program may find a frame both
	 * in the timeline and above tl_written: its entry time is then not
	 * after the timeline's last record's.  Before version 7 every entry
	 * was stored at once (0). */
	uint32_t tl_written;
	uint32_t reserved7;
};

/* Memory sample.  Any field may be XL_UNAVAILABLE. */
struct xl_mem_sample {
	uint64_t ticks;
	int64_t rss_bytes;      /* the whole process, capture mapping included */
	int64_t gc_heap_bytes;  /* GC_get_heap_size */
	int64_t gc_free_bytes;  /* GC_get_free_bytes */
	int64_t gc_total_bytes; /* GC_get_total_bytes (cumulative) */
	int64_t gc_collections; /* GC_get_gc_no */
	/* Version 3: the resident bytes of the capture file's mapping at this
	 * sample (mincore), the profiler's share of rss_bytes. */
	int64_t capture_rss_bytes;
	/* Version 4 (samples of version 3 end here, 56 bytes): heap
	 * allocations so far, all threads and "(not attributed)" (cumulative;
	 * XL_UNAVAILABLE when allocations are not recorded). */
	int64_t alloc_bytes;
	int64_t alloc_calls;
};
/* Samples of versions 1 and 2 end before capture_rss_bytes. */
/* Samples of versions 1 and 2 end before capture_rss_bytes. */
#define XL_MEM_SAMPLE_V2_SIZE 48u
#define XL_MEM_SAMPLE_V3_SIZE 56u

#define XL_SAMPLES_PER_CHUNK 1024u

/*
 * Samples (version 6).  The control thread, never the program's threads,
 * takes two kinds while the window is open, sample_rate times a second:
 *
 *   instruction samples: a perf_event_open software cpu-clock event per
 *     registered thread (user space only, the kernel's user call chain
 *     over frame pointers), whose ring the control thread drains.  A
 *     record is struct xl_isample followed by `nips` addresses: ips[0]
 *     the interrupted instruction, then the return addresses of the call
 *     chain, innermost first.  Records are packed in XL_BLOCK_ISAMPLES
 *     blocks whose count and capacity are in 8-byte words; a record never
 *     spans two blocks; `count` is stored (release) after the record.
 *   position samples: the thread's top frame's node read at a fixed
 *     wall-clock rate (waits included), one struct xl_psample per running
 *     thread and round.
 *
 * Times are CLOCK_MONOTONIC ns (cal0_ns is the same clock at
 * process_start_ticks).  The process's executable file mappings are
 * stored at window open and at finalization (snapshot 0 and 1), so the
 * analysis can tell which file an address belongs to.  All sample and map
 * blocks together take at most buffer_size / XL_SAMPLE_SHARE bytes.
 */
enum xl_sample_status {
	XL_SAMPLE_NONE = 0,       /* none asked for, older capture, or no
				   * thread was registered while the window
				   * was open */
	XL_SAMPLE_ON = 1,         /* instruction samples were taken */
	XL_SAMPLE_REFUSED = 2,    /* perf_event_open failed: sample_errno */
	XL_SAMPLE_NO_RING = 3,    /* mapping the event's ring failed */
	XL_SAMPLE_NO_FDTABLE = 4, /* no descriptor table apart from the
				   * program's (close_range UNSHARE, Linux 5.9) */
};
#define XL_PARANOID_UNKNOWN INT32_MIN

struct xl_isample {
	uint64_t time_ns; /* CLOCK_MONOTONIC */
	uint32_t slot;    /* thread slot */
	uint16_t nips;    /* 1..XL_ISAMPLE_MAX_IPS addresses follow */
	uint16_t flags;   /* XL_ISAMPLE_CUT */
};
#define XL_ISAMPLE_MAX_IPS 128u
#define XL_ISAMPLE_CUT 0x1u /* the chain was longer than what is stored */

struct xl_psample {
	uint64_t time_ns; /* CLOCK_MONOTONIC */
	uint32_t slot;    /* thread slot */
	uint32_t node;    /* the top frame's node (xl_frame.node, with its
			   * XL_FRAME_MORE bit, or XL_FRAME_NONE); 0 when
			   * the thread had no open frame */
};

#define XL_MAP_PATH_MAX 224u
struct xl_map {
	uint64_t start, end;        /* run-time addresses */
	uint64_t offset;            /* file offset of start */
	uint32_t snapshot;          /* 0: window open, 1: finalization */
	uint32_t flags;             /* XL_MAP_CUT: the path was longer */
	char path[XL_MAP_PATH_MAX]; /* NUL-terminated */
};
#define XL_MAP_CUT 0x1u
#define XL_MAPS_PER_CHUNK 256u
#define XL_PSAMPLES_PER_CHUNK 4096u
#define XL_ISAMPLE_WORDS 8192u /* words of an instruction-sample block */
#define XL_SAMPLE_SHARE 8u     /* samples take at most buffer_size / this */

/* Heap allocations of one call path, or of one function (version 4).
 *
 * The runtime wraps the allocation functions at link time (--wrap: malloc,
 * calloc, realloc, free, aligned_alloc, posix_memalign, memalign, valloc,
 * pvalloc, operator new and delete, Boehm's GC_malloc* and GC_free) and
 * adds each allocation made by a registered thread in the window to one
 * record of that thread: the record of the call-tree node of its top frame
 * (`node`, `func` the node's function; node 0, func 0 for no frame), or,
 * when the top frame has no regular node (a "(more call paths)" subtree or
 * no node), the record of the frame's function (`node` XL_ALLOC_NO_NODE).
 * Records are appended to the thread's XL_BLOCK_ALLOCS blocks and
 * published by the block's `count` (release) once node and func are set;
 * the counters are then plain stores by the thread, except xfrees and
 * xfreed_bytes, which other threads add with atomics.
 *
 * An allocation enters a global address table (writer-private, not in the
 * file) with its size and record, so that its free, by any thread, comes
 * off the record that allocated it: frees/freed_bytes when the allocating
 * thread frees, xfrees/xfreed_bytes otherwise.  Live bytes at exit:
 * bytes - gc_bytes - freed_bytes - xfreed_bytes.  peak_live is the largest
 * live figure the record had after one of its allocations (frees by other
 * threads read without ordering: exact for one thread).  gc_bytes are the
 * part of `bytes` the Boehm collector allocated: collected, never seen
 * freed, so not live.  realloc counts as a free of the old block and an
 * allocation of the new size. */
struct xl_alloc_stat {
	uint32_t node;  /* call-tree node index, or XL_ALLOC_NO_NODE */
	int32_t func;   /* XRay function id; 0: the thread root */
	uint32_t owner; /* thread slot; XL_ALLOC_SHARED: header.alloc_na */
	uint32_t reserved;
	uint64_t allocs;
	uint64_t bytes;
	uint64_t frees;
	uint64_t freed_bytes;
	uint64_t xfrees;
	uint64_t xfreed_bytes;
	uint64_t peak_live;
	uint64_t gc_bytes;
};
#define XL_ALLOC_NO_NODE 0xFFFFFFFFu
#define XL_ALLOC_SHARED 0xFFFFFFFFu
#define XL_ALLOCS_FIRST 64u       /* records in a thread's first block */
#define XL_ALLOCS_PER_CHUNK 1024u /* in the later ones */

/* Environment the CLI sets to enable capture (read once by the runtime). */
#define XL_ENV_DIR "EXALOOP_CAPTURE_DIR"    /* capture directory */
#define XL_ENV_PID "EXALOOP_CAPTURE_PID"    /* pid that may capture */
#define XL_ENV_MODE "EXALOOP_CAPTURE_MODE"  /* all | memory | xray */
#define XL_ENV_BUFFER "EXALOOP_BUFFER_SIZE" /* bytes */
#define XL_ENV_INTERVAL "EXALOOP_MEMORY_INTERVAL_NS"
#define XL_ENV_DELAY "EXALOOP_DELAY_NS"
#define XL_ENV_DURATION "EXALOOP_DURATION_NS"
#define XL_ENV_INCLUDE "EXALOOP_INCLUDE_IDS"          /* comma-separated ids; unset = all */
#define XL_ENV_ALLOCS "EXALOOP_ALLOCATIONS"           /* "0": do not record allocations */
#define XL_ENV_TIMELINE "EXALOOP_TIMELINE"            /* auto | first | last */
#define XL_ENV_TIMELINE_MIN "EXALOOP_TIMELINE_MIN_NS" /* fixed threshold, ns */
#define XL_ENV_SAMPLE_RATE "EXALOOP_SAMPLE_RATE"      /* per second; 0: no samples */
#define XL_ENV_TIMING "EXALOOP_TIMING"                /* exact | sampled */
/* `exaloop profile attach` calls this function of a running program's
 * runtime (by its symbol, through ptrace) with the same settings as
 * "NAME=VALUE" strings, each NUL-terminated, ended by an empty one:
 * int __exaloop_attach(const char *settings, unsigned long len).
 * 0: the capture started; XL_ATTACH_* otherwise. */
#define XL_ATTACH_SYMBOL "__exaloop_attach"
#define XL_ATTACH_MAX 8192u /* bytes of settings */
enum xl_attach_rc {
	XL_ATTACH_OK = 0,
	XL_ATTACH_BUSY = 1,    /* the process is captured already */
	XL_ATTACH_REQUEST = 2, /* settings malformed or without a directory */
	XL_ATTACH_FAILED = 3,  /* the capture could not start (runtime-notes.txt says why) */
};

/* Defaults of the capture settings, used by the runtime when a variable
 * above is unset and by the CLI when exaloop.toml does not set them (not
 * part of the file format). */
#define XL_DEFAULT_BUFFER_SIZE (64u << 20) /* buffer_size, XL_ENV_BUFFER */
#define XL_MIN_BUFFER_SIZE (1u << 20)      /* smaller requests get this */
#define XL_DEFAULT_INTERVAL_NS 100000000u  /* memory_interval (100 ms), XL_ENV_INTERVAL */
#define XL_DEFAULT_SAMPLE_RATE 1000u       /* sample_rate, XL_ENV_SAMPLE_RATE */
#define XL_MAX_SAMPLE_RATE 10000u          /* higher rates are refused by the CLI */

_Static_assert(sizeof(struct xl_cap_header) == XL_HDR_SIZE, "header must fill its page");
_Static_assert(sizeof(struct xl_event) == 16, "timeline events are 16 bytes");
_Static_assert(sizeof(struct xl_node) == 32, "nodes are 32 bytes");
_Static_assert(sizeof(struct xl_func_stat) == 32, "function stats are 32 bytes");
_Static_assert(sizeof(struct xl_mem_sample) == XL_MEM_SAMPLE_V2_SIZE + 24, "versions 3 and 4 added fields to samples");
_Static_assert(sizeof(struct xl_alloc_stat) == 80, "allocation records are 80 bytes");
_Static_assert(sizeof(struct xl_isample) == 16, "instruction sample headers are two words");
_Static_assert(sizeof(struct xl_psample) == 16, "position samples are 16 bytes");
_Static_assert(sizeof(struct xl_map) == 256, "mappings are 256 bytes");
_Static_assert(__builtin_offsetof(struct xl_cap_header, sample_rate) == 576, "version 6 starts at 576");
_Static_assert(sizeof(((struct xl_cap_header *)0)->alloc_na) == sizeof(struct xl_alloc_stat), "alloc_na holds one");
_Static_assert(__builtin_offsetof(struct xl_cap_header, alloc_na) % 16 == 0, "alloc_na is 16-aligned");
_Static_assert(__builtin_offsetof(struct xl_cap_header, alloc_outside) == 496, "alloc_outside is 16-aligned");

#endif
