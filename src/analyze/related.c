/*
 * related.c - which process a capture belongs to, and the captures of the
 * same run found beside it.
 *
 * A capture directory holds the capture of the process exaloop started.
 * Inside it the runtime makes one subdirectory per further capture of that
 * run (xl_capture.h): exec-<n>/ for the n-th image the process exec'd,
 * child-<pid>/ for a forked child that ran traced code.  The header of each
 * says its pid, parent pid, image number and whether it is a forked child;
 * this file lists the subdirectories that hold a capture, with those facts,
 * so the report of the top capture can say which processes and images
 * exist, and a subcapture read on its own can name its parent.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze_internal.h"
#include "xl_array.h"

int xl_related_peek(const char *dir, const char *name, struct xl_cap_header *h)
{
	char path[4096];
	if ((size_t)snprintf(path, sizeof(path), "%s/%s/%s", dir, name, XL_CAP_FILE) >= sizeof(path))
		return -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return -1;
	struct stat st;
	int ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && pread(fd, h, sizeof(*h), 0) == (ssize_t)sizeof(*h) &&
		 memcmp(h->magic, XL_CAP_MAGIC, 8) == 0;
	close(fd);
	return ok ? 0 : -1;
}

static int cmp_related(const void *a, const void *b)
{
	const struct xl_related *x = a, *y = b;
	if (x->fork_child != y->fork_child)
		return x->fork_child ? 1 : -1; /* exec'd images first */
	if (x->image != y->image)
		return x->image > y->image ? 1 : -1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

int xl_related_scan(struct xl_model *m, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return XL_OK;
	struct dirent *e;
	size_t cap = 0;
	while ((e = readdir(d)) != NULL) {
		int exec = strncmp(e->d_name, "exec-", 5) == 0, child = strncmp(e->d_name, "child-", 6) == 0;
		struct xl_cap_header h;
		if ((!exec && !child) || strlen(e->d_name) >= sizeof(m->related->dir) ||
		    xl_related_peek(dir, e->d_name, &h) != 0)
			continue;
		if (xl_grow((void **)&m->related, &cap, m->nrelated + 1, sizeof(*m->related))) {
			closedir(d);
			return XL_ENOMEM;
		}
		struct xl_related *r = &m->related[m->nrelated];
		memset(r, 0, sizeof(*r));
		memcpy(r->dir, e->d_name, strlen(e->d_name) + 1);
		r->pid = h.pid;
		r->ppid = h.ppid;
		r->image = h.image;
		r->fork_child = h.fork_child;
		r->finalized = h.state == XL_STATE_FINALIZED;
		r->end_reason = h.end_reason;
		m->nrelated++;
	}
	closedir(d);
	if (m->nrelated > 1)
		qsort(m->related, m->nrelated, sizeof(*m->related), cmp_related);
	return XL_OK;
}
