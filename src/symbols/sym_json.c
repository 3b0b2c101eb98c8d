/* sym_json.c - the JSON files of this module (symbols.json, samples.json):
 * strings from untrusted bytes, addresses, a validating read and an
 * atomic write (declared in sym_internal.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "sym_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"

/* Copy of s with every byte that is not part of valid UTF-8 (as jansson
 * checks it: no overlongs, surrogates or code points > U+10FFFF) as '?'. */
static char *utf8_clean(const char *s)
{
	size_t n = strlen(s);
	char *o = malloc(n + 1);
	if (o == NULL)
		return NULL;
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	while (i < n) {
		unsigned c = p[i];
		size_t len = c < 0x80             ? 1
			     : (c & 0xe0) == 0xc0 ? 2
			     : (c & 0xf0) == 0xe0 ? 3
			     : (c & 0xf8) == 0xf0 ? 4
						  : 0;
		bool ok = len > 0 && i + len <= n;
		if (ok && len > 1) {
			uint32_t cp = c & (0xffu >> (len + 1));
			for (size_t k = 1; k < len; k++) {
				if ((p[i + k] & 0xc0) != 0x80) {
					ok = false;
					break;
				}
				cp = (cp << 6) | (p[i + k] & 0x3f);
			}
			if (ok && ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
				   cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)))
				ok = false;
		}
		if (ok) {
			memcpy(o + i, p + i, len);
			i += len;
		} else {
			o[i++] = '?';
		}
	}
	o[n] = '\0';
	return o;
}

json_t *sym_jstr(const char *s)
{
	if (s == NULL)
		return json_null();
	char *c = utf8_clean(s);
	if (c == NULL)
		return NULL;
	json_t *j = json_string(c);
	free(c);
	return j;
}

/* "0x" followed by 1..16 hex digits */
bool sym_parse_addr(const char *s, uint64_t *v)
{
	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return false;
	s += 2;
	size_t n = 0;
	uint64_t a = 0;
	for (; s[n] != '\0'; n++) {
		char c = s[n];
		unsigned d;
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return false;
		if (n >= 16)
			return false;
		a = (a << 4) | d;
	}
	if (n == 0)
		return false;
	*v = a;
	return true;
}

/* jansson's allocations, through malloc: a failure is remembered until
 * the parse it happened in ends. */
static _Thread_local int json_failed;

static void *json_malloc(size_t n)
{
	void *p = malloc(n);
	if (p == NULL)
		json_failed = 1;
	return p;
}

static void json_free(void *p)
{
	free(p);
}

/* jansson's reader fills its buffer through this: json_loadfd reads one
 * byte per read(2) (so that it can stop at a document's end), 7,000
 * syscalls for the sidecar and capture files of one run. */
static size_t read_chunk(void *buf, size_t len, void *data)
{
	int fd = *(const int *)data;
	for (;;) {
		ssize_t n = read(fd, buf, len);
		if (n >= 0)
			return (size_t)n;
		if (errno != EINTR)
			return (size_t)-1;
	}
}

json_t *xl_json_loadfd(int fd, size_t flags, json_error_t *jerr, int *oom)
{
	json_set_alloc_funcs(json_malloc, json_free);
	json_failed = 0;
	json_t *root = json_load_callback(read_chunk, &fd, flags, jerr);
	*oom = json_failed;
	if (json_failed) {
		json_decref(root);
		root = NULL;
	}
	return root;
}

json_t *sym_read_object(const char *path, int *rc, char *err, size_t errlen)
{
	/* O_NONBLOCK and a type check before reading: a FIFO or a device in a
	 * capture directory must not hang the report. */
	int fd = xl_open_regular(path);
	if (fd < 0) {
		int e = errno;
		if (e == EINVAL)
			sym_seterr(err, errlen, "%s: not a regular file", path);
		else
			sym_seterr(err, errlen, "%s: cannot open: %s", path, strerror(e));
		*rc = XL_EIO;
		return NULL;
	}
	json_error_t je;
	int oom;
	json_t *root = xl_json_loadfd(fd, JSON_REJECT_DUPLICATES, &je, &oom);
	close(fd);
	*rc = XL_EFORMAT;
	if (oom) {
		sym_seterr(err, errlen, "%s: out of memory", path);
		*rc = XL_ENOMEM;
	} else if (root == NULL)
		sym_seterr(err, errlen, "%s:%d:%d: invalid JSON: %s", path, je.line, je.column, je.text);
	else if (!json_is_object(root)) {
		sym_seterr(err, errlen, "%s: top level is not a JSON object", path);
		json_decref(root);
		root = NULL;
	}
	return root;
}

int sym_write_atomic(const char *path, int (*body)(FILE *f, const void *arg), const void *arg, char *err, size_t errlen)
{
	size_t plen = strlen(path);
	char *tmp = malloc(plen + 32);
	if (tmp == NULL) {
		sym_seterr(err, errlen, "%s: out of memory", path);
		return XL_ENOMEM;
	}
	/* A new file of a random name (O_EXCL): nothing planted is followed. */
	int fd = xl_create_temp_beside(path, tmp, plen + 32);
	if (fd < 0) {
		sym_seterr(err, errlen, "%s: cannot create: %s", tmp, strerror(errno));
		free(tmp);
		return XL_EIO;
	}
	FILE *f = fdopen(fd, "w");
	if (f == NULL) {
		sym_seterr(err, errlen, "%s: %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		free(tmp);
		return XL_EIO;
	}
	int rc = body(f, arg);
	int saved = errno;
	if (fflush(f) != 0 && rc == 0) {
		rc = -1;
		saved = errno;
	}
	if (fclose(f) != 0 && rc == 0) {
		rc = -1;
		saved = errno;
	}
	if (rc != 0) {
		sym_seterr(err, errlen, "%s: write failed: %s", tmp, saved ? strerror(saved) : "encoding error");
		unlink(tmp);
		free(tmp);
		return XL_EIO;
	}
	if (rename(tmp, path) != 0) {
		sym_seterr(err, errlen, "%s: cannot rename into place: %s", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return XL_EIO;
	}
	free(tmp);
	return XL_OK;
}

int sym_opt_string(json_t *obj, const char *key, char **dst)
{
	json_t *v = json_object_get(obj, key);
	*dst = NULL;
	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return -1;
	*dst = strdup(json_string_value(v));
	return *dst == NULL ? -2 : 0;
}

int sym_opt_uint(json_t *obj, const char *key, json_int_t max, json_int_t *dst)
{
	json_t *v = json_object_get(obj, key);
	if (v == NULL)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > max)
		return -1;
	*dst = json_integer_value(v);
	return 0;
}
