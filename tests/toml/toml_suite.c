/* toml-suite-runner -- runs a toml-test decoder over the official suite.
 *
 *   toml-suite-runner --decoder BIN --suite DIR [--toml-version 1.0.0] [-v]
 *
 * DIR is a toml-test checkout (the directory holding tests/).  The file list
 * DIR/tests/files-toml-<version> names every case.  For each valid/X.toml the
 * decoder must exit 0 and print JSON that matches valid/X.json; for each
 * invalid/X.toml it must exit 1 with a message on stderr (a crash or any
 * other status is a failure, so a segfault never counts as "rejected").
 *
 * Comparison follows toml-test's rules: the tagged types must match exactly;
 * floats compare as numbers (every NaN equal to every NaN); the four
 * date/time kinds compare by value (offset datetimes as instants, fractions
 * to the nanosecond, 'T'/'t'/' ' and 'Z'/'z' interchangeable); integers,
 * booleans and strings compare as exact strings; tables compare as key sets.
 *
 * Exits 0 when every case passes, 1 otherwise, and 77 (CTest's skip code)
 * when the suite is not present.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define SKIP_CODE 77

/* ---- Running the decoder ---------------------------------------------- */

struct run_result {
	int status; /* from waitpid */
	char *out;  /* stdout, NUL-terminated */
	size_t out_len;
	char *err; /* stderr, NUL-terminated */
};

static char *slurp_fd(int fd, size_t *len_out)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	if (!buf)
		return NULL;
	if (lseek(fd, 0, SEEK_SET) < 0) {
		free(buf);
		return NULL;
	}
	for (;;) {
		if (len + 1 >= cap) {
			cap *= 2;
			char *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
		}
		ssize_t got = read(fd, buf + len, cap - len - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		len += (size_t)got;
	}
	buf[len] = '\0';
	if (len_out)
		*len_out = len;
	return buf;
}

/* Output goes to anonymous temporary files rather than pipes, so a chatty
 * decoder can never deadlock against us. */
static bool run_decoder(const char *decoder, const char *input, struct run_result *r)
{
	memset(r, 0, sizeof *r);
	int in = open(input, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return false;
	FILE *fo = tmpfile(), *fe = tmpfile();
	bool ok = false;
	if (fo && fe) {
		posix_spawn_file_actions_t fa;
		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_adddup2(&fa, in, 0);
		posix_spawn_file_actions_adddup2(&fa, fileno(fo), 1);
		posix_spawn_file_actions_adddup2(&fa, fileno(fe), 2);
		char *argv[] = {(char *)decoder, NULL};
		pid_t pid;
		if (posix_spawn(&pid, decoder, &fa, NULL, argv, environ) == 0) {
			while (waitpid(pid, &r->status, 0) < 0 && errno == EINTR) {
			}
			r->out = slurp_fd(fileno(fo), &r->out_len);
			r->err = slurp_fd(fileno(fe), NULL);
			ok = r->out && r->err;
		}
		posix_spawn_file_actions_destroy(&fa);
	}
	if (fo)
		fclose(fo);
	if (fe)
		fclose(fe);
	close(in);
	return ok;
}

static char *slurp_path(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	char *text = slurp_fd(fd, len);
	close(fd);
	return text;
}

static void run_free(struct run_result *r)
{
	free(r->out);
	free(r->err);
}

/* ---- Minimal JSON reader ---------------------------------------------- */

/* toml-test's JSON only ever holds objects, arrays and strings.  A small
 * reader of our own is used instead of jansson because jansson refuses
 * object keys containing "\u0000", which the suite uses (key/quoted-unicode). */
enum jkind { J_STRING, J_ARRAY, J_OBJECT };

struct jstr {
	char *s; /* NUL-terminated, may contain NULs */
	size_t len;
};

struct jval {
	enum jkind kind;
	struct jstr str;     /* J_STRING */
	struct jval **items; /* J_ARRAY elements, J_OBJECT member values */
	struct jstr *keys;   /* J_OBJECT member keys */
	size_t n, cap;
};

struct jreader {
	const char *start, *s, *end;
	char err[128];
};

static void jfree(struct jval *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++) {
		jfree(v->items[i]);
		if (v->keys)
			free(v->keys[i].s);
	}
	free(v->items);
	free(v->keys);
	free(v->str.s);
	free(v);
}

