/*
 * s-tail.c - tail calls: XRay TAIL exits at -O2/-O3.
 *
 * Usage:   s-tail                 (no arguments)
 * Stdout:  "sum=30\n"
 * Exit:    0
 *
 * middle() ends with "return leaf(x + 1);" and relay() ends with "return middle(x * 2);".
 * At -O0 these are ordinary call + ret. At -O2/-O3 clang compiles them to "jmp leaf"
 * and "jmp middle", and XRay puts a TAIL sled (kind tail-exit, `llvm-xray extract`)
 * just before the jmp. The function's exit is therefore recorded BEFORE the callee
 * is entered, and a profiler building the tree from XRay events sees the callee as
 * a child of the tail-calling function's caller. (Check for the jmp with
 * `objdump -d --no-show-raw-insn s-tail | grep -A12 '<middle>:'`.)
 *
 * main calls middle(i) for i = 0..3, leaf(i) for i = 0..1 and relay(i) for i = 0..1.
 *
 * Calls, debug (-O0): no tail calls
 *   main                              1
 *   main > middle                     4
 *   main > middle > leaf              4
 *   main > leaf                       2
 *   main > relay                      2
 *   main > relay > middle             2
 *   main > relay > middle > leaf      2
 *
 * Calls, release (-O3): middle and relay end with TAIL exits
 *   main                              1
 *   main > middle                     6   (4 direct + 2 entered by relay's jmp)
 *   main > leaf                       8   (2 direct + 6 entered by middle's jmp)
 *   main > relay                      2
 *
 * Totals, both builds: leaf 8, middle 6, relay 2, main 1.
 */
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

static NOINLINE int leaf(int x)
{
    BARRIER(x);
    return x * 2;
}

static NOINLINE int middle(int x)
{
    BARRIER(x);
    return leaf(x + 1);
}

static NOINLINE int relay(int x)
{
    BARRIER(x);
    return middle(x * 2);
}

int main(void)
{
    int sum = 0;
    for (int i = 0; i < 4; i++)
        sum += middle(i); /* 2 + 4 + 6 + 8 = 20 */
    for (int i = 0; i < 2; i++)
        sum += leaf(i); /* 0 + 2 = 2 */
    for (int i = 0; i < 2; i++)
        sum += relay(i); /* middle(0) + middle(2) = 2 + 6 = 8 */
    printf("sum=%d\n", sum);
    return 0;
}
