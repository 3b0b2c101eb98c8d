/*
 * fuzz_toml.c - the TOML parser (src/common/toml.h): parse the input, then
 * walk the whole tree through every accessor; a failure must come with a
 * one-line message.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "toml.h"

static void walk(const struct xl_toml_value *v, int depth)
{
	if (depth > 2 * XL_TOML_MAX_DEPTH + 64) {
		fprintf(stderr, "fuzz: tree deeper than the parser's limit\n");
		abort();
	}
	(void)xl_toml_type_name(xl_toml_type_of(v));
	(void)xl_toml_pos_of(v);
	const char *s;
	size_t len;
	int64_t i;
	double d;
	bool b;
	struct xl_toml_datetime dt;
	switch (xl_toml_type_of(v)) {
	case XL_TOML_TABLE:
		for (size_t k = 0; k < xl_toml_table_len(v); k++) {
			struct xl_toml_entry e;
			if (!xl_toml_table_entry(v, k, &e))
				abort();
			if (xl_toml_table_getn(v, e.key, e.key_len) != e.value)
				abort(); /* a key finds its own value */
			walk(e.value, depth + 1);
		}
		(void)xl_toml_lookup(v, "a.b.c");
		(void)xl_toml_table_get(v, "");
		break;
	case XL_TOML_ARRAY:
		for (size_t k = 0; k < xl_toml_array_len(v); k++)
			walk(xl_toml_array_at(v, k), depth + 1);
		(void)xl_toml_array_at(v, xl_toml_array_len(v));
		break;
	case XL_TOML_STRING:
		if (!xl_toml_as_string(v, &s, &len) || s[len] != 0)
			abort();
		break;
	case XL_TOML_INTEGER: (void)xl_toml_as_int(v, &i); break;
	case XL_TOML_FLOAT: (void)xl_toml_as_float(v, &d); break;
	case XL_TOML_BOOL: (void)xl_toml_as_bool(v, &b); break;
	default: (void)xl_toml_as_datetime(v, &dt); break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xl_toml_error err;
	struct xl_toml_value *root = xl_toml_parse((const char *)data, size, "fuzz.toml", &err);
	if (!root) {
		if (!memchr(err.text, 0, sizeof(err.text)) || strchr(err.text, '\n')) {
			fprintf(stderr, "fuzz: TOML error message is not one line\n");
			abort();
		}
		return 0;
	}
	walk(root, 0);
	xl_toml_free(root);
	return 0;
}
