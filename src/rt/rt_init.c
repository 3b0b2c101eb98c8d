/*
 * rt_init.c - start-up and shut-down of the runtime.
 *
 * The constructor reads the capture environment once (set by `exaloop run`
 * or `exaloop profile exec`).  Without it, or when it names another pid
 * (a child that inherited the environment), the runtime stays inert: no
 * thread, no patching, no file.  With it, the constructor creates and maps
 * the capture file, opens the window unless a delay was asked for, and
 * starts the control thread.  The destructor (normal exit) finalizes.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stddef.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rt_internal.h"

/* Make rt__proc_page a private anonymous page of its own, wiped in every
 * child.  Called before anything is stored in it. */
static void proc_page_setup(void)
{
	void *p = mmap(&rt__proc_page, sizeof(rt__proc_page), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (p != MAP_FAILED)
		madvise(p, sizeof(rt__proc_page), MADV_WIPEONFORK);
}

static char attach_buf[XL_ATTACH_MAX];

static uint64_t env_u64(const char *name, uint64_t dflt)
{
	const char *v = rt__getenv(name);
	if (!v || !*v)
		return dflt;
	char *end;
	unsigned long long x = strtoull(v, &end, 10);
	return *end ? dflt : (uint64_t)x;
}

static void parse_include(const char *list)
{
	size_t n = 1;
	for (const char *p = list; *p; p++)
		n += *p == ',';
	rt__cfg.include_ids = calloc(n, sizeof(int32_t));
	if (!rt__cfg.include_ids)
		return;
	const char *p = list;
	while (*p) {
		char *end;
		long id = strtol(p, &end, 10);
		if (end == p)
			break;
		rt__cfg.include_ids[rt__cfg.include_count++] = (int32_t)id;
		p = *end == ',' ? end + 1 : end;
	}
}

static void read_config(void)
{
	const char *mode = rt__getenv(XL_ENV_MODE);
	rt__cfg.mode = XL_MODE_ALL;
	if (mode && strcmp(mode, "memory") == 0)
		rt__cfg.mode = XL_MODE_MEMORY;
	else if (mode && strcmp(mode, "xray") == 0)
		rt__cfg.mode = XL_MODE_XRAY;
	rt__cfg.buffer_size = env_u64(XL_ENV_BUFFER, XL_DEFAULT_BUFFER_SIZE);
	if (rt__cfg.buffer_size < XL_MIN_BUFFER_SIZE)
		rt__cfg.buffer_size = XL_MIN_BUFFER_SIZE;
	rt__cfg.interval_ns = env_u64(XL_ENV_INTERVAL, XL_DEFAULT_INTERVAL_NS);
	rt__cfg.delay_ns = env_u64(XL_ENV_DELAY, 0);
	rt__cfg.duration_ns = env_u64(XL_ENV_DURATION, 0);
	/* The CLI checks these; anything else here means the default. */
	const char *tl = rt__getenv(XL_ENV_TIMELINE);
	rt__cfg.tl_mode = XL_TL_AUTO;
	if (tl && strcmp(tl, "first") == 0)
		rt__cfg.tl_mode = XL_TL_FIRST;
	else if (tl && strcmp(tl, "last") == 0)
		rt__cfg.tl_mode = XL_TL_LAST;
	rt__cfg.tl_min_ns = env_u64(XL_ENV_TIMELINE_MIN, 0);
	/* Samples need the call tree: none in memory mode. */
	uint64_t rate = env_u64(XL_ENV_SAMPLE_RATE, XL_DEFAULT_SAMPLE_RATE);
	rt__cfg.sample_rate = rt__cfg.mode == XL_MODE_MEMORY ? 0
			      : rate > XL_MAX_SAMPLE_RATE    ? XL_MAX_SAMPLE_RATE
							     : (uint32_t)rate;
	/* Times from the position samples: needs them, and a call tree. */
	const char *timing = rt__getenv(XL_ENV_TIMING);
	rt__cfg.counted = timing && strcmp(timing, "sampled") == 0 && rt__cfg.sample_rate != 0;
	const char *inc = rt__getenv(XL_ENV_INCLUDE);
	if (inc)
		parse_include(inc);
}

/* The run's capture directory (the environment's), for the captures of
 * forked children: written once by the constructor. */
static char root_dir[4096];

/*
 * Forked children (fork() without exec, still running traced code: worker
 * pools, pre-forking servers) get a capture of their own, child-<pid>/ in
 * the run's directory.  The child made by fork() runs this handler (the
 * kernel has already zeroed rt__on and the owner word).  It is made
 * lazily: a child that only execs or _exits (system(), popen, a shell)
 * costs nothing and leaves nothing.  The handler only resets this
 * process's copies of the parent's state (the forking thread's hot state,
 * thread key, control thread, /proc descriptors) and arms child_pending;
 * the first traced event of the child reaches the full handler (the
 * thread is unregistered), which calls rt__child_begin() to create and map
 * the capture, and starts the child's own control thread: memory samples
 * every interval and the run's window (a timed window closes for the child
 * when it closes for the run); its capture is finalized at its exit, or
 * when the window closes.  In memory-only runs no event comes: the handler
 * starts the child's control thread at once, which makes the capture one
 * interval later if the child still runs this image (exec and exit end
 * the thread first, so fork + exec still leaves nothing).  A child forked
 * before a delayed window opened is not captured in function modes (its
 * copy of the code is not patched, so no event makes its capture).
 */

/* This process is a forked child of the run's (fork_child() ran). */
static int forked;

static void fork_child(void)
{
	forked = 1;
	/* The child shares the parent's mapping: it must never write to it.
	 * (The kernel already zeroed both words; this is for kernels without
	 * MADV_WIPEONFORK.) */
	atomic_store(&rt__on, 0);
	atomic_store(&rt__proc_page.s.owner, 0);
	atomic_store(&rt__proc_page.s.alloc, 0);
	/* First: whatever follows, no control thread runs in the child, and
	 * its forking thread (the child's only one) is now its main thread. */
	rt__control_fork_child();
	int memory = rt__cfg.mode == XL_MODE_MEMORY;
	if (!root_dir[0] || (!memory && !rt__xray_available()))
		return;
	rt__hot = (struct rt_hot){.gate = RT_GATE_NEW};
	rt__threads_fork_child();
	rt__alloc_fork_child();
	rt__mem_fork_child();
	rt__sample_fork_child();
	atomic_store(&rt__child_state, 1);
	if (memory) /* no event will come: a control thread makes the capture */
		rt__control_start_child(1);
	else
		atomic_store(&rt__on, rt__on_value()); /* events now reach rt__child_begin() */
}

/*
 * A forked child's exec (rt_wrap_exec.c, around the program's own calls
 * of the exec functions): the child may have run no traced code, so have
 * no capture, and after the exec no runtime of the run is there to say
 * what it became.  Before the exec, child-<pid>/XL_EXEC_NOTE_FILE says
 * it: the parent pid, the path and the arguments (cut at 4 KiB, line
 * breaks as spaces).  Returns what was made (1 the directory, 2 the
 * file), for rt__child_exec_failed(); errno is kept.
 */
int rt__child_exec_note(const char *path, char *const argv[])
{
	if (!forked || !root_dir[0])
		return 0;
	int saved = errno, made = 0;
	char dir[4096 + 32], file[4096 + 64], buf[4096];
	snprintf(dir, sizeof(dir), "%s/child-%d", root_dir, (int)getpid());
	snprintf(file, sizeof(file), "%s/%s", dir, XL_EXEC_NOTE_FILE);
	if (mkdir(dir, 0755) == 0)
		made = 1;
	int head = snprintf(buf, sizeof(buf), "%d\n%s\n", (int)getppid(), path ? path : "");
	size_t n = head > 0 && (size_t)head < sizeof(buf) - 1 ? (size_t)head : 0, end = sizeof(buf) - 1;
	for (size_t i = 0; argv && argv[i] && n < end; i++) {
		if (i)
			buf[n++] = ' ';
		for (const char *a = argv[i]; *a && n < end; a++)
			buf[n++] = *a == '\n' ? ' ' : *a;
	}
	buf[n++] = '\n';
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd >= 0) {
		made |= write(fd, buf, n) == (ssize_t)n ? 2 : 0;
		close(fd);
		if (!(made & 2))
			unlink(file);
	}
	errno = saved;
	return made;
}

