/* toml.c -- TOML 1.0 parser.  Contract and ownership rules: toml.h.
 *
 * Design
 *   A single-pass recursive-descent parser over the byte buffer.  The whole
 *   input is first checked to be valid UTF-8, so later stages can work on
 *   bytes and only need to care about ASCII structure.  The cursor tracks
 *   line and column as it advances, which is what gives every value and key
 *   its position.
 *
 * Memory
 *   Every node except the root is linked into one allocation chain owned by
 *   the document, so freeing is a flat loop (no recursion, no depth limit)
 *   and nodes orphaned by a failed parse are still released.  The root table
 *   is embedded in the document struct, which is how xl_toml_free() finds the
 *   chain from the pointer it is given.
 *
 * Redefinition rules
 *   TOML forbids defining a table twice but lets some tables be created
 *   implicitly and completed later.  Each table remembers how it came to be
 *   (enum origin) and each array whether it is a static `[...]` value or an
 *   array of tables; the two "descend" functions below encode what headers
 *   and dotted keys may do with each kind.
 */
#define _GNU_SOURCE /* strtod_l(), GNU strerror_r() */

#include "toml.h"

#include "strbuf.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Tree representation ---------------------------------------------- */

/* How a table or array came into existence; decides what may extend it. */
enum origin {
	ORIGIN_SCALAR = 0,
	TAB_ROOT,
	TAB_IMPLICIT, /* intermediate of a header path ([a.b] creates a): may still get its own [a] */
	TAB_HEADER,   /* defined by [a] or as an element of [[a]]: closed to dotted keys from outside */
	TAB_DOTTED,   /* created by a.b = 1: closed to [a] headers, open to more dotted keys and [a.x] */
	TAB_INLINE,   /* { ... }: complete as written, nothing may extend it */
	ARR_STATIC,   /* [ ... ] value: nothing may append to it */
	ARR_TABLES,   /* built by [[a]] headers: appendable, headers descend into its last element */
};

struct entry {
	char *key; /* owned, NUL-terminated, may contain NULs */
	size_t key_len;
	struct xl_toml_pos key_pos;
	struct xl_toml_value *value; /* owned through the document's allocation chain */
};

/* Tables keep entries in document order; once they grow past a few entries a
 * hash index (open addressing, slot = entry index + 1, 0 = empty) makes
 * lookups O(1).  The index is an optimisation only: if it cannot be
 * allocated, lookups fall back to a linear scan. */
#define INDEX_MIN_ENTRIES 8

struct xl_toml_value {
	enum xl_toml_type type;
	unsigned char origin; /* enum origin */
	bool is_root;
	struct xl_toml_pos pos;
	struct xl_toml_value *next_alloc; /* document allocation chain */
	union {
		struct {
			char *ptr; /* owned, NUL-terminated */
			size_t len;
		} str;
		int64_t i;
		double f;
		bool b;
		struct xl_toml_datetime dt;
		struct {
			struct xl_toml_value **items; /* owned vector; elements owned by the chain */
			size_t len, cap;
		} arr;
		struct {
			struct entry *ents; /* owned */
			size_t len, cap;
			uint32_t *index;  /* owned, may be NULL */
			size_t index_cap; /* power of two, or 0 */
		} tab;
	} u;
};

/* The allocation returned to the caller is the address of `root`. */
struct doc {
	struct xl_toml_value root;
	struct xl_toml_value *allocs; /* every other node, newest first */
};

static struct doc *doc_of(struct xl_toml_value *root)
{
	return (struct doc *)(void *)((char *)root - offsetof(struct doc, root));
}

static void free_payload(struct xl_toml_value *v)
{
	switch (v->type) {
	case XL_TOML_STRING: free(v->u.str.ptr); break;
	case XL_TOML_ARRAY: free(v->u.arr.items); break;
	case XL_TOML_TABLE:
		for (size_t i = 0; i < v->u.tab.len; i++)
			free(v->u.tab.ents[i].key);
		free(v->u.tab.ents);
		free(v->u.tab.index);
		break;
	default: break;
	}
}

static void doc_free(struct doc *d)
{
	struct xl_toml_value *v = d->allocs;
	while (v) {
		struct xl_toml_value *next = v->next_alloc;
		free_payload(v);
		free(v);
		v = next;
	}
	free_payload(&d->root);
	free(d);
}

void xl_toml_free(struct xl_toml_value *root)
{
	if (root && root->is_root)
		doc_free(doc_of(root));
}

/* ---- Error formatting ------------------------------------------------- */

static void compose_text(struct xl_toml_error *err, const char *name)
{
	if (!name)
		name = "<input>";
	if (err->pos.line)
		snprintf(err->text, sizeof err->text, "%s:%u:%u: %s", name, (unsigned)err->pos.line,
			 (unsigned)err->pos.column, err->message);
	else
		snprintf(err->text, sizeof err->text, "%s: %s", name, err->message);
}

static void error_vset(struct xl_toml_error *err, const char *name, struct xl_toml_pos pos, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));
static void error_vset(struct xl_toml_error *err, const char *name, struct xl_toml_pos pos, const char *fmt, va_list ap)
{
	err->pos = pos;
	vsnprintf(err->message, sizeof err->message, fmt, ap);
	compose_text(err, name);
}

void xl_toml_error_set(struct xl_toml_error *err, const char *name, struct xl_toml_pos pos, const char *fmt, ...)
{
	if (!err)
		return;
	va_list ap;
	va_start(ap, fmt);
	error_vset(err, name, pos, fmt, ap);
	va_end(ap);
}

/* ---- Parser state ----------------------------------------------------- */

struct parser {
	const unsigned char *s;
	size_t n;
	size_t i;           /* cursor (byte offset) */
	uint32_t line, col; /* position of s[i] */
	const char *name;
	struct xl_toml_error *err;
	bool failed;
	struct doc *d;
	struct xl_toml_value *section; /* table that key/value lines go to */
	locale_t c_locale;             /* created on the first float, for strtod_l */
	int depth;                     /* current array / inline-table nesting */
};

static struct xl_toml_pos here(const struct parser *p)
{
	return (struct xl_toml_pos){p->line, p->col};
}

