/*
 * captures.h - loading captures for the commands that read them (`profile
 * report|export|diff`, `pgo evaluate`), and writing a diff.  Failures print
 * one line and return an exit code (exitcode.h).
 */
#ifndef XL_CAPTURES_H
#define XL_CAPTURES_H

struct xl_model;
struct xl_cap_header;
struct xl_diff;
struct xl_diff_side;
struct xl_diff_opts;

/* Open dir/capture.xlc (never through a link, never blocking on a FIFO;
 * flags: O_RDONLY or O_RDWR) and read its header into *h.  Returns the
 * descriptor when it is an exaloop capture (its magic), else -1. */
int xl_cap_header_open(const char *dir, int flags, struct xl_cap_header *h);

/* Load the capture directory dir.  Returns 0, or an exit code. */
int xl_capture_load(const char *dir, struct xl_model **m);
/* The same for one process of the capture's tree (pid < 0: all); an
 * unknown pid is a usage error (XL_EXIT_USAGE). */
int xl_capture_load_process(const char *dir, long pid, struct xl_model **m);

/* One side of a diff: the capture dir, or every capture directly inside
 * dir (runs of one program, in name order).  Returns 0, or an exit code.
 * The side owns its models; release with xl_diff_side_release(). */
int xl_diff_side_load(const char *dir, struct xl_diff_side *s);
void xl_diff_side_release(struct xl_diff_side *s);

/* Write a diff as "text", "json" or "html" to path ("-": stdout),
 * atomically.  Returns 0, or -1 after printing why. */
int xl_diff_write(const struct xl_diff *d, const struct xl_diff_opts *o, const char *format, const char *path);

#endif
