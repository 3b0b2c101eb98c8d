/*
 * fuzz_capture.c - the capture reader: the input is capture.xlc.
 *
 * The header, the thread table, thread blocks, node chunks, timeline and
 * memory blocks all come from the input; whatever the analyzer accepts is
 * then written in every output format.  The sidecars beside it vary with
 * the input's size (size % 4), so every mutation also tries the other
 * combinations: none, valid ones, malformed ones, and hostile names.
 */
#include <string.h>

#include "fuzz.h"
#include "model_check.h"

static const char run_ok[] =
	"{\"schema\":\"exaloop.run/1\",\"program\":\"app.c\",\"executable\":\"/tmp/app\","
	"\"command\":[\"exaloop\",\"run\",\"app.c\"],\"args\":[\"a\"],\"exit_status\":0,\"signal\":null,"
	"\"compile_time_ns\":5,\"app_time_ns\":7,\"started_at\":\"2026-01-01T00:00:00Z\","
	"\"include\":[],\"peak_rss_rusage\":4096}";
static const char syms_ok[] =
	"{\"schema\":\"exaloop.symbols/1\",\"build_id\":\"ab\",\"executable\":null,\"functions\":["
	"{\"id\":1,\"addr\":\"0x10\",\"name\":\"main\",\"file\":\"/src/a.c\",\"line\":3},"
	"{\"id\":2,\"addr\":\"0x20\",\"name\":\"fib\",\"file\":null,\"line\":9},"
	"{\"id\":3,\"addr\":\"0x30\",\"name\":\"leaf\"}]}";
static const char run_bad[] =
	"{\"program\":7,\"command\":\"x\",\"args\":[1,null,\"\"],\"exit_status\":99999999999,"
	"\"signal\":-5,\"app_time_ns\":-9223372036854775808,\"peak_rss_rusage\":9223372036854775807,"
	"\"overhead_ns_per_call\":1e308}";
static const char syms_bad[] = "{\"schema\":\"exaloop.symbols/1\",\"build_id\":\"ab\",\"functions\":[{\"id\":2}";
static const char run_names[] =
	"{\"program\":\"<script>alert(1)</script>\",\"command\":[\"a\\\"b\",\"\\u0000\",\"</script>\"],"
	"\"args\":[\"\\n\\r\\t&amp;\",\"\\ud800\"],\"exit_status\":0}";
static const char syms_names[] =
	"{\"schema\":\"exaloop.symbols/1\",\"build_id\":\"\",\"functions\":["
	"{\"id\":1,\"addr\":\"0x1\",\"name\":\"</script><script>alert(1)</script>\",\"file\":\"a\\\"b<&>\\n.c\"},"
	"{\"id\":2,\"addr\":\"0x2\",\"name\":\"a;b\\nc d\"},{\"id\":3,\"addr\":\"0x3\",\"name\":\"\\u2028\"}]}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *run = NULL, *syms = NULL;
	switch (size % 4) {
	case 1:
		run = run_ok;
		syms = syms_ok;
		break;
	case 2:
		run = run_bad;
		syms = syms_bad;
		break;
	case 3:
		run = run_names;
		syms = syms_names;
		break;
	default: break;
	}
	fz_put("run.json", run, run ? strlen(run) : 0);
	fz_put("symbols.json", syms, syms ? strlen(syms) : 0);
	fz_put("capture.xlc", data, size);
	fz_load_and_emit(fz_dir());
	return 0;
}
