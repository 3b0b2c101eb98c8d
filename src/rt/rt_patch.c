/*
 * rt_patch.c - XRay control through weak references.
 *
 * XRay's interface header is C++ only, so the few prototypes are declared
 * here.  They are weak: a memory-only build links no XRay runtime, and the
 * same library must work there (every call below is guarded).
 */
#include "rt_internal.h"

extern int __xray_set_handler(void (*entry)(int32_t, int)) __attribute__((weak));
extern int __xray_remove_handler(void) __attribute__((weak));
extern int __xray_patch(void) __attribute__((weak));
extern int __xray_unpatch(void) __attribute__((weak));
extern int __xray_patch_function(int32_t id) __attribute__((weak));
extern size_t __xray_max_function_id(void) __attribute__((weak));

#define XRAY_SUCCESS 1 /* XRayPatchingStatus::SUCCESS */

int rt__xray_available(void)
{
	return __xray_set_handler && __xray_patch && __xray_unpatch && __xray_patch_function &&
	       __xray_max_function_id && __xray_remove_handler;
}

int rt__patch(void)
{
	if (!rt__xray_available())
		return -1;
	size_t max = __xray_max_function_id();
	rt__hdr->max_function_id = (uint32_t)max;
	if (__xray_set_handler(rt__xray_handler) != 1)
		return -1;
	if (!rt__cfg.include_ids) {
		if (__xray_patch() != XRAY_SUCCESS)
			return -1;
		rt__hdr->patched_functions = (uint32_t)max;
		return 0;
	}
	uint32_t patched = 0;
	for (size_t i = 0; i < rt__cfg.include_count; i++) {
		int32_t id = rt__cfg.include_ids[i];
		if (id >= 1 && (size_t)id <= max && __xray_patch_function(id) == XRAY_SUCCESS)
			patched++;
	}
	rt__hdr->patched_functions = patched;
	return 0;
}

void rt__unpatch(void)
{
	if (!rt__xray_available())
		return;
	__xray_unpatch();
	/* The handler stays installed on purpose: a thread that was already
	 * inside a trampoline may still call it, and it checks rt__on first. */
}
