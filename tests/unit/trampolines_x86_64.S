/*
 * trampolines_x86_64.S - the assembly half of tests/unit/test_trampolines.c.
 *
 * tr_call(struct tr_call *c) calls one XRay trampoline exactly the way a
 * patched sled does, with every register set to a known value, and
 * records every register as the trampoline left it:
 *   - %rsp as at a sled: 0 mod 16 at an entry or tail trampoline's first
 *     instruction (c->pad = 8), 8 mod 16 at an exit trampoline's (c->pad
 *     = 0; its `ret` returns here, as it would to the function's caller);
 *     eight words above the return address (stack arguments at an entry,
 *     the caller's frame at an exit) set from c->in.stack;
 *   - x87 stack (all eight registers full), FCW/FSW/FTW, MXCSR and xmm0-15
 *     from the FXSAVE image c->in.fx, loaded with fxrstor; the upper
 *     halves of ymm0-15 from c->in.ymmh when c->avx;
 *   - RFLAGS (arithmetic flags and DF) from c->in.rflags;
 *   - all sixteen general registers from c->in.gpr (hardware order rax
 *     rcx rdx rbx rsp rbp rsi rdi r8..r15; rsp is written, not read; r10
 *     carries the function id, as the sled's `mov $id, %r10d` leaves it).
 * Afterwards c->out holds the same fields (fxsave, vextractf128, pushfq),
 * then the C ABI state is put back (cld, fninit, the caller's MXCSR,
 * vzeroupper) and the caller's callee-saved registers and stack restored.
 *
 * tr_hostile_handler is an XRay handler that does what the C ABI lets
 * any handler do: it overwrites every caller-saved general register,
 * xmm0-15, the arithmetic flags and (with AVX) the upper halves of the
 * ymm registers, and it records its arguments and whether %rsp was
 * 16-byte aligned at its call.
 */

/* struct tr_regs and struct tr_call (test_trampolines.c checks these
 * offsets with _Static_assert). */
#define IN 0
#define OUT 1024
#define FX 0
#define GPR 512
#define FLAGS 640
#define YMMH 656
#define STK 912
#define FN 2048
#define PAD 2056
#define AVX 2064
#define SAVED_RSP 2072
#define SAVED_MXCSR 2080

	.section .tbss,"awT",@nobits
	.p2align 3
tr_cur:	.zero	8
tr_fn:	.zero	8

	.text
	.globl	tr_call
	.type	tr_call, @function
	.p2align 4
tr_call:
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	stmxcsr	SAVED_MXCSR(%rdi)
	movq	%rdi, %fs:tr_cur@tpoff
	movq	FN(%rdi), %rax
	movq	%rax, %fs:tr_fn@tpoff
	movq	%rsp, SAVED_RSP(%rdi)
	andq	$-16, %rsp
	subq	$64, %rsp
	subq	PAD(%rdi), %rsp
	.irp i, 0, 1, 2, 3, 4, 5, 6, 7
	movq	IN+STK+8*\i(%rdi), %rax
	movq	%rax, 8*\i(%rsp)
	.endr
	movq	%rsp, IN+GPR+8*4(%rdi)          /* the %rsp expected back */

	fxrstor	IN+FX(%rdi)
	cmpq	$0, AVX(%rdi)
	je	1f
	.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vinsertf128 $1, IN+YMMH+16*\i(%rdi), %ymm\i, %ymm\i
	.endr
1:
	pushq	IN+FLAGS(%rdi)
	popfq
	movq	IN+GPR+8*0(%rdi), %rax
	movq	IN+GPR+8*1(%rdi), %rcx
	movq	IN+GPR+8*2(%rdi), %rdx
	movq	IN+GPR+8*3(%rdi), %rbx
	movq	IN+GPR+8*5(%rdi), %rbp
	movq	IN+GPR+8*6(%rdi), %rsi
	movq	IN+GPR+8*8(%rdi), %r8
	movq	IN+GPR+8*9(%rdi), %r9
	movq	IN+GPR+8*10(%rdi), %r10
	movq	IN+GPR+8*11(%rdi), %r11
	movq	IN+GPR+8*12(%rdi), %r12
	movq	IN+GPR+8*13(%rdi), %r13
	movq	IN+GPR+8*14(%rdi), %r14
	movq	IN+GPR+8*15(%rdi), %r15
	movq	IN+GPR+8*7(%rdi), %rdi

	call	*%fs:tr_fn@tpoff

	pushfq
	pushq	%rdi
	movq	%fs:tr_cur@tpoff, %rdi
	movq	%rax, OUT+GPR+8*0(%rdi)
	movq	%rcx, OUT+GPR+8*1(%rdi)
	movq	%rdx, OUT+GPR+8*2(%rdi)
	movq	%rbx, OUT+GPR+8*3(%rdi)
	movq	%rbp, OUT+GPR+8*5(%rdi)
	movq	%rsi, OUT+GPR+8*6(%rdi)
	movq	%r8, OUT+GPR+8*8(%rdi)
	movq	%r9, OUT+GPR+8*9(%rdi)
	movq	%r10, OUT+GPR+8*10(%rdi)
	movq	%r11, OUT+GPR+8*11(%rdi)
	movq	%r12, OUT+GPR+8*12(%rdi)
	movq	%r13, OUT+GPR+8*13(%rdi)
	movq	%r14, OUT+GPR+8*14(%rdi)
	movq	%r15, OUT+GPR+8*15(%rdi)
	popq	OUT+GPR+8*7(%rdi)
	popq	OUT+FLAGS(%rdi)
	movq	%rsp, OUT+GPR+8*4(%rdi)
	.irp i, 0, 1, 2, 3, 4, 5, 6, 7
	movq	8*\i(%rsp), %rax
	movq	%rax, OUT+STK+8*\i(%rdi)
	.endr
	fxsave	OUT+FX(%rdi)
	cmpq	$0, AVX(%rdi)
	je	2f
	.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	vextractf128 $1, %ymm\i, OUT+YMMH+16*\i(%rdi)
	.endr
	vzeroupper
2:
	cld
	fninit
	ldmxcsr	SAVED_MXCSR(%rdi)
	movq	SAVED_RSP(%rdi), %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	ret
	.size	tr_call, .-tr_call

/* void tr_hostile_handler(int32_t id, int type) */
	.globl	tr_hostile_handler
	.type	tr_hostile_handler, @function
	.p2align 4
tr_hostile_handler:
	movl	%edi, tr_hostile_id(%rip)
	movl	%esi, tr_hostile_type(%rip)
	addl	$1, tr_hostile_calls(%rip)
	leaq	8(%rsp), %rax
	testq	$15, %rax
	je	1f
	addl	$1, tr_hostile_misaligned(%rip)
1:
	movabsq	$0xdeadbeefdeadbee0, %rax
	movq	%rax, %rcx
	movq	%rax, %rdx
	movq	%rax, %rsi
	movq	%rax, %rdi
	movq	%rax, %r8
	movq	%rax, %r9
	movq	%rax, %r10
	movq	%rax, %r11
	.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	pcmpeqd	%xmm\i, %xmm\i
	.endr
	cmpl	$0, tr_hostile_avx(%rip)
	je	2f
	vzeroupper
2:
	xorl	%eax, %eax              /* ZF set, CF SF OF clear */
	ret
	.size	tr_hostile_handler, .-tr_hostile_handler

/* compiler-rt's handler pointers, which both trampoline sets read (the
 * test links compiler-rt's trampoline object, not its runtime). */
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

	.section .note.GNU-stack,"",@progbits