/* Records the first error only: later failures are consequences of it. */
static bool fail_at(struct parser *p, struct xl_toml_pos pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool fail_at(struct parser *p, struct xl_toml_pos pos, const char *fmt, ...)
{
	if (!p->failed) {
		p->failed = true;
		va_list ap;
		va_start(ap, fmt);
		error_vset(p->err, p->name, pos, fmt, ap);
		va_end(ap);
	}
	return false;
}

static bool fail_oom(struct parser *p)
{
	return fail_at(p, (struct xl_toml_pos){0, 0}, "out of memory");
}

static int peek(const struct parser *p)
{
	return p->i < p->n ? p->s[p->i] : -1;
}

static int peek_at(const struct parser *p, size_t k)
{
	return p->i + k < p->n ? p->s[p->i + k] : -1;
}

/* Moves past one byte, keeping line/column current.  Columns advance on the
 * first byte of each UTF-8 sequence, so they count code points. */
static void adv(struct parser *p)
{
	if (p->i >= p->n)
		return;
	unsigned char c = p->s[p->i++];
	if (c == '\n') {
		p->line++;
		p->col = 1;
	} else if ((c & 0xC0) != 0x80) {
		p->col++;
	}
}

static void adv_n(struct parser *p, size_t k)
{
	while (k--)
		adv(p);
}

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static bool is_hex(int c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool is_bare(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' || c == '-';
}

/* Control characters TOML never allows unescaped (tab is the exception). */
static bool is_forbidden_ctl(int c)
{
	return (c >= 0 && c < 0x20 && c != '\t') || c == 0x7F;
}

static bool at_newline(const struct parser *p)
{
	return peek(p) == '\n' || (peek(p) == '\r' && peek_at(p, 1) == '\n');
}

/* Decodes the (already validated) UTF-8 sequence at s[i]. */
static uint32_t decode_at(const struct parser *p, size_t i)
{
	const unsigned char *s = p->s + i;
	if (s[0] < 0x80)
		return s[0];
	if (s[0] < 0xE0)
		return ((uint32_t)(s[0] & 0x1F) << 6) | (s[1] & 0x3F);
	if (s[0] < 0xF0)
		return ((uint32_t)(s[0] & 0x0F) << 12) | ((uint32_t)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
	return ((uint32_t)(s[0] & 0x07) << 18) | ((uint32_t)(s[1] & 0x3F) << 12) | ((uint32_t)(s[2] & 0x3F) << 6) |
	       (s[3] & 0x3F);
}

/* Describes the character at the cursor for "found X" in messages.  Never
 * emits raw control characters, so messages stay on one line. */
static const char *describe_here(const struct parser *p, char *buf, size_t cap)
{
	int c = peek(p);
	if (c < 0)
		return "end of file";
	if (at_newline(p))
		return "end of line";
	if (c >= 0x20 && c < 0x7F) {
		snprintf(buf, cap, "'%c'", c);
	} else if (c < 0x80) {
		snprintf(buf, cap, "control character U+%04X", (unsigned)c);
	} else {
		size_t len = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
		snprintf(buf, cap, "'%.*s' (U+%04X)", (int)len, (const char *)p->s + p->i,
			 (unsigned)decode_at(p, p->i));
	}
	return buf;
}

/* ---- Messages that quote keys ----------------------------------------- */

struct keypart {
	char *str; /* stays readable after tab_add() moves it into a table ... */
	size_t len;
	struct xl_toml_pos pos;
	bool owned; /* ... which clears this, so messages can still quote it */
};

struct keypath {
	struct keypart *parts;
	size_t n, cap;
};

static void keypath_free(struct keypath *k)
{
	for (size_t i = 0; i < k->n; i++)
		if (k->parts[i].owned)
			free(k->parts[i].str);
	free(k->parts);
	k->parts = NULL;
	k->n = k->cap = 0;
}

#define KEY_SHOWN_MAX 80 /* longer key paths are cut with "..." in messages */
struct keyname {
	char s[KEY_SHOWN_MAX + 8];
};

/* Appends n bytes to out->s[*w..] if they fit in the budget. */
static bool shown_put(struct keyname *out, size_t *w, const char *src, size_t n)
{
	if (*w + n > KEY_SHOWN_MAX)
		return false;
	memcpy(out->s + *w, src, n);
	*w += n;
	return true;
}

/* One key component: bare if it can be written bare, else "quoted" with
 * quotes, backslashes and control characters escaped. */
static bool shown_part(struct keyname *out, size_t *w, const struct keypart *kp)
{
	bool bare = kp->len > 0;
	for (size_t j = 0; j < kp->len && bare; j++)
		bare = is_bare((unsigned char)kp->str[j]);
	if (!bare && !shown_put(out, w, "\"", 1))
		return false;
	for (size_t j = 0; j < kp->len;) {
		unsigned char c = (unsigned char)kp->str[j];
		char esc[8];
		if (c == '"' || c == '\\' || c < 0x20 || c == 0x7F) {
			int n = c < 0x20 || c == 0x7F ? snprintf(esc, sizeof esc, "\\u%04X", (unsigned)c)
						      : snprintf(esc, sizeof esc, "\\%c", c);
			if (!shown_put(out, w, esc, (size_t)n))
				return false;
			j++;
			continue;
		}
		/* A whole UTF-8 sequence at a time, so a cut never splits one. */
		size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
		if (n > kp->len - j)
			n = kp->len - j;
		if (!shown_put(out, w, kp->str + j, n))
			return false;
		j += n;
	}
	return bare || shown_put(out, w, "\"", 1);
}

/* Renders parts[0..upto) as the user would write them, joined by '.', and
 * cut with "..." past KEY_SHOWN_MAX bytes. */
static const char *show_key(const struct keypath *k, size_t upto, struct keyname *out)
{
	size_t w = 0;
	bool fits = true;
	for (size_t i = 0; i < upto && fits; i++)
		fits = (i == 0 || shown_put(out, &w, ".", 1)) && shown_part(out, &w, &k->parts[i]);
	if (!fits) {
		memcpy(out->s + w, "...", 3);
		w += 3;
	}
	out->s[w] = '\0';
	return out->s;
}

static const char *a_type(const struct xl_toml_value *v)
{
	switch (v->type) {
	case XL_TOML_TABLE: return v->origin == TAB_INLINE ? "an inline table" : "a table";
	case XL_TOML_ARRAY: return v->origin == ARR_TABLES ? "an array of tables" : "an array";
	case XL_TOML_STRING: return "a string";
	case XL_TOML_INTEGER: return "an integer";
	case XL_TOML_FLOAT: return "a float";
	case XL_TOML_BOOL: return "a boolean";
	case XL_TOML_DATETIME: return "an offset datetime";
	case XL_TOML_LOCAL_DATETIME: return "a local datetime";
	case XL_TOML_LOCAL_DATE: return "a local date";
	case XL_TOML_LOCAL_TIME: return "a local time";
	default: return "a value";
	}
}

/* ---- Decoded strings: a strbuf (strbuf.h) ------------------------------ */

static bool sb_put(struct parser *p, struct strbuf *b, const void *src, size_t n)
{
	strbuf_add(b, src, n);
	return b->oom ? fail_oom(p) : true;
}

static bool sb_putc(struct parser *p, struct strbuf *b, char c)
{
	return sb_put(p, b, &c, 1);
}

/* The decoded string out of b: always an allocated, NUL-terminated string
 * (even ""), or NULL after reporting the allocation failure. */
static char *sb_take(struct parser *p, struct strbuf *b, size_t *len)
{
	char *s = strbuf_detach(b, len);
	if (!s)
		fail_oom(p);
	return s;
}

/* ---- Node construction ------------------------------------------------ */

static struct xl_toml_value *new_value(struct parser *p, enum xl_toml_type type, unsigned char origin,
				       struct xl_toml_pos pos)
{
	struct xl_toml_value *v = calloc(1, sizeof *v);
	if (!v) {
		fail_oom(p);
		return NULL;
	}
	v->type = type;
	v->origin = origin;
	v->pos = pos;
	v->next_alloc = p->d->allocs;
	p->d->allocs = v;
	return v;
}

static uint64_t hash_key(const char *k, size_t len)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)k[i];
		h *= 1099511628211ULL;
	}
	return h;
}

static struct entry *tab_find(const struct xl_toml_value *t, const char *key, size_t len)
{
	if (t->u.tab.index) {
		size_t mask = t->u.tab.index_cap - 1;
		for (size_t s = hash_key(key, len) & mask;; s = (s + 1) & mask) {
			uint32_t slot = t->u.tab.index[s];
			if (!slot)
				return NULL;
			struct entry *e = &t->u.tab.ents[slot - 1];
			if (e->key_len == len && memcmp(e->key, key, len) == 0)
				return e;
		}
	}
	for (size_t i = 0; i < t->u.tab.len; i++) {
		struct entry *e = &t->u.tab.ents[i];
		if (e->key_len == len && memcmp(e->key, key, len) == 0)
			return e;
	}
	return NULL;
}

static void index_insert(struct xl_toml_value *t, size_t idx)
{
	size_t mask = t->u.tab.index_cap - 1;
	const struct entry *e = &t->u.tab.ents[idx];
	size_t s = hash_key(e->key, e->key_len) & mask;
	while (t->u.tab.index[s])
		s = (s + 1) & mask;
	t->u.tab.index[s] = (uint32_t)(idx + 1);
}

/* Keeps the index at most half full; drops it (linear lookups) on OOM. */
static void index_update(struct xl_toml_value *t)
{
	size_t len = t->u.tab.len;
	if (len >= UINT32_MAX) { /* slots are 32-bit: fall back to linear lookups */
		free(t->u.tab.index);
		t->u.tab.index = NULL;
		t->u.tab.index_cap = 0;
		return;
	}
	if (len < INDEX_MIN_ENTRIES)
		return;
	if (t->u.tab.index && len * 2 <= t->u.tab.index_cap) {
		index_insert(t, len - 1);
		return;
	}
	size_t cap = 16;
	while (cap < len * 4)
		cap *= 2;
	free(t->u.tab.index);
	t->u.tab.index = calloc(cap, sizeof *t->u.tab.index);
	t->u.tab.index_cap = t->u.tab.index ? cap : 0;
	if (!t->u.tab.index)
		return;
	for (size_t i = 0; i < len; i++)
		index_insert(t, i);
}

/* Appends key -> value; the table takes ownership of kp's string on
 * success (kp->str stays valid for as long as the document). */
static bool tab_add(struct parser *p, struct xl_toml_value *t, struct keypart *kp, struct xl_toml_value *value)
{
	if (t->u.tab.len == t->u.tab.cap) {
		size_t cap = t->u.tab.cap ? t->u.tab.cap * 2 : 4;
		struct entry *ne = realloc(t->u.tab.ents, cap * sizeof *ne);
		if (!ne)
			return fail_oom(p);
		t->u.tab.ents = ne;
		t->u.tab.cap = cap;
	}
	t->u.tab.ents[t->u.tab.len++] = (struct entry){kp->str, kp->len, kp->pos, value};
	kp->owned = false;
	index_update(t);
	return true;
}

