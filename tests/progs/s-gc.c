/*
 * s-gc.c - allocates linked lists from the Boehm GC heap; collections happen.
 *
 * Usage:   s-gc [ROUNDS [NODES]]  (ROUNDS 1..100000, default 50; NODES 1..10000000, default 20000)
 * Stdout:  "rounds=R nodes=R*N sum=S collections=yes\n"
 *          default: "rounds=50 nodes=1000000 sum=9999500000 collections=yes"
 *          ("collections=yes" when GC_get_gc_no() > 0 at the end, "no" otherwise)
 * Exit:    0 (2 for a bad argument)
 * Build:   needs -lgc (libgc-dev)
 *
 * Each round builds a list of NODES nodes (one GC_MALLOC per node, values 0..NODES-1)
 * and sums it; the previous round's list becomes garbage, so the collector runs
 * (the default run allocates about 16 MB in 1,000,000 objects).
 * Boehm GC may start its own marker threads; they run only libgc code (no events).
 *
 * Calls (debug -O0 and release -O3 alike; verified with XRay basic mode), defaults R=50, N=20000:
 *   main                               1
 *   main > build_list                 50         (R)
 *   main > build_list > make_node  1000000       (R*N)
 *   main > sum_list                   50         (R)
 */
#include <gc.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

typedef struct Node {
    struct Node *next;
    long value;
} Node;

static NOINLINE Node *make_node(long value, Node *next)
{
    Node *n = GC_MALLOC(sizeof *n);
    if (!n) {
        fprintf(stderr, "s-gc: out of memory\n");
        exit(1);
    }
    n->value = value;
    n->next = next;
    BARRIER(n);
    return n;
}

static NOINLINE Node *build_list(long count)
{
    Node *head = NULL;
    for (long i = count - 1; i >= 0; i--)
        head = make_node(i, head);
    return head;
}

static NOINLINE long sum_list(const Node *n)
{
    long sum = 0;
    for (; n; n = n->next)
        sum += n->value;
    BARRIER(sum);
    return sum;
}

static inline __attribute__((always_inline)) int parse(const char *s, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || v < 1 || v > hi)
        return -1;
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    long rounds = 50, nodes = 20000;
    if (argc > 3 || (argc > 1 && parse(argv[1], 100000, &rounds) != 0) ||
        (argc > 2 && parse(argv[2], 10000000, &nodes) != 0)) {
        fprintf(stderr, "usage: s-gc [ROUNDS [NODES]]\n");
        return 2;
    }
    GC_INIT();
    long total = 0;
    for (long r = 0; r < rounds; r++) {
        Node *list = build_list(nodes);
        total += sum_list(list);
    }
    printf("rounds=%ld nodes=%ld sum=%ld collections=%s\n", rounds, rounds * nodes, total,
           GC_get_gc_no() > 0 ? "yes" : "no");
    return 0;
}
