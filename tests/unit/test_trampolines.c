/*
 * Unit test: the XRay trampolines' register contract (docs/architecture.md,
 * "The trampoline contract").
 *
 * Each case calls one trampoline exactly the way a patched sled does
 * (trampolines_x86_64.S: %rsp aligned as at a sled, the function id in
 * r10, every general, vector and x87 register, MXCSR and the flags set to
 * known values), after driving the runtime into one of the handler's
 * paths, and then checks two things: that the event went down that path
 * (the thread's state afterwards), and that every register the contract
 * protects came back unchanged.
 *
 * Routes: exaloop's trampolines (libexaloop_xray.a, called by their
 * __wrap___xray_* names as the linker's --wrap makes the sleds call them)
 * and compiler-rt's (its trampoline object, extracted from
 * libclang_rt.xray at build time), both with exaloop's handler installed.
 * The compiler-rt data symbols both read (the handler pointer) are
 * defined in the assembly file, so no XRay runtime is linked.
 *
 * The runtime starts from its constructor, so the test re-executes itself
 * once with the capture environment set (rt_capture_env.h); XRay
 * patching then fails (no XRay runtime), and the test opens the window and
 * installs the handler itself.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "rt_capture_env.h"
#include "rt_internal.h"

/* ---- the assembly half (offsets checked below) ---- */

#if defined(__x86_64__)

struct tr_regs {
	uint8_t fx[512];  /* FXSAVE image: x87, MXCSR, xmm0-15 */
	uint64_t gpr[16]; /* rax rcx rdx rbx rsp rbp rsi rdi r8..r15 */
	uint64_t rflags;
	uint64_t pad0;
	uint8_t ymmh[16][16]; /* upper halves of ymm0-15 */
	uint64_t stack[8];    /* the words above the return address */
} __attribute__((aligned(64)));

struct tr_call {
	struct tr_regs in, out;
	void (*fn)(void);
	uint64_t pad; /* 8: entry/tail trampoline, 0: exit */
	uint64_t avx;
	uint64_t saved_rsp;
	uint32_t saved_mxcsr;
} __attribute__((aligned(64)));

_Static_assert(offsetof(struct tr_regs, gpr) == 512, "GPR");
_Static_assert(offsetof(struct tr_regs, rflags) == 640, "FLAGS");
_Static_assert(offsetof(struct tr_regs, ymmh) == 656, "YMMH");
_Static_assert(offsetof(struct tr_regs, stack) == 912, "STK");
_Static_assert(offsetof(struct tr_call, out) == 1024, "OUT");
_Static_assert(offsetof(struct tr_call, fn) == 2048, "FN");
_Static_assert(offsetof(struct tr_call, pad) == 2056, "PAD");
_Static_assert(offsetof(struct tr_call, avx) == 2064, "AVX");
_Static_assert(offsetof(struct tr_call, saved_rsp) == 2072, "SAVED_RSP");
_Static_assert(offsetof(struct tr_call, saved_mxcsr) == 2080, "SAVED_MXCSR");

void tr_call(struct tr_call *c);
void tr_hostile_handler(int32_t id, int type);
extern uint32_t tr_hostile_id, tr_hostile_type, tr_hostile_calls, tr_hostile_misaligned, tr_hostile_avx;
extern void (*xray_handler)(int32_t, int) __asm__("_ZN6__xray19XRayPatchedFunctionE");

/* exaloop's trampolines (src/rt/rt_tramp_x86_64.S) */
void __wrap___xray_FunctionEntry(void);
void __wrap___xray_FunctionExit(void);
void __wrap___xray_FunctionTailExit(void);
/* compiler-rt's */
void __xray_FunctionEntry(void);
void __xray_FunctionExit(void);
void __xray_FunctionTailExit(void);
#else
#include "tramp_aarch64_regs.h" /* trampolines_aarch64.S */
#endif

/* ---- cases ---- */

