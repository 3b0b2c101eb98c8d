/* Shared library: clang 14's XRay cannot patch it, so not traced. */
int shape_cube(int x)
{
	return x * x * x;
}

int shape_volume(int n)
{
	int v = 0;
	for (int i = 0; i < n; i++)
		v += shape_cube(i);
	return v;
}