static void jskip(struct jreader *r)
{
	while (r->s < r->end && (*r->s == ' ' || *r->s == '\t' || *r->s == '\n' || *r->s == '\r'))
		r->s++;
}

static bool jfail(struct jreader *r, const char *what)
{
	if (!r->err[0])
		snprintf(r->err, sizeof r->err, "%s at offset %td", what, r->s - r->start);
	return false;
}

static bool jput(struct jstr *o, size_t *cap, const char *src, size_t n)
{
	if (o->len + n + 1 > *cap) {
		size_t c = *cap ? *cap * 2 : 32;
		while (o->len + n + 1 > c)
			c *= 2;
		char *ns = realloc(o->s, c);
		if (!ns)
			return false;
		o->s = ns;
		*cap = c;
	}
	memcpy(o->s + o->len, src, n);
	o->len += n;
	o->s[o->len] = '\0';
	return true;
}

static int jhex4(const char *p)
{
	int v = 0;
	for (int k = 0; k < 4; k++) {
		int c = p[k], d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		v = v * 16 + d;
	}
	return v;
}

static bool jstring(struct jreader *r, struct jstr *out)
{
	size_t cap = 0;
	out->s = NULL;
	out->len = 0;
	r->s++; /* opening quote */
	if (!jput(out, &cap, "", 0))
		return jfail(r, "out of memory");
	while (r->s < r->end && *r->s != '"') {
		if (*r->s != '\\') {
			if (!jput(out, &cap, r->s++, 1))
				return jfail(r, "out of memory");
			continue;
		}
		if (r->end - r->s < 2)
			return jfail(r, "truncated escape");
		char c = r->s[1], simple = 0;
		r->s += 2;
		switch (c) {
		case '"': simple = '"'; break;
		case '\\': simple = '\\'; break;
		case '/': simple = '/'; break;
		case 'b': simple = '\b'; break;
		case 'f': simple = '\f'; break;
		case 'n': simple = '\n'; break;
		case 'r': simple = '\r'; break;
		case 't': simple = '\t'; break;
		case 'u': {
			if (r->end - r->s < 4)
				return jfail(r, "truncated \\u escape");
			long cp = jhex4(r->s);
			if (cp < 0)
				return jfail(r, "bad \\u escape");
			r->s += 4;
			if (cp >= 0xD800 && cp <= 0xDBFF) { /* surrogate pair */
				if (r->end - r->s < 6 || r->s[0] != '\\' || r->s[1] != 'u')
					return jfail(r, "unpaired surrogate");
				long lo = jhex4(r->s + 2);
				if (lo < 0xDC00 || lo > 0xDFFF)
					return jfail(r, "unpaired surrogate");
				r->s += 6;
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
			}
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
			if (!jput(out, &cap, u, n))
				return jfail(r, "out of memory");
			continue;
		}
		default: return jfail(r, "bad escape");
		}
		if (!jput(out, &cap, &simple, 1))
			return jfail(r, "out of memory");
	}
	if (r->s >= r->end)
		return jfail(r, "unterminated string");
	r->s++;
	return true;
}

static bool jappend(struct jval *v, struct jval *item, struct jstr *key)
{
	if (v->n == v->cap) {
		size_t c = v->cap ? v->cap * 2 : 8;
		struct jval **ni = realloc(v->items, c * sizeof *ni);
		if (!ni)
			return false;
		v->items = ni;
		if (v->kind == J_OBJECT) {
			struct jstr *nk = realloc(v->keys, c * sizeof *nk);
			if (!nk)
				return false;
			v->keys = nk;
		}
		v->cap = c;
	}
	v->items[v->n] = item;
	if (key)
		v->keys[v->n] = *key;
	v->n++;
	return true;
}

