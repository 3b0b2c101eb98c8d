/*
 * rt_state.c - the runtime's shared state (declared in rt_internal.h).
 *
 * Defined here, apart from the start-up code that sets it (rt_init.c), so
 * that the files reading it (the hot path, the control thread, calibration,
 * patching) depend on this data only, not on rt_init.c, which in turn calls
 * them: the runtime's files form no loop.  Code here: none.
 */
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"

char *rt__base;
struct xl_cap_header *rt__hdr;
struct rt_config rt__cfg;
int rt__track_sp = 1;
void (*_Atomic rt__thread_started)(void);

/*
 * Which process owns the capture.  A child made by fork() runs the
 * pthread_atfork handler (rt_init.c), but one made by syscall(SYS_fork) or
 * by clone() without CLONE_VM does not: it inherits a thread state that
 * says "registered, window open" and the shared mapping of the parent's
 * file, so without more it would write its calls into the parent's capture
 * and its exit() would wait forever for a control thread it does not have.
 *
 * So the two words that say "record" (rt__on, the hot path's first test)
 * and "this process owns the capture" live on a page of their own, which
 * rt_init.c makes private anonymous memory marked MADV_WIPEONFORK: the
 * kernel hands every child, however it was made, a zeroed copy.  The child
 * is inert from its first instruction, at no cost per event.  Where the
 * kernel lacks MADV_WIPEONFORK (before 4.14) the slow paths compare
 * getpid() with the capture header's pid instead (rt__owns_capture: the
 * child still sees the parent's header, with the parent's pid); the hot
 * path of a thread registered before such a fork then still writes into
 * the parent's capture (documented).
 */
union rt_proc_page rt__proc_page __attribute__((aligned(4096)));
extern _Atomic int rt__on __attribute__((alias("rt__proc_page")));
_Atomic int rt__child_state;
int (*rt__child_begin)(void);

/* Settings handed over by `profile attach` (xl_capture.h), which take the
 * environment's place; NULL unless attached (rt_init.c sets it). */
const char *rt__attach_settings;

const char *rt__getenv(const char *name)
{
	if (!rt__attach_settings)
		return getenv(name);
	size_t n = strlen(name);
	for (const char *p = rt__attach_settings; *p; p += strlen(p) + 1)
		if (strncmp(p, name, n) == 0 && p[n] == '=')
			return p + n + 1;
	return NULL;
}