static bool arr_push(struct parser *p, struct xl_toml_value *a, struct xl_toml_value *v)
{
	if (a->u.arr.len == a->u.arr.cap) {
		size_t cap = a->u.arr.cap ? a->u.arr.cap * 2 : 4;
		struct xl_toml_value **ni = realloc(a->u.arr.items, cap * sizeof *ni);
		if (!ni)
			return fail_oom(p);
		a->u.arr.items = ni;
		a->u.arr.cap = cap;
	}
	a->u.arr.items[a->u.arr.len++] = v;
	return true;
}

/* ---- Whitespace, newlines, comments ----------------------------------- */

static void skip_ws(struct parser *p)
{
	while (peek(p) == ' ' || peek(p) == '\t')
		adv(p);
}

/* At '#': consumes the comment up to (not including) the line break. */
static bool skip_comment(struct parser *p)
{
	adv(p);
	for (;;) {
		int c = peek(p);
		if (c < 0 || c == '\n')
			return true;
		if (c == '\r') {
			if (peek_at(p, 1) == '\n')
				return true;
			return fail_at(p, here(p), "carriage return in a comment must be followed by a line feed");
		}
		if (is_forbidden_ctl(c))
			return fail_at(p, here(p), "control character U+%04X is not allowed in a comment", (unsigned)c);
		adv(p);
	}
}

static void skip_newline(struct parser *p)
{
	if (peek(p) == '\r')
		adv(p);
	adv(p);
}

/* After a complete statement: only whitespace and a comment may follow
 * before the line ends.  `after` describes the statement for the message;
 * when `k` is given the statement is "the value of '<k>'" (formatted only on
 * failure, so successful lines pay nothing for it). */
static bool end_of_line(struct parser *p, const char *after, const struct keypath *k)
{
	skip_ws(p);
	if (peek(p) == '#' && !skip_comment(p))
		return false;
	if (peek(p) < 0)
		return true;
	if (at_newline(p)) {
		skip_newline(p);
		return true;
	}
	char buf[48];
	if (peek(p) == '\r')
		return fail_at(p, here(p), "carriage return must be followed by a line feed");
	struct keyname kn;
	if (k)
		return fail_at(p, here(p), "expected end of line after the value of '%s', found %s",
			       show_key(k, k->n, &kn), describe_here(p, buf, sizeof buf));
	return fail_at(p, here(p), "expected end of line after %s, found %s", after, describe_here(p, buf, sizeof buf));
}

/* Inside arrays values may be spread over lines with comments between. */
static bool skip_ws_comments_newlines(struct parser *p)
{
	for (;;) {
		skip_ws(p);
		int c = peek(p);
		if (c == '#') {
			if (!skip_comment(p))
				return false;
		} else if (at_newline(p)) {
			skip_newline(p);
		} else if (c == '\r') {
			return fail_at(p, here(p), "carriage return must be followed by a line feed");
		} else {
			return true;
		}
	}
}

/* ---- UTF-8 validation (whole input, before parsing) ------------------- */

/* Length of the valid UTF-8 sequence at s[i], or 0 if it is malformed
 * (overlong forms, surrogates and code points above U+10FFFF included). */
static size_t utf8_len(const unsigned char *s, size_t n, size_t i)
{
	unsigned char c = s[i];
	if (c < 0x80)
		return 1;
	size_t len;
	unsigned char lo = 0x80, hi = 0xBF;
	if (c >= 0xC2 && c <= 0xDF) {
		len = 2;
	} else if (c >= 0xE0 && c <= 0xEF) {
		len = 3;
		if (c == 0xE0)
			lo = 0xA0;
		if (c == 0xED)
			hi = 0x9F; /* U+D800..U+DFFF are not characters */
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4;
		if (c == 0xF0)
			lo = 0x90;
		if (c == 0xF4)
			hi = 0x8F; /* nothing above U+10FFFF */
	} else {
		return 0;
	}
	if (i + len > n)
		return 0;
	if (s[i + 1] < lo || s[i + 1] > hi)
		return 0;
	for (size_t k = 2; k < len; k++)
		if ((s[i + k] & 0xC0) != 0x80)
			return 0;
	return len;
}

static bool validate_utf8(struct parser *p)
{
	for (size_t i = p->i; i < p->n;) {
		size_t len = utf8_len(p->s, p->n, i);
		if (len) {
			i += len;
			continue;
		}
		/* Rare path: walk the cursor there to report an exact position. */
		while (p->i < i)
			adv(p);
		return fail_at(p, here(p), "invalid UTF-8 (byte 0x%02X); TOML files must be UTF-8 encoded",
			       (unsigned)p->s[i]);
	}
	return true;
}

/* ---- Strings ----------------------------------------------------------- */

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return c - 'A' + 10;
}

static bool put_utf8(struct parser *p, struct strbuf *b, uint32_t cp)
{
	char u[4];
	size_t n;
	if (cp < 0x80) {
		u[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xC0 | (cp >> 6));
		u[1] = (char)(0x80 | (cp & 0x3F));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xE0 | (cp >> 12));
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		u[2] = (char)(0x80 | (cp & 0x3F));
		n = 3;
	} else {
		u[0] = (char)(0xF0 | (cp >> 18));
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		u[3] = (char)(0x80 | (cp & 0x3F));
		n = 4;
	}
	return sb_put(p, b, u, n);
}

/* At '\\' inside a basic string (the multi-line line-ending backslash is
 * handled by the caller). */
static bool parse_escape(struct parser *p, struct strbuf *b)
{
	struct xl_toml_pos at = here(p);
	adv(p);
	int c = peek(p);
	char simple = 0;
	switch (c) {
	case 'b': simple = '\b'; break;
	case 't': simple = '\t'; break;
	case 'n': simple = '\n'; break;
	case 'f': simple = '\f'; break;
	case 'r': simple = '\r'; break;
	case '"': simple = '"'; break;
	case '\\': simple = '\\'; break;
	case 'u':
	case 'U': {
		int digits = c == 'u' ? 4 : 8;
		uint32_t cp = 0;
		adv(p);
		for (int k = 0; k < digits; k++) {
			if (!is_hex(peek(p)))
				return fail_at(p, at, "escape \\%c needs exactly %d hexadecimal digits", c, digits);
			cp = cp * 16 + (uint32_t)hexval(peek(p));
			adv(p);
		}
		if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return fail_at(p, at, "escape \\%c%0*X is not a Unicode scalar value", c, digits, (unsigned)cp);
		return put_utf8(p, b, cp);
	}
	default: {
		char buf[48];
		if (c >= 0x21 && c < 0x7F)
			return fail_at(p, at, "invalid escape sequence '\\%c'", c);
		return fail_at(p, at, "invalid escape sequence: '\\' followed by %s",
			       describe_here(p, buf, sizeof buf));
	}
	}
	adv(p);
	return sb_putc(p, b, simple);
}

/* One ordinary character of string content: rejects control characters
 * and copies the (validated) UTF-8 sequence. */
static bool string_char(struct parser *p, struct strbuf *b, const char *kind, bool multiline)
{
	int c = peek(p);
	if (is_forbidden_ctl(c)) {
		if (c == '\r' && multiline)
			return fail_at(p, here(p), "carriage return in a %s must be followed by a line feed", kind);
		return fail_at(p, here(p), "control character U+%04X must be escaped in a %s", (unsigned)c, kind);
	}
	size_t len = utf8_len(p->s, p->n, p->i);
	if (!sb_put(p, b, p->s + p->i, len))
		return false;
	adv_n(p, len);
	return true;
}

/* "..." or '...' on one line; quote is '"' (escapes) or '\'' (literal). */
static bool parse_line_string(struct parser *p, struct strbuf *b, int quote)
{
	struct xl_toml_pos start = here(p);
	const char *kind = quote == '"' ? "string" : "literal string";
	adv(p);
	for (;;) {
		int c = peek(p);
		if (c == quote) {
			adv(p);
			return true;
		}
		if (c < 0)
			return fail_at(p, start, "unterminated %s (missing closing %c)", kind, quote);
		if (at_newline(p))
			return fail_at(p, start,
				       "unterminated %s: it must end on the same line (use %c%c%c "
				       "for multi-line)",
				       kind, quote, quote, quote);
		if (c == '\\' && quote == '"') {
			if (!parse_escape(p, b))
				return false;
		} else if (!string_char(p, b, kind, false)) {
			return false;
		}
	}
}

