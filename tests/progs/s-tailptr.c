/*
 * s-tailptr.c - tail calls whose target or arguments live in registers a
 * trampoline might use: the shapes LLVM emits right after XRay's tail sled.
 *
 * Usage:   s-tailptr [N]          (N = 0..1000000, default 100)
 * Stdout:  "compare5 C" "forward6 F" "dispatch D" "vtail V" "vtail_ptr P"
 *          (checksums), then "calls=N".  The output depends only on N; an
 *          instrumented build, captured or not, must print exactly what the
 *          plain build prints.  Default: see tests/progs/README.md.
 * Exit:    0 (2 for a bad argument)
 *
 * Shapes (x86-64, clang 14 at -O2 and -O3; tests/e2e/t1340 checks them in
 * the disassembly of each build):
 *   compare5   5-argument call through a struct's function pointer in tail
 *              position (SQLite's `return pColl->xCmp(pColl->pUser, n1,
 *              z1, n2, z2);`): the argument shuffle uses rax and r9, so the
 *              target sits in r11: `<tail sled>; jmp *%r11`.
 *   forward6   6-argument indirect tail call: every argument register is
 *              taken, the sixth comes from a call (rax), target in r11.
 *   dispatch   tail call through a table of function pointers (target
 *              loaded into a scratch register before the sled).
 *   vtail      direct variadic tail call: `mov $2, %al` (vector-register
 *              count) before the sled, `jmp vsum` after it.
 *   vtail_ptr  indirect variadic tail call with 6 integer arguments, 2
 *              doubles and a seventh argument read from the stack: al is
 *              live, so the target sits in r11.
 * At -O0 none of them is a tail call; the counts are the same.
 *
 * Calls per function (debug and release alike; N = 100 in parentheses):
 *   main 1; compare5 N (100); cmp_fwd ceil(N/2) (50); cmp_rev floor(N/2)
 *   (50); forward6 N (100); salt N (100); mix_e ceil(N/2) (50); mix_f
 *   floor(N/2) (50); dispatch N (100); mix_a, mix_b, mix_c, mix_d: i % 4
 *   == 0, 1, 2, 3 for i < N (25 each); vtail N (100); vsum N (100);
 *   vtail_ptr N (100); vlog N (100).
 * Paths: at -O3 the tail callees appear beside their callers (XRay reports
 * the caller's TAIL exit before the callee's entry): main > cmp_fwd, main >
 * mix_e, ... ; at -O0 below them: main > compare5 > cmp_fwd, ...
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

/* ---- 5 arguments: a collation-style callback ---- */

struct text {
	int n;
	const char *z;
};
typedef long (*cmp_fn)(void *user, int n1, const char *z1, int n2, const char *z2);
struct coll {
	void *user;
	cmp_fn cmp;
};

static inline __attribute__((always_inline)) int sign(int c)
{
	return (c > 0) - (c < 0);
}

static NOINLINE long cmp_fwd(void *user, int n1, const char *z1, int n2, const char *z2)
{
	long w = *(const long *)user;
	int n = n1 < n2 ? n1 : n2;
	int c = sign(memcmp(z1, z2, (size_t)n));
	return w * (c != 0 ? c : n1 - n2) + 3L * n1 + n2;
}

static NOINLINE long cmp_rev(void *user, int n1, const char *z1, int n2, const char *z2)
{
	long w = *(const long *)user;
	int n = n1 < n2 ? n1 : n2;
	int c = sign(memcmp(z2, z1, (size_t)n));
	return w * (c != 0 ? c : n2 - n1) + 5L * n2 - n1;
}

/* External linkage: at -O3 a static compare5 gets its struct arguments
 * promoted to scalars, and the shape is gone. */
long compare5(const struct coll *c, const struct text *a, const struct text *b);
NOINLINE long compare5(const struct coll *c, const struct text *a, const struct text *b)
{
	return c->cmp(c->user, a->n, a->z, b->n, b->z);
}

/* ---- 6 arguments, and a table ---- */

typedef long (*mix_fn)(long, long, long, long, long, long);

#define MIX(name, k1, k2, k3, k4, k5, k6)                                              \
	static NOINLINE long name(long a, long b, long c, long d, long e, long f)      \
	{                                                                              \
		BARRIER(a);                                                            \
		return a * k1 + b * k2 + c * k3 + d * k4 + e * k5 + f * k6;            \
	}
