/* sym_sidecar.c - the symbols.json sidecar: atomic writer and validating
 * loader (format and rules in symbols.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "sym_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"

#if JSON_INTEGER_IS_LONG_LONG
#define XL_JSON_INT_MAX LLONG_MAX
#else
#define XL_JSON_INT_MAX LONG_MAX
#endif

static int dump_any(FILE *f, json_t *j)
{
	if (j == NULL)
		return -1;
	int rc = json_dumpf(j, f, JSON_ENCODE_ANY);
	json_decref(j);
	return rc;
}

static bool valid_hex_id(const char *s)
{
	size_t n = strlen(s);
	if (n % 2 != 0 || n > 2 * XL_BUILD_ID_MAX_BYTES)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

static int write_body(FILE *f, const void *arg)
{
	const struct xl_symtab *tab = arg;
	if (fputs("{\"schema\": ", f) < 0 || dump_any(f, sym_jstr(XL_SYMBOLS_SCHEMA)) ||
	    fputs(",\n \"build_id\": ", f) < 0 || dump_any(f, sym_jstr(tab->build_id)) ||
	    fputs(",\n \"executable\": ", f) < 0 || dump_any(f, sym_jstr(tab->executable)))
		return -1;
	if (fprintf(f,
		    ",\n \"xray\": {\"sleds\": %" PRIu64 ", \"sled_version\": %d, "
		    "\"fn_idx\": %" PRIu64 "},\n \"functions\": [",
		    tab->sleds, tab->sled_version, tab->fn_idx) < 0)
		return -1;
	for (size_t i = 0; i < tab->count; i++) {
		const struct xl_symbol *s = &tab->syms[i];
		char addr[24];
		snprintf(addr, sizeof addr, "0x%" PRIx64, s->addr);
		json_t *o = json_object();
		if (o == NULL)
			return -1;
		int bad = json_object_set_new(o, "id", json_integer(s->id));
		bad |= json_object_set_new(o, "addr", json_string(addr));
		bad |= json_object_set_new(o, "name", sym_jstr(s->name));
		bad |= json_object_set_new(o, "linkage_name", sym_jstr(s->linkage_name));
		bad |= json_object_set_new(o, "file", sym_jstr(s->file));
		bad |= json_object_set_new(o, "line", json_integer(s->line));
		if (bad || fputs(i == 0 ? "\n  " : ",\n  ", f) < 0 || json_dumpf(o, f, 0) != 0) {
			json_decref(o);
			return -1;
		}
		json_decref(o);
	}
	if (fputs(tab->count ? "\n ]}\n" : "]}\n", f) < 0)
		return -1;
	return 0;
}

int xl_symbols_write_json(const struct xl_symtab *tab, const char *path, char *err, size_t errlen)
{
	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (tab == NULL || path == NULL) {
		sym_seterr(err, errlen, "xl_symbols_write_json: missing argument");
		return XL_EINVAL;
	}
	if (!valid_hex_id(tab->build_id)) {
		sym_seterr(err, errlen, "%s: build id is not lowercase hex", path);
		return XL_EINVAL;
	}
	for (size_t i = 0; i < tab->count; i++) {
		const struct xl_symbol *s = &tab->syms[i];
		if ((uint64_t)s->id != i + 1 || s->name == NULL || s->name[0] == '\0' || s->line < 0) {
			sym_seterr(err, errlen,
				   "%s: function table entry %zu is inconsistent "
				   "(ids must be 1..N in order, names non-empty)",
				   path, i);
			return XL_EINVAL;
		}
	}

	return sym_write_atomic(path, write_body, tab, err, errlen);
}

/* A failed check: the message, then return the code. */
#define FAIL(code, ...)                               \
	do {                                          \
		sym_seterr(err, errlen, __VA_ARGS__); \
		return (code);                        \
	} while (0)

/* schema, build_id, executable and the informational xray member. */
static int load_header(json_t *root, const char *path, struct xl_symtab *out, char *err, size_t errlen)
{
	json_t *v = json_object_get(root, "schema");
	if (v == NULL)
		FAIL(XL_EFORMAT, "%s: missing \"schema\"", path);
	if (!json_is_string(v))
		FAIL(XL_EFORMAT, "%s: \"schema\" is not a string", path);
	if (strcmp(json_string_value(v), XL_SYMBOLS_SCHEMA) != 0)
		FAIL(XL_EFORMAT, "%s: unsupported schema \"%.64s\" (expected \"%s\")", path, json_string_value(v),
		     XL_SYMBOLS_SCHEMA);

	v = json_object_get(root, "build_id");
	if (v == NULL)
		FAIL(XL_EFORMAT, "%s: missing \"build_id\"", path);
	if (!json_is_string(v) || !valid_hex_id(json_string_value(v)))
		FAIL(XL_EFORMAT, "%s: \"build_id\" is not a lowercase hex string of at most %d bytes", path,
		     XL_BUILD_ID_MAX_BYTES);
	strcpy(out->build_id, json_string_value(v));

	int sr = sym_opt_string(root, "executable", &out->executable);
	if (sr == -1)
		FAIL(XL_EFORMAT, "%s: \"executable\" is not a string or null", path);
	if (sr == -2)
		FAIL(XL_ENOMEM, "%s: out of memory", path);

	v = json_object_get(root, "xray");
	if (v != NULL) {
		json_int_t sleds = 0, ver = 0, idx = 0;
		if (!json_is_object(v) || sym_opt_uint(v, "sleds", XL_JSON_INT_MAX, &sleds) ||
		    sym_opt_uint(v, "sled_version", 255, &ver) || sym_opt_uint(v, "fn_idx", XL_JSON_INT_MAX, &idx))
			FAIL(XL_EFORMAT,
			     "%s: \"xray\" must be an object of non-negative integers "
			     "sleds, sled_version (<= 255), fn_idx",
			     path);
		out->sleds = (uint64_t)sleds;
		out->sled_version = (int)ver;
		out->fn_idx = (uint64_t)idx;
	}
	return XL_OK;
}

