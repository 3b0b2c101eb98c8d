/*
 * objcache.c - parallel compiles into a reusable cache of objects (see
 * objcache.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"
#include "objcache.h"
#include "process.h"

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
	snprintf(c->dir, sizeof(c->dir), "/tmp/exaloop-objects-XXXXXX");
	if (!mkdtemp(c->dir)) {
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

struct dep_list {
	FILE *f;
	struct memo *memo;
};

static int write_dep_line(const char *dep, void *arg)
{
	const struct dep_list *l = arg;
	struct hash h;
	char hex[33];
	if (file_hash(l->memo, dep, &h) != 0)
		return -1;
	hash_hex(&h, hex);
	return fprintf(l->f, "%s %s\n", hex, dep) < 0 ? -1 : 0;
}

/* Is the entry's recorded input set unchanged?  Every line of the .deps
 * file is "HASH PATH" of one file the compiler read. */
static int deps_current(struct memo *m, const char *deps)
{
	FILE *f = fopen(deps, "re");
	if (!f)
		return 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int ok = 1, lines = 0;
	while (ok && (n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] == '\n')
			line[n - 1] = 0;
		if (strlen(line) < 34 || line[32] != ' ') {
			ok = 0;
			break;
		}
		struct hash h;
		char hex[33];
		ok = file_hash(m, line + 33, &h) == 0;
		hash_hex(&h, hex);
		ok = ok && memcmp(hex, line, 32) == 0;
		lines++;
	}
	free(line);
	fclose(f);
	return ok && lines > 0;
}

/* One compile in flight. */
struct slot {
	pid_t pid;
	size_t job;
	char tmp_obj[PATH_MAX], tmp_dep[PATH_MAX];
	char key[33];
};

static struct slot *running_slots;
static size_t running_cap;
/* The first terminating signal exaloop received while compiling: no new
 * compile starts after it, and one that was starting gets it too. */
static volatile sig_atomic_t stop_signal;

/* Each compiler runs as a process group of its own (child_setup), so that
 * the signal reaches the driver's `clang -cc1` child too: the driver does
 * not pass signals on, and a `-cc1` signalled through the driver alone ran
 * on as an orphan.  Being in another group, the compilers no longer get the
 * terminal's ^C and ^\ directly, so those are passed on here as well. */
static void forward(int sig)
{
	if (!stop_signal)
		stop_signal = sig;
	for (size_t i = 0; i < running_cap; i++)
		if (running_slots[i].pid > 0)
			kill(-running_slots[i].pid, sig);
}

