/* exaloop-toml-decode -- toml-test "decoder" for exaloop's TOML parser.
 *
 * Reads a TOML document on stdin and writes it on stdout in toml-test's
 * tagged JSON: tables become objects, arrays become arrays, and every scalar
 * becomes {"type": T, "value": "<text>"} with T one of string, integer,
 * float, bool, datetime, datetime-local, date-local, time-local.
 *
 * Exit status: 0 and JSON on stdout for a valid document; 1 and one error
 * line ("<stdin>:L:C: message") on stderr for an invalid one; 2 for usage or
 * I/O problems.  The same contract as toml-test's reference decoders, so this
 * binary can also be driven by the upstream toml-test tool.
 */
#include "toml.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Shortest "%.*g" text that reads back as the same double. */
static void format_float(double f, char *buf, size_t cap)
{
	if (isnan(f)) {
		snprintf(buf, cap, "nan");
		return;
	}
	if (isinf(f)) {
		snprintf(buf, cap, f < 0 ? "-inf" : "inf");
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, cap, "%.*g", prec, f);
		if (strtod(buf, NULL) == f)
			return;
	}
}

/* RFC 3339 text for the date/time kinds; fraction only when non-zero, with
 * trailing zeros dropped (toml-test compares datetimes by value). */
static void format_datetime(const struct xl_toml_datetime *dt, char *buf, size_t cap)
{
	size_t w = 0;
	if (dt->has_date)
		w += (size_t)snprintf(buf + w, cap - w, "%04d-%02d-%02d", dt->year, dt->month,
				      dt->day);
	if (dt->has_date && dt->has_time)
		buf[w++] = 'T';
	if (dt->has_time) {
		w += (size_t)snprintf(buf + w, cap - w, "%02d:%02d:%02d", dt->hour, dt->minute,
				      dt->second);
		if (dt->nanosecond) {
			char frac[16];
			snprintf(frac, sizeof frac, "%09d", dt->nanosecond);
			size_t n = strlen(frac);
			while (n > 1 && frac[n - 1] == '0')
				n--;
			w += (size_t)snprintf(buf + w, cap - w, ".%.*s", (int)n, frac);
		}
	}
	if (dt->has_offset) {
		if (dt->offset_minutes == 0) {
			snprintf(buf + w, cap - w, "Z");
		} else {
			int m = dt->offset_minutes < 0 ? -dt->offset_minutes : dt->offset_minutes;
			snprintf(buf + w, cap - w, "%c%02d:%02d",
				 dt->offset_minutes < 0 ? '-' : '+', m / 60, m % 60);
		}
	}
	buf[cap - 1] = '\0';
}

static json_t *tagged(const char *type, const char *text, size_t len)
{
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string(type));
	json_object_set_new(o, "value", json_stringn(text, len));
	return o;
}

/* Recursion depth is bounded by the parser's limits on nesting and on the
 * number of key components (XL_TOML_MAX_DEPTH each). */
static json_t *to_json(const struct xl_toml_value *v)
{
	char buf[64];
	switch (xl_toml_type_of(v)) {
	case XL_TOML_TABLE: {
		json_t *o = json_object();
		struct xl_toml_entry e;
		for (size_t i = 0; xl_toml_table_entry(v, i, &e); i++)
			json_object_setn_new(o, e.key, e.key_len, to_json(e.value));
		return o;
	}
	case XL_TOML_ARRAY: {
		json_t *a = json_array();
		for (size_t i = 0; i < xl_toml_array_len(v); i++)
			json_array_append_new(a, to_json(xl_toml_array_at(v, i)));
		return a;
	}
	case XL_TOML_STRING: {
		const char *s;
		size_t len;
		xl_toml_as_string(v, &s, &len);
		return tagged("string", s, len);
	}
	case XL_TOML_INTEGER: {
		int64_t i;
		xl_toml_as_int(v, &i);
		snprintf(buf, sizeof buf, "%lld", (long long)i);
		return tagged("integer", buf, strlen(buf));
	}
	case XL_TOML_FLOAT: {
		double f;
		xl_toml_as_float(v, &f);
		format_float(f, buf, sizeof buf);
		return tagged("float", buf, strlen(buf));
	}
	case XL_TOML_BOOL: {
		bool b;
		xl_toml_as_bool(v, &b);
		return tagged("bool", b ? "true" : "false", b ? 4 : 5);
	}
	case XL_TOML_DATETIME:
	case XL_TOML_LOCAL_DATETIME:
	case XL_TOML_LOCAL_DATE:
	case XL_TOML_LOCAL_TIME: {
		static const char *const names[] = {"datetime", "datetime-local", "date-local",
						    "time-local"};
		struct xl_toml_datetime dt;
		xl_toml_as_datetime(v, &dt);
		format_datetime(&dt, buf, sizeof buf);
		return tagged(names[xl_toml_type_of(v) - XL_TOML_DATETIME], buf, strlen(buf));
	}
	case XL_TOML_NONE: break;
	}
	return json_null();
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		fprintf(stderr, "usage: %s < file.toml > file.json\n", argv[0]);
		return 2;
	}
	char *data = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 65536;
			char *nd = realloc(data, cap);
			if (!nd) {
				fprintf(stderr, "exaloop-toml-decode: out of memory\n");
				free(data);
				return 2;
			}
			data = nd;
		}
		size_t got = fread(data + len, 1, cap - len, stdin);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(stdin)) {
		fprintf(stderr, "exaloop-toml-decode: cannot read stdin\n");
		free(data);
		return 2;
	}
	struct xl_toml_error err;
	struct xl_toml_value *root = xl_toml_parse(data, len, "<stdin>", &err);
	free(data);
	if (!root) {
		fprintf(stderr, "%s\n", err.text);
		return 1;
	}
	json_t *j = to_json(root);
	xl_toml_free(root);
	int rc = json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0 ? 0 : 2;
	json_decref(j);
	if (rc == 0 && (fputc('\n', stdout) == EOF || fflush(stdout) != 0))
		rc = 2;
	return rc;
}
