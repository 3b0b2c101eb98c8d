/* Second translation unit of the C test program. */
__attribute__((noinline)) static int helper(int x) /* @line helper.other */
{
	return x - 7;
}

__attribute__((noinline)) int other_tu_entry(int x)
{
	return helper(x) * 2;
}
