/*
 * trampolines_aarch64.S - the assembly half of tests/unit/test_trampolines.c
 * on AArch64 (tramp_regs_aarch64.h has the C side).
 *
 * tr_call(struct tr_call *c) calls one XRay trampoline exactly the way a
 * patched AArch64 sled does (src/rt/rt_tramp_aarch64.S: push x0 and x30,
 * w0 = id, x16 = trampoline, blr x16, 12 data bytes, pop x0 and x30),
 * with every register set to a known value, and records every register as
 * the trampoline left it:
 *   - sp as at a sled, with eight words above it (stack arguments at an
 *     entry, the caller's frame at an exit) set from c->in.stack;
 *   - q0-q31, FPSR, FPCR and NZCV from c->in;
 *   - x0-x30 from c->in.x (x16 is the sled's: it holds the trampoline).
 * Afterwards c->out holds the same fields; the caller's callee-saved
 * registers, FPCR and stack are put back.  c is found again through a
 * thread-local pointer, not through sp, so a trampoline that moved sp
 * shows as a failed check rather than a crash.
 *
 * tr_hostile_handler is an XRay handler that does what AAPCS64 lets any
 * handler do: it overwrites x0-x18, v0-v7 and v16-v31, the upper halves
 * of v8-v15, NZCV and FPSR, and records its arguments and whether sp was
 * 16-byte aligned.
 */

/* struct tr_regs and struct tr_call (tramp_regs_aarch64.h checks them). */
#define IN 0
#define OUT 1024
#define Q 0
#define X 512
#define NZCV 760
#define FPSR 768
#define FPCR 776
#define SP 784
#define STK 800
#define FN 2048
#define ID 2056
#define SAVED_SP 2064
#define SAVED_FPCR 2072

	.section .tbss,"awT",@nobits
	.p2align 3
tr_cur:	.zero	8

	.text
	.globl	tr_call
	.type	tr_call, %function
	.p2align 4
