/*
 * s-xmm.c - register preservation across XRay sleds (trampoline safety).
 *
 * Usage:   s-xmm [ROUNDS]      (default 1000, 1..1000000)
 * Stdout:  one line per check, "name value" with values in %a (exact hex
 *          floating point) or decimal, then "avx ..."/"avx512 ..." lines
 *          (or "... skipped" when the CPU lacks them), then "done".
 *          The output depends only on ROUNDS: an instrumented build, with
 *          any trampolines and with or without a capture, must print
 *          exactly what the plain build prints.
 * Exit:    0 (2 for a bad argument)
 *
 * What it exercises:
 *   - arguments in all six integer argument registers and on the stack;
 *   - arguments and return values in xmm registers: 8 double arguments,
 *     16-byte vectors, a struct of two doubles (xmm0+xmm1), float, varargs
 *     doubles (al = vector register count), long double (x87 st0), and a
 *     struct of two longs returned in rax:rdx;
 *   - 32- and 64-byte vectors in ymm/zmm registers (functions built for
 *     AVX / AVX-512 and called only when the CPU has them);
 *   - the flags across tail-call sleds: with clang, the pick_* functions
 *     are `minsize`, so clang 14 turns them into conditional tail calls
 *     (`cmp; <tail sled>; jcc callee`) where the flags set before the sled
 *     decide the jump after it (signed, unsigned, equality, overflow,
 *     parity/NaN and sign conditions);
 *   - deep recursion with xmm state (3000 frames: beyond the runtime's
 *     2048-frame shadow stack).
 *
 * Calls (debug and release alike):
 *   main 1; poly8, vmix, pair_make, divmod, fsum, vsum, ld_scale, mixed,
 *   many ROUNDS each; descend 3001; pick_lt, pick_below, pick_eq, pick_ovf, pick_nan,
 *   pick_sign 2*ROUNDS each; t_pos and t_neg as printed on the "picks" line
 *   (12*ROUNDS together; ROUNDS=100: 450 and 750); with AVX: avx_round,
 *   avx_mix ROUNDS each; with AVX-512F: avx512_round, avx512_mix ROUNDS
 *   each; fold ROUNDS for each of the two present.
 * In release builds clang 14 places XRay's TAIL sled before a conditional
 * tail call, so a call that is not taken still reports a TAIL exit, and
 * the function then leaves through its other tail call with a second TAIL
 * that matches no open frame (a repaired exit).  Call counts stay exact;
 * the picked callee appears beside its caller, not below it, and
 * `llvm-xray account` refuses such a log.  compiler-rt 14's own tail
 * trampoline also changes the flags before saving them (`sub $8, %rsp`
 * ahead of `pushfq`), so with it the pick_* functions jump the wrong way
 * (fixed upstream in LLVM 19, llvm-project #89364 and #89452); exaloop's
 * trampolines keep them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))
#if defined(__clang__)
#define MINSIZE __attribute__((minsize))
#else
#define MINSIZE
#endif

typedef double v2d __attribute__((vector_size(16)));
typedef double v4d __attribute__((vector_size(32)));
typedef double v8d __attribute__((vector_size(64)));

struct pair {
	double x, y;
};

struct ipair {
	long q, r;
};

static unsigned long long mixbits;

static NOINLINE void fold(const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		mixbits = (mixbits ^ b[i]) * 1099511628211ull;
}

static NOINLINE double poly8(double a, double b, double c, double d, double e, double f, double g, double h)
{
	return ((((((a * b + c) * d + e) * f + g) * h - a) * 0.5 + b) - c * d) / (e + 3.0);
}

static NOINLINE v2d vmix(v2d a, v2d b, v2d c)
{
	return a * b + c;
}

static NOINLINE struct pair pair_make(double x, double y)
{
	struct pair p = {x * y + 1.0, x - y};
	return p;
}

/* Returned in rax:rdx. */
static NOINLINE struct ipair divmod(long a, long b)
{
	struct ipair p = {a / b, a % b};
	return p;
}

