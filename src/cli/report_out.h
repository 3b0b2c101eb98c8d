/*
 * report_out.h - writing a model to a file in some format, and opening
 * the HTML report in a browser.
 */
#ifndef XL_REPORT_OUT_H
#define XL_REPORT_OUT_H

#include "emit.h"

/* Write atomically (temporary file + rename).  Returns 0, or -1 after
 * printing a one-line error. */
int xl_write_output(const struct xl_model *m, const char *format, const struct xl_emit_opts *o,
		    const char *path);

/* The same for any writer: fn writes the whole output to f (what names
 * it in messages); path "-" is stdout. */
int xl_write_file(const char *path, const char *what, int (*fn)(FILE *f, const void *arg), const void *arg);

/* Would xl_open_browser() start a browser (not --no-open, not CI, a
 * display)? */
int xl_can_open_browser(int no_open);

/* Open path in the user's browser unless no_open is set, CI is set or
 * there is no display.  Never blocks, never fails: a missing opener is a
 * note.  Returns 1 when a browser was started. */
int xl_open_browser(const char *path, int no_open);

#endif