/* """...""" or '''...'''.  A newline right after the opening delimiter is
 * dropped; CRLF becomes LF; up to two quotes may sit right before the
 * closing delimiter. */
static bool parse_ml_string(struct parser *p, struct strbuf *b, int quote)
{
	struct xl_toml_pos start = here(p);
	const char *kind = quote == '"' ? "multi-line string" : "multi-line literal string";
	adv_n(p, 3);
	if (at_newline(p))
		skip_newline(p);
	for (;;) {
		int c = peek(p);
		if (c < 0)
			return fail_at(p, start, "unterminated %s (missing closing %c%c%c)", kind, quote, quote, quote);
		if (c == quote) {
			size_t q = 0;
			while (peek_at(p, q) == quote)
				q++;
			if (q < 3) {
				for (size_t k = 0; k < q; k++)
					if (!sb_putc(p, b, (char)quote))
						return false;
				adv_n(p, q);
				continue;
			}
			if (q > 5) {
				adv_n(p, 5);
				return fail_at(p, here(p),
					       "too many %c characters: at most two may directly "
					       "precede the closing %c%c%c",
					       quote, quote, quote, quote);
			}
			for (size_t k = 3; k < q; k++)
				if (!sb_putc(p, b, (char)quote))
					return false;
			adv_n(p, q);
			return true;
		}
		if (c == '\n' || (c == '\r' && peek_at(p, 1) == '\n')) {
			if (!sb_putc(p, b, '\n'))
				return false;
			skip_newline(p);
			continue;
		}
		if (c == '\\' && quote == '"') {
			/* Line-ending backslash: "\" then optional blanks then a newline
			 * trims all whitespace and newlines up to the next visible
			 * character. */
			size_t k = 1;
			while (peek_at(p, k) == ' ' || peek_at(p, k) == '\t')
				k++;
			int after = peek_at(p, k);
			if (after == '\n' || (after == '\r' && peek_at(p, k + 1) == '\n')) {
				adv(p);
				for (;;) {
					skip_ws(p);
					if (!at_newline(p))
						break;
					skip_newline(p);
				}
				continue;
			}
			if (!parse_escape(p, b))
				return false;
			continue;
		}
		if (!string_char(p, b, kind, true))
			return false;
	}
}

/* ---- Keys --------------------------------------------------------------- */

static bool parse_simple_key(struct parser *p, struct keypart *out)
{
	out->pos = here(p);
	out->str = NULL;
	out->owned = false;
	struct strbuf b;
	strbuf_init(&b);
	int c = peek(p);
	bool ok;
	if (is_bare(c)) {
		size_t start = p->i;
		while (is_bare(peek(p)))
			adv(p);
		ok = sb_put(p, &b, p->s + start, p->i - start);
	} else if (c == '"' || c == '\'') {
		if (peek_at(p, 1) == c && peek_at(p, 2) == c)
			return fail_at(p, here(p), "a multi-line string cannot be used as a key");
		ok = parse_line_string(p, &b, c);
	} else {
		char buf[48];
		return fail_at(p, here(p), "expected a key, found %s", describe_here(p, buf, sizeof buf));
	}
	if (!ok) {
		strbuf_release(&b);
		return false;
	}
	out->str = sb_take(p, &b, &out->len);
	if (!out->str)
		return false;
	out->owned = true;
	return true;
}

/* key ( '.' key )* with optional blanks around the dots. */
static bool parse_key(struct parser *p, struct keypath *k)
{
	for (;;) {
		skip_ws(p);
		if (k->n == XL_TOML_MAX_DEPTH)
			return fail_at(p, here(p), "key has more than %d dotted components", XL_TOML_MAX_DEPTH);
		if (k->n == k->cap) {
			size_t cap = k->cap ? k->cap * 2 : 4;
			struct keypart *np = realloc(k->parts, cap * sizeof *np);
			if (!np)
				return fail_oom(p);
			k->parts = np;
			k->cap = cap;
		}
		if (!parse_simple_key(p, &k->parts[k->n]))
			return false;
		k->n++;
		skip_ws(p);
		if (peek(p) != '.')
			return true;
		adv(p);
	}
}

/* ---- Numbers ------------------------------------------------------------ */

static bool is_base_digit(int c, int base)
{
	if (base == 16)
		return is_hex(c);
	return c >= '0' && c < '0' + (base < 10 ? base : 10);
}

/* Quotes a number token in a message, shortened if it is long (tokens are
 * not NUL-terminated and may be huge, so never print them unbounded). */
struct token_text {
	char s[48];
};

static const char *show_token(const char *t, size_t n, struct token_text *out)
{
	if (n < sizeof out->s)
		snprintf(out->s, sizeof out->s, "%.*s", (int)n, t);
	else
		snprintf(out->s, sizeof out->s, "%.*s...", (int)sizeof out->s - 4, t);
	return out->s;
}

/* Reads a run of digits of `base` starting at t[*j], with '_' allowed only
 * between two digits.  Sets *count to the number of digits; false after
 * reporting a misplaced '_'. */
static bool digit_run(struct parser *p, const char *t, size_t n, size_t *j, int base, struct xl_toml_pos tokpos,
		      size_t *count)
{
	size_t digits = 0;
	/* Set on every path: callers read it only when this returns true, but
	 * gcc -O3 cannot see that fail_at() (not inlined) always returns false. */
	*count = 0;
	while (*j < n) {
		int c = (unsigned char)t[*j];
		if (is_base_digit(c, base)) {
			digits++;
		} else if (c == '_') {
			if (!digits || *j + 1 >= n || !is_base_digit((unsigned char)t[*j + 1], base)) {
				struct xl_toml_pos at = {tokpos.line, tokpos.column + (uint32_t)*j};
				return fail_at(p, at, "'_' in a number must be between two digits");
			}
		} else {
			break;
		}
		(*j)++;
	}
	*count = digits;
	return true;
}

static bool make_float(struct parser *p, const char *t, size_t n, struct xl_toml_pos pos, double *out)
{
	char small[64];
	char *buf = n < sizeof small ? small : malloc(n + 1);
	if (!buf)
		return fail_oom(p);
	size_t w = 0;
	for (size_t k = 0; k < n; k++)
		if (t[k] != '_')
			buf[w++] = t[k];
	buf[w] = '\0';
	bool ok = true;
	if (!p->c_locale)
		p->c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (!p->c_locale) {
		ok = fail_oom(p);
	} else {
		*out = strtod_l(buf, NULL, p->c_locale);
		struct token_text tt;
		if (isinf(*out))
			ok = fail_at(p, pos, "float '%s' is out of range", show_token(t, n, &tt));
	}
	if (buf != small)
		free(buf);
	return ok;
}

/* The column k characters into a token that starts at pos. */
static struct xl_toml_pos at_col(struct xl_toml_pos pos, size_t k)
{
	return (struct xl_toml_pos){pos.line, pos.column + (uint32_t)k};
}

/* A decimal number's fraction and exponent, from t[*j] on: *is_float is
 * set when it has either. */
static bool float_parts(struct parser *p, const char *t, size_t n, size_t *j, struct xl_toml_pos pos, bool *is_float)
{
	size_t frac_digits;
	if (*j < n && t[*j] == '.') {
		*is_float = true;
		(*j)++;
		if (*j >= n || !is_digit((unsigned char)t[*j]))
			return fail_at(p, at_col(pos, *j), "expected digits after the decimal point");
		if (!digit_run(p, t, n, j, 10, pos, &frac_digits))
			return false;
	}
	if (*j < n && (t[*j] == 'e' || t[*j] == 'E')) {
		*is_float = true;
		(*j)++;
		if (*j < n && (t[*j] == '+' || t[*j] == '-'))
			(*j)++;
		if (*j >= n || !is_digit((unsigned char)t[*j]))
			return fail_at(p, at_col(pos, *j), "expected digits in the exponent");
		if (!digit_run(p, t, n, j, 10, pos, &frac_digits))
			return false;
	}
	return true;
}

/* The integer of the digits t[from..n) in base (underscores skipped),
 * negative when neg; an error when it does not fit in 64 bits. */