/* The exec returned (failed): the child goes on as it was. */
void rt__child_exec_failed(int made)
{
	int saved = errno;
	char path[4096 + 64];
	int len = snprintf(path, sizeof(path), "%s/child-%d/%s", root_dir, (int)getpid(), XL_EXEC_NOTE_FILE);
	if (made & 2)
		unlink(path);
	if ((made & 1) && len > 0 && (size_t)len < sizeof(path)) {
		path[(size_t)len - strlen(XL_EXEC_NOTE_FILE) - 1] = 0;
		rmdir(path);
	}
	errno = saved;
}

/*
 * The runtime never writes to the program's stderr (or any of its
 * descriptors): what it has to say goes, one line each, into
 * XL_CAP_NOTE_FILE in the capture directory, which exaloop prints after
 * the program ended.
 */
static __attribute__((format(printf, 2, 3))) void rt_note(const char *dir, const char *fmt, ...)
{
	char path[4096], line[1024];
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, XL_CAP_NOTE_FILE) >= sizeof(path))
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return;
	ssize_t w = write(fd, line, (size_t)n);
	(void)w;
	close(fd);
}

/* A file-size limit (ulimit -f) below the capture's size would kill the
 * program with SIGXFSZ at the reservation, before main.  Use what the
 * limit leaves when that is at least the minimum buffer (*size and the
 * buffer size reduced), else run without capture (-1); either way say so. */
