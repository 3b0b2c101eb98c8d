/*
 * objcache.c - parallel compiles into a reusable cache of objects (see
 * objcache.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "objcache.h"
#include "process.h"
#include "strvec.h"
#include "xl_assert.h"

struct hash {
	uint64_t a, b;
};

static void hash_init(struct hash *h)
{
	h->a = 0xcbf29ce484222325ull; /* FNV-1a offset basis */
	h->b = 0x84222325cbf29ce4ull;
}

static void hash_bytes(struct hash *h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++) {
		h->a = (h->a ^ p[i]) * 0x100000001b3ull;      /* FNV-1a 64 */
		h->b = (h->b ^ p[i]) * 0x9e3779b97f4a7c15ull; /* a second, independent mix */
		h->b ^= h->b >> 29;
	}
}

static void hash_str(struct hash *h, const char *s)
{
	hash_bytes(h, s, strlen(s) + 1); /* with the NUL: "ab","c" differs from "a","bc" */
}

/* Hash a file's content (and its length).  Returns 0, or -1 when it
 * cannot be read. */
static int hash_file(struct hash *h, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	char buf[65536];
	ssize_t got;
	uint64_t total = 0;
	while ((got = read(fd, buf, sizeof(buf))) > 0) {
		hash_bytes(h, buf, (size_t)got);
		total += (uint64_t)got;
	}
	close(fd);
	hash_bytes(h, &total, sizeof(total));
	return got < 0 ? -1 : 0;
}

/* The content hashes of one build's files, by path.  The sources of a
 * build share their headers: without this every job hashed them again,
 * once to check its entry and once to record a fresh one (40 C++ sources
 * including <iostream> and a few containers: 116 MB hashed for 2.9 MB of
 * distinct files, most of a fully cached build's time).  An entry is used
 * only while the file's inode, size and modification time are as they
 * were when it was hashed, so a file edited during the build (a source
 * edited while it compiles) is hashed again. */
struct memo_entry {
	char *path; /* NULL: free slot */
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	struct hash h; /* of the content alone (hash_file from hash_init) */
};

struct memo {
	struct memo_entry *e;
	size_t cap, used; /* cap: 0 or a power of two */
};

static size_t memo_slot(const struct memo *m, const char *path)
{
	/* the mask and the probe's end rely on both */
	XL_ASSERT(m->cap && !(m->cap & (m->cap - 1)) && m->used < m->cap);
	uint64_t k = 0xcbf29ce484222325ull;
	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		k = (k ^ *p) * 0x100000001b3ull;
	size_t i = (size_t)k & (m->cap - 1);
	while (m->e[i].path && strcmp(m->e[i].path, path) != 0)
		i = (i + 1) & (m->cap - 1);
	return i;
}

/* Room for one more entry (load at most one half).  -1 when out of memory. */
static int memo_reserve(struct memo *m)
{
	if (2 * (m->used + 1) <= m->cap)
		return 0;
	struct memo old = *m;
	m->cap = old.cap ? 2 * old.cap : 256;
	m->e = calloc(m->cap, sizeof(*m->e));
	if (!m->e) {
		*m = old;
		return -1;
	}
	for (size_t i = 0; i < old.cap; i++)
		if (old.e[i].path)
			m->e[memo_slot(m, old.e[i].path)] = old.e[i];
	free(old.e);
	return 0;
}

static void memo_free(struct memo *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->e[i].path);
	free(m->e);
	memset(m, 0, sizeof(*m));
}

/* The content hash of a file (hash_file from hash_init) through the memo:
 * read at most once a build while the file is unchanged.  0, or -1 when
 * it cannot be read. */
