// XRay symbolization test program (C++).  "@line NAME" marks expected lines.
#include <cstdio>

namespace ns {
struct Klass {
	int base;
	explicit Klass(int b);
	~Klass();
	int method(int x);
	template <typename T> __attribute__((noinline)) T twice(T v) { return v + v + static_cast<T>(base); }
};

__attribute__((noinline)) Klass::Klass(int b) : base(b) {}
__attribute__((noinline)) Klass::~Klass() { std::printf("bye %d\n", base); }

__attribute__((noinline)) int Klass::method(int x) // @line ns::Klass::method
{
	return x * base;
}

__attribute__((noinline)) int overloaded(int x) { return x + 1; }
__attribute__((noinline)) double overloaded(double x) { return x * 2.0; }
} // namespace ns

extern "C" __attribute__((noinline)) int plain_c_linkage(int v) // @line plain_c_linkage
{
	return v * 7;
}

static int apply(int (*fn)(int), int v) { return fn(v); }

int main(int argc, char **argv)
{
	ns::Klass k(argc);
	auto lam = [&k](int v) { return k.method(v) + 1; };
	int r = lam(argc) + k.twice<int>(argc) + static_cast<int>(k.twice<double>(1.5));
	r += ns::overloaded(argc) + static_cast<int>(ns::overloaded(0.5)) + apply(plain_c_linkage, argc);
	std::printf("%d %s\n", r, argv[0] != nullptr ? "ok" : "");
	return r == 12345 ? 1 : 0;
}
