/*
 * fuzz_runjson.c - run.json, the run metadata the CLI writes after the
 * program ends, read by the analyzer beside a fixed small capture.  Every
 * field is optional and may have any type; the model must come out usable
 * in every output format.
 */
#include "fuzz.h"
#include "model_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t caplen;
	const uint8_t *cap = fz_small_capture(&caplen);
	fz_put("capture.xlc", cap, caplen);
	fz_put("symbols.json", NULL, 0);
	fz_put("run.json", data, size);
	fz_load_and_emit(fz_dir());
	return 0;
}
