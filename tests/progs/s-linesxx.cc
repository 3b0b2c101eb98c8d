/*
 * s-linesxx.cc - C++ names for `profile report --lines`: a function template in nested
 * namespaces and two overloads, each doing known work, so that each has instruction samples.
 *
 * Usage:   s-linesxx [STEPS]   (default 100000000)
 * Stdout:  "linesxx: S"
 * Exit:    0
 *
 * Calls: main 1; main > app::detail::spin<unsigned long> 1; main > ns::over(long) 1;
 *        main > ns::over(double) 1.
 */
#include <cstdio>
#include <cstdlib>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

namespace app {
namespace detail {
template <typename T> NOINLINE T spin(T x, long n)
{
    for (long i = 0; i < n; i++) {
        x = x * 6364136223846793005UL + 1442695040888963407UL;
        BARRIER(x);
    }
    return x;
}
} // namespace detail
} // namespace app

namespace ns {
NOINLINE unsigned long over(long n)
{
    unsigned long x = 3;
    for (long i = 0; i < n; i++) {
        x = x * 2862933555777941757UL + 3037000493UL;
        BARRIER(x);
    }
    return x;
}

NOINLINE unsigned long over(double n)
{
    unsigned long x = 5;
    for (long i = 0; i < (long)n; i++) {
        x = x * 3935559000370003845UL + 2691343689449507681UL;
        BARRIER(x);
    }
    return x;
}
} // namespace ns

int main(int argc, char **argv)
{
    long n = argc > 1 ? std::atol(argv[1]) : 100000000L;
    unsigned long s = app::detail::spin<unsigned long>(1, n) ^ ns::over(n) ^ ns::over((double)n);
    std::printf("linesxx: %lu\n", s % 1000);
    return 0;
}