/* functions[i] of n into its slot of out->syms (by id). */
static int load_function(json_t *o, size_t i, size_t n, const char *path, struct xl_symtab *out, char *err,
			 size_t errlen)
{
	json_t *v;
	int sr;
	if (!json_is_object(o))
		FAIL(XL_EFORMAT, "%s: functions[%zu] is not an object", path, i);

	v = json_object_get(o, "id");
	if (v == NULL)
		FAIL(XL_EFORMAT, "%s: functions[%zu]: missing \"id\"", path, i);
	if (!json_is_integer(v))
		FAIL(XL_EFORMAT, "%s: functions[%zu].id is not an integer", path, i);
	json_int_t id = json_integer_value(v);
	if (id < 1 || (uint64_t)id > n)
		FAIL(XL_EFORMAT, "%s: functions[%zu].id %" JSON_INTEGER_FORMAT " is out of range 1..%zu", path, i, id,
		     n);
	struct xl_symbol *s = &out->syms[id - 1];
	if (s->id != 0)
		FAIL(XL_EFORMAT, "%s: functions[%zu]: duplicate id %" JSON_INTEGER_FORMAT, path, i, id);
	s->id = (int32_t)id;

	v = json_object_get(o, "addr");
	if (v == NULL)
		FAIL(XL_EFORMAT, "%s: functions[%zu]: missing \"addr\"", path, i);
	if (!json_is_string(v) || !sym_parse_addr(json_string_value(v), &s->addr))
		FAIL(XL_EFORMAT, "%s: functions[%zu].addr is not a \"0x...\" hex string of at most 16 digits", path, i);

	v = json_object_get(o, "name");
	if (v == NULL)
		FAIL(XL_EFORMAT, "%s: functions[%zu]: missing \"name\"", path, i);
	if (!json_is_string(v) || json_string_length(v) == 0)
		FAIL(XL_EFORMAT, "%s: functions[%zu].name is not a non-empty string", path, i);
	s->name = strdup(json_string_value(v));
	if (s->name == NULL)
		FAIL(XL_ENOMEM, "%s: out of memory", path);

	sr = sym_opt_string(o, "linkage_name", &s->linkage_name);
	if (sr == -1)
		FAIL(XL_EFORMAT, "%s: functions[%zu].linkage_name is not a string or null", path, i);
	if (sr == 0)
		sr = sym_opt_string(o, "file", &s->file);
	if (sr == -1)
		FAIL(XL_EFORMAT, "%s: functions[%zu].file is not a string or null", path, i);
	if (sr == -2)
		FAIL(XL_ENOMEM, "%s: out of memory", path);

	json_int_t line = 0;
	if (sym_opt_uint(o, "line", INT_MAX, &line))
		FAIL(XL_EFORMAT, "%s: functions[%zu].line is not an integer 0..%d", path, i, INT_MAX);
	s->line = (int)line;
	return XL_OK;
}

/* The functions array; n objects, each id in 1..n, no duplicates: every
 * slot is filled. */
static int load_functions(json_t *root, const char *path, struct xl_symtab *out, char *err, size_t errlen)
{
	json_t *fns = json_object_get(root, "functions");
	if (fns == NULL)
		FAIL(XL_EFORMAT, "%s: missing \"functions\"", path);
	if (!json_is_array(fns))
		FAIL(XL_EFORMAT, "%s: \"functions\" is not an array", path);
	size_t n = json_array_size(fns);
	if (n > (size_t)INT32_MAX)
		FAIL(XL_EFORMAT, "%s: too many functions (%zu)", path, n);
	if (n > 0) {
		out->syms = calloc(n, sizeof *out->syms);
		if (out->syms == NULL)
			FAIL(XL_ENOMEM, "%s: out of memory", path);
	}
	out->count = n; /* release() walks only filled slots (NULL-safe) */

	for (size_t i = 0; i < n; i++) {
		int rc = load_function(json_array_get(fns, i), i, n, path, out, err, errlen);
		if (rc != XL_OK)
			return rc;
	}
	return XL_OK;
}

int xl_symbols_load_json(const char *path, struct xl_symtab *out, char *err, size_t errlen)
{
	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (out == NULL || path == NULL) {
		sym_seterr(err, errlen, "xl_symbols_load_json: missing argument");
		return XL_EINVAL;
	}
	memset(out, 0, sizeof *out);
	int rc;
	json_t *root = sym_read_object(path, &rc, err, errlen);
	if (root == NULL)
		return rc;
	rc = load_header(root, path, out, err, errlen);
	if (rc == XL_OK)
		rc = load_functions(root, path, out, err, errlen);
	json_decref(root);
	if (rc != XL_OK)
		xl_symtab_release(out);
	return rc;
}
