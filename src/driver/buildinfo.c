/*
 * buildinfo.c - OUT.profile.json and OUT.symbols.json (see buildinfo.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "analyze.h"
#include "fileio.h"
#include "buildinfo.h"
#include "symbols.h"
#include "xl_errors.h"

static json_t *strv(const char *const *v, int absolute)
{
	json_t *a = json_array();
	for (size_t i = 0; v && v[i]; i++) {
		char abs[PATH_MAX];
		const char *s = absolute && realpath(v[i], abs) ? abs : v[i];
		json_array_append_new(a, json_string(s));
	}
	return a;
}

static int write_profile_json(const char *path, const struct xl_sidecar *sc, const char *build_id, char *err,
			      size_t errlen)
{
	json_t *o = json_object();
	json_object_set_new(o, "schema", json_string("exaloop.build/1"));
	json_object_set_new(o, "mode", json_string(xl_mode_name(sc->mode)));
	json_object_set_new(o, "build_id", json_string(build_id));
	json_object_set_new(o, "release", sc->release < 0 ? json_null() : json_boolean(sc->release));
	json_object_set_new(o, "built_by", json_string(sc->built_by));
	json_object_set_new(o, "compiler", json_string(sc->compiler));
	json_object_set_new(o, "compiler_version", json_string(sc->compiler_version));
	json_object_set_new(o, "sdk", json_string(sc->sdk_dir));
	json_object_set_new(o, "sdk_version", json_string(XL_VERSION));
	json_object_set_new(o, "sources", strv(sc->sources, 1));
	json_object_set_new(o, "flags", strv(sc->flags, 0));
	json_object_set_new(o, "command", json_string(sc->command));
	json_object_set_new(o, "build_time_ns", json_integer(sc->build_ns));
	json_object_set_new(o, "xray_instruction_threshold", json_integer(sc->xray_threshold));
	json_object_set_new(o, "untraced_libraries", strv(sc->untraced_libs, 1));
	time_t t = time(NULL);
	struct tm tm;
	char when[32];
	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_set_new(o, "built_at", json_string(when));
	int rc = json_dump_file(o, path, JSON_INDENT(2));
	json_decref(o);
	if (rc != 0)
		snprintf(err, errlen, "cannot write '%s': %m", path);
	return rc != 0 ? XL_EIO : XL_OK;
}

int xl_sidecars_write(const char *exe, const struct xl_sidecar *sc, char *err, size_t errlen)
{
	struct xl_symtab tab = {0};
	char path[PATH_MAX + 32], why[512];
	int rc = XL_OK;
	if (xl_symbols_read(exe, &tab, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "cannot read the symbols of '%s': %s", exe, why);
		rc = XL_EBUILD;
	} else {
		snprintf(path, sizeof(path), "%s.symbols.json", exe);
		if (xl_symbols_write_json(&tab, path, err, errlen) != 0)
			rc = XL_EIO;
		snprintf(path, sizeof(path), "%s.profile.json", exe);
		if (rc == XL_OK)
			rc = write_profile_json(path, sc, tab.build_id, err, errlen);
	}
	xl_symtab_release(&tab);
	return rc;
}

/* The strings of a JSON array, NULL-terminated; NULL when there are none. */
/* The strings of array a (NULL when it has none); *oom set, and NULL,
 * when one could not be copied: a list with names missing would say
 * fewer libraries went untraced than did. */
static char **string_list(const json_t *a, int *oom)
{
	size_t n = json_is_array(a) ? json_array_size(a) : 0;
	char **out = n ? calloc(n + 1, sizeof(char *)) : NULL;
	size_t k = 0;
	*oom = n && !out;
	for (size_t i = 0; out && i < n; i++) {
		const char *s = json_string_value(json_array_get(a, i));
		if (s && !(out[k++] = strdup(s))) {
			*oom = 1;
			while (k > 0)
				free(out[--k]);
			free(out);
			return NULL;
		}
	}
	if (out && !k) {
		free(out);
		out = NULL;
	}
	return out;
}

int xl_sidecar_read(const char *exe, struct xl_sidecar_info *info, char *err, size_t errlen)
{
	memset(info, 0, sizeof(*info));
	char path[PATH_MAX + 32];
	snprintf(path, sizeof(path), "%s.profile.json", exe);
	json_error_t jerr;
	int fd = xl_open_regular(path);
	if (fd < 0) {
		int e = errno;
		if (e == ENOENT)
			snprintf(err, errlen,
				 "'%s' is missing: the executable was not built with 'exaloop --profile ... build', "
				 "or its sidecar files were not kept with it",
				 path);
		else
			snprintf(err, errlen, "'%s' is not a valid build sidecar: %s", path,
				 e == EINVAL ? "not a regular file" : strerror(e));
		return e == ENOENT ? XL_ENOENT : XL_EFORMAT;
	}
	int oom;
	json_t *o = xl_json_loadfd(fd, 0, &jerr, &oom);
	close(fd);
	if (oom) {
		snprintf(err, errlen, "out of memory reading '%s'", path);
		return XL_ENOMEM;
	}
	if (!json_is_object(o)) {
		snprintf(err, errlen, "'%s' is not a valid build sidecar: %s (line %d)", path, jerr.text, jerr.line);
		json_decref(o);
		return XL_EFORMAT;
	}
	const char *mode = json_string_value(json_object_get(o, "mode"));
	const char *id = json_string_value(json_object_get(o, "build_id"));
	int rc = XL_EFORMAT;
	if (xl_mode_parse(mode, &info->mode) != 0)
		snprintf(err, errlen, "'%s' is not a valid build sidecar: missing or unknown 'mode'", path);
	else if (!id)
		snprintf(err, errlen, "'%s' is not a valid build sidecar: missing 'build_id'", path);
	else {
		snprintf(info->build_id, sizeof(info->build_id), "%s", id);
		info->untraced_libs = string_list(json_object_get(o, "untraced_libraries"), &oom);
		rc = oom ? XL_ENOMEM : XL_OK;
		if (oom) {
			snprintf(err, errlen, "out of memory reading '%s'", path);
			memset(info, 0, sizeof(*info));
		}
	}
	json_decref(o);
	return rc;
}

void xl_sidecar_info_release(struct xl_sidecar_info *info)
{
	for (size_t i = 0; info->untraced_libs && info->untraced_libs[i]; i++)
		free(info->untraced_libs[i]);
	free(info->untraced_libs);
	info->untraced_libs = NULL;
}