static struct xl_toml_value *make_integer(struct parser *p, const char *t, size_t n, size_t from, int base, bool neg,
					  struct xl_toml_pos pos)
{
	/* Accumulate the magnitude unsigned; the negative range is one larger. */
	uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	uint64_t acc = 0;
	struct token_text tt;
	for (size_t k = from; k < n; k++) {
		if (t[k] == '_')
			continue;
		uint64_t d = (uint64_t)hexval((unsigned char)t[k]);
		if (acc > (limit - d) / (uint64_t)base) {
			fail_at(p, pos, "integer '%s' does not fit in 64 bits", show_token(t, n, &tt));
			return NULL;
		}
		acc = acc * (uint64_t)base + d;
	}
	struct xl_toml_value *v = new_value(p, XL_TOML_INTEGER, ORIGIN_SCALAR, pos);
	if (v)
		v->u.i = neg ? (acc == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)acc) : (int64_t)acc;
	return v;
}

/* inf or nan, with the sign it had. */
static struct xl_toml_value *special_float(struct parser *p, char first, bool neg, struct xl_toml_pos pos)
{
	struct xl_toml_value *v = new_value(p, XL_TOML_FLOAT, ORIGIN_SCALAR, pos);
	if (v)
		v->u.f = first == 'i' ? (neg ? -INFINITY : INFINITY) : (neg ? -NAN : NAN);
	return v;
}

/* Integer or float.  t[0..n) is the maximal run of number-ish characters
 * starting at the cursor; the cursor is left after it. */
static struct xl_toml_value *parse_number(struct parser *p)
{
	struct xl_toml_pos pos = here(p);
	size_t start = p->i;
	for (;;) {
		int c = peek(p);
		if (!(is_bare(c) || c == '.' || c == '+'))
			break;
		adv(p);
	}
	const char *t = (const char *)p->s + start;
	size_t n = p->i - start;
	size_t j = 0;
	bool neg = false, sign = false;
	struct token_text tt;
	if (n && (t[0] == '+' || t[0] == '-')) {
		neg = t[0] == '-';
		sign = true;
		j = 1;
	}
	if (n - j == 3 && (memcmp(t + j, "inf", 3) == 0 || memcmp(t + j, "nan", 3) == 0))
		return special_float(p, t[j], neg, pos);
	if (j == n || !(is_digit((unsigned char)t[j]))) {
		if (j < n && t[j] == '.')
			fail_at(p, at_col(pos, j),
				"a number cannot start with '.' (write a digit before it, e.g. "
				"0.5)");
		else
			fail_at(p, pos, "invalid number '%s'", show_token(t, n, &tt));
		return NULL;
	}
	int base = 10;
	if (t[j] == '0' && j + 1 < n && (t[j + 1] == 'x' || t[j + 1] == 'o' || t[j + 1] == 'b')) {
		base = t[j + 1] == 'x' ? 16 : t[j + 1] == 'o' ? 8 : 2;
		if (sign) {
			fail_at(p, pos, "hexadecimal, octal and binary integers cannot have a sign");
			return NULL;
		}
		j += 2;
	}
	size_t digits_at = j, nd;
	if (!digit_run(p, t, n, &j, base, pos, &nd))
		return NULL;
	if (nd == 0) {
		fail_at(p, at_col(pos, j), "expected digits after '%.*s'", (int)j, t);
		return NULL;
	}
	bool is_float = false;
	if (base == 10) {
		if (t[digits_at] == '0' && nd > 1) {
			fail_at(p, at_col(pos, digits_at), "leading zeros are not allowed in numbers");
			return NULL;
		}
		if (!float_parts(p, t, n, &j, pos, &is_float))
			return NULL;
	}
	if (j < n) {
		if (base != 10 && is_bare((unsigned char)t[j]))
			fail_at(p, at_col(pos, j), "invalid digit '%c' in a base-%d integer", t[j], base);
		else
			fail_at(p, at_col(pos, j), "unexpected '%c' in number '%s'", t[j], show_token(t, n, &tt));
		return NULL;
	}
	if (is_float) {
		struct xl_toml_value *v = new_value(p, XL_TOML_FLOAT, ORIGIN_SCALAR, pos);
		if (v && !make_float(p, t, n, pos, &v->u.f))
			return NULL;
		return v;
	}
	return make_integer(p, t, n, digits_at, base, neg, pos);
}

/* ---- Dates and times ---------------------------------------------------- */

/* Reads exactly `count` digits; -1 if they are not there. */
static int fixed_digits(struct parser *p, int count)
{
	int v = 0;
	for (int k = 0; k < count; k++) {
		if (!is_digit(peek(p)))
			return -1;
		v = v * 10 + (peek(p) - '0');
		adv(p);
	}
	return v;
}

static bool expect_char(struct parser *p, int c)
{
	if (peek(p) != c)
		return false;
	adv(p);
	return true;
}

static int days_in_month(int y, int m)
{
	static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	return m == 2 && leap ? 29 : days[m - 1];
}

/* HH:MM:SS[.fraction] -- seconds are mandatory in TOML 1.0. */
static bool parse_time_part(struct parser *p, struct xl_toml_datetime *dt)
{
	struct xl_toml_pos pos = here(p);
	int h = fixed_digits(p, 2);
	bool c1 = h >= 0 && expect_char(p, ':');
	int mi = c1 ? fixed_digits(p, 2) : -1;
	bool c2 = mi >= 0 && expect_char(p, ':');
	int s = c2 ? fixed_digits(p, 2) : -1;
	if (s < 0)
		return fail_at(p, pos, "invalid time: expected HH:MM:SS (two digits each)");
	if (h > 23)
		return fail_at(p, pos, "invalid time: hour %02d is out of range (00-23)", h);
	if (mi > 59)
		return fail_at(p, pos, "invalid time: minute %02d is out of range (00-59)", mi);
	if (s > 60)
		return fail_at(p, pos, "invalid time: second %02d is out of range (00-60)", s);
	dt->hour = h;
	dt->minute = mi;
	dt->second = s;
	dt->has_time = true;
	if (peek(p) == '.') {
		adv(p);
		if (!is_digit(peek(p)))
			return fail_at(p, here(p), "invalid time: expected digits after '.'");
		int ns = 0, nd = 0;
		while (is_digit(peek(p))) {
			if (nd < 9) { /* the spec allows truncating beyond what is stored */
				ns = ns * 10 + (peek(p) - '0');
				nd++;
			}
			adv(p);
		}
		while (nd++ < 9)
			ns *= 10;
		dt->nanosecond = ns;
	}
	return true;
}

/* YYYY-MM-DD, validated against the calendar (leap years included). */
static bool parse_date_part(struct parser *p, struct xl_toml_datetime *dt)
{
	struct xl_toml_pos pos = here(p);
	int y = fixed_digits(p, 4);
	bool d1 = y >= 0 && expect_char(p, '-');
	int m = d1 ? fixed_digits(p, 2) : -1;
	bool d2 = m >= 0 && expect_char(p, '-');
	int d = d2 ? fixed_digits(p, 2) : -1;
	if (d < 0)
		return fail_at(p, pos, "invalid date: expected YYYY-MM-DD (with leading zeros)");
	if (m < 1 || m > 12)
		return fail_at(p, pos, "invalid date: month %02d is out of range (01-12)", m);
	if (d < 1 || d > days_in_month(y, m))
		return fail_at(p, pos, "invalid date: day %02d is out of range for %04d-%02d", d, y, m);
	dt->year = y;
	dt->month = m;
	dt->day = d;
	dt->has_date = true;
	return true;
}

/* Z, z or +HH:MM / -HH:MM. */
static bool parse_offset(struct parser *p, struct xl_toml_datetime *dt)
{
	struct xl_toml_pos pos = here(p);
	int c = peek(p);
	adv(p);
	dt->has_offset = true;
	if (c == 'Z' || c == 'z')
		return true;
	int oh = fixed_digits(p, 2);
	bool colon = oh >= 0 && expect_char(p, ':');
	int om = colon ? fixed_digits(p, 2) : -1;
	if (om < 0)
		return fail_at(p, pos, "invalid UTC offset: expected %cHH:MM", c);
	if (oh > 23 || om > 59)
		return fail_at(p, pos, "invalid UTC offset %c%02d:%02d (hours 00-23, minutes 00-59)", c, oh, om);
	dt->offset_minutes = (c == '-' ? -1 : 1) * (oh * 60 + om);
	return true;
}

/* After a date: is a time coming?  RFC 3339 lets a space replace the 'T', so
 * a space counts only when "HH:" follows -- "d = 1979-05-27 # note" is still
 * a plain date. */
static bool time_follows(const struct parser *p)
{
	int c = peek(p);
	return c == 'T' || c == 't' ||
	       (c == ' ' && is_digit(peek_at(p, 1)) && is_digit(peek_at(p, 2)) && peek_at(p, 3) == ':');
}

