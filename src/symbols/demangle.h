/* C++ names for display.
 *
 * xl_demangle(name): a malloc'd demangled copy when name is a mangled C++
 * name ("_Z...") that the C++ ABI's demangler (libstdc++'s __cxa_demangle)
 * accepts; NULL otherwise (not mangled, malformed, out of memory): callers
 * then show name as it is.  The one place exaloop demangles (symbols.c for
 * the sidecar's names, the CLI for messages); shortname.h makes the short
 * forms reports show from its output. */
#ifndef EXALOOP_SYMBOLS_DEMANGLE_H
#define EXALOOP_SYMBOLS_DEMANGLE_H

char *xl_demangle(const char *name);

#endif
