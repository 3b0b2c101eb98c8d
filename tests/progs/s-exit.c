/*
 * s-exit.c - leaves through exit(STATUS) or _exit(STATUS) from inside a call.
 *
 * Usage:   s-exit [STATUS]           exit(STATUS) from leave(), default STATUS 3
 *          s-exit --raw [STATUS]     _exit(STATUS) from leave_raw(), default STATUS 4
 *          (STATUS = 0..255)
 * Stdout:  exit mode:  "work done: calls=5\nleaving with exit(3)\natexit handler ran\n"
 *          raw mode:   "work done: calls=5\nleaving with _exit(4)\n"
 *          (stdout is flushed before exit/_exit, so it is complete on a pipe too)
 * Exit:    STATUS (3 resp. 4 by default); 2 for a bad argument
 *
 * main registers an atexit handler, calls work() 5 times, then leave()/leave_raw(),
 * which never returns: main, leave and leave_raw have no EXIT event. With exit(),
 * libc runs the atexit handlers while leave() is still on the stack, so
 * on_exit_handler is entered from inside leave() (libc's exit is not instrumented).
 * The handler runs before any handler registered earlier, e.g. by a runtime's
 * constructor (atexit handlers run last-registered first). _exit() runs no handlers.
 *
 * Calls (debug -O0 and release -O3 alike; verified with XRay basic mode):
 *   exit mode (default)                          raw mode (--raw)
 *     main                          1              main                 1
 *     main > work                   5              main > work          5
 *     main > leave                  1              main > leave_raw     1
 *     main > leave > on_exit_handler 1
 *   Functions still on the stack when the process ends: main, leave (resp. leave_raw).
 *   Release (-O3) only: on_exit_handler ends with a TAIL exit, not EXIT, because its
 *   last call, fflush(stdout), is compiled to a jmp into libc (no ENTER follows).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static NOINLINE int work(int x)
{
    BARRIER(x);
    return x + 1;
}

static NOINLINE void on_exit_handler(void)
{
    printf("atexit handler ran\n");
    fflush(stdout);
}

static NOINLINE __attribute__((noreturn)) void leave(int status)
{
    printf("leaving with exit(%d)\n", status);
    fflush(stdout);
    exit(status);
}

static NOINLINE __attribute__((noreturn)) void leave_raw(int status)
{
    printf("leaving with _exit(%d)\n", status);
    fflush(stdout);
    _exit(status);
}

int main(int argc, char **argv)
{
    int raw = 0, status = -1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--raw") == 0) {
            raw = 1;
        } else {
            char *end;
            long v = strtol(argv[i], &end, 10);
            if (end == argv[i] || *end != '\0' || v < 0 || v > 255 || status >= 0) {
                fprintf(stderr, "usage: s-exit [--raw] [STATUS]   (STATUS = 0..255)\n");
                return 2;
            }
            status = (int)v;
        }
    }
    if (status < 0)
        status = raw ? 4 : 3;

    atexit(on_exit_handler);
    int calls = 0;
    for (int i = 0; i < 5; i++)
        calls = work(calls);
    printf("work done: calls=%d\n", calls);
    fflush(stdout);
    if (raw)
        leave_raw(status);
    leave(status);
}
