/*
 * rt_arch.h - the runtime's architecture-specific parts, one header per
 * architecture (rt_arch_x86_64.h, rt_arch_aarch64.h), as compiler-rt's
 * XRay splits its own.  Each provides, under the same names:
 *
 *   rt__arch_ticks()              the cycle counter the capture clock reads
 *                                 (rdtsc; the generic timer's cntvct_el0)
 *   rt__arch_counter_invariant()  1 when that counter runs at a fixed rate
 *   struct rt_arch_vstate, rt__arch_vstate_save/restore()
 *                                 the vector state a thread's first event
 *                                 keeps around its libc calls (rt_xray.c)
 *   RT_ARCH_CALL_ENTRY(fn, id), RT_ARCH_CALL_EXIT(fn, id)
 *                                 a trampoline called as a patched entry
 *                                 or exit sled calls it, for rt_calib.c
 *
 * and the trampolines themselves are rt_tramp_<arch>.S.  Included by
 * rt_internal.h after RT_NOINSTR and RT_HIDDEN are defined.
 */
#ifndef RT_ARCH_H
#define RT_ARCH_H

#if defined(__x86_64__)
#include "rt_arch_x86_64.h"
#elif defined(__aarch64__)
#include "rt_arch_aarch64.h"
#else
#error "exaloop's runtime is written for x86-64 and AArch64"
#endif

#endif
