/*
 * units.h - durations and sizes as users write them.
 *
 * Durations: a decimal number with a unit: ns, us (or µs), ms, s, m, h,
 * e.g. "10s", "1.5m", "250ms".  A bare number is refused: the unit is
 * required so that "100" is never guessed.
 * Sizes: a decimal number with B, KiB, MiB, GiB, TiB (powers of 1024) or
 * KB, MB, GB, TB (powers of 1000), e.g. "64MiB", "1.5GiB".
 * Both return 0 and the value, or -1 with a one-line reason in err.
 */
#ifndef XL_UNITS_H
#define XL_UNITS_H

#include <stddef.h>
#include <stdint.h>

int xl_parse_duration(const char *s, uint64_t *ns, char *err, size_t errlen);
int xl_parse_size(const char *s, uint64_t *bytes, char *err, size_t errlen);

/* A whole decimal number from min to max (no sign but '-', no blanks, no
 * suffix): 0 and the value, or -1.  The one integer parser of command
 * lines (options.h's XL_OPT_INT, the build's -jN). */
int xl_parse_long(const char *s, long min, long max, long *out);

/* Human-readable forms for messages and text reports. */
void xl_fmt_duration(int64_t ns, char *buf, size_t len);
void xl_fmt_size(int64_t bytes, char *buf, size_t len);

/* CLOCK_MONOTONIC in nanoseconds: the start and end of a duration to show. */
int64_t xl_now_ns(void);

#endif
