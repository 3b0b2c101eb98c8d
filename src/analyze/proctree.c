/*
 * proctree.c - one model for a process tree: the capture exaloop made of
 * the process it started, and those of the processes it forked and the
 * images it exec'd.
 *
 * The runtime puts those captures in subdirectories of the run's capture
 * directory (xl_capture.h, related.c): child-<pid>/ for a forked child
 * that ran traced code (its own children's too: the directory is the
 * run's), exec-<n>/ for the n-th image the process exec'd.  This file
 * finds them (at any depth, so that a capture copied into another keeps
 * its tree), reads each on its own (xl_model_load_capture) and merges it into
 * the top capture's model (procmerge.c), its axis moved to the top's by
 * the two processes' start times (CLOCK_REALTIME, read by each runtime).
 * Every thread then belongs to a process (procs[], keyed by pid: an exec'd
 * image is the same process), and the call tree, functions and totals
 * are those of all of them.  One process asked for (--process) is read
 * alone: its first capture is the model's top, its later images merged.
 *
 * A forked child that exec'd from the program's code left an exec note
 * (XL_EXEC_NOTE_FILE, src/rt/rt_wrap_exec.c): what it exec'd, and when it
 * ran no traced code before, the note alone, a process without threads
 * (a stub here).  What the captures cannot tell: the command line of a
 * forked child (a copy of its parent: the parent's), a child's exit
 * status (no runtime is there when it exits), what a child exec'd
 * through libc's system() or popen() (not wrapped); a child that ran no
 * traced code and left no note is not in the tree.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze_internal.h"
#include "fileio.h"
#include "xl_array.h"

#define XL_PROCTREE_DEPTH 8 /* subdirectories of subdirectories read */

/* A capture found in the tree, or a forked child that left only its
 * exec note (stub: it ran no traced code; h has its pid and ppid). */
struct capdir {
	char path[PATH_MAX];
	struct xl_cap_header h;
	int stub;
	char exec[1024]; /* the program it exec'd, from its exec note ("" none) */
};

struct capdirs {
	struct capdir *v;
	size_t n, cap;
};

static int is_sub(const char *name)
{
	return strncmp(name, "exec-", 5) == 0 || strncmp(name, "child-", 6) == 0;
}

/* The exec note of a forked child (XL_EXEC_NOTE_FILE in its directory,
 * written by its runtime as it exec'd: parent pid, path, arguments): the
 * arguments into c->exec (the path when there are none), the parent pid
 * into *ppid.  0 when there is one. */
static int read_exec_note(const char *dir, const char *name, struct capdir *c, uint32_t *ppid)
{
	char path[PATH_MAX], buf[4200];
	if ((size_t)snprintf(path, sizeof(path), "%s/%s/%s", dir, name, XL_EXEC_NOTE_FILE) >= sizeof(path))
		return -1;
	int fd = xl_open_regular(path);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	char *file = strchr(buf, '\n'), *args = file ? strchr(file + 1, '\n') : NULL;
	if (!args)
		return -1;
	*file++ = 0;
	*args++ = 0;
	args[strcspn(args, "\n")] = 0;
	*ppid = (uint32_t)strtoul(buf, NULL, 10);
	snprintf(c->exec, sizeof(c->exec), "%s", *args ? args : file);
	return 0;
}

/* A child directory's entry: its capture's header, or (a stub) its exec
 * note alone.  0 when it has either. */
static int peek_sub(const char *dir, const char *name, struct capdir *c)
{
	uint32_t ppid = 0;
	int note = strncmp(name, "child-", 6) == 0 && read_exec_note(dir, name, c, &ppid) == 0;
	if (xl_related_peek(dir, name, &c->h) == 0)
		return 0;
	if (!note && strncmp(name, "child-", 6) == 0 && name[6] >= '1' && name[6] <= '9') {
		/* a forked child whose capture is missing or cut short: kept, so
		 * that loading it fails in merge_capture with the reason, as the
		 * warning process_unreadable (not left out without a word) */
		memset(&c->h, 0, sizeof(c->h));
		c->h.pid = (uint32_t)strtoul(name + 6, NULL, 10);
		c->h.fork_child = 1;
		return 0;
	}
	if (!note)
		return -1;
	memset(&c->h, 0, sizeof(c->h));
	c->h.pid = (uint32_t)strtoul(name + 6, NULL, 10);
	c->h.ppid = ppid;
	c->h.fork_child = 1;
	c->h.end_reason = XL_END_EXEC;
	c->stub = 1;
	return 0;
}

