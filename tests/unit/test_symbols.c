/* unit.symbols: src/symbols/ against clang 14, llvm-xray 14 and the
 * XRay runtime itself.
 *
 * The group setup builds the programs in tests/sym/progs with
 *   clang -fxray-instrument -fxray-instruction-threshold=1 {-O0,-O3} -g
 * (PIE, the Debian default; some variants with -fno-xray-function-index,
 * which in clang 14 *emits* xray_fn_idx, and some linked by lld), then:
 *  - every sled of `llvm-xray extract --symbolize` must map its id to the
 *    same function address and linkage name (and demangled name) as ours;
 *  - a program asks the runtime (__xray_max_function_id,
 *    __xray_function_address, handler ids) and must agree with us;
 *  - file/line of marked functions, C++ demangling, the no-XRay case,
 *    non-ELF / relocatable inputs, v1 (absolute) sled entries, and the JSON
 *    sidecar (round trip + malformed documents).
 * Set XL_KEEP_TMP=1 to keep the temporary directory. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* nftw */
#endif
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <limits.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "symbols.h"

extern char **environ;

#ifndef XL_TEST_CLANG
#error "XL_TEST_CLANG must be defined"
#endif

#define ERRLEN 512

/* ------------------------------------------------------------------------ */
/* fixture: programs built once */

enum prog {
	P_C,
	P_CXX,
	P_RT
};

/* How sources are named when compiling.  The DWARF 5 file tables differ:
 * clang records the primary file as file 0 or as a later entry with a
 * directory, depending on the name and the working directory. */
enum src_mode {
	SRC_REL = 0, /* "app.c" from its own directory (like `exaloop build app.c`) */
	SRC_ABS = 1, /* absolute name from an unrelated directory */
	SRC_ANC = 2, /* absolute name from an ancestor directory */
};

struct variant {
	const char *key;
	enum prog prog;
	const char *opt;
	const char *extra[3];
	bool need_lld;
	int src_mode; /* enum src_mode */
	char path[PATH_MAX];
	bool built;
};

static struct variant variants[] = {
	{"c-O0", P_C, "-O0", {NULL}, false, SRC_REL, "", false},
	{"c-O0-abs", P_C, "-O0", {NULL}, false, SRC_ABS, "", false},
	{"c-O3-anc", P_C, "-O3", {NULL}, false, SRC_ANC, "", false},
	{"cxx-O3-abs", P_CXX, "-O3", {NULL}, false, SRC_ABS, "", false},
	{"cxx-O0-anc", P_CXX, "-O0", {NULL}, false, SRC_ANC, "", false},
	{"c-O3", P_C, "-O3", {NULL}, false, SRC_REL, "", false},
	{"c-O3-fnidx", P_C, "-O3", {"-fno-xray-function-index", NULL}, false, SRC_REL, "", false},
	{"cxx-O0", P_CXX, "-O0", {NULL}, false, SRC_REL, "", false},
	{"cxx-O3", P_CXX, "-O3", {NULL}, false, SRC_REL, "", false},
	{"cxx-O0-lld", P_CXX, "-O0", {"-fuse-ld=lld", NULL}, true, SRC_REL, "", false},
	{"cxx-O3-lld-fnidx",
	 P_CXX,
	 "-O3",
	 {"-fuse-ld=lld", "-fno-xray-function-index", NULL},
	 true,
	 SRC_REL,
	 "",
	 false},
	{"rt-O0", P_RT, "-O0", {NULL}, false, SRC_REL, "", false},
	{"rt-O3", P_RT, "-O3", {NULL}, false, SRC_REL, "", false},
	{"rt-O3-fnidx", P_RT, "-O3", {"-fno-xray-function-index", NULL}, false, SRC_REL, "", false},
	{"rt-O0-lld-fnidx", P_RT, "-O0", {"-fuse-ld=lld", "-fno-xray-function-index", NULL}, true, SRC_REL, "", false},
};
#define NVARIANTS (sizeof variants / sizeof variants[0])

static char tmpdir[PATH_MAX];
static char noxray_path[PATH_MAX];
static char object_path[PATH_MAX];
static const char *const NOXRAY_BUILD_ID = "0123456789abcdef0123456789abcdef01234567";

static const struct variant *variant(const char *key)
{
	for (size_t i = 0; i < NVARIANTS; i++)
		if (strcmp(variants[i].key, key) == 0)
			return &variants[i];
	fail_msg("no variant %s", key);
	return NULL;
}

static bool pjoin(char *buf, size_t len, const char *dir, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);
	return n > 0 && (size_t)n < len;
}

static void tmp_path(char *buf, size_t len, const char *name)
{
	assert_true(pjoin(buf, len, tmpdir, name));
}

/* Run argv in cwd (NULL: ours) with stdout to out_path (or /dev/null) and
 * stderr to out_path.err; returns the exit status, or -1. */
