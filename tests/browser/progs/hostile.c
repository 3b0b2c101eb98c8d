/* A program whose source file name, arguments and thread names are hostile markup, profiled by the
 * browser.hostile-e2e test: the report exaloop writes must show them as text and run no script.
 * The test copies this file to a name such as "<img src=x onerror=alert(1)>.c". */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long spin(unsigned long n)
{
	unsigned long s = 0;
	for (unsigned long i = 0; i < n; i++)
		s += i * 2654435761u;
	return s;
}

__attribute__((noinline)) static void *worker(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "\"><img src=x"); /* at most 15 bytes */
	sink += spin(3000000);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	pthread_setname_np(pthread_self(), "</script><b>x");
	if (pthread_create(&t, NULL, worker, NULL) != 0)
		return 1;
	sink += spin(2000000);
	pthread_join(t, NULL);
	printf("%d arguments, first: %s\n", argc - 1, argc > 1 ? argv[1] : "");
	return 0;
}