/* The captures in dir's subdirectories, and theirs, into *out. */
static int collect(const char *dir, int depth, struct capdirs *out)
{
	DIR *d = depth < XL_PROCTREE_DEPTH ? opendir(dir) : NULL;
	struct dirent *e;
	int rc = XL_OK;
	while (d && rc == XL_OK && (e = readdir(d)) != NULL) {
		struct capdir one = {.stub = 0};
		if (!is_sub(e->d_name) || peek_sub(dir, e->d_name, &one) != 0)
			continue;
		if (xl_grow((void **)&out->v, &out->cap, out->n + 1, sizeof(*out->v))) {
			rc = XL_ENOMEM;
			break;
		}
		struct capdir *c = &out->v[out->n];
		*c = one;
		if ((size_t)snprintf(c->path, sizeof(c->path), "%s/%s", dir, e->d_name) >= sizeof(c->path))
			continue;
		out->n++;
		rc = collect(c->path, depth + 1, out);
	}
	if (d)
		closedir(d);
	return rc;
}

/* Forked children after the images of the process exaloop started, each
 * process's images in order. */
static int cmp_capdir(const void *a, const void *b)
{
	const struct capdir *x = a, *y = b;
	if (x->h.fork_child != y->h.fork_child)
		return x->h.fork_child ? 1 : -1;
	if (x->h.pid != y->h.pid)
		return x->h.pid > y->h.pid ? 1 : -1;
	return (x->h.image > y->h.image) - (x->h.image < y->h.image);
}

/* err: no capture of pid; the pids there are. */
static int no_such_process(long pid, const struct xl_model *top, const struct capdirs *c, char *err, size_t errlen)
{
	size_t len = (size_t)snprintf(err, errlen, "no process %ld in the capture; its processes: %u", pid, top->pid);
	for (size_t i = 0; i < c->n && len < errlen; i++)
		if (c->v[i].h.pid != top->pid && (i == 0 || c->v[i].h.pid != c->v[i - 1].h.pid))
			len += (size_t)snprintf(err + len, errlen - len, ", %u", c->v[i].h.pid);
	return XL_ENOPROC;
}

/* The command line of the started process: its program and arguments
 * (run.json; NULL when unknown). */
static char *command_of(const struct xl_model *m, int *oom)
{
	const char *prog = m->run.program ? m->run.program : m->run.executable;
	if (!prog)
		return NULL;
	size_t len = strlen(prog) + 1;
	for (size_t i = 0; m->run.args && m->run.args[i]; i++)
		len += strlen(m->run.args[i]) + 1;
	char *s = malloc(len);
	if (!s) {
		*oom = 1;
		return NULL;
	}
	strcpy(s, prog);
	for (size_t i = 0; m->run.args && m->run.args[i]; i++) {
		strcat(s, " ");
		strcat(s, m->run.args[i]);
	}
	return s;
}

/* The process of a capture (s, read from c; s NULL for a stub: c's
 * facts) in m->procs: its index, or -1 without memory.  A new one takes
 * its parent's command. */
