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
 *    they save the caller-saved general registers (the hot path is C and
 *    may clobber them; at exit only the live ones) and call rt__hot_{entry,exit,tail}(id) directly
 *    (entry also gets the function's stack pointer, rt_internal.h).
 *    Those functions (rt_hot.c, rt_arena.c) are built with
 *    -mgeneral-regs-only and call nothing else, so no vector, x87 or MMX
 *    register is touched and arguments/return values in xmm/ymm/zmm
 *    registers survive whole.  The build checks that object for vector
 *    instructions and foreign calls (check_hot.cmake).
 *  - full: any other handler (LLVM's basic/FDR modes, a user's handler),
 *    and exaloop's own slow cases (a thread's first event, the
 *    clock_gettime fallback) - the lean call returns nonzero for those -
 *    save the caller-saved general registers, xmm0-15 and the flags at
 *    every kind of sled (compiler-rt saves xmm0-7 only, and at exit only
 *    rax rdx xmm0 xmm1) before the handler is called through XRay's
 *    handler pointer.
 *
 * They are linked in place of compiler-rt's through the linker's --wrap
 * (src/cli/toolchain.c): compiler-rt's patching code refers to
 * __xray_Function{Entry,Exit,TailExit} and is redirected to the
 * __wrap___xray_* symbols below; compiler-rt's own trampolines stay in the
 * executable, unused.  This file goes into libexaloop_xray.a, which is
 * linked only into XRay builds.
 *
 * The contract (docs/architecture.md, "The trampoline contract"; tested
 * register by register on every path by tests/unit/test_trampolines.c):
 * with exaloop's handler, on every path, at entry and tail sleds every
 * register but r10 comes back as it came in - all general registers,
 * xmm0-15 and the upper halves of ymm/zmm (which no instruction here or
 * in the handler touches), the x87 stack and control words, MXCSR and
 * DF - and at tail sleds the arithmetic flags too; r10 is free, the sled
 * wrote the id into it.  At exit sleds the same except the caller-saved
 * scratch registers rcx rsi rdi r8-r11, dead after `ret` (a calling
 * convention that keeps them, such as preserve_most, would need r10 too,
 * which the sled itself overwrites).  A foreign handler gets the full
 * path's saves and keeps the rest as the C ABI says (callee-saved
 * registers, x87 and DF).  What LLVM may keep
 * live at each sled (System V ABI), the part that must never break:
 *   entry: argument registers rdi rsi rdx rcx r8 r9, rax (al = vector
 *          argument count for varargs), xmm0-7, stack arguments above
 *          the return address.  r11 is scratch at a call boundary, and
 *          the flags are not live at a function's first instruction.
 *   exit:  the sled replaced `ret`: return values rax rdx xmm0 xmm1 and
 *          the x87 st0/st1 (`long double`, `_Complex long double`).
 *   tail:  the sled precedes the tail call's jump: the callee's arguments
 *          as at entry, r11 - LLVM jumps through it (`jmp *%r11`) when an
 *          indirect tail call's target cannot stay in a free argument
 *          register (the tail-call register class is rax rcx rdx rsi rdi
 *          r8 r9 r11) - and the flags: with optsize/minsize LLVM makes
 *          conditional tail calls (`cmp; <tail sled>; jl callee`), so the
 *          flags are saved (seto+lahf, restored with add+sahf: cheaper
 *          than pushfq/popfq, which is microcoded) before any instruction
 *          can change them.  (compiler-rt 14's tail trampoline runs
 *          `sub $8, %rsp` before its pushfq and so loses them: patched,
 *          such code branches the wrong way; fixed in LLVM 19.  Test:
 *          tests/progs/s-xmm.c, e2e t1310.)
 * At entry and tail sleds, saving everything but r10 rather than exactly
 * the live set costs a few pushes (nothing measurable, docs/benchmarks.md)
 * and leaves no register whose liveness rests on an argument about code
 * generation; at exit the same cost about 1.6 ns per call.
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