static int fit_file_limit(const char *dir, uint64_t *size)
{
	struct rlimit fl;
	if (getrlimit(RLIMIT_FSIZE, &fl) != 0 || fl.rlim_cur == RLIM_INFINITY || fl.rlim_cur >= *size)
		return 0;
	uint64_t room = (uint64_t)fl.rlim_cur;
	uint64_t fixed = XL_HDR_SIZE + XL_THREAD_TABLE_SIZE;
	if (room < fixed + (1u << 20)) {
		rt_note(dir,
			"capture disabled: the file-size limit (ulimit -f, %llu bytes) is below the "
			"smallest capture (%llu bytes)",
			(unsigned long long)room, (unsigned long long)(fixed + (1u << 20)));
		return -1;
	}
	rt__cfg.buffer_size = (room - fixed) & ~(uint64_t)0xffff;
	rt_note(dir,
		"capture buffer reduced to %llu bytes to stay within the file-size limit "
		"(ulimit -f, %llu bytes)",
		(unsigned long long)rt__cfg.buffer_size, (unsigned long long)room);
	*size = fixed + rt__cfg.buffer_size;
	return 0;
}

/* A new capture's header: the settings it was made with, its size, an
 * empty arena, every metric unavailable until measured. */
static void header_init(struct xl_cap_header *h, uint64_t size)
{
	h->version = XL_CAP_VERSION;
	h->hdr_size = XL_HDR_SIZE;
	h->mode = rt__cfg.mode;
	h->timeline_mode = rt__cfg.tl_mode;
	h->timeline_min_ns = rt__cfg.tl_min_ns;
	h->sample_rate = rt__cfg.sample_rate;
	if (rt__cfg.counted)
		h->flags |= XL_FLAG_TIMING_SAMPLED;
	h->perf_paranoid = XL_PARANOID_UNKNOWN;
	h->pid = (uint32_t)getpid();
	h->file_size = size;
	h->arena_off = XL_HDR_SIZE + XL_THREAD_TABLE_SIZE;
	h->arena_cursor = h->arena_off;
	/* The timeline may use up to 3/4 of the budget; the rest is kept for
	 * the call trees and memory samples so they stay complete. */
	uint64_t reserve = rt__cfg.buffer_size / 4;
	if (reserve < (512u << 10))
		reserve = 512u << 10;
	h->timeline_limit = size - reserve;
	h->buffer_size = rt__cfg.buffer_size;
	h->memory_interval_ns = rt__cfg.interval_ns;
	h->delay_ns = rt__cfg.delay_ns;
	h->duration_ns = rt__cfg.duration_ns;
	h->peak_rss_bytes = XL_UNAVAILABLE;
	h->capture_rss_bytes = XL_UNAVAILABLE;
	h->gc_first_collections = XL_UNAVAILABLE;
}