tr_call:
	stp	x29, x30, [sp, #-160]!
	mov	x29, sp
	stp	x19, x20, [sp, #16]
	stp	x21, x22, [sp, #32]
	stp	x23, x24, [sp, #48]
	stp	x25, x26, [sp, #64]
	stp	x27, x28, [sp, #80]
	stp	d8, d9, [sp, #96]
	stp	d10, d11, [sp, #112]
	stp	d12, d13, [sp, #128]
	stp	d14, d15, [sp, #144]
	mrs	x9, tpidr_el0
	add	x9, x9, #:tprel_hi12:tr_cur
	add	x9, x9, #:tprel_lo12_nc:tr_cur
	str	x0, [x9]
	mrs	x9, fpcr
	str	x9, [x0, #SAVED_FPCR]
	sub	sp, sp, #64             /* the eight words above the sled's sp */
	mov	x9, sp
	str	x9, [x0, #SAVED_SP]
	ldr	x10, [x0, #(IN + STK + 0)]
	str	x10, [sp, #0]
	ldr	x10, [x0, #(IN + STK + 8)]
	str	x10, [sp, #8]
	ldr	x10, [x0, #(IN + STK + 16)]
	str	x10, [sp, #16]
	ldr	x10, [x0, #(IN + STK + 24)]
	str	x10, [sp, #24]
	ldr	x10, [x0, #(IN + STK + 32)]
	str	x10, [sp, #32]
	ldr	x10, [x0, #(IN + STK + 40)]
	str	x10, [sp, #40]
	ldr	x10, [x0, #(IN + STK + 48)]
	str	x10, [sp, #48]
	ldr	x10, [x0, #(IN + STK + 56)]
	str	x10, [sp, #56]
	mov	x16, x0
	ldp	q0, q1, [x16, #(IN + Q + 0)]
	ldp	q2, q3, [x16, #(IN + Q + 32)]
	ldp	q4, q5, [x16, #(IN + Q + 64)]
	ldp	q6, q7, [x16, #(IN + Q + 96)]
	ldp	q8, q9, [x16, #(IN + Q + 128)]
	ldp	q10, q11, [x16, #(IN + Q + 160)]
	ldp	q12, q13, [x16, #(IN + Q + 192)]
	ldp	q14, q15, [x16, #(IN + Q + 224)]
	ldp	q16, q17, [x16, #(IN + Q + 256)]
	ldp	q18, q19, [x16, #(IN + Q + 288)]
	ldp	q20, q21, [x16, #(IN + Q + 320)]
	ldp	q22, q23, [x16, #(IN + Q + 352)]
	ldp	q24, q25, [x16, #(IN + Q + 384)]
	ldp	q26, q27, [x16, #(IN + Q + 416)]
	ldp	q28, q29, [x16, #(IN + Q + 448)]
	ldp	q30, q31, [x16, #(IN + Q + 480)]
	ldr	x9, [x16, #(IN + FPSR)]
	msr	fpsr, x9
	ldr	x9, [x16, #(IN + FPCR)]
	msr	fpcr, x9
	ldr	x9, [x16, #(IN + NZCV)]
	msr	nzcv, x9
	add	x16, x16, #(IN + X)      /* x16 = &c->in.x[0] */
	ldp	x0, x1, [x16, #0]
	ldp	x2, x3, [x16, #16]
	ldp	x4, x5, [x16, #32]
	ldp	x6, x7, [x16, #48]
	ldp	x8, x9, [x16, #64]
	ldp	x10, x11, [x16, #80]
	ldp	x12, x13, [x16, #96]
	ldp	x14, x15, [x16, #112]
	ldr	x17, [x16, #136]
	ldp	x18, x19, [x16, #144]
	ldp	x20, x21, [x16, #160]
	ldp	x22, x23, [x16, #176]
	ldp	x24, x25, [x16, #192]
	ldp	x26, x27, [x16, #208]
	ldp	x28, x29, [x16, #224]
	ldr	x30, [x16, #240]
	/* the sled */
	stp	x0, x30, [sp, #-16]!
	ldr	w0, [x16, #(ID - IN - X)]
	ldr	x16, [x16, #(FN - IN - X)]
	blr	x16
	.word	0, 0, 0                 /* the sled's data: id, trampoline */
	ldp	x0, x30, [sp], #16
	/* record (x16 is free: the sled's) */
	mrs	x16, tpidr_el0
	add	x16, x16, #:tprel_hi12:tr_cur
	add	x16, x16, #:tprel_lo12_nc:tr_cur
	ldr	x16, [x16]
	add	x16, x16, #(OUT + X)     /* x16 = &c->out.x[0] */
	stp	x0, x1, [x16, #0]
	stp	x2, x3, [x16, #16]
	stp	x4, x5, [x16, #32]
	stp	x6, x7, [x16, #48]
	stp	x8, x9, [x16, #64]
	stp	x10, x11, [x16, #80]
	stp	x12, x13, [x16, #96]
	stp	x14, x15, [x16, #112]
	str	x17, [x16, #136]
	stp	x18, x19, [x16, #144]
	stp	x20, x21, [x16, #160]
	stp	x22, x23, [x16, #176]
	stp	x24, x25, [x16, #192]
	stp	x26, x27, [x16, #208]
	stp	x28, x29, [x16, #224]
	str	x30, [x16, #240]
	sub	x16, x16, #X              /* x16 = &c->out */
	mrs	x9, nzcv
	str	x9, [x16, #NZCV]
	mrs	x9, fpsr
	str	x9, [x16, #FPSR]
	mrs	x9, fpcr
	str	x9, [x16, #FPCR]
	stp	q0, q1, [x16, #(Q + 0)]
	stp	q2, q3, [x16, #(Q + 32)]
	stp	q4, q5, [x16, #(Q + 64)]
	stp	q6, q7, [x16, #(Q + 96)]
	stp	q8, q9, [x16, #(Q + 128)]
	stp	q10, q11, [x16, #(Q + 160)]
	stp	q12, q13, [x16, #(Q + 192)]
	stp	q14, q15, [x16, #(Q + 224)]
	stp	q16, q17, [x16, #(Q + 256)]
	stp	q18, q19, [x16, #(Q + 288)]
	stp	q20, q21, [x16, #(Q + 320)]
	stp	q22, q23, [x16, #(Q + 352)]
	stp	q24, q25, [x16, #(Q + 384)]
	stp	q26, q27, [x16, #(Q + 416)]
	stp	q28, q29, [x16, #(Q + 448)]
	stp	q30, q31, [x16, #(Q + 480)]
	mov	x9, sp
	str	x9, [x16, #SP]
	ldr	x9, [x16, #(SAVED_SP - OUT)]  /* the harness's own stack, whatever sp is now */
	ldr	x10, [x9, #0]
	str	x10, [x16, #(STK + 0)]
	ldr	x10, [x9, #8]
	str	x10, [x16, #(STK + 8)]
	ldr	x10, [x9, #16]
	str	x10, [x16, #(STK + 16)]
	ldr	x10, [x9, #24]
	str	x10, [x16, #(STK + 24)]
	ldr	x10, [x9, #32]
	str	x10, [x16, #(STK + 32)]
	ldr	x10, [x9, #40]
	str	x10, [x16, #(STK + 40)]
	ldr	x10, [x9, #48]
	str	x10, [x16, #(STK + 48)]
	ldr	x10, [x9, #56]
	str	x10, [x16, #(STK + 56)]
	add	sp, x9, #64
	ldr	x9, [x16, #(SAVED_FPCR - OUT)]
	msr	fpcr, x9
	msr	fpsr, xzr
	ldp	x19, x20, [sp, #16]
	ldp	x21, x22, [sp, #32]
	ldp	x23, x24, [sp, #48]
	ldp	x25, x26, [sp, #64]
	ldp	x27, x28, [sp, #80]
	ldp	d8, d9, [sp, #96]
	ldp	d10, d11, [sp, #112]
	ldp	d12, d13, [sp, #128]
	ldp	d14, d15, [sp, #144]
	ldp	x29, x30, [sp], #160
	ret
	.size	tr_call, .-tr_call

/* void tr_hostile_handler(int32_t id, int type) */
	.globl	tr_hostile_handler
	.type	tr_hostile_handler, %function
	.p2align 4
tr_hostile_handler:
	adrp	x9, tr_hostile_id
	str	w0, [x9, #:lo12:tr_hostile_id]
	adrp	x9, tr_hostile_type
	str	w1, [x9, #:lo12:tr_hostile_type]
	adrp	x9, tr_hostile_calls
	ldr	w10, [x9, #:lo12:tr_hostile_calls]
	add	w10, w10, #1
	str	w10, [x9, #:lo12:tr_hostile_calls]
	mov	x10, sp
	tst	x10, #15
	b.eq	1f
	adrp	x9, tr_hostile_misaligned
	mov	w10, #1
	str	w10, [x9, #:lo12:tr_hostile_misaligned]
1:
	.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18
	mov	x\i, #-1
	.endr
	.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	movi	v\i\().2d, #0xffffffffffffffff
	.endr
	.irp i, 8, 9, 10, 11, 12, 13, 14, 15
	mov	v\i\().d[1], x0
	.endr
	mov	x9, #0xf0000000         /* N Z C V all set */
	msr	nzcv, x9
	mov	x9, #0x9f               /* every cumulative exception flag */
	msr	fpsr, x9
	ret
	.size	tr_hostile_handler, .-tr_hostile_handler

	.bss
	.p2align 3
	.globl	_ZN6__xray19XRayPatchedFunctionE
_ZN6__xray19XRayPatchedFunctionE:	.zero 8
	.globl	_ZN6__xray13XRayArgLoggerE
_ZN6__xray13XRayArgLoggerE:		.zero 8
	.globl	_ZN6__xray22XRayPatchedCustomEventE
_ZN6__xray22XRayPatchedCustomEventE:	.zero 8
	.globl	_ZN6__xray21XRayPatchedTypedEventE
_ZN6__xray21XRayPatchedTypedEventE:	.zero 8
	.globl	tr_hostile_id, tr_hostile_type, tr_hostile_calls, tr_hostile_misaligned, tr_hostile_avx
tr_hostile_id:		.zero 4
tr_hostile_type:	.zero 4
tr_hostile_calls:	.zero 4
tr_hostile_misaligned:	.zero 4
tr_hostile_avx:		.zero 4

	.section .note.GNU-stack,"",%progbits
