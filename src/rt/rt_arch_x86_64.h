/*
 * rt_arch_x86_64.h - x86-64 parts of the runtime (see rt_arch.h).
 *
 * The clock is the TSC where CPUID says it is invariant.  A thread's first
 * event keeps the AVX state with XSAVE (rt_arch_x86_64.c says why).
 */
#ifndef RT_ARCH_X86_64_H
#define RT_ARCH_X86_64_H

#include <stdint.h>

static inline RT_NOINSTR uint64_t rt__arch_ticks(void)
{
	return __builtin_ia32_rdtsc();
}

/* CPUID.80000007H:EDX[8], the invariant TSC. */
RT_HIDDEN int rt__arch_counter_invariant(void);

#define RT_XSTATE_AREA 2752u /* the standard layout up to Hi16_ZMM (2688), 64-byte rounded */

struct rt_arch_vstate {
	uint64_t mask;
	unsigned char area[RT_XSTATE_AREA] __attribute__((aligned(64)));
};
RT_HIDDEN void rt__arch_vstate_save(struct rt_arch_vstate *x);
RT_HIDDEN void rt__arch_vstate_restore(const struct rt_arch_vstate *x);

/* Call a trampoline the way a sled does: function id in r10d; %rsp 16-byte
 * aligned at the entry trampoline's first instruction, 8 mod 16 at the
 * exit trampoline's (where a function's `ret` would be).  The asm moves
 * %rsp below the red zone first and puts it back from rbx.  Everything a
 * handler may clobber is declared clobbered. */
#define RT_ARCH_CALL_TRAMPOLINE(fn, id, pad)                                                                           \
	__asm__ volatile("mov %%rsp, %%rbx\n\t"                                                                        \
			 "and $-16, %%rsp\n\t"                                                                         \
			 "sub $" pad ", %%rsp\n\t"                                                                     \
			 "mov %k1, %%r10d\n\t"                                                                         \
			 "call *%0\n\t"                                                                                \
			 "mov %%rbx, %%rsp"                                                                            \
			 :                                                                                             \
			 : "r"(fn), "r"(id)                                                                            \
			 : "rbx", "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "xmm0", "xmm1", "xmm2", \
			   "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", \
			   "xmm14", "xmm15", "cc", "memory")
/* Below the red zone (128 bytes), plus the return address an entry sled's
 * caller pushed. */
#define RT_ARCH_CALL_ENTRY(fn, id) RT_ARCH_CALL_TRAMPOLINE(fn, id, "136")
#define RT_ARCH_CALL_EXIT(fn, id) RT_ARCH_CALL_TRAMPOLINE(fn, id, "128")

#endif
