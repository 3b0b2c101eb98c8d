/*
 * pgo.c - PGO tools and diagnostics (pgo.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "pgo.h"
#include "process.h"
#include "strvec.h"
#include "toolchain.h"
#include "xl_errors.h"

int xl_find_profdata(char *path, size_t len)
{
	return xl_which("llvm-profdata-14", path, len) == 0 || xl_which("llvm-profdata", path, len) == 0 ? 0 : -1;
}

int xl_pgo_tools(char *cc, size_t cclen, char *profdata, size_t plen, const struct xl_msgs *m)
{
	char ccbuf[PATH_MAX], pbuf[PATH_MAX], rt[PATH_MAX];
	if (!cc)
		cc = ccbuf, cclen = sizeof(ccbuf);
	if (!profdata)
		profdata = pbuf, plen = sizeof(pbuf);
	if (xl_find_compiler(XL_LANG_C, cc, cclen) != 0) {
		xl_msgf(m, XL_MSG_ERROR, "no C compiler found (looked for clang-14, clang in PATH)");
		xl_msgf(m, XL_MSG_HINT, "install it: apt-get install clang-14 libclang-rt-14-dev");
		return XL_EBUILD;
	}
	if (xl_find_profdata(profdata, plen) != 0) {
		xl_msgf(m, XL_MSG_ERROR,
			"PGO needs llvm-profdata (looked for llvm-profdata-14, llvm-profdata in PATH)");
		xl_msgf(m, XL_MSG_HINT, "install it: apt-get install llvm-14");
		return XL_EBUILD;
	}
	if (xl_clang_runtime(cc, "profile", rt, sizeof(rt)) != 0) {
		xl_msgf(m, XL_MSG_ERROR,
			"PGO training builds need clang's profile runtime (libclang_rt.profile), which '%s' cannot find",
			cc);
		xl_msgf(m, XL_MSG_HINT, "install it: apt-get install libclang-rt-14-dev");
		return XL_EBUILD;
	}
	return XL_OK;
}

int xl_pgo_merge(const char *profdata, char *const *raw, const char *out, char *err, size_t errlen)
{
	size_t n = 0;
	while (raw[n])
		n++;
	char tmp[PATH_MAX];
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%d", out, (int)getpid()) >= sizeof(tmp)) {
		snprintf(err, errlen, "path too long: '%s'", out);
		return XL_EINVAL;
	}
	struct strvec argv;
	strvec_init(&argv);
	const char *const head[] = {profdata, "merge", "-o", tmp, NULL};
	strvec_pushv(&argv, head);
	strvec_pushv(&argv, (const char *const *)raw);
	if (argv.oom) {
		strvec_release(&argv);
		snprintf(err, errlen, "out of memory");
		return XL_ENOMEM;
	}
	struct xl_process p = {.argv = argv.v, .signals = XL_SIGNALS_FORWARD, .stdio = XL_STDIO_QUIET};
	int rc = xl_process_run(&p);
	strvec_release(&argv);
	if (rc != 0 || rename(tmp, out) != 0) {
		unlink(tmp);
		snprintf(err, errlen, "cannot merge %zu raw profile%s into '%s' (%s exited with status %d)", n,
			 n == 1 ? "" : "s", out, profdata, rc);
		return XL_EBUILD;
	}
	return XL_OK;
}

struct function_counts {
	long *total, *counted;
};

/* "    Function count: 96" per function; "Total functions: 30" at the end */
static int count_line(const char *line, void *arg)
{
	const struct function_counts *fc = arg;
	long c;
	if (sscanf(line, " Function count: %ld", &c) == 1)
		*fc->counted += c > 0;
	else if (sscanf(line, "Total functions: %ld", &c) == 1)
		*fc->total = c;
	return 0;
}

int xl_pgo_functions(const char *profdata, const char *profile, long *total, long *counted)
{
	char *const argv[] = {(char *)profdata, "show", "--all-functions", (char *)profile, NULL};
	struct function_counts fc = {total, counted};
	*total = -1;
	*counted = 0;
	return xl_process_lines(argv, count_line, &fc) == 0 && *total >= 0 ? 0 : -1;
}
