/*
 * s-batch.c - batch-processing names for include-filter tests (e.g. "*process_batch*").
 *
 * Usage:   s-batch                (no arguments)
 * Stdout:  "header=3 small=4 large=2 records=240 checksum=662675\n"
 * Exit:    0
 *
 * main parses 3 header records and emits 1 header line itself, then runs 4 small
 * batches (10 records each) and 2 large batches (100 records each). Every record is
 * formatted as text, parsed by parse_record() and written by emit(). Only
 * process_batch_small and process_batch_large match "*process_batch*"; parse_record
 * and emit are called both inside and outside the matching functions.
 *
 * Calls (debug -O0 and release -O3 alike; verified with XRay basic mode):
 *   main                                          1
 *   main > parse_record                           3
 *   main > emit                                   1
 *   main > process_batch_small                    4
 *   main > process_batch_small > parse_record    40
 *   main > process_batch_small > emit            40
 *   main > process_batch_large                    2
 *   main > process_batch_large > parse_record   200
 *   main > process_batch_large > emit           200
 *   totals: parse_record 243, emit 241, process_batch_small 4, process_batch_large 2
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER(x) __asm__ __volatile__("" : "+r"(x))

typedef struct Record {
    long id;
    long amount;
} Record;

static long checksum;

static NOINLINE Record parse_record(const char *line)
{
    Record r = {0, 0};
    char *end;
    r.id = strtol(line, &end, 10);
    if (*end == ',')
        r.amount = strtol(end + 1, &end, 10);
    BARRIER(r.amount);
    return r;
}

static NOINLINE void emit(const Record *r)
{
    long v = r->id * 3 + r->amount;
    BARRIER(v);
    checksum += v;
}

static NOINLINE int process_batch_small(int batch)
{
    char line[64];
    for (int i = 0; i < 10; i++) {
        snprintf(line, sizeof line, "%d,%d", batch * 10 + i, i % 3);
        Record r = parse_record(line);
        emit(&r);
    }
    return 10;
}

static NOINLINE int process_batch_large(int batch)
{
    char line[64];
    for (int i = 0; i < 100; i++) {
        snprintf(line, sizeof line, "%d,%d", 1000 + batch * 100 + i, i % 7);
        Record r = parse_record(line);
        emit(&r);
    }
    return 100;
}

int main(void)
{
    static const char *const header[3] = {"1,0", "2,0", "3,0"};
    Record last = {0, 0};
    for (int i = 0; i < 3; i++)
        last = parse_record(header[i]);
    emit(&last);

    int records = 0, small = 0, large = 0;
    for (int b = 0; b < 4; b++, small++)
        records += process_batch_small(b);
    for (int b = 0; b < 2; b++, large++)
        records += process_batch_large(b);
    printf("header=3 small=%d large=%d records=%d checksum=%ld\n", small, large, records, checksum);
    return 0;
}
