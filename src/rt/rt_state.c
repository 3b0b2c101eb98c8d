/*
 * rt_state.c - the runtime's shared state (declared in rt_internal.h).
 *
 * Defined here, apart from the start-up code that sets it (rt_init.c), so
 * that the files reading it (the hot path, the control thread, calibration,
 * patching) depend on this data only, not on rt_init.c, which in turn calls
 * them: the runtime's files form no loop.  Code here: none.
 */
#include "rt_internal.h"

char *rt__base;
struct xl_cap_header *rt__hdr;
struct rt_config rt__cfg;
int rt__track_sp = 1;
