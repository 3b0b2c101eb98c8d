/*
 * pgo_diag.c - a build's PGO profile: is it there, and clang's diagnostics
 * about it (pgo_diag.h).  Used by srcbuild.c for every --pgo build.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pgo_diag.h"
#include "strbuf.h"
#include "xl_errors.h"

int xl_pgo_check_profile(const char *profile, const struct xl_msgs *m)
{
	if (access(profile, R_OK) == 0)
		return XL_OK;
	xl_msgf(m, XL_MSG_ERROR, "cannot read the PGO profile '%s': %s", profile, strerror(errno));
	xl_msgf(m, XL_MSG_HINT,
		"make one with 'exaloop pgo train [build options] SOURCE... -- ARGS...' (writes pgo/NAME.profdata)");
	return XL_EINVAL;
}

void xl_pgo_relay_diagnostics(const char *log, const char *profile, const struct xl_msgs *m)
{
	FILE *f = fopen(log, "re");
	if (!f)
		return;
	char line[8192];
	long stale = 0, stale_of = 0, missing = 0, missing_of = 0, other_warnings = 0;
	struct strbuf files, generated;
	strbuf_init(&files);
	strbuf_init(&generated);
	while (fgets(line, sizeof(line), f)) {
		long a, b;
		const char *p = strstr(line, ": of ");
		/* "warning: profile data may be out of date: of 30 functions, 1 has mismatched data
		 * that will be ignored [-Wprofile-instr-out-of-date]"; "... may be incomplete: of 30
		 * functions, 29 have no data [-Wprofile-instr-missing]" */
		if (p && strstr(line, "[-Wprofile-instr-out-of-date]") &&
		    sscanf(p, ": of %ld functions, %ld", &a, &b) == 2) {
			stale_of += a;
			stale += b;
		} else if (p && strstr(line, "[-Wprofile-instr-missing]") &&
			   sscanf(p, ": of %ld functions, %ld", &a, &b) == 2) {
			missing_of += a;
			missing += b;
		} else if (strstr(line, "[-Wprofile-instr-missing]") && (p = strchr(line, '"'))) {
			/* "warning: no profile data available for file "loans.c"" */
			const char *q = strchr(p + 1, '"');
			if (files.len)
				strbuf_addf(&files, ", ");
			strbuf_addf(&files, "%.*s", q ? (int)(q - p - 1) : (int)strcspn(p + 1, "\n"), p + 1);
		} else if (strstr(line, " generated.\n") && strspn(line, "0123456789") > 0) {
			strbuf_addf(&generated, "%s", line); /* "1 warning generated.": kept only for other warnings */
		} else {
			other_warnings += strstr(line, "warning:") != NULL;
			xl_msgf(m, XL_MSG_TEXT, "%s", line);
		}
	}
	fclose(f);
	if (other_warnings && generated.len)
		xl_msgf(m, XL_MSG_TEXT, "%s", generated.buf);
	if (stale)
		xl_msgf(m, XL_MSG_WARN,
			"the PGO profile '%s' is out of date for %ld of %ld functions (changed since training): their "
			"counts are ignored; retrain with 'exaloop pgo train'",
			profile, stale, stale_of);
	if (missing)
		xl_msgf(m, XL_MSG_WARN,
			"the PGO profile '%s' has no data for %ld of %ld functions (a profile of another program, or "
			"sources renamed since training?): they are built without PGO",
			profile, missing, missing_of);
	if (files.len)
		xl_msgf(m, XL_MSG_WARN,
			"the PGO profile '%s' has no data for %s (a profile of another program?): built without PGO there",
			profile, files.buf);
	strbuf_release(&files);
	strbuf_release(&generated);
}
