/*
 * rt_tramp_aarch64.S - exaloop's own XRay trampolines (AArch64, AAPCS64).
 *
 * A patched AArch64 sled (compiler-rt 14, xray_AArch64.cpp) is eight
 * words:
 *
 *   stp  x0, x30, [sp, #-16]!     the sled saves x0 and the link register
 *   ldr  w0, <id>                 w0 = function id
 *   ldr  x16, <trampoline>        x16 = trampoline address
 *   blr  x16                      x30 = address of the 12 data bytes
 *   .word id; .xword trampoline   data
 *   ldp  x0, x30, [sp], #16       the sled restores x0 and x30
 *
 * so every trampoline returns to x30 + 12, may change x0, x16 and x30
 * (the sled wrote or restores them), and finds sp 16-byte aligned.  Entry,
 * exit (before `ret`) and tail (before a tail call's `b`) sleds have the
 * same shape; only the trampoline differs.
 *
 * Two paths, as on x86-64 (rt_tramp_x86_64.S):
 *  - lean: when XRay's handler is exaloop's (rt__xray_handler), save the
 *    general registers a C function may change (x1-x15, x17, x18), the
 *    flags (NZCV) and the return address, and call rt__hot_{entry,exit,
 *    tail}(id) directly; entry also gets the function's stack pointer.
 *    Those functions are built with -mgeneral-regs-only and call nothing
 *    else (check_hot.cmake checks the objects), so no SIMD/FP register or
 *    FPSR/FPCR is touched.
 *  - full: another handler (LLVM's basic or FDR mode, a user's), or
 *    exaloop's slow cases (the lean call returns nonzero): also save
 *    q0-q31, FPSR and FPCR, then call the handler through XRay's handler
 *    pointer with (id, type).
 *
 * The contract: on every path every register but x16 comes back as it
 * came in: x0-x15, x17-x30, sp, NZCV, q0-q31, FPSR, FPCR.  What LLVM may
 * keep live at each sled (AAPCS64): at entry the argument registers x0-x7,
 * x8 (indirect result address), v0-v7 and stack arguments; at exit the
 * results x0-x7 (x8 is not a result) and v0-v3; at a tail sled the tail
 * callee's arguments as at entry, and the flags (a conditional tail call).
 * Saving more than the live set costs a few stores and leaves nothing that
 * depends on an argument about code generation.  x16 (IP0) is the sled's
 * own: it is not live at any sled.
 *
 * Linked in place of compiler-rt's trampolines through --wrap
 * (src/driver/toolchain.c), in libexaloop_xray.a, XRay builds only.
 */
	.text

#define XRAY_HANDLER _ZN6__xray19XRayPatchedFunctionE

/* The general frame: 160 bytes, 16-byte aligned.  The slot at 152 keeps
 * the id for the full path (w0 is the lean call's result by then). */
#define FRAME 160
#define SLOT_NZCV 136
#define SLOT_X30 144
#define SLOT_ID 152

