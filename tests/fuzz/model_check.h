/*
 * model_check.h - what the analyzer targets do with a model they loaded:
 * write it in every output format (to a sink) and check the invariants the
 * emitters rely on, so that a model the analyzer accepts can never make an
 * emitter crash or loop.
 */
#ifndef XL_FUZZ_MODEL_CHECK_H
#define XL_FUZZ_MODEL_CHECK_H

#include "analyze.h"

/* Load dir, emit everything; returns the xl_model_load() code. */
int fz_load_and_emit(const char *dir);

#endif
