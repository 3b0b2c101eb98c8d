/* sym_util.c - small helpers of xl_symbols (sym_internal.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "sym_internal.h"
#include "xl_array.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((format(printf, 3, 4))) void sym_seterr(char *err, size_t errlen, const char *fmt, ...)
{
	if (err == NULL || errlen == 0)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	/* one line, whatever a path or a parser message contains */
	for (char *p = err; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
}

__attribute__((format(printf, 2, 3))) void sym_add_warning(struct xl_symtab *tab, const char *fmt, ...)
{
	size_t used = strlen(tab->warning);
	if (used + 3 >= sizeof tab->warning)
		return;
	if (used > 0) {
		memcpy(tab->warning + used, "; ", 3);
		used += 2;
	}
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(tab->warning + used, sizeof tab->warning - used, fmt, ap);
	va_end(ap);
	for (char *p = tab->warning; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
}

char *sym_path_join(const char *dir, const char *file)
{
	if (file == NULL)
		return NULL;
	if (file[0] == '/' || dir == NULL || dir[0] == '\0')
		return strdup(file);
	size_t a = strlen(dir), b = strlen(file);
	char *p = malloc(a + b + 2);
	if (p == NULL)
		return NULL;
	memcpy(p, dir, a);
	size_t n = a;
	if (dir[a - 1] != '/')
		p[n++] = '/';
	memcpy(p + n, file, b + 1);
	return p;
}
