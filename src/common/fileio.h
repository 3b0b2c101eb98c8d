/*
 * fileio.h - opening files that a capture directory or a user names,
 * without trusting what they are.
 *
 * Reading: a FIFO or a device put where a capture, symbols.json or run.json
 * should be must not hang exaloop (open() of a FIFO waits for a writer,
 * /dev/zero never ends), so files are opened O_NONBLOCK and refused unless
 * fstat says they are regular.
 *
 * Writing: temporaries are created O_CREAT|O_EXCL with a random name in the
 * destination's directory (mkostemp), never by a name someone could plant a
 * symbolic link at, then renamed over the destination.
 */
#ifndef XL_FILEIO_H
#define XL_FILEIO_H

#include <stddef.h>
#include <sys/types.h>

/* Open path for reading, only if it is a regular file.  Returns the
 * descriptor (close-on-exec, blocking again), or -1 with errno (EINVAL for
 * "not a regular file"). */
int xl_open_regular(const char *path);

/* Create a new temporary file beside path ("<path>.tmp.XXXXXX", mode 0666
 * minus the umask), its name in tmp.  Returns the descriptor or -1 with
 * errno (ENAMETOOLONG when tmp is too small). */
int xl_create_temp_beside(const char *path, char *tmp, size_t len);

/* Create the directory path and any missing parents (mode minus the umask
 * for each one created); existing ones are fine.  0, or -1 with errno. */
int xl_mkdirs(const char *path, mode_t mode);

/* exaloop's own temporaries (a build's output, logs, lists for the
 * compiler): private, under $TMPDIR like the compiler's own temporaries (so
 * that a test, or a user, can see that an interrupted command leaves
 * nothing behind), or /tmp when $TMPDIR is unset or not an absolute path.
 * Named exaloop-<what>-XXXXXX; the name goes into path.  The caller removes
 * them.
 *
 * A new directory (mode 0700): 0, or -1 with errno (ENAMETOOLONG when path
 * is too small for the name). */
int xl_make_temp_dir(const char *what, char *path, size_t len);
/* A new empty file (mode 0600): its descriptor (close-on-exec), or -1 with
 * errno. */
int xl_make_temp_file(const char *what, char *path, size_t len);

/* Process pid's state letter (R, S, T, Z, ...) and start time (clock
 * ticks after boot) from /proc/PID/stat: 0, or -1 when it is gone or /proc
 * does not say. */
int xl_proc_stat(long pid, char *state, unsigned long long *start_ticks);

#endif
