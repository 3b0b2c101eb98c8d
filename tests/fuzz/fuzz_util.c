/*
 * fuzz_util.c - temporary directory, output sink and the built-in capture
 * shared by the fuzz targets (fuzz.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exaloop/xl_capture.h"
#include "fuzz.h"

static char dir[64];
static FILE *sink;

static void cleanup(void)
{
	DIR *d = opendir(dir);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d)) != NULL)
			if (e->d_name[0] != '.')
				unlinkat(dirfd(d), e->d_name, 0);
		closedir(d);
	}
	rmdir(dir);
}

const char *fz_dir(void)
{
	if (!dir[0]) {
		const char *tmp = getenv("TMPDIR");
		snprintf(dir, sizeof(dir), "%s/xl-fuzz-XXXXXX", tmp && strlen(tmp) < 40 ? tmp : "/tmp");
		if (!mkdtemp(dir)) {
			perror("fuzz: mkdtemp");
			exit(1);
		}
		atexit(cleanup);
	}
	return dir;
}

void fz_put(const char *name, const void *data, size_t len)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", fz_dir(), name);
	if (!data) {
		unlink(path);
		return;
	}
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		perror("fuzz: open");
		exit(1);
	}
	const char *p = data;
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n <= 0) {
			perror("fuzz: write");
			exit(1);
		}
		p += n;
		len -= (size_t)n;
	}
	close(fd);
}

FILE *fz_sink(void)
{
	if (!sink) {
		sink = fopen("/dev/null", "we");
		if (!sink) {
			perror("fuzz: /dev/null");
			exit(1);
		}
	}
	clearerr(sink);
	return sink;
}

/* Layout of the built-in capture: header, a 1-slot thread table, then the
 * thread block's fixed part (node_chunks[] cut after one entry), one node
 * chunk with 4 nodes, a timeline block and a memory block.  The analyzer
 * reads a thread block only as far as its counts need, so this is complete. */
enum {
	OFF_THREAD = XL_HDR_SIZE + 64,
	OFF_NODES = OFF_THREAD + 1024,
	OFF_TIMELINE = OFF_NODES + 32 + 4 * 32,
	OFF_MEMORY = OFF_TIMELINE + 32 + 6 * 16,
	SMALL_SIZE = OFF_MEMORY + 32 + 2 * 48,
};

const uint8_t *fz_small_capture(size_t *len)
{
	/* Room for a whole thread block, so that it can be written through its
	 * struct; only the first SMALL_SIZE bytes become the file. */
	static union {
		uint8_t bytes[OFF_THREAD + sizeof(struct xl_thread_block)];
		uint64_t align;
	} buf;
	static int built;
	*len = SMALL_SIZE;
	if (built)
		return buf.bytes;
	built = 1;
	struct xl_cap_header *h = (void *)buf.bytes;
	memcpy(h->magic, XL_CAP_MAGIC, 8);
	h->version = 2; /* its memory samples have version 2's 48 bytes */
	h->hdr_size = XL_HDR_SIZE;
	h->state = XL_STATE_FINALIZED;
	h->mode = XL_MODE_ALL;
	h->clock = XL_CLOCK_MONOTONIC;
	h->end_reason = XL_END_EXIT;
	h->file_size = SMALL_SIZE;
	h->arena_off = XL_HDR_SIZE + XL_THREAD_TABLE_SIZE;
	h->arena_cursor = SMALL_SIZE;
	h->process_start_ticks = 1000;
	h->window_open_ticks = 2000;
	h->window_close_ticks = 90000;
	h->last_ticks = 90000;
	h->buffer_size = 1 << 20;
	h->memory_interval_ns = 10000;
	h->thread_count = 1;
	h->mem_first_chunk = OFF_MEMORY;
	h->peak_rss_bytes = 4 << 20;
	h->gc_first_collections = XL_UNAVAILABLE;
	uint64_t *table = (void *)(buf.bytes + XL_HDR_SIZE);
	table[0] = OFF_THREAD;

	struct xl_thread_block *tb = (void *)(buf.bytes + OFF_THREAD);
	tb->blk.kind = XL_BLOCK_THREAD;
	tb->blk.size = 1024;
	tb->tid = 4242;
	memcpy(tb->name, "main", 5);
	tb->first_ticks = 2000;
	tb->last_ticks = 80000;
	tb->exit_ticks = 85000;
	tb->events = 6;
	tb->timeline_events = 6;
	tb->node_count = 4;
	tb->timeline_first = OFF_TIMELINE;
	tb->node_chunks[0] = OFF_NODES + 32;

	struct xl_cap_block *nb = (void *)(buf.bytes + OFF_NODES);
	nb->kind = XL_BLOCK_NODES;
	nb->size = 32 + 4 * 32;
	nb->count = nb->capacity = 4;
	struct xl_node *n = (void *)(nb + 1);
	n[0] = (struct xl_node){0, 0, 1, 0, 0, 0};
	n[1] = (struct xl_node){1, 0, 2, 0, 1, 70000}; /* main */
	n[2] = (struct xl_node){2, 1, 0, 3, 2, 30000}; /* main > 2 */
	n[3] = (struct xl_node){3, 1, 0, 0, 1, 10000}; /* main > 3 */

	struct xl_cap_block *tl = (void *)(buf.bytes + OFF_TIMELINE);
	tl->kind = XL_BLOCK_TIMELINE;
	tl->size = 32 + 6 * 16;
	tl->count = tl->capacity = 6;
	struct xl_event *e = (void *)(tl + 1);
	e[0] = (struct xl_event){3000, 1, XL_EV_ENTRY};
	e[1] = (struct xl_event){4000, 2, XL_EV_ENTRY};
	e[2] = (struct xl_event){19000, 2, XL_EV_EXIT};
	e[3] = (struct xl_event){20000, 3, XL_EV_ENTRY};
	e[4] = (struct xl_event){30000, 3, XL_EV_TAIL};
	e[5] = (struct xl_event){73000, 1, XL_EV_EXIT};

	struct xl_cap_block *mb = (void *)(buf.bytes + OFF_MEMORY);
	mb->kind = XL_BLOCK_MEMORY;
	mb->size = 32 + 2 * 48;
	mb->count = mb->capacity = 2;
	const struct xl_mem_sample s[2] = {{2500, 1 << 20, 65536, 1024, 100000, 1, 0, 0, 0},
					   {88000, 3 << 20, 131072, 2048, 900000, 4, 0, 0, 0}};
	for (int i = 0; i < 2; i++)
		memcpy((char *)(mb + 1) + i * XL_MEM_SAMPLE_V2_SIZE, &s[i], XL_MEM_SAMPLE_V2_SIZE);
	return buf.bytes;
}
