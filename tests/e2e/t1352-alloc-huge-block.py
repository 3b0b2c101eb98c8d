"""A heap block too large for the address table's 32-bit size (4 GiB and more): its allocation and
its free are counted at the same size (malloc_usable_size's), so the path's live bytes and peak
stay right. Before, the allocation counted the size asked for and the free the usable size, larger:
after the free, the next allocation on the path read a live figure below zero, a peak of 2^62.
The block is never touched, so it costs address space, not memory."""
from xltest import *

SRC_C = r"""
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

static NOINLINE void *huge_then_small(void)
{
	void *big = malloc((size_t)4 << 30);
	if (!big)
		return NULL;
	free(big);
	return malloc(100);
}

int main(void)
{
	void *p = huge_then_small();
	printf("%s\n", p ? "ok" : "no memory");
	free(p);
	return 0;
}
"""

with Workdir() as w:
    src = os.path.join(w.path, "huge.c")
    with open(src, "w") as f:
        f.write(SRC_C)
    p = w.run(["--profile", "--no-open", "run", src])
    eq(p.returncode, 0, "exit status")
    if p.stdout.strip() == "no memory":
        print("skip: this machine refused a 4 GiB block (overcommit)")
        done()
    eq(p.stdout, "ok\n", "output")
    s = w.summary()
    a = [f["alloc"] for f in s.funcs if f["name"] == "huge_then_small"][0]
    eq(a["allocs"], 2, "two allocations on the path")
    check((4 << 30) + 100 <= a["bytes"] < (4 << 30) + 100 + (1 << 20),
          "bytes: the huge block at its usable size and 100 (%d)" % a["bytes"])
    eq(a["live_bytes"], 0, "nothing live at exit (the small block freed by main)")
    check((4 << 30) <= a["path_peak_bytes"] < (4 << 30) + (1 << 20),
          "peak live: the huge block (%d), not a wrapped figure" % a["path_peak_bytes"])
done()