/* At a digit known to start "YYYY-" (starts_with_date) or "HH:". */
static struct xl_toml_value *parse_datetime(struct parser *p, bool starts_with_date)
{
	struct xl_toml_pos pos = here(p);
	struct xl_toml_datetime dt = {0};
	enum xl_toml_type type;
	if (!starts_with_date) {
		if (!parse_time_part(p, &dt))
			return NULL;
		type = XL_TOML_LOCAL_TIME;
	} else {
		if (!parse_date_part(p, &dt))
			return NULL;
		type = XL_TOML_LOCAL_DATE;
		if (time_follows(p)) {
			adv(p); /* the separator */
			if (!parse_time_part(p, &dt))
				return NULL;
			type = XL_TOML_LOCAL_DATETIME;
			int c = peek(p);
			if (c == 'Z' || c == 'z' || c == '+' || c == '-') {
				if (!parse_offset(p, &dt))
					return NULL;
				type = XL_TOML_DATETIME;
			}
		}
	}
	struct xl_toml_value *v = new_value(p, type, ORIGIN_SCALAR, pos);
	if (v)
		v->u.dt = dt;
	return v;
}

/* ---- Values -------------------------------------------------------------- */

static struct xl_toml_value *parse_value(struct parser *p, const struct keypath *k);
static bool parse_keyval(struct parser *p, struct xl_toml_value *table, bool in_inline);

static struct xl_toml_value *parse_string_value(struct parser *p)
{
	struct xl_toml_pos pos = here(p);
	int q = peek(p);
	struct strbuf b;
	strbuf_init(&b);
	bool ml = peek_at(p, 1) == q && peek_at(p, 2) == q;
	bool ok = ml ? parse_ml_string(p, &b, q) : parse_line_string(p, &b, q);
	struct xl_toml_value *v = ok ? new_value(p, XL_TOML_STRING, ORIGIN_SCALAR, pos) : NULL;
	if (!v) {
		strbuf_release(&b);
		return NULL;
	}
	v->u.str.ptr = sb_take(p, &b, &v->u.str.len);
	if (!v->u.str.ptr) {
		free(v);
		return NULL;
	}
	return v;
}

static bool enter_nesting(struct parser *p)
{
	if (p->depth >= XL_TOML_MAX_DEPTH)
		return fail_at(p, here(p), "arrays and inline tables nested more than %d deep", XL_TOML_MAX_DEPTH);
	p->depth++;
	return true;
}

static struct xl_toml_value *parse_array(struct parser *p)
{
	struct xl_toml_pos pos = here(p);
	if (!enter_nesting(p))
		return NULL;
	adv(p);
	struct xl_toml_value *a = new_value(p, XL_TOML_ARRAY, ARR_STATIC, pos);
	if (!a)
		return NULL;
	for (;;) {
		if (!skip_ws_comments_newlines(p))
			return NULL;
		if (peek(p) == ']')
			break;
		if (peek(p) < 0) {
			fail_at(p, pos, "unterminated array (missing ']')");
			return NULL;
		}
		if (peek(p) == ',') {
			fail_at(p, here(p), "expected a value or ']' in array, found ','");
			return NULL;
		}
		struct xl_toml_value *item = parse_value(p, NULL);
		if (!item || !arr_push(p, a, item))
			return NULL;
		if (!skip_ws_comments_newlines(p))
			return NULL;
		if (peek(p) == ',') {
			adv(p);
			continue;
		}
		if (peek(p) == ']')
			break;
		char buf[48];
		if (peek(p) < 0)
			fail_at(p, pos, "unterminated array (missing ']')");
		else
			fail_at(p, here(p), "expected ',' or ']' after array element, found %s",
				describe_here(p, buf, sizeof buf));
		return NULL;
	}
	adv(p);
	p->depth--;
	return a;
}

/* TOML 1.0 inline tables cannot span lines (1.1 will allow it). */
static const char inline_eol[] = "expected '}' before the end of the line (TOML 1.0 inline tables are single-line)";

static struct xl_toml_value *parse_inline_table(struct parser *p)
{
	struct xl_toml_pos pos = here(p);
	if (!enter_nesting(p))
		return NULL;
	adv(p);
	struct xl_toml_value *t = new_value(p, XL_TOML_TABLE, TAB_INLINE, pos);
	if (!t)
		return NULL;
	skip_ws(p);
	if (peek(p) == '}') {
		adv(p);
		p->depth--;
		return t;
	}
	for (;;) {
		skip_ws(p);
		if (at_newline(p) || peek(p) == '#') {
			fail_at(p, here(p), "%s", inline_eol);
			return NULL;
		}
		if (peek(p) < 0) {
			fail_at(p, pos, "unterminated inline table (missing '}')");
			return NULL;
		}
		if (!parse_keyval(p, t, true))
			return NULL;
		skip_ws(p);
		int c = peek(p);
		if (c == ',') {
			adv(p);
			skip_ws(p);
			if (peek(p) == '}') {
				fail_at(p, here(p),
					"trailing comma is not allowed in an inline table (TOML "
					"1.0)");
				return NULL;
			}
			continue;
		}
		if (c == '}')
			break;
		char buf[48];
		if (c < 0)
			fail_at(p, pos, "unterminated inline table (missing '}')");
		else if (at_newline(p) || c == '#')
			fail_at(p, here(p), "%s", inline_eol);
		else
			fail_at(p, here(p), "expected ',' or '}' in inline table, found %s",
				describe_here(p, buf, sizeof buf));
		return NULL;
	}
	adv(p);
	p->depth--;
	return t;
}

/* `k` (may be NULL inside arrays) names the key the value belongs to. */
static struct xl_toml_value *parse_value(struct parser *p, const struct keypath *k)
{
	int c = peek(p);
	char buf[48];
	struct keyname kn;
	if (c == '"' || c == '\'')
		return parse_string_value(p);
	if (c == '[')
		return parse_array(p);
	if (c == '{')
		return parse_inline_table(p);
	if (is_digit(c)) {
		/* Dates start with exactly four digits and '-', times with two and ':'. */
		size_t nd = 0;
		while (is_digit(peek_at(p, nd)))
			nd++;
		if (peek_at(p, nd) == '-' && nd == 4)
			return parse_datetime(p, true);
		if (peek_at(p, nd) == ':' && nd == 2)
			return parse_datetime(p, false);
		if (peek_at(p, nd) == '-' && nd > 1 && nd != 4) {
			fail_at(p, here(p), "invalid date: the year must have exactly 4 digits (YYYY-MM-DD)");
			return NULL;
		}
		if (peek_at(p, nd) == ':') {
			fail_at(p, here(p), "invalid time: the hour must have exactly 2 digits (HH:MM:SS)");
			return NULL;
		}
		return parse_number(p);
	}
	if (c == '+' || c == '-' || c == '.')
		return parse_number(p);
	if (c == 't' || c == 'f' || c == 'i' || c == 'n') {
		size_t n = 0;
		while (is_bare(peek_at(p, n)))
			n++;
		const char *w = (const char *)p->s + p->i;
		struct xl_toml_pos pos = here(p);
		if ((n == 4 && memcmp(w, "true", 4) == 0) || (n == 5 && memcmp(w, "false", 5) == 0)) {
			adv_n(p, n);
			struct xl_toml_value *v = new_value(p, XL_TOML_BOOL, ORIGIN_SCALAR, pos);
			if (v)
				v->u.b = n == 4;
			return v;
		}
		if (n == 3 && (memcmp(w, "inf", 3) == 0 || memcmp(w, "nan", 3) == 0))
			return parse_number(p);
	}
	if (c < 0 || at_newline(p) || c == '#') {
		if (k)
			fail_at(p, here(p), "missing value for key '%s'", show_key(k, k->n, &kn));
		else
			fail_at(p, here(p), "missing value");
		return NULL;
	}
	if (is_bare(c)) {
		size_t n = 0;
		while (is_bare(peek_at(p, n)))
			n++;
		fail_at(p, here(p), "invalid value '%.*s' (strings must be quoted; booleans are true/false)",
			(int)(n > 40 ? 40 : n), (const char *)p->s + p->i);
		return NULL;
	}
	fail_at(p, here(p), "expected a value, found %s", describe_here(p, buf, sizeof buf));
	return NULL;
}

/* ---- Tables: what headers and dotted keys may do ------------------------ */

/* Intermediate component of a dotted key in a key/value pair: continue into
 * (or create) a table that dotted keys are allowed to extend. */
