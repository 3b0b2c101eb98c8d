/*
 * tramp_aarch64_regs.h - test_trampolines.c on AArch64: the register
 * image that trampolines_aarch64.S loads before and records after each
 * trampoline call (offsets checked here), and the assembly's symbols.
 */
#ifndef TRAMP_AARCH64_REGS_H
#define TRAMP_AARCH64_REGS_H

#include <stddef.h>
#include <stdint.h>

struct tr_regs {
	uint8_t q[32][16]; /* q0-q31 */
	uint64_t x[31];    /* x0-x30 */
	uint64_t nzcv, fpsr, fpcr;
	uint64_t sp; /* out only */
	uint64_t pad0;
	uint64_t stack[8]; /* the words above the sled's sp */
	uint8_t pad1[160];
} __attribute__((aligned(64)));

struct tr_call {
	struct tr_regs in, out;
	void (*fn)(void);
	uint64_t id; /* w0 as the sled loads it */
	uint64_t saved_sp;
	uint64_t saved_fpcr;
	uint64_t pad; /* unused here (x86-64: the exit sled's alignment) */
	uint64_t avx; /* unused here */
} __attribute__((aligned(64)));

_Static_assert(sizeof(struct tr_regs) == 1024, "REGS");
_Static_assert(offsetof(struct tr_regs, x) == 512, "X");
_Static_assert(offsetof(struct tr_regs, nzcv) == 760, "NZCV");
_Static_assert(offsetof(struct tr_regs, fpsr) == 768, "FPSR");
_Static_assert(offsetof(struct tr_regs, fpcr) == 776, "FPCR");
_Static_assert(offsetof(struct tr_regs, sp) == 784, "SP");
_Static_assert(offsetof(struct tr_regs, stack) == 800, "STK");
_Static_assert(offsetof(struct tr_call, fn) == 2048, "FN");
_Static_assert(offsetof(struct tr_call, id) == 2056, "ID");
_Static_assert(offsetof(struct tr_call, saved_sp) == 2064, "SAVED_SP");
_Static_assert(offsetof(struct tr_call, saved_fpcr) == 2072, "SAVED_FPCR");

void tr_call(struct tr_call *c);
void tr_hostile_handler(int32_t id, int type);
extern uint32_t tr_hostile_id, tr_hostile_type, tr_hostile_calls, tr_hostile_misaligned, tr_hostile_avx;
extern void (*xray_handler)(int32_t, int) __asm__("_ZN6__xray19XRayPatchedFunctionE");

/* exaloop's trampolines (src/rt/rt_tramp_aarch64.S) */
void __wrap___xray_FunctionEntry(void);
void __wrap___xray_FunctionExit(void);
void __wrap___xray_FunctionTailExit(void);
/* compiler-rt's */
void __xray_FunctionEntry(void);
void __xray_FunctionExit(void);
void __xray_FunctionTailExit(void);

#endif
