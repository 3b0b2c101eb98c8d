/*
 * s-inlinexx.cc - C++ code inlined into functions in namespaces, for the samples' inline chains.
 *
 * Usage:   s-inlinexx [N]   (default 40000000)
 * Stdout:  "inlinexx: X Y"   (the values of the two dependency chains)
 * Exit:    0 (2 for a bad argument)
 *
 * Each loop runs the same body (one step of a 64-bit LCG through an asm barrier) N times on a
 * line of its own, marked LINE_*; the tests find the lines by those markers.
 *   app::run: calls app::Engine::step (always_inline), which calls the function template
 *     app::detail::mix<unsigned long> (always_inline): N steps there (LINE_MIX), called on
 *     LINE_RUN_CALL, and N steps of its own (LINE_RUN): half its samples each, the inlined ones
 *     at LINE_RUN_CALL with the chain "app::Engine::step(...) > ...app::detail::mix<...>(...)".
 *   app::with_lambda: a lambda (always_inline) runs N steps (LINE_LAMBDA), called on
 *     LINE_LAMBDA_CALL, and N steps of its own (LINE_WITH): half each, the lambda's at
 *     LINE_LAMBDA_CALL with the lambda's operator() as the chain.
 *
 * Calls: main 1; main > app::run(long) 1; main > app::with_lambda(long) 1.
 */
#include <cstdio>
#include <cstdlib>

#define AI inline __attribute__((always_inline))
#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))
#define K 6364136223846793005UL
#define C 1442695040888963407UL

namespace app {
namespace detail {
template <typename T> AI T mix(T x, long n)
{
    for (long i = 0; i < n; i++) { x = x * K + C; BARRIER(x); } /* LINE_MIX */
    return x;
}
} // namespace detail

struct Engine {
    unsigned long seed;
    AI unsigned long step(long n) { return detail::mix(seed, n); } /* LINE_STEP */
};

NOINLINE unsigned long run(long n)
{
    Engine e{3};
    unsigned long x = e.step(n); /* LINE_RUN_CALL */
    for (long i = 0; i < n; i++) { x = x * K + C; BARRIER(x); } /* LINE_RUN */
    return x;
}

NOINLINE unsigned long with_lambda(long n)
{
    unsigned long y = 5;
    auto spin = [&y](long m) __attribute__((always_inline)) {
        for (long i = 0; i < m; i++) { y = y * K + C; BARRIER(y); } /* LINE_LAMBDA */
    };
    spin(n); /* LINE_LAMBDA_CALL */
    for (long i = 0; i < n; i++) { y = y * K + C; BARRIER(y); } /* LINE_WITH */
    return y;
}
} // namespace app

int main(int argc, char **argv)
{
    long n = argc > 1 ? std::atol(argv[1]) : 40000000L;
    if (n < 1) {
        std::fprintf(stderr, "usage: s-inlinexx [N]\n");
        return 2;
    }
    unsigned long x = app::run(n);
    std::printf("inlinexx: %lu %lu\n", x, app::with_lambda(n));
    return 0;
}