static struct xl_toml_value *descend_dotted(struct parser *p, struct xl_toml_value *t, struct keypath *k, size_t i)
{
	struct keypart *kp = &k->parts[i];
	struct keyname kn;
	struct entry *e = tab_find(t, kp->str, kp->len);
	if (!e) {
		struct xl_toml_value *sub = new_value(p, XL_TOML_TABLE, TAB_DOTTED, kp->pos);
		if (!sub || !tab_add(p, t, kp, sub))
			return NULL;
		return sub;
	}
	struct xl_toml_value *v = e->value;
	if (v->type == XL_TOML_TABLE) {
		if (v->origin == TAB_DOTTED)
			return v;
		if (v->origin == TAB_IMPLICIT) {
			/* Only created as a step of some [x.y.z] header; the dotted keys now
       * define it, so a later [header] for it is a redefinition. */
			v->origin = TAB_DOTTED;
			return v;
		}
		if (v->origin == TAB_INLINE) {
			fail_at(p, kp->pos,
				"cannot add to '%s': inline tables cannot be extended (defined at "
				"%u:%u)",
				show_key(k, i + 1, &kn), (unsigned)v->pos.line, (unsigned)v->pos.column);
			return NULL;
		}
		fail_at(p, kp->pos,
			"cannot add to table '%s' with dotted keys: it was defined by a [header] "
			"at %u:%u",
			show_key(k, i + 1, &kn), (unsigned)v->pos.line, (unsigned)v->pos.column);
		return NULL;
	}
	fail_at(p, kp->pos, "key '%s' is already defined as %s at %u:%u, not a table", show_key(k, i + 1, &kn),
		a_type(v), (unsigned)e->key_pos.line, (unsigned)e->key_pos.column);
	return NULL;
}

/* Intermediate component of a [header] or [[header]]: headers may pass
 * through any table except inline ones, and into the last element of an
 * array of tables. */
static struct xl_toml_value *descend_header(struct parser *p, struct xl_toml_value *t, struct keypath *k, size_t i)
{
	struct keypart *kp = &k->parts[i];
	struct keyname kn;
	struct entry *e = tab_find(t, kp->str, kp->len);
	if (!e) {
		struct xl_toml_value *sub = new_value(p, XL_TOML_TABLE, TAB_IMPLICIT, kp->pos);
		if (!sub || !tab_add(p, t, kp, sub))
			return NULL;
		return sub;
	}
	struct xl_toml_value *v = e->value;
	if (v->type == XL_TOML_TABLE && v->origin != TAB_INLINE)
		return v;
	if (v->type == XL_TOML_ARRAY && v->origin == ARR_TABLES)
		return v->u.arr.items[v->u.arr.len - 1];
	if (v->type == XL_TOML_TABLE)
		fail_at(p, kp->pos, "cannot add to '%s': inline tables cannot be extended (defined at %u:%u)",
			show_key(k, i + 1, &kn), (unsigned)v->pos.line, (unsigned)v->pos.column);
	else if (v->type == XL_TOML_ARRAY)
		fail_at(p, kp->pos,
			"cannot add to '%s': it is a static array (defined at %u:%u), not an array "
			"of tables",
			show_key(k, i + 1, &kn), (unsigned)v->pos.line, (unsigned)v->pos.column);
	else
		fail_at(p, kp->pos, "key '%s' is already defined as %s at %u:%u, not a table", show_key(k, i + 1, &kn),
			a_type(v), (unsigned)e->key_pos.line, (unsigned)e->key_pos.column);
	return NULL;
}

/* key = value, into `table` (the current section or an inline table). */
static bool parse_keyval(struct parser *p, struct xl_toml_value *table, bool in_inline)
{
	struct keypath k = {0};
	struct keyname kn;
	char buf[48];
	bool ok = false;
	if (!parse_key(p, &k))
		goto out;
	if (peek(p) != '=') {
		if (at_newline(p) || peek(p) < 0)
			fail_at(p, here(p),
				"expected '=' after key '%s' (a key must be followed by '=' and a "
				"value on the same line)",
				show_key(&k, k.n, &kn));
		else
			fail_at(p, here(p), "expected '=' after key '%s', found %s", show_key(&k, k.n, &kn),
				describe_here(p, buf, sizeof buf));
		goto out;
	}
	adv(p);
	skip_ws(p);
	struct xl_toml_value *t = table;
	for (size_t i = 0; i + 1 < k.n; i++)
		if (!(t = descend_dotted(p, t, &k, i)))
			goto out;
	struct keypart *last = &k.parts[k.n - 1];
	struct entry *e = tab_find(t, last->str, last->len);
	if (e) {
		fail_at(p, last->pos, "duplicate key '%s' (first defined at %u:%u)", show_key(&k, k.n, &kn),
			(unsigned)e->key_pos.line, (unsigned)e->key_pos.column);
		goto out;
	}
	struct xl_toml_value *v = parse_value(p, &k);
	if (!v)
		goto out;
	if (!in_inline && !end_of_line(p, NULL, &k))
		goto out;
	ok = tab_add(p, t, last, v);
out:
	keypath_free(&k);
	return ok;
}

/* [[name]]: a new table at the end of the array of tables of key last in
 * t (e: its entry, or NULL the first time), which becomes the section. */
static bool open_array_table(struct parser *p, struct xl_toml_value *t, struct keypart *last, struct entry *e,
			     const char *name, struct xl_toml_pos pos)
{
	struct xl_toml_value *arr;
	if (!e) {
		arr = new_value(p, XL_TOML_ARRAY, ARR_TABLES, pos);
		if (!arr || !tab_add(p, t, last, arr))
			return false;
	} else if (e->value->type == XL_TOML_ARRAY && e->value->origin == ARR_TABLES) {
		arr = e->value;
	} else {
		return fail_at(p, last->pos, "cannot use [[%s]]: '%s' is already defined as %s at %u:%u", name, name,
			       a_type(e->value), (unsigned)e->key_pos.line, (unsigned)e->key_pos.column);
	}
	struct xl_toml_value *elem = new_value(p, XL_TOML_TABLE, TAB_HEADER, pos);
	if (!elem || !arr_push(p, arr, elem))
		return false;
	p->section = elem;
	return true;
}

/* [name]: the table of key last in t (e: its entry, or NULL when new),
 * defined here once, becomes the section. */
static bool open_table(struct parser *p, struct xl_toml_value *t, struct keypart *last, struct entry *e,
		       const char *name, struct xl_toml_pos pos)
{
	if (!e) {
		struct xl_toml_value *sub = new_value(p, XL_TOML_TABLE, TAB_HEADER, pos);
		if (!sub || !tab_add(p, t, last, sub))
			return false;
		p->section = sub;
		return true;
	}
	struct xl_toml_value *v = e->value;
	struct xl_toml_pos at = e->key_pos;
	if (v->type == XL_TOML_TABLE && v->origin == TAB_IMPLICIT) {
		/* Created on the way to a sub-table; this is its one definition. */
		v->origin = TAB_HEADER;
		v->pos = pos;
		e->key_pos = last->pos;
		p->section = v;
		return true;
	}
	if (v->type == XL_TOML_TABLE && v->origin == TAB_HEADER)
		return fail_at(p, pos, "table [%s] is defined twice (first at %u:%u)", name, (unsigned)v->pos.line,
			       (unsigned)v->pos.column);
	if (v->type == XL_TOML_TABLE && v->origin == TAB_DOTTED)
		return fail_at(p, pos,
			       "cannot define table [%s]: it was already created by dotted keys "
			       "at %u:%u",
			       name, (unsigned)at.line, (unsigned)at.column);
	if (v->type == XL_TOML_ARRAY && v->origin == ARR_TABLES)
		return fail_at(p, pos, "cannot define table [%s]: it is an array of tables (use [[%s]])", name, name);
	return fail_at(p, pos,
		       "cannot define table [%s]: the key is already defined as %s at "
		       "%u:%u",
		       name, a_type(v), (unsigned)at.line, (unsigned)at.column);
}

