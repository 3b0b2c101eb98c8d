/*
 * s-libcall.c - a traced function that spends its time in libc's memcpy, which keeps no frame
 * pointer: the instruction samples' call chains skip its caller (copier), which the analysis
 * puts back from the direct call in main (docs/summary-json.md, "Samples").
 *
 * Usage:   s-libcall [ROUNDS]   (default 150: about 0.1 s of copying 8 MiB blocks)
 * Stdout:  "copied: rounds=ROUNDS sum=S"
 * Exit:    0 (2 for a bad argument)
 *
 * Calls: main 1; main > copier 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))
#define BLOCK (8u << 20)

static NOINLINE long copier(char *dst, const char *src, int rounds)
{
    long sum = 0;
    for (int r = 0; r < rounds; r++) {
        memcpy(dst, src + (r & 63), BLOCK - 64);
        sum += dst[(unsigned)r * 4099u % (BLOCK - 64)];
        BARRIER(sum);
    }
    return sum;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 150;
    if (rounds < 1) {
        fprintf(stderr, "usage: s-libcall [ROUNDS]\n");
        return 2;
    }
    char *src = malloc(BLOCK), *dst = malloc(BLOCK);
    if (!src || !dst)
        return 1;
    for (unsigned i = 0; i < BLOCK; i++)
        src[i] = (char)(i * 31u);
    long sum = copier(dst, src, rounds);
    printf("copied: rounds=%d sum=%ld\n", rounds, sum);
    free(src);
    free(dst);
    return 0;
}
