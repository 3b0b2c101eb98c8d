/*
 * tramp_aarch64_check.h - test_trampolines.c on AArch64: what each route
 * must keep, the known register values, and the comparison.  Included
 * after the harness's enums and struct job.
 *
 * exaloop's trampolines (rt_tramp_aarch64.S) keep every register but x16
 * (the sled's) on every path: x0-x15, x17-x30, q0-q31, NZCV, FPSR, FPCR,
 * sp and the stack above it.  compiler-rt's are held to what AAPCS64
 * makes live at a sled: the argument and result registers x0-x8 and
 * q0-q7, the callee-saved x19-x29 and d8-d15 (the handler keeps those),
 * sp and the stack; not more.  Not at tail sleds either: compiler-rt 14's
 * AArch64 tail trampoline returns with x8 (the indirect result address a
 * tail callee returning a large struct needs) and NZCV changed, as this
 * test shows on every path; that is the upstream register corruption the
 * ARM64 tail-call workaround (src/driver/tailcall.h) keeps programs away
 * from, and exaloop's own trampolines keep both.
 */
#ifndef TRAMP_AARCH64_CHECK_H
#define TRAMP_AARCH64_CHECK_H

struct want {
	uint32_t x;   /* bit i: xi */
	uint32_t q;   /* bit i: qi whole */
	uint32_t d;   /* bit i: the low 64 bits of qi */
	int nzcv, fp; /* NZCV; FPSR and FPCR */
};

#define ALL_X (0x7fffffffu & ~(1u << 16))
#define ARG_X 0x1ffu        /* x0-x8 */
#define SAVED_X 0x3ff80000u /* x19-x29 */
#define NZCV_ALL 0xf0000000u
#define ARITH_FLAGS 1u /* run_all's nonzero flag pattern: fill_regs sets N, C and V */

static struct want want_for(enum route r, enum kind k, enum path p)
{
	(void)p;
	if (r == LEAN)
		return (struct want){ALL_X, 0xffffffffu, 0xffffffffu, 1, 1};
	if (k == TAIL) /* compiler-rt 14: x8 and NZCV lost (above) */
		return (struct want){(ARG_X & ~(1u << 8)) | SAVED_X, 0xffu, 0xff00u, 0, 0};
	return (struct want){ARG_X | SAVED_X, 0xffu, 0xff00u, 0, 0};
}

static void fill_regs(struct tr_call *c, const struct job *j, int32_t id)
{
	uint64_t s = j->seed;
	for (int i = 0; i < 31; i++)
		c->in.x[i] = 0xa5c3000000000000ull ^ (uint64_t)(i + 1) * 0x0001000100010001ull ^ s << 40;
	c->id = (uint32_t)id;
	c->in.nzcv = j->flags ? 0xb0000000u : 0x40000000u; /* N C V, or Z */
	c->in.fpsr = 0x1fu & (s | 1u);                     /* some cumulative exception flags */
	c->in.fpcr = 0x00c00000u;                          /* round towards zero (not the default) */
	for (int i = 0; i < 32; i++)
		for (int b = 0; b < 16; b++)
			c->in.q[i][b] = (uint8_t)(i * 16 + b + s);
	for (int i = 0; i < 8; i++)
		c->in.stack[i] = 0x57ac000000000000ull | s << 16 | (uint64_t)i;
}

static void compare(struct job *j, const struct tr_call *c, const struct want *w)
{
	const struct tr_regs *in = &c->in, *out = &c->out;
	for (int i = 0; i < 31; i++)
		if ((w->x >> i & 1) && in->x[i] != out->x[i])
			job_fail(j, "x%d %016llx -> %016llx", i, (unsigned long long)in->x[i],
				 (unsigned long long)out->x[i]);
	if (out->sp != c->saved_sp)
		job_fail(j, "sp moved by %lld", (long long)(out->sp - c->saved_sp));
	for (int i = 0; i < 8; i++)
		if (in->stack[i] != out->stack[i])
			job_fail(j, "stack word %d above the sled's sp changed", i);
	if (w->nzcv && (in->nzcv ^ out->nzcv) & NZCV_ALL)
		job_fail(j, "NZCV %08llx -> %08llx", (unsigned long long)in->nzcv, (unsigned long long)out->nzcv);
	if (w->fp && (in->fpsr != out->fpsr || in->fpcr != out->fpcr))
		job_fail(j, "FPSR/FPCR %llx/%llx -> %llx/%llx", (unsigned long long)in->fpsr,
			 (unsigned long long)in->fpcr, (unsigned long long)out->fpsr, (unsigned long long)out->fpcr);
	for (int i = 0; i < 32; i++) {
		if ((w->q >> i & 1) && memcmp(in->q[i], out->q[i], 16))
			job_fail(j, "q%d changed", i);
		else if ((w->d >> i & 1) && memcmp(in->q[i], out->q[i], 8))
			job_fail(j, "d%d changed", i);
	}
}

static int cpu_has_avx(void)
{
	return 0;
}

#endif
