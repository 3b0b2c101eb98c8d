/*
 * foreign_exec.c - finalize the capture of a process that exec'd a program
 * exaloop did not build (see foreign_exec.h).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "captures.h"
#include "exaloop/xl_capture.h"
#include "foreign_exec.h"

void xl_exec_probe_hook(pid_t pid, void *arg)
{
	struct xl_exec_probe *pr = arg;
	char path[64], buf[512];
	pr->comm[0] = 0;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = 0;
	/* "pid (comm) state ...": comm may hold ')' itself, so up to the last. */
	char *open_p = strchr(buf, '('), *close_p = strrchr(buf, ')');
	if (!open_p || !close_p || close_p <= open_p)
		return;
	size_t len = (size_t)(close_p - open_p - 1);
	if (len >= sizeof(pr->comm))
		len = sizeof(pr->comm) - 1;
	memcpy(pr->comm, open_p + 1, len);
	pr->comm[len] = 0;
}

/* The name the kernel gives a process that execs path: its file name, cut
 * to 15 bytes. */
static int same_comm(const char *comm, const char *name)
{
	return strncmp(comm, name, 15) == 0 && (strlen(name) >= 15 || strlen(comm) == strlen(name));
}

/* The name the main thread (tid == pid) had when the runtime last looked. */
static int main_thread_name(int fd, const struct xl_cap_header *h, pid_t pid, char *out, size_t len)
{
	uint32_t n = h->thread_count < XL_MAX_THREADS ? h->thread_count : XL_MAX_THREADS;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t off;
		struct xl_thread_block tb;
		size_t head = offsetof(struct xl_thread_block, name) + XL_THREAD_NAME_MAX;
		if (pread(fd, &off, sizeof(off), XL_HDR_SIZE + 8 * (off_t)i) != (ssize_t)sizeof(off) || !off ||
		    pread(fd, &tb, head, (off_t)off) != (ssize_t)head)
			continue;
		if (tb.blk.kind == XL_BLOCK_THREAD && tb.tid == (uint32_t)pid) {
			snprintf(out, len, "%.*s", (int)XL_THREAD_NAME_MAX, tb.name);
			return 1;
		}
	}
	return 0;
}

int xl_exec_probe_finish(const struct xl_exec_probe *pr, const char *dir, pid_t pid, const char *exe)
{
	if (!pr->comm[0])
		return 0;
	const char *base = strrchr(exe, '/');
	base = base ? base + 1 : exe;
	if (same_comm(pr->comm, base))
		return 0;
	struct xl_cap_header h;
	int fd = xl_cap_header_open(dir, O_RDWR, &h);
	if (fd < 0)
		return 0;
	char name[XL_THREAD_NAME_MAX + 1];
	int done = 0;
	if (h.pid == (uint32_t)pid && h.image == 0 && h.state != XL_STATE_FINALIZED &&
	    !(main_thread_name(fd, &h, pid, name, sizeof(name)) && same_comm(pr->comm, name))) {
		/* As the next image's runtime would (rt_init.c end_by_exec),
		 * with no next image: the window's end is the last timestamp. */
		uint32_t next = 0, reason = XL_END_EXEC, state = XL_STATE_FINALIZED;
		done = pwrite(fd, &next, 4, offsetof(struct xl_cap_header, next_image)) == 4 &&
		       pwrite(fd, &reason, 4, offsetof(struct xl_cap_header, end_reason)) == 4 &&
		       pwrite(fd, &state, 4, offsetof(struct xl_cap_header, state)) == 4;
	}
	close(fd);
	return done;
}