static int process_of(struct xl_model *m, const struct xl_model *s, const struct capdir *c)
{
	size_t i = 0;
	while (i < m->nprocs && m->procs[i].pid != c->h.pid)
		i++;
	if (i == m->nprocs) {
		struct xl_proc *p = realloc(m->procs, (m->nprocs + 1) * sizeof(*p));
		if (!p)
			return -1;
		m->procs = p;
		p = &p[m->nprocs++];
		memset(p, 0, sizeof(*p));
		p->pid = c->h.pid;
		p->ppid = c->h.ppid;
		p->forked = c->h.fork_child != 0;
		const char *cmd = m->procs[0].command;
		for (size_t k = 0; k < m->nprocs - 1; k++)
			if (m->procs[k].pid == c->h.ppid && m->procs[k].command)
				cmd = m->procs[k].command;
		if (cmd && !(p->command = strdup(cmd)))
			return -1;
	}
	struct xl_proc *p = &m->procs[i];
	p->images += s != NULL;
	p->end_reason = s ? s->end_reason : XL_END_EXEC;
	p->finalized = s ? s->finalized : 0;
	p->exec_uncaptured = !s || (s->end_reason == XL_END_EXEC && !s->next_image) || c->exec[0];
	if (c->exec[0] && !p->exec_command && !(p->exec_command = strdup(c->exec)))
		return -1;
	return (int)i;
}

/* A note of that kind is already there (the top capture's says it for
 * the run: the overhead, the GC). */
static int has_note(const struct xl_model *m, const char *kind)
{
	for (size_t i = 0; i < m->nnotes; i++)
		if (strcmp(m->notes[i].kind, kind) == 0)
			return 1;
	return 0;
}

/* s's warnings and notes into m, named by s's process; those the
 * processes table says (which process it is, its images and children)
 * are left out, and so are notes the model has one of; an exec is a
 * note. */
static int merge_findings(struct xl_model *m, struct xl_model *s)
{
	size_t nw = m->nwarnings + s->nwarnings, nn = m->nnotes + s->nnotes + s->nwarnings;
	struct xl_warning *w = realloc(m->warnings, (nw ? nw : 1) * sizeof(*w));
	if (w)
		m->warnings = w;
	struct xl_warning *n = w ? realloc(m->notes, (nn ? nn : 1) * sizeof(*n)) : NULL;
	if (!n)
		return XL_ENOMEM;
	m->notes = n;
	for (size_t i = 0; i < s->nwarnings + s->nnotes; i++) {
		struct xl_warning *x = i < s->nwarnings ? &s->warnings[i] : &s->notes[i - s->nwarnings];
		if (strcmp(x->kind, "fork_child") == 0 || strcmp(x->kind, "exec_image") == 0 ||
		    strcmp(x->kind, "fork_children") == 0 || (i >= s->nwarnings && has_note(m, x->kind)))
			continue;
		char *msg;
		if (asprintf(&msg, "process %u: %s", s->pid, x->message) < 0)
			return XL_ENOMEM;
		int as_note = i >= s->nwarnings || strcmp(x->kind, "exec") == 0;
		struct xl_warning *to = as_note ? &m->notes[m->nnotes++] : &m->warnings[m->nwarnings++];
		*to = *x;
		free(to->message);
		to->message = msg;
		to->from_ns = to->from_ns >= 0 ? xl_add_ns(to->from_ns, m->parts[m->nparts - 1].shift_ns) : -1;
		to->to_ns = to->to_ns >= 0 ? xl_add_ns(to->to_ns, m->parts[m->nparts - 1].shift_ns) : -1;
		to->pid = s->pid;
		x->kind = x->message = NULL; /* moved */
	}
	return XL_OK;
}

/* Read the capture c and merge it into m.  A capture that cannot be read
 * is a warning: the others still make the report.  A stub is a process
 * without threads. */
