/*
 * s-fill.c - known work, then fills the file system it runs on, then more work.
 *
 * Usage:   s-fill FILE [N]                (N = 0..100000000, default 100)
 * Stdout:  "filled: bytes=B error=No space left on device\n" (or the error it got)
 *          then "done: work=2N\n"
 * Exit:    0 when writing stopped with ENOSPC (or EFBIG/EDQUOT), 1 otherwise
 *
 * main calls work() N times, then fill() appends 64 KiB blocks to FILE until a write
 * fails (a full disk), flushes and keeps the file, then calls work() N more times.
 * A profiler whose capture space was reserved up front keeps capturing through it.
 *
 * Calls (debug -O0 and release -O3 alike):
 *   main 1; main > work 2N; main > fill 1
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static NOINLINE long work(long x)
{
    BARRIER(x);
    return x + 1;
}

static NOINLINE int fill(const char *path, long long *bytes)
{
    static char block[65536];
    memset(block, 'x', sizeof block);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return errno;
    int err = 0;
    for (;;) {
        ssize_t n = write(fd, block, sizeof block);
        if (n < 0) {
            err = errno;
            break;
        }
        *bytes += n;
    }
    if (fsync(fd) != 0 && !err)
        err = errno;
    close(fd);
    return err;
}

int main(int argc, char **argv)
{
    long n = 100;
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: s-fill FILE [N]   (N = 0..100000000)\n");
        return 2;
    }
    if (argc > 2) {
        char *end;
        n = strtol(argv[2], &end, 10);
        if (end == argv[2] || *end != '\0' || n < 0 || n > 100000000) {
            fprintf(stderr, "usage: s-fill FILE [N]   (N = 0..100000000)\n");
            return 2;
        }
    }
    long calls = 0;
    for (long i = 0; i < n; i++)
        calls = work(calls);
    long long bytes = 0;
    int err = fill(argv[1], &bytes);
    printf("filled: bytes=%lld error=%s\n", bytes, strerror(err));
    fflush(stdout);
    for (long i = 0; i < n; i++)
        calls = work(calls);
    printf("done: work=%ld\n", calls);
    return err == ENOSPC || err == EFBIG || err == EDQUOT ? 0 : 1;
}