static struct jval *jparse_value(struct jreader *r, int depth)
{
	jskip(r);
	if (depth > 1000 || r->s >= r->end) {
		jfail(r, depth > 1000 ? "nested too deep" : "unexpected end");
		return NULL;
	}
	struct jval *v = calloc(1, sizeof *v);
	if (!v)
		return NULL;
	char c = *r->s;
	if (c == '"') {
		v->kind = J_STRING;
		if (!jstring(r, &v->str))
			goto bad;
		return v;
	}
	if (c != '[' && c != '{') {
		jfail(r, "expected an object, array or string");
		goto bad;
	}
	v->kind = c == '[' ? J_ARRAY : J_OBJECT;
	char close = c == '[' ? ']' : '}';
	r->s++;
	jskip(r);
	if (r->s < r->end && *r->s == close) {
		r->s++;
		return v;
	}
	for (;;) {
		struct jstr key = {0};
		if (v->kind == J_OBJECT) {
			jskip(r);
			if (r->s >= r->end || *r->s != '"') {
				jfail(r, "expected a key");
				goto bad;
			}
			if (!jstring(r, &key)) {
				free(key.s);
				goto bad;
			}
			jskip(r);
			if (r->s >= r->end || *r->s != ':') {
				free(key.s);
				jfail(r, "expected ':'");
				goto bad;
			}
			r->s++;
		}
		struct jval *item = jparse_value(r, depth + 1);
		if (!item || !jappend(v, item, v->kind == J_OBJECT ? &key : NULL)) {
			jfree(item);
			free(key.s);
			goto bad;
		}
		jskip(r);
		if (r->s < r->end && *r->s == ',') {
			r->s++;
			continue;
		}
		if (r->s < r->end && *r->s == close) {
			r->s++;
			return v;
		}
		jfail(r, "expected ',' or a closing bracket");
		goto bad;
	}
bad:
	jfree(v);
	return NULL;
}

static struct jval *jparse(const char *text, size_t len, char *err, size_t errcap)
{
	struct jreader r = {text, text, text + len, ""};
	struct jval *v = jparse_value(&r, 0);
	if (v) {
		jskip(&r);
		if (r.s != r.end) {
			jfail(&r, "trailing data");
			jfree(v);
			v = NULL;
		}
	}
	if (!v)
		snprintf(err, errcap, "%s", r.err[0] ? r.err : "out of memory");
	return v;
}

static struct jval *jget(const struct jval *o, const char *key, size_t len)
{
	for (size_t i = 0; i < o->n; i++)
		if (o->keys[i].len == len && memcmp(o->keys[i].s, key, len) == 0)
			return o->items[i];
	return NULL;
}

/* ---- Semantic comparison of tagged JSON -------------------------------- */

struct diff {
	char path[512]; /* where the first difference is, e.g. "a.b[2]" */
	char what[512];
};

static bool differ(struct diff *d, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool differ(struct diff *d, const char *path, const char *fmt, ...)
{
	snprintf(d->path, sizeof d->path, "%s", *path ? path : "(root)");
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->what, sizeof d->what, fmt, ap);
	va_end(ap);
	return false;
}

/* {"type": "<string>", "value": "<string>"} and nothing else. */
static bool is_tagged(const struct jval *j, const char **type, const struct jstr **value)
{
	if (j->kind != J_OBJECT || j->n != 2)
		return false;
	const struct jval *t = jget(j, "type", 4), *v = jget(j, "value", 5);
	if (!t || !v || t->kind != J_STRING || v->kind != J_STRING)
		return false;
	*type = t->str.s;
	*value = &v->str;
	return true;
}
static bool parse_float_text(const char *s, double *out)
{
	const char *p = s;
	bool neg = false;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if (strcmp(p, "inf") == 0 || strcmp(p, "Inf") == 0) {
		*out = neg ? -INFINITY : INFINITY;
		return true;
	}
	if (strcmp(p, "nan") == 0 || strcmp(p, "NaN") == 0) {
		*out = NAN;
		return true;
	}
	char *end;
	*out = strtod(s, &end);
	return end != s && *end == '\0';
}