static int key_of(struct memo *m, const struct xl_compile_job *j, const char *version, char key[33])
{
	struct hash h, content;
	char real[PATH_MAX], cwd[PATH_MAX];
	hash_init(&h);
	hash_str(&h, "exaloop objcache 2"); /* 2: contents enter as their hashes */
	hash_str(&h, version ? version : "");
	for (size_t i = 0; j->argv[i]; i++)
		hash_str(&h, j->argv[i]);
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

/* In the compiler's process before exec: default signal dispositions
 * and, when the job asks, stderr into its log. */
static void child_setup(void *arg)
{
	const struct xl_compile_job *j = arg;
	setpgid(0, 0); /* a group of its own: see forward() */
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	if (j->stderr_log) {
		int fd = open(j->stderr_log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd >= 0) {
			dup2(fd, 2);
			close(fd);
		}
	}
}

static pid_t start(const struct xl_compile_job *j, struct slot *s)
{
	size_t n = 0;
	while (j->argv[n])
		n++;
	const char **argv = calloc(n + 9, sizeof(char *));
	if (!argv)
		return -1;
	memcpy(argv, j->argv, n * sizeof(char *));
	argv[n++] = "-c";
	argv[n++] = j->source;
	argv[n++] = "-o";
	argv[n++] = s->tmp_obj;
	argv[n++] = "-MD";
	argv[n++] = "-MF";
	argv[n++] = s->tmp_dep;
	argv[n] = NULL;
	/* The signal policy is this loop's (several compilers at a time):
	 * each one gets the default dispositions back. */
	struct xl_process p = {
		.argv = (char *const *)argv, .signals = XL_SIGNALS_KEEP, .setup = child_setup, .setup_arg = (void *)j};
	int rc = xl_process_start(&p);
	int e = errno;
	pid_t pid = p.pid;
	if (rc == 0 && pid > 0) {
		setpgid(pid, pid); /* (also here: kill(-pid) must find the group at once) */
		if (stop_signal)
			kill(-pid, stop_signal);
	}
	xl_process_end(&p); /* (KEEP: nothing to undo; the child stays ours to wait for) */
	free(argv);
	if (rc != 0 || pid <= 0) {
		errno = rc != 0 ? e : ECHILD;
		return -1;
	}
	return pid;
}

/* A finished compile: move its object and dependency list into place. */
static int finish(struct xl_objcache *c, struct memo *m, struct xl_compile_job *j, struct slot *s)
{
	char obj[PATH_MAX], deps[PATH_MAX], tmp_deps[PATH_MAX + 8];
	snprintf(obj, sizeof(obj), "%s/%s.o", c->dir, s->key);
	snprintf(deps, sizeof(deps), "%s/%s.deps", c->dir, s->key);
	snprintf(tmp_deps, sizeof(tmp_deps), "%s.list", s->tmp_dep);
	struct dep_list l = {fopen(tmp_deps, "we"), m};
	int rc = l.f ? each_dep(s->tmp_dep, write_dep_line, &l) : -1;
	if (l.f && fclose(l.f) != 0)
		rc = -1;
	unlink(s->tmp_dep);
	/* The object goes into place in any case; without its dependency
	 * list (a header vanished meanwhile) the next build recompiles it. */
	if (rename(s->tmp_obj, obj) != 0) {
		unlink(tmp_deps);
		return -1;
	}
	snprintf(j->object, sizeof(j->object), "%s", obj);
	if (rc != 0 || rename(tmp_deps, deps) != 0) {
		unlink(tmp_deps);
		unlink(deps);
	}
	return 0;
}

int xl_objcache_compile(struct xl_objcache *c, struct xl_compile_job *jobs, size_t n, int parallel, const char *version)
{
	if (parallel < 1)
		parallel = 1;
	struct slot *slots = calloc((size_t)parallel, sizeof(struct slot));
	char(*keys)[33] = calloc(n ? n : 1, 33);
	if (!slots || !keys) {
		free(slots);
		free(keys);
		errno = ENOMEM;
		return -1;
	}
	struct sigaction fwd = {0}, o_int, o_quit, o_term, o_hup;
	fwd.sa_handler = forward;
	running_slots = slots;
	running_cap = (size_t)parallel;
	/* Every terminating signal sent to exaloop is passed on to the
	 * compilers' groups (forward()), so the caller always gets to clean up
	 * and says the compilation was interrupted. */
	stop_signal = 0;
	sigaction(SIGINT, &fwd, &o_int);
	sigaction(SIGQUIT, &fwd, &o_quit);
	sigaction(SIGTERM, &fwd, &o_term);
	sigaction(SIGHUP, &fwd, &o_hup);

	struct memo memo = {0};
	int rc = 0, err = 0;
	size_t next = 0, active = 0;
	static unsigned serial;
	while (next < n || active) {
		while (rc == 0 && !stop_signal && next < n && active < (size_t)parallel) {
			struct xl_compile_job *j = &jobs[next];
			j->reused = 0;
			if (key_of(&memo, j, version, keys[next]) == 0) {
				char obj[PATH_MAX], deps[PATH_MAX];
				snprintf(obj, sizeof(obj), "%s/%s.o", c->dir, keys[next]);
				snprintf(deps, sizeof(deps), "%s/%s.deps", c->dir, keys[next]);
				if (access(obj, R_OK) == 0 && deps_current(&memo, deps)) {
					snprintf(j->object, sizeof(j->object), "%s", obj);
					j->reused = 1;
					next++;
					continue;
				}
			}
			/* (an unreadable source is compiled anyway: clang says why) */
			struct slot *s = NULL;
			for (int k = 0; k < parallel && !s; k++)
				if (slots[k].pid == 0)
					s = &slots[k];
			s->job = next;
			memcpy(s->key, keys[next], 33);
			unsigned id = serial++;
			snprintf(s->tmp_obj, sizeof(s->tmp_obj), "%s/%s.%d.%u.o.tmp", c->dir, s->key, (int)getpid(),
				 id);
			snprintf(s->tmp_dep, sizeof(s->tmp_dep), "%s/%s.%d.%u.d.tmp", c->dir, s->key, (int)getpid(),
				 id);
			pid_t pid = start(j, s);
			if (pid < 0) {
				err = errno;
				rc = -1;
				break;
			}
			s->pid = pid;
			active++;
			next++;
		}
		if (!active)
			break;
		int st;
		pid_t pid = waitpid(-1, &st, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		struct slot *s = NULL;
		for (int k = 0; k < parallel && !s; k++)
			if (slots[k].pid == pid)
				s = &slots[k];
		if (!s)
			continue; /* not ours */
		s->pid = 0;
		active--;
		int status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		if (status == 0 && finish(c, &memo, &jobs[s->job], s) != 0)
			status = 1;
		if (status != 0) {
			unlink(s->tmp_obj);
			unlink(s->tmp_dep);
			if (rc == 0)
				rc = status;
		}
	}
	/* Interrupted after the last compile finished, or before the rest
	 * started: the build stops all the same. */
	if (stop_signal && rc == 0)
		rc = 128 + stop_signal;
	sigaction(SIGINT, &o_int, NULL);
	sigaction(SIGQUIT, &o_quit, NULL);
	sigaction(SIGTERM, &o_term, NULL);
	sigaction(SIGHUP, &o_hup, NULL);
	running_slots = NULL;
	running_cap = 0;
	memo_free(&memo);
	free(slots);
	free(keys);
	if (rc == -1)
		errno = err;
	return rc;
}
