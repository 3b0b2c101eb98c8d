/*
 * rt_tramp_x86_64.S - exaloop's own XRay trampolines (x86-64, System V).
 *
 * A patched XRay sled calls (entry, tail) or jumps to (exit) a trampoline
 * with the function id in %r10d.  compiler-rt's trampolines save every
 * general register, xmm0-7 and the flags (pushfq/popfq) on each entry and
 * tail event, so that any C or C++ handler may run; that costs more than
 * the rest of a minimal tracer.  These trampolines have two paths:
 *
 *  - lean: when the installed XRay handler is exaloop's (rt__xray_handler),
 *    they save only the registers that can be live at the sled and that the
 *    hot path may clobber, and call rt__hot_{entry,exit,tail}(id) directly
 *    (entry also gets the function's stack pointer, rt_internal.h).
 *    Those functions (rt_hot.c, rt_arena.c) are built with
 *    -mgeneral-regs-only and call nothing else, so no vector, x87 or MMX
 *    register is touched and arguments/return values in xmm/ymm/zmm
 *    registers survive whole.  The build checks that object for vector
 *    instructions and foreign calls (check_hot.cmake).
 *  - full: any other handler (LLVM's basic/FDR modes, a user's handler),
 *    and exaloop's own slow cases (a thread's first event, the
 *    clock_gettime fallback) - the lean call returns nonzero for those -
 *    get the same saves as compiler-rt's trampolines before the handler is
 *    called through XRay's handler pointer.
 *
 * They are linked in place of compiler-rt's through the linker's --wrap
 * (src/cli/toolchain.c): compiler-rt's patching code refers to
 * __xray_Function{Entry,Exit,TailExit} and is redirected to the
 * __wrap___xray_* symbols below; compiler-rt's own trampolines stay in the
 * executable, unused.  This file goes into libexaloop_xray.a, which is
 * linked only into XRay builds.
 *
 * What may be live at each sled (System V ABI), and what is saved:
 *   entry: argument registers rdi rsi rdx rcx r8 r9, rax (al = vector
 *          argument count for varargs), xmm0-7.  r10 holds the id (the
 *          sled overwrote it), r11 is scratch at a call boundary.
 *          Flags are not live at a function's first instruction.
 *   exit:  the sled replaced `ret`: return values rax rdx xmm0 xmm1 (and
 *          x87 st0/st1, never touched here).  rcx rsi rdi r8-r11 are dead.
 *   tail:  the sled precedes the tail call's jump: the callee's arguments
 *          as at entry, and the flags: with optsize/minsize LLVM makes
 *          conditional tail calls (`cmp; <tail sled>; jl callee`), so the
 *          flags are saved (seto+lahf, restored with add+sahf: cheaper
 *          than pushfq/popfq, which is microcoded) before any instruction
 *          can change them.  (compiler-rt 14's tail trampoline runs
 *          `sub $8, %rsp` before its pushfq and so loses them: patched,
 *          such code branches the wrong way; fixed in LLVM 19.  Test:
 *          tests/progs/s-xmm.c, e2e t1310.)
 * Stack: at the entry and tail trampolines %rsp is 16-byte aligned (the
 * function's caller pushed a return address, the sled another); at the
 * exit trampoline it is 8 mod 16.  Each path keeps %rsp 16-byte aligned at
 * its call.  Pushing below %rsp is safe at all three sleds: the red zone
 * belongs to a function that has not started, has finished, or is being
 * replaced by its tail callee.
 */
	.text

/* The handler pointer compiler-rt's __xray_set_handler writes (a hidden
 * std::atomic<void (*)(int32_t, XRayEntryType)>; an aligned 8-byte load
 * is atomic on x86-64). */
#define XRAY_HANDLER _ZN6__xray19XRayPatchedFunctionE

/* Full save for entry/tail, as compiler-rt does: 9 GPRs + xmm0-7 + flags.
 * 8 (flags) + 9*8 + 8*16 + 16 (pad) = 224: with %rsp 16-aligned on entry
 * it stays 16-aligned at the call. */