struct dt_fields {
	bool has_date, has_time, has_offset;
	int y, mo, d, h, mi, s;
	long ns;
	int off_min;
};

static bool digits(const char **p, int n, int *out)
{
	int v = 0;
	for (int k = 0; k < n; k++) {
		if ((*p)[k] < '0' || (*p)[k] > '9')
			return false;
		v = v * 10 + ((*p)[k] - '0');
	}
	*p += n;
	*out = v;
	return true;
}

/* RFC 3339 / TOML date-time text (any of the four kinds). */
static bool parse_dt_text(const char *s, struct dt_fields *f)
{
	memset(f, 0, sizeof *f);
	const char *p = s;
	if (strlen(s) >= 10 && s[4] == '-') {
		if (!digits(&p, 4, &f->y) || *p++ != '-' || !digits(&p, 2, &f->mo) || *p++ != '-' ||
		    !digits(&p, 2, &f->d))
			return false;
		f->has_date = true;
		if (*p == '\0')
			return true;
		if (*p != 'T' && *p != 't' && *p != ' ')
			return false;
		p++;
	}
	if (!digits(&p, 2, &f->h) || *p++ != ':' || !digits(&p, 2, &f->mi) || *p++ != ':' ||
	    !digits(&p, 2, &f->s))
		return false;
	f->has_time = true;
	if (*p == '.') {
		p++;
		int nd = 0;
		while (*p >= '0' && *p <= '9') {
			if (nd < 9) {
				f->ns = f->ns * 10 + (*p - '0');
				nd++;
			}
			p++;
		}
		if (nd == 0)
			return false;
		while (nd++ < 9)
			f->ns *= 10;
	}
	if (*p == 'Z' || *p == 'z') {
		f->has_offset = true;
		p++;
	} else if (*p == '+' || *p == '-') {
		int sign = *p++ == '-' ? -1 : 1, oh, om;
		if (!digits(&p, 2, &oh) || *p++ != ':' || !digits(&p, 2, &om))
			return false;
		f->has_offset = true;
		f->off_min = sign * (oh * 60 + om);
	}
	return *p == '\0';
}

/* Days since 1970-01-01 of a proleptic Gregorian date. */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static bool same_datetime(const char *type, const char *a, const char *b)
{
	struct dt_fields x, y;
	if (!parse_dt_text(a, &x) || !parse_dt_text(b, &y))
		return false;
	if (x.has_date != y.has_date || x.has_time != y.has_time || x.has_offset != y.has_offset)
		return false;
	if (strcmp(type, "datetime") == 0) {
		int64_t sx = days_from_civil(x.y, x.mo, x.d) * 86400 + x.h * 3600 + x.mi * 60 +
			     x.s - (int64_t)x.off_min * 60;
		int64_t sy = days_from_civil(y.y, y.mo, y.d) * 86400 + y.h * 3600 + y.mi * 60 +
			     y.s - (int64_t)y.off_min * 60;
		return sx == sy && x.ns == y.ns;
	}
	return x.y == y.y && x.mo == y.mo && x.d == y.d && x.h == y.h && x.mi == y.mi &&
	       x.s == y.s && x.ns == y.ns;
}

static void path_key(char *out, size_t cap, const char *base, const char *key)
{
	snprintf(out, cap, "%s%s%s", base, *base ? "." : "", key);
}

