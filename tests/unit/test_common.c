/* Unit tests: the error vocabulary and the array helpers (src/common/xl_errors.c, xl_array.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "xl_array.h"
#include "xl_errors.h"

static void every_error_has_its_own_message(void **state)
{
	(void)state;
	static const int codes[] = {
#define CODE(name, value, message) XL_##name,
		XL_ERRORS(CODE)
#undef CODE
	};
	size_t n = sizeof(codes) / sizeof(codes[0]);
	assert_int_equal(XL_OK, 0);
	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			assert_true(codes[i] < 0);
		const char *m = xl_error_message(codes[i]);
		assert_string_not_equal(m, "unknown error");
		for (size_t k = 0; k < i; k++) {
			assert_int_not_equal(codes[i], codes[k]);
			assert_string_not_equal(m, xl_error_message(codes[k]));
		}
	}
	assert_string_equal(xl_error_message(12345), "unknown error");
	assert_string_equal(xl_error_message(XL_ENOMEM), "out of memory");
}

static void grow_doubles_and_refuses_overflow(void **state)
{
	(void)state;
	int *a = NULL;
	size_t cap = 0;
	assert_int_equal(xl_grow((void **)&a, &cap, 1, sizeof(*a)), 0);
	assert_true(cap >= 1);
	size_t first = cap;
	for (int i = 0; i < 1000; i++) {
		assert_int_equal(xl_grow((void **)&a, &cap, (size_t)i + 1, sizeof(*a)), 0);
		a[i] = i;
	}
	assert_true(cap >= 1000 && cap <= 2048 && cap % first == 0);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(a[i], i);
	int *keep = a;
	assert_int_equal(xl_grow((void **)&a, &cap, SIZE_MAX / 2, sizeof(*a)), -1);
	assert_ptr_equal(a, keep);
	free(a);
}

static int cmp_int(const void *key, const void *elem)
{
	int k = *(const int *)key, e = *(const int *)elem;
	return k < e ? -1 : k > e;
}

static void lower_bound_finds_the_first_not_below(void **state)
{
	(void)state;
	const int v[] = {1, 3, 3, 3, 7, 9};
	size_t n = sizeof(v) / sizeof(v[0]);
	const struct {
		int key;
		size_t at;
	} cases[] = {{0, 0}, {1, 0}, {2, 1}, {3, 1}, {4, 4}, {7, 4}, {8, 5}, {9, 5}, {10, 6}};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(xl_lower_bound(v, n, sizeof(v[0]), &cases[i].key, cmp_int), cases[i].at);
	int key = 5;
	assert_int_equal(xl_lower_bound(v, 0, sizeof(v[0]), &key, cmp_int), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_error_has_its_own_message),
		cmocka_unit_test(grow_doubles_and_refuses_overflow),
		cmocka_unit_test(lower_bound_finds_the_first_not_below),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
