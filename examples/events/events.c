/*
 * events.c - a Kafka consumer: reads JSON events from a topic, aggregates
 * them per key in batches, and prints a summary.
 *
 * Each message is one event, {"key": "sensor-07", "value": 41.25, "ts":
 * 1733140800123456} (ts: microseconds since the epoch, when it was made).
 * The consumer collects messages into a batch of up to --batch events, or
 * what arrived within 100 ms of the batch's first event, and hands it to
 * process_batch(), which parses every event with jansson and updates the
 * per-key statistics: count, mean and variance (Welford), min, max, events
 * whose timestamp went backwards, and the lag from the event's making to
 * its processing.  When it has consumed --events N (0: until SIGINT or
 * SIGTERM) it leaves the consumer group and prints the summary.
 *
 * --bootstrap HOST:PORT consumes from a real cluster (the topic must exist).
 * --bootstrap mock (the default) starts librdkafka's mock cluster inside the
 * process (rdkafka_mock.h: brokers speaking the Kafka protocol on loopback
 * TCP), creates the topic, and runs a producer thread that writes --events N
 * events to it at --rate events per second; the consumer reaches it over
 * TCP like any other cluster.
 *
 * --batch-log FILE writes one line per batch: its number, CLOCK_MONOTONIC
 * in ns just before and just after process_batch(), and its events, so that
 * the batches of any interval of the run can be counted afterwards.
 *
 * Build:  clang -std=c17 -O3 -pthread events.c -lrdkafka -ljansson -o events
 * Usage:  events [--bootstrap HOST:PORT|mock] [--topic T] [--group G] [--events N]
 *                [--rate R] [--batch B] [--keys K] [--batch-log FILE]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCH_WAIT_MS 100  /* a batch closes this long after its first event */
#define MOCK_PARTITIONS 4  /* the mock topic's partitions (one broker) */
#define MAX_BATCH 1000000L /* --batch at most */

struct options {
	const char *bootstrap; /* "mock" or HOST:PORT[,...] */
	const char *topic;
	const char *group;
	long events; /* stop after this many; 0: until a signal */
	long rate;   /* mock producer: events per second */
	long batch;  /* events per batch at most */
	long keys;   /* mock producer: distinct keys */
	const char *batch_log;
};

/* Statistics of one key. */
struct key_stats {
	char *key; /* owned */
	uint64_t hash;
	uint64_t count;
	double mean, m2; /* Welford: running mean and sum of squared deviations */
	double min, max;
	int64_t last_ts;
	uint64_t backwards; /* events older than the key's previous one */
};

/* All keys: an open-addressing table, doubled when half full. */
struct aggregate {
	struct key_stats *slots;
	size_t cap, used;
	uint64_t events, bad;
	double lag_sum_us, lag_max_us;
};

static atomic_int stop_requested; /* SIGINT/SIGTERM, or the producer failed */

static void on_signal(int sig)
{
	(void)sig;
	atomic_store(&stop_requested, 1);
}

static int64_t now_ns(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3u;
	return h;
}

static uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15u;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
	return x ^ (x >> 31);
}

/* ---- per-key statistics ------------------------------------------------ */

static int aggregate_grow(struct aggregate *a)
{
	size_t cap = a->cap ? a->cap * 2 : 64;
	struct key_stats *slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return -1;
	for (size_t i = 0; i < a->cap; i++) {
		if (!a->slots[i].key)
			continue;
		size_t j = a->slots[i].hash & (cap - 1);
		while (slots[j].key)
			j = (j + 1) & (cap - 1);
		slots[j] = a->slots[i];
	}
	free(a->slots);
	a->slots = slots;
	a->cap = cap;
	return 0;
}

/* The statistics of key, made on first sight; NULL when out of memory. */
static struct key_stats *aggregate_find(struct aggregate *a, const char *key)
{
	if (2 * (a->used + 1) > a->cap && aggregate_grow(a) != 0)
		return NULL;
	uint64_t h = fnv1a(key);
	size_t j = h & (a->cap - 1);
	while (a->slots[j].key) {
		if (a->slots[j].hash == h && strcmp(a->slots[j].key, key) == 0)
			return &a->slots[j];
		j = (j + 1) & (a->cap - 1);
	}
	struct key_stats *k = &a->slots[j];
	if (!(k->key = strdup(key)))
		return NULL;
	k->hash = h;
	k->min = INFINITY;
	k->max = -INFINITY;
	k->last_ts = INT64_MIN;
	a->used++;
	return k;
}

