/* driver.c - a deterministic SQLite workload for the realworld tests.
 *
 * Usage: driver [ROWS]   (default 20000)
 *
 * Creates an in-memory database, fills a table with ROWS pseudo-random rows in one
 * transaction, indexes it (one index under the custom collation "rune"), queries,
 * groups, sorts (custom collation, scalar and aggregate functions from callbacks.c),
 * updates and deletes.  Everything it prints depends only on ROWS, so two runs of the
 * same binary, captured or not, print the same text. */
#include <stdio.h>
#include <stdlib.h>

#include "callbacks.h"
#include "sqlite3.h"

static sqlite3 *db;

static void die(const char *what)
{
	fprintf(stderr, "driver: %s: %s\n", what, sqlite3_errmsg(db));
	exit(1);
}

static void exec(const char *sql)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		die(sql);
}

/* The generator: a 64-bit LCG (Knuth's MMIX constants), upper bits used. */
static unsigned long long seed = 20260601;

static unsigned next(unsigned bound)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)((seed >> 33) % bound);
}

static const char *const syllables[] = {"ka", "Lo", "mi", "SU", "te", "ra", "No", "vi", "Pe", "zu", "ba", "qo"};
static const char *const cities[] = {"Oslo", "lima", "Quito", "bern", "Dakar", "apia", "Riga", "Suva", "baku", "Male"};

static void make_name(char *out, size_t size)
{
	int parts = 2 + (int)next(4);
	size_t len = 0;
	out[0] = 0;
	for (int i = 0; i < parts; i++)
		len += (size_t)snprintf(out + len, size - len, "%s", syllables[next(12)]);
}

static void fill(int rows)
{
	sqlite3_stmt *ins;
	exec("CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT, city TEXT, qty INTEGER, price REAL)");
	if (sqlite3_prepare_v2(db, "INSERT INTO items(name, city, qty, price) VALUES (?1, ?2, ?3, ?4)", -1, &ins,
			       NULL) != SQLITE_OK)
		die("prepare insert");
	exec("BEGIN");
	for (int i = 0; i < rows; i++) {
		char name[64];
		make_name(name, sizeof name);
		sqlite3_bind_text(ins, 1, name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(ins, 2, cities[next(10)], -1, SQLITE_STATIC);
		if (next(50) == 0)
			sqlite3_bind_null(ins, 3);
		else
			sqlite3_bind_int(ins, 3, (int)next(1000));
		sqlite3_bind_double(ins, 4, (double)next(100000) / 100.0);
		if (sqlite3_step(ins) != SQLITE_DONE)
			die("insert");
		sqlite3_reset(ins);
	}
	exec("COMMIT");
	sqlite3_finalize(ins);
}

/* Runs sql and prints each row as tab-separated columns, under a heading. */
static void show(const char *heading, const char *sql)
{
	sqlite3_stmt *st;
	int rc;
	printf("-- %s\n", heading);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		die(sql);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int n = sqlite3_column_count(st);
		for (int i = 0; i < n; i++) {
			const unsigned char *v = sqlite3_column_text(st, i);
			printf("%s%s", i ? "\t" : "", v ? (const char *)v : "NULL");
		}
		printf("\n");
	}
	if (rc != SQLITE_DONE)
		die(sql);
	sqlite3_finalize(st);
}

/* Runs sql through sqlite3_exec, folding every row into one hash (fold_row). */
static void digest(const char *heading, const char *sql)
{
	unsigned long h = 5381;
	if (sqlite3_exec(db, sql, fold_row, &h, NULL) != SQLITE_OK)
		die(sql);
	printf("-- %s\n%016lx\n", heading, h);
}

int main(int argc, char **argv)
{
	int rows = argc > 1 ? atoi(argv[1]) : 20000;
	if (rows < 1) {
		fprintf(stderr, "driver: ROWS must be a positive number\n");
		return 2;
	}
	if (sqlite3_open(":memory:", &db) != SQLITE_OK)
		die("open");
	if (register_callbacks(db) != SQLITE_OK)
		die("register callbacks");
	printf("sqlite %s, %d rows\n", sqlite3_libversion(), rows);

	fill(rows);
	exec("CREATE INDEX items_name ON items(name COLLATE rune)");
	exec("CREATE INDEX items_city ON items(city, qty)");

	show("count", "SELECT count(*), count(qty), sum(qty) FROM items");
	show("cities", "SELECT city, count(*), sum(qty), printf('%.2f', spread(price)) FROM items "
		       "GROUP BY city ORDER BY city COLLATE rune");
	show("first names", "SELECT name, count(*) FROM items GROUP BY name COLLATE rune "
			    "ORDER BY name COLLATE rune LIMIT 8");
	show("range by index", "SELECT count(*) FROM items WHERE name COLLATE rune BETWEEN 'mi' AND 'su'");
	show("top scores", "SELECT id, name, printf('%.3f', score(qty, price)) AS s FROM items "
			   "ORDER BY score(qty, price) DESC, id LIMIT 6");
	show("city and qty", "SELECT city, qty, count(*) FROM items WHERE city = 'Riga' AND qty < 40 "
			     "GROUP BY qty ORDER BY qty LIMIT 5");
	digest("all rows by name", "SELECT id, name, city, qty FROM items ORDER BY name COLLATE rune, id");
	digest("sorted by city, price", "SELECT city, price, id FROM items ORDER BY city DESC, price, id");

	exec("UPDATE items SET name = upper(name) WHERE qty % 7 = 3");
	exec("DELETE FROM items WHERE qty IS NULL OR price > 900.0");
	show("after update and delete", "SELECT count(*), count(DISTINCT name COLLATE rune) FROM items");
	digest("all rows by name again", "SELECT name, id FROM items ORDER BY name COLLATE rune, id");
	show("integrity", "PRAGMA integrity_check");

	sqlite3_close(db);
	return 0;
}