static bool compare(const struct jval *want, const struct jval *got, const char *path,
		    struct diff *d)
{
	const char *wt, *gt;
	const struct jstr *wv, *gv;
	bool w_tag = is_tagged(want, &wt, &wv);
	bool g_tag = is_tagged(got, &gt, &gv);
	if (w_tag || g_tag) {
		if (!w_tag || !g_tag)
			return differ(d, path, "expected %s, got %s",
				      w_tag ? "a value" : "a table/array",
				      g_tag ? "a value" : "a table/array");
		if (strcmp(wt, gt) != 0)
			return differ(d, path, "type: expected %s, got %s", wt, gt);
		if (strcmp(wt, "float") == 0) {
			double a, b;
			if (!parse_float_text(wv->s, &a) || !parse_float_text(gv->s, &b))
				return differ(d, path, "unparseable float: expected '%s', got '%s'",
					      wv->s, gv->s);
			if ((isnan(a) && isnan(b)) || a == b)
				return true;
			return differ(d, path, "float: expected %s, got %s", wv->s, gv->s);
		}
		if (strcmp(wt, "datetime") == 0 || strcmp(wt, "datetime-local") == 0 ||
		    strcmp(wt, "date-local") == 0 || strcmp(wt, "time-local") == 0) {
			if (same_datetime(wt, wv->s, gv->s))
				return true;
			return differ(d, path, "%s: expected %s, got %s", wt, wv->s, gv->s);
		}
		if (wv->len == gv->len && memcmp(wv->s, gv->s, wv->len) == 0)
			return true;
		return differ(d, path, "%s: expected \"%s\", got \"%s\"", wt, wv->s, gv->s);
	}
	if (want->kind == J_ARRAY) {
		if (got->kind != J_ARRAY)
			return differ(d, path, "expected an array");
		if (want->n != got->n)
			return differ(d, path, "array length: expected %zu, got %zu", want->n,
				      got->n);
		for (size_t i = 0; i < want->n; i++) {
			char sub[512];
			snprintf(sub, sizeof sub, "%s[%zu]", path, i);
			if (!compare(want->items[i], got->items[i], sub, d))
				return false;
		}
		return true;
	}
	if (want->kind == J_OBJECT) {
		if (got->kind != J_OBJECT)
			return differ(d, path, "expected a table");
		for (size_t i = 0; i < want->n; i++) {
			char sub[512];
			path_key(sub, sizeof sub, path, want->keys[i].s);
			const struct jval *g = jget(got, want->keys[i].s, want->keys[i].len);
			if (!g)
				return differ(d, sub, "missing key");
			if (!compare(want->items[i], g, sub, d))
				return false;
		}
		for (size_t i = 0; i < got->n; i++) {
			if (!jget(want, got->keys[i].s, got->keys[i].len)) {
				char sub[512];
				path_key(sub, sizeof sub, path, got->keys[i].s);
				return differ(d, sub, "unexpected key");
			}
		}
		return true;
	}
	return differ(d, path, "expected a table, array or tagged value, found a bare string");
}

/* ---- Driver ------------------------------------------------------------ */

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static void first_line(const char *s, char *out, size_t cap)
{
	size_t n = strcspn(s, "\n");
	if (n >= cap)
		n = cap - 1;
	memcpy(out, s, n);
	out[n] = '\0';
}

static int usage(const char *argv0)
{
	fprintf(stderr, "usage: %s --decoder BIN --suite DIR [--toml-version 1.0.0] [-v]\n", argv0);
	return 2;
}

