/* shortname.c - short C++ names for display: see shortname.h.
 *
 * The demangled text is read one nesting level at a time as tokens:
 * identifiers (an operator's whole name, "operator<<" or "operator new[]",
 * and "(anonymous namespace)" each count as one), "::", whole bracket
 * groups, spaces and other single characters.  A group ends at its
 * matching bracket, counting <> only where the innermost group is a <>
 * (inside () the demangler writes comparisons as operators, "((a)>(b))",
 * and parentheses around them), never counting an operator's name.
 *
 * Top-level structure of a function's name, as libstdc++'s demangler
 * writes it:  [prefix] [return type ' '] scope::name [(params) [quals]] [tail]
 * where a space at the top level ends a return type (the qualified name
 * itself has spaces only inside groups and operator names), a component may
 * itself be a function with its parameters (a local entity: "f(int)::x"),
 * and a return type that is a pointer to function puts the name inside a
 * group: "void (*f(int))(char)". */
#include "shortname.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "xl_errors.h"

enum kind {
	T_END,
	T_ID,
	T_SCOPE,
	T_GROUP,
	T_SPACE,
	T_OTHER
};

struct tok {
	enum kind k;
	size_t b, e;
	int conv; /* T_ID "operator" of a conversion operator: a type follows */
};

struct text {
	const char *s;
	int bad; /* unbalanced brackets: the caller shows the name cut instead */
};

static int is_id(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
	       c == '.' || c == '~' || (unsigned char)c >= 0x80;
}

static int has(const char *s, size_t i, size_t end, const char *lit)
{
	size_t n = strlen(lit);
	return i + n <= end && memcmp(s + i, lit, n) == 0;
}

/* The length of an operator's name after the word "operator" (s[i] is the
 * character after it); 0 and *conv for a conversion operator, whose type
 * follows.  A template operator's arguments stay a group of their own: the
 * demangler writes "operator< <int>", and the space goes with the name. */
static size_t op_len(const char *s, size_t i, size_t end, int *conv)
{
	static const char *const ops[] = {
		"->*", "<=>", "<<=", ">>=", "()", "[]", "->", "<<", ">>", "<=", ">=", "==", "!=",
		"&&",  "||",  "++",  "--",  "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "+",
		"-",   "*",   "/",   "%",   "^",  "&",  "|",  "!",  "=",  "<",  ">",  ",",  "~"};
	static const char *const words[] = {" new[]", " delete[]", " new", " delete", " co_await"};
	*conv = 0;
	size_t n = 0;
	for (size_t k = 0; !n && k < sizeof(ops) / sizeof(ops[0]); k++)
		if (has(s, i, end, ops[k]))
			n = strlen(ops[k]);
	for (size_t k = 0; !n && k < sizeof(words) / sizeof(words[0]); k++)
		if (has(s, i, end, words[k]) && (i + strlen(words[k]) >= end || !is_id(s[i + strlen(words[k])])))
			n = strlen(words[k]);
	if (!n && has(s, i, end, "\"\"")) { /* a literal operator: operator"" _km */
		n = 2;
		if (i + n < end && s[i + n] == ' ')
			n++;
		while (i + n < end && is_id(s[i + n]))
			n++;
		return n;
	}
	if (!n) {
		*conv = i < end && s[i] == ' ';
		return 0;
	}
	if (i + n + 1 < end && s[i + n] == ' ' && s[i + n + 1] == '<')
		n++;
	return n;
}

/* The end of the identifier at i, an operator's name included. */
static size_t id_end(const char *s, size_t i, size_t end, int *conv)
{
	size_t j = i;
	while (j < end && is_id(s[j]))
		j++;
	*conv = 0;
	if (j - i == 8 && memcmp(s + i, "operator", 8) == 0)
		j += op_len(s, j, end, conv);
	return j;
}

static char closer(char open)
{
	return open == '<' ? '>' : open == '(' ? ')' : open == '[' ? ']' : '}';
}

/* The end of the group opened at s[i] (one past its closing bracket). */
static size_t group_end(struct text *x, size_t i, size_t end)
{
	enum {
		DEPTH = 128
	};
	const char *s = x->s;
	char want[DEPTH];
	int n = 0, conv;
	want[n++] = closer(s[i]);
	for (size_t j = i + 1; j < end;) {
		char c = s[j];
		if (is_id(c)) {
			j = id_end(s, j, end, &conv);
			continue;
		}
		if ((c == '<' && want[n - 1] == '>') || c == '(' || c == '[' || c == '{') {
			if (n == DEPTH)
				break;
			want[n++] = closer(c);
		} else if (c == want[n - 1]) {
			if (--n == 0)
				return j + 1;
		} else if (c == ')' || c == ']' || c == '}') {
			break;
		}
		j++;
	}
	x->bad = 1;
	return end;
}