/* The full path's save, for every kind: the nine caller-saved general
 * registers (r10 too: it is the id the handler is called with), xmm0-15
 * and the flags, pushed first so that no instruction of ours has changed
 * them.  8 (flags) + 9*8 + 16*16 = 336 bytes, a multiple of 16: %rsp keeps
 * its alignment; `pad` (8 at exit) brings 8 mod 16 to 0 mod 16.  The
 * callee-saved registers (rbx rbp r12-r15) are the handler's to keep. */
.macro FULL_SAVE pad
	pushfq
	subq	$(328 + \pad), %rsp
	.cfi_adjust_cfa_offset (336 + \pad)
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
	movdqu	%xmm8, 200(%rsp)
	movdqu	%xmm9, 216(%rsp)
	movdqu	%xmm10, 232(%rsp)
	movdqu	%xmm11, 248(%rsp)
	movdqu	%xmm12, 264(%rsp)
	movdqu	%xmm13, 280(%rsp)
	movdqu	%xmm14, 296(%rsp)
	movdqu	%xmm15, 312(%rsp)
.endm

.macro FULL_RESTORE pad
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
	movdqu	200(%rsp), %xmm8
	movdqu	216(%rsp), %xmm9
	movdqu	232(%rsp), %xmm10
	movdqu	248(%rsp), %xmm11
	movdqu	264(%rsp), %xmm12
	movdqu	280(%rsp), %xmm13
	movdqu	296(%rsp), %xmm14
	movdqu	312(%rsp), %xmm15
	addq	$(328 + \pad), %rsp
	popfq
	.cfi_adjust_cfa_offset -(336 + \pad)
.endm

/* Call the installed handler (reloaded: it may have changed) with the
 * id and the event type, if there is one. */
.macro CALL_HANDLER type
	movq	XRAY_HANDLER(%rip), %rax
	testq	%rax, %rax
	je	1f
	movl	%r10d, %edi
	movl	$\type, %esi
	call	*%rax
1:
.endm

/* The lean path's save: the caller-saved general registers but r11 (saved
 * first, before it holds the handler pointer) and, at tail sleds, rax
 * (saved first, before it holds the flags).  Pops change no flag, so the
 * ZF of the hot path's `testl %eax, %eax` survives the restore. */
.macro LEAN_SAVE_ARGS
	pushq	%rdi
	pushq	%rsi
	pushq	%rdx
	pushq	%rcx
	pushq	%r8
	pushq	%r9
	pushq	%r10
	.cfi_adjust_cfa_offset 56
.endm

.macro LEAN_RESTORE_ARGS
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rcx
	popq	%rdx
	popq	%rsi
	popq	%rdi
	.cfi_adjust_cfa_offset -56
.endm

/* The handler exaloop's lean path stands for (read-only after
 * relocation; compared with XRay's handler pointer on every event). */
	.section .data.rel.ro,"aw"
	.p2align 3
.Lrt_handler:
	.quad	rt__xray_handler

	.text

/* ------------------------------------------------------------------ */
/* Entry: called by the sled; %r10d = function id.  %rsp is 0 mod 16. */
	.globl	__wrap___xray_FunctionEntry
	.hidden	__wrap___xray_FunctionEntry
	.type	__wrap___xray_FunctionEntry, @function
	.p2align 4
__wrap___xray_FunctionEntry:
	.cfi_startproc
	pushq	%r11
	.cfi_adjust_cfa_offset 8
	movq	XRAY_HANDLER(%rip), %r11
	cmpq	.Lrt_handler(%rip), %r11
	jne	.Lentry_other           /* someone else's handler, or none */
	pushq	%rax
	LEAN_SAVE_ARGS
	subq	$8, %rsp                /* 8 + 64 + 8 = 80: 0 mod 16 at the call */
	.cfi_adjust_cfa_offset 8
	movl	%r10d, %edi
	leaq	88(%rsp), %rsi          /* the function's %rsp at entry: 80 saved + the sled's return address */
	call	rt__hot_entry
	testl	%eax, %eax
	leaq	8(%rsp), %rsp
	.cfi_adjust_cfa_offset -8
	LEAN_RESTORE_ARGS
	popq	%rax
	popq	%r11
	.cfi_adjust_cfa_offset -16
	jne	.Lentry_full            /* exaloop's slow case */
	ret
