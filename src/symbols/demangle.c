/* demangle.c - see demangle.h. */
#include "demangle.h"

#include <stddef.h>
#include <stdlib.h>

/* The C++ ABI's demangler (libstdc++); declared here to stay a C file. */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

char *xl_demangle(const char *name)
{
	if (name == NULL || name[0] != '_' || name[1] != 'Z')
		return NULL;
	int status = -1;
	char *d = __cxa_demangle(name, NULL, NULL, &status);
	if (d != NULL && status == 0)
		return d;
	free(d);
	return NULL;
}
