/* sortstats: the library's interface (C, also used from C++). */
#ifndef SORTSTATS_H
#define SORTSTATS_H
#ifdef __cplusplus
extern "C" {
#endif

/* Sorts a[0..n) in place (top-down merge sort; tmp has room for n). */
void merge_sort(long *a, long *tmp, long n);
double mean(const long *a, long n);
long percentile(const long *sorted, long n, int pct);
/* Writes the summary line (C++, report.cc). */
void write_report(long n, double avg, long p50, long p99);

#ifdef __cplusplus
}
#endif
#endif