.Lentry_other:
	.cfi_adjust_cfa_offset 8
	testq	%r11, %r11
	popq	%r11
	.cfi_adjust_cfa_offset -8
	jne	.Lentry_full
	ret                             /* no handler installed */
.Lentry_full:
	FULL_SAVE 0
	CALL_HANDLER 0                  /* XRayEntryType::ENTRY */
	FULL_RESTORE 0
	ret
	.cfi_endproc
	.size	__wrap___xray_FunctionEntry, .-__wrap___xray_FunctionEntry

/* ------------------------------------------------------------------ */
/* Exit: jumped to by the sled in place of `ret`; returns for the
 * function.  %rsp is 8 mod 16 (the function's return address on top).
 * Live: rax rdx (saved), xmm0 xmm1 and st0 st1 (never touched on this
 * path).  rcx rsi rdi r8 r9 r11 are dead after a `ret` and are not saved
 * here: measured, saving them cost about 1.6 ns per call
 * (docs/benchmarks.md).  r10 is saved for the full path's id. */
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
	pushq	%r10
	.cfi_adjust_cfa_offset 24       /* 8 mod 16 - 24 = 0 mod 16 */
	movl	%r10d, %edi
	call	rt__hot_exit
	testl	%eax, %eax
	popq	%r10
	popq	%rdx
	popq	%rax
	.cfi_adjust_cfa_offset -24
	jne	.Lexit_full
	ret
.Lexit_other:
	testq	%r11, %r11
	jne	.Lexit_full
	ret
.Lexit_full:
	FULL_SAVE 8
	CALL_HANDLER 1                  /* XRayEntryType::EXIT */
	FULL_RESTORE 8
	ret
	.cfi_endproc
	.size	__wrap___xray_FunctionExit, .-__wrap___xray_FunctionExit

/* ------------------------------------------------------------------ */
/* Tail exit: called by the sled just before a tail call's jump; %rsp is
 * 0 mod 16.  As entry, plus the flags (a conditional tail call may test
 * them after the sled).  The lean path keeps CF PF AF ZF SF in %ah (lahf)
 * and OF in %al (seto); restoring adds 0x7f to %al, which sets OF exactly
 * when it was set, then sahf puts back the other five without touching
 * OF.  DF is clear at any call boundary and nothing here sets it. */
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
	pushq	%r11                    /* may hold the tail call's target */
	.cfi_adjust_cfa_offset 8
	movq	XRAY_HANDLER(%rip), %r11
	cmpq	.Lrt_handler(%rip), %r11
	jne	.Ltail_other
	pushq	%rax                    /* saved flags */
	.cfi_adjust_cfa_offset 8
	LEAN_SAVE_ARGS                  /* 16 + 8 + 56 = 80: 0 mod 16 */
	movl	%r10d, %edi
	call	rt__hot_tail
	testl	%eax, %eax
	LEAN_RESTORE_ARGS
	popq	%rax
	popq	%r11
	.cfi_adjust_cfa_offset -16
	jne	.Ltail_full
.Ltail_done:
	addb	$0x7f, %al              /* OF back */
	sahf                            /* CF PF AF ZF SF back */
	popq	%rax
	.cfi_adjust_cfa_offset -8
	ret
.Ltail_other:
	.cfi_adjust_cfa_offset 16
	testq	%r11, %r11
	popq	%r11
	.cfi_adjust_cfa_offset -8
	je	.Ltail_done             /* no handler installed */
.Ltail_full:
	addb	$0x7f, %al
	sahf
	popq	%rax
	.cfi_adjust_cfa_offset -8
	FULL_SAVE 0
	CALL_HANDLER 2                  /* XRayEntryType::TAIL */
	FULL_RESTORE 0
	ret
	.cfi_endproc
	.size	__wrap___xray_FunctionTailExit, .-__wrap___xray_FunctionTailExit

	.section .note.GNU-stack,"",@progbits
