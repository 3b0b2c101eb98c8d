/* sym_samples.c - samples.json's validating loader (format and rules in
 * symbols.h).  The file sits in a capture directory that may come from
 * anywhere: every member is checked before use, and what it holds is
 * bounded by its size. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "sym_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(code, ...)                               \
	do {                                          \
		sym_seterr(err, errlen, __VA_ARGS__); \
		return (code);                        \
	} while (0)

static void addr_release(struct xl_addr *a)
{
	free(a->symbol);
	free(a->library);
	free(a->file);
	for (size_t i = 0; i < a->ninl; i++)
		free(a->inl[i]);
	free(a->inl);
}

void xl_resolved_release(struct xl_resolved *r)
{
	if (r == NULL)
		return;
	for (size_t i = 0; i < r->nips; i++)
		addr_release(&r->ips[i]);
	for (size_t i = 0; i < r->nrets; i++)
		addr_release(&r->rets[i]);
	for (size_t i = 0; i < r->nsrc; i++) {
		free(r->src[i].file);
		for (size_t k = 0; k < r->src[i].nlines; k++)
			free(r->src[i].lines[k]);
		free(r->src[i].lines);
	}
	free(r->ips);
	free(r->rets);
	free(r->src);
	memset(r, 0, sizeof(*r));
}

/* An optional integer member 0..INT32_MAX (absent: 0), or -1. */
static int opt_int(json_t *o, const char *key, int32_t *dst)
{
	json_int_t v = 0;
	int rc = sym_opt_uint(o, key, INT32_MAX, &v);
	*dst = (int32_t)v;
	return rc;
}

static int load_inline(json_t *v, struct xl_addr *a)
{
	if (v == NULL)
		return 0;
	if (!json_is_array(v) || json_array_size(v) > XL_INLINE_MAX)
		return -1;
	a->inl = calloc(json_array_size(v) + 1, sizeof(char *));
	if (a->inl == NULL)
		return -2;
	for (size_t i = 0; i < json_array_size(v); i++) {
		json_t *s = json_array_get(v, i);
		if (!json_is_string(s))
			return -1;
		if ((a->inl[a->ninl++] = strdup(json_string_value(s))) == NULL)
			return -2;
	}
	return 0;
}

static int load_addr(json_t *o, struct xl_addr *a)
{
	json_t *v = json_object_get(o, "addr");
	int32_t line = 0;
	if (!json_is_object(o) || !json_is_string(v) || !sym_parse_addr(json_string_value(v), &a->addr) ||
	    opt_int(o, "func", &a->func) || opt_int(o, "calls", &a->calls) || opt_int(o, "line", &line))
		return -1;
	a->line = line;
	json_t *rt = json_object_get(o, "runtime");
	if (rt && !json_is_boolean(rt))
		return -1;
	a->runtime = json_is_true(rt);
	int rc = sym_opt_string(o, "symbol", &a->symbol);
	if (rc == 0)
		rc = sym_opt_string(o, "library", &a->library);
	if (rc == 0)
		rc = sym_opt_string(o, "file", &a->file);
	if (rc == 0)
		rc = load_inline(json_object_get(o, "inline"), a);
	return rc;
}