static int run_in(const char *cwd, const char *out_path, const char *const argv[])
{
	char errp[PATH_MAX + 32];
	snprintf(errp, sizeof errp, "%s.err", out_path ? out_path : "/tmp/xl-sym-run");
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_addopen(&fa, 2, out_path ? errp : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (cwd != NULL)
		posix_spawn_file_actions_addchdir_np(&fa, cwd);
	pid_t pid;
	int rc = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0)
		return -1;
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int run(const char *out_path, const char *const argv[])
{
	return run_in(NULL, out_path, argv);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	size_t r;
	while (buf != NULL && (r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (cap - n - 1 == 0) {
			char *nb = realloc(buf, cap * 2);
			if (nb == NULL) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	fclose(f);
	if (buf != NULL)
		buf[n] = '\0';
	return buf;
}

static void write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static bool build(const char *out, enum prog prog, const char *opt, const char *const *extra, bool xray, int mode)
{
#define SRC(name) (mode != SRC_REL ? XL_TEST_PROGS_DIR "/" name : name)
	const char *argv[24];
	size_t n = 0;
	argv[n++] = prog == P_CXX ? XL_TEST_CLANGXX : XL_TEST_CLANG;
	if (xray) {
		argv[n++] = "-fxray-instrument";
		argv[n++] = "-fxray-instruction-threshold=1";
	}
	argv[n++] = opt;
	argv[n++] = "-g";
	for (size_t i = 0; extra != NULL && extra[i] != NULL; i++)
		argv[n++] = extra[i];
	if (prog == P_C) {
		argv[n++] = SRC("sym_c_main.c");
		argv[n++] = SRC("sym_c_other.c");
	} else if (prog == P_CXX) {
		argv[n++] = SRC("sym_cxx.cpp");
	} else {
		argv[n++] = SRC("sym_rt.c");
	}
#undef SRC
	argv[n++] = "-o";
	argv[n++] = out;
	argv[n] = NULL;
	char log[PATH_MAX + 8];
	snprintf(log, sizeof log, "%s.log", out);
	const char *cwd = mode == SRC_REL ? XL_TEST_PROGS_DIR : mode == SRC_ABS ? tmpdir : XL_TEST_PROGS_DIR "/../..";
	int rc = run_in(cwd, log, argv);
	if (rc != 0) {
		char errp[PATH_MAX + 16];
		snprintf(errp, sizeof errp, "%s.err", log);
		char *msg = slurp(errp);
		print_error("build of %s failed (%d): %s\n", out, rc, msg ? msg : "");
		free(msg);
	}
	return rc == 0;
}

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static int group_setup(void **state)
{
	(void)state;
	const char *t = getenv("TMPDIR");
	snprintf(tmpdir, sizeof tmpdir, "%s/xl-sym-XXXXXX", t && *t ? t : "/tmp");
	if (mkdtemp(tmpdir) == NULL) {
		print_error("mkdtemp: %s\n", strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < NVARIANTS; i++) {
		struct variant *v = &variants[i];
		if (!pjoin(v->path, sizeof v->path, tmpdir, v->key))
			return -1;
		if (v->need_lld && XL_TEST_LLD[0] == '\0')
			continue; /* tests using it skip */
		if (!build(v->path, v->prog, v->opt, v->extra, true, v->src_mode))
			return -1;
		v->built = true;
	}
	if (!pjoin(noxray_path, sizeof noxray_path, tmpdir, "noxray"))
		return -1;
	const char *const idflag[] = {"-Wl,--build-id=0x0123456789abcdef0123456789abcdef01234567", NULL};
	if (!build(noxray_path, P_C, "-O1", idflag, false, SRC_REL))
		return -1;
	if (!pjoin(object_path, sizeof object_path, tmpdir, "obj.o"))
		return -1;
	const char *const cflag[] = {"-c", NULL};
	if (!build(object_path, P_RT, "-O0", cflag, true, SRC_REL))
		return -1;
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	if (tmpdir[0] != '\0' && getenv("XL_KEEP_TMP") == NULL)
		nftw(tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

static bool skip_if_unbuilt(const struct variant *v)
{
	if (!v->built) {
		print_message("%s not built (no ld.lld); skipped\n", v->key);
		return true;
	}
	return false;
}

/* ------------------------------------------------------------------------ */
/* llvm-xray extract YAML */

struct ysled {
	int32_t id;
	uint64_t fn;
	char *name;
};

struct ymap {
	struct ysled *s;
	size_t n;
};

static void ymap_free(struct ymap *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->s[i].name);
	free(m->s);
	m->s = NULL;
	m->n = 0;
}

/* value of "function-name: ..." up to ", version:"; YAML quoting undone */
static char *yaml_name(const char *line)
{
	const char *p = strstr(line, "function-name: ");
	if (p == NULL)
		return strdup("");
	p += strlen("function-name: ");
	const char *end = strstr(p, ", version: ");
	if (end == NULL)
		end = p + strlen(p);
	size_t len = (size_t)(end - p);
	char *o = malloc(len + 1);
	assert_non_null(o);
	size_t k = 0;
	if (len >= 2 && p[0] == '\'' && p[len - 1] == '\'') {
		for (size_t i = 1; i + 1 < len; i++) {
			o[k++] = p[i];
			if (p[i] == '\'' && p[i + 1] == '\'')
				i++;
		}
	} else if (len >= 2 && p[0] == '"' && p[len - 1] == '"') {
		for (size_t i = 1; i + 1 < len; i++) {
			if (p[i] == '\\' && i + 2 < len)
				i++;
			o[k++] = p[i];
		}
	} else {
		memcpy(o, p, len);
		k = len;
	}
	o[k] = '\0';
	return o;
}

static void llvm_xray_extract(const char *exe, bool demangle, struct ymap *m)
{
	char out[PATH_MAX + 16];
	snprintf(out, sizeof out, "%s.%s.yaml", exe, demangle ? "dem" : "raw");
	const char *argv[] = {
		XL_TEST_LLVM_XRAY, "extract", "--symbolize", demangle ? "--demangle" : "--no-demangle", exe, NULL};
	assert_int_equal(run(out, argv), 0);
	char *text = slurp(out);
	assert_non_null(text);
	memset(m, 0, sizeof *m);
	size_t cap = 0;
	for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
		if (strncmp(line, "- {", 3) != 0)
			continue;
		const char *pid = strstr(line, " id: ");
		const char *pfn = strstr(line, " function: ");
		assert_non_null(pid);
		assert_non_null(pfn);
		if (m->n == cap) {
			cap = cap ? cap * 2 : 64;
			m->s = realloc(m->s, cap * sizeof *m->s);
			assert_non_null(m->s);
		}
		m->s[m->n].id = (int32_t)strtol(pid + 5, NULL, 10);
		m->s[m->n].fn = strtoull(pfn + 11, NULL, 16);
		m->s[m->n].name = yaml_name(line);
		m->n++;
	}
	free(text);
}

static const struct xl_symbol *by_linkage(const struct xl_symtab *t, const char *name)
{
	for (size_t i = 0; i < t->count; i++)
		if (t->syms[i].linkage_name && strcmp(t->syms[i].linkage_name, name) == 0)
			return &t->syms[i];
	return NULL;
}

static const struct xl_symbol *by_name(const struct xl_symtab *t, const char *name)
{
	for (size_t i = 0; i < t->count; i++)
		if (strcmp(t->syms[i].name, name) == 0)
			return &t->syms[i];
	return NULL;
}

static void read_ok(const char *exe, struct xl_symtab *t)
{
	char err[ERRLEN] = "";
	int rc = xl_symbols_read(exe, t, err, sizeof err);
	if (rc != XL_OK)
		fail_msg("xl_symbols_read(%s) = %d: %s", exe, rc, err);
}

/* Every sled llvm-xray reports: same id -> same function and name. */
static void compare_with_llvm_xray(const char *key)
{
	const struct variant *v = variant(key);
	if (skip_if_unbuilt(v))
		return;
	struct xl_symtab t;
	read_ok(v->path, &t);
	struct ymap raw, dem;
	llvm_xray_extract(v->path, false, &raw);
	llvm_xray_extract(v->path, true, &dem);
	assert_int_equal(raw.n, dem.n);
	assert_true(raw.n > 0);
	assert_int_equal(t.sleds, raw.n);
	assert_int_equal(t.sled_version, 2);

	int32_t maxid = 0;
	bool *seen = calloc(t.count + 1, sizeof *seen);
	assert_non_null(seen);
	size_t named = 0;
	for (size_t i = 0; i < raw.n; i++) {
		const struct ysled *y = &raw.s[i];
		if (y->id < 1 || (size_t)y->id > t.count)
			fail_msg("%s: llvm-xray id %d outside our 1..%zu", key, y->id, t.count);
		const struct xl_symbol *s = xl_symtab_find(&t, y->id);
		assert_non_null(s);
		if (s->addr != y->fn)
			fail_msg("%s: id %d: our function 0x%" PRIx64 ", llvm-xray 0x%" PRIx64, key, y->id, s->addr,
				 y->fn);
		if (raw.s[i].name[0] != '\0' && strncmp(raw.s[i].name, "@(", 2) != 0) {
			assert_non_null(s->linkage_name);
			if (strcmp(s->linkage_name, raw.s[i].name) != 0)
				fail_msg("%s: id %d: our linkage name '%s', llvm-xray '%s'", key, y->id,
					 s->linkage_name, raw.s[i].name);
			if (strcmp(s->name, dem.s[i].name) != 0)
				fail_msg("%s: id %d: our name '%s', llvm-xray '%s'", key, y->id, s->name,
					 dem.s[i].name);
			named++;
		}
		seen[y->id] = true;
		if (y->id > maxid)
			maxid = y->id;
	}
	assert_int_equal((size_t)maxid, t.count);
	for (size_t id = 1; id <= t.count; id++)
		if (!seen[id])
			fail_msg("%s: id %zu has no sled in llvm-xray's output", key, id);
	assert_int_equal(named, raw.n);
	/* ld.bfd: sha1 (20 bytes); lld: "fast" (8 bytes) */
	assert_true(strlen(t.build_id) >= 16 && strlen(t.build_id) % 2 == 0);
	print_message("%s: %zu functions, %zu sleds agree with llvm-xray%s%s\n", key, t.count, raw.n,
		      t.warning[0] ? "; warning: " : "", t.warning);
	free(seen);
	ymap_free(&raw);
	ymap_free(&dem);
	xl_symtab_release(&t);
}

static void test_llvm_xray_c_O0(void **s)
{
	(void)s;
	compare_with_llvm_xray("c-O0");
}
static void test_llvm_xray_c_O0_abs(void **s)
{
	(void)s;
	compare_with_llvm_xray("c-O0-abs");
}
static void test_llvm_xray_c_O3_anc(void **s)
{
	(void)s;
	compare_with_llvm_xray("c-O3-anc");
}
static void test_llvm_xray_cxx_O3_abs(void **s)
{
	(void)s;
	compare_with_llvm_xray("cxx-O3-abs");
}
static void test_llvm_xray_cxx_O0_anc(void **s)
{
	(void)s;
	compare_with_llvm_xray("cxx-O0-anc");
}
static void test_llvm_xray_c_O3(void **s)
{
	(void)s;
	compare_with_llvm_xray("c-O3");
}
static void test_llvm_xray_c_O3_fnidx(void **s)
{
	(void)s;
	compare_with_llvm_xray("c-O3-fnidx");
}
static void test_llvm_xray_cxx_O0(void **s)
{
	(void)s;
	compare_with_llvm_xray("cxx-O0");
}
static void test_llvm_xray_cxx_O3(void **s)
{
	(void)s;
	compare_with_llvm_xray("cxx-O3");
}
static void test_llvm_xray_cxx_O0_lld(void **s)
{
	(void)s;
	compare_with_llvm_xray("cxx-O0-lld");
}
static void test_llvm_xray_cxx_O3_lld_fnidx(void **s)
{
	(void)s;
	compare_with_llvm_xray("cxx-O3-lld-fnidx");
}
static void test_llvm_xray_rt_O0(void **s)
{
	(void)s;
	compare_with_llvm_xray("rt-O0");
}
static void test_llvm_xray_rt_O3_fnidx(void **s)
{
	(void)s;
	compare_with_llvm_xray("rt-O3-fnidx");
}

/* ------------------------------------------------------------------------ */
/* the runtime's own view */

static void compare_with_runtime(const char *key, bool expect_fn_idx)
{
	const struct variant *v = variant(key);
	if (skip_if_unbuilt(v))
		return;
	struct xl_symtab t;
	read_ok(v->path, &t);
	if (expect_fn_idx)
		assert_int_equal(t.fn_idx, t.count);
	else
		assert_int_equal(t.fn_idx, 0);
	if (strstr(t.warning, "xray_fn_idx") != NULL)
		fail_msg("%s: %s", key, t.warning);

	char out[PATH_MAX + 16];
	snprintf(out, sizeof out, "%s.out", v->path);
	const char *argv[] = {v->path, NULL};
	assert_int_equal(run(out, argv), 0);
	char *text = slurp(out);
	assert_non_null(text);

	const struct xl_symbol *alpha = by_linkage(&t, "rt_alpha");
	assert_non_null(alpha);
	uint64_t ref = 0;
	const char *rp = strstr(text, "\nref 0x");
	assert_non_null(rp);
	ref = strtoull(rp + 7, NULL, 16);
	uint64_t bias = ref - alpha->addr;

	size_t max = 0, addrs = 0, events = 0;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t id;
		uintmax_t a;
		char name[64];
		int eid;
		if (sscanf(line, "max %zu", &max) == 1) {
			assert_int_equal(max, t.count);
		} else if (sscanf(line, "addr %zu 0x%jx", &id, &a) == 2) {
			const struct xl_symbol *s = xl_symtab_find(&t, (int32_t)id);
			assert_non_null(s);
			if (s->addr + bias != a)
				fail_msg("%s: runtime id %zu at 0x%jx, ours 0x%" PRIx64 " + bias", key, id, a, s->addr);
			addrs++;
		} else if (sscanf(line, "event %63s %d", name, &eid) == 2) {
			const struct xl_symbol *s = xl_symtab_find(&t, eid);
			if (s == NULL || s->linkage_name == NULL || strcmp(s->linkage_name, name) != 0)
				fail_msg("%s: handler saw id %d for %s, we call it %s", key, eid, name,
					 s && s->linkage_name ? s->linkage_name : "(none)");
			events++;
		}
	}
	assert_int_equal(addrs, t.count);
	assert_int_equal(events, 4);
	print_message("%s: runtime agrees on %zu ids and %zu handler events\n", key, addrs, events);
	free(text);
	xl_symtab_release(&t);
}

static void test_runtime_O0(void **s)
{
	(void)s;
	compare_with_runtime("rt-O0", false);
}
static void test_runtime_O3(void **s)
{
	(void)s;
	compare_with_runtime("rt-O3", false);
}
static void test_runtime_O3_fnidx(void **s)
{
	(void)s;
	compare_with_runtime("rt-O3-fnidx", true);
}
static void test_runtime_O0_lld_fnidx(void **s)
{
	(void)s;
	compare_with_runtime("rt-O0-lld-fnidx", true);
}

/* ------------------------------------------------------------------------ */
/* names, files, lines */

static int marker_line(const char *file, const char *marker)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%s", XL_TEST_PROGS_DIR, file);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char buf[512];
	int line = 0, found = 0;
	char needle[128];
	snprintf(needle, sizeof needle, "@line %s", marker);
	while (fgets(buf, sizeof buf, f) != NULL) {
		line++;
		char *p = strstr(buf, needle);
		if (p != NULL && (p[strlen(needle)] == ' ' || p[strlen(needle)] == '\n')) {
			found = line;
			break;
		}
	}
	fclose(f);
	assert_true(found > 0);
	return found;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

static void expect_loc(const struct xl_symbol *s, const char *file, const char *marker)
{
	assert_non_null(s);
	assert_non_null(s->file);
	assert_true(s->file[0] == '/');
	char want[PATH_MAX];
	snprintf(want, sizeof want, "/%s", file);
	if (!ends_with(s->file, want))
		fail_msg("%s: file %s, want .../%s", s->name, s->file, file);
	assert_int_equal(s->line, marker_line(file, marker));
}

static void check_c_locations(const char *key)
{
	struct xl_symtab t;
	read_ok(variant(key)->path, &t);
	expect_loc(by_name(&t, "xl_known_add"), "sym_c_main.c", "xl_known_add");
	/* two static functions called helper, one per translation unit */
	int helpers = 0;
	for (size_t i = 0; i < t.count; i++) {
		const struct xl_symbol *s = &t.syms[i];
		if (strcmp(s->name, "helper") != 0)
			continue;
		helpers++;
		assert_non_null(s->file);
		if (ends_with(s->file, "/sym_c_main.c"))
			expect_loc(s, "sym_c_main.c", "helper.main");
		else
			expect_loc(s, "sym_c_other.c", "helper.other");
	}
	assert_int_equal(helpers, 2);
	/* C names are not touched */
	const struct xl_symbol *m = by_name(&t, "main");
	assert_non_null(m);
	assert_string_equal(m->linkage_name, "main");
	assert_string_equal(t.warning, "");
	xl_symtab_release(&t);
}

static void test_c_locations(void **s)
{
	(void)s;
	check_c_locations("c-O0");
	check_c_locations("c-O0-abs");
	check_c_locations("c-O3");
	check_c_locations("c-O3-anc");
}

static void check_cxx(const char *key)
{
	const struct variant *v = variant(key);
	if (skip_if_unbuilt(v))
		return;
	struct xl_symtab t;
	read_ok(v->path, &t);
	const struct xl_symbol *m = by_name(&t, "ns::Klass::method(int)");
	assert_non_null(m);
	assert_string_equal(m->linkage_name, "_ZN2ns5Klass6methodEi");
	expect_loc(m, "sym_cxx.cpp", "ns::Klass::method");
	expect_loc(by_name(&t, "plain_c_linkage"), "sym_cxx.cpp", "plain_c_linkage");
	assert_non_null(by_name(&t, "ns::overloaded(int)"));
	assert_non_null(by_name(&t, "ns::overloaded(double)"));
	assert_non_null(by_name(&t, "int ns::Klass::twice<int>(int)"));
	assert_non_null(by_name(&t, "ns::Klass::Klass(int)"));
	assert_non_null(by_name(&t, "ns::Klass::~Klass()"));
	/* every function of this program has debug info */
	for (size_t i = 0; i < t.count; i++) {
		assert_non_null(t.syms[i].file);
		assert_true(t.syms[i].line > 0);
	}
	xl_symtab_release(&t);
}

static void test_cxx_names(void **s)
{
	(void)s;
	check_cxx("cxx-O0");
	check_cxx("cxx-O3");
	check_cxx("cxx-O3-abs");
	check_cxx("cxx-O0-anc");
	check_cxx("cxx-O3-lld-fnidx");
}

/* ------------------------------------------------------------------------ */
/* other inputs */

static void test_no_xray(void **s)
{
	(void)s;
	struct xl_symtab t;
	read_ok(noxray_path, &t);
	assert_int_equal(t.count, 0);
	assert_null(t.syms);
	assert_int_equal(t.sleds, 0);
	assert_string_equal(t.build_id, NOXRAY_BUILD_ID);
	assert_non_null(t.executable);
	assert_null(xl_symtab_find(&t, 1));
	xl_symtab_release(&t);

	char hex[XL_BUILD_ID_HEX_SIZE];
	assert_int_equal(xl_build_id(noxray_path, hex, sizeof hex), 20);
	assert_string_equal(hex, NOXRAY_BUILD_ID);
	char small[40];
	assert_int_equal(xl_build_id(noxray_path, small, sizeof small), XL_EINVAL);
	assert_string_equal(small, "");

	/* the build id of an instrumented program matches its table's */
	struct xl_symtab u;
	read_ok(variant("c-O0")->path, &u);
	assert_int_equal(xl_build_id(variant("c-O0")->path, hex, sizeof hex), 20);
	assert_string_equal(hex, u.build_id);
	xl_symtab_release(&u);
}

static void expect_read_error(const char *path, int code, const char *needle)
{
	struct xl_symtab t;
	memset(&t, 0x5a, sizeof t);
	char err[ERRLEN] = "";
	int rc = xl_symbols_read(path, &t, err, sizeof err);
	if (rc != code || strstr(err, needle) == NULL || strstr(err, path) == NULL)
		fail_msg("read(%s) = %d '%s'; want %d '...%s...'", path, rc, err, code, needle);
	assert_null(strchr(err, '\n'));
	assert_int_equal(t.count, 0);
	assert_null(t.syms);
	xl_symtab_release(&t);
}

static void test_bad_inputs(void **s)
{
	(void)s;
	char p[PATH_MAX];
	tmp_path(p, sizeof p, "not-elf.txt");
	write_file(p, "#!/bin/sh\necho hello\n", 21);
	expect_read_error(p, XL_EFORMAT, "not an ELF file");
	char hex[XL_BUILD_ID_HEX_SIZE];
	assert_true(xl_build_id(p, hex, sizeof hex) < 0);

	tmp_path(p, sizeof p, "empty");
	write_file(p, "", 0);
	expect_read_error(p, XL_EFORMAT, "not an ELF file");

	tmp_path(p, sizeof p, "does-not-exist");
	expect_read_error(p, XL_EIO, "cannot open");
	expect_read_error(tmpdir, XL_EIO, "not a regular file");
	expect_read_error(object_path, XL_EFORMAT, "relocatable object");

	char err[ERRLEN];
	assert_int_equal(xl_symbols_read(NULL, &(struct xl_symtab){0}, err, sizeof err), XL_EINVAL);
	assert_int_equal(xl_symbols_read(p, NULL, err, sizeof err), XL_EINVAL);
}

/* Copy an executable, rewriting its sleds with `edit`. */
struct map_loc {
	uint64_t off, addr, size;
	uint64_t shdr_off; /* file offset of the section header */
};

static struct map_loc find_section(const char *exe, const char *name)
{
	struct map_loc loc = {0, 0, 0, 0};
	assert_int_not_equal(elf_version(EV_CURRENT), EV_NONE);
	int fd = open(exe, O_RDONLY);
	assert_true(fd >= 0);
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(e);
	size_t shstr;
	assert_int_equal(elf_getshdrstrndx(e, &shstr), 0);
	GElf_Ehdr eh;
	assert_non_null(gelf_getehdr(e, &eh));
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		gelf_getshdr(scn, &sh);
		const char *nm = elf_strptr(e, shstr, sh.sh_name);
		if (nm && strcmp(nm, name) == 0) {
			loc.off = sh.sh_offset;
			loc.addr = sh.sh_addr;
			loc.size = sh.sh_size;
			loc.shdr_off = eh.e_shoff + elf_ndxscn(scn) * eh.e_shentsize;
		}
	}
	elf_end(e);
	close(fd);
	assert_true(loc.size > 0);
	return loc;
}

static char *read_all(const char *path, size_t *len)
{
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	char *bytes = malloc((size_t)st.st_size);
	assert_non_null(bytes);
	assert_int_equal(fread(bytes, 1, (size_t)st.st_size, f), (size_t)st.st_size);
	fclose(f);
	*len = (size_t)st.st_size;
	return bytes;
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v; /* test host and target are little-endian x86-64 */
}

static void put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static void test_v1_entries(void **s)
{
	(void)s;
	const char *src = variant("c-O0")->path;
	struct map_loc loc = find_section(src, "xray_instr_map");
	size_t flen;
	char *bytes = read_all(src, &flen);

	/* v2 -> v1: absolute addresses in place */
	for (uint64_t o = 0; o < loc.size; o += 32) {
		unsigned char *e = (unsigned char *)bytes + loc.off + o;
		uint64_t field = loc.addr + o;
		put64(e, field + get64(e));
		put64(e + 8, field + 8 + get64(e + 8));
		e[18] = 1;
	}
	char p[PATH_MAX];
	tmp_path(p, sizeof p, "v1");
	write_file(p, bytes, flen);
	struct xl_symtab a, b;
	read_ok(src, &a);
	read_ok(p, &b);
	assert_int_equal(b.sled_version, 1);
	assert_int_equal(a.count, b.count);
	for (size_t i = 0; i < a.count; i++) {
		assert_int_equal(a.syms[i].addr, b.syms[i].addr);
		assert_string_equal(a.syms[i].name, b.syms[i].name);
	}
	xl_symtab_release(&a);
	xl_symtab_release(&b);

	/* an absolute entry left 0 with no relocation cannot be resolved */
	put64((unsigned char *)bytes + loc.off + 32 + 8, 0);
	tmp_path(p, sizeof p, "v1-unresolved");
	write_file(p, bytes, flen);
	expect_read_error(p, XL_EFORMAT, "unresolved function address");

	/* a section size that is not a whole number of sleds */
	assert_int_equal(get64((unsigned char *)bytes + loc.shdr_off + 32), loc.size);
	put64((unsigned char *)bytes + loc.shdr_off + 32, loc.size - 8);
	tmp_path(p, sizeof p, "bad-size");
	write_file(p, bytes, flen);
	expect_read_error(p, XL_EFORMAT, "not a multiple");
	free(bytes);
}

/* An xray_fn_idx that disagrees with the sled walk is reported. */
static void test_fn_idx_mismatch(void **s)
{
	(void)s;
	const char *src = variant("c-O3-fnidx")->path;
	struct map_loc loc = find_section(src, "xray_fn_idx");
	assert_true(loc.size >= 32);
	size_t len;
	char *bytes = read_all(src, &len);
	struct xl_symtab t;
	char p[PATH_MAX];

	/* swap the first two entries */
	unsigned char tmp[16];
	unsigned char *e = (unsigned char *)bytes + loc.off;
	memcpy(tmp, e, 16);
	memcpy(e, e + 16, 16);
	memcpy(e + 16, tmp, 16);
	tmp_path(p, sizeof p, "fnidx-swapped");
	write_file(p, bytes, len);
	read_ok(p, &t);
	if (strstr(t.warning, "xray_fn_idx entry 0 disagrees") == NULL)
		fail_msg("warning: '%s'", t.warning);
	xl_symtab_release(&t);
	memcpy(e + 16, e, 16);
	memcpy(e, tmp, 16);

	/* one entry fewer */
	put64((unsigned char *)bytes + loc.shdr_off + 32, loc.size - 16);
	tmp_path(p, sizeof p, "fnidx-short");
	write_file(p, bytes, len);
	read_ok(p, &t);
	if (strstr(t.warning, "but the sled walk finds") == NULL)
		fail_msg("warning: '%s'", t.warning);
	assert_int_equal(t.fn_idx, t.count - 1);
	xl_symtab_release(&t);
	free(bytes);
}

/* ------------------------------------------------------------------------ */
/* JSON sidecar */

static void same_str(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

static void test_json_roundtrip(void **s)
{
	(void)s;
	struct xl_symtab t, u;
	read_ok(variant("cxx-O0")->path, &t);
	char p[PATH_MAX], err[ERRLEN];
	tmp_path(p, sizeof p, "cxx.symbols.json");
	assert_int_equal(xl_symbols_write_json(&t, p, err, sizeof err), XL_OK);
	assert_int_equal(xl_symbols_load_json(p, &u, err, sizeof err), XL_OK);
	assert_int_equal(u.count, t.count);
	assert_string_equal(u.build_id, t.build_id);
	same_str(u.executable, t.executable);
	assert_int_equal(u.sleds, t.sleds);
	assert_int_equal(u.sled_version, t.sled_version);
	assert_int_equal(u.fn_idx, t.fn_idx);
	for (size_t i = 0; i < t.count; i++) {
		const struct xl_symbol *a = &t.syms[i], *b = xl_symtab_find(&u, (int32_t)i + 1);
		assert_non_null(b);
		assert_int_equal(a->id, b->id);
		assert_int_equal(a->addr, b->addr);
		same_str(a->name, b->name);
		same_str(a->linkage_name, b->linkage_name);
		same_str(a->file, b->file);
		assert_int_equal(a->line, b->line);
	}
	assert_null(xl_symtab_find(&u, 0));
	assert_null(xl_symtab_find(&u, -1));
	assert_null(xl_symtab_find(&u, (int32_t)u.count + 1));
	assert_null(xl_symtab_find(NULL, 1));
	xl_symtab_release(&u);
	xl_symtab_release(&t);
	assert_int_equal(t.count, 0);
	xl_symtab_release(&t); /* twice is fine */
	xl_symtab_release(NULL);

	/* awkward strings; invalid UTF-8 becomes '?' */
	struct xl_symbol syms[3] = {
		{1, 0x1000, "q\"uote\\back\nline\ttab", NULL, NULL, 0},
		{2, 0xffffffffffffffffULL, "bad \xff\xfe utf8 \xc3\xa9", "raw\xc0\xaf", "/d/\xe2\x82", 7},
		{3, 0, "x", "x", "", 2147483647},
	};
	struct xl_symtab w = {0};
	w.syms = syms;
	w.count = 3;
	assert_int_equal(xl_symbols_write_json(&w, p, err, sizeof err), XL_OK);
	assert_int_equal(xl_symbols_load_json(p, &u, err, sizeof err), XL_OK);
	assert_string_equal(u.build_id, "");
	assert_null(u.executable);
	assert_string_equal(u.syms[0].name, syms[0].name);
	assert_null(u.syms[0].linkage_name);
	assert_null(u.syms[0].file);
	assert_string_equal(u.syms[1].name, "bad ?? utf8 \xc3\xa9");
	assert_string_equal(u.syms[1].linkage_name, "raw??");
	assert_string_equal(u.syms[1].file, "/d/??");
	assert_int_equal(u.syms[1].addr, 0xffffffffffffffffULL);
	assert_int_equal(u.syms[2].line, 2147483647);
	xl_symtab_release(&u);

	/* the writer refuses tables the loader would reject */
	syms[1].id = 5;
	assert_int_equal(xl_symbols_write_json(&w, p, err, sizeof err), XL_EINVAL);
	syms[1].id = 2;
	strcpy(w.build_id, "ABC");
	assert_int_equal(xl_symbols_write_json(&w, p, err, sizeof err), XL_EINVAL);
	w.build_id[0] = '\0';
	char bad[PATH_MAX];
	tmp_path(bad, sizeof bad, "no/such/dir/x.json");
	assert_int_equal(xl_symbols_write_json(&w, bad, err, sizeof err), XL_EIO);
	assert_non_null(strstr(err, "no/such/dir"));
}

#define HEAD "{\"schema\":\"exaloop.symbols/1\",\"build_id\":\"ab\","
#define FN(body) HEAD "\"functions\":[" body "]}"

struct json_case {
	const char *doc;
	const char *needle; /* NULL: must load */
};

static const struct json_case json_cases[] = {
	{"", "invalid JSON"},
	{"{", "invalid JSON"},
	{"nul", "invalid JSON"},
	{"[]", "top level is not a JSON object"},
	{"\"str\"", "invalid JSON"},
	{"{\"build_id\":\"\",\"functions\":[]}", "missing \"schema\""},
	{"{\"schema\":1,\"build_id\":\"\",\"functions\":[]}", "\"schema\" is not a string"},
	{"{\"schema\":\"exaloop.symbols/2\",\"build_id\":\"\",\"functions\":[]}", "unsupported schema"},
	{"{\"schema\":\"exaloop.symbols/1\",\"schema\":\"exaloop.symbols/1\",\"build_id\":\"\",\"functions\":[]}",
	 "invalid JSON"},
	{"{\"schema\":\"exaloop.symbols/1\",\"functions\":[]}", "missing \"build_id\""},
	{"{\"schema\":\"exaloop.symbols/1\",\"build_id\":null,\"functions\":[]}", "\"build_id\""},
	{"{\"schema\":\"exaloop.symbols/1\",\"build_id\":\"ABCD\",\"functions\":[]}", "\"build_id\""},
	{"{\"schema\":\"exaloop.symbols/1\",\"build_id\":\"abc\",\"functions\":[]}", "\"build_id\""},
	{"{\"schema\":\"exaloop.symbols/1\",\"build_id\":\"zz\",\"functions\":[]}", "\"build_id\""},
	{HEAD "\"functions\":{}}", "\"functions\" is not an array"},
	{HEAD "\"x\":1}", "missing \"functions\""},
	{HEAD "\"executable\":5,\"functions\":[]}", "\"executable\""},
	{HEAD "\"xray\":\"x\",\"functions\":[]}", "\"xray\""},
	{HEAD "\"xray\":{\"sleds\":-1},\"functions\":[]}", "\"xray\""},
	{HEAD "\"xray\":{\"sled_version\":256},\"functions\":[]}", "\"xray\""},
	{FN("1"), "functions[0] is not an object"},
	{FN("{\"addr\":\"0x1\",\"name\":\"f\"}"), "missing \"id\""},
	{FN("{\"id\":\"1\",\"addr\":\"0x1\",\"name\":\"f\"}"), "id is not an integer"},
	{FN("{\"id\":1.0,\"addr\":\"0x1\",\"name\":\"f\"}"), "id is not an integer"},
	{FN("{\"id\":true,\"addr\":\"0x1\",\"name\":\"f\"}"), "id is not an integer"},
	{FN("{\"id\":0,\"addr\":\"0x1\",\"name\":\"f\"}"), "out of range"},
	{FN("{\"id\":-3,\"addr\":\"0x1\",\"name\":\"f\"}"), "out of range"},
	{FN("{\"id\":2,\"addr\":\"0x1\",\"name\":\"f\"}"), "out of range"},
	{FN("{\"id\":2147483648,\"addr\":\"0x1\",\"name\":\"f\"}"), "out of range"},
	{FN("{\"id\":99999999999999999999999,\"addr\":\"0x1\",\"name\":\"f\"}"), "invalid JSON"},
	{FN("{\"id\":1,\"addr\":\"0x1\",\"name\":\"f\"},{\"id\":1,\"addr\":\"0x2\",\"name\":\"g\"}"), "duplicate id 1"},
	{FN("{\"id\":1,\"name\":\"f\"}"), "missing \"addr\""},
	{FN("{\"id\":1,\"addr\":4096,\"name\":\"f\"}"), "addr is not"},
	{FN("{\"id\":1,\"addr\":\"4096\",\"name\":\"f\"}"), "addr is not"},
	{FN("{\"id\":1,\"addr\":\"0x\",\"name\":\"f\"}"), "addr is not"},
	{FN("{\"id\":1,\"addr\":\"0x12345678901234567\",\"name\":\"f\"}"), "addr is not"},
	{FN("{\"id\":1,\"addr\":\"0x1g\",\"name\":\"f\"}"), "addr is not"},
	{FN("{\"id\":1,\"addr\":\"-0x1\",\"name\":\"f\"}"), "addr is not"},
	{FN("{\"id\":1,\"addr\":\"0x1 \",\"name\":\"f\"}"), "addr is not"},
	{FN("{\"id\":1,\"addr\":\"0x1\"}"), "missing \"name\""},
	{FN("{\"id\":1,\"addr\":\"0x1\",\"name\":\"\"}"), "name is not a non-empty string"},
	{FN("{\"id\":1,\"addr\":\"0x1\",\"name\":7}"), "name is not a non-empty string"},
	{FN("{\"id\":1,\"addr\":\"0x1\",\"name\":null}"), "name is not a non-empty string"},
	{FN("{\"id\":1,\"addr\":\"0x1\",\"name\":\"a\\u0000b\"}"), "invalid JSON"},
	{FN("{\"id\":1,\"addr\":\"0x1\",\"name\":\"\xff\"}"), "invalid JSON"},
	{FN("{\"id\":1,\"addr\":\"0x1\",\"name\":\"f\",\"linkage_name\":5}"), "linkage_name"},
	{FN("{\"id\":1,\"addr\":\"0x1\",\"name\":\"f\",\"file\":[]}"), "file is not"},
	{FN("{\"id\":1,\"addr\":\"0x1\",\"name\":\"f\",\"line\":-1}"), "line is not"},
	{FN("{\"id\":1,\"addr\":\"0x1\",\"name\":\"f\",\"line\":\"3\"}"), "line is not"},
	{FN("{\"id\":1,\"addr\":\"0x1\",\"name\":\"f\",\"line\":1.5}"), "line is not"},
	{FN("{\"id\":1,\"addr\":\"0x1\",\"name\":\"f\",\"line\":2147483648}"), "line is not"},
	{FN("{\"id\":1,\"addr\":\"0x1\",\"name\":\"f\",\"line\":null}"), "line is not"},
	{FN("{\"id\":1,\"addr\":\"0x1\",\"name\":\"f\"}") "trailing", "invalid JSON"},
	/* valid */
	{HEAD "\"functions\":[]}", NULL},
	{FN("{\"id\":2,\"addr\":\"0xB\",\"name\":\"g\"},{\"id\":1,\"addr\":\"0xa\",\"name\":\"f\","
	    "\"linkage_name\":null,\"file\":null,\"line\":0,\"extra\":[1,{}]}"),
	 NULL},
	{"{\"future\":{\"a\":[1,2]},\"schema\":\"exaloop.symbols/1\",\"build_id\":\"\",\"executable\":null,"
	 "\"xray\":{},\"functions\":[{\"id\":1,\"addr\":\"0x0\",\"name\":\"f\",\"line\":3}]}",
	 NULL},
};

static void test_json_malformed(void **s)
{
	(void)s;
	char p[PATH_MAX], err[ERRLEN];
	tmp_path(p, sizeof p, "case.json");
	for (size_t i = 0; i < sizeof json_cases / sizeof json_cases[0]; i++) {
		const struct json_case *c = &json_cases[i];
		write_file(p, c->doc, strlen(c->doc));
		struct xl_symtab t;
		memset(&t, 0x5a, sizeof t);
		err[0] = '\0';
		int rc = xl_symbols_load_json(p, &t, err, sizeof err);
		if (c->needle == NULL) {
			if (rc != XL_OK)
				fail_msg("case %zu should load: %s", i, err);
			xl_symtab_release(&t);
			continue;
		}
		if (rc != XL_EFORMAT || strstr(err, c->needle) == NULL || strncmp(err, p, strlen(p)) != 0 ||
		    strchr(err, '\n') != NULL)
			fail_msg("case %zu (%s): rc %d, err '%s'; want '%s'", i, c->doc, rc, err, c->needle);
		assert_int_equal(t.count, 0);
		assert_null(t.syms);
		assert_null(t.executable);
		xl_symtab_release(&t);
	}

	/* the shuffled valid case maps ids, not positions */
	const char *doc = json_cases[sizeof json_cases / sizeof json_cases[0] - 2].doc;
	write_file(p, doc, strlen(doc));
	struct xl_symtab t;
	assert_int_equal(xl_symbols_load_json(p, &t, err, sizeof err), XL_OK);
	assert_int_equal(t.count, 2);
	assert_string_equal(xl_symtab_find(&t, 1)->name, "f");
	assert_int_equal(xl_symtab_find(&t, 1)->addr, 0xa);
	assert_string_equal(xl_symtab_find(&t, 2)->name, "g");
	assert_int_equal(xl_symtab_find(&t, 2)->addr, 0xb);
	assert_string_equal(t.build_id, "ab");
	xl_symtab_release(&t);

	/* deep nesting in an ignored member: no crash, a clean answer */
	size_t depth = 100000;
	size_t len = strlen(HEAD) + 2 * depth + 64;
	char *deep = malloc(len);
	assert_non_null(deep);
	size_t k = (size_t)snprintf(deep, len, "%s\"junk\":", HEAD);
	memset(deep + k, '[', depth);
	memset(deep + k + depth, ']', depth);
	k += 2 * depth;
	k += (size_t)snprintf(deep + k, len - k, ",\"functions\":[]}");
	write_file(p, deep, k);
	free(deep);
	int rc = xl_symbols_load_json(p, &t, err, sizeof err);
	assert_true(rc == XL_OK || (rc == XL_EFORMAT && strchr(err, '\n') == NULL));
	xl_symtab_release(&t);

	/* not a file */
	tmp_path(p, sizeof p, "missing.json");
	assert_int_equal(xl_symbols_load_json(p, &t, err, sizeof err), XL_EIO);
	assert_non_null(strstr(err, "missing.json"));
	assert_int_equal(xl_symbols_load_json(tmpdir, &t, err, sizeof err), XL_EIO);
	assert_int_equal(xl_symbols_load_json(NULL, &t, err, sizeof err), XL_EINVAL);
}

/* Every source of the runtime (src/rt) is known as the profiler's own code,
 * by base name or path; a program's file is not. */
static void test_runtime_files(void **state)
{
	(void)state;
	DIR *d = opendir(XL_TEST_PROGS_DIR "/../../../src/rt") /* tests/sym/progs */;
	assert_non_null(d);
	size_t seen = 0;
	for (struct dirent *e; (e = readdir(d)) != NULL;) {
		size_t n = strlen(e->d_name);
		if (n < 3 || (strcmp(e->d_name + n - 2, ".c") != 0 && strcmp(e->d_name + n - 2, ".S") != 0))
			continue;
		char path[PATH_MAX];
		snprintf(path, sizeof path, "/build/src/rt/%s", e->d_name);
		if (!xl_sym_runtime_file(e->d_name) || !xl_sym_runtime_file(path))
			fail_msg("src/rt/%s is not in sym_elfsyms.c's runtime_files", e->d_name);
		seen++;
	}
	closedir(d);
	assert_true(seen >= 20);
	assert_false(xl_sym_runtime_file("main.c"));
	assert_false(xl_sym_runtime_file("rt_hot.cc"));
	assert_false(xl_sym_runtime_file("my_rt_hot.c"));
	assert_false(xl_sym_runtime_file(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runtime_files),
		cmocka_unit_test(test_llvm_xray_c_O0),
		cmocka_unit_test(test_llvm_xray_c_O0_abs),
		cmocka_unit_test(test_llvm_xray_c_O3_anc),
		cmocka_unit_test(test_llvm_xray_c_O3),
		cmocka_unit_test(test_llvm_xray_c_O3_fnidx),
		cmocka_unit_test(test_llvm_xray_cxx_O0),
		cmocka_unit_test(test_llvm_xray_cxx_O3),
		cmocka_unit_test(test_llvm_xray_cxx_O3_abs),
		cmocka_unit_test(test_llvm_xray_cxx_O0_anc),
		cmocka_unit_test(test_llvm_xray_cxx_O0_lld),
		cmocka_unit_test(test_llvm_xray_cxx_O3_lld_fnidx),
		cmocka_unit_test(test_llvm_xray_rt_O0),
		cmocka_unit_test(test_llvm_xray_rt_O3_fnidx),
		cmocka_unit_test(test_runtime_O0),
		cmocka_unit_test(test_runtime_O3),
		cmocka_unit_test(test_runtime_O3_fnidx),
		cmocka_unit_test(test_runtime_O0_lld_fnidx),
		cmocka_unit_test(test_c_locations),
		cmocka_unit_test(test_cxx_names),
		cmocka_unit_test(test_no_xray),
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_v1_entries),
		cmocka_unit_test(test_fn_idx_mismatch),
		cmocka_unit_test(test_json_roundtrip),
		cmocka_unit_test(test_json_malformed),
	};
	return cmocka_run_group_tests_name("unit.symbols", tests, group_setup, group_teardown);
}