static void aggregate_release(struct aggregate *a)
{
	for (size_t i = 0; i < a->cap; i++)
		free(a->slots[i].key);
	free(a->slots);
}

/* Parse one event and add it to its key.  Returns 0, or -1 for an event
 * that is not {"key": string, "value": number, "ts": integer, ...}. */
static int add_event(struct aggregate *a, const void *payload, size_t len, int64_t now_us)
{
	json_error_t err;
	json_t *ev = json_loadb(payload, len, 0, &err);
	const char *key;
	double value;
	json_int_t ts;
	int rc = -1;
	if (ev && json_unpack_ex(ev, &err, 0, "{s:s, s:F, s:I}", "key", &key, "value", &value, "ts", &ts) == 0 &&
	    isfinite(value)) {
		struct key_stats *k = aggregate_find(a, key);
		if (k) {
			k->count++;
			double d = value - k->mean;
			k->mean += d / (double)k->count;
			k->m2 += d * (value - k->mean);
			k->min = fmin(k->min, value);
			k->max = fmax(k->max, value);
			if (ts < k->last_ts)
				k->backwards++;
			else
				k->last_ts = ts;
			double lag = (double)(now_us - ts);
			a->lag_sum_us += lag;
			a->lag_max_us = fmax(a->lag_max_us, lag);
			a->events++;
			rc = 0;
		}
	}
	json_decref(ev);
	if (rc != 0)
		a->bad++;
	return rc;
}

/* One batch of messages: every event parsed and aggregated.  The unit of
 * work of this consumer, and what a profile of it looks at: it stays a
 * function of its own. */
__attribute__((noinline)) size_t process_batch(struct aggregate *a, rd_kafka_message_t **msgs, size_t n)
{
	int64_t now_us = now_ns(CLOCK_REALTIME) / 1000;
	size_t ok = 0;
	for (size_t i = 0; i < n; i++)
		ok += add_event(a, msgs[i]->payload, msgs[i]->len, now_us) == 0;
	return ok;
}

/* ---- the mock cluster's producer --------------------------------------- */

struct producer {
	rd_kafka_t *rk; /* hosts the mock cluster */
	const struct options *opt;
	long produced;
	int failed;
};

