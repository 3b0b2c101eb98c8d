/*
 * s-cxx.cc - a small C++ program for demangling tests: namespaces, a template
 * instantiated twice, a class with a constructor, methods and an operator.
 *
 * Usage:   s-cxx                  (no arguments)
 * Stdout:  "balance=37.5 scaled=12 posts=5\n"
 * Exit:    0
 * Build:   clang++ (C++17). No standard-library templates are used, so at -O0 too the
 *          instrumented functions are exactly the ones listed below.
 *
 * Calls, verified with XRay basic mode; demangled name [mangled name]:
 *   main                                                                  1
 *   main > bank::Ledger::Ledger(double)            [_ZN4bank6LedgerC2Ed]   1
 *   main > bank::Ledger::post(double)              [_ZN4bank6Ledger4postEd]  5
 *   main > bank::Ledger::post(double) > double bank::risk::scale<double>(double, double)
 *                                                  [_ZN4bank4risk5scaleIdEET_S2_S2_]  5
 *   main > int bank::risk::scale<int>(int, int)    [_ZN4bank4risk5scaleIiEET_S2_S2_]  3
 *   main > bank::Ledger::operator+=(double)        [_ZN4bank6LedgerpLEd]   2
 *   main > (anonymous namespace)::report(bank::Ledger const&, int)
 *                                                  [_ZN12_GLOBAL__N_16reportERKN4bank6LedgerEi]  1
 *   main > report > bank::Ledger::balance() const  [_ZNK4bank6Ledger7balanceEv]  1
 *   debug (-O0) only, because posts() is an ordinary inline member function, which -O3 inlines:
 *   main > report > bank::Ledger::posts() const    [_ZNK4bank6Ledger5postsEv]  1
 *   release (-O3) only: report() ends with a TAIL exit, not EXIT, because its last
 *   call, printf, is compiled to a jmp into libc (no ENTER follows).
 * The constructor is emitted only as the base-object constructor (C2). clang calls it
 * for complete objects too, because the class has no virtual bases.
 */
#include <cstdio>

#define NOINLINE __attribute__((noinline))
/* A floating-point register the compiler cannot see through: SSE on x86-64, SIMD&FP on AArch64. */
#if defined(__aarch64__)
#define FP_REG(v) "+w"(v)
#else
#define FP_REG(v) "+x"(v)
#endif
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

namespace bank {

namespace risk {

template <typename T> NOINLINE T scale(T value, T factor)
{
    T r = value * factor;
    BARRIER(r);
    return r;
}

} // namespace risk

class Ledger {
  public:
    NOINLINE explicit Ledger(double opening) : total_(opening), posts_(0) { BARRIER(posts_); }

    NOINLINE void post(double amount)
    {
        total_ += risk::scale<double>(amount, 0.5);
        posts_++;
    }

    NOINLINE Ledger &operator+=(double amount)
    {
        total_ += amount;
        BARRIER(posts_);
        return *this;
    }

    NOINLINE double balance() const
    {
        double b = total_;
        __asm__ __volatile__("" : FP_REG(b));
        return b;
    }

    int posts() const { return posts_; }

  private:
    double total_;
    int posts_;
};

} // namespace bank

namespace {

NOINLINE void report(const bank::Ledger &ledger, int scaled)
{
    std::printf("balance=%.1f scaled=%d posts=%d\n", ledger.balance(), scaled, ledger.posts());
}

} // namespace

int main()
{
    bank::Ledger ledger(10.0);
    for (int i = 1; i <= 5; i++)
        ledger.post(static_cast<double>(i)); /* + (1+2+3+4+5) / 2 = 7.5 */
    int scaled = 0;
    for (int i = 1; i <= 3; i++)
        scaled += bank::risk::scale<int>(i, 2); /* 2 + 4 + 6 = 12 */
    ledger += 12.0;
    ledger += 8.0;
    report(ledger, scaled);
    return 0;
}