.macro FULL_SAVE
	pushfq
	subq	$216, %rsp
	.cfi_adjust_cfa_offset 224
	movq	%rax, 0(%rsp)
	movq	%rdi, 8(%rsp)
	movq	%rsi, 16(%rsp)
	movq	%rdx, 24(%rsp)
	movq	%rcx, 32(%rsp)
	movq	%r8, 40(%rsp)
	movq	%r9, 48(%rsp)
	movq	%r10, 56(%rsp)
	movq	%r11, 64(%rsp)
	movdqu	%xmm0, 72(%rsp)
	movdqu	%xmm1, 88(%rsp)
	movdqu	%xmm2, 104(%rsp)
	movdqu	%xmm3, 120(%rsp)
	movdqu	%xmm4, 136(%rsp)
	movdqu	%xmm5, 152(%rsp)
	movdqu	%xmm6, 168(%rsp)
	movdqu	%xmm7, 184(%rsp)
.endm

.macro FULL_RESTORE
	movq	0(%rsp), %rax
	movq	8(%rsp), %rdi
	movq	16(%rsp), %rsi
	movq	24(%rsp), %rdx
	movq	32(%rsp), %rcx
	movq	40(%rsp), %r8
	movq	48(%rsp), %r9
	movq	56(%rsp), %r10
	movq	64(%rsp), %r11
	movdqu	72(%rsp), %xmm0
	movdqu	88(%rsp), %xmm1
	movdqu	104(%rsp), %xmm2
	movdqu	120(%rsp), %xmm3
	movdqu	136(%rsp), %xmm4
	movdqu	152(%rsp), %xmm5
	movdqu	168(%rsp), %xmm6
	movdqu	184(%rsp), %xmm7
	addq	$216, %rsp
	popfq
	.cfi_adjust_cfa_offset -224
.endm

/* Lean save for entry/tail: the six argument registers and rax.  7*8 + 8
 * (pad) = 64 keeps the 16-byte alignment. */
.macro LEAN_SAVE
	pushq	%rax
	pushq	%rdi
	pushq	%rsi
	pushq	%rdx
	pushq	%rcx
	pushq	%r8
	pushq	%r9
	subq	$8, %rsp
	.cfi_adjust_cfa_offset 64
.endm

.macro LEAN_RESTORE
	addq	$8, %rsp
	popq	%r9
	popq	%r8
	popq	%rcx
	popq	%rdx
	popq	%rsi
	popq	%rdi
	popq	%rax
	.cfi_adjust_cfa_offset -64
.endm

/* The handler exaloop's lean path stands for (read-only after
 * relocation; compared with XRay's handler pointer on every event). */
	.section .data.rel.ro,"aw"
	.p2align 3
.Lrt_handler:
	.quad	rt__xray_handler

	.text

/* ------------------------------------------------------------------ */
/* Entry: called by the sled; %r10d = function id. */
	.globl	__wrap___xray_FunctionEntry
	.hidden	__wrap___xray_FunctionEntry
	.type	__wrap___xray_FunctionEntry, @function
	.p2align 4
__wrap___xray_FunctionEntry:
	.cfi_startproc
	movq	XRAY_HANDLER(%rip), %r11
	cmpq	.Lrt_handler(%rip), %r11
	jne	.Lentry_other           /* someone else's handler, or none */
	LEAN_SAVE
	movl	%r10d, %edi
	leaq	72(%rsp), %rsi          /* the function's %rsp at entry: 64 saved + the sled's return address */
	call	rt__hot_entry
	movl	%eax, %r11d
	LEAN_RESTORE
	testl	%r11d, %r11d
	jne	.Lentry_full            /* exaloop's slow case */
	ret
.Lentry_other:
	testq	%r11, %r11
	jne	.Lentry_full
	ret                             /* no handler installed */
.Lentry_full:
	FULL_SAVE
	movq	XRAY_HANDLER(%rip), %rax
	testq	%rax, %rax
	je	1f
	movl	%r10d, %edi
	xorl	%esi, %esi              /* XRayEntryType::ENTRY */
	call	*%rax
1:	FULL_RESTORE
	ret
	.cfi_endproc
	.size	__wrap___xray_FunctionEntry, .-__wrap___xray_FunctionEntry

/* ------------------------------------------------------------------ */
/* Exit: jumped to by the sled in place of `ret`; returns for the
 * function.  Only rax and rdx (and xmm0/xmm1, untouched on the lean path)
 * carry values here. */
	.globl	__wrap___xray_FunctionExit
	.hidden	__wrap___xray_FunctionExit
	.type	__wrap___xray_FunctionExit, @function
	.p2align 4
