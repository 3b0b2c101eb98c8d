/*
 * l-noperf.c - a launcher, not a profiled program: runs a command with
 * perf_event_open refused by a seccomp filter, as a container's policy
 * does (tests of exaloop's "line data unavailable" note).
 *
 * Usage:  l-noperf ERRNO COMMAND [ARGS...]
 *         ERRNO is a number (13: EACCES, 1: EPERM, 38: ENOSYS)
 * Every other system call is allowed; the filter is inherited by COMMAND
 * and everything it starts (no_new_privs).  Exit: COMMAND's, or 127.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#endif

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: l-noperf ERRNO COMMAND [ARGS...]\n");
		return 127;
	}
	unsigned err = (unsigned)atoi(argv[1]) & SECCOMP_RET_DATA;
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_perf_event_open, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | err),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {sizeof(f) / sizeof(f[0]), f};
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
		perror("l-noperf: seccomp");
		return 127;
	}
	execvp(argv[2], argv + 2);
	perror("l-noperf: exec");
	return 127;
}