enum kind {
	ENTRY,
	EXIT,
	TAIL
};
enum route {
	LEAN,
	STOCK
};
enum path {
	P_FAST,      /* the hot path's fast case: path cached (exit: the call kept, its
		      * records fit in the block) */
	P_SHORT,     /* exit of a call shorter than the timeline threshold: no record */
	P_FIRST,     /* a thread's first event: refused, registered by the full handler */
	P_NEWNODE,   /* entry of a path not in the tree yet */
	P_TLFULL,    /* exit: the timeline block is full: a new one is taken */
	P_CLOSED,    /* capture window closed */
	P_BUSY,      /* re-entry (a signal handler inside an event): deferred */
	P_CLOCK,     /* clock_gettime clock: every event through the full handler */
	P_OFF,       /* a thread that could not be registered: counted only */
	P_DEEP,      /* beyond XL_MAX_DEPTH: counted in the timeline only */
	P_UNWOUND,   /* entry above frames a longjmp left open: they are closed */
	P_MISMATCH,  /* exit of a function below the top frame */
	P_FOREIGN,   /* another XRay handler (ABI-conforming, clobbers all it may) */
	P_NOHANDLER, /* no handler installed */
	P_COUNT
};
static const char *const path_names[P_COUNT] = {
	"fast",           "short-call",   "first-event", "new-node", "timeline-full", "window-closed",   "re-entry",
	"clock-fallback", "unregistered", "deep",        "unwound",  "exit-mismatch", "foreign-handler", "no-handler",
};
static const char *const kind_names[] = {"entry", "exit", "tail"};
static const char *const route_names[] = {"exaloop", "compiler-rt"};

static int applies(enum route r, enum kind k, enum path p)
{
	if (p == P_NEWNODE || p == P_UNWOUND)
		return k == ENTRY;
	if (p == P_MISMATCH || p == P_SHORT || p == P_TLFULL)
		return k != ENTRY; /* entries store no timeline record */
	if (p == P_FOREIGN || p == P_NOHANDLER)
		return r == LEAN; /* compiler-rt's route with another handler is compiler-rt alone */
	return 1;
}

#if defined(__x86_64__)
/* What must come back unchanged (the contract); rsp, the stack words,
 * the x87 state, MXCSR and DF always must. */
struct want {
	uint16_t gpr; /* bit i: gpr[i] */
	uint16_t xmm;
	uint16_t ymmh;
	int flags; /* CF PF AF ZF SF OF */
};

#define R_RAX 0
#define R_RCX 1
#define R_RDX 2
#define R_RBX 3
#define R_RSP 4
#define R_RBP 5
#define R_R10 10
#define CALLEE_SAVED (1u << R_RBX | 1u << R_RSP | 1u << R_RBP | 0xf000u)
#define ARITH_FLAGS 0x8d5u /* CF PF AF ZF SF OF */
#define DF_FLAG 0x400u

static struct want want_for(enum route r, enum kind k, enum path p)
{
	struct want w = {0xffffu & ~(1u << R_R10), 0xffffu, 0xffffu, k == TAIL};
	if (k == EXIT) /* rcx rsi rdi r8-r11: dead after `ret` */
		w.gpr = CALLEE_SAVED | 1u << R_RAX | 1u << R_RDX;
	if (r == STOCK) {
		/* compiler-rt's: the live registers at each sled (and what the
		 * C ABI makes the handler keep); its tail trampoline loses the
		 * flags (LLVM 14 bug, fixed in 19). */
		w.flags = 0;
		if (k == EXIT) {
			w.xmm = w.ymmh = 0x3;
		} else {
			w.xmm = w.ymmh = 0xff;
		}
	}
	if (p == P_FOREIGN)
		w.ymmh = 0; /* caller-saved under the C ABI; compiler-rt does not keep them either */
	return w;
}

static const char *const gpr_names[16] = {
	"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
};
#endif

struct job {
	enum route route;
	enum kind kind;
	enum path path;
	uint64_t flags; /* arithmetic flags loaded before the call */
	uint64_t seed;
	int failed;
	char msg[2048];
};

static int have_avx;

