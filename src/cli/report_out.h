/*
 * report_out.h - writing a model to a file in some format, and opening
 * the HTML report in a browser.
 */
#ifndef XL_REPORT_OUT_H
#define XL_REPORT_OUT_H

#include "emit.h"

/* Write m in format to path ("-": stdout).  A regular file (or a new one)
 * is written atomically: a new temporary of a random name beside it,
 * renamed over it.  named: the user named path (-o); then an existing
 * file that is not regular (a device such as /dev/null, a FIFO, a symbolic
 * link such as /dev/stdout) is written in place and never replaced.  A path
 * exaloop chose itself (a capture's index.html) is always replaced, so that
 * a link planted there is not followed.  Returns 0, or -1 after printing a
 * one-line error. */
int xl_write_output(const struct xl_model *m, const char *format, const struct xl_emit_opts *o, const char *path,
		    int named);

/* The same for any writer: fn writes the whole output to f (what names
 * it in messages); path "-" is stdout; an existing path is always
 * replaced (as for a path exaloop chose). */
int xl_write_file(const char *path, const char *what, int (*fn)(FILE *f, const void *arg), const void *arg);

/* Would xl_open_browser() start a browser (not --no-open, not CI, a
 * display)? */
int xl_can_open_browser(int no_open);

/* Open path in the user's browser unless no_open is set, CI is set or
 * there is no display.  Never blocks, never fails: a missing opener is a
 * note.  Returns 1 when a browser was started. */
int xl_open_browser(const char *path, int no_open);

#endif
