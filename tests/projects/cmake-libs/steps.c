/* Static library: linked into the executable, so traced. */
int step_square(int x)
{
	return x * x;
}

int step_sum(int n)
{
	int s = 0;
	for (int i = 1; i <= n; i++)
		s += step_square(i);
	return s;
}
