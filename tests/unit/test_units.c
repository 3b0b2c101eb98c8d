/* Unit tests: duration, size and integer parsing (src/common/units.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "units.h"
#include "xl_array.h"

static void durations(void **state)
{
	(void)state;
	char err[256];
	uint64_t v;
	static const struct {
		const char *in;
		uint64_t ns;
	} ok[] = {
		{"10s", 10000000000ull},  {"100ms", 100000000ull},
		{"1.5m", 90000000000ull}, {"0.1s", 100000000ull},
		{"250us", 250000ull},     {"7ns", 7},
		{"2h", 7200000000000ull}, {"0s", 0},
		{".5s", 500000000ull},    {"1.000000001s", 1000000001ull},
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(xl_parse_duration(ok[i].in, &v, err, sizeof(err)), 0);
		assert_int_equal(v, ok[i].ns);
	}
	static const char *const bad[] = {"", "10", "s", "10 s", "10sec", "-1s", "1e3ms", "99999999999999999999h"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(xl_parse_duration(bad[i], &v, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "invalid duration"));
	}
	xl_parse_duration("10", &v, err, sizeof(err));
	assert_non_null(strstr(err, "unit is required"));
	xl_parse_duration("10parsecs", &v, err, sizeof(err));
	assert_non_null(strstr(err, "unknown unit 'parsecs'"));
}

static void sizes(void **state)
{
	(void)state;
	char err[256];
	uint64_t v;
	static const struct {
		const char *in;
		uint64_t b;
	} ok[] = {
		{"64MiB", 64ull << 20}, {"1GiB", 1ull << 30}, {"1.5KiB", 1536},     {"512B", 512},
		{"2MB", 2000000},       {"1KB", 1000},        {"1TiB", 1ull << 40},
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(xl_parse_size(ok[i].in, &v, err, sizeof(err)), 0);
		assert_int_equal(v, ok[i].b);
	}
	static const char *const bad[] = {"64", "64mib", "MiB", "1.5.5MiB", "64 MiB", "99999999999GiB"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(xl_parse_size(bad[i], &v, err, sizeof(err)), -1);
}

static void whole_numbers_in_bounds(void **state)
{
	(void)state;
	long v = 42;
	assert_int_equal(xl_parse_long("7", 1, 1024, &v), 0);
	assert_int_equal(v, 7);
	assert_int_equal(xl_parse_long("1024", 1, 1024, &v), 0);
	assert_int_equal(xl_parse_long("-3", -5, 5, &v), 0);
	assert_int_equal(v, -3);
	assert_int_equal(xl_parse_long("0", 0, 0, &v), 0);
	assert_int_equal(v, 0);
	static const char *const bad[] = {"",   "0",  "1025", "-1",   "+5",  " 5",
					  "5 ", "5x", "x",    "0x10", "1e3", "99999999999999999999999"};
	v = 42;
	for (size_t i = 0; i < XL_ARRAY_SIZE(bad); i++)
		assert_int_equal(xl_parse_long(bad[i], 1, 1024, &v), -1);
	assert_int_equal(v, 42); /* a refused value leaves the destination alone */
	assert_int_equal(xl_parse_long("99999999999999999999999", 0, LONG_MAX, &v), -1);
}

static void formatting(void **state)
{
	(void)state;
	char buf[32];
	xl_fmt_duration(1500, buf, sizeof(buf));
	assert_string_equal(buf, "1.5 us");
	xl_fmt_duration(2500000000ll, buf, sizeof(buf));
	assert_string_equal(buf, "2.500 s");
	xl_fmt_size(3u << 20, buf, sizeof(buf));
	assert_string_equal(buf, "3.0 MiB");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(durations),
		cmocka_unit_test(sizes),
		cmocka_unit_test(whole_numbers_in_bounds),
		cmocka_unit_test(formatting),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