static void next_tok(struct text *x, size_t i, size_t end, struct tok *t)
{
	static const char anon[] = "(anonymous namespace)";
	const char *s = x->s;
	t->b = i;
	t->conv = 0;
	t->e = i + 1;
	if (i >= end) {
		t->k = T_END;
		t->e = i;
	} else if (has(s, i, end, "::")) {
		t->k = T_SCOPE;
		t->e = i + 2;
	} else if (s[i] == ' ') {
		t->k = T_SPACE;
	} else if (has(s, i, end, anon)) {
		t->k = T_ID;
		t->e = i + sizeof(anon) - 1;
	} else if (s[i] == '<' || s[i] == '(' || s[i] == '[' || s[i] == '{') {
		t->k = T_GROUP;
		t->e = group_end(x, i, end);
	} else if (is_id(s[i])) {
		t->k = T_ID;
		t->e = id_end(s, i, end, &t->conv);
	} else {
		t->k = T_OTHER;
	}
}

/* ------------------------------------------------------------------------ */
/* The function's name: its components, parameters and what follows. */

enum {
	MAXC = 64
};

struct fname {
	size_t cb[MAXC], ce[MAXC]; /* the components of the qualified name */
	size_t nc;
	int has_params;
	size_t pb, pe; /* the parameter list, parentheses included */
	size_t qe;     /* its qualifiers: s[pe..qe) (" const", " &&") */
	size_t te;     /* what follows: s[qe..te) (" [clone .cold]") */
};

/* Words the demangler puts before a special function's name. */
static size_t prefix_len(const char *s)
{
	static const char *const pre[] = {"non-virtual thunk to ", "virtual thunk to ", "covariant return thunk to ",
					  "transaction clone for "};
	for (size_t k = 0; k < sizeof(pre) / sizeof(pre[0]); k++)
		if (strncmp(s, pre[k], strlen(pre[k])) == 0)
			return strlen(pre[k]);
	return 0;
}

/* The end of a member function's qualifiers after its parameters. */
static size_t quals_end(const char *s, size_t i, size_t end)
{
	static const char *const quals[] = {" const", " volatile", " &&", " &", " noexcept", " restrict"};
	for (int more = 1; more;) {
		more = 0;
		for (size_t k = 0; !more && k < sizeof(quals) / sizeof(quals[0]); k++) {
			size_t n = strlen(quals[k]);
			if (has(s, i, end, quals[k]) && (i + n >= end || !is_id(s[i + n]) || quals[k][1] == '&')) {
				i += n;
				more = 1;
			}
		}
	}
	return i;
}

/* A conversion operator's type runs to its parameter list. */
static size_t conversion_end(struct text *x, size_t i, size_t end)
{
	struct tok t;
	for (next_tok(x, i, end, &t); t.k != T_END && !(t.k == T_GROUP && x->s[t.b] == '('); next_tok(x, i, end, &t))
		i = t.e;
	return i;
}

static int push(struct fname *f, size_t b, size_t e)
{
	if (f->nc == MAXC)
		return -1;
	f->cb[f->nc] = b;
	f->ce[f->nc++] = e;
	return 0;
}

/* 0, or -1 when s[b..end) is not read as a name (f then undefined). */
static int parse(struct text *x, size_t b, size_t end, struct fname *f)
{
	const char *s = x->s;
	size_t cur = b; /* the current component's start */
	int empty = 1;  /* and it has nothing yet */
	struct tok t;
	f->nc = 0;
	f->has_params = 0;
	for (size_t i = b; next_tok(x, i, end, &t), t.k != T_END; i = t.e) {
		if (x->bad)
			return -1;
		if (t.k == T_SPACE) { /* what came before was (part of) the return type */
			f->nc = 0;
			cur = t.e;
			empty = 1;
		} else if (t.k == T_SCOPE) {
			if (push(f, cur, i) != 0)
				return -1;
			cur = t.e;
			empty = 1;
		} else if (t.k == T_GROUP && s[i] == '(' && empty) {
			size_t k = i + 1;
			while (k < t.e && (s[k] == '*' || s[k] == '&'))
				k++;
			if (k > i + 1) /* void (*f(int))(char): the name is inside */
				return parse(x, k, t.e - 1, f);
			empty = 0; /* part of a return type: "decltype (...)" */
		} else if (t.k == T_GROUP && s[i] == '(') {
			size_t q = quals_end(s, t.e, end);
			if (!has(s, q, end, "::")) {
				f->has_params = 1;
				f->pb = i;
				f->pe = t.e;
				f->qe = q;
				f->te = end;
				return push(f, cur, i);
			}
			t.e = q; /* a local entity's function: f(int) const::x */
		} else {
			empty = 0;
			if (t.k == T_ID && t.conv)
				t.e = conversion_end(x, t.e, end);
		}
	}
	if (!empty && push(f, cur, end) != 0)
		return -1;
	f->qe = f->te = end;
	return f->nc ? 0 : -1;
}

