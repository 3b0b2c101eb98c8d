/*
 * units.c - parse and format durations and sizes (see units.h).
 *
 * Parsing is exact integer arithmetic (128-bit intermediate), so "0.1s" is
 * 100000000 ns, not 99999999, and overflow is detected instead of wrapping.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "units.h"
#include "xl_array.h"

struct unit {
	const char *name;
	uint64_t mult;
};

static const struct unit duration_units[] = {
	{"ns", 1},
	{"us", 1000},
	{"\xc2\xb5s", 1000},
	{"ms", 1000000},
	{"s", 1000000000ull},
	{"m", 60000000000ull},
	{"h", 3600000000000ull},
};

static const struct unit size_units[] = {
	{"B", 1},     {"KiB", 1ull << 10}, {"MiB", 1ull << 20},   {"GiB", 1ull << 30},      {"TiB", 1ull << 40},
	{"KB", 1000}, {"MB", 1000000},     {"GB", 1000000000ull}, {"TB", 1000000000000ull},
};

/* User text quoted in a message: control characters escaped as \xNN and
 * long values cut with "...", so that a message stays one short line.
 * (Fuzzing: the value "\n3#K" gave a two-line error message.) */
static const char *quote(const char *s, char *buf, size_t len)
{
	size_t o = 0;
	for (; *s && o + 8 < len; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 0x20 || c == 0x7f)
			o += (size_t)snprintf(buf + o, len - o, "\\x%02x", c);
		else
			buf[o++] = (char)c;
	}
	if (*s)
		snprintf(buf + o, len - o, "...");
	else
		buf[o] = 0;
	return buf;
}

static int parse(const char *s, const struct unit *units, size_t nunits, const char *what, const char *example,
		 uint64_t *out, char *err, size_t errlen)
{
	char qs[72], qu[40];
	const char *p = s;
	unsigned __int128 ip = 0, fp = 0, fscale = 1;
	int digits = 0;
	while (*p >= '0' && *p <= '9') {
		ip = ip * 10 + (unsigned)(*p++ - '0');
		if (ip > UINT64_MAX)
			goto range;
		digits++;
	}
	if (*p == '.') {
		p++;
		while (*p >= '0' && *p <= '9') {
			if (fscale < 1000000000000000000ull) { /* keep 18 decimals, ignore the rest */
				fp = fp * 10 + (unsigned)(*p - '0');
				fscale *= 10;
			}
			p++;
			digits++;
		}
	}
	if (!digits) {
		snprintf(err, errlen, "invalid %s '%s': expected a number with a unit, e.g. %s", what,
			 quote(s, qs, sizeof(qs)), example);
		return -1;
	}
	for (size_t i = 0; i < nunits; i++) {
		if (strcmp(p, units[i].name) != 0)
			continue;
		unsigned __int128 v = ip * units[i].mult + fp * units[i].mult / fscale;
		if (v > UINT64_MAX)
			goto range;
		*out = (uint64_t)v;
		return 0;
	}
	if (!*p)
		snprintf(err, errlen, "invalid %s '%s': a unit is required, e.g. %s", what, quote(s, qs, sizeof(qs)),
			 example);
	else {
		char list[128] = "";
		for (size_t i = 0; i < nunits; i++) {
			if (units[i].name[0] & 0x80)
				continue;
			strncat(list, i ? ", " : "", sizeof(list) - strlen(list) - 1);
			strncat(list, units[i].name, sizeof(list) - strlen(list) - 1);
		}
		snprintf(err, errlen, "invalid %s '%s': unknown unit '%s' (use %s)", what, quote(s, qs, sizeof(qs)),
			 quote(p, qu, sizeof(qu)), list);
	}
	return -1;
range:
	snprintf(err, errlen, "invalid %s '%s': too large", what, quote(s, qs, sizeof(qs)));
	return -1;
}

int xl_parse_duration(const char *s, uint64_t *ns, char *err, size_t errlen)
{
	return parse(s, duration_units, XL_ARRAY_SIZE(duration_units), "duration", "'10s' or '250ms'", ns, err, errlen);
}

int xl_parse_size(const char *s, uint64_t *bytes, char *err, size_t errlen)
{
	return parse(s, size_units, XL_ARRAY_SIZE(size_units), "size", "'64MiB'", bytes, err, errlen);
}

int xl_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (!isdigit((unsigned char)s[s[0] == '-']) || *end || errno == ERANGE || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

void xl_fmt_duration(int64_t ns, char *buf, size_t len)
{
	double v = (double)ns;
	double a = v < 0 ? -v : v;
	if (a < 1e3)
		snprintf(buf, len, "%lld ns", (long long)ns);
	else if (a < 1e6)
		snprintf(buf, len, "%.1f us", v / 1e3);
	else if (a < 1e9)
		snprintf(buf, len, "%.1f ms", v / 1e6);
	else
		snprintf(buf, len, "%.3f s", v / 1e9);
}

void xl_fmt_size(int64_t bytes, char *buf, size_t len)
{
	double v = (double)bytes;
	double a = v < 0 ? -v : v;
	if (a < 1024)
		snprintf(buf, len, "%lld B", (long long)bytes);
	else if (a < 1024.0 * 1024)
		snprintf(buf, len, "%.1f KiB", v / 1024);
	else if (a < 1024.0 * 1024 * 1024)
		snprintf(buf, len, "%.1f MiB", v / (1024.0 * 1024));
	else
		snprintf(buf, len, "%.2f GiB", v / (1024.0 * 1024 * 1024));
}

int64_t xl_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
