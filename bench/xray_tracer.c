/*
 * xray_tracer.c - bench-only XRay tracers, linked into a workload.
 *
 * Inert unless XLB_TRACER is set when the program starts:
 *   empty   patch every sled, install a handler that does nothing: the floor
 *           of any tracer built on __xray_set_handler (with the trampolines
 *           the binary was linked with).
 *   count   like empty, but count entries and print "xlb-calls N" to stderr
 *           at exit: the bench's exact call count per workload.
 *   rdtsc   (XLB_LEAN builds only) like empty, plus one rdtsc per event
 *           stored in a thread-local: the floor of any tracer that
 *           timestamps every event, on exaloop's trampolines.
 *   fdr     LLVM's FDR mode, started programmatically (see below), every
 *           event kept (func_duration_threshold_us=0), one buffer large
 *           enough for the run; the log is flushed at exit.
 * LLVM's basic mode needs no code: XRAY_OPTIONS selects it (see run.sh).
 *
 * Built with -DXLB_LEAN, the file also stands in for exaloop's hot path:
 * exaloop's trampolines (src/rt/rt_tramp_x86_64.S) take their lean path when
 * the installed handler is rt__xray_handler and then call
 * rt__hot_{entry,exit,tail}; defining those here as empty functions measures
 * the lean trampolines' floor.  Never linked into exaloop itself.
 *
 * FDR in clang 14 cannot be started from XRAY_OPTIONS alone (it is selected
 * but never initialised, and writes nothing), __xray_log_init_mode fails
 * unless __xray_log_select_mode ran first, and the FDR mode registers itself
 * from a C++ static initializer that runs after C constructors.  So the
 * constructor installs a bootstrap handler; the first event (main's entry)
 * selects and initialises FDR, then hands that event to FDR's handler.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__clang__)
#define NOINSTR __attribute__((xray_never_instrument, used))
#else
#define NOINSTR __attribute__((used))   /* XRay is clang's; gcc only checks the code */
#endif

/* XRay's interface header is C++ only. */
extern int __xray_set_handler(void (*entry)(int32_t, int));
extern int __xray_patch(void);
extern int __xray_log_select_mode(const char *mode);
extern int __xray_log_init_mode(const char *mode, const char *config);
extern int __xray_log_finalize(void);
extern int __xray_log_flushLog(void);
/* __xray::fdrLoggingHandleArg0(int, XRayEntryType) */
extern void _ZN6__xray20fdrLoggingHandleArg0Ei13XRayEntryType(int32_t, int) __attribute__((weak));

static unsigned long long calls;

NOINSTR static void xlb_empty(int32_t id, int type)
{
	(void)id;
	(void)type;
}

NOINSTR static void xlb_count(int32_t id, int type)
{
	(void)id;
	if (type == 0)
		calls++;
}

NOINSTR static void print_count(void)
{
	fprintf(stderr, "xlb-calls %llu\n", calls);
}

static int fdr_started;

NOINSTR static void fdr_finish(void)
{
	__xray_log_finalize();
	__xray_log_flushLog();
}

NOINSTR static void fdr_bootstrap(int32_t id, int type)
{
	if (!fdr_started) {
		fdr_started = 1;
		const char *cfg = getenv("XLB_FDR_CONFIG");
		if (!cfg)
			cfg = "buffer_size=1073741824 buffer_max=2 func_duration_threshold_us=0";
		if (__xray_log_select_mode("xray-fdr") != 0 /* XRayLogRegisterStatus::XRAY_REGISTRATION_OK */ ||
		    __xray_log_init_mode("xray-fdr", cfg) != 2 /* XRayLogInitStatus::XRAY_LOG_INITIALIZED */) {
			fprintf(stderr, "xlb: cannot start XRay FDR mode\n");
			exit(3);
		}
		atexit(fdr_finish);
	}
	_ZN6__xray20fdrLoggingHandleArg0Ei13XRayEntryType(id, type);
}

#ifdef XLB_LEAN
/* exaloop's trampolines take the lean path for this handler and call the
 * three functions below with only the argument registers saved (they use
 * no vector register). */
static int use_rdtsc;
static __thread uint64_t last_tsc;

/* Names exaloop's trampolines refer to (src/rt/rt_internal.h). */
void rt__xray_handler(int32_t id, int type);
int rt__hot_entry(int32_t id);
int rt__hot_exit(int32_t id);
int rt__hot_tail(int32_t id);

NOINSTR void rt__xray_handler(int32_t id, int type)
{
	xlb_empty(id, type);
}

NOINSTR static inline int lean_event(void)
{
	if (use_rdtsc)
		last_tsc = __builtin_ia32_rdtsc();
	return 0;
}

NOINSTR int rt__hot_entry(int32_t id)
{
	(void)id;
	return lean_event();
}

NOINSTR int rt__hot_exit(int32_t id)
{
	(void)id;
	return lean_event();
}

NOINSTR int rt__hot_tail(int32_t id)
{
	(void)id;
	return lean_event();
}
#define EMPTY_HANDLER rt__xray_handler
#else
#define EMPTY_HANDLER xlb_empty
#endif

__attribute__((constructor)) NOINSTR static void xlb_init(void)
{
	const char *mode = getenv("XLB_TRACER");
	if (!mode || !*mode)
		return;
	void (*h)(int32_t, int);
	if (strcmp(mode, "empty") == 0) {
		h = EMPTY_HANDLER;
#ifdef XLB_LEAN
	} else if (strcmp(mode, "rdtsc") == 0) {
		use_rdtsc = 1;
		h = EMPTY_HANDLER;
#endif
	} else if (strcmp(mode, "count") == 0) {
		h = xlb_count;
		atexit(print_count);
	} else if (strcmp(mode, "fdr") == 0) {
		if (!_ZN6__xray20fdrLoggingHandleArg0Ei13XRayEntryType) {
			fprintf(stderr, "xlb: this binary has no XRay FDR mode\n");
			exit(3);
		}
		h = fdr_bootstrap;
	} else {
		fprintf(stderr, "xlb: unknown XLB_TRACER '%s' (empty, count, fdr; rdtsc in lean builds)\n", mode);
		exit(3);
	}
	if (__xray_set_handler(h) != 1 || __xray_patch() != 1 /* XRayPatchingStatus::SUCCESS */) {
		fprintf(stderr, "xlb: cannot patch XRay sleds\n");
		exit(3);
	}
}
