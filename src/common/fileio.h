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

#endif