static int cmp_addr(const void *a, const void *b)
{
	const struct xl_addr *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int load_addrs(json_t *root, const char *key, const char *path, struct xl_addr **out, size_t *n, char *err,
		      size_t errlen)
{
	json_t *arr = json_object_get(root, key);
	if (!json_is_array(arr))
		FAIL(XL_EFORMAT, "%s: \"%s\" is missing or not an array", path, key);
	*out = calloc(json_array_size(arr) + 1, sizeof(**out));
	if (*out == NULL)
		FAIL(XL_ENOMEM, "%s: out of memory", path);
	for (size_t i = 0; i < json_array_size(arr); i++) {
		int rc = load_addr(json_array_get(arr, i), &(*out)[(*n)++]);
		if (rc == -2)
			FAIL(XL_ENOMEM, "%s: out of memory", path);
		if (rc)
			FAIL(XL_EFORMAT,
			     "%s: %s[%zu] is not an address entry (addr \"0x...\", integers 0..%d, strings)", path, key,
			     i, INT32_MAX);
	}
	if (*n > 1)
		qsort(*out, *n, sizeof(**out), cmp_addr);
	return XL_OK;
}

static int load_range(json_t *o, struct xl_src_range *s)
{
	json_t *lines = json_object_get(o, "lines");
	int32_t first = 0;
	if (!json_is_object(o) || opt_int(o, "first", &first) || first < 1 || !json_is_array(lines) ||
	    !json_is_string(json_object_get(o, "file")))
		return -1;
	s->first = first;
	if ((s->file = strdup(json_string_value(json_object_get(o, "file")))) == NULL ||
	    (s->lines = calloc(json_array_size(lines) + 1, sizeof(char *))) == NULL)
		return -2;
	for (size_t i = 0; i < json_array_size(lines); i++) {
		json_t *l = json_array_get(lines, i);
		if (!json_is_string(l))
			return -1;
		if ((s->lines[s->nlines++] = strdup(json_string_value(l))) == NULL)
			return -2;
	}
	return 0;
}

static int load_sources(json_t *root, const char *path, struct xl_resolved *out, char *err, size_t errlen)
{
	json_t *arr = json_object_get(root, "sources");
	if (arr == NULL)
		return XL_OK;
	if (!json_is_array(arr))
		FAIL(XL_EFORMAT, "%s: \"sources\" is not an array", path);
	out->src = calloc(json_array_size(arr) + 1, sizeof(*out->src));
	if (out->src == NULL)
		FAIL(XL_ENOMEM, "%s: out of memory", path);
	for (size_t i = 0; i < json_array_size(arr); i++) {
		int rc = load_range(json_array_get(arr, i), &out->src[out->nsrc++]);
		if (rc == -2)
			FAIL(XL_ENOMEM, "%s: out of memory", path);
		if (rc)
			FAIL(XL_EFORMAT, "%s: sources[%zu] is not {\"file\", \"first\" >= 1, \"lines\": [strings]}",
			     path, i);
	}
	return XL_OK;
}

int xl_samples_load_json(const char *path, struct xl_resolved *out, char *err, size_t errlen)
{
	if (err != NULL && errlen > 0)
		err[0] = '\0';
	memset(out, 0, sizeof(*out));
	int rc;
	json_t *root = sym_read_object(path, &rc, err, errlen);
	if (root == NULL)
		return rc;
	json_t *v = json_object_get(root, "schema");
	json_t *b = json_object_get(root, "build_id");
	if (!json_is_string(v) || strcmp(json_string_value(v), XL_SAMPLES_SCHEMA) != 0) {
		sym_seterr(err, errlen, "%s: not a samples file (schema \"%s\" expected)", path, XL_SAMPLES_SCHEMA);
		rc = XL_EFORMAT;
	} else {
		if (json_is_string(b) && json_string_length(b) < sizeof(out->build_id))
			strcpy(out->build_id, json_string_value(b));
		rc = load_addrs(root, "ips", path, &out->ips, &out->nips, err, errlen);
		if (rc == XL_OK)
			rc = load_addrs(root, "returns", path, &out->rets, &out->nrets, err, errlen);
		if (rc == XL_OK)
			rc = load_sources(root, path, out, err, errlen);
	}
	json_decref(root);
	if (rc != XL_OK)
		xl_resolved_release(out);
	return rc;
}

static int cmp_key(const void *key, const void *elem)
{
	uint64_t a = *(const uint64_t *)key, b = ((const struct xl_addr *)elem)->addr;
	return a < b ? -1 : a > b;
}

const struct xl_addr *xl_addr_find(const struct xl_addr *v, size_t n, uint64_t addr)
{
	return n ? bsearch(&addr, v, n, sizeof(*v), cmp_key) : NULL;
}
