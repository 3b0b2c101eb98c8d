/* Short C++ names for display.
 *
 * A demangled C++ name repeats its template arguments in the return type,
 * the scope and the parameters: nlohmann::json's run to 5,000 characters,
 * and a flame graph's frame or a table's column shows only the start of
 * them, never the function's own name.  The short form keeps what tells a
 * reader which function it is:
 *
 *   - the qualified name, without the return type and the parameter list;
 *   - template arguments collapsed to <…> (a bare <> stays);
 *   - inline and ABI namespaces left out (std::__cxx11, nlohmann's
 *     json_abi_v3_11_2, libc++'s __1) and [abi:cxx11] tags dropped;
 *   - at most XL_SHORT_NAME_MAX characters (code points): when longer,
 *     scopes in the middle give way to "…", never the last component,
 *     which is the function's unqualified name (method, operator, lambda).
 *
 * It is read from the demangled text's structure (its nesting of <> () []
 * {}, with operator<, operator() and the like, (anonymous namespace),
 * {lambda(…)#1}, function-pointer return types, thunk prefixes), not with
 * patterns.  Names that are not demangled C++ functions (no parameter
 * list, or other text after it than qualifiers and [clone] tags: C
 * functions, "#12", "(more call paths)", assembler labels with markup)
 * come back as they are, cut to the maximum.
 *
 * xl_short_names() gives a set of names (a model's functions, a diff's)
 * their short forms such that different names get different ones: names
 * whose short forms collide get their simplified parameter list and
 * qualifiers ("basic_json<…>::basic_json(value_t)"), and those that still
 * collide (instantiations that differ only in template arguments) a " #k",
 * k counting the colliding names in byte order from 1.  Equal names keep
 * equal short forms (two static functions of one name in different files:
 * their file tells them apart, as it does for their full names).
 *
 * All results are malloc'd and the caller's; NULL / XL_ENOMEM only when
 * out of memory. */
#ifndef EXALOOP_SYMBOLS_SHORTNAME_H
#define EXALOOP_SYMBOLS_SHORTNAME_H

#include <stddef.h>

#define XL_SHORT_NAME_MAX 100

/* The short form of one (demangled) name. */
char *xl_short_name(const char *name);
/* The same with its parameter list, each parameter's type shortened and
 * unqualified ("(basic_string<…> const&, bool)"), and the qualifiers after
 * it (" const", " &&"); NULL also when that cannot fit XL_SHORT_NAME_MAX. */
char *xl_short_name_params(const char *name);
/* For i < n: shorts[i] = the short form of names[i], told apart as above
 * (on failure every shorts[i] is NULL).  The i-th elements are i * stride
 * bytes from the first: sizeof(char *) for arrays of names, the struct's
 * size for a field of an array of structs (&funcs[0].name,
 * &funcs[0].short_name, sizeof(funcs[0])).  XL_OK or XL_ENOMEM. */
int xl_short_names(const char *const *names, char **shorts, size_t n, size_t stride);
/* Characters (UTF-8 code points) of s, as XL_SHORT_NAME_MAX counts them. */
size_t xl_u8len(const char *s);

#endif
