/*
 * emit.c - the table of output formats.
 */
#include <string.h>

#include "emit.h"
#include "xl_array.h"

static const struct {
	const char *name;
	xl_emit_fn fn;
} formats[] = {
	{"html", xl_emit_html},     {"json", xl_emit_json},         {"text", xl_emit_text},
	{"chrome", xl_emit_chrome}, {"perfetto", xl_emit_perfetto}, {"folded", xl_emit_folded},
	{"pprof", xl_emit_pprof},
};

void xl_emit_opts_init(struct xl_emit_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->sort = XL_SORT_TOTAL;
	o->thread = -1;
}

xl_emit_fn xl_emitter(const char *format)
{
	for (size_t i = 0; i < XL_ARRAY_SIZE(formats); i++)
		if (strcmp(format, formats[i].name) == 0)
			return formats[i].fn;
	return NULL;
}

const char *xl_emitter_names(void)
{
	return "html, json, text, chrome, perfetto, folded, pprof";
}

int xl_emit_gzipped(const char *format, const struct xl_emit_opts *o)
{
	return strcmp(format, "pprof") == 0 && !o->uncompressed;
}
