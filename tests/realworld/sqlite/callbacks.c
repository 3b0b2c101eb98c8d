/* callbacks.c - the callbacks SQLite calls back into (see callbacks.h). */
#include "callbacks.h"

#include <string.h>

/* Collation "rune": case-insensitive, shorter strings first on a common prefix,
 * then byte order as a tie-break so that the order is total. */
static int rune_compare(void *user, int n1, const void *p1, int n2, const void *p2)
{
	(void)user;
	const unsigned char *a = p1, *b = p2;
	int n = n1 < n2 ? n1 : n2;
	for (int i = 0; i < n; i++) {
		int ca = a[i] >= 'A' && a[i] <= 'Z' ? a[i] + 32 : a[i];
		int cb = b[i] >= 'A' && b[i] <= 'Z' ? b[i] + 32 : b[i];
		if (ca != cb)
			return ca - cb;
	}
	if (n1 != n2)
		return n1 - n2;
	return memcmp(a, b, (size_t)n);
}

/* score(qty, price): a weighted value, NULL when either argument is NULL. */
static void score_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) {
		sqlite3_result_null(ctx);
		return;
	}
	long long qty = sqlite3_value_int64(argv[0]);
	double price = sqlite3_value_double(argv[1]);
	sqlite3_result_double(ctx, (double)(qty % 97) * price / 7.0);
}

/* spread(x): max(x) - min(x) of a group, as an aggregate with its own state. */
struct spread_state {
	int seen;
	double lo, hi;
};

static void spread_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	struct spread_state *s = sqlite3_aggregate_context(ctx, sizeof *s);
	if (!s || sqlite3_value_type(argv[0]) == SQLITE_NULL)
		return;
	double v = sqlite3_value_double(argv[0]);
	if (!s->seen || v < s->lo)
		s->lo = v;
	if (!s->seen || v > s->hi)
		s->hi = v;
	s->seen = 1;
}

static void spread_final(sqlite3_context *ctx)
{
	struct spread_state *s = sqlite3_aggregate_context(ctx, 0);
	if (!s || !s->seen)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_double(ctx, s->hi - s->lo);
}

int register_callbacks(sqlite3 *db)
{
	int rc = sqlite3_create_collation(db, "rune", SQLITE_UTF8, NULL, rune_compare);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "score", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, score_func, NULL,
					     NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "spread", 1, SQLITE_UTF8, NULL, NULL, spread_step, spread_final);
	return rc;
}

int fold_row(void *arg, int ncol, char **values, char **names)
{
	(void)names;
	unsigned long *h = arg;
	for (int i = 0; i < ncol; i++) {
		const char *v = values[i] ? values[i] : "(null)";
		for (; *v; v++)
			*h = *h * 131 + (unsigned char)*v;
		*h = *h * 131 + '|';
	}
	return 0;
}