static int merge_capture(struct xl_model *m, const struct capdir *c)
{
	if (c->stub)
		return process_of(m, NULL, c) < 0 ? XL_ENOMEM : XL_OK;
	struct xl_model *s;
	char err[512];
	if (xl_model_load_capture(c->path, &s, err, sizeof(err)) != XL_OK) {
		struct xl_warning *w = realloc(m->warnings, (m->nwarnings + 1) * sizeof(*w));
		if (!w)
			return XL_ENOMEM;
		m->warnings = w;
		w = &w[m->nwarnings];
		*w = (struct xl_warning){strdup("process_unreadable"), NULL, XL_TOPIC_RUN, -1, -1, c->h.pid};
		if (asprintf(&w->message, "process %u: its capture could not be read: %s", c->h.pid, err) < 0 ||
		    !w->kind) {
			free(w->kind);
			return XL_ENOMEM;
		}
		m->nwarnings++;
		return XL_OK;
	}
	struct xl_part *p = realloc(m->parts, (m->nparts + 1) * sizeof(*p));
	if (!p) {
		xl_model_free(s);
		return XL_ENOMEM;
	}
	m->parts = p;
	p = &p[m->nparts++];
	memset(p, 0, sizeof(*p));
	p->m = s;
	if (s->start_realtime_ns > 0 && m->start_realtime_ns > 0)
		p->shift_ns = s->start_realtime_ns - m->start_realtime_ns;
	int proc = process_of(m, s, c);
	if (proc < 0 || xl_proc_merge(m, s, (uint32_t)(m->nparts - 1), (uint32_t)proc))
		return XL_ENOMEM;
	return merge_findings(m, s);
}

/* m's own capture as part 0 and process 0 (command: the started
 * process's, from top, which may be m). */
static int start_tree(struct xl_model *m, const struct xl_model *top)
{
	m->parts = calloc(1, sizeof(*m->parts));
	m->procs = calloc(1, sizeof(*m->procs));
	if (!m->parts || !m->procs || xl_part_ids(&m->parts[0], m))
		return XL_ENOMEM;
	m->nparts = 1;
	int oom = 0;
	m->procs[0].command = command_of(top, &oom);
	if (oom)
		return XL_ENOMEM;
	m->nprocs = 1;
	m->procs[0].pid = m->pid;
	m->procs[0].ppid = m->ppid;
	m->procs[0].forked = m->fork_child != 0;
	m->procs[0].images = 1;
	m->procs[0].end_reason = m->end_reason;
	m->procs[0].finalized = m->finalized;
	m->procs[0].exec_uncaptured = m->end_reason == XL_END_EXEC && !m->next_image;
	if (m == top) {
		m->procs[0].has_exit_status = m->run.has_exit_status;
		m->procs[0].exit_status = m->run.exit_status;
		m->procs[0].signal = m->run.signal;
	}
	return XL_OK;
}

/* Each process's own totals, from its threads. */
static int process_totals(struct xl_model *m)
{
	struct xl_func *own = malloc((m->nfuncs ? m->nfuncs : 1) * sizeof(*own));
	if (!own)
		return XL_ENOMEM;
	for (size_t i = 0; i < m->nprocs; i++) {
		struct xl_proc *p = &m->procs[i];
		p->cpu_ns = -1;
		p->start_ns = p->end_ns = -1;
	}
	for (size_t i = 0; i < m->nthreads; i++) {
		const struct xl_thread *t = &m->threads[i];
		struct xl_proc *p = &m->procs[t->process];
		if (m->nprocs > 1 && xl_funcs_for_thread(m, (int)i, own) != XL_OK) {
			free(own);
			return XL_ENOMEM;
		}
		for (size_t f = 0; m->nprocs > 1 && f < m->nfuncs; f++)
			p->calls += own[f].calls;
		p->nthreads++;
		p->events += t->events;
		p->thread_time_ns = xl_add_ns(p->thread_time_ns, t->total_ns);
		if (t->cpu_ns >= 0)
			p->cpu_ns = (p->cpu_ns < 0 ? 0 : p->cpu_ns) + t->cpu_ns;
		if (p->start_ns < 0 || t->start_ns < p->start_ns)
			p->start_ns = t->start_ns;
		if (t->end_ns > p->end_ns)
			p->end_ns = t->end_ns;
	}
	for (size_t f = 0; m->nprocs == 1 && f < m->nfuncs; f++) /* one process: the functions' calls */
		m->procs[0].calls += xl_func_is_more(&m->funcs[f]) ? 0 : m->funcs[f].calls;
	for (size_t i = 0; m->allocs && i < m->nnodes; i++)
		xl_alloc_add(&m->procs[m->threads[m->nodes[i].thread].process].alloc, &m->node_alloc[i]);
	free(own);
	return XL_OK;
}