MIX(mix_a, 1, 3, 5, 7, 11, 13)
MIX(mix_b, 2, -3, 5, -7, 11, -13)
MIX(mix_c, 17, 19, -23, 29, -31, 37)
MIX(mix_d, -41, 43, 47, -53, 59, 61)
MIX(mix_e, 67, 71, 73, -79, 83, 89)
MIX(mix_f, 97, -101, 103, 107, -109, 113)

static NOINLINE long salt(long a)
{
	BARRIER(a);
	return a * 31 + 7;
}

static NOINLINE long forward6(mix_fn const *fp, long a, long b, long c, long d, long e)
{
	long x = salt(a);
	return (*fp)(a, b, c, d, e, x);
}

static mix_fn const table[4] = {mix_a, mix_b, mix_c, mix_d};

static NOINLINE long dispatch(long i, long a, long b, long c, long d, long e)
{
	mix_fn const *t = table;
	BARRIER(t);     /* keep the call indirect */
	return t[i & 3](a, b, c, d, e, i);
}

/* ---- variadic ---- */

/* nd doubles, then one long */
static NOINLINE long vsum(int nd, ...)
{
	va_list ap;
	va_start(ap, nd);
	double s = 0;
	for (int i = 0; i < nd; i++)
		s = s * 3 + va_arg(ap, double);
	long k = va_arg(ap, long);
	va_end(ap);
	return (long)(s * 8) + k;
}

static NOINLINE long vtail(long n, double x, double y)
{
	return vsum(2, x, y, n);
}

/* six longs, then `a` doubles */
typedef long (*vlog_fn)(long, long, long, long, long, long, ...);

static NOINLINE long vlog(long a, long b, long c, long d, long e, long f, ...)
{
	va_list ap;
	va_start(ap, f);
	double s = 0;
	for (long i = 0; i < a; i++)
		s = s * 5 + va_arg(ap, double);
	va_end(ap);
	return (long)(s * 4) + b - c + d * 2 - e + f * 3;
}

/* External linkage, as compare5: a static one would have its constant
 * arguments propagated into it. */
long vtail_ptr(vlog_fn const *fp, long b, long c, long d, long e, long f, double x, double y, long g);
NOINLINE long vtail_ptr(vlog_fn const *fp, long b, long c, long d, long e, long f, double x, double y,
			long g)
{
	return (*fp)(2, b + g, c, d, e, f, x, y);
}

int main(int argc, char **argv)
{
	long n = 100;
	if (argc > 1) {
		char *end;
		n = strtol(argv[1], &end, 10);
		if (end == argv[1] || *end != '\0' || n < 0 || n > 1000000) {
			fprintf(stderr, "usage: s-tailptr [N]   (N = 0..1000000)\n");
			return 2;
		}
	}
	static const char *const words[] = {"alpha", "alphabet", "beta", "be", "gamma", "gam", "delta"};
	long w1 = 1000, w2 = -7;
	const struct coll colls[2] = {{&w1, cmp_fwd}, {&w2, cmp_rev}};
	static mix_fn const fps[2] = {mix_e, mix_f};
	static vlog_fn const vfp = vlog;
	long c5 = 0, f6 = 0, dt = 0, vt = 0, vp = 0;
	for (long i = 0; i < n; i++) {
		const char *za = words[i % 7], *zb = words[(i * 3 + 1) % 7];
		struct text a = {(int)strlen(za), za}, b = {(int)strlen(zb), zb};
		c5 = c5 * 3 + compare5(&colls[i & 1], &a, &b);
		c5 %= 1000000007;
		f6 = (f6 * 5 + forward6(&fps[i & 1], i, i + 1, i * 2, 7 - i, i * i)) % 1000000007;
		dt = (dt * 7 + dispatch(i, i * 3, -i, i + 11, i * 5, 2 - i)) % 1000000007;
		vt = (vt * 11 + vtail(i, (double)i * 0.5, 1.0 / (double)(i + 1))) % 1000000007;
		vp = (vp * 13 + vtail_ptr(&vfp, i, i + 2, i * 3, 9 - i, i & 7, (double)i * 0.25, -(double)i,
					  i * 17)) % 1000000007;
	}
	printf("compare5 %ld\nforward6 %ld\ndispatch %ld\nvtail %ld\nvtail_ptr %ld\ncalls=%ld\n", c5, f6, dt,
	       vt, vp, n);
	return 0;
}