/* [a.b.c] or [[a.b.c]] */
static bool parse_header(struct parser *p)
{
	struct xl_toml_pos pos = here(p);
	struct keypath k = {0};
	struct keyname kn;
	char buf[48];
	bool ok = false;
	adv(p);
	bool aot = peek(p) == '[';
	if (aot)
		adv(p);
	if (!parse_key(p, &k))
		goto out;
	if (peek(p) != ']' || (aot && peek_at(p, 1) != ']')) {
		fail_at(p, here(p), "expected '%s' to close the header of '%s', found %s", aot ? "]]" : "]",
			show_key(&k, k.n, &kn), describe_here(p, buf, sizeof buf));
		goto out;
	}
	adv_n(p, aot ? 2 : 1);
	struct xl_toml_value *t = &p->d->root;
	for (size_t i = 0; i + 1 < k.n; i++)
		if (!(t = descend_header(p, t, &k, i)))
			goto out;
	struct keypart *last = &k.parts[k.n - 1];
	struct entry *e = tab_find(t, last->str, last->len);
	const char *name = show_key(&k, k.n, &kn);
	if (!(aot ? open_array_table(p, t, last, e, name, pos) : open_table(p, t, last, e, name, pos)))
		goto out;
	char what[KEY_SHOWN_MAX + 40];
	snprintf(what, sizeof what, "table header [%s%s%s", aot ? "[" : "", name, aot ? "]]" : "]");
	ok = end_of_line(p, what, NULL);
out:
	keypath_free(&k);
	return ok;
}

static bool parse_document(struct parser *p)
{
	/* A byte order mark is allowed at the very start and means nothing. */
	if (p->n >= 3 && p->s[0] == 0xEF && p->s[1] == 0xBB && p->s[2] == 0xBF)
		p->i = 3;
	if (!validate_utf8(p))
		return false;
	for (;;) {
		skip_ws(p);
		int c = peek(p);
		if (c < 0)
			return true;
		bool ok;
		if (c == '#') {
			ok = end_of_line(p, "a comment", NULL); /* consumes comment and newline */
		} else if (at_newline(p)) {
			skip_newline(p);
			ok = true;
		} else if (c == '[') {
			ok = parse_header(p);
		} else if (c == '\r') {
			ok = fail_at(p, here(p), "carriage return must be followed by a line feed");
		} else {
			ok = parse_keyval(p, p->section, false);
		}
		if (!ok)
			return false;
	}
}

/* ---- Public entry points ------------------------------------------------ */

struct xl_toml_value *xl_toml_parse(const char *data, size_t len, const char *name, struct xl_toml_error *err)
{
	struct xl_toml_error scratch;
	if (!err)
		err = &scratch;
	memset(err, 0, sizeof *err);
	if (!data && len) {
		xl_toml_error_set(err, name, (struct xl_toml_pos){0, 0}, "no input buffer");
		return NULL;
	}
	struct doc *d = calloc(1, sizeof *d);
	if (!d) {
		xl_toml_error_set(err, name, (struct xl_toml_pos){0, 0}, "out of memory");
		return NULL;
	}
	d->root.type = XL_TOML_TABLE;
	d->root.origin = TAB_ROOT;
	d->root.is_root = true;
	d->root.pos = (struct xl_toml_pos){1, 1};
	struct parser p = {
		.s = (const unsigned char *)(data ? data : ""),
		.n = len,
		.line = 1,
		.col = 1,
		.name = name,
		.err = err,
		.d = d,
		.section = &d->root,
	};
	bool ok = parse_document(&p);
	if (p.c_locale)
		freelocale(p.c_locale);
	if (!ok) {
		doc_free(d);
		return NULL;
	}
	return &d->root;
}

struct xl_toml_value *xl_toml_parse_file(const char *path, struct xl_toml_error *err)
{
	struct xl_toml_error scratch;
	if (!err)
		err = &scratch;
	memset(err, 0, sizeof *err);
	FILE *f = fopen(path, "rb");
	char ebuf[128];
	if (!f) {
		xl_toml_error_set(err, path, (struct xl_toml_pos){0, 0}, "cannot open: %s",
				  strerror_r(errno, ebuf, sizeof ebuf));
		return NULL;
	}
	char *buf = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 8192;
			char *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				xl_toml_error_set(err, path, (struct xl_toml_pos){0, 0}, "out of memory");
				return NULL;
			}
			buf = nb;
		}
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno;
		free(buf);
		fclose(f);
		xl_toml_error_set(err, path, (struct xl_toml_pos){0, 0}, "cannot read: %s",
				  strerror_r(e, ebuf, sizeof ebuf));
		return NULL;
	}
	fclose(f);
	struct xl_toml_value *root = xl_toml_parse(buf, len, path, err);
	free(buf);
	return root;
}

/* ---- Accessors ------------------------------------------------------------ */

enum xl_toml_type xl_toml_type_of(const struct xl_toml_value *v)
{
	return v ? v->type : XL_TOML_NONE;
}

const char *xl_toml_type_name(enum xl_toml_type t)
{
	switch (t) {
	case XL_TOML_TABLE: return "table";
	case XL_TOML_ARRAY: return "array";
	case XL_TOML_STRING: return "string";
	case XL_TOML_INTEGER: return "integer";
	case XL_TOML_FLOAT: return "float";
	case XL_TOML_BOOL: return "boolean";
	case XL_TOML_DATETIME: return "datetime";
	case XL_TOML_LOCAL_DATETIME: return "local datetime";
	case XL_TOML_LOCAL_DATE: return "local date";
	case XL_TOML_LOCAL_TIME: return "local time";
	case XL_TOML_NONE: break;
	}
	return "none";
}

struct xl_toml_pos xl_toml_pos_of(const struct xl_toml_value *v)
{
	return v ? v->pos : (struct xl_toml_pos){0, 0};
}

size_t xl_toml_table_len(const struct xl_toml_value *t)
{
	return t && t->type == XL_TOML_TABLE ? t->u.tab.len : 0;
}

static void fill_entry(const struct entry *e, struct xl_toml_entry *out)
{
	out->key = e->key;
	out->key_len = e->key_len;
	out->key_pos = e->key_pos;
	out->value = e->value;
}

bool xl_toml_table_find(const struct xl_toml_value *t, const char *key, size_t key_len, struct xl_toml_entry *out)
{
	if (!t || t->type != XL_TOML_TABLE || (!key && key_len))
		return false;
	const struct entry *e = tab_find(t, key ? key : "", key_len);
	if (!e)
		return false;
	if (out)
		fill_entry(e, out);
	return true;
}

const struct xl_toml_value *xl_toml_table_getn(const struct xl_toml_value *t, const char *key, size_t key_len)
{
	struct xl_toml_entry e;
	return xl_toml_table_find(t, key, key_len, &e) ? e.value : NULL;
}

const struct xl_toml_value *xl_toml_table_get(const struct xl_toml_value *t, const char *key)
{
	return key ? xl_toml_table_getn(t, key, strlen(key)) : NULL;
}

bool xl_toml_table_entry(const struct xl_toml_value *t, size_t i, struct xl_toml_entry *out)
{
	if (!t || t->type != XL_TOML_TABLE || i >= t->u.tab.len || !out)
		return false;
	fill_entry(&t->u.tab.ents[i], out);
	return true;
}

const struct xl_toml_value *xl_toml_lookup(const struct xl_toml_value *t, const char *path)
{
	if (!path)
		return NULL;
	for (;;) {
		const char *dot = strchr(path, '.');
		size_t len = dot ? (size_t)(dot - path) : strlen(path);
		t = xl_toml_table_getn(t, path, len);
		if (!dot || !t)
			return t;
		path = dot + 1;
	}
}

size_t xl_toml_array_len(const struct xl_toml_value *a)
{
	return a && a->type == XL_TOML_ARRAY ? a->u.arr.len : 0;
}

const struct xl_toml_value *xl_toml_array_at(const struct xl_toml_value *a, size_t i)
{
	return a && a->type == XL_TOML_ARRAY && i < a->u.arr.len ? a->u.arr.items[i] : NULL;
}

bool xl_toml_as_string(const struct xl_toml_value *v, const char **str, size_t *len)
{
	if (!v || v->type != XL_TOML_STRING)
		return false;
	if (str)
		*str = v->u.str.ptr;
	if (len)
		*len = v->u.str.len;
	return true;
}

bool xl_toml_as_int(const struct xl_toml_value *v, int64_t *out)
{
	if (!v || v->type != XL_TOML_INTEGER)
		return false;
	if (out)
		*out = v->u.i;
	return true;
}

bool xl_toml_as_float(const struct xl_toml_value *v, double *out)
{
	if (!v || v->type != XL_TOML_FLOAT)
		return false;
	if (out)
		*out = v->u.f;
	return true;
}

bool xl_toml_as_bool(const struct xl_toml_value *v, bool *out)
{
	if (!v || v->type != XL_TOML_BOOL)
		return false;
	if (out)
		*out = v->u.b;
	return true;
}

bool xl_toml_as_datetime(const struct xl_toml_value *v, struct xl_toml_datetime *out)
{
	if (!v || v->type < XL_TOML_DATETIME || v->type > XL_TOML_LOCAL_TIME)
		return false;
	if (out)
		*out = v->u.dt;
	return true;
}
