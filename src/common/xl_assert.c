/*
 * xl_assert.c - what a failed XL_ASSERT does (xl_assert.h): one line to
 * stderr, then abort, so that a core dump or a debugger shows the caller.
 */
#include "xl_assert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Noreturn void xl_assert_fail(const char *file, int line, const char *cond)
{
	/* CMake passes absolute paths: say src/... as the tree does. */
	const char *in_tree = strstr(file, "/src/");

	if (in_tree)
		file = in_tree + 1;
	fflush(stdout);
	fprintf(stderr, "exaloop: internal error: %s:%d: %s\n", file, line, cond);
	abort();
}
