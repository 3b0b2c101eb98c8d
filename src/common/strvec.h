/*
 * strvec.h - a growable NULL-terminated array of strings: the one way to
 * build an argument vector (a compiler's command line, a program's argv).
 *
 *	struct strvec cc;
 *	strvec_init(&cc);
 *	strvec_push(&cc, compiler);
 *	strvec_pushf(&cc, "-fxray-instruction-threshold=%d", n);
 *	if (cc.oom) ...;                      // once, before using it
 *	struct xl_process p = {.argv = cc.v};
 *	strvec_release(&cc);
 *
 * A strvec owns its strings (each push copies) and the array.  After
 * strvec_init() `v` is never NULL and always ends with NULL (v[n] == NULL),
 * so it is an argv as execv(2) wants it.  On allocation failure the vector
 * keeps what it had and `oom` is set: callers check it once at the end
 * instead of after every push.  strvec_release() frees everything and
 * leaves an empty, reusable vector.
 */
#ifndef XL_STRVEC_H
#define XL_STRVEC_H

#include <stddef.h>

struct strvec {
	char **v;
	size_t n, cap;
	int oom;
};

void strvec_init(struct strvec *sv);
void strvec_release(struct strvec *sv);
void strvec_push(struct strvec *sv, const char *s);
void strvec_pushf(struct strvec *sv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Each string of v (NULL-terminated; NULL: none). */
void strvec_pushv(struct strvec *sv, const char *const *v);
/* Sort the strings (strcmp order), and look one up in a sorted vector. */
void strvec_sort(struct strvec *sv);
int strvec_has(const struct strvec *sv, const char *s);
/* Take the array out of sv (sv is reset): the caller frees each string and
 * the array.  NULL when sv ran out of memory (everything freed then). */
char **strvec_detach(struct strvec *sv);

#endif
