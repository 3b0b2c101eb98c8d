/*
 * tailcall.h - the ARM64 tail-call workaround of XRay builds.
 *
 * compiler-rt's AArch64 tail-exit trampoline can corrupt the registers
 * that carry a tail callee's arguments.  On ARM64, builds with function
 * tracing therefore turn optional tail calls into ordinary calls
 * (-fno-optimize-sibling-calls) and keep functions that make mandatory
 * tail calls (`__attribute__((musttail))`) out of XRay altogether, with a
 * warning naming each one: their time then shows in their callers.
 * Memory-only builds are left alone.
 *
 * EXALOOP_XRAY_TAILCALL_WORKAROUND=1 applies the workaround on any
 * architecture (the tests use it on x86-64), =0 turns it off.
 */
#ifndef XL_TAILCALL_H
#define XL_TAILCALL_H

#include <stddef.h>

#include "args.h"
#include "xl_msgs.h"

/* 1 when XRay builds need the workaround: when they are for AArch64
 * (natively, or with --arch aarch64). */
int xl_tailcall_workaround(void);

/* Find the functions of the build's sources that make musttail calls
 * (by compiling each source that mentions "musttail" to LLVM IR), warn
 * about each (m), and write an XRay attribute list excluding them to a new
 * temporary file.  Returns 0 with `list` set to its path, or to "" when
 * no function needs excluding; -1 after an error (m) when the list could
 * not be made, or without one when a scan failed (the caller goes on
 * without the list: the build itself will report real errors).  The
 * caller removes the file. */
int xl_musttail_exclusions(const char *compiler, const struct xl_build_args *a, char *list, size_t len,
			   const struct xl_msgs *m);

#endif
