/*
 * report_out.c - outputs to files and the browser opener.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "fileio.h"
#include "msg.h"
#include "report_out.h"
#include "process.h"

/* An output named *.gz is written gzip-compressed (Perfetto and
 * chrome://tracing open a .json.gz trace as it is): the emitter writes
 * into a stdio stream whose writes go through zlib into f's descriptor.
 * A format that is gzip itself (pprof) is written as it is. */
static int is_gz(const char *path)
{
	size_t n = strlen(path);
	return n > 3 && strcmp(path + n - 3, ".gz") == 0;
}

static ssize_t gz_write(void *z, const char *buf, size_t n)
{
	if (n == 0)
		return 0;
	int w = gzwrite(z, buf, (unsigned)(n > 1u << 30 ? 1u << 30 : n));
	if (w <= 0) {
		errno = errno ? errno : EIO;
		return -1;
	}
	return w;
}

static int gz_close(void *z)
{
	return gzclose(z) == Z_OK ? 0 : -1;
}

/* Run fn into f (through gzip when gz) and close it; 0, or -1 with *e. */
static int fill_close(FILE *f, int (*fn)(FILE *f, const void *arg), const void *arg, int gz, int *e)
{
	static char buf[1 << 16];
	FILE *out = f;
	if (gz) {
		int d = dup(fileno(f));
		gzFile z = d >= 0 ? gzdopen(d, "wb1") : NULL;
		if (!z && d >= 0)
			close(d);
		out = z ? fopencookie(z, "w", (cookie_io_functions_t){.write = gz_write, .close = gz_close}) : NULL;
		if (!out) {
			*e = errno ? errno : ENOMEM;
			if (z)
				gzclose(z);
			fclose(f);
			return -1;
		}
	}
	setvbuf(out, buf, _IOFBF, sizeof(buf));
	int rc = fn(out, arg);
	*e = errno;
	if (fflush(out) != 0 || ferror(out))
		rc = -1, *e = errno;
	if (out != f && fclose(out) != 0 && rc == 0) /* gzclose: the stream's end */
		rc = -1, *e = errno;
	if (fflush(f) != 0 && rc == 0)
		rc = -1, *e = errno;
	if (fsync(fileno(f)) != 0 && errno != EINVAL && errno != EROFS && rc == 0)
		rc = -1, *e = errno;
	if (fclose(f) != 0 && rc == 0)
		rc = -1, *e = errno;
	return rc;
}

/* Write into an existing file that is not ours to replace (a device, a
 * FIFO, a link such as /dev/stdout): opened as it is, never created. */
static int write_in_place(const char *path, int (*fn)(FILE *f, const void *arg), const void *arg, int gz)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		xl_error("cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		xl_error("cannot write '%s': it is a directory", path);
		return -1;
	}
	int fd = open(path, O_WRONLY | O_CLOEXEC | (S_ISREG(st.st_mode) ? O_TRUNC : 0));
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	int e = errno;
	if (!f) {
		if (fd >= 0)
			close(fd);
		xl_error("cannot write '%s': %s", path, strerror(e));
		return -1;
	}
	if (fill_close(f, fn, arg, gz, &e) != 0) {
		xl_error("cannot write '%s': %s", path, strerror(e ? e : EIO));
		return -1;
	}
	return 0;
}

/* gz: compress (the path ends in .gz and the output is not gzip already). */
static int write_to(const char *path, const char *what, int (*fn)(FILE *f, const void *arg), const void *arg, int named,
		    int gz)
{
	if (strcmp(path, "-") == 0) {
		int rc = fn(stdout, arg);
		if (fflush(stdout) != 0 || rc != 0) {
			xl_error("cannot write %s output to stdout: %s", what, strerror(errno));
			return -1;
		}
		return 0;
	}
	struct stat st;
	if (named && lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return write_in_place(path, fn, arg, gz);
	/* A new temporary beside the output (random name, O_EXCL: a planted
	 * link is never followed), renamed over it once complete. */
	char tmp[PATH_MAX];
	int fd = xl_create_temp_beside(path, tmp, sizeof(tmp));
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		int e = errno;
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		xl_error("cannot create '%s': %s", path, strerror(e));
		return -1;
	}
	int e;
	if (fill_close(f, fn, arg, gz, &e) != 0) {
		unlink(tmp);
		xl_error("cannot write '%s': %s", path, strerror(e ? e : EIO));
		return -1;
	}
	if (rename(tmp, path) != 0) {
		e = errno;
		unlink(tmp);
		xl_error("cannot write '%s': %s", path, strerror(e));
		return -1;
	}
	return 0;
}

int xl_write_file(const char *path, const char *what, int (*fn)(FILE *f, const void *arg), const void *arg)
{
	return write_to(path, what, fn, arg, 0, is_gz(path));
}

struct model_out {
	xl_emit_fn fn;
	const struct xl_model *m;
	const struct xl_emit_opts *o;
};

static int write_model(FILE *f, const void *arg)
{
	const struct model_out *x = arg;
	return x->fn(x->m, f, x->o);
}

int xl_write_output(const struct xl_model *m, const char *format, const struct xl_emit_opts *o, const char *path,
		    int named)
{
	xl_emit_fn fn = xl_emitter(format);
	if (!fn) {
		xl_error("unknown format '%s' (use %s)", format, xl_emitter_names());
		return -1;
	}
	struct model_out x = {fn, m, o};
	return write_to(path, format, write_model, &x, named, is_gz(path) && !xl_emit_gzipped(format, o));
}

int xl_can_open_browser(int no_open)
{
	return !no_open && !getenv("CI") && (getenv("DISPLAY") || getenv("WAYLAND_DISPLAY"));
}

int xl_open_browser(const char *path, int no_open)
{
	if (!xl_can_open_browser(no_open))
		return 0;
	const char *opener = getenv("EXALOOP_BROWSER");
	if (!opener || !*opener)
		opener = "xdg-open";
	/* Detached: the browser is never our child, so we never wait for it. */
	char *const argv[] = {(char *)opener, (char *)path, NULL};
	struct xl_process br = {.argv = argv, .stdio = XL_STDIO_DETACHED};
	if (xl_process_start(&br) != 0) {
		xl_process_end(&br);
		xl_note("no browser opener '%s'; open the report yourself", opener);
		return 0;
	}
	xl_process_end(&br);
	return 1;
}
