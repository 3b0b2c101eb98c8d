/*
 * s-fds.c - a program that makes assumptions about its file descriptors.
 *
 * Usage:   s-fds SCENARIO [MIB]   (MIB default 64: memory the program touches and holds)
 * Scenarios:
 *   first     opens /dev/null: POSIX gives the lowest free descriptor, 3 when only 0-2 are open
 *   stdin     reports what descriptor 0 is (the test starts the program with it closed)
 *   closeall  closes every descriptor from 3 up (close_range), touches MIB MiB, then opens a file
 *             whose text looks like /proc/self/statm of a 3.8 GiB process and keeps it open
 *   dup2      touches MIB MiB, then puts that same fake file over descriptor 3 and over every
 *             descriptor that refers to /proc/<pid>/statm (none in a plain run) with dup2
 * Each scenario then waits 400 ms (memory samples are taken meanwhile) and prints one line:
 *   "first: fd=3", "stdin: EBADF" (or what fd 0 is), "closeall: fd=3 held=MIB", "dup2: held=MIB"
 * Exit:    0; 2 for bad arguments; 1 when a system call fails
 *
 * Calls: main 1; main > work 10; main > touch 1 (closeall and dup2 only).  The resident memory of the process is about
 * MIB MiB more than its start-up size for the 400 ms wait; the fake file claims 1,000,000 pages.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static NOINLINE int work(int x)
{
    BARRIER(x);
    return x + 1;
}

static NOINLINE char *touch(size_t mib)
{
    char *p = malloc(mib << 20);
    if (p)
        memset(p, 1, mib << 20);
    return p;
}

static const char fake[] = "1000000 1000000 1000 100 0 1000000 0\n";

static int open_fake(void)
{
    int fd = open("s-fds-fake-statm", O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, fake, sizeof(fake) - 1) != (ssize_t)(sizeof(fake) - 1)) {
        perror("s-fds: fake statm");
        exit(1);
    }
    return fd;
}

static void wait_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: s-fds first|stdin|closeall|dup2 [MIB]\n");
        return 2;
    }
    size_t mib = argc == 3 ? (size_t)atoi(argv[2]) : 64;
    const char *sc = argv[1];
    int w = 0;
    for (int i = 0; i < 10; i++)
        w = work(w);
    char *mem = NULL;
    char line[128];
    if (strcmp(sc, "first") == 0) {
        int fd = open("/dev/null", O_RDONLY);
        snprintf(line, sizeof(line), "first: fd=%d", fd);
    } else if (strcmp(sc, "stdin") == 0) {
        struct stat st;
        char buf[16];
        if (fstat(0, &st) != 0)
            snprintf(line, sizeof(line), "stdin: %s", errno == EBADF ? "EBADF" : strerror(errno));
        else
            snprintf(line, sizeof(line), "stdin: open, mode %o, read %zd bytes", (unsigned)(st.st_mode & S_IFMT),
                     read(0, buf, sizeof(buf)));
    } else if (strcmp(sc, "closeall") == 0) {
        mem = touch(mib);
        int keep = open_fake();             /* created first, then everything is closed */
        close(keep);
        if (close_range(3, ~0u, 0) != 0) {
            perror("s-fds: close_range");
            return 1;
        }
        int fd = open("s-fds-fake-statm", O_RDONLY);
        snprintf(line, sizeof(line), "closeall: fd=%d held=%zu", fd, mib);
    } else if (strcmp(sc, "dup2") == 0) {
        mem = touch(mib);
        int fd = open_fake();
        DIR *d = opendir("/proc/self/fd");
        struct dirent *e;
        int targets[64], n = 0;
        while (d && (e = readdir(d)) != NULL && n < 64) {
            char path[300], to[300];
            snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
            ssize_t k = readlink(path, to, sizeof(to) - 1);
            if (k > 0) {
                to[k] = 0;
                size_t len = strlen(to);
                if (len > 6 && strcmp(to + len - 6, "/statm") == 0)
                    targets[n++] = atoi(e->d_name);
            }
        }
        if (d)
            closedir(d);
        for (int i = 0; i < n; i++)
            dup2(fd, targets[i]);
        if (fd != 3)
            dup2(fd, 3);
        snprintf(line, sizeof(line), "dup2: held=%zu", mib);
    } else {
        fprintf(stderr, "s-fds: unknown scenario '%s'\n", sc);
        return 2;
    }
    wait_ms(400);
    if (mem)
        BARRIER(mem);
    printf("%s work=%d\n", line, w);
    free(mem);
    return 0;
}