static int map_capture(const char *dir)
{
	char path[PATH_MAX];
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, XL_CAP_FILE) >= sizeof(path)) {
		rt_note(dir, "capture disabled: the capture directory's path is too long");
		return -1;
	}
	uint64_t size = XL_HDR_SIZE + XL_THREAD_TABLE_SIZE + rt__cfg.buffer_size;
	if (fit_file_limit(dir, &size) != 0)
		return -1;
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		rt_note(dir, "capture disabled: cannot create '%s': %s", path, strerror(errno));
		return -1;
	}
	/* Reserve the blocks now: writing into a hole of a full file system
	 * through a shared mapping would kill the program with SIGBUS. */
	int rc = posix_fallocate(fd, 0, (off_t)size);
	if (rc == EOPNOTSUPP || rc == EINVAL)
		rc = ftruncate(fd, (off_t)size) == 0 ? 0 : errno;
	if (rc != 0) {
		rt_note(dir, "capture disabled: cannot reserve %llu bytes for '%s': %s", (unsigned long long)size, path,
			strerror(rc));
		close(fd);
		unlink(path);
		return -1;
	}
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		rt_note(dir, "capture disabled: cannot map '%s': %s", path, strerror(errno));
		unlink(path);
		return -1;
	}
	/* No read-ahead: the file's first touch would otherwise fill a window
	 * of large folios with zeros (2-4 ms here, before main), most of it
	 * never used by a short run; the control thread populates ahead of
	 * the writers instead (rt_control.c). */
	(void)madvise(p, size, MADV_RANDOM);
	rt__base = p;
	rt__hdr = p;
	header_init(rt__hdr, size);
	return 0;
}

/*
 * An image the process exec'd (same pid, so the capture environment names
 * it too) finds the capture directory already used.  It finalizes the
 * previous image's capture as ended by exec (that image had no chance to:
 * exec runs no destructor), at the current time, which is within the
 * loader's start-up time of the exec, and takes the next exec-<n>/
 * directory for its own capture.  The previous image's capture is the one
 * of this pid still not finalized: capture.xlc, or exec-<k>/capture.xlc
 * after several execs.  Returns n (>= 1) with the directory created, or 0.
 */
static void end_by_exec(const char *path, uint32_t next)
{
	int fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return;
	struct xl_cap_header h;
	if (pread(fd, &h, sizeof(h), 0) == (ssize_t)sizeof(h) && memcmp(h.magic, XL_CAP_MAGIC, 8) == 0 &&
	    h.pid == (uint32_t)getpid() && h.state != XL_STATE_FINALIZED) {
		rt__clock_init(); /* not yet read on rt_init's inert path */
		uint64_t now = h.clock == XL_CLOCK_TSC && rt__use_tsc ? rt__ticks() : rt__mono_ns();
		uint32_t reason = XL_END_EXEC, state = XL_STATE_FINALIZED;
		ssize_t ok = pwrite(fd, &next, 4, offsetof(struct xl_cap_header, next_image));
		if (h.window_open_ticks && ok == 4)
			ok = pwrite(fd, &now, 8, offsetof(struct xl_cap_header, window_close_ticks)) == 8 ? 4 : -1;
		if (ok == 4 && pwrite(fd, &reason, 4, offsetof(struct xl_cap_header, end_reason)) == 4)
			ok = pwrite(fd, &state, 4, offsetof(struct xl_cap_header, state));
	}
	close(fd);
}