static NOINLINE float fsum(float a, float b, float c)
{
	return a * 0.25f + b * c;
}

static NOINLINE double vsum(int n, ...)
{
	va_list ap;
	va_start(ap, n);
	double s = 0;
	for (int i = 0; i < n; i++)
		s = s * 1.5 + va_arg(ap, double);
	va_end(ap);
	return s;
}

static NOINLINE long double ld_scale(long double x, int k)
{
	return x * (long double)k / 3.0L;
}

static NOINLINE double mixed(int a, double x, long b, float y, unsigned c, double z)
{
	return (double)a * x + (double)b * (double)y - (double)c * z;
}

/* All six integer argument registers, all eight xmm ones, and the stack. */
static NOINLINE long many(long a, long b, long c, long d, long e, long f, long g, double x0, double x1,
			  double x2, double x3, double x4, double x5, double x6, double x7, double x8)
{
	double s = x0 - x1 * 2 + x2 * 3 - x3 * 4 + x4 * 5 - x5 * 6 + x6 * 7 - x7 * 8 + x8 * 9;
	return a + b * 3 + c * 5 + d * 7 + e * 11 + f * 13 + g * 17 + (long)(s * 1024.0);
}

/* Tail-call targets of the pick_* functions; they count their calls so
 * that the output says which way every conditional tail call went. */
static long n_pos, n_neg;

static NOINLINE long t_pos(long x)
{
	n_pos++;
	BARRIER(x);
	return (x & 0xffff) * 3 + 1;
}

static NOINLINE long t_neg(long x)
{
	n_neg++;
	BARRIER(x);
	return (x & 0xffff) * 5 - 2;
}

/* Both branches pass the same argument, so only the flags decide which
 * callee the jump takes. */
MINSIZE static NOINLINE long pick_lt(long a, long b)
{
	if (a < b)
		return t_pos(a);
	return t_neg(a);
}

MINSIZE static NOINLINE long pick_below(unsigned long a, unsigned long b)
{
	if (a < b)
		return t_pos((long)a);
	return t_neg((long)a);
}

MINSIZE static NOINLINE long pick_eq(long a, long b)
{
	if (a == b)
		return t_pos(a);
	return t_neg(a);
}

MINSIZE static NOINLINE long pick_ovf(long a, long b)
{
	long r;
	if (__builtin_add_overflow(a, b, &r))
		return t_pos(a);
	return t_neg(a);
}

MINSIZE static NOINLINE long pick_nan(double x, long k)
{
	if (x != x)
		return t_pos(k);
	return t_neg(k);
}

MINSIZE static NOINLINE long pick_sign(long a, long b)
{
	if (a - b < 0)
		return t_pos(a);
	return t_neg(a);
}

/* Recursion with live xmm state in every frame. */
static NOINLINE double descend(int n, double acc, v2d v)
{
	double r;
	if (n == 0)
		r = acc + v[0] * v[1];
	else
		r = descend(n - 1, acc * 1.0001 + (double)n, v * 0.999) + v[1] / (double)(n + 1);
	__asm__ __volatile__("" : "+x"(r));
	return r;
}

__attribute__((target("avx"))) static NOINLINE v4d avx_mix(v4d a, v4d b, v4d c, v4d d)
{
	return a * b + c * d;
}

__attribute__((target("avx"))) static NOINLINE void avx_round(int i)
{
	v4d a = {i * 0.5, i * 0.25, -i * 1.5, 3.0};
	v4d b = {1.0 / (i + 1), 2.0, i * 0.125, -1.0};
	v4d r = avx_mix(a, b, b, a);
	fold(&r, sizeof(r));
}

__attribute__((target("avx512f"))) static NOINLINE v8d avx512_mix(v8d a, v8d b, v8d c)
{
	return a * b - c;
}

