/* toml.h -- TOML 1.0 parser for exaloop project files and the user config.
 *
 * Scope: the complete TOML 1.0.0 specification (https://toml.io/en/v1.0.0),
 * checked against the official toml-test suite (see docs/toml.md).  Reading
 * only: there is no writer and the tree is immutable once parsed.
 *
 * Ownership
 *   xl_toml_parse() / xl_toml_parse_file() return the root table of a freshly
 *   allocated tree.  The caller owns it and releases *everything* (all tables,
 *   arrays, strings and keys) with a single xl_toml_free(root).  Every pointer
 *   obtained through the accessors below (values, key and string bytes) is
 *   borrowed from that tree and stays valid until xl_toml_free(root); none of
 *   them may be freed individually.
 *
 * Threads
 *   No global or static mutable state.  Parsing distinct inputs concurrently
 *   is safe, and a finished tree may be read from any number of threads at
 *   once (accessors never modify it).  Parsing does not depend on the process
 *   locale (LC_NUMERIC does not change how "3.14" is read).
 *
 * Errors
 *   Returned as values: the parse functions return NULL and fill an
 *   struct xl_toml_error.  Nothing is printed, nothing exits.  The message is a single
 *   line; user text quoted in it (keys) has control characters escaped.
 *
 * Positions
 *   Lines and columns are 1-based.  Columns count Unicode code points (a tab
 *   is one column), so they match what an editor shows for non-ASCII text.
 *   Every value records where it starts and every table entry records where
 *   its key was written, so callers validating a config can point at the
 *   exact spot ("unknown key 'foo' at exaloop.toml:5:1").
 *
 * NULL tolerance
 *   Every accessor accepts a NULL value and then reports "absent" (NULL, 0 or
 *   false), and a wrong-type value is treated the same way.  Lookups can thus
 *   be chained without checks in between:
 *       xl_toml_table_get(xl_toml_table_get(root, "build"), "mode")
 */
#ifndef XL_TOML_H
#define XL_TOML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Kinds of value.  The four date/time kinds are distinct TOML types; all of
 * them are read with xl_toml_as_datetime(). */
enum xl_toml_type {
	XL_TOML_NONE = 0, /* only returned for a NULL value */
	XL_TOML_TABLE,
	XL_TOML_ARRAY,
	XL_TOML_STRING,
	XL_TOML_INTEGER,
	XL_TOML_FLOAT,
	XL_TOML_BOOL,
	XL_TOML_DATETIME,       /* offset date-time  1979-05-27T07:32:00-08:00 */
	XL_TOML_LOCAL_DATETIME, /* local date-time   1979-05-27T07:32:00 */
	XL_TOML_LOCAL_DATE,     /* local date        1979-05-27 */
	XL_TOML_LOCAL_TIME,     /* local time        07:32:00 */
};

/* A place in the source text.  {0, 0} means "not tied to the input"
 * (an I/O failure, out of memory). */
struct xl_toml_pos {
	uint32_t line;   /* 1-based */
	uint32_t column; /* 1-based, in code points */
};

/* Any of the four date/time kinds, split into fields.  Fields that the kind
 * does not have are zero: a local date has no time fields, a local time no
 * date fields, and only XL_TOML_DATETIME has an offset. */
struct xl_toml_datetime {
	int year, month, day;     /* 0000-9999, 1-12, 1-31 (validated per month) */
	int hour, minute, second; /* 0-23, 0-59, 0-60 (60 = leap second) */
	int nanosecond;           /* fractional second; digits past 9 are truncated */
	int offset_minutes;       /* east of UTC; "Z" is 0 */
	bool has_date, has_time, has_offset;
};

/* Sizes of the message buffers below.  Long keys quoted in a message are
 * shortened with "..." so a message always fits; the name in `text` is
 * truncated last-resort. */
#define XL_TOML_MESSAGE_MAX 256
#define XL_TOML_TEXT_MAX 512

/* The result of a failed parse (or of xl_toml_error_set()).  `text` is the
 * line to show users: "exaloop.toml:7:12: expected '=' after key 'mode'", or
 * "exaloop.toml: cannot open: ..." when there is no position. */
struct xl_toml_error {
	struct xl_toml_pos pos;            /* where the problem was found */
	char message[XL_TOML_MESSAGE_MAX]; /* the message alone, no location */
	char text[XL_TOML_TEXT_MAX];       /* "<name>:<line>:<column>: <message>" */
};

/* Opaque node of the parsed tree (table, array or scalar). */
struct xl_toml_value;

/* One key/value pair of a table, as returned by xl_toml_table_entry().
 * `key` is NUL-terminated, but may also contain NUL bytes (a quoted key can
 * hold "\u0000"), hence `key_len`.  All pointers borrow from the tree. */
struct xl_toml_entry {
	const char *key;
	size_t key_len;
	struct xl_toml_pos key_pos; /* where this key was written; for a.b.c = 1 the
				       tables a and b record where "a" and "b" stand */
	const struct xl_toml_value *value;
};