static void job_fail(struct job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void job_fail(struct job *j, const char *fmt, ...)
{
	size_t at = strlen(j->msg);
	va_list ap;
	va_start(ap, fmt);
	if (at + 2 < sizeof(j->msg)) {
		vsnprintf(j->msg + at, sizeof(j->msg) - at - 1, fmt, ap);
		strcat(j->msg, "; ");
	}
	va_end(ap);
	j->failed = 1;
}

/* ---- events before the call, through the same handler code ---- */

enum {
	MAIN = 1,
	F = 2,
	G = 3,
	H = 4,
	A = 5
};
static __thread uint64_t sp_top; /* callers' stack pointers: far above the harness's */
static __thread uint32_t cdepth;

static void ev_entry(int32_t id)
{
	rt__xray_event(id, 0, sp_top - 16u * cdepth++);
}

static void ev_exit(int32_t id)
{
	rt__xray_event(id, 1, 0);
	cdepth--;
}

/* Entry/exit pairs until the timeline block is exactly full. */
static void fill_block(void)
{
	while (rt__hot.tl_blk->count + 2 <= XL_EVENTS_PER_CHUNK) {
		ev_entry(G);
		ev_exit(G);
	}
}

struct snap {
	struct xl_thread_block *tb;
	uint32_t gate, depth, node_count, deep, unrecorded, deferred;
	uint64_t events, unwound, repaired, open_exits;
	const struct xl_cap_block *tl;
	uint32_t tl_count;
	uint64_t short_calls;
};

static struct snap snap(void)
{
	struct snap s = {.tb = rt__hot.tb,
			 .gate = rt__hot.gate,
			 .deep = rt__hot.deep,
			 .unrecorded = rt__hot.unrecorded,
			 .deferred = rt__hot.deferred,
			 .tl = rt__hot.tl_blk,
			 .tl_count = rt__hot.tl_blk ? rt__hot.tl_blk->count : 0,
			 .open_exits = rt__hdr ? rt__hdr->open_exits : 0};
	if (s.tb) {
		s.depth = s.tb->depth;
		s.short_calls = s.tb->tl_short_calls;
		s.node_count = s.tb->node_count;
		s.events = s.tb->events;
		s.unwound = s.tb->unwound_frames;
		s.repaired = s.tb->repaired_exits;
	}
	return s;
}

/* ---- register values ---- */

#if defined(__x86_64__)
static void put_ld(uint8_t *to, long double v)
{
	memcpy(to, &v, 10);
}

static void fill_regs(struct tr_call *c, const struct job *j, int32_t id)
{
	uint64_t s = j->seed;
	for (int i = 0; i < 16; i++)
		c->in.gpr[i] = 0xa5c3000000000000ull ^ (uint64_t)(i + 1) * 0x0001000100010001ull ^ s << 40;
	c->in.gpr[R_R10] = (uint32_t)id; /* the sled's `mov $id, %r10d` */
	c->in.rflags = 0x2u | j->flags;  /* bit 1 is always set; DF clear, as at any call */
	uint8_t *fx = c->in.fx;
	fx[0] = 0x7f; /* FCW 0x0b7f: all masked, rounding up (not the default) */
	fx[1] = 0x0b;
	fx[4] = 0xff;            /* all eight x87 registers full; TOP = 0 */
	uint32_t mxcsr = 0x3f80; /* all masked, rounding down */
	memcpy(fx + 24, &mxcsr, 4);
	for (int i = 0; i < 8; i++)
		put_ld(fx + 32 + 16 * i, (long double)(i + 1) * 1.25L + (long double)s / 1024.0L);
	for (int i = 0; i < 16; i++)
		for (int b = 0; b < 16; b++) {
			fx[160 + 16 * i + b] = (uint8_t)(i * 16 + b + s);
			c->in.ymmh[i][b] = (uint8_t)(0x80 ^ (i * 16 + b) ^ (s << 3));
		}
	for (int i = 0; i < 8; i++)
		c->in.stack[i] = 0x57ac000000000000ull | s << 16 | (uint64_t)i;
}

static void compare(struct job *j, const struct tr_call *c, const struct want *w)
{
	const struct tr_regs *in = &c->in, *out = &c->out;
	for (int i = 0; i < 16; i++)
		if ((w->gpr >> i & 1) && in->gpr[i] != out->gpr[i])
			job_fail(j, "%s %016llx -> %016llx", gpr_names[i], (unsigned long long)in->gpr[i],
				 (unsigned long long)out->gpr[i]);
	if (in->gpr[R_RSP] != out->gpr[R_RSP])
		job_fail(j, "rsp moved by %lld", (long long)(out->gpr[R_RSP] - in->gpr[R_RSP]));
	for (int i = 0; i < 8; i++)
		if (in->stack[i] != out->stack[i])
			job_fail(j, "stack word %d above the return address changed", i);
	uint64_t fmask = DF_FLAG | (w->flags ? ARITH_FLAGS : 0);
	if ((in->rflags ^ out->rflags) & fmask)
		job_fail(j, "flags %03llx -> %03llx", (unsigned long long)(in->rflags & fmask),
			 (unsigned long long)(out->rflags & fmask));
	static const struct {
		const char *name;
		int at, len;
	} fx_fields[] = {
		{"x87 control word", 0, 2}, {"x87 status word", 2, 2},
		{"x87 tag word", 4, 1},     {"x87 last opcode/instruction/operand", 6, 18},
		{"MXCSR", 24, 4},
	};
	for (size_t f = 0; f < sizeof(fx_fields) / sizeof(fx_fields[0]); f++)
		if (memcmp(in->fx + fx_fields[f].at, out->fx + fx_fields[f].at, (size_t)fx_fields[f].len))
			job_fail(j, "%s changed", fx_fields[f].name);
	for (int i = 0; i < 8; i++)
		if (memcmp(in->fx + 32 + 16 * i, out->fx + 32 + 16 * i, 10))
			job_fail(j, "st(%d) changed", i);
	for (int i = 0; i < 16; i++)
		if ((w->xmm >> i & 1) && memcmp(in->fx + 160 + 16 * i, out->fx + 160 + 16 * i, 16))
			job_fail(j, "xmm%d changed", i);
	if (c->avx)
		for (int i = 0; i < 16; i++)
			if ((w->ymmh >> i & 1) && memcmp(in->ymmh[i], out->ymmh[i], 16))
				job_fail(j, "upper half of ymm%d changed", i);
}

#else
#include "tramp_aarch64_check.h" /* the same three, and cpu_has_avx(), for AArch64 */
#endif

static void (*tramp(enum route r, enum kind k))(void)
{
	static void (*const t[2][3])(void) = {
		{__wrap___xray_FunctionEntry, __wrap___xray_FunctionExit, __wrap___xray_FunctionTailExit},
		{__xray_FunctionEntry, __xray_FunctionExit, __xray_FunctionTailExit},
	};
	return t[r][k];
}

/* The thread state the event must leave behind on its path. */
static void check_path(struct job *j, const struct snap *b, const struct snap *a, int32_t id)
{
	int entry = j->kind == ENTRY;
	switch (j->path) {
	case P_FAST:
	case P_SHORT:
	case P_NEWNODE:
	case P_TLFULL:
	case P_CLOCK:
	case P_FIRST:
		if (!a->tb) {
			job_fail(j, "thread not registered");
			return;
		}
		if (j->path == P_FIRST && entry && (a->depth != 1 || a->tb->stack[0].func != id))
			job_fail(j, "first event: entry not recorded");
		/* an exit with no frame open: a frame open before the
		 * thread's recording began */
		if (j->path == P_FIRST && !entry && (a->repaired != 0 || a->open_exits != b->open_exits + 1))
			job_fail(j, "first event: exit of a frame open at the start not counted");
		if (j->path == P_FIRST)
			break;
		if (a->events != b->events + 1)
			job_fail(j, "event not recorded");
		if (a->depth != (entry ? b->depth + 1 : b->depth - 1))
			job_fail(j, "depth %u -> %u", b->depth, a->depth);
		if (entry && a->tb->stack[a->depth - 1].func != id)
			job_fail(j, "top frame is %d, not %d", a->tb->stack[a->depth - 1].func, id);
		if (j->path == P_NEWNODE && a->node_count != b->node_count + 1)
			job_fail(j, "no new node");
		if (j->path == P_FAST &&
		    (a->node_count != b->node_count || a->tl != b->tl || a->tl_count != b->tl_count + (entry ? 0 : 2)))
			job_fail(j, "not the fast path");
		if (j->path == P_SHORT &&
		    (a->tl != b->tl || a->tl_count != b->tl_count || a->short_calls != b->short_calls + 1))
			job_fail(j, "short call not left out of the timeline");
		if (j->path == P_TLFULL && a->tl == b->tl)
			job_fail(j, "no new timeline block");
		if (j->path == P_CLOCK && a->gate != RT_GATE_SLOW)
			job_fail(j, "clock fallback not in effect");
		break;
	case P_BUSY:
		if (a->deferred != b->deferred + 1)
			job_fail(j, "re-entered event not deferred");
		/* fall through */
	case P_CLOSED:
	case P_NOHANDLER:
	case P_FOREIGN:
		if (a->events != b->events || a->depth != b->depth)
			job_fail(j, "event recorded");
		break;
	case P_OFF:
		if (a->unrecorded != b->unrecorded + 1)
			job_fail(j, "unregistered thread's event not counted");
		break;
	case P_DEEP:
		if (a->deep != (entry ? 1u : 0u) || a->depth != XL_MAX_DEPTH)
			job_fail(j, "deep frames %u, depth %u", a->deep, a->depth);
		break;
	case P_UNWOUND:
		if (a->unwound != b->unwound + 1 || a->depth != 2 || a->tb->stack[1].func != id)
			job_fail(j, "stale frame not closed (unwound %llu, depth %u)", (unsigned long long)a->unwound,
				 a->depth);
		break;
	case P_MISMATCH:
		if (a->unwound != b->unwound + 1 || a->depth != 1)
			job_fail(j, "frames not closed (unwound %llu, depth %u)", (unsigned long long)a->unwound,
				 a->depth);
		break;
	case P_COUNT: break;
	}
	if (j->path == P_FOREIGN) {
		if (tr_hostile_calls != 1 || (int32_t)tr_hostile_id != id || tr_hostile_type != (uint32_t)j->kind)
			job_fail(j, "handler called %u times with (%d, %u)", tr_hostile_calls, (int32_t)tr_hostile_id,
				 tr_hostile_type);
		if (tr_hostile_misaligned)
			job_fail(j, "handler called with a misaligned stack");
	}
}

static void *run_job(void *arg)
{
	struct job *j = arg;
	int entry = j->kind == ENTRY;
	sp_top = (uint64_t)(uintptr_t)__builtin_frame_address(0) + 65536;
	cdepth = 0;
	int saved_tsc = rt__use_tsc;
	int32_t id = F;

	/* Lead the thread to the path. */
	switch (j->path) {
	case P_FIRST: break;
	case P_NEWNODE:
		ev_entry(MAIN);
		id = H;
		break;
	case P_TLFULL: /* exits only */
		ev_entry(MAIN);
		ev_entry(G); /* kept: the first block, MAIN's entry stored */
		ev_exit(G);
		ev_entry(F);
		fill_block(); /* F's entry stored by the first call inside it */
		if (rt__hot.tl_blk->count != XL_EVENTS_PER_CHUNK || rt__hot.tl_stopped)
			job_fail(j, "could not fill the timeline block (%u events)", rt__hot.tl_blk->count);
		break;
	case P_CLOCK:
		rt__use_tsc = 0;
		ev_entry(MAIN);
		if (entry) {
			ev_entry(F); /* the path exists: only the clock sends it to the full handler */
			ev_exit(F);
		} else {
			ev_entry(F);
		}
		break;
	case P_DEEP:
		ev_entry(MAIN);
		while (cdepth < XL_MAX_DEPTH)
			ev_entry(G);
		if (!entry)
			ev_entry(F);
		break;
	case P_UNWOUND:
		ev_entry(MAIN);
		rt__xray_event(G, 0, sp_top - 2 * 65536); /* below the trampoline's: left by a longjmp */
		cdepth++;
		break;
	case P_MISMATCH:
		ev_entry(MAIN);
		ev_entry(F);
		ev_entry(G);
		break;
	default:
		ev_entry(MAIN);
		/* A kept call (the threshold is 0) stores MAIN's entry and takes
		 * the first timeline block: F's exit is then the only one to
		 * store, its two records on the fast path. */
		ev_entry(G);
		ev_exit(G);
		if (entry) {
			ev_entry(F);
			ev_exit(F);
		} else {
			ev_entry(F);
		}
		break;
	}

	struct tr_call *c = aligned_alloc(64, sizeof(*c));
	if (!c) {
		job_fail(j, "out of memory");
		return NULL;
	}
	memset(c, 0, sizeof(*c));
	fill_regs(c, j, id);
	c->fn = tramp(j->route, j->kind);
	c->pad = j->kind == EXIT ? 0 : 8;
	c->avx = (uint64_t)have_avx;

	switch (j->path) {
	case P_CLOSED: atomic_store(&rt__on, 0); break;
	case P_BUSY: rt__hot.gate = RT_GATE_BUSY; break;
	case P_OFF: rt__hot.gate = RT_GATE_OFF; break;
	case P_FOREIGN:
		tr_hostile_calls = tr_hostile_misaligned = 0;
		xray_handler = tr_hostile_handler;
		break;
	case P_NOHANDLER: xray_handler = NULL; break;
	case P_SHORT: rt__hot.tl_min = UINT64_MAX / 2; break;
	default: break;
	}
	struct snap before = snap();
	tr_call(c);
	struct snap after = snap();
	atomic_store(&rt__on, 1);
	xray_handler = rt__xray_handler;
	if (j->path == P_BUSY || j->path == P_OFF)
		rt__hot.gate = RT_GATE_READY;
	rt__hot.deferred = 0; /* a deferred event's registers are checked, not its replay */
	rt__hot.tl_min = 0;
	rt__use_tsc = saved_tsc;

	check_path(j, &before, &after, id);
	struct want w = want_for(j->route, j->kind, j->path);
	compare(j, c, &w);
	free(c);
	return NULL;
}

/* Every applicable path of one (route, kind), with two flag patterns. */
static void run_all(enum route r, enum kind k)
{
	static const uint64_t patterns[] = {ARITH_FLAGS, 0};
	int failed = 0, ran = 0;
	for (int p = 0; p < P_COUNT; p++) {
		if (!applies(r, k, (enum path)p))
			continue;
		for (size_t f = 0; f < sizeof(patterns) / sizeof(patterns[0]); f++) {
			struct job j = {.route = r,
					.kind = k,
					.path = (enum path)p,
					.flags = patterns[f],
					.seed = (uint64_t)(p * 8 + k * 2 + (int)f + 1)};
			pthread_t t;
			assert_int_equal(pthread_create(&t, NULL, run_job, &j), 0);
			pthread_join(t, NULL);
			ran++;
			if (j.failed) {
				failed++;
				print_message("FAIL %s %s %s (flags %03llx): %s\n", route_names[r], kind_names[k],
					      path_names[p], (unsigned long long)patterns[f], j.msg);
			}
		}
	}
	print_message("%s %s: %d of %d cases kept the contract\n", route_names[r], kind_names[k], ran - failed, ran);
	assert_int_equal(failed, 0);
}

static void exaloop_entry(void **s)
{
	(void)s;
	run_all(LEAN, ENTRY);
}
static void exaloop_exit(void **s)
{
	(void)s;
	run_all(LEAN, EXIT);
}
static void exaloop_tail(void **s)
{
	(void)s;
	run_all(LEAN, TAIL);
}
static void compiler_rt_entry(void **s)
{
	(void)s;
	run_all(STOCK, ENTRY);
}
static void compiler_rt_exit(void **s)
{
	(void)s;
	run_all(STOCK, EXIT);
}
static void compiler_rt_tail(void **s)
{
	(void)s;
	run_all(STOCK, TAIL);
}

#if defined(__x86_64__)
static int cpu_has_avx(void)
{
	unsigned a, b, c, d;
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_AVX) || !(c & bit_OSXSAVE))
		return 0;
	uint32_t lo, hi;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (lo & 6u) == 6u; /* the OS saves SSE and AVX state */
}
#endif