/* The model of one process of the tree (pid, not the top's): its first
 * capture, c->v[*base], read on its own. */
static int load_base(long pid, const struct capdirs *c, size_t *base, struct xl_model **m, char *err, size_t errlen)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].h.pid == (uint32_t)pid && c->v[i].stub) {
			snprintf(err, errlen, "process %ld has no capture: it ran no traced code before it exec'd '%s'",
				 pid, c->v[i].exec);
			return XL_ENOPROC;
		} else if (c->v[i].h.pid == (uint32_t)pid) {
			*base = i;
			return xl_model_load_capture(c->v[i].path, m, err, errlen);
		}
	return XL_ENOPROC;
}

/* The tree under dir merged into top (pid >= 0: that process's captures
 * only).  Takes top (freed on failure, or when another capture is the
 * model's top). */
static int load_tree(const char *dir, long pid, struct xl_model *top, struct xl_model **out, char *err, size_t errlen)
{
	struct capdirs c = {0};
	if (errlen)
		err[0] = 0; /* the top capture loaded: any message from here is the tree's */
	int rc = collect(dir, 0, &c);
	if (c.n > 1)
		qsort(c.v, c.n, sizeof(*c.v), cmp_capdir);
	struct xl_model *m = top;
	size_t base = (size_t)-1;
	int known = pid < 0 || pid == (long)top->pid;
	for (size_t i = 0; i < c.n && !known; i++)
		known = c.v[i].h.pid == (uint32_t)pid;
	if (rc == XL_OK && !known)
		rc = no_such_process(pid, top, &c, err, errlen);
	else if (rc == XL_OK && pid >= 0 && pid != (long)top->pid)
		rc = load_base(pid, &c, &base, &m, err, errlen);
	if (rc == XL_OK)
		rc = start_tree(m, top);
	for (size_t i = 0; i < c.n && rc == XL_OK; i++)
		if ((pid < 0 || c.v[i].h.pid == (uint32_t)pid) && i != base)
			rc = merge_capture(m, &c.v[i]);
	if (rc == XL_OK)
		rc = process_totals(m);
	if (rc == XL_OK && m->nparts > 1)
		rc = xl_call_cost(m); /* the merged counts */
	if (rc == XL_OK && m->nparts > 1)
		rc = xl_note_overhead_again(m);
	free(c.v);
	if (m != top)
		xl_model_free(top);
	if (rc != XL_OK) {
		if (rc == XL_ENOMEM && !err[0]) /* the steps above say why only for what they read */
			snprintf(err, errlen, "out of memory while merging the captures of '%s'", dir);
		xl_model_free(m);
		return rc;
	}
	*out = m;
	return XL_OK;
}

int xl_model_load_process(const char *dir, long pid, struct xl_model **out, char *err, size_t errlen)
{
	*out = NULL;
	struct xl_model *top;
	int rc = xl_model_load_capture(dir, &top, err, errlen);
	return rc != XL_OK ? rc : load_tree(dir, pid, top, out, err, errlen);
}

int xl_model_load(const char *dir, struct xl_model **out, char *err, size_t errlen)
{
	return xl_model_load_process(dir, -1, out, err, errlen);
}

int32_t xl_thread_func_index(const struct xl_model *m, const struct xl_thread *t, int32_t xray_id)
{
	if (!m->nparts || t->part >= m->nparts)
		return xl_func_index(m, xray_id);
	const struct xl_part *p = &m->parts[t->part];
	size_t lo = 0, hi = p->nids;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->ids[mid] == xray_id)
			return p->fmap[mid];
		if (p->ids[mid] < xray_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return XL_NONE;
}

const char *xl_proc_status(const struct xl_proc *p)
{
	if (p->signal)
		return "signal";
	if (p->exec_uncaptured || p->exec_command)
		return "exec";
	if (p->has_exit_status || (p->finalized && p->end_reason == XL_END_EXIT))
		return "exit";
	if (p->finalized && p->end_reason == XL_END_WINDOW)
		return "window";
	return "unknown";
}