/* Write opt->events events at opt->rate per second, spread over the keys. */
static void *produce_events(void *arg)
{
	struct producer *p = arg;
	const struct options *o = p->opt;
	int64_t start = now_ns(CLOCK_MONOTONIC);
	while (p->produced < o->events && !atomic_load(&stop_requested)) {
		double elapsed = (double)(now_ns(CLOCK_MONOTONIC) - start) / 1e9;
		long due =
			elapsed * (double)o->rate < (double)o->events ? (long)(elapsed * (double)o->rate) : o->events;
		while (p->produced < due) {
			uint64_t r = splitmix64((uint64_t)p->produced);
			long k = (long)(r % (uint64_t)o->keys);
			char key[32], value[160];
			int klen = snprintf(key, sizeof(key), "sensor-%02ld", k);
			/* Each key has its own level (10 per key index) and noise. */
			double v = 10.0 * (double)k + (double)((r >> 20) % 10000) / 100.0;
			int vlen = snprintf(value, sizeof(value),
					    "{\"key\": \"%s\", \"value\": %.2f, \"ts\": %" PRId64 "}", key, v,
					    now_ns(CLOCK_REALTIME) / 1000);
			rd_kafka_resp_err_t e =
				rd_kafka_producev(p->rk, RD_KAFKA_V_TOPIC(o->topic), RD_KAFKA_V_KEY(key, (size_t)klen),
						  RD_KAFKA_V_VALUE(value, (size_t)vlen),
						  RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
			if (e == RD_KAFKA_RESP_ERR__QUEUE_FULL) {
				rd_kafka_poll(p->rk, 10); /* wait for deliveries to make room */
				continue;
			}
			if (e) {
				fprintf(stderr, "events: cannot produce: %s\n", rd_kafka_err2str(e));
				p->failed = 1;
				atomic_store(&stop_requested, 1);
				return NULL;
			}
			p->produced++;
		}
		rd_kafka_poll(p->rk, 0);
		struct timespec tick = {0, 1000000};
		nanosleep(&tick, NULL);
	}
	rd_kafka_flush(p->rk, 10000);
	return NULL;
}

/* Delivery reports: a message the mock cluster did not take is an error. */
static void on_delivery(rd_kafka_t *rk, const rd_kafka_message_t *m, void *opaque)
{
	(void)rk;
	struct producer *p = opaque;
	if (m->err && !p->failed) {
		fprintf(stderr, "events: delivery failed: %s\n", rd_kafka_err2str(m->err));
		p->failed = 1;
		atomic_store(&stop_requested, 1);
	}
}

/* ---- set-up ------------------------------------------------------------ */

static int set(rd_kafka_conf_t *conf, const char *name, const char *value)
{
	char err[256];
	if (rd_kafka_conf_set(conf, name, value, err, sizeof(err)) == RD_KAFKA_CONF_OK)
		return 0;
	fprintf(stderr, "events: %s=%s: %s\n", name, value, err);
	return -1;
}

/* The mock cluster, made by librdkafka on the producer's handle
 * (test.mock.num.brokers), and its topic: returns the producer, or NULL after
 * printing why; *bootstrap is the cluster's address. */
static rd_kafka_t *start_mock(const struct options *o, struct producer *p, const char **bootstrap)
{
	char err[256];
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	/* log_level 4: warnings and errors; our own line names the cluster. */
	if (set(conf, "test.mock.num.brokers", "1") != 0 || set(conf, "log_level", "4") != 0 ||
	    set(conf, "linger.ms", "5") != 0) {
		rd_kafka_conf_destroy(conf);
		return NULL;
	}
	rd_kafka_conf_set_dr_msg_cb(conf, on_delivery);
	rd_kafka_conf_set_opaque(conf, p);
	rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof(err));
	if (!rk) {
		fprintf(stderr, "events: cannot start librdkafka's mock cluster: %s\n", err);
		return NULL;
	}
	rd_kafka_mock_cluster_t *mc = rd_kafka_handle_mock_cluster(rk);
	rd_kafka_resp_err_t e =
		mc ? rd_kafka_mock_topic_create(mc, o->topic, MOCK_PARTITIONS, 1) : RD_KAFKA_RESP_ERR__INVALID_ARG;
	if (e) {
		fprintf(stderr, "events: cannot create topic '%s' on the mock cluster: %s\n", o->topic,
			rd_kafka_err2str(e));
		rd_kafka_destroy(rk);
		return NULL;
	}
	*bootstrap = rd_kafka_mock_cluster_bootstraps(mc);
	return rk;
}

static rd_kafka_t *start_consumer(const struct options *o, const char *bootstrap, int mock)
{
	char err[256];
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	if (set(conf, "bootstrap.servers", bootstrap) != 0 || set(conf, "group.id", o->group) != 0 ||
	    set(conf, "auto.offset.reset", "earliest") != 0 ||
	    /* The mock broker answers a fetch that found nothing new only after
	     * fetch.wait.max.ms (500 ms by default), where a real one answers as
	     * soon as data arrives: without this, events would come in bursts. */
	    (mock && set(conf, "fetch.wait.max.ms", "10") != 0)) {
		rd_kafka_conf_destroy(conf);
		return NULL;
	}
	rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, err, sizeof(err));
	if (!rk) {
		fprintf(stderr, "events: cannot make a consumer: %s\n", err);
		return NULL;
	}
	rd_kafka_poll_set_consumer(rk);
	rd_kafka_topic_partition_list_t *topics = rd_kafka_topic_partition_list_new(1);
	rd_kafka_topic_partition_list_add(topics, o->topic, RD_KAFKA_PARTITION_UA);
	rd_kafka_resp_err_t e = rd_kafka_subscribe(rk, topics);
	rd_kafka_topic_partition_list_destroy(topics);
	if (e) {
		fprintf(stderr, "events: cannot subscribe to '%s': %s\n", o->topic, rd_kafka_err2str(e));
		rd_kafka_destroy(rk);
		return NULL;
	}
	return rk;
}

/* ---- the consumer loop ------------------------------------------------- */

struct progress {
	long consumed, batches;
	FILE *log; /* --batch-log, or NULL */
};

static void run_batch(struct aggregate *a, rd_kafka_message_t **msgs, size_t *n, struct progress *pr)
{
	int64_t t0 = now_ns(CLOCK_MONOTONIC);
	process_batch(a, msgs, *n);
	int64_t t1 = now_ns(CLOCK_MONOTONIC);
	pr->batches++;
	if (pr->log)
		fprintf(pr->log, "%ld %" PRId64 " %" PRId64 " %zu\n", pr->batches, t0, t1, *n);
	for (size_t i = 0; i < *n; i++)
		rd_kafka_message_destroy(msgs[i]);
	*n = 0;
}

