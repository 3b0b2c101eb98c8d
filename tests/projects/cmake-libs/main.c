/*
 * Known counts: main 1, round 7, step_sum 7, step_square 1+2+...+7 = 28
 * (static library); shape_volume 7 and shape_cube 1+2+...+7 = 28 calls
 * run in the shared library, which is not traced.
 */
#include <stdio.h>

int step_sum(int n);
int shape_volume(int n);

static int __attribute__((noinline)) round_(int i)
{
	return step_sum(i) + shape_volume(i);
}

int main(void)
{
	long total = 0;
	for (int i = 1; i <= 7; i++)
		total += round_(i);
	printf("total %ld\n", total);
	return 0;
}