.macro GPR_SAVE
	sub	sp, sp, #FRAME
	.cfi_adjust_cfa_offset FRAME
	stp	x1, x2, [sp, #0]
	stp	x3, x4, [sp, #16]
	stp	x5, x6, [sp, #32]
	stp	x7, x8, [sp, #48]
	stp	x9, x10, [sp, #64]
	stp	x11, x12, [sp, #80]
	stp	x13, x14, [sp, #96]
	stp	x15, x17, [sp, #112]
	mrs	x9, nzcv
	stp	x18, x9, [sp, #128]
	stp	x30, x0, [sp, #SLOT_X30]
.endm

/* NZCV back last but one: only the loads of x9/x10 follow, and they
 * change no flag. */
.macro GPR_RESTORE
	ldp	x1, x2, [sp, #0]
	ldp	x3, x4, [sp, #16]
	ldp	x5, x6, [sp, #32]
	ldp	x7, x8, [sp, #48]
	ldp	x11, x12, [sp, #80]
	ldp	x13, x14, [sp, #96]
	ldp	x15, x17, [sp, #112]
	ldp	x18, x9, [sp, #128]
	msr	nzcv, x9
	ldp	x30, x0, [sp, #SLOT_X30]
	ldp	x9, x10, [sp, #64]
	add	sp, sp, #FRAME
	.cfi_adjust_cfa_offset -FRAME
.endm

/* The full path's SIMD/FP save: q0-q31, FPSR, FPCR (528 bytes). */
.macro FP_SAVE
	sub	sp, sp, #528
	.cfi_adjust_cfa_offset 528
	stp	q0, q1, [sp, #16]
	stp	q2, q3, [sp, #48]
	stp	q4, q5, [sp, #80]
	stp	q6, q7, [sp, #112]
	stp	q8, q9, [sp, #144]
	stp	q10, q11, [sp, #176]
	stp	q12, q13, [sp, #208]
	stp	q14, q15, [sp, #240]
	stp	q16, q17, [sp, #272]
	stp	q18, q19, [sp, #304]
	stp	q20, q21, [sp, #336]
	stp	q22, q23, [sp, #368]
	stp	q24, q25, [sp, #400]
	stp	q26, q27, [sp, #432]
	stp	q28, q29, [sp, #464]
	stp	q30, q31, [sp, #496]
	mrs	x9, fpsr
	mrs	x10, fpcr
	stp	x9, x10, [sp, #0]
.endm

.macro FP_RESTORE
	ldp	x9, x10, [sp, #0]
	msr	fpsr, x9
	msr	fpcr, x10
	ldp	q0, q1, [sp, #16]
	ldp	q2, q3, [sp, #48]
	ldp	q4, q5, [sp, #80]
	ldp	q6, q7, [sp, #112]
	ldp	q8, q9, [sp, #144]
	ldp	q10, q11, [sp, #176]
	ldp	q12, q13, [sp, #208]
	ldp	q14, q15, [sp, #240]
	ldp	q16, q17, [sp, #272]
	ldp	q18, q19, [sp, #304]
	ldp	q20, q21, [sp, #336]
	ldp	q22, q23, [sp, #368]
	ldp	q24, q25, [sp, #400]
	ldp	q26, q27, [sp, #432]
	ldp	q28, q29, [sp, #464]
	ldp	q30, q31, [sp, #496]
	add	sp, sp, #528
	.cfi_adjust_cfa_offset -528
.endm

/* One trampoline: `hot` is the lean path's function, `type` XRay's
 * event type, `sp_arg` 1 when the hot function takes the traced
 * function's stack pointer (the sled's sp: ours + FRAME + the sled's 16).
 * The CFA note says where the caller's frame is for unwinders: the sled's
 * push is 16 bytes above the trampoline's sp, and x30's rule names the
 * link register the sled saved there, so an unwinder steps from here to
 * the traced function's caller (at every kind of sled the function has no
 * frame of its own: not yet, or no longer). */
.macro TRAMPOLINE name, hot, type, sp_arg
	.globl	\name
	.hidden	\name
	.type	\name, %function
	.p2align 4
\name:
	.cfi_startproc
	.cfi_def_cfa_offset 16
	.cfi_offset x30, -8
	add	x30, x30, #12           /* past the sled's data */
	GPR_SAVE
	adrp	x9, XRAY_HANDLER
	ldr	x9, [x9, #:lo12:XRAY_HANDLER]
	adrp	x10, rt__xray_handler
	add	x10, x10, #:lo12:rt__xray_handler
	cmp	x9, x10
	b.ne	2f                      /* someone else's handler, or none */
	.if \sp_arg
	add	x1, sp, #(FRAME + 16)
	.endif
	bl	\hot
	cbnz	w0, 3f                  /* exaloop's slow case */
1:
	GPR_RESTORE
	ret
2:
	cbz	x9, 1b                  /* no handler installed */
3:
	FP_SAVE
	adrp	x9, XRAY_HANDLER        /* reloaded: it may have changed */
	ldr	x9, [x9, #:lo12:XRAY_HANDLER]
	cbz	x9, 4f
	ldr	w0, [sp, #(528 + SLOT_ID)]
	mov	w1, #\type
	blr	x9
4:
	FP_RESTORE
	b	1b
	.cfi_endproc
	.size	\name, .-\name
.endm

	TRAMPOLINE __wrap___xray_FunctionEntry, rt__hot_entry, 0, 1
	TRAMPOLINE __wrap___xray_FunctionExit, rt__hot_exit, 1, 0
	TRAMPOLINE __wrap___xray_FunctionTailExit, rt__hot_tail, 2, 0

	.section .note.GNU-stack,"",%progbits
