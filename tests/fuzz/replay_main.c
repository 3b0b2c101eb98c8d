/*
 * replay_main.c - run corpus files through a fuzz target without libFuzzer.
 *
 *   fuzz-replay-<target> DIR|FILE...
 *
 * Each file is read and passed to LLVMFuzzerTestOneInput() once, in name
 * order.  A crash or sanitizer report fails the run (and names the file, which
 * is printed before it is tried); so does finding no file at all, which means
 * a wrong corpus path.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	size_t cap = 4096, len = 0;
	uint8_t *buf = malloc(cap);
	size_t n;
	while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			uint8_t *p = realloc(buf, cap * 2);
			if (!p) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = p;
			cap *= 2;
		}
	}
	fclose(f);
	if (!buf) {
		fprintf(stderr, "%s: out of memory\n", path);
		return -1;
	}
	printf("replay %s (%zu bytes)\n", path, len);
	fflush(stdout);
	/* An exact-size copy, so that reading past the input is caught. */
	uint8_t *exact = malloc(len ? len : 1);
	if (!exact) {
		free(buf);
		return -1;
	}
	memcpy(exact, buf, len);
	free(buf);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char **argv)
{
	size_t files = 0;
	int bad = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			perror(argv[i]);
			bad = 1;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			bad |= run_file(argv[i]) != 0;
			files++;
			continue;
		}
		struct dirent **names;
		int n = scandir(argv[i], &names, NULL, by_name);
		for (int k = 0; k < n; k++) {
			if (names[k]->d_name[0] != '.') {
				char path[4096];
				snprintf(path, sizeof(path), "%s/%s", argv[i], names[k]->d_name);
				bad |= run_file(path) != 0;
				files++;
			}
			free(names[k]);
		}
		free(n >= 0 ? names : NULL);
	}
	if (!files) {
		fprintf(stderr, "no corpus file found\n");
		return 1;
	}
	printf("%zu input(s) replayed%s\n", files, bad ? ", some could not be read" : " without a crash");
	return bad;
}