static uint32_t exec_takeover(const char *dir, char *mine, size_t len)
{
	char path[4096], prev[4096];
	if ((size_t)snprintf(prev, sizeof(prev), "%s/%s", dir, XL_CAP_FILE) >= sizeof(prev))
		return 0;
	for (uint32_t n = 1; n < 1000; n++) {
		if ((size_t)snprintf(mine, len, "%s/exec-%u", dir, n) >= len)
			return 0;
		if (mkdir(mine, 0755) == 0) {
			end_by_exec(prev, n);
			return n;
		}
		if (errno != EEXIST)
			return 0;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", mine, XL_CAP_FILE) >= sizeof(path))
			return 0;
		struct xl_cap_header h;
		int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd >= 0) {
			if (pread(fd, &h, sizeof(h), 0) == (ssize_t)sizeof(h) &&
			    memcmp(h.magic, XL_CAP_MAGIC, 8) == 0 && h.state != XL_STATE_FINALIZED)
				memcpy(prev, path, sizeof(prev));
			close(fd);
		}
	}
	return 0;
}

/* dl_iterate_phdr callback: the first object is the executable; copy its
 * load bias and its NT_GNU_BUILD_ID note into the header, and stop. */
static int build_id_note(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	struct xl_cap_header *h = arg;
	h->exe_base = (uint64_t)info->dlpi_addr;
	for (unsigned i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		size_t align = ph->p_align == 8 ? 8 : 4;
		const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);
		const char *end = p + ph->p_memsz;
		while ((size_t)(end - p) >= sizeof(ElfW(Nhdr))) {
			const ElfW(Nhdr) *n = (const void *)p;
			const char *name = p + sizeof(*n);
			const char *desc = name + ((n->n_namesz + align - 1) & ~(align - 1));
			if (desc > end || n->n_descsz > (size_t)(end - desc))
				break;
			if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && memcmp(name, "GNU", 4) == 0 &&
			    n->n_descsz <= XL_BUILD_ID_MAX) {
				memcpy(h->build_id, desc, n->n_descsz);
				h->build_id_size = n->n_descsz;
				return 1;
			}
			p = desc + ((n->n_descsz + align - 1) & ~(align - 1));
		}
	}
	return 1;
}