static int file_hash(struct memo *m, const char *path, struct hash *out)
{
	struct stat st;
	hash_init(out);
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || memo_reserve(m) != 0)
		return hash_file(out, path);
	struct memo_entry *e = &m->e[memo_slot(m, path)];
	if (e->path && e->dev == st.st_dev && e->ino == st.st_ino && e->size == st.st_size &&
	    e->mtime.tv_sec == st.st_mtim.tv_sec && e->mtime.tv_nsec == st.st_mtim.tv_nsec) {
		*out = e->h;
		return 0;
	}
	if (hash_file(out, path) != 0)
		return -1;
	if (!e->path) {
		if (!(e->path = strdup(path)))
			return 0;
		m->used++;
	}
	e->dev = st.st_dev;
	e->ino = st.st_ino;
	e->size = st.st_size;
	e->mtime = st.st_mtim;
	e->h = *out;
	return 0;
}

static void hash_hex(const struct hash *h, char out[33])
{
	snprintf(out, 33, "%016" PRIx64 "%016" PRIx64, h->a, h->b);
}

int xl_ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

int xl_objcache_open(struct xl_objcache *c, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	const char *dir = getenv("EXALOOP_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n = -1;
	if (dir && *dir)
		n = snprintf(c->dir, sizeof(c->dir), "%s", dir);
	else if (xdg && *xdg)
		n = snprintf(c->dir, sizeof(c->dir), "%s/exaloop/objects", xdg);
	else if (home && *home)
		n = snprintf(c->dir, sizeof(c->dir), "%s/.cache/exaloop/objects", home);
	if (n > 0 && (size_t)n < sizeof(c->dir) && xl_mkdirs(c->dir, 0700) == 0 && access(c->dir, W_OK) == 0)
		return 0;
	/* No usable cache: objects live in a private directory for this build. */
	if (xl_make_temp_dir("objects", c->dir, sizeof(c->dir)) != 0) {
		snprintf(err, errlen, "cannot create a directory for object files: %s", strerror(errno));
		return -1;
	}
	c->temporary = 1;
	return 0;
}

void xl_objcache_close(struct xl_objcache *c)
{
	if (!c->temporary)
		return;
	/* The temporary directory holds only this build's entries. */
	DIR *d = opendir(c->dir);
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
	rmdir(c->dir);
}

/* Paths of a make-style dependency file ("obj: a.c b.h \\\n c.h"),
 * with backslash-escaped spaces, calling fn for each.  Returns 0, or -1
 * when the file cannot be read or fn fails. */
static int each_dep(const char *path, int (*fn)(const char *dep, void *arg), void *arg)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	char word[PATH_MAX];
	size_t len = 0;
	int c, rc = 0, target_done = 0;
	while (rc == 0 && (c = fgetc(f)) != EOF) {
		if (c == '\\') {
			int d = fgetc(f);
			if (d == '\n' || d == EOF)
				c = ' '; /* continuation */
			else if (d == ' ' || d == '\\' || d == '#')
				c = d;
			else {
				ungetc(d, f);
			}
			if (c != ' ' && len + 1 < sizeof(word)) {
				word[len++] = (char)c;
				continue;
			}
		}
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			if (!len)
				continue;
			word[len] = 0;
			len = 0;
			if (!target_done) {
				target_done = word[strlen(word) - 1] == ':';
				continue;
			}
			if (strcmp(word, ":") != 0)
				rc = fn(word, arg);
			continue;
		}
		if (len + 1 < sizeof(word))
			word[len++] = (char)c;
	}
	if (rc == 0 && len && target_done) {
		word[len] = 0;
		rc = fn(word, arg);
	}
	fclose(f);
	return rc;
}

/* The include-path variables: the compiler searches their directories as
 * it searches -I and -isystem ones, so they decide which file an #include
 * finds just as the flags do (part of the key, and their directories are
 * watched like the flags' ones). */