/* Consume until opt->events (or a signal): batches of up to opt->batch
 * events, or what came within BATCH_WAIT_MS of a batch's first event.
 * Returns 0, or -1 after a fatal consumer error. */
static int consume(rd_kafka_t *rk, const struct options *o, struct aggregate *a, struct progress *pr)
{
	rd_kafka_message_t **msgs = malloc((size_t)o->batch * sizeof(*msgs));
	if (!msgs) {
		fprintf(stderr, "events: out of memory\n");
		return -1;
	}
	size_t n = 0;
	int64_t closes_at = 0;
	int rc = 0;
	while (!atomic_load(&stop_requested) && (o->events == 0 || pr->consumed < o->events)) {
		int wait_ms = BATCH_WAIT_MS;
		if (n > 0) {
			int64_t left = (closes_at - now_ns(CLOCK_MONOTONIC)) / 1000000;
			wait_ms = left < 0 ? 0 : (int)left;
		}
		rd_kafka_message_t *m = rd_kafka_consumer_poll(rk, wait_ms);
		if (m && m->err) {
			char fatal[256];
			if (rd_kafka_fatal_error(rk, fatal, sizeof(fatal))) {
				fprintf(stderr, "events: consumer failed: %s\n", fatal);
				rd_kafka_message_destroy(m);
				rc = -1;
				break;
			}
			/* Transient (a broker that went away, a rebalance): librdkafka retries. */
			fprintf(stderr, "events: %s\n", rd_kafka_message_errstr(m));
			rd_kafka_message_destroy(m);
			m = NULL;
		}
		if (m) {
			if (n == 0)
				closes_at = now_ns(CLOCK_MONOTONIC) + (int64_t)BATCH_WAIT_MS * 1000000;
			msgs[n++] = m;
			pr->consumed++;
		}
		int last = o->events > 0 && pr->consumed >= o->events;
		if (n > 0 && (n == (size_t)o->batch || last || now_ns(CLOCK_MONOTONIC) >= closes_at))
			run_batch(a, msgs, &n, pr);
	}
	if (n > 0) /* stopped by a signal: what was consumed is processed */
		run_batch(a, msgs, &n, pr);
	free(msgs);
	return rc;
}

/* ---- summary ----------------------------------------------------------- */

static int by_count(const void *x, const void *y)
{
	const struct key_stats *a = *(struct key_stats *const *)x, *b = *(struct key_stats *const *)y;
	if (a->count != b->count)
		return a->count < b->count ? 1 : -1;
	return strcmp(a->key, b->key);
}

static void print_summary(const struct aggregate *a, const struct progress *pr, double seconds)
{
	printf("consumed: %ld events in %ld batches (%.2f s, %.0f events/s)\n", pr->consumed, pr->batches, seconds,
	       seconds > 0 ? (double)pr->consumed / seconds : 0.0);
	printf("aggregated: %" PRIu64 " events, %zu keys, %" PRIu64 " not events\n", a->events, a->used, a->bad);
	if (a->events)
		printf("lag: mean %.1f ms, max %.1f ms\n", a->lag_sum_us / (double)a->events / 1000.0,
		       a->lag_max_us / 1000.0);
	struct key_stats **keys = malloc((a->used + 1) * sizeof(*keys));
	if (!keys)
		return;
	size_t n = 0;
	uint64_t backwards = 0;
	for (size_t i = 0; i < a->cap; i++)
		if (a->slots[i].key) {
			keys[n++] = &a->slots[i];
			backwards += a->slots[i].backwards;
		}
	printf("out of order: %" PRIu64 "\n", backwards);
	qsort(keys, n, sizeof(*keys), by_count);
	for (size_t i = 0; i < n && i < 5; i++) {
		const struct key_stats *k = keys[i];
		printf("  %-12s %8" PRIu64 " events  mean %8.2f  sd %7.2f  min %8.2f  max %8.2f\n", k->key, k->count,
		       k->mean, k->count > 1 ? sqrt(k->m2 / (double)(k->count - 1)) : 0.0, k->min, k->max);
	}
	free(keys);
}

/* ---- main -------------------------------------------------------------- */