static void calibrate_start(void)
{
	struct xl_cap_header *h = rt__hdr;
	struct timespec rt;
	clock_gettime(CLOCK_REALTIME, &rt);
	h->start_realtime_ns = (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec;
	h->clock = rt__use_tsc ? XL_CLOCK_TSC : XL_CLOCK_MONOTONIC;
	h->cal0_ns = rt__mono_ns();
	h->cal0_ticks = rt__ticks();
	h->process_start_ticks = h->cal0_ticks;
	/* A first calibration pair 250 us apart, so a capture that dies before
	 * the control thread's first refresh still converts ticks to time.
	 * Reading the two clocks costs some tens of ns, so this rate is good
	 * to about 0.02%; every refresh (each memory_interval) replaces it
	 * with one measured over the whole run so far.  (It was 2 ms: that
	 * much start-up for every captured run bought precision that only a
	 * program dying in its first 100 ms could use.) */
	uint64_t ns;
	do
		ns = rt__mono_ns();
	while (ns - h->cal0_ns < 250000u);
	h->cal1_ticks = rt__ticks();
	h->cal1_ns = ns;
	h->last_ticks = h->cal1_ticks;
}

/* The header facts every capture of this run starts with. */
static void capture_start(void)
{
	calibrate_start();
	dl_iterate_phdr(build_id_note, rt__hdr);
	if (rt__track_sp)
		rt__hdr->flags |= XL_FLAG_UNWIND_TRACKED;
	if (rt__xray_available())
		rt__hdr->flags |= XL_FLAG_XRAY_PRESENT;
	if (rt__gc_present())
		rt__hdr->flags |= XL_FLAG_GC_PRESENT;
	rt__hdr->ppid = (uint32_t)getppid();
}

/* A forked child's first traced event (rt_xray.c, full handler, before
 * the thread registers, through rt__child_begin): create child-<pid>/ and
 * its capture.  Returns 0
 * when the capture is ready, -1 when this event (and, on failure, all of
 * the child's) is not recorded.  Only one thread creates it; any other
 * that gets here meanwhile loses its event. */
static int child_begin(void)
{
	int expect = 1;
	if (!atomic_compare_exchange_strong(&rt__child_state, &expect, 2))
		return -1;
	int saved_errno = errno;
	char dir[4096 + 32];
	int ok = 0;
	snprintf(dir, sizeof(dir), "%s/child-%d", root_dir, (int)getpid());
	/* A quarter of the run's buffer (at least 4 MiB): every child reserves
	 * its file's blocks until exaloop trims it after the run, and a pool
	 * of workers would otherwise hold workers x buffer_size of disk. */
	uint64_t quarter = rt__cfg.buffer_size / 4;
	if (quarter < (4u << 20))
		quarter = rt__cfg.buffer_size < (4u << 20) ? rt__cfg.buffer_size : 4u << 20;
	rt__cfg.buffer_size = quarter;
	if (mkdir(dir, 0755) == 0 && map_capture(dir) == 0) {
		capture_start();
		rt__hdr->fork_child = 1;
		rt__alloc_child_begin();
		memcpy(rt__hdr->magic, XL_CAP_MAGIC, 8);
		atomic_store(&rt__proc_page.s.owner, 1);
		rt__child_window_open();
		ok = 1;
		/* Memory samples and the run's window, as in the parent (a
		 * memory-only child's control thread is the caller). */
		if (rt__cfg.mode != XL_MODE_MEMORY)
			rt__control_start_child(0);
	}
	if (!ok)
		atomic_store(&rt__on, 0);
	atomic_store(&rt__child_state, 0);
	errno = saved_errno;
	return ok ? 0 : -1;
}

/* Start capturing into dir (the constructor's, or an attach's). */
static int start(const char *dir)
{
	if (strlen(dir) < sizeof(root_dir))
		memcpy(root_dir, dir, strlen(dir) + 1);
	proc_page_setup();
	read_config();
	rt__clock_init();
	/* The directory already holds a capture: this is an image the process
	 * exec'd (exec keeps the pid and the environment). */
	char exec_dir[4096];
	uint32_t image = 0;
	char first[4096 + 32];
	snprintf(first, sizeof(first), "%s/%s", dir, XL_CAP_FILE);
	if (access(first, F_OK) == 0) {
		image = exec_takeover(dir, exec_dir, sizeof(exec_dir));
		if (!image) {
			rt_note(dir, "an image the program exec'd could not start its own capture "
				     "(exec-<n> directory): it ran uncaptured");
			return -1;
		}
		dir = exec_dir;
	}
	if (map_capture(dir) != 0)
		return -1;
	rt__hdr->image = image;
	/* EXALOOP_UNWIND_TRACKING=0/1 overrides the guess: off for a program
	 * that switches stacks itself (coroutines, fibers), on to measure. */
	const char *track = rt__getenv("EXALOOP_UNWIND_TRACKING");
	rt__track_sp = track && (*track == '0' || *track == '1') ? *track == '1' : rt__program_may_unwind();
	capture_start();
	rt__mem_init();
	rt__alloc_init();
	rt__thread_key_init();
	rt__child_begin = child_begin;
	pthread_atfork(NULL, NULL, fork_child);
	memcpy(rt__hdr->magic, XL_CAP_MAGIC, 8); /* the file is now readable */
	atomic_store(&rt__proc_page.s.owner, 1);
	if (rt__cfg.delay_ns == 0)
		rt__window_open();
	if (rt__control_start() != 0)
		rt_note(dir, "cannot start the capture's control thread: no memory samples, and the capture "
			     "window closes only at exit");
	return 0;
}

/* The earliest constructor priority a program may use (101; lower ones
 * are the implementation's), so that calls the program makes in its own
 * constructors are recorded, whatever their priority (constructors of
 * equal priority 101 in the program may run before or after this one).
 * XRay's own set-up runs from .preinit_array, before any of them. */
__attribute__((constructor(101))) static void rt_init(void)
{
	const char *dir = getenv(XL_ENV_DIR);
	const char *pid = getenv(XL_ENV_PID);
	if (!dir || !*dir || !pid)
		return;
	if (strtol(pid, NULL, 10) != (long)getpid()) {
		/* Another process: inert.  But a forked child of the run that had
		 * a capture and now exec'd this image ends that capture by exec
		 * (the new image is a program the child started: not captured). */
		char path[4096 + 64];
		if ((size_t)snprintf(path, sizeof(path), "%s/child-%d/%s", dir, (int)getpid(), XL_CAP_FILE) <
		    sizeof(path)) {
			int saved = errno;
			end_by_exec(path, 0);
			errno = saved;
		}
		return;
	}
	int saved_errno = errno;
	/* The directory as the launcher gave it may be relative (exaloop's
	 * "profiles/capture-..."): a program that changes directory would then
	 * write its forked children's and exec'd images' captures elsewhere,
	 * or nowhere.  Made absolute before main runs, here and for the
	 * images it execs (the environment they inherit). */
	static char abs_dir[4096];
	char cwd[4096];
	if (dir[0] != '/' && getcwd(cwd, sizeof(cwd)) &&
	    (size_t)snprintf(abs_dir, sizeof(abs_dir), "%s/%s", cwd, dir) < sizeof(abs_dir) &&
	    setenv(XL_ENV_DIR, abs_dir, 1) == 0)
		dir = abs_dir;
	start(dir);
	errno = saved_errno;
}

/*
 * `exaloop profile attach PID` (src/os/inject.c, src/cli/cmd_attach.c):
 * the CLI stops the program's main thread with ptrace where it holds no
 * lock of libc's (in a blocking system call, or in the executable's own
 * code), makes it call this function with the capture settings, and lets
 * it go.  The runtime then starts as the constructor would have: the
 * capture file, the control thread, the window (patching the sleds); its
 * threads register at their next traced event, and the frames they had
 * open return as "open at the start".  When the window closes the runtime
 * unpatches, finalizes and lets go of the process: the control thread
 * ends, its /proc descriptors are closed, allocations are no longer
 * looked at (rt__detach).  The capture file stays mapped: a thread may
 * still be inside a trampoline.
 */
__attribute__((visibility("default"), used)) RT_NOINSTR int __exaloop_attach(const char *settings, unsigned long len)
{
	if (atomic_load(&rt__proc_page.s.owner) || rt__attach_settings || root_dir[0])
		return XL_ATTACH_BUSY;
	if (!settings || len < 2 || len > sizeof(attach_buf) || settings[len - 1] || settings[len - 2])
		return XL_ATTACH_REQUEST;
	int saved_errno = errno;
	memcpy(attach_buf, settings, len);
	rt__attach_settings = attach_buf;
	const char *dir = rt__getenv(XL_ENV_DIR);
	int rc = XL_ATTACH_REQUEST;
	if (dir && *dir)
		rc = start(dir) == 0 ? XL_ATTACH_OK : XL_ATTACH_FAILED;
	if (rc == XL_ATTACH_OK)
		__atomic_fetch_or(&rt__hdr->flags, XL_FLAG_ATTACHED, __ATOMIC_RELAXED);
	errno = saved_errno;
	return rc;
}

/* Destructors run in the reverse order: priority 101 comes last of the
 * executable's, after the program's atexit handlers and destructors. */
__attribute__((destructor(101))) static void rt_fini(void)
{
	if (!rt__owns_capture())
		return; /* not started, or a child: never touch the parent's data */
	int saved_errno = errno;
	rt__alloc_self_begin();
	rt__control_stop();
	rt__hot_flush(); /* this thread's deferred events, before the capture closes */
	rt__finalize(XL_END_EXIT);
	rt__alloc_self_end();
	atomic_store(&rt__proc_page.s.owner, 0);
	errno = saved_errno;
}
