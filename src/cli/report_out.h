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

/* Open path in the user's browser unless no_open is set, CI is set or
 * there is no display.  Never blocks, never fails: a missing opener is a
 * note.  Returns 1 when a browser was started. */
int xl_open_browser(const char *path, int no_open);

#endif
