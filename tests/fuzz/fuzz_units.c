/*
 * fuzz_units.c - durations and sizes as users write them (units.h):
 * parse the input as both, check that an error comes with a one-line
 * message and a success with a value that formats back; format the input's
 * first 8 bytes as a duration and a size.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "units.h"

static void one_line(const char *err, size_t len)
{
	if (!memchr(err, 0, len) || !err[0] || strchr(err, '\n')) {
		fprintf(stderr, "fuzz: bad error message\n");
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	char err[256], buf[64];
	uint64_t v = 0;
	memset(err, 'x', sizeof(err));
	if (xl_parse_duration(s, &v, err, sizeof(err)) == 0)
		xl_fmt_duration(v > INT64_MAX ? INT64_MAX : (int64_t)v, buf, sizeof(buf));
	else
		one_line(err, sizeof(err));
	memset(err, 'x', sizeof(err));
	if (xl_parse_size(s, &v, err, sizeof(err)) == 0)
		xl_fmt_size(v > INT64_MAX ? INT64_MAX : (int64_t)v, buf, sizeof(buf));
	else
		one_line(err, sizeof(err));
	/* A tiny buffer must not overflow either. */
	char tiny[4];
	xl_parse_size(s, &v, tiny, sizeof(tiny));
	if (size >= 8) {
		int64_t x;
		memcpy(&x, data, 8);
		xl_fmt_duration(x, buf, sizeof(buf));
		xl_fmt_size(x, buf, sizeof(buf));
	}
	free(s);
	return 0;
}