__wrap___xray_FunctionExit:
	.cfi_startproc
	movq	XRAY_HANDLER(%rip), %r11
	cmpq	.Lrt_handler(%rip), %r11
	jne	.Lexit_other
	pushq	%rax
	pushq	%rdx
	subq	$8, %rsp                /* 8 mod 16 + 24 = 0 mod 16 */
	.cfi_adjust_cfa_offset 24
	movl	%r10d, %edi
	call	rt__hot_exit
	movl	%eax, %r11d
	addq	$8, %rsp
	popq	%rdx
	popq	%rax
	.cfi_adjust_cfa_offset -24
	testl	%r11d, %r11d
	jne	.Lexit_full
	ret
.Lexit_other:
	testq	%r11, %r11
	jne	.Lexit_full
	ret
.Lexit_full:
	/* 8 mod 16 on entry: 8 + 56 = 64 bytes keeps the call aligned. */
	subq	$56, %rsp
	.cfi_adjust_cfa_offset 56
	movq	%rax, 0(%rsp)
	movq	%rdx, 8(%rsp)
	movdqu	%xmm0, 16(%rsp)
	movdqu	%xmm1, 32(%rsp)
	movq	XRAY_HANDLER(%rip), %rax
	testq	%rax, %rax
	je	1f
	movl	%r10d, %edi
	movl	$1, %esi                /* XRayEntryType::EXIT */
	call	*%rax
1:	movq	0(%rsp), %rax
	movq	8(%rsp), %rdx
	movdqu	16(%rsp), %xmm0
	movdqu	32(%rsp), %xmm1
	addq	$56, %rsp
	.cfi_adjust_cfa_offset -56
	ret
	.cfi_endproc
	.size	__wrap___xray_FunctionExit, .-__wrap___xray_FunctionExit

/* ------------------------------------------------------------------ */
/* Tail exit: called by the sled just before a tail call's jump.  As entry,
 * plus the flags (a conditional tail call may test them after the sled).
 * The lean path keeps CF PF AF ZF SF in %ah (lahf) and OF in %al (seto);
 * restoring adds 0x7f to %al, which sets OF exactly when it was set, then
 * sahf puts back the other five without touching OF.  DF is clear at any
 * call boundary and nothing here sets it. */
	.globl	__wrap___xray_FunctionTailExit
	.hidden	__wrap___xray_FunctionTailExit
	.type	__wrap___xray_FunctionTailExit, @function
	.p2align 4
__wrap___xray_FunctionTailExit:
	.cfi_startproc
	pushq	%rax
	.cfi_adjust_cfa_offset 8
	seto	%al
	lahf
	movq	XRAY_HANDLER(%rip), %r11
	cmpq	.Lrt_handler(%rip), %r11
	jne	.Ltail_other
	pushq	%rax                    /* saved flags */
	pushq	%rdi
	pushq	%rsi
	pushq	%rdx
	pushq	%rcx
	pushq	%r8
	pushq	%r9
	.cfi_adjust_cfa_offset 56       /* 0 mod 16 - 64 = 0 mod 16 */
	movl	%r10d, %edi
	call	rt__hot_tail
	movl	%eax, %r11d
	popq	%r9
	popq	%r8
	popq	%rcx
	popq	%rdx
	popq	%rsi
	popq	%rdi
	popq	%rax
	.cfi_adjust_cfa_offset -56
	testl	%r11d, %r11d
	jne	.Ltail_full
.Ltail_done:
	addb	$0x7f, %al              /* OF back */
	sahf                            /* CF PF AF ZF SF back */
	popq	%rax
	.cfi_adjust_cfa_offset -8
	ret
.Ltail_other:
	.cfi_adjust_cfa_offset 8
	testq	%r11, %r11
	je	.Ltail_done             /* no handler installed */
.Ltail_full:
	addb	$0x7f, %al
	sahf
	popq	%rax
	.cfi_adjust_cfa_offset -8
	FULL_SAVE
	movq	XRAY_HANDLER(%rip), %rax
	testq	%rax, %rax
	je	1f
	movl	%r10d, %edi
	movl	$2, %esi                /* XRayEntryType::TAIL */
	call	*%rax
1:	FULL_RESTORE
	ret
	.cfi_endproc
	.size	__wrap___xray_FunctionTailExit, .-__wrap___xray_FunctionTailExit

	.section .note.GNU-stack,"",@progbits