/* ------------------------------------------------------------------------ */
/* Rendering */

/* Inline and ABI namespaces: a reader's name for the function has none.
 * std::__cxx11 (libstdc++), __1 and __ndk1 (libc++), nlohmann's
 * json_abi_v3_11_2 / json_abi_diag_v3_11_2: "__" and ending in a digit, or
 * an "abi" word followed by a version. */
static int hidden_ns(const char *s, size_t b, size_t e)
{
	size_t n = e - b;
	for (size_t i = b; i < e; i++)
		if (!is_id(s[i]))
			return 0;
	if (n >= 3 && n <= 10 && s[b] == '_' && s[b + 1] == '_' && s[e - 1] >= '0' && s[e - 1] <= '9')
		return 1;
	for (size_t i = b; i + 5 < e; i++)
		if ((i == b || s[i - 1] == '_') && memcmp(s + i, "abi_", 4) == 0) {
			const char *v = memchr(s + i + 4, 'v', e - i - 4);
			return v != NULL && (size_t)(v - s) + 1 < e && v[1] >= '0' && v[1] <= '9';
		}
	return 0;
}

static void add(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

/* A set of names that share a short form (a run, below), and which of
 * them is being rendered: their template arguments where they differ are
 * what tells them apart ("basic_json<map, …>" and "basic_json<ordered_map,
 * …>").  Each member's top-level template groups are listed in the order
 * render() meets them in its name's components. */
enum {
	MAXG = 32, /* template groups of one name */
	MAXA = 32, /* arguments of one group */
	MEMO = 16  /* arguments' renderings kept per member */
};

/* Every member's arguments are compared with every other's, for each
 * member rendered: a member's groups split into arguments and its
 * arguments' renderings are kept (by span), so that a run of n names costs
 * n splits and renderings of a group, not n * n. */
struct memo {
	size_t b, e;
	char *s; /* NUL-terminated */
	size_t len;
};

struct split {
	size_t b, e; /* inside a group */
	size_t n;    /* its arguments (split_args) */
	size_t ab[MAXA], ae[MAXA];
};

struct member {
	struct text x;
	size_t ng;
	size_t gb[MAXG], ge[MAXG]; /* brackets included */
	struct memo memo[MEMO];
	size_t nmemo;
	struct split *splits; /* grows: refer to one by its index */
	size_t nsplits;
};

/* Self is compared with every other name of the run, or, in a run of more
 * than RUN_ALL (a template instantiated for hundreds of types), with one:
 * pairwise the cost grows with the square of the run's length.  Arrays
 * over the compared members are indexed by position in cmp. */
enum {
	RUN_ALL = 64
};

struct run {
	struct member *m;
	size_t n;
	size_t self;          /* the member rendered */
	size_t g;             /* its next template group */
	size_t *cmp, ncmp;    /* the members compared: self first */
	unsigned char *alike; /* per position in cmp: not told apart from self so far */
};

#define CMP(r, j) (&(r)->m[(r)->cmp[j]])

static void render(struct text *x, size_t b, size_t e, int unqualify, struct run *r, struct strbuf *sb);

/* A group: template arguments collapse to <…>, [abi:...] tags go, short
 * plain parentheses stay ("(int)", "(*)"), longer ones become (…); a
 * lambda's or unnamed type's braces are rendered inside. */
static void group(struct text *x, size_t b, size_t e, struct strbuf *sb)
{
	const char *s = x->s;
	int empty = e - b == 2;
	if (s[b] == '<') {
		add(sb, empty ? "<>" : "<\u2026>");
	} else if (s[b] == '[') {
		if (!has(s, b, e, "[abi:"))
			strbuf_add(sb, s + b, e - b);
	} else if (s[b] == '{') {
		add(sb, "{");
		render(x, b + 1, e - 1, 0, NULL, sb);
		add(sb, "}");
	} else if (e - b <= 26 && !memchr(s + b + 1, '(', e - b - 2) && !memchr(s + b + 1, '<', e - b - 2)) {
		strbuf_add(sb, s + b, e - b);
	} else {
		add(sb, "(\u2026)");
	}
}

/* Where the last component of the qualified name at i starts (i when it
 * has one component). */
static size_t last_component(struct text *x, size_t i, size_t e)
{
	size_t last = i;
	struct tok t;
	next_tok(x, i, e, &t);
	for (;;) {
		next_tok(x, t.e, e, &t);
		while (t.k == T_GROUP && (x->s[t.b] == '<' || x->s[t.b] == '['))
			next_tok(x, t.e, e, &t);
		if (t.k != T_SCOPE)
			return last;
		next_tok(x, t.e, e, &t);
		if (t.k != T_ID)
			return last;
		last = t.b;
	}
}

/* s[b..e) split at its top-level commas into ab/ae (leading spaces
 * skipped); the number of parts, MAXA + 1 when there are more. */
static size_t split_args(struct text *x, size_t b, size_t e, size_t *ab, size_t *ae)
{
	struct tok t;
	size_t n = 0, from = b;
	for (size_t i = b;; i = t.e) {
		next_tok(x, i, e, &t);
		if (t.k != T_END && !(t.k == T_OTHER && x->s[i] == ','))
			continue;
		if (n == MAXA)
			return MAXA + 1;
		size_t to = i;
		while (from < to && x->s[from] == ' ')
			from++;
		while (to > from && x->s[to - 1] == ' ')
			to--;
		ab[n] = from;
		ae[n++] = to;
		if (t.k == T_END)
			return n;
		from = t.e;
	}
}

/* Whether a member not yet told apart from self has other text there
 * (b/e: per position in cmp). */
static int differs(const struct run *r, const size_t *b, const size_t *e)
{
	const char *own = CMP(r, 0)->x.s + b[0];
	size_t len = e[0] - b[0];
	for (size_t j = 1; j < r->ncmp; j++)
		if (r->alike[j] && (e[j] - b[j] != len || memcmp(CMP(r, j)->x.s + b[j], own, len) != 0))
			return 1;
	return 0;
}

/* The one template group of s[b..e) (none, or more than one: 0). */
static int one_group(struct text *x, size_t b, size_t e, size_t *gb, size_t *ge)
{
	struct tok t;
	int n = 0;
	for (size_t i = b; next_tok(x, i, e, &t), t.k != T_END; i = t.e)
		if (t.k == T_GROUP && x->s[i] == '<') {
			*gb = i;
			*ge = t.e;
			n++;
		}
	return n == 1;
}

/* A member's argument s[b..e) rendered one level deep (unqualified), from
 * its memo when there; NULL when out of memory.  Kept in the memo while
 * there is room, else in *spare (the caller frees it). */
static const char *rendered(struct member *m, size_t b, size_t e, size_t *len, char **spare)
{
	for (size_t i = 0; i < m->nmemo; i++)
		if (m->memo[i].b == b && m->memo[i].e == e) {
			*len = m->memo[i].len;
			return m->memo[i].s;
		}
	struct strbuf sb;
	strbuf_init(&sb);
	render(&m->x, b, e, 1, NULL, &sb);
	*len = sb.len;
	char *out = sb.oom ? (strbuf_release(&sb), NULL) : strbuf_detach(&sb, NULL);
	if (out && m->nmemo < MEMO)
		m->memo[m->nmemo++] = (struct memo){b, e, out, *len};
	else
		*spare = out;
	return out;
}

static void memo_release(struct member *m)
{
	for (size_t i = 0; i < m->nmemo; i++)
		free(m->memo[i].s);
	m->nmemo = 0;
	free(m->splits);
	m->splits = NULL;
	m->nsplits = 0;
}

/* The index in m->splits of s[b..e) split into its arguments; SIZE_MAX
 * when out of memory. */
static size_t split_of(struct member *m, size_t b, size_t e)
{
	for (size_t i = 0; i < m->nsplits; i++)
		if (m->splits[i].b == b && m->splits[i].e == e)
			return i;
	struct split *more = realloc(m->splits, (m->nsplits + 1) * sizeof(*more));
	if (!more)
		return SIZE_MAX;
	m->splits = more;
	struct split *sp = &more[m->nsplits];
	sp->b = b;
	sp->e = e;
	sp->n = split_args(&m->x, b, e, sp->ab, sp->ae);
	return m->nsplits++;
}

/* The self member's argument rendered (one level: "iterator_input_
 * adapter<…>") into own; the members whose own rendering differs are told
 * apart from self now.  Returns how many. */
static size_t tell_by_rendering(struct run *r, const size_t *b, const size_t *e, struct strbuf *own)
{
	size_t told = 0, n, len;
	char *spare = NULL, *other;
	const char *mine = rendered(CMP(r, 0), b[0], e[0], &n, &spare);
	if (!mine) {
		own->oom = 1;
		return 0;
	}
	strbuf_add(own, mine, n);
	free(spare);
	for (size_t j = 1; j < r->ncmp; j++) {
		if (!r->alike[j])
			continue;
		other = NULL;
		const char *o = rendered(CMP(r, j), b[j], e[j], &len, &other);
		if (!o)
			own->oom = 1;
		else if (len != own->len || memcmp(o, own->buf, len) != 0) {
			r->alike[j] = 0;
			told++;
		}
		free(other);
	}
	return told;
}

/* The template arguments of the self member (s[b[0]..e[0]), the compared
 * members' at b[j]..e[j]) as they tell it apart from the members still
 * alike: "…" for a stretch of arguments that tell nothing, an argument
 * that differs one level down by its short form ("ordered_map",
 * "iterator_input_adapter<…>"), one that differs deeper with its own group
 * told apart the same way (two levels at most).  Once no member is alike,
 * the rest is "…": "map<int, …>", not every argument that follows from the
 * first. */
static void diff_args(struct run *r, const size_t *b, const size_t *e, int depth, struct strbuf *sb)
{
	size_t n = r->ncmp, na = 0;
	/* per compared member: its split of the group (an index into its
	 * splits; those told apart have none), argument i (cb/ce), its
	 * template group (pb/pe) and inside it (ib/ie) */
	size_t *sp = malloc(7 * n * sizeof(size_t));
	if (!sp) {
		sb->oom = 1;
		return;
	}
	size_t *cb = sp + n, *ce = cb + n, *pb = ce + n, *pe = pb + n, *ib = pe + n, *ie = ib + n;
	for (size_t j = 0; j < n; j++) {
		sp[j] = j == 0 || r->alike[j] ? split_of(CMP(r, j), b[j], e[j]) : SIZE_MAX;
		sb->oom |= (j == 0 || r->alike[j]) && sp[j] == SIZE_MAX;
	}
	if (sb->oom) {
		free(sp);
		return;
	}
	if (CMP(r, 0)->splits[sp[0]].n <= MAXA)
		na = CMP(r, 0)->splits[sp[0]].n;
	else
		render(&CMP(r, 0)->x, b[0], e[0], 1, NULL, sb);
	for (size_t i = 0, gap = 0; i < na; i++) {
		for (size_t j = 0; j < n; j++) { /* a member without argument i has an empty one */
			const struct split *q = sp[j] != SIZE_MAX ? &CMP(r, j)->splits[sp[j]] : NULL;
			int has_i = q && i < q->n && i < MAXA;
			cb[j] = has_i ? q->ab[i] : e[j];
			ce[j] = has_i ? q->ae[i] : e[j];
		}
		if (!differs(r, cb, ce)) {
			if (!gap)
				add(sb, i ? ", \u2026" : "\u2026");
			gap = 1;
			continue;
		}
		struct strbuf own;
		strbuf_init(&own);
		size_t told = tell_by_rendering(r, cb, ce, &own);
		int deeper = depth < 1 && differs(r, cb, ce); /* some are alike one level down */
		for (size_t j = 0; deeper && j < n; j++) {
			if (j && !r->alike[j])
				continue;
			deeper = one_group(&CMP(r, j)->x, cb[j], ce[j], &pb[j], &pe[j]);
			ib[j] = pb[j] + 1;
			ie[j] = pe[j] - 1;
		}
		if (deeper) { /* name<told apart>rest */
			struct text *x = &CMP(r, 0)->x;
			own.len = 0;
			render(x, cb[0], pb[0], 1, NULL, &own);
			add(&own, "<");
			diff_args(r, ib, ie, depth + 1, &own);
			add(&own, ">");
			render(x, pe[0], ce[0], 1, NULL, &own);
		}
		if (told || deeper) {
			if (i)
				add(sb, ", ");
			strbuf_add(sb, own.buf, own.len);
			gap = 0;
		} else if (!gap) { /* differs, but not in what is shown */
			add(sb, i ? ", \u2026" : "\u2026");
			gap = 1;
		}
		sb->oom |= own.oom;
		strbuf_release(&own);
	}
	free(sp);
}

/* The self member's next template group, told apart from the others'. */
static void run_group(struct run *r, struct text *x, size_t b, size_t e, struct strbuf *sb)
{
	size_t g = r->g++, n = r->ncmp;
	size_t *gb = malloc(2 * n * sizeof(size_t)), *ge = gb + n;
	int ok = gb != NULL;
	for (size_t j = 0; ok && j < n; j++) {
		ok = g < CMP(r, j)->ng || (j && !r->alike[j]);
		gb[j] = ok ? CMP(r, j)->gb[g] + 1 : 0;
		ge[j] = ok ? CMP(r, j)->ge[g] - 1 : 0;
	}
	if (!ok || !differs(r, gb, ge) || e - b == 2) {
		group(x, b, e, sb);
	} else {
		add(sb, "<");
		diff_args(r, gb, ge, 0, sb);
		add(sb, ">");
	}
	free(gb);
}

/* s[b..e) shortened; unqualify: every qualified name by its last component
 * (a parameter's type: "basic_string<…> const&"); r: the run the name is
 * told apart from (template groups then differ where they do), or NULL. */
static void render(struct text *x, size_t b, size_t e, int unqualify, struct run *r, struct strbuf *sb)
{
	const char *s = x->s;
	struct tok t;
	for (size_t i = b; next_tok(x, i, e, &t), t.k != T_END; i = t.e) {
		if (t.k == T_GROUP && r && s[i] == '<') {
			run_group(r, x, i, t.e, sb);
		} else if (t.k == T_GROUP) {
			group(x, i, t.e, sb);
		} else if (t.k == T_ID && has(s, t.e, e, "::") && hidden_ns(s, i, t.e)) {
			t.e += 2;
		} else if (t.k == T_ID && unqualify && last_component(x, i, e) != i) {
			t.e = last_component(x, i, e);
		} else {
			strbuf_add(sb, s + i, t.e - i);
		}
	}
}

/* The parameters, each shortened and unqualified, in parentheses. */
static void render_params(struct text *x, const struct fname *f, struct strbuf *sb)
{
	size_t ab[MAXA + 1], ae[MAXA + 1];
	size_t n = split_args(x, f->pb + 1, f->pe - 1, ab, ae);
	add(sb, "(");
	for (size_t i = 0; i < n && i < MAXA; i++) {
		if (i)
			add(sb, ", ");
		render(x, ab[i], ae[i], 1, NULL, sb);
	}
	add(sb, n > MAXA ? ", \u2026)" : ")");
}

size_t xl_u8len(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* The last n characters of s. */
static const char *u8tail(const char *s, size_t n)
{
	const char *p = s + strlen(s);
	while (p > s && n) {
		p--;
		if (((unsigned char)*p & 0xc0) != 0x80)
			n--;
	}
	return p;
}

/* The parts joined: pre, comp[0] when first (with "::…" when comp[1..from)
 * are left out), "…" when not first, comp[from..nc) each after "::", suf. */
static char *join(const char *pre, char **comp, size_t nc, int first, size_t from, const char *suf)
{
	struct strbuf sb;
	strbuf_init(&sb);
	add(&sb, pre);
	if (first) {
		add(&sb, comp[0]);
		if (from > 1)
			add(&sb, "::\u2026");
	} else {
		add(&sb, "\u2026");
	}
	for (size_t k = from; k < nc; k++) {
		add(&sb, "::");
		add(&sb, comp[k]);
	}
	add(&sb, suf);
	return sb.oom ? (strbuf_release(&sb), NULL) : strbuf_detach(&sb, NULL);
}

/* pre + the components joined by :: + suf in at most budget characters.
 * When longer, the components after the first give way to "…" (as few as
 * need to: "nlohmann::…::parser<…>::parse"), then the first as well
 * ("…::parse"), then the start of the last.  NULL when even that cannot
 * fit or the last component should not be cut (cut_last 0), or when there
 * is no memory (*oom). */
static char *assemble(const char *pre, char **comp, size_t nc, const char *suf, size_t budget, int cut_last, int *oom)
{
	size_t fixed = xl_u8len(pre) + xl_u8len(suf), len[MAXC] = {0}, tail[MAXC + 1];
	tail[nc] = 0; /* tail[k]: the characters of "::comp[k]" ... "::comp[nc-1]" */
	for (size_t k = nc; k-- > 0;)
		tail[k] = tail[k + 1] + 2 + (len[k] = xl_u8len(comp[k]));
	char *out = NULL;
	size_t from = 1;
	if (fixed + len[0] + tail[1] <= budget) {
		out = join(pre, comp, nc, 1, 1, suf);
	} else if (nc >= 3 && fixed + len[0] + 3 + tail[nc - 1] <= budget) {
		for (from = 2; fixed + len[0] + 3 + tail[from] > budget;)
			from++;
		out = join(pre, comp, nc, 1, from, suf);
	} else if (nc >= 2 && fixed + 1 + tail[nc - 1] <= budget) {
		for (from = 1; fixed + 1 + tail[from] > budget;)
			from++;
		out = join(pre, comp, nc, 0, from, suf);
	} else if (cut_last && fixed + 2 <= budget) { /* the last component alone is too long */
		struct strbuf sb;
		strbuf_init(&sb);
		add(&sb, pre);
		add(&sb, "\u2026");
		add(&sb, u8tail(comp[nc - 1], budget - fixed - 1));
		add(&sb, suf);
		out = sb.oom ? (strbuf_release(&sb), NULL) : strbuf_detach(&sb, NULL);
	} else {
		return NULL;
	}
	*oom |= out == NULL;
	return out;
}

/* A name that is not read as C++: as it is, its end cut when too long. */
static char *cut(const char *name, size_t budget)
{
	if (xl_u8len(name) <= budget)
		return strdup(name);
	struct strbuf sb;
	strbuf_init(&sb);
	const char *end = u8tail(name, xl_u8len(name) - budget + 1);
	strbuf_add(&sb, name, (size_t)(end - name));
	add(&sb, "\u2026");
	return sb.oom ? (strbuf_release(&sb), NULL) : strbuf_detach(&sb, NULL);
}

/* *out: the short form of name (with its parameters when params, with its
 * template arguments told apart from r's other members' when r) in at most
 * budget characters; NULL when such a form (parameters, arguments) cannot
 * fit without cutting the function's own name.  XL_OK or XL_ENOMEM. */
static int shorten(const char *name, int params, struct run *r, size_t budget, char **out)
{
	struct text x = {name, 0};
	struct fname f;
	size_t pre_len = prefix_len(name), end = strlen(name);
	*out = NULL;
	/* A demangled function's name has its parameters, and after them only
	 * qualifiers and tags: anything else (a C name, "(more call paths)", an
	 * assembler label such as "</script><b>") is shown as it is. */
	if (parse(&x, pre_len, end, &f) != 0 || x.bad || !f.has_params ||
	    (f.qe < f.te && !has(name, f.qe, f.te, " ["))) {
		if (params)
			return XL_OK;
		*out = cut(name, budget);
		return *out ? XL_OK : XL_ENOMEM;
	}
	char *comp[MAXC];
	size_t nc = 0;
	int oom = 0;
	struct strbuf sb, pre, suf;
	if (r) { /* the members compared: every other name, or the first */
		r->g = 0;
		r->cmp[0] = r->self;
		r->ncmp = 1;
		for (size_t k = 0; k < r->n && (r->n <= RUN_ALL || r->ncmp < 2); k++)
			if (strcmp(r->m[k].x.s, name) != 0) {
				r->alike[r->ncmp] = 1;
				r->cmp[r->ncmp++] = k;
			}
	}
	for (size_t k = 0; k < f.nc; k++) {
		if (k + 1 < f.nc && hidden_ns(name, f.cb[k], f.ce[k]))
			continue;
		strbuf_init(&sb);
		render(&x, f.cb[k], f.ce[k], 0, r, &sb);
		oom |= sb.oom;
		comp[nc++] = strbuf_detach(&sb, NULL);
		oom |= comp[nc - 1] == NULL;
	}
	strbuf_init(&pre);
	strbuf_add(&pre, name, pre_len);
	strbuf_init(&suf);
	if (params && f.has_params) {
		render_params(&x, &f, &suf);
		strbuf_add(&suf, name + f.pe, f.qe - f.pe);
	}
	render(&x, f.qe, f.te, 0, NULL, &suf);
	oom |= pre.oom | suf.oom;
	if (!oom)
		*out = assemble(pre.buf, comp, nc, suf.buf, budget, !params && !r, &oom);
	if (!*out && !oom && !params && !r) /* the prefix or the tail is too long */
		*out = assemble("", comp, nc, "", budget, 1, &oom);
	strbuf_release(&pre);
	strbuf_release(&suf);
	for (size_t k = 0; k < nc; k++)
		free(comp[k]);
	if (oom) {
		free(*out);
		*out = NULL;
		return XL_ENOMEM;
	}
	return XL_OK;
}

char *xl_short_name(const char *name)
{
	char *out;
	return shorten(name, 0, NULL, XL_SHORT_NAME_MAX, &out) == XL_OK ? out : NULL;
}

char *xl_short_name_params(const char *name)
{
	char *out;
	return shorten(name, 1, NULL, XL_SHORT_NAME_MAX, &out) == XL_OK ? out : NULL;
}

/* ------------------------------------------------------------------------ */
/* Telling a set's short forms apart */

struct ent {
	const char *name;
	char *shown;
	size_t i; /* in the caller's order */
};

static int by_shown(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;
	int c = strcmp(x->shown, y->shown);
	return c ? c : strcmp(x->name, y->name);
}

/* The end of the run of entries from i (sorted by form) that show one
 * form, and whether they are more than one name. */
static size_t run_end(const struct ent *e, size_t n, size_t i, int *several)
{
	size_t j = i + 1;
	for (*several = 0; j < n && strcmp(e[j].shown, e[i].shown) == 0; j++)
		*several |= strcmp(e[j].name, e[i].name) != 0;
	return j;
}

/* Sorted by form: calls tell(run, its length) for every run of entries
 * that show one form for more than one name. */
static int each_run(struct ent *e, size_t n, int (*tell)(struct ent *run, size_t len))
{
	qsort(e, n, sizeof(*e), by_shown);
	for (size_t i = 0, j; i < n; i = j) {
		int several;
		j = run_end(e, n, i, &several);
		if (several && tell(e + i, j - i) != XL_OK)
			return XL_ENOMEM;
	}
	return XL_OK;
}

/* crowded[k] = 1 when the k-th of the run's forms f (NULL: the form shown)
 * is another name's too.  XL_OK or XL_ENOMEM. */
static int crowded_forms(const struct ent *run, size_t len, char *const *f, unsigned char *crowded)
{
	struct ent *t = malloc(len * sizeof(*t));
	if (!t)
		return XL_ENOMEM;
	for (size_t k = 0; k < len; k++)
		t[k] = (struct ent){run[k].name, f[k] ? f[k] : run[k].shown, k};
	qsort(t, len, sizeof(*t), by_shown);
	for (size_t i = 0, j; i < len; i = j) {
		int several;
		j = run_end(t, len, i, &several);
		for (size_t k = i; k < j; k++)
			crowded[t[k].i] = (unsigned char)several;
	}
	free(t);
	return XL_OK;
}

/* The run's names by their template arguments where these differ, and
 * those that still collide with their parameters as well. */
static int differing(struct ent *run, size_t len)
{
	struct member *m = calloc(len, sizeof(*m));
	char **f = calloc(2 * len, sizeof(*f)), **p = f + len; /* p: with parameters */
	unsigned char *alike = malloc(len), *crowded = malloc(len);
	size_t *cmp = malloc(len * sizeof(*cmp));
	int rc = m && f && alike && crowded && cmp ? XL_OK : XL_ENOMEM;
	for (size_t k = 0; rc == XL_OK && k < len; k++) {
		struct fname fn;
		m[k].x.s = run[k].name;
		if (parse(&m[k].x, prefix_len(run[k].name), strlen(run[k].name), &fn) != 0)
			continue; /* no groups: the run is told apart by numbers */
		for (size_t c = 0; c < fn.nc; c++) {
			struct tok t;
			for (size_t i = fn.cb[c]; next_tok(&m[k].x, i, fn.ce[c], &t), t.k != T_END; i = t.e)
				if (t.k == T_GROUP && run[k].name[i] == '<' && m[k].ng < MAXG) {
					m[k].gb[m[k].ng] = i;
					m[k].ge[m[k].ng++] = t.e;
				}
		}
	}
	struct run r = {m, len, 0, 0, cmp, 0, alike};
	for (r.self = 0; rc == XL_OK && r.self < len; r.self++)
		rc = shorten(run[r.self].name, 0, &r, XL_SHORT_NAME_MAX, &f[r.self]);
	if (rc == XL_OK)
		rc = crowded_forms(run, len, f, crowded);
	for (r.self = 0; rc == XL_OK && r.self < len; r.self++)
		if (crowded[r.self])
			rc = shorten(run[r.self].name, 1, &r, XL_SHORT_NAME_MAX, &p[r.self]);
	for (size_t k = 0; rc == XL_OK && k < len; k++) {
		char **better = p[k] ? &p[k] : &f[k];
		if (!*better)
			continue; /* nothing that fits: numbered */
		free(run[k].shown);
		run[k].shown = *better;
		*better = NULL;
	}
	for (size_t k = 0; f && k < 2 * len; k++)
		free(f[k]);
	for (size_t k = 0; m && k < len; k++)
		memo_release(&m[k]);
	free(f);
	free(m);
	free(alike);
	free(crowded);
	free(cmp);
	return rc;
}

/* The last resort: " #k" after the form shown (after the short form,
 * shorter, when there is no room), k counting the run's names from 1. */
static int numbered(struct ent *run, size_t len)
{
	for (size_t m = 0, k = 0; m < len; m++) {
		char num[32], *base = run[m].shown;
		k += m == 0 || strcmp(run[m].name, run[m - 1].name) != 0;
		snprintf(num, sizeof(num), " #%zu", k);
		if (xl_u8len(base) + strlen(num) > XL_SHORT_NAME_MAX &&
		    shorten(run[m].name, 0, NULL, XL_SHORT_NAME_MAX - strlen(num), &base) != XL_OK)
			return XL_ENOMEM;
		struct strbuf sb;
		strbuf_init(&sb);
		add(&sb, base);
		add(&sb, num);
		if (base != run[m].shown)
			free(base);
		if (sb.oom) {
			strbuf_release(&sb);
			return XL_ENOMEM;
		}
		free(run[m].shown);
		run[m].shown = strbuf_detach(&sb, NULL);
	}
	return XL_OK;
}

int xl_short_names(const char *const *names, char **shorts, size_t n, size_t stride)
{
#define AT(base, i) ((char **)((char *)(base) + (i)*stride))
	struct ent *e = calloc(n ? n : 1, sizeof(*e));
	int rc = e ? XL_OK : XL_ENOMEM;
	for (size_t i = 0; rc == XL_OK && i < n; i++) {
		e[i].name = *AT(names, i);
		e[i].i = i;
		rc = shorten(e[i].name, 0, NULL, XL_SHORT_NAME_MAX, &e[i].shown);
	}
	/* Numbered twice: a form cut to make room for its number could meet
	 * another's (two names alike for 100 characters). */
	if (rc == XL_OK)
		rc = each_run(e, n, differing);
	if (rc == XL_OK)
		rc = each_run(e, n, numbered);
	if (rc == XL_OK)
		rc = each_run(e, n, numbered);
	for (size_t j = 0; j < n; j++) {
		*AT(shorts, j) = NULL;
		if (rc != XL_OK)
			free(e ? e[j].shown : NULL);
	}
	for (size_t j = 0; rc == XL_OK && j < n; j++)
		*AT(shorts, e[j].i) = e[j].shown;
	free(e);
	return rc;
#undef AT
}
