/*
 * fuzz.h - shared pieces of exaloop's fuzz targets.
 *
 * Every target defines LLVMFuzzerTestOneInput().  Built with clang
 * -fsanitize=fuzzer it is a libFuzzer executable (scripts/fuzz.sh); built
 * with replay_main.c it is a plain program that runs the files of its seed
 * and regression corpora once each (CTest fuzz.replay.<target>), so every
 * crash ever found stays a regression test on every compiler.
 *
 * Targets that read files (the analyzer loads a capture directory) write the
 * input into one private temporary directory, created on first use and
 * removed at exit.
 */
#ifndef XL_FUZZ_H
#define XL_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The private directory (never NULL: exits when it cannot be created). */
const char *fz_dir(void);
/* Write data to fz_dir()/name (replacing it); NULL data removes the file. */
void fz_put(const char *name, const void *data, size_t len);
/* A stream that discards what is written (emitters' output). */
FILE *fz_sink(void);

/* A small, valid capture (one thread, a few call paths, a short timeline and
 * memory samples), built in memory: the fixed capture for the targets that
 * fuzz the sidecars.  *len receives its size; the buffer is static. */
const uint8_t *fz_small_capture(size_t *len);

#endif