static char capture_dir[256];

int main(int argc, char **argv)
{
	(void)argc;
	if (xl_test_captured(argv, "/tmp/xl-tramp-XXXXXX", "67108864", capture_dir, sizeof(capture_dir)) != 0)
		return 1;
	if (!rt__hdr) {
		fprintf(stderr, "the runtime did not start a capture in %s\n", capture_dir);
		return 1;
	}
	have_avx = cpu_has_avx();
	tr_hostile_avx = (uint32_t)have_avx;
#if defined(__x86_64__)
	print_message("AVX %s: upper halves of ymm0-15 %s\n", have_avx ? "present" : "absent",
		      have_avx ? "checked" : "not checked");
#endif
	rt__track_sp = 1;
	atomic_store(&rt__on, 1);
	xray_handler = rt__xray_handler;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exaloop_entry),    cmocka_unit_test(exaloop_exit),
		cmocka_unit_test(exaloop_tail),     cmocka_unit_test(compiler_rt_entry),
		cmocka_unit_test(compiler_rt_exit), cmocka_unit_test(compiler_rt_tail),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	xray_handler = NULL;
	/* as the runtime's exit does (rt_init.c, rt_fini): the control
	 * thread first, or its sampler and the finalization's race */
	rt__control_stop();
	rt__finalize(XL_END_EXIT);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", capture_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", capture_dir);
	return rc;
}
