/*
 * s-returns.c - return values in every register class an XRay exit sled
 * can find them in (the sled replaces `ret`, so they are live there).
 *
 * Usage:   s-returns [N]          (N = 0..1000000, default 100)
 * Stdout:  one line per function, "name value" with floating-point values
 *          in %La / %a (exact hex) and integers in hex, then "rounds=N".
 *          The output depends only on N; an instrumented build, captured
 *          or not, must print exactly what the plain build prints.
 * Exit:    0 (2 for a bad argument)
 *
 * Shapes (x86-64 System V; tests/e2e/t1340 checks them in the disassembly
 * of each build):
 *   ld_scale   long double in x87 st(0)
 *   cld_turn   _Complex long double in st(0) and st(1)
 *   ld_tail    tail call to ld_scale with its long double argument in the
 *              caller's incoming stack slot (stack arguments live at the
 *              tail sled; at -O0 an ordinary call)
 *   i128_mul   __int128 in rax:rdx
 *   u128_mix   unsigned __int128 in rax:rdx
 *   pair_make  struct { long, long } in rax:rdx
 *   vec2_make  struct { double, double } in xmm0:xmm1
 *   cd_make    _Complex double in xmm0:xmm1
 *   quad_make  struct { float x4 } in xmm0:xmm1 (two floats each)
 *   mixed_make struct { long, double } in rax and xmm0
 *
 * Calls per function (debug and release alike; N = 100 in parentheses):
 *   main 1; ld_scale 2N (200: N from main, N through ld_tail); every other
 *   function above N (100).
 * Paths: main > f for every f; at -O0 ld_tail > ld_scale (N), at -O3
 * ld_tail ends with a TAIL exit and those N calls of ld_scale appear
 * under main (main > ld_scale 2N).
 */
#include <complex.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

#define INLINE static inline __attribute__((always_inline))

/* CMPLX/CMPLXL, which glibc's <complex.h> defines for gcc only */
INLINE _Complex long double make_cld(long double re, long double im)
{
	_Complex long double z;
	__real__ z = re;
	__imag__ z = im;
	return z;
}

INLINE _Complex double make_cd(double re, double im)
{
	_Complex double z;
	__real__ z = re;
	__imag__ z = im;
	return z;
}

struct pair {
	long lo, hi;
};
struct vec2 {
	double x, y;
};
struct quad {
	float a, b, c, d;
};
struct mixed {
	long n;
	double d;
};

static NOINLINE long double ld_scale(long double x, long k)
{
	BARRIER(k);
	return x * (long double)k + 0.125L;
}

static NOINLINE long double ld_tail(long double x, long k)
{
	return ld_scale(x, k + 1);     /* x stays in its stack slot */
}

static NOINLINE _Complex long double cld_turn(_Complex long double z, long k)
{
	BARRIER(k);
	long double re = creall(z), im = cimagl(z), t = (long double)k / 3.0L;
	return make_cld(re * t - im, im * t + re);
}

static NOINLINE __int128 i128_mul(long a, long b)
{
	BARRIER(a);
	return (__int128)a * b - 1;
}

static NOINLINE unsigned __int128 u128_mix(unsigned long a, unsigned long b)
{
	BARRIER(a);
	return ((unsigned __int128)a << 64 | b) * 0x9e3779b97f4a7c15ull;
}

static NOINLINE struct pair pair_make(long a, long b)
{
	BARRIER(a);
	return (struct pair){a * 3 + b, b - a};
}

static NOINLINE struct vec2 vec2_make(double x, double y)
{
	return (struct vec2){x * 0.5 + y, y * 1.5 - x};
}

static NOINLINE _Complex double cd_make(double re, double im)
{
	return make_cd(re - im * 0.25, im + re * 0.75);
}

static NOINLINE struct quad quad_make(float a, float b)
{
	return (struct quad){a + b, a - b, a * b, b * 0.5f - a};
}

static NOINLINE struct mixed mixed_make(long n, double d)
{
	BARRIER(n);
	return (struct mixed){n * 7 - 3, d * 0.375 + (double)n};
}

INLINE unsigned long hi64(unsigned __int128 v)
{
	return (unsigned long)(v >> 64);
}

int main(int argc, char **argv)
{
	long n = 100;
	if (argc > 1) {
		char *end;
		n = strtol(argv[1], &end, 10);
		if (end == argv[1] || *end != '\0' || n < 0 || n > 1000000) {
			fprintf(stderr, "usage: s-returns [N]   (N = 0..1000000)\n");
			return 2;
		}
	}
	long double ld = 0, lt = 0;
	_Complex long double cz = make_cld(1.0L, -0.5L);
	unsigned __int128 i128 = 0, u128 = 0;
	struct pair pr = {0, 0};
	struct vec2 v2 = {0, 0};
	_Complex double cd = 0;
	struct quad q = {0, 0, 0, 0};
	struct mixed mx = {0, 0};
	for (long i = 0; i < n; i++) {
		long k = i % 9 - 4;
		ld = ld / 2 + ld_scale((long double)i / 7.0L, k);
		lt = lt / 2 + ld_tail((long double)i / 5.0L, k);
		_Complex long double t = cld_turn(cz, k);
		cz = make_cld(creall(t) / 4.0L + 0.5L, cimagl(t) / 4.0L - 0.25L);
		i128 = i128 * 31 + (unsigned __int128)i128_mul(i * 0x123456789L - 77, i - 50);
		u128 ^= u128_mix((unsigned long)i * 0xabcdef12345ul, (unsigned long)(i + 3));
		struct pair p = pair_make(i, 1000 - i);
		pr.lo = pr.lo * 3 + p.lo;
		pr.hi = pr.hi * 5 + p.hi;
		struct vec2 v = vec2_make((double)i, v2.y / 8 + 1.0);
		v2.x = v2.x / 4 + v.x;
		v2.y = v.y;
		_Complex double c = cd_make((double)i / 3.0, creal(cd) / 16.0);
		cd = make_cd(creal(c), cimag(cd) / 2 + cimag(c));
		struct quad qq = quad_make((float)i, q.d / 16.0f + 1.0f);
		q = (struct quad){q.a / 2 + qq.a, q.b / 2 + qq.b, q.c / 2 + qq.c, qq.d};
		struct mixed m = mixed_make(i, mx.d / 4);
		mx.n = mx.n * 3 + m.n;
		mx.d = m.d;
	}
	printf("ld_scale %La\n", ld);
	printf("ld_tail %La\n", lt);
	printf("cld_turn %La %La\n", creall(cz), cimagl(cz));
	printf("i128_mul %016lx%016lx\n", hi64(i128), (unsigned long)i128);
	printf("u128_mix %016lx%016lx\n", hi64(u128), (unsigned long)u128);
	printf("pair_make %lx %lx\n", (unsigned long)pr.lo, (unsigned long)pr.hi);
	printf("vec2_make %a %a\n", v2.x, v2.y);
	printf("cd_make %a %a\n", creal(cd), cimag(cd));
	printf("quad_make %a %a %a %a\n", (double)q.a, (double)q.b, (double)q.c, (double)q.d);
	printf("mixed_make %lx %a\n", (unsigned long)mx.n, mx.d);
	printf("rounds=%ld\n", n);
	return 0;
}