/* Nesting limit for arrays and inline tables inside one value, and the most
 * components a dotted key or table header may have.  It bounds the parser's
 * recursion (and the depth of trees that callers walk recursively) so hostile
 * input cannot exhaust the stack. */
#define XL_TOML_MAX_DEPTH 128

/* ---- Parsing ---------------------------------------------------------- */

/* Parses the TOML document data[0..len).  The buffer need not be
 * NUL-terminated and is not referenced after the call.  `name` (may be NULL,
 * then "<input>") only appears in err->text.  A leading UTF-8 BOM is skipped.
 * Returns the root table, or NULL with *err filled (err may be NULL). */
struct xl_toml_value *xl_toml_parse(const char *data, size_t len, const char *name, struct xl_toml_error *err);

/* Reads and parses the file at `path`, which is also the name in messages.
 * I/O failures are reported with pos {0, 0} and the strerror() text. */
struct xl_toml_value *xl_toml_parse_file(const char *path, struct xl_toml_error *err);

/* Frees a whole tree.  `root` must be NULL or a pointer returned by one of
 * the parse functions (passing any other node of the tree is ignored). */
void xl_toml_free(struct xl_toml_value *root);

/* ---- Every value -------------------------------------------------------- */

enum xl_toml_type xl_toml_type_of(const struct xl_toml_value *v);

/* "table", "array", "string", "integer", "float", "boolean", "datetime",
 * "local datetime", "local date", "local time" -- for messages such as
 * "expected a string for 'source', found integer". */
const char *xl_toml_type_name(enum xl_toml_type t);

/* Where the value starts: the first character of a scalar, the '[' or '{' of
 * an array or inline table, the '[' of a [table] or [[array]] header.  A
 * table that was only created implicitly (by [a.b] or a.b = 1) reports the
 * position of the key component that created it. */
struct xl_toml_pos xl_toml_pos_of(const struct xl_toml_value *v);

/* ---- Tables (keys keep document order) --------------------------------- */

size_t xl_toml_table_len(const struct xl_toml_value *table);

/* Value stored under `key` (NUL-terminated), or NULL.  O(1) on average. */
const struct xl_toml_value *xl_toml_table_get(const struct xl_toml_value *table, const char *key);

/* Same, for a key given by pointer and length (may contain NUL bytes). */
const struct xl_toml_value *xl_toml_table_getn(const struct xl_toml_value *table, const char *key, size_t key_len);

/* The i-th entry in document order (0 <= i < xl_toml_table_len()).
 * Returns false, and leaves *out untouched, if out of range or not a table. */
bool xl_toml_table_entry(const struct xl_toml_value *table, size_t i, struct xl_toml_entry *out);

/* Like xl_toml_table_getn() but also reports the key's entry (for its
 * position).  Returns false if absent. */
bool xl_toml_table_find(const struct xl_toml_value *table, const char *key, size_t key_len, struct xl_toml_entry *out);

/* Follows a '.'-separated path of keys from `table`: "build.mode".  Each
 * component is used verbatim (no quoting), so keys containing '.' cannot be
 * reached this way -- use xl_toml_table_get() for those.  NULL if any step is
 * missing or not a table. */
const struct xl_toml_value *xl_toml_lookup(const struct xl_toml_value *table, const char *path);

/* ---- Arrays (also the arrays of tables built with [[name]]) ------------ */

size_t xl_toml_array_len(const struct xl_toml_value *array);
const struct xl_toml_value *xl_toml_array_at(const struct xl_toml_value *array, size_t i);

/* ---- Scalars: return false (outputs untouched) on NULL or wrong type ---- */

/* The string's bytes (valid UTF-8, NUL-terminated, may contain NULs) and
 * optionally its length.  Multi-line strings have CRLF normalised to LF. */
bool xl_toml_as_string(const struct xl_toml_value *v, const char **str, size_t *len);
bool xl_toml_as_int(const struct xl_toml_value *v, int64_t *out);
/* Floats only: an integer value is a type error, not silently converted. */
bool xl_toml_as_float(const struct xl_toml_value *v, double *out);
bool xl_toml_as_bool(const struct xl_toml_value *v, bool *out);
/* Any of the four date/time kinds; xl_toml_type_of() tells which. */
bool xl_toml_as_datetime(const struct xl_toml_value *v, struct xl_toml_datetime *out);

/* ---- Errors for callers that validate a parsed tree -------------------- */

/* Fills *err exactly like the parser does, so semantic errors found by a
 * config loader look the same as syntax errors:
 *     xl_toml_error_set(err, "exaloop.toml", xl_toml_pos_of(v),
 *                       "expected a string for 'source', found %s", ...);
 * gives "exaloop.toml:3:10: expected a string for 'source', found ...". */
void xl_toml_error_set(struct xl_toml_error *err, const char *name, struct xl_toml_pos pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#ifdef __cplusplus
}
#endif

#endif /* XL_TOML_H */
