/* XRay symbolization test program (C).  Lines marked "@line NAME" are the
 * declaration lines the test expects for NAME. */
#include <stdio.h>
#include <stdlib.h>

int other_tu_entry(int x);

/* Same name as a static function in sym_c_other.c. */
__attribute__((noinline)) static int helper(int x) /* @line helper.main */
{
	return x * 3 + 1;
}

__attribute__((noinline)) int xl_known_add(int a, int b) /* @line xl_known_add */
{
	return a + b;
}

__attribute__((noinline)) static int recurse(int n)
{
	return n <= 0 ? 0 : n + recurse(n - 1);
}

__attribute__((noinline)) void tail_caller(int *out, int v)
{
	*out = xl_known_add(v, 2);
}

int main(int argc, char **argv)
{
	int v = 0;
	tail_caller(&v, argc);
	int s = helper(argc) + recurse(argc + (argv[0] != NULL)) + other_tu_entry(v);
	printf("%d\n", s);
	return s == 12345 ? 1 : 0;
}
