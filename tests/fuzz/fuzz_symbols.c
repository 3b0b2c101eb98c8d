/*
 * fuzz_symbols.c - the symbols sidecar (APP.symbols.json / symbols.json):
 * xl_symbols_load_json() directly, then as the analyzer uses it, beside a
 * fixed small capture, with the names going through every output format.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "model_check.h"
#include "symbols.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_put("symbols.json", data, size);
	char path[128], err[256];
	snprintf(path, sizeof(path), "%s/symbols.json", fz_dir());
	struct xl_symtab tab;
	memset(err, 'x', sizeof(err));
	int rc = xl_symbols_load_json(path, &tab, err, sizeof(err));
	if (rc == XL_OK) {
		for (size_t i = 0; i < tab.count; i++) {
			const struct xl_symbol *s = xl_symtab_find(&tab, (int32_t)(i + 1));
			if (!s || s->id != (int32_t)(i + 1) || !s->name) {
				fprintf(stderr, "fuzz: loaded symbol table is inconsistent at id %zu\n", i + 1);
				abort();
			}
		}
		(void)xl_symtab_find(&tab, 0);
		(void)xl_symtab_find(&tab, -1);
		(void)xl_symtab_find(&tab, INT32_MAX);
		xl_symtab_release(&tab);
	} else if (!memchr(err, 0, sizeof(err))) {
		fprintf(stderr, "fuzz: error message not terminated\n");
		abort();
	}
	size_t caplen;
	const uint8_t *cap = fz_small_capture(&caplen);
	fz_put("capture.xlc", cap, caplen);
	fz_put("run.json", NULL, 0);
	fz_load_and_emit(fz_dir());
	return 0;
}
