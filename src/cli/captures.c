/*
 * captures.c - loading captures and the sides of a diff (captures.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze.h"
#include "captures.h"
#include "diff.h"
#include "exaloop/xl_capture.h"
#include "emit_diff.h"
#include "exitcode.h"
#include "msg.h"
#include "report_out.h"

int xl_cap_header_open(const char *dir, int flags, struct xl_cap_header *h)
{
	char path[PATH_MAX + 16];
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, XL_CAP_FILE) >= sizeof(path))
		return -1;
	int fd = open(path, flags | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (pread(fd, h, sizeof(*h), 0) != (ssize_t)sizeof(*h) || memcmp(h->magic, XL_CAP_MAGIC, 8) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int xl_capture_load(const char *dir, struct xl_model **m)
{
	return xl_capture_load_process(dir, -1, m);
}

int xl_capture_load_process(const char *dir, long pid, struct xl_model **m)
{
	char err[512] = "";
	struct stat st;
	if (stat(dir, &st) != 0) {
		xl_error("cannot open capture '%s': %s", dir, strerror(errno));
		return XL_EXIT_CAPTURE;
	}
	if (!S_ISDIR(st.st_mode)) {
		xl_error("'%s' is not a capture directory (expected profiles/capture-...)", dir);
		return XL_EXIT_CAPTURE;
	}
	int rc = xl_model_load_process(dir, pid, m, err, sizeof(err));
	if (rc != XL_OK) {
		xl_error("%s", err[0] ? err : xl_error_message(rc));
		return rc == XL_ENOPROC ? XL_EXIT_USAGE : xl_exit_for(rc, XL_EXIT_CAPTURE);
	}
	return 0;
}

static int is_capture(const char *dir)
{
	char p[PATH_MAX + 16];
	snprintf(p, sizeof(p), "%s/capture.xlc", dir);
	return access(p, F_OK) == 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

void xl_diff_side_release(struct xl_diff_side *s)
{
	for (size_t i = 0; i < s->nruns; i++)
		xl_model_free(s->runs[i]);
	free(s->runs);
	s->runs = NULL;
	s->nruns = 0;
}

/* A run whose own capture lost data (cut short, or threads that could not
 * be read): the first such warning, else NULL.  Not a run that was not
 * finalized (a program that ends with _exit, or is killed, every time
 * still compares), and not a warning of another process of its tree: a
 * forked child that ends with _exit is the common case. */
static const struct xl_warning *data_lost(const struct xl_model *m)
{
	for (size_t i = 0; i < m->nwarnings; i++)
		if ((strcmp(m->warnings[i].kind, "truncated") == 0 ||
		     strcmp(m->warnings[i].kind, "corrupt_threads") == 0) &&
		    m->warnings[i].pid < 0)
			return &m->warnings[i];
	return NULL;
}

/* Each capture's warnings on stderr (the diff's figures come from it); in
 * a directory of runs, those that lost data are left out of the medians
 * (a run cut short would count as one of zeros), and said so.  The
 * side's run count afterwards; 0 when none is left. */
static size_t vet_runs(const char *dir, struct xl_diff_side *s)
{
	size_t kept = 0;
	for (size_t i = 0; i < s->nruns; i++) {
		struct xl_model *m = s->runs[i];
		const struct xl_warning *lost = s->nruns > 1 ? data_lost(m) : NULL;
		if (lost) {
			xl_warn("left out of the medians of '%s': %s (%s)", dir, m->run.capture_dir, lost->message);
			xl_model_free(m);
			continue;
		}
		for (size_t k = 0; k < m->nwarnings; k++)
			xl_warn("%s: %s", m->run.capture_dir, m->warnings[k].message);
		s->runs[kept++] = m;
	}
	s->nruns = kept;
	return kept;
}

int xl_diff_side_load(const char *dir, struct xl_diff_side *s)
{
	memset(s, 0, sizeof(*s));
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || is_capture(dir)) {
		s->runs = calloc(1, sizeof(*s->runs));
		if (!s->runs)
			return XL_EXIT_FAIL;
		int rc = xl_capture_load(dir, &s->runs[0]);
		if (rc) {
			xl_diff_side_release(s);
			return rc;
		}
		s->nruns = 1;
		vet_runs(dir, s);
		return 0;
	}
	struct dirent **names;
	int n = scandir(dir, &names, NULL, by_name);
	if (n < 0) {
		xl_error("cannot read directory '%s': %s", dir, strerror(errno));
		return XL_EXIT_CAPTURE;
	}
	s->runs = calloc((size_t)n + 1, sizeof(*s->runs));
	int rc = s->runs ? 0 : XL_EXIT_FAIL;
	for (int i = 0; i < n; i++) {
		char sub[PATH_MAX];
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", dir, names[i]->d_name) >= sizeof(sub))
			sub[0] = 0;
		if (!rc && names[i]->d_name[0] != '.' && is_capture(sub)) {
			rc = xl_capture_load(sub, &s->runs[s->nruns]);
			if (!rc)
				s->nruns++;
		}
		free(names[i]);
	}
	free(names);
	if (!rc && !s->nruns) {
		xl_error("'%s' holds no capture (expected a profiles/capture-... directory, or a directory of them)",
			 dir);
		rc = XL_EXIT_CAPTURE;
	} else if (!rc && !vet_runs(dir, s)) {
		xl_error("'%s' holds no capture that is whole (each lost data: see the warnings above)", dir);
		rc = XL_EXIT_CAPTURE;
	}
	if (rc)
		xl_diff_side_release(s);
	return rc;
}

struct diff_out {
	int (*fn)(const struct xl_diff *, FILE *, const struct xl_diff_opts *);
	const struct xl_diff *d;
	const struct xl_diff_opts *o;
};

static int write_diff(FILE *f, const void *arg)
{
	const struct diff_out *x = arg;
	return x->fn(x->d, f, x->o);
}

int xl_diff_write(const struct xl_diff *d, const struct xl_diff_opts *o, const char *format, const char *path)
{
	struct diff_out x = {strcmp(format, "html") == 0   ? xl_emit_diff_html
			     : strcmp(format, "json") == 0 ? xl_emit_diff_json
							   : xl_emit_diff_text,
			     d, o};
	return xl_write_file(path, format, write_diff, &x);
}
