/*
 * strvec.c - see strvec.h.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strvec.h"
#include "xl_array.h"
#include "xl_assert.h"

/* The empty vector's array until the first push: v is never NULL. */
static char *empty[1];

void strvec_init(struct strvec *sv)
{
	sv->v = empty;
	sv->n = sv->cap = 0;
	sv->oom = 0;
}

void strvec_release(struct strvec *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	if (sv->cap)
		free(sv->v);
	strvec_init(sv);
}

/* Append s, which is already the vector's (malloc'd); NULL: out of memory. */
static void take(struct strvec *sv, char *s)
{
	char **v = sv->cap ? sv->v : NULL;
	if (!s || xl_grow((void **)&v, &sv->cap, sv->n + 2, sizeof(char *)) != 0) {
		free(s);
		sv->oom = 1;
		return;
	}
	sv->v = v;
	sv->v[sv->n++] = s;
	sv->v[sv->n] = NULL;
}

void strvec_push(struct strvec *sv, const char *s)
{
	XL_ASSERT(s != NULL); /* NULL ends the argv: it cannot be one of its strings */
	take(sv, strdup(s));
}

void strvec_pushf(struct strvec *sv, const char *fmt, ...)
{
	char *s;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	take(sv, s);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void strvec_sort(struct strvec *sv)
{
	if (sv->n)
		qsort(sv->v, sv->n, sizeof(*sv->v), cmp_str);
}

int strvec_has(const struct strvec *sv, const char *s)
{
	return sv->n && bsearch(&s, sv->v, sv->n, sizeof(*sv->v), cmp_str) != NULL;
}

void strvec_pushv(struct strvec *sv, const char *const *v)
{
	for (size_t i = 0; v && v[i]; i++)
		strvec_push(sv, v[i]);
}

char **strvec_detach(struct strvec *sv)
{
	if (sv->oom) {
		strvec_release(sv);
		return NULL;
	}
	char **v = sv->cap ? sv->v : calloc(1, sizeof(char *));
	strvec_init(sv);
	return v;
}
