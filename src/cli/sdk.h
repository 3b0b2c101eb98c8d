/*
 * sdk.h - locating the profiling SDK (runtime library + manifest).
 *
 * Order: an SDK registered with `exaloop plugin add profiling --path DIR`,
 * then the SDK beside the CLI (build tree and installed tree share the
 * layout bin/exaloop + <libdir>/exaloop/profiling/).
 */
#ifndef XL_SDK_H
#define XL_SDK_H

#include <stddef.h>

struct xl_sdk {
	char dir[4096];
	char runtime[4096 + 32];  /* libexaloop_rt.a */
	int registered;          /* came from the user's config */
};

/* Returns 0, or -1 with a one-line message in err. */
int xl_sdk_find(struct xl_sdk *sdk, char *err, size_t errlen);
/* Directory of the running exaloop executable. */
int xl_self_dir(char *buf, size_t len);

#endif