static void usage(FILE *f)
{
	fputs("usage: events [--bootstrap HOST:PORT|mock] [--topic T] [--group G] [--events N] [--rate R]\n"
	      "              [--batch B] [--keys K] [--batch-log FILE]\n",
	      f);
}

static int bad_usage(const char *fmt, const char *what)
{
	fputs("events: ", stderr);
	fprintf(stderr, fmt, what);
	fputc('\n', stderr);
	usage(stderr);
	return 2;
}

static int number(const char *s, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct {
		const char *name;
		long lo, hi;
		size_t off;
	} nums[] = {
		{"--events", 0, 1000000000L, offsetof(struct options, events)},
		{"--rate", 1, 10000000L, offsetof(struct options, rate)},
		{"--batch", 1, MAX_BATCH, offsetof(struct options, batch)},
		{"--keys", 1, 100, offsetof(struct options, keys)},
	};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			exit(0);
		}
		if (i + 1 >= argc)
			return bad_usage("'%s' needs a value (or is not an option)", a);
		const char *v = argv[++i];
		if (strcmp(a, "--bootstrap") == 0)
			o->bootstrap = v;
		else if (strcmp(a, "--topic") == 0)
			o->topic = v;
		else if (strcmp(a, "--group") == 0)
			o->group = v;
		else if (strcmp(a, "--batch-log") == 0)
			o->batch_log = v;
		else {
			size_t k = 0;
			while (k < sizeof(nums) / sizeof(nums[0]) && strcmp(a, nums[k].name) != 0)
				k++;
			if (k == sizeof(nums) / sizeof(nums[0]))
				return bad_usage("unknown option '%s'", a);
			if (number(v, nums[k].lo, nums[k].hi, (long *)((char *)o + nums[k].off)) != 0)
				return bad_usage("invalid value for %s", a);
		}
	}
	if (strcmp(o->bootstrap, "mock") == 0 && o->events == 0)
		return bad_usage("%s needs --events N with N > 0 (its producer writes N events)", "--bootstrap mock");
	return 0;
}

int main(int argc, char **argv)
{
	struct options o = {"mock", "events", "events-example", 100000, 20000, 500, 64, NULL};
	int rc = parse_args(argc, argv, &o);
	if (rc)
		return rc;
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	struct progress pr = {0, 0, NULL};
	if (o.batch_log && !(pr.log = fopen(o.batch_log, "w"))) {
		fprintf(stderr, "events: cannot write '%s': %s\n", o.batch_log, strerror(errno));
		return 1;
	}
	struct producer prod = {NULL, &o, 0, 0};
	pthread_t producer_thread;
	int mock = strcmp(o.bootstrap, "mock") == 0;
	const char *bootstrap = o.bootstrap;
	if (mock && !(prod.rk = start_mock(&o, &prod, &bootstrap)))
		return 1;
	fprintf(stderr, "events: consuming '%s' from %s%s (librdkafka %s)\n", o.topic, bootstrap,
		mock ? ", librdkafka's mock cluster" : "", rd_kafka_version_str());
	rd_kafka_t *consumer = start_consumer(&o, bootstrap, mock);
	if (consumer && mock && (errno = pthread_create(&producer_thread, NULL, produce_events, &prod)) != 0) {
		fprintf(stderr, "events: cannot start the producer: %s\n", strerror(errno));
		rd_kafka_destroy(consumer);
		consumer = NULL;
	}
	if (!consumer) {
		if (mock)
			rd_kafka_destroy(prod.rk);
		return 1;
	}

	struct aggregate agg = {0};
	int64_t t0 = now_ns(CLOCK_MONOTONIC);
	rc = consume(consumer, &o, &agg, &pr);
	double seconds = (double)(now_ns(CLOCK_MONOTONIC) - t0) / 1e9;
	if (mock) {
		atomic_store(&stop_requested, 1); /* the producer is done, or must stop now */
		pthread_join(producer_thread, NULL);
	}
	rd_kafka_consumer_close(consumer);
	rd_kafka_destroy(consumer);
	if (mock)
		rd_kafka_destroy(prod.rk); /* and its mock cluster */
	if (pr.log && fclose(pr.log) != 0) {
		fprintf(stderr, "events: cannot write '%s': %s\n", o.batch_log, strerror(errno));
		rc = -1;
	}
	print_summary(&agg, &pr, seconds);
	aggregate_release(&agg);
	return rc != 0 || prod.failed ? 1 : 0;
}
