/* XRay function-id symbolization.
 *
 * `exaloop build` reads the freshly linked executable with xl_symbols_read()
 * and writes APP.symbols.json beside it with xl_symbols_write_json(); the
 * reporting side loads that sidecar with xl_symbols_load_json() and maps the
 * XRay function ids found in a capture back to names and source locations.
 *
 * Function ids are the ids the XRay runtime (compiler-rt 14) hands to its
 * handlers: the sleds of the `xray_instr_map` section are walked in section
 * order and a new id (1, 2, ...) starts whenever a sled's function address
 * differs from the previous sled's.  This is what __xray_patch() writes into
 * the sleds and what `llvm-xray extract` prints.
 *
 * Addresses are file-relative virtual addresses (the st_value space of the
 * ELF symbol table); for a PIE add the load bias to get a run-time address.
 *
 * Sidecar format (schema "exaloop.symbols/1"; fields are only added within a
 * version, a removal or change of meaning bumps it):
 *
 *   {"schema": "exaloop.symbols/1",
 *    "build_id": "3f1c...",          lowercase hex of NT_GNU_BUILD_ID, "" if none
 *    "executable": "/abs/app",       string or null
 *    "xray": {"sleds": 24, "sled_version": 2, "fn_idx": 0},   optional, informational
 *    "functions": [
 *     {"id": 1, "addr": "0x1d40", "name": "ns::Klass::method(int)",
 *      "linkage_name": "_ZN2ns5Klass6methodEi", "file": "/src/k.cpp", "line": 12},
 *     ...]}
 *
 * Rules enforced by the loader: `schema`, `build_id`, `functions` are
 * required; every function has `id` (integer), `addr` (string "0x" + 1..16 hex
 * digits) and `name` (non-empty string); `linkage_name` and `file` are a string
 * or null/absent; `line` is an integer 0..INT_MAX (absent means 0).  The ids of
 * N functions are exactly 1..N, each once, in any order.  Unknown members are
 * ignored.  Strings are UTF-8; the writer replaces bytes that are not valid
 * UTF-8 (possible in ELF symbol names) with '?'.
 *
 * All functions return 0 (XL_OK) on success or a negative code of
 * xl_errors.h (XL_EIO: cannot open/read/write a file; XL_EFORMAT: not an
 * ELF executable, a malformed section, bad JSON; XL_ENOMEM; XL_EINVAL: a
 * bad argument), and then leave a one-line message in err (if err != NULL).
 * They never print and never exit.  Not async-signal-safe; thread-safe as
 * long as different threads use different xl_symtab objects.
 */
#ifndef EXALOOP_SYMBOLS_SYMBOLS_H
#define EXALOOP_SYMBOLS_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#include "xl_errors.h"