static const char *const include_env[] = {"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "OBJC_INCLUDE_PATH", NULL};

/* Options naming a directory an #include searches (attached or separate). */
static const char *const include_opts[] = {"-I", "-iquote", "-isystem", "-idirafter", NULL};

/* The directory part of a path ("." for a bare name). */
static void push_dirname(struct strvec *dirs, const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		strvec_push(dirs, ".");
	else
		strvec_pushf(dirs, "%.*s", slash == path ? 1 : (int)(slash - path), path);
}

/* A variable's directory list as the compiler reads it: ':'-separated, an
 * empty element is the working directory, an empty value none. */
static void push_path_list(struct strvec *dirs, const char *list)
{
	if (!list || !*list)
		return;
	for (const char *p = list;; p++) {
		const char *end = strchrnul(p, ':');
		if (end == p)
			strvec_push(dirs, ".");
		else
			strvec_pushf(dirs, "%.*s", (int)(end - p), p);
		if (!*end)
			break;
		p = end;
	}
}

/* The directories an #include of this job searches before the system's
 * own: the include options', the include variables', the source's (for
 * "x.h").  Relative ones are relative to the working directory, which is
 * part of the key. */
static void search_dirs(const struct xl_compile_job *j, struct strvec *dirs)
{
	for (size_t i = 0; j->argv[i]; i++)
		for (size_t o = 0; include_opts[o]; o++) {
			size_t len = strlen(include_opts[o]);
			if (strncmp(j->argv[i], include_opts[o], len) != 0)
				continue;
			if (j->argv[i][len])
				strvec_push(dirs, j->argv[i] + len);
			else if (j->argv[i + 1])
				strvec_push(dirs, j->argv[++i]);
			break;
		}
	for (size_t e = 0; include_env[e]; e++)
		push_path_list(dirs, getenv(include_env[e]));
	push_dirname(dirs, j->source);
}

/* Every component of the paths of the files read ("usr", "include",
 * "stdio.h"), sorted: the only names whose appearance in a searched
 * directory can change what an #include finds.  A file found as "x/y.h"
 * under some directory has "x" and "y.h" among them, so a new x/y.h
 * elsewhere first shows as a new name x or y.h in a searched directory. */
static void path_names(const struct strvec *files, struct strvec *names)
{
	for (size_t i = 0; i < files->n; i++)
		for (const char *p = files->v[i]; *p;) {
			size_t len = strcspn(p, "/");
			if (len && !(len == 1 && p[0] == '.') && !(len == 2 && p[0] == '.' && p[1] == '.'))
				strvec_pushf(names, "%.*s", (int)len, p);
			p += len + (p[len] == '/');
		}
	strvec_sort(names);
}

/* A searched directory's modification time, "SEC.NSEC", or "none" when it
 * is not a directory (an #include skips it; its appearing is a change). */
static void dir_mtime(const char *dir, char out[48])
{
	struct stat st;
	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
		snprintf(out, 48, "%lld.%09ld", (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
	else
		snprintf(out, 48, "none");
}

/* The hash of the entries of dir named in names (sorted; path_names): what
 * an #include can find there.  Other entries do not count, so an
 * executable linked into the source's directory, an editor's backup file
 * or a new object beside the sources (each changes the directory's
 * mtime) keep the entry.  0, or -1 when the directory cannot be read. */
static int dir_names_hash(const char *dir, const struct strvec *names, char hex[33])
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	struct strvec found;
	strvec_init(&found);
	const struct dirent *e;
	while ((e = readdir(d))) {
		const char *name = e->d_name;
		if (strvec_has(names, name))
			strvec_pushf(&found, "%s%s", name, e->d_type == DT_DIR ? "/" : "");
	}
	closedir(d);
	strvec_sort(&found); /* readdir's order is the directory's, not the names' */
	struct hash h;
	hash_init(&h);
	for (size_t i = 0; i < found.n; i++)
		hash_str(&h, found.v[i]);
	hash_hex(&h, hex);
	int rc = found.oom ? -1 : 0;
	strvec_release(&found);
	return rc;
}

/* The "dir MTIME NAMES PATH" lines of the .deps file: every directory
 * an #include may have searched before finding a file (search_dirs, and
 * the directory of each file read: "x.h" is looked up beside the file
 * including it).  A lookup in one of them may find a different file only
 * after it changed: a header added to -Ia when w.h came from -Ib, a
 * CPATH directory, the source's own.  NAMES: dir_names_hash, "-" when the
 * directory is missing or unreadable.  Not watched: the compiler's
 * system directories (part of its version, in the key) and a file added
 * in an existing subdirectory of a searched directory (x/y.h when x/
 * already was there). */
static int write_dir_lines(FILE *f, const struct xl_compile_job *j, const struct strvec *files)
{
	struct strvec dirs, names;
	strvec_init(&dirs);
	strvec_init(&names);
	search_dirs(j, &dirs);
	for (size_t i = 0; i < files->n; i++)
		push_dirname(&dirs, files->v[i]);
	strvec_sort(&dirs);
	path_names(files, &names);
	int rc = dirs.oom || names.oom ? -1 : 0;
	for (size_t i = 0; rc == 0 && i < dirs.n; i++) {
		char mtime[48], list[33] = "-";
		if (i && strcmp(dirs.v[i], dirs.v[i - 1]) == 0)
			continue;
		dir_mtime(dirs.v[i], mtime);
		if (strcmp(mtime, "none") != 0 && dir_names_hash(dirs.v[i], &names, list) != 0)
			snprintf(list, sizeof(list), "-"); /* only its mtime can tell then */
		if (fprintf(f, "dir %s %s %s\n", mtime, list, dirs.v[i]) < 0)
			rc = -1;
	}
	strvec_release(&dirs);
	strvec_release(&names);
	return rc;
}

struct dep_list {
	FILE *f;
	struct memo *memo;
	struct strvec files; /* the paths written, for write_dir_lines */
};

static int write_dep_line(const char *dep, void *arg)
{
	struct dep_list *l = arg;
	struct hash h;
	char hex[33];
	if (file_hash(l->memo, dep, &h) != 0)
		return -1;
	hash_hex(&h, hex);
	strvec_push(&l->files, dep);
	return fprintf(l->f, "%s %s\n", hex, dep) < 0 ? -1 : 0;
}

/* Is a "HASH PATH" line's file unchanged? */
static int file_current(struct memo *m, const char *line)
{
	struct hash h;
	char hex[33];
	if (strlen(line) < 34 || line[32] != ' ' || file_hash(m, line + 33, &h) != 0)
		return 0;
	hash_hex(&h, hex);
	return memcmp(hex, line, 32) == 0;
}

/* Split a dir line's "MTIME NAMES PATH": the path, or NULL when malformed. */
static const char *dir_fields(const char *s, char mtime[48], char names[33])
{
	const char *a = strchr(s, ' '), *b = a ? strchr(a + 1, ' ') : NULL;
	if (!b || a - s >= 48 || b - a - 1 >= 33 || !b[1])
		return NULL;
	snprintf(mtime, 48, "%.*s", (int)(a - s), s);
	snprintf(names, 33, "%.*s", (int)(b - a - 1), a + 1);
	return b + 1;
}

/* Are the searched directories (write_dir_lines) as they were?  The same
 * mtime says so at the cost of a stat; another one (the build's
 * executable was linked there) asks dir_names_hash whether a name an
 * #include can find appeared or went.  files: the paths of the file
 * lines, for the names. */
static int dirs_current(const struct strvec *dirs, const struct strvec *files)
{
	struct strvec names;
	strvec_init(&names);
	int ok = 1, have_names = 0;
	for (size_t i = 0; ok && i < dirs->n; i++) {
		char mtime[48], was_mtime[48], was_names[33], now_names[33];
		const char *path = dir_fields(dirs->v[i], was_mtime, was_names);
		if (!path) {
			ok = 0;
			break;
		}
		dir_mtime(path, mtime);
		if (strcmp(mtime, was_mtime) == 0)
			continue;
		if (!strcmp(mtime, "none") || !strcmp(was_mtime, "none") || !strcmp(was_names, "-")) {
			ok = 0; /* appeared, went, or unreadable and changed */
			break;
		}
		if (!have_names++)
			path_names(files, &names);
		ok = !names.oom && dir_names_hash(path, &names, now_names) == 0 && !strcmp(now_names, was_names);
	}
	strvec_release(&names);
	return ok;
}

/* Is the entry's recorded input set unchanged?  The .deps file has a
 * "HASH PATH" line for each file the compiler read, then the "dir" lines
 * of write_dir_lines. */
static int deps_current(struct memo *m, const char *deps)
{
	FILE *f = fopen(deps, "re");
	if (!f)
		return 0;
	struct strvec files, dirs;
	strvec_init(&files);
	strvec_init(&dirs);
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int ok = 1;
	while (ok && (n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] == '\n')
			line[n - 1] = 0;
		if (strncmp(line, "dir ", 4) == 0)
			strvec_push(&dirs, line + 4);
		else if ((ok = file_current(m, line)))
			strvec_push(&files, line + 33);
	}
	free(line);
	fclose(f);
	ok = ok && files.n > 0 && !files.oom && !dirs.oom && dirs_current(&dirs, &files);
	strvec_release(&files);
	strvec_release(&dirs);
	return ok;
}

static int key_of(struct memo *m, const struct xl_compile_job *j, const char *version, char key[33])
{
	struct hash h, content;
	char real[PATH_MAX], cwd[PATH_MAX];
	hash_init(&h);
	/* 2: contents enter as their hashes; 3: the include variables, and
	 * .deps has dir lines (an old entry is never found, so never misread) */
	hash_str(&h, "exaloop objcache 3");
	hash_str(&h, version ? version : "");
	for (size_t i = 0; j->argv[i]; i++)
		hash_str(&h, j->argv[i]);
	for (size_t i = 0; include_env[i]; i++) {
		const char *v = getenv(include_env[i]);
		hash_str(&h, include_env[i]);
		hash_str(&h, v ? v : "");
	}
	hash_str(&h, realpath(j->source, real) ? real : j->source);
	hash_str(&h, getcwd(cwd, sizeof(cwd)) ? cwd : "");
	if (file_hash(m, j->source, &content) != 0)
		return -1;
	hash_bytes(&h, &content, sizeof(content));
	if (j->key_file) {
		if (file_hash(m, j->key_file, &content) != 0)
			return -1;
		hash_bytes(&h, &content, sizeof(content));
	}
	hash_hex(&h, key);
	return 0;
}

/* One build's compiles, run by the process pool (process.h). */
struct compile_run {
	struct xl_objcache *c;
	struct xl_compile_job *jobs;
	size_t n, next;
	const char *version;
	struct memo memo;
	unsigned serial;
	int oom;
};

/* One compile in flight. */
struct compile {
	struct xl_compile_job *job;
	char key[33];
	char tmp_obj[PATH_MAX], tmp_dep[PATH_MAX];
	struct strvec argv;
};

/* In the compiler's process before exec: its stderr into the job's log. */
static void stderr_to_log(void *arg)
{
	const struct xl_compile_job *j = arg;
	int fd = open(j->stderr_log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0) {
		dup2(fd, 2);
		close(fd);
	}
}

/* A finished compile: move its object and dependency list into place. */
static int finish(struct compile_run *r, struct compile *k)
{
	char obj[PATH_MAX], deps[PATH_MAX], tmp_deps[PATH_MAX + 8];
	snprintf(obj, sizeof(obj), "%s/%s.o", r->c->dir, k->key);
	snprintf(deps, sizeof(deps), "%s/%s.deps", r->c->dir, k->key);
	snprintf(tmp_deps, sizeof(tmp_deps), "%s.list", k->tmp_dep);
	struct dep_list l = {fopen(tmp_deps, "we"), &r->memo, {0}};
	strvec_init(&l.files);
	int rc = l.f ? each_dep(k->tmp_dep, write_dep_line, &l) : -1;
	if (rc == 0)
		rc = l.files.oom ? -1 : write_dir_lines(l.f, k->job, &l.files);
	strvec_release(&l.files);
	if (l.f && fclose(l.f) != 0)
		rc = -1;
	unlink(k->tmp_dep);
	/* The object goes into place in any case; without its dependency
	 * list (a header vanished meanwhile) the next build recompiles it. */
	if (rename(k->tmp_obj, obj) != 0) {
		unlink(tmp_deps);
		return -1;
	}
	snprintf(k->job->object, sizeof(k->job->object), "%s", obj);
	if (rc != 0 || rename(tmp_deps, deps) != 0) {
		unlink(tmp_deps);
		unlink(deps);
	}
	return 0;
}

/* The pool's next(): the next job whose object is not in the cache. */
static int next_compile(void *arg, struct xl_process *p, void **task)
{
	struct compile_run *r = arg;
	while (r->next < r->n && !r->oom) {
		struct xl_compile_job *j = &r->jobs[r->next++];
		char key[33];
		j->reused = 0;
		if (key_of(&r->memo, j, r->version, key) == 0) {
			char obj[PATH_MAX], deps[PATH_MAX];
			snprintf(obj, sizeof(obj), "%s/%s.o", r->c->dir, key);
			snprintf(deps, sizeof(deps), "%s/%s.deps", r->c->dir, key);
			if (access(obj, R_OK) == 0 && deps_current(&r->memo, deps)) {
				snprintf(j->object, sizeof(j->object), "%s", obj);
				j->reused = 1;
				continue;
			}
		}
		/* (an unreadable source is compiled anyway: clang says why) */
		struct compile *k = calloc(1, sizeof(*k));
		if (!k) {
			r->oom = 1;
			break;
		}
		k->job = j;
		memcpy(k->key, key, sizeof(key));
		unsigned id = r->serial++;
		snprintf(k->tmp_obj, sizeof(k->tmp_obj), "%s/%s.%d.%u.o.tmp", r->c->dir, key, (int)getpid(), id);
		snprintf(k->tmp_dep, sizeof(k->tmp_dep), "%s/%s.%d.%u.d.tmp", r->c->dir, key, (int)getpid(), id);
		strvec_init(&k->argv);
		strvec_pushv(&k->argv, j->argv);
		const char *const rest[] = {"-c", j->source, "-o", k->tmp_obj, "-MD", "-MF", k->tmp_dep, NULL};
		strvec_pushv(&k->argv, rest);
		if (k->argv.oom) {
			strvec_release(&k->argv);
			free(k);
			r->oom = 1;
			break;
		}
		p->argv = k->argv.v;
		if (j->stderr_log) {
			p->setup = stderr_to_log;
			p->setup_arg = j;
		}
		*task = k;
		return 1;
	}
	return 0;
}

/* The pool's done(): the object into the cache, or the failure counted. */
static int compile_done(void *arg, void *task, int status)
{
	struct compile_run *r = arg;
	struct compile *k = task;
	if (status == 0 && finish(r, k) != 0)
		status = 1;
	if (status != 0) {
		unlink(k->tmp_obj);
		unlink(k->tmp_dep);
	}
	strvec_release(&k->argv);
	free(k);
	return status;
}

int xl_objcache_compile(struct xl_objcache *c, struct xl_compile_job *jobs, size_t n, int parallel, const char *version)
{
	struct compile_run r = {.c = c, .jobs = jobs, .n = n, .version = version};
	static unsigned serial; /* temporary names stay unique across the builds of one process */
	r.serial = serial;
	const struct xl_pool pool = {parallel, next_compile, compile_done, &r};
	int rc = xl_process_pool(&pool);
	int e = errno;
	serial = r.serial;
	memo_free(&r.memo);
	if (rc == 0 && r.oom) {
		errno = ENOMEM;
		return -1;
	}
	errno = e;
	return rc;
}
