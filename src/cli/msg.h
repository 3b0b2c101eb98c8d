/*
 * msg.h - exaloop's own messages, all on stderr, one line each:
 *   exaloop: error: cannot open capture 'x': No such file or directory
 *   hint: run 'exaloop --profile run app.c' to make one
 * Lowercase, no trailing period, subject in quotes, what failed first.
 * A message stays one line whatever it quotes: control characters in it
 * (a newline in a path) are written \xNN.
 */
#ifndef XL_MSG_H
#define XL_MSG_H

#include "xl_msgs.h"

#define XL_PRINTF(a, b) __attribute__((format(printf, a, b)))

void xl_error(const char *fmt, ...) XL_PRINTF(1, 2);
void xl_warn(const char *fmt, ...) XL_PRINTF(1, 2);
void xl_note(const char *fmt, ...) XL_PRINTF(1, 2);
void xl_hint(const char *fmt, ...) XL_PRINTF(1, 2);
/* Suppress notes and warnings (errors still print): for doctor's probes. */
void xl_msg_quiet(int quiet);

/* The sink for library steps' messages (xl_msgs.h): each level printed as
 * above (XL_MSG_TEXT, another program's output, as it is). */
extern const struct xl_msgs xl_stderr_msgs;

#endif
