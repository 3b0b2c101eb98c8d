/*
 * emit_folded.c - folded stacks: "main;parse;lex 1234" (self ns per path,
 * or, with --weight bytes|allocs, the heap bytes or allocations made on
 * the path; then allocations with no traced frame are a "(no traced
 * frame)" stack of their thread, those the runtime could not attribute
 * one "(not attributed)" line and those made while the window was closed
 * one "(outside the window)" line, so the lines add up to the run's
 * total).
 *
 * Read by flamegraph.pl, speedscope, inferno and many others.  One line per
 * call path with self time; identical paths from different threads are
 * separate lines (the tools add them up).  Frame names may not contain ';'
 * or newlines in this format, so those characters are replaced.
 */
#include <stdlib.h>
#include <string.h>

#include "emit.h"

static void put_name(FILE *f, const char *s)
{
	for (; *s; s++)
		putc(*s == ';' ? ':' : (*s == '\n' || *s == '\r') ? ' ' : *s, f);
}

static int64_t weight(const struct xl_model *m, size_t i, enum xl_weight w)
{
	if (w == XL_WEIGHT_TIME)
		return m->nodes[i].self_ns;
	if (!m->node_alloc)
		return 0;
	return (int64_t)(w == XL_WEIGHT_BYTES ? m->node_alloc[i].bytes : m->node_alloc[i].allocs);
}

/* With several processes, a path starts with its process's frame,
 * "command-pid" (the command's first word, without its directory). */
static void put_process(FILE *f, const struct xl_model *m, uint32_t thread)
{
	if (m->nprocs < 2)
		return;
	const struct xl_proc *p = &m->procs[m->threads[thread].process];
	char name[256] = "process";
	if (p->command && p->command[0]) {
		const char *c = p->command, *end = c + strcspn(c, " ");
		for (const char *s = c; s < end; s++)
			if (*s == '/')
				c = s + 1;
		size_t len = (size_t)(end - c);
		snprintf(name, sizeof(name), "%.*s", (int)(len < 200 ? len : 200), c);
	}
	snprintf(name + strlen(name), sizeof(name) - strlen(name), "-%u", p->pid);
	put_name(f, name);
	putc(';', f);
}

/* A node's path from its thread's root, outermost first. */
static void put_path(FILE *f, const struct xl_model *m, int32_t node, int32_t *path)
{
	put_process(f, m, m->nodes[node].thread);
	size_t depth = 0;
	for (int32_t c = node; m->nodes[c].parent != XL_NONE; c = m->nodes[c].parent)
		path[depth++] = m->nodes[c].func;
	while (depth-- > 0) {
		put_name(f, m->funcs[path[depth]].name);
		if (depth)
			putc(';', f);
	}
}

/* The sampled frames (by time only): each a line of its estimated time,
 * its traced frame's path then the frames it is nested in, inlined
 * functions marked "_[i]" (flamegraph.pl colours those as inlined),
 * library code "soname`symbol".  traced[k]: the node of frame k; their
 * estimates come off that node's line (sub, per node). */
static void put_sampled(FILE *f, const struct xl_model *m, const struct xl_emit_opts *o, int32_t *path, int32_t *traced)
{
	for (size_t k = 0; k < m->nsframes; k++) {
		const struct xl_sframe *s = &m->sframes[k];
		int32_t p = s->parent;
		traced[k] = p < (int32_t)m->nnodes ? p : traced[p - m->nnodes];
		/* (a thread root's time is in no line: no traced frame) */
		if (s->est_ns <= 0 || m->nodes[traced[k]].parent == XL_NONE ||
		    (o->thread >= 0 && s->thread != (uint32_t)o->thread))
			continue;
		put_path(f, m, traced[k], path);
		size_t depth = 0;
		for (int32_t c = (int32_t)k; c >= 0; c = m->sframes[c].parent - (int32_t)m->nnodes)
			path[depth++] = c;
		while (depth-- > 0) {
			const struct xl_sframe *e = &m->sframes[path[depth]];
			putc(';', f);
			if (e->kind == XL_SF_LIBRARY) {
				put_name(f, e->library ? e->library : "(program)");
				putc('`', f);
			}
			put_name(f, e->name);
			if (e->kind == XL_SF_INLINED)
				fputs("_[i]", f);
		}
		fprintf(f, " %lld\n", (long long)s->est_ns);
	}
}

int xl_emit_folded(const struct xl_model *m, FILE *f, const struct xl_emit_opts *o)
{
	size_t longest = m->nnodes > m->nsframes ? m->nnodes : m->nsframes;
	int32_t *path = malloc((longest + 1) * sizeof(int32_t));
	int32_t *traced = malloc((m->nsframes + 1) * sizeof(int32_t));
	int64_t *sub = calloc(m->nnodes + 1, sizeof(int64_t));
	if (!path || !traced || !sub) {
		free(path);
		free(traced);
		free(sub);
		return -1;
	}
	if (o->weight == XL_WEIGHT_TIME) {
		put_sampled(f, m, o, path, traced);
		for (size_t k = 0; k < m->nsframes; k++)
			sub[traced[k]] += m->sframes[k].est_ns;
	}
	for (size_t i = 0; i < m->nnodes; i++) {
		const struct xl_tnode *n = &m->nodes[i];
		int64_t v = weight(m, i, o->weight) - sub[i];
		if (v <= 0 || (o->thread >= 0 && n->thread != (uint32_t)o->thread))
			continue;
		if (n->parent == XL_NONE) {
			if (o->weight != XL_WEIGHT_TIME) {
				put_process(f, m, n->thread);
				fprintf(f, "(no traced frame) %lld\n", (long long)v);
			}
			continue;
		}
		put_path(f, m, (int32_t)i, path);
		fprintf(f, " %lld\n", (long long)v);
	}
	if (o->weight != XL_WEIGHT_TIME && o->thread < 0) {
		uint64_t na = o->weight == XL_WEIGHT_BYTES ? m->alloc_na.bytes : m->alloc_na.allocs;
		if (na)
			fprintf(f, "(not attributed) %llu\n", (unsigned long long)na);
		uint64_t out = o->weight == XL_WEIGHT_BYTES ? m->alloc_outside.bytes : m->alloc_outside.allocs;
		if (out)
			fprintf(f, "(outside the window) %llu\n", (unsigned long long)out);
	}
	free(path);
	free(traced);
	free(sub);
	return ferror(f) ? -1 : 0;
}
