/*
 * fileio.c - see fileio.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"

int xl_open_regular(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat st;
	int bad = fstat(fd, &st) != 0 ? errno : !S_ISREG(st.st_mode) ? EINVAL : 0;
	if (bad) {
		close(fd);
		errno = bad;
		return -1;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

int xl_mkdirs(const char *path, mode_t mode)
{
	char p[PATH_MAX];
	if ((size_t)snprintf(p, sizeof(p), "%s", path) >= sizeof(p)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		int rc = mkdir(p, mode);
		*s = '/';
		if (rc != 0 && errno != EEXIST)
			return -1;
	}
	return mkdir(p, mode) == 0 || errno == EEXIST ? 0 : -1;
}

int xl_create_temp_beside(const char *path, char *tmp, size_t len)
{
	if ((size_t)snprintf(tmp, len, "%s.tmp.XXXXXX", path) >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -1;
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	return fd;
}

/* The template $TMPDIR/exaloop-<what>-XXXXXX in path.  0, or -1 (ENAMETOOLONG). */
static int temp_name(const char *what, char *path, size_t len)
{
	const char *dir = getenv("TMPDIR");
	if (!dir || dir[0] != '/')
		dir = "/tmp";
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if ((size_t)snprintf(path, len, "%.*s/exaloop-%s-XXXXXX", (int)n, dir, what) >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

int xl_make_temp_dir(const char *what, char *path, size_t len)
{
	return temp_name(what, path, len) == 0 && mkdtemp(path) ? 0 : -1;
}

int xl_make_temp_file(const char *what, char *path, size_t len)
{
	return temp_name(what, path, len) == 0 ? mkostemp(path, O_CLOEXEC) : -1;
}

int xl_proc_stat(long pid, char *state, unsigned long long *start_ticks)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* "pid (comm) state ... starttime": comm may hold spaces and ')' */
	const char *p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu",
			 state, start_ticks) != 2)
		return -1;
	return 0;
}