#ifdef __cplusplus
extern "C" {
#endif

#define XL_SYMBOLS_SCHEMA "exaloop.symbols/1"

/* Longest build id kept (bytes); a longer note is treated as absent. */
#define XL_BUILD_ID_MAX_BYTES 64
#define XL_BUILD_ID_HEX_SIZE (2 * XL_BUILD_ID_MAX_BYTES + 1)

struct xl_symbol {
	int32_t id;         /* XRay function id: 1..count */
	uint64_t addr;      /* function entry, file-relative virtual address */
	char *name;         /* display name, demangled for C++; never NULL
	                      * ("0x<addr>" when no symbol or DWARF name exists) */
	char *linkage_name; /* name as linked (mangled for C++); NULL if unknown */
	char *file;         /* declaring source file (absolute when the compiler
	                      * recorded a comp_dir); NULL without debug info */
	int line;           /* declaration line; 0 if unknown */
};

struct xl_symtab {
	struct xl_symbol *syms; /* syms[i].id == i + 1; NULL when count == 0 */
	size_t count;
	char build_id[XL_BUILD_ID_HEX_SIZE]; /* lowercase hex, "" if none */
	char *executable;                    /* path of the executable (realpath when
	                           * known), or NULL */

	/* Informational (sidecar "xray" member). */
	uint64_t sleds;   /* entries of xray_instr_map */
	int sled_version; /* highest sled version seen; 0 if no sleds */
	uint64_t fn_idx;  /* entries of xray_fn_idx; 0 when absent */

	/* Non-fatal findings of xl_symbols_read(), "" if none: e.g. no DWARF, or
	 * an xray_fn_idx that disagrees with the sled walk (the runtime then
	 * reports __xray_max_function_id()/__xray_function_address() from the
	 * index while handlers still see walk ids). */
	char warning[256];
};

/* Read an ELF executable (ET_EXEC or ET_DYN).  With no xray_instr_map the
 * result has count == 0 (memory-only build) but still the build id.
 * Missing DWARF leaves file == NULL, line == 0 and says so in warning.
 * On failure *out is left empty (safe to release). */
int xl_symbols_read(const char *exe_path, struct xl_symtab *out, char *err, size_t errlen);

/* Write the sidecar atomically (temporary file + rename). */
int xl_symbols_write_json(const struct xl_symtab *tab, const char *path, char *err, size_t errlen);

/* Load and validate a sidecar.  On failure *out is left empty. */
int xl_symbols_load_json(const char *path, struct xl_symtab *out, char *err, size_t errlen);

/* The function with that id, or NULL.  O(1). */
const struct xl_symbol *xl_symtab_find(const struct xl_symtab *tab, int32_t id);

/* Free everything *tab owns and reset it to empty.  NULL is fine. */
void xl_symtab_release(struct xl_symtab *tab);

/* The GNU build id of an ELF file as lowercase hex into hex[len]
 * (len >= 2 * bytes + 1; XL_BUILD_ID_HEX_SIZE always suffices).
 * Returns the number of id bytes (> 0), 0 when the file has no build id
 * (hex = ""), or a negative XL_E* code (hex = "" when len > 0). */
int xl_build_id(const char *exe_path, char *hex, size_t len);

/*
 * Sampled addresses (capture format 6, the instruction samples): after a
 * run the CLI resolves every distinct sampled address with the
 * executable's ELF symbols and DWARF (libdw) and the libraries' symbol
 * tables, and writes the result into the capture directory as
 * samples.json, so that a later report needs neither the executable nor
 * the libraries (schema "exaloop.samples/1"; fields are only added within
 * a version):
 *
 *   {"schema": "exaloop.samples/1", "build_id": "3f1c...",
 *    "ips": [                     the interrupted instructions
 *     {"addr": "0x55d0c8a01234",  run-time address, as sampled
 *      "func": 3,                 XRay id of the traced function it is in (0: none)
 *      "symbol": "two_loops",     the function's name (demangled), or absent
 *      "runtime": true,           in the executable: a local function of exaloop's
 *                                 runtime (its hot path, its helpers); absent otherwise
 *      "library": "libc.so.6",    the library's soname; absent in the executable
 *      "file": "/src/app.c", "line": 31,   the line in the function's own code:
 *                                 for code inlined into it, the call site's line
 *      "inline": ["step_n"]},     the functions inlined at the address, outermost first
 *     ...],
 *    "returns": [                 return addresses of the call chains
 *     {"addr": "0x...", "func": 1,  the traced function the call is in (0: none)
 *      "calls": 3,                XRay id of the direct call's target (0: none known)
 *      "symbol": "main", "library": ...}, ...],
 *    "sources": [                 text of the sampled lines, a few lines around each
 *     {"file": "/src/app.c", "first": 28, "lines": ["...", ...]}, ...]}
 *
 * Rules enforced by the loader: schema, ips and returns are required;
 * every entry has addr; func, calls and line are integers 0..INT32_MAX;
 * runtime, when present, is a boolean;
 * inline is an array of at most XL_INLINE_MAX strings; first >= 1.
 */
#define XL_SAMPLES_SCHEMA "exaloop.samples/1"
#define XL_SAMPLES_FILE "samples.json"
#define XL_INLINE_MAX 64
#define XL_SOURCE_CONTEXT 3       /* lines kept before and after a sampled line */
#define XL_SOURCE_MAX_LINES 20000 /* source lines embedded at most */
#define XL_SOURCE_LINE_MAX 400    /* bytes kept of one source line */

/* An executable mapping of the profiled process (xl_map in the capture). */
struct xl_addr_map {
	uint64_t start, end, offset;
	const char *path;
};

struct xl_resolve_req {
	const char *exe;   /* the executable that ran */
	uint64_t exe_base; /* its load bias (0 for a fixed-address one) */
	const struct xl_addr_map *maps;
	size_t nmaps;
	const uint64_t *ips; /* distinct interrupted instructions */
	size_t nips;
	const uint64_t *rets; /* distinct return addresses */
	size_t nrets;
	const struct xl_symtab *tab; /* the executable's functions (XRay ids) */
	int source;                  /* embed the sampled lines' source text */
};

/* Resolve and write samples.json at path (atomically). */
int xl_samples_resolve(const struct xl_resolve_req *r, const char *path, char *err, size_t errlen);

struct xl_addr {
	uint64_t addr;
	int32_t func;  /* XRay id, 0: none */
	int32_t calls; /* returns: the direct call's target, 0: none known */
	char *symbol;  /* NULL: unknown */
	char *library; /* NULL: the executable */
	int runtime;   /* the executable's copy of exaloop's runtime (samples.json "runtime") */
	char *file;    /* ips: NULL unknown */
	int line;      /* ips: 0 unknown */
	char **inl;    /* ips: inline chain, outermost first */
	size_t ninl;
};

struct xl_src_range {
	char *file;
	int first; /* line number of lines[0] */
	char **lines;
	size_t nlines;
};

struct xl_resolved {
	struct xl_addr *ips, *rets; /* each sorted by addr */
	size_t nips, nrets;
	struct xl_src_range *src;
	size_t nsrc;
	char build_id[XL_BUILD_ID_HEX_SIZE];
};

/* Load and validate samples.json.  On failure *out is left empty. */
int xl_samples_load_json(const char *path, struct xl_resolved *out, char *err, size_t errlen);
/* The entry of addr in a sorted list, or NULL. */
const struct xl_addr *xl_addr_find(const struct xl_addr *v, size_t n, uint64_t addr);
void xl_resolved_release(struct xl_resolved *r);

/* The link-time address of the function symbol `name` of an ELF file
 * (.symtab, else .dynsym) into *addr, and whether the file is position
 * independent (ET_DYN: add its load base).  XL_OK, XL_ENOENT when there is
 * no such function, or another XL_E* code. */
int xl_elf_function(const char *path, const char *name, uint64_t *addr, int *pie);

/* Parse the JSON document of fd (read to its end), telling running
 * out of memory apart from a malformed document, which jansson does not:
 * it reports a failed allocation as a syntax error, or not at all (a string
 * it could not grow comes back short).  *oom is 1 when an allocation failed
 * during the parse; the result is then NULL.  Every jansson allocation of
 * the process goes through malloc from the first call on. */
struct json_t;
struct json_error_t;
struct json_t *xl_json_loadfd(int fd, size_t flags, struct json_error_t *jerr, int *oom);

#ifdef __cplusplus
}
#endif

/* Whether a source file's name (an ELF STT_FILE symbol, or a path: its
 * base name counts) is one of exaloop's runtime sources (src/rt), whose
 * local functions in a profiled executable are the profiler's own code
 * whatever they are called (sym_elfsyms.c). */
int xl_sym_runtime_file(const char *name);

#endif
