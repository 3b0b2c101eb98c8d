/*
 * rt_arch_aarch64.h - AArch64 parts of the runtime (see rt_arch.h).
 *
 * The clock is the generic timer's virtual count (cntvct_el0), readable at
 * EL0 on Linux and defined by the architecture to run at a fixed rate
 * (cntfrq_el0); the analyzer converts its ticks with the capture's own
 * (tick, ns) pairs, like the TSC's.
 *
 * A thread's first event needs no vector state kept: at a sled, a call
 * boundary, only v0-v7 (arguments, results) can be live, d8-d15 are
 * callee-saved for libc too, and the trampolines' full path
 * (rt_tramp_aarch64.S) saves q0-q31 whole.
 */
#ifndef RT_ARCH_AARCH64_H
#define RT_ARCH_AARCH64_H

#include <stdint.h>

static inline RT_NOINSTR uint64_t rt__arch_ticks(void)
{
	uint64_t v;
	__asm__ volatile("mrs %0, cntvct_el0" : "=r"(v));
	return v;
}

/* The counter's frequency in Hz, as firmware set it. */
static inline RT_NOINSTR uint64_t rt__arch_counter_hz(void)
{
	uint64_t v;
	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(v));
	return v;
}

/* The generic timer runs at a fixed rate; a zero frequency means firmware
 * left it unset, and clock_gettime is used instead. */
static inline RT_NOINSTR int rt__arch_counter_invariant(void)
{
	return rt__arch_counter_hz() != 0;
}

struct rt_arch_vstate {
	int unused;
};
static inline void rt__arch_vstate_save(struct rt_arch_vstate *x)
{
	(void)x;
}
static inline void rt__arch_vstate_restore(const struct rt_arch_vstate *x)
{
	(void)x;
}

/* Call a trampoline the way a patched sled does (rt_tramp_aarch64.S): x0
 * and x30 pushed, w0 = id, x30 pointing at the 12 bytes of sled data the
 * trampoline returns past.  The inputs cannot be in a clobbered register,
 * so they survive `mov w0`.  No red zone on AArch64 Linux. */
#define RT_ARCH_CALL_SLED(fn, id)                                                                                    \
	__asm__ volatile("stp x0, x30, [sp, #-16]!\n\t"                                                              \
			 "mov w0, %w1\n\t"                                                                           \
			 "adr x30, 1f\n\t"                                                                           \
			 "br %0\n\t"                                                                                 \
			 "1: .word 0, 0, 0\n\t"                                                                      \
			 "ldp x0, x30, [sp], #16"                                                                    \
			 :                                                                                           \
			 : "r"(fn), "r"(id)                                                                          \
			 : "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13",   \
			   "x14", "x15", "x16", "x17", "x18", "x30", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", \
			   "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15", "v16", "v17", "v18", "v19", "v20",  \
			   "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28", "v29", "v30", "v31", "cc",        \
			   "memory")
#define RT_ARCH_CALL_ENTRY(fn, id) RT_ARCH_CALL_SLED(fn, id)
#define RT_ARCH_CALL_EXIT(fn, id) RT_ARCH_CALL_SLED(fn, id)

#endif