int main(int argc, char **argv)
{
	const char *decoder = NULL, *suite = NULL, *version = "1.0.0";
	bool verbose = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--decoder") == 0 && i + 1 < argc)
			decoder = argv[++i];
		else if (strcmp(argv[i], "--suite") == 0 && i + 1 < argc)
			suite = argv[++i];
		else if (strcmp(argv[i], "--toml-version") == 0 && i + 1 < argc)
			version = argv[++i];
		else if (strcmp(argv[i], "-v") == 0)
			verbose = true;
		else
			return usage(argv[0]);
	}
	if (!decoder || !suite)
		return usage(argv[0]);

	char list_path[4096];
	snprintf(list_path, sizeof list_path, "%s/tests/files-toml-%s", suite, version);
	FILE *list = fopen(list_path, "r");
	if (!list) {
		printf("SKIP: toml-test suite not found (%s: %s); set "
		       "-DEXALOOP_TOML_TEST_DIR=<toml-test "
		       "checkout> to run it\n",
		       list_path, strerror(errno));
		return SKIP_CODE;
	}
	if (access(decoder, X_OK) != 0) {
		fprintf(stderr, "decoder %s is not executable: %s\n", decoder, strerror(errno));
		fclose(list);
		return 2;
	}

	int valid_total = 0, valid_pass = 0, invalid_total = 0, invalid_pass = 0;
	char line[4096];
	while (fgets(line, sizeof line, list)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (!ends_with(line, ".toml"))
			continue;
		bool valid = strncmp(line, "valid/", 6) == 0;
		if (!valid && strncmp(line, "invalid/", 8) != 0)
			continue;
		char toml_path[8192];
		snprintf(toml_path, sizeof toml_path, "%s/tests/%s", suite, line);

		struct run_result r;
		bool ran = run_decoder(decoder, toml_path, &r);
		bool pass = false;
		char why[1200] = "";
		char msg[512];
		if (!ran) {
			snprintf(why, sizeof why, "could not run decoder on %.900s: %s", toml_path,
				 strerror(errno));
		} else if (WIFSIGNALED(r.status)) {
			snprintf(why, sizeof why, "decoder killed by signal %d",
				 WTERMSIG(r.status));
		} else if (valid) {
			if (WEXITSTATUS(r.status) != 0) {
				first_line(r.err, msg, sizeof msg);
				snprintf(why, sizeof why, "rejected valid input: %s", msg);
			} else {
				char json_path[8192];
				snprintf(json_path, sizeof json_path, "%s", toml_path);
				strcpy(json_path + strlen(json_path) - 5, ".json");
				size_t want_len = 0;
				char *want_text = slurp_path(json_path, &want_len);
				char jerr[160] = "";
				struct jval *want =
					want_text ? jparse(want_text, want_len, jerr, sizeof jerr)
						  : NULL;
				struct jval *got = jparse(r.out, r.out_len, jerr, sizeof jerr);
				struct diff d;
				if (!want) {
					snprintf(why, sizeof why, "cannot load %.900s: %s",
						 json_path, want_text ? jerr : strerror(errno));
				} else if (!got) {
					snprintf(why, sizeof why, "decoder output is not JSON: %s",
						 jerr);
				} else if (!compare(want, got, "", &d)) {
					snprintf(why, sizeof why, "at %s: %s", d.path, d.what);
				} else {
					pass = true;
				}
				free(want_text);
				jfree(want);
				jfree(got);
			}
		} else {
			int code = WEXITSTATUS(r.status);
			if (code == 0)
				snprintf(why, sizeof why, "accepted invalid input");
			else if (code != 1)
				snprintf(why, sizeof why, "exit status %d (expected 1)", code);
			else if (r.err[0] == '\0')
				snprintf(why, sizeof why, "rejected without an error message");
			else
				pass = true;
		}
		if (valid) {
			valid_total++;
			valid_pass += pass;
		} else {
			invalid_total++;
			invalid_pass += pass;
		}
		if (!pass) {
			printf("FAIL %s: %s\n", line, why);
		} else if (verbose) {
			if (!valid)
				first_line(r.err, msg, sizeof msg);
			printf("ok   %s%s%s\n", line, valid ? "" : "  -> ", valid ? "" : msg);
		}
		run_free(&r);
	}
	fclose(list);
	printf("toml-test %s: valid %d/%d, invalid %d/%d\n", version, valid_pass, valid_total,
	       invalid_pass, invalid_total);
	if (valid_total + invalid_total == 0) {
		printf("no test cases found in %s\n", list_path);
		return 1;
	}
	return valid_pass == valid_total && invalid_pass == invalid_total ? 0 : 1;
}
