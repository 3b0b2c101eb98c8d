/* Asks the real XRay runtime (compiler-rt) for its ids: prints
 *   max N                          __xray_max_function_id()
 *   addr ID 0xRUNTIME_ADDRESS      __xray_function_address(ID) for 1..N
 *   ref 0xRUNTIME_ADDRESS          &rt_alpha, to compute the load bias
 *   event NAME ID                  the first id a handler saw after calling NAME
 * The XRay C++ header is not usable from C, so the few entry points used
 * are declared here (their enums are int-sized). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

extern int __xray_set_handler(void (*entry)(int32_t, int));
extern int __xray_patch(void);
extern uintptr_t __xray_function_address(int32_t id);
extern size_t __xray_max_function_id(void);

static volatile int32_t last_entry;

__attribute__((xray_never_instrument)) static void handler(int32_t id, int type)
{
	if (type == 0 && last_entry == 0)
		last_entry = id;
}

__attribute__((noinline)) int rt_alpha(int x) { return x + 1; }
__attribute__((noinline)) int rt_beta(int x) { return x * 2; }
__attribute__((noinline)) static int rt_static(int x) { return x - 3; }
__attribute__((noinline)) int rt_gamma(int x) { return rt_static(x) + rt_beta(x); }

#define CALL(fn, arg)                                            \
	do {                                                     \
		last_entry = 0;                                  \
		sink += fn(arg);                                 \
		printf("event %s %d\n", #fn, (int)last_entry);  \
	} while (0)

__attribute__((xray_never_instrument)) int main(int argc, char **argv)
{
	(void)argv;
	if (__xray_set_handler(handler) != 1 || __xray_patch() != 1) {
		printf("xray setup failed\n");
		return 1;
	}
	size_t n = __xray_max_function_id();
	printf("max %zu\n", n);
	for (size_t i = 1; i <= n; i++)
		printf("addr %zu 0x%jx\n", i, (uintmax_t)__xray_function_address((int32_t)i));
	printf("ref 0x%jx\n", (uintmax_t)(uintptr_t)&rt_alpha);
	volatile int sink = 0;
	CALL(rt_alpha, argc);
	CALL(rt_beta, argc);
	CALL(rt_static, argc);
	CALL(rt_gamma, argc);
	return sink == 12345;
}