__attribute__((target("avx512f"))) static NOINLINE void avx512_round(int i)
{
	v8d a = {i, i * 0.5, i * 0.25, 1, 2, 3, -i, 1.0 / (i + 1)};
	v8d b = {0.5, 1.5, 2.5, i, i, i, 0.125, 7};
	v8d r = avx512_mix(a, b, a);
	fold(&r, sizeof(r));
}

static int parse_rounds(int argc, char **argv, long *out)
{
	*out = 1000;
	if (argc < 2)
		return 0;
	char *end;
	long v = strtol(argv[1], &end, 10);
	if (end == argv[1] || *end || v < 1 || v > 1000000)
		return -1;
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	long rounds;
	if (parse_rounds(argc, argv, &rounds) != 0) {
		fprintf(stderr, "usage: s-xmm [ROUNDS]   (1..1000000)\n");
		return 2;
	}
	double p8 = 0, fs = 0, vs = 0, mx = 0;
	long double ld = 0;
	v2d vm = {0, 0};
	struct pair pr = {0, 0};
	long picks = 0, mn = 0;
	for (long i = 0; i < rounds; i++) {
		double x = (double)i * 0.001 + 0.5;
		p8 += poly8(x, x + 1, x * 2, 0.75, -x, 1.25, x * x, 0.5);
		v2d a = {x, -x}, b = {2.0, x * 0.5}, c = {p8 * 1e-9, 1.0};
		vm += vmix(a, b, c);
		struct pair q = pair_make(x, pr.y * 1e-6 + 0.25);
		pr.x += q.x;
		pr.y += q.y;
		fs += fsum((float)x, 1.5f, (float)(i & 7));
		vs += vsum(4, x, 2.0, -x, 0.125);
		ld += ld_scale((long double)x, (int)(i % 11) + 1);
		mx += mixed((int)i, x, -i, 0.5f, (unsigned)i * 3u, x * 0.01);
		struct ipair dm = divmod(i * 7919 + 13, (i & 15) + 3);
		mn += dm.q * 3 + dm.r;
		mn += many(i, i + 1, -i, i * 2, 7, i & 3, i ^ 5, x, x + 1, x + 2, x + 3, -x, x * 0.5, 0.25, 1.0 / (x + 1), x * x);

		long j = i & 31, k = (i * 7) & 31;
		picks += pick_lt(j, k) + pick_lt(k, j);
		picks += pick_below((unsigned long)j, (unsigned long)k) + pick_below((unsigned long)-j, 3);
		picks += pick_eq(j, k & 15) + pick_eq(j, j);
		picks += pick_ovf(0x7fffffffffffffffL - j, k) + pick_ovf(j, k);
		double nan = (double)(i & 1) == 1.0 ? __builtin_nan("") : x;
		picks += pick_nan(nan, j) + pick_nan(x, k);
		picks += pick_sign(j, k) + pick_sign(-j - 1, -k);
	}
	printf("poly8 %a\n", p8);
	printf("vmix %a %a\n", vm[0], vm[1]);
	printf("pair %a %a\n", pr.x, pr.y);
	printf("fsum %a\n", fs);
	printf("vsum %a\n", vs);
	printf("ld_scale %La\n", ld);
	printf("mixed %a\n", mx);
	printf("many %ld\n", mn);
	printf("picks %ld t_pos %ld t_neg %ld\n", picks, n_pos, n_neg);
	v2d v0 = {1.5, -0.25};
	printf("descend %a\n", descend(3000, 0.0, v0));

	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx")) {
		mixbits = 1469598103934665603ull;
		for (long i = 0; i < rounds; i++)
			avx_round((int)i);
		printf("avx %016llx\n", mixbits);
	} else {
		printf("avx skipped\n");
	}
	if (__builtin_cpu_supports("avx512f")) {
		mixbits = 1469598103934665603ull;
		for (long i = 0; i < rounds; i++)
			avx512_round((int)i);
		printf("avx512 %016llx\n", mixbits);
	} else {
		printf("avx512 skipped\n");
	}
	printf("done\n");
	return 0;
}
