// s-allocxx.cc - C++ heap allocations of known sizes on known call paths:
// operator new and delete in their plain, array, aligned and nothrow forms,
// and standard containers, with one known leak.
//
// Usage: s-allocxx          stdout: "sum 5605"   exit 0
//
// Calls: main 1; main > nodes 1; main > arrays 1; main > aligned 1;
// main > vec 1; main > mapfill 1.
//
// Allocations made below each of main's callees (the containers' own
// allocation happens in the library templates' functions below them, which
// are traced too; these figures are for the whole subtree):
//   main > nodes    5 x new Node (24 bytes); 4 deleted, 1 leaked (24 bytes)
//   main > arrays   new int[10] (40 bytes), new (std::nothrow) char[7]; both delete[]d
//   main > aligned  new Wide (alignas(64), 64 bytes: aligned operator new), deleted
//   main > vec      std::vector<int>, reserve(100): one 400-byte block, freed
//   main > mapfill  std::map<int, int>, 3 inserts: three 40-byte nodes, freed
// Totals: 12 allocations, 24*5 + 40 + 7 + 64 + 400 + 120 = 751 bytes,
// 24 bytes live at exit.
#include <cstdio>
#include <map>
#include <new>
#include <vector>

#define NOINLINE __attribute__((noinline))

struct Node {
	long a, b, c;
};

struct alignas(64) Wide {
	char bytes[64];
};

static Node *leaked;

NOINLINE static long nodes()
{
	Node *n[5];
	for (int i = 0; i < 5; i++)
		n[i] = new Node{i, i, i};
	long s = 0;
	for (int i = 0; i < 4; i++) {
		s += n[i]->a;
		delete n[i];
	}
	leaked = n[4];
	return s;
}

NOINLINE static long arrays()
{
	int *a = new int[10];
	char *c = new (std::nothrow) char[7];
	long s = 0;
	for (int i = 0; i < 10; i++)
		s += (a[i] = i);
	c[0] = 1;
	s += c[0];
	delete[] a;
	delete[] c;
	return s;
}

NOINLINE static long aligned()
{
	Wide *w = new Wide;
	w->bytes[0] = 3;
	long s = w->bytes[0];
	delete w;
	return s;
}

NOINLINE static long vec()
{
	std::vector<int> v;
	v.reserve(100);
	for (int i = 0; i < 100; i++)
		v.push_back(i);
	long s = 0;
	for (int x : v)
		s += x;
	return s;
}

NOINLINE static long mapfill()
{
	std::map<int, int> m;
	for (int i = 1; i <= 3; i++)
		m[i] = i * 100;
	long s = 0;
	for (auto &kv : m)
		s += kv.second;
	return s;
}

int main()
{
	long s = nodes() + arrays() + aligned() + vec() + mapfill();
	std::printf("sum %ld\n", s);
	return leaked ? 0 : 1;
}
