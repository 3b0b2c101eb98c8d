/*
 * samples_out.c - see samples_out.h.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "msg.h"
#include "samples_out.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Sort and keep each value once: the new count. */
static size_t distinct(uint64_t *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_u64);
	size_t u = 0;
	for (size_t i = 0; i < n; i++)
		if (u == 0 || v[u - 1] != v[i])
			v[u++] = v[i];
	return u;
}

static void resolve_one(const char *dir, const char *exe, const struct xl_symtab *tab, int source)
{
	struct xl_model *m;
	char err[512];
	if (xl_model_load_capture(dir, &m, err, sizeof(err)) != XL_OK) /* this capture's samples only */
		return; /* the report says what is wrong with the capture */
	size_t nret = 0;
	for (size_t i = 0; i < m->nisamples; i++)
		nret += m->isamples[i].nips - 1;
	uint64_t *ips = malloc((m->nisamples + 1) * sizeof(*ips));
	uint64_t *rets = malloc((nret + 1) * sizeof(*rets));
	struct xl_addr_map *maps = calloc(m->nmaps + 1, sizeof(*maps));
	if (!ips || !rets || !maps) {
		xl_warn("out of memory resolving the samples of '%s': the report has no line data", dir);
		goto out;
	}
	nret = 0;
	for (size_t i = 0; i < m->nisamples; i++) {
		ips[i] = m->isamples[i].ips[0];
		for (uint32_t k = 1; k < m->isamples[i].nips; k++)
			rets[nret++] = m->isamples[i].ips[k];
	}
	for (size_t i = 0; i < m->nmaps; i++)
		maps[i] = (struct xl_addr_map){m->maps[i].start, m->maps[i].end, m->maps[i].offset, m->maps[i].path};
	struct xl_resolve_req r = {exe,  m->exe_base,          maps, m->nmaps, ips, distinct(ips, m->nisamples),
				   rets, distinct(rets, nret), tab,  source};
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", dir, XL_SAMPLES_FILE);
	if (m->nisamples && xl_samples_resolve(&r, path, err, sizeof(err)) != XL_OK)
		xl_warn("cannot resolve the sampled addresses: %s (the report has no line data)", err);
out:
	free(ips);
	free(rets);
	free(maps);
	xl_model_free(m);
}

void xl_samples_write(const char *dir, const char *exe, const struct xl_symtab *tab, int source)
{
	resolve_one(dir, exe, tab, source);
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
		char sub[PATH_MAX];
		if (strncmp(e->d_name, "child-", 6) == 0 &&
		    (size_t)snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name) < sizeof(sub))
			resolve_one(sub, exe, tab, source);
	}
	if (d)
		closedir(d);
}
