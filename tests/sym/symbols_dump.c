/* exaloop-symbols-dump: print what xl_symbols_read() / xl_symbols_load_json()
 * make of an executable or a sidecar (a debugging aid, not installed).
 *   exaloop-symbols-dump EXE|FILE.json [--json OUT]                        */
#include <stdio.h>
#include <string.h>
#include <inttypes.h>

#include "symbols.h"

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

int main(int argc, char **argv)
{
	if (argc != 2 && !(argc == 4 && strcmp(argv[2], "--json") == 0)) {
		fprintf(stderr, "usage: %s EXE|FILE.json [--json OUT]\n", argv[0]);
		return 2;
	}
	struct xl_symtab t;
	char err[512];
	int rc = ends_with(argv[1], ".json") ? xl_symbols_load_json(argv[1], &t, err, sizeof err)
					     : xl_symbols_read(argv[1], &t, err, sizeof err);
	if (rc != XL_OK) {
		fprintf(stderr, "error: %s\n", err);
		return 1;
	}
	printf("executable: %s\nbuild_id: %s\nfunctions: %zu  sleds: %" PRIu64 "  sled_version: %d  fn_idx: %" PRIu64
	       "\n",
	       t.executable ? t.executable : "(null)", t.build_id, t.count, t.sleds, t.sled_version, t.fn_idx);
	if (t.warning[0] != '\0')
		printf("warning: %s\n", t.warning);
	for (size_t i = 0; i < t.count; i++) {
		const struct xl_symbol *s = &t.syms[i];
		printf("%6" PRId32 "  0x%-10" PRIx64 "  %s", s->id, s->addr, s->name);
		if (s->linkage_name != NULL && strcmp(s->linkage_name, s->name) != 0)
			printf("  [%s]", s->linkage_name);
		if (s->file != NULL)
			printf("  %s:%d", s->file, s->line);
		putchar('\n');
	}
	if (argc == 4 && xl_symbols_write_json(&t, argv[3], err, sizeof err) != XL_OK) {
		fprintf(stderr, "error: %s\n", err);
		xl_symtab_release(&t);
		return 1;
	}
	xl_symtab_release(&t);
	return 0;
}
