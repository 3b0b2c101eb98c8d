/*
 * loans.c - credit-portfolio stress test, the example program bundled with exaloop.
 *
 * Generates a deterministic synthetic loan book (default 250,000 loans), runs it
 * through a grid of 96 macroeconomic stress scenarios (GDP, unemployment, house
 * prices, interest rates), computes the expected loss of every loan under every
 * scenario over a three-year quarterly horizon, summarises each scenario by sector,
 * by rating and by obligor concentration, and exports a CSV report.
 *
 * Memory: the loan book, the scenario table and all per-scenario result and
 * temporary arrays live in the Boehm GC heap; the amortisation schedule table and
 * the CSV export buffer are plain malloc memory.
 *
 * Build:  clang -std=c17 -O3 loans.c -lgc -lm -o loans
 * Usage:  loans [--loans N] [--scenarios M] [OUTPUT.csv]
 *         (defaults: 250000 loans, 96 scenarios, loans_report.csv)
 */
#include <gc.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

enum {
    N_SECTORS = 8,
    N_REGIONS = 6,
    N_RATINGS = 7,
    GRID_SCENARIOS = 96, /* 4 GDP x 4 unemployment x 3 house-price x 2 rate shocks */
    HORIZON_Q = 12,      /* quarters of the stress horizon (three years) */
    LOANS_PER_OBLIGOR = 64,
};

#define DEFAULT_LOANS 250000L
#define MAX_LOANS 20000000L
#define DEFAULT_OUTPUT "loans_report.csv"

/* ------------------------------------------------------------------------- */
/* Reference data                                                            */
/* ------------------------------------------------------------------------- */

enum Sector { MORTGAGE, CONSUMER, AUTO, SME, COMMERCIAL_RE, ENERGY, RETAIL_TRADE, TECHNOLOGY };

static const char *const sector_names[N_SECTORS] = {
    "mortgage", "consumer", "auto", "sme", "commercial_re", "energy", "retail_trade", "technology",
};
static const char *const rating_names[N_RATINGS] = {"AAA", "AA", "A", "BBB", "BB", "B", "CCC"};

/* Share of the book per sector and per rating grade (each sums to 1). */
static const double sector_mix[N_SECTORS] = {0.30, 0.15, 0.10, 0.15, 0.10, 0.05, 0.08, 0.07};
static const double rating_mix[N_RATINGS] = {0.03, 0.07, 0.15, 0.30, 0.25, 0.15, 0.05};

/* Through-the-cycle one-year PD per rating grade. */
static const double rating_pd[N_RATINGS] = {0.0003, 0.0007, 0.0015, 0.0040, 0.0120, 0.0350, 0.1200};
/* Annual credit spread per rating grade. */
static const double rating_spread[N_RATINGS] = {0.004, 0.006, 0.009, 0.015, 0.028, 0.045, 0.080};

/* Per sector: median drawn balance, balance dispersion, base LGD, share revolving. */
static const double sector_median_balance[N_SECTORS] = {250e3, 15e3, 25e3, 400e3, 2.0e6, 5.0e6, 800e3, 1.2e6};
static const double sector_dispersion[N_SECTORS] = {0.45, 0.70, 0.40, 0.90, 0.80, 1.00, 0.75, 0.85};
static const double sector_base_lgd[N_SECTORS] = {0.15, 0.75, 0.45, 0.40, 0.30, 0.35, 0.50, 0.55};
static const double sector_revolving_share[N_SECTORS] = {0.0, 0.6, 0.0, 0.4, 0.0, 0.1, 0.3, 0.3};

/* Sensitivities of the PD logit to the macro shocks, per sector. */
static const double beta_gdp[N_SECTORS] = {0.10, 0.16, 0.14, 0.22, 0.18, 0.25, 0.20, 0.17};   /* per -1% GDP */
static const double beta_unemp[N_SECTORS] = {0.12, 0.20, 0.16, 0.10, 0.06, 0.04, 0.12, 0.08}; /* per +1pp   */
static const double beta_hpi[N_SECTORS] = {0.09, 0.02, 0.01, 0.03, 0.11, 0.00, 0.02, 0.01};   /* per -10% HPI */
static const double beta_rate[N_SECTORS] = {0.15, 0.10, 0.05, 0.22, 0.25, 0.12, 0.14, 0.18};  /* per +100bp (floating) */

/* Collateral haircut at origination and its sensitivity to house prices. */
static const double sector_haircut[N_SECTORS] = {0.10, 0.00, 0.25, 0.35, 0.20, 0.40, 0.45, 0.60};
static const double sector_hpi_haircut[N_SECTORS] = {1.00, 0.00, 0.10, 0.30, 1.20, 0.00, 0.20, 0.00};

/* Regional multiplier on the macro sensitivity. */
static const double region_multiplier[N_REGIONS] = {1.00, 1.10, 0.95, 1.05, 1.00, 1.20};

/* Scenario grid axes. */
static const double grid_gdp[4] = {-0.5, -2.0, -3.5, -5.0};       /* real GDP, % change */
static const double grid_unemp[4] = {0.5, 2.0, 3.5, 5.0};         /* unemployment, +pp */
static const double grid_hpi[3] = {-5.0, -20.0, -35.0};           /* house prices, % change */
static const double grid_rate[2] = {100.0, 300.0};                /* policy rate, +bp */

/* ------------------------------------------------------------------------- */
/* Types                                                                     */
/* ------------------------------------------------------------------------- */

enum { LOAN_REVOLVING = 1, LOAN_FLOATING = 2 };

typedef struct Loan {
    uint32_t id;
    uint32_t obligor;
    uint8_t sector;
    uint8_t region;
    uint8_t rating;
    uint8_t flags;
    uint16_t term_months;
    double balance;    /* drawn amount */
    double limit;      /* committed amount (== balance for term loans) */
    double rate;       /* annual contractual rate */
    double pd;         /* one-year through-the-cycle PD */
    double lgd;        /* base LGD */
    double collateral; /* current collateral value */
} Loan;

typedef struct Portfolio {
    Loan *loans;
    size_t count;
    size_t obligors;
    double exposure_by_sector[N_SECTORS];
    double exposure_by_rating[N_RATINGS];
    double total_exposure;
} Portfolio;

typedef struct Scenario {
    int index;
    double gdp;          /* % */
    double unemployment; /* +pp */
    double house_prices; /* % */
    double rate_bp;      /* +bp */
    char name[48];
} Scenario;

typedef struct ScenarioResult {
    int scenario;
    double total_el;
    double el_by_sector[N_SECTORS];
    double el_by_rating[N_RATINGS];
    double largest_loan_el;
    size_t obligors_with_loss;
    double obligor_p50, obligor_p95, obligor_p99;
    double top_obligor_share; /* share of total EL carried by the largest 1% of obligors */
} ScenarioResult;

typedef struct CsvBuffer {
    char *data;
    size_t len;
    size_t cap;
} CsvBuffer;

/* ------------------------------------------------------------------------- */
/* Deterministic random numbers (splitmix64)                                 */
/* ------------------------------------------------------------------------- */

typedef struct Rng {
    uint64_t state;
} Rng;

static inline uint64_t rng_next(Rng *r)
{
    uint64_t z = (r->state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static inline double rng_uniform(Rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

static inline double rng_range(Rng *r, double lo, double hi)
{
    return lo + (hi - lo) * rng_uniform(r);
}

/* Standard normal (Box-Muller, one value per call). */
static inline double rng_normal(Rng *r)
{
    double u1 = 1.0 - rng_uniform(r); /* (0, 1] */
    double u2 = rng_uniform(r);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

static inline int rng_pick(Rng *r, const double *weights, int n)
{
    double u = rng_uniform(r);
    for (int i = 0; i < n - 1; i++) {
        if (u < weights[i])
            return i;
        u -= weights[i];
    }
    return n - 1;
}

static inline double clamp(double x, double lo, double hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

/* ------------------------------------------------------------------------- */
/* Portfolio generation                                                      */
/* ------------------------------------------------------------------------- */

static NOINLINE void make_loan(Loan *loan, uint32_t id, size_t obligors, Rng *rng)
{
    int sector = rng_pick(rng, sector_mix, N_SECTORS);
    int rating = rng_pick(rng, rating_mix, N_RATINGS);

    loan->id = id;
    loan->obligor = (uint32_t)(rng_next(rng) % obligors);
    loan->sector = (uint8_t)sector;
    loan->region = (uint8_t)(rng_next(rng) % N_REGIONS);
    loan->rating = (uint8_t)rating;
    loan->flags = 0;

    double balance = sector_median_balance[sector] * exp(sector_dispersion[sector] * rng_normal(rng));
    loan->balance = round(balance * 100.0) / 100.0;

    if (rng_uniform(rng) < sector_revolving_share[sector]) {
        loan->flags |= LOAN_REVOLVING | LOAN_FLOATING;
        loan->limit = loan->balance / rng_range(rng, 0.30, 0.95);
        loan->term_months = 12;
    } else {
        loan->limit = loan->balance;
        switch (sector) {
        case MORTGAGE: loan->term_months = (uint16_t)(240 + 12 * (rng_next(rng) % 11)); break;
        case CONSUMER: loan->term_months = (uint16_t)(12 + 12 * (rng_next(rng) % 5)); break;
        case AUTO: loan->term_months = (uint16_t)(36 + 12 * (rng_next(rng) % 4)); break;
        default: loan->term_months = (uint16_t)(12 + 6 * (rng_next(rng) % 19)); break;
        }
        if (sector == SME || sector == COMMERCIAL_RE || rng_uniform(rng) < 0.25)
            loan->flags |= LOAN_FLOATING;
    }

    loan->rate = 0.03 + rating_spread[rating] + rng_range(rng, -0.002, 0.004);
    loan->pd = clamp(rating_pd[rating] * exp(0.25 * rng_normal(rng)), 0.0001, 0.5);
    loan->lgd = clamp(sector_base_lgd[sector] + 0.08 * rng_normal(rng), 0.05, 0.95);

    switch (sector) {
    case MORTGAGE: loan->collateral = loan->balance / rng_range(rng, 0.50, 0.95); break;
    case COMMERCIAL_RE: loan->collateral = loan->balance / rng_range(rng, 0.45, 0.75); break;
    case AUTO: loan->collateral = loan->balance * rng_range(rng, 0.80, 1.10); break;
    case SME: loan->collateral = loan->balance * rng_range(rng, 0.00, 0.80); break;
    case CONSUMER: loan->collateral = 0.0; break;
    default: loan->collateral = loan->balance * rng_range(rng, 0.00, 0.40); break;
    }
}

static NOINLINE Portfolio *generate_portfolio(size_t count, uint64_t seed)
{
    Portfolio *p = GC_MALLOC(sizeof *p);
    Loan *loans = GC_MALLOC_ATOMIC(count * sizeof *loans);
    if (!p || !loans) {
        fprintf(stderr, "loans: out of memory for %zu loans\n", count);
        exit(1);
    }
    memset(p, 0, sizeof *p);
    p->loans = loans;
    p->count = count;
    p->obligors = count / LOANS_PER_OBLIGOR > 0 ? count / LOANS_PER_OBLIGOR : 1;

    Rng rng = {seed};
    for (size_t i = 0; i < count; i++) {
        make_loan(&loans[i], (uint32_t)(100000 + i), p->obligors, &rng);
        p->exposure_by_sector[loans[i].sector] += loans[i].limit;
        p->exposure_by_rating[loans[i].rating] += loans[i].limit;
        p->total_exposure += loans[i].limit;
    }
    return p;
}

/* Scheduled drawn balance at the end of each horizon quarter (before stress). */
static NOINLINE void amortise_loan(const Loan *loan, double *schedule)
{
    if (loan->flags & LOAN_REVOLVING) {
        for (int q = 0; q < HORIZON_Q; q++)
            schedule[q] = loan->balance; /* revolving lines do not amortise */
        return;
    }
    double monthly = loan->rate / 12.0;
    int remaining = loan->term_months;
    double payment = loan->balance * monthly / (1.0 - pow(1.0 + monthly, -remaining));
    double balance = loan->balance;
    for (int q = 0; q < HORIZON_Q; q++) {
        for (int m = 0; m < 3; m++) {
            if (remaining == 0)
                break;
            double interest = balance * monthly;
            balance -= payment - interest;
            remaining--;
        }
        if (remaining == 0 || balance < 0.0)
            balance = 0.0;
        schedule[q] = balance;
    }
}

static NOINLINE double *build_schedules(const Portfolio *p)
{
    double *table = malloc(p->count * HORIZON_Q * sizeof *table);
    if (!table) {
        fprintf(stderr, "loans: out of memory for the schedule table\n");
        exit(1);
    }
    for (size_t i = 0; i < p->count; i++)
        amortise_loan(&p->loans[i], table + i * HORIZON_Q);
    return table;
}

/* ------------------------------------------------------------------------- */
/* Scenarios                                                                 */
/* ------------------------------------------------------------------------- */

static NOINLINE void scenario_from_grid(Scenario *s, int index, int grid_index)
{
    int r = grid_index % 2;
    int h = (grid_index / 2) % 3;
    int u = (grid_index / 6) % 4;
    int g = (grid_index / 24) % 4;
    s->index = index;
    s->gdp = grid_gdp[g];
    s->unemployment = grid_unemp[u];
    s->house_prices = grid_hpi[h];
    s->rate_bp = grid_rate[r];
    snprintf(s->name, sizeof s->name, "gdp%+.1f_unemp%+.1f_hpi%+.0f_rate%+.0f", s->gdp, s->unemployment,
             s->house_prices, s->rate_bp);
}

/* M scenarios spread evenly over the 96-point grid (all of it when M == 96). */
static NOINLINE Scenario *build_scenarios(int count)
{
    Scenario *scenarios = GC_MALLOC_ATOMIC((size_t)count * sizeof *scenarios);
    if (!scenarios) {
        fprintf(stderr, "loans: out of memory for scenarios\n");
        exit(1);
    }
    for (int i = 0; i < count; i++)
        scenario_from_grid(&scenarios[i], i, i * GRID_SCENARIOS / count);
    return scenarios;
}

/* ------------------------------------------------------------------------- */
/* Stressed risk parameters and expected loss                                */
/* ------------------------------------------------------------------------- */

/* One-year PD under the scenario: shift of the PD logit by the macro shocks. */
static NOINLINE double stressed_pd(const Loan *loan, const Scenario *s)
{
    int k = loan->sector;
    double shift = beta_gdp[k] * -s->gdp + beta_unemp[k] * s->unemployment + beta_hpi[k] * (-s->house_prices / 10.0);
    if (loan->flags & LOAN_FLOATING)
        shift += beta_rate[k] * (s->rate_bp / 100.0);
    shift *= region_multiplier[loan->region];
    shift *= 1.0 + 0.05 * loan->rating; /* weaker grades react more */
    double z = log(loan->pd / (1.0 - loan->pd)) + shift;
    return clamp(1.0 / (1.0 + exp(-z)), 0.0003, 0.999);
}

/* Exposure at default: revolving lines draw down part of the undrawn limit. */
static inline double stressed_ead(const Loan *loan, const Scenario *s)
{
    if (!(loan->flags & LOAN_REVOLVING))
        return loan->balance;
    double ccf = clamp(0.45 + 0.03 * s->unemployment - 0.02 * s->gdp, 0.0, 1.0);
    return loan->balance + ccf * (loan->limit - loan->balance);
}

/* LGD under the scenario: haircut the collateral, blend with the base LGD. */
static NOINLINE double stressed_lgd(const Loan *loan, const Scenario *s, double ead)
{
    if (ead <= 0.0)
        return loan->lgd;
    int k = loan->sector;
    double haircut = clamp(sector_haircut[k] + sector_hpi_haircut[k] * (-s->house_prices / 100.0), 0.0, 0.95);
    double recovery = loan->collateral * (1.0 - haircut) * 0.92; /* 8% workout costs */
    double secured_lgd = clamp(1.0 - recovery / ead, 0.05, 1.0);
    double downturn = 1.0 + 0.01 * s->unemployment;
    return clamp((0.4 * loan->lgd + 0.6 * secured_lgd) * downturn, 0.05, 1.0);
}

/* Lifetime expected loss over the horizon, discounted at the stressed loan rate. */
static NOINLINE double loan_expected_loss(const Loan *loan, const double *schedule, const Scenario *s)
{
    double ead0 = stressed_ead(loan, s);
    double pd = stressed_pd(loan, s);
    double lgd = stressed_lgd(loan, s, ead0);

    double hazard = -expm1(log1p(-pd) / 4.0); /* quarterly default probability */
    double rate = loan->rate + ((loan->flags & LOAN_FLOATING) ? s->rate_bp / 10000.0 : 0.0);
    double quarter_df = 1.0 / (1.0 + rate / 4.0);
    double scale = loan->balance > 0.0 ? ead0 / loan->balance : 0.0;

    double survival = 1.0, discount = 1.0, loss = 0.0;
    for (int q = 0; q < HORIZON_Q; q++) {
        double exposure = schedule[q] * scale;
        if (exposure <= 0.0)
            break;
        /* Stress intensifies in year one, then fades back over the horizon. */
        double path = q < 4 ? 1.0 + 0.10 * q : 1.3 - 0.05 * (q - 4);
        double h = hazard * path;
        if (h > 1.0)
            h = 1.0;
        double defaults = survival * h;
        discount *= quarter_df;
        loss += defaults * lgd * exposure * discount;
        survival -= defaults;
    }
    return loss;
}

/* ------------------------------------------------------------------------- */
/* Per-scenario summaries                                                    */
/* ------------------------------------------------------------------------- */

static int compare_loss(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static inline double percentile(const double *sorted, size_t n, double p)
{
    if (n == 0)
        return 0.0;
    double pos = p * (double)(n - 1);
    size_t lo = (size_t)pos;
    size_t hi = lo + 1 < n ? lo + 1 : lo;
    double frac = pos - (double)lo;
    return sorted[lo] * (1.0 - frac) + sorted[hi] * frac;
}

static NOINLINE void summarize_scenario(const Portfolio *p, const double *loan_el, ScenarioResult *r)
{
    for (size_t i = 0; i < p->count; i++) {
        const Loan *loan = &p->loans[i];
        double el = loan_el[i];
        r->total_el += el;
        r->el_by_sector[loan->sector] += el;
        r->el_by_rating[loan->rating] += el;
        if (el > r->largest_loan_el)
            r->largest_loan_el = el;
    }
}

/* Aggregate loan losses per obligor and describe their distribution. */
static NOINLINE void obligor_concentration(const Portfolio *p, const double *loan_el, ScenarioResult *r)
{
    double *by_obligor = GC_MALLOC_ATOMIC(p->obligors * sizeof *by_obligor);
    if (!by_obligor) {
        fprintf(stderr, "loans: out of memory for obligor losses\n");
        exit(1);
    }
    memset(by_obligor, 0, p->obligors * sizeof *by_obligor);
    for (size_t i = 0; i < p->count; i++)
        by_obligor[p->loans[i].obligor] += loan_el[i];

    qsort(by_obligor, p->obligors, sizeof *by_obligor, compare_loss);

    size_t n = p->obligors, with_loss = 0;
    for (size_t i = 0; i < n; i++)
        with_loss += by_obligor[i] > 0.0;
    r->obligors_with_loss = with_loss;
    r->obligor_p50 = percentile(by_obligor, n, 0.50);
    r->obligor_p95 = percentile(by_obligor, n, 0.95);
    r->obligor_p99 = percentile(by_obligor, n, 0.99);

    size_t top = n / 100 > 0 ? n / 100 : 1;
    double top_el = 0.0;
    for (size_t i = n - top; i < n; i++)
        top_el += by_obligor[i];
    r->top_obligor_share = r->total_el > 0.0 ? top_el / r->total_el : 0.0;
}

static NOINLINE ScenarioResult *portfolio_stress(const Portfolio *p, const double *schedules, const Scenario *s)
{
    ScenarioResult *r = GC_MALLOC_ATOMIC(sizeof *r);
    double *loan_el = GC_MALLOC_ATOMIC(p->count * sizeof *loan_el); /* per-scenario temporary */
    if (!r || !loan_el) {
        fprintf(stderr, "loans: out of memory in scenario %d\n", s->index);
        exit(1);
    }
    memset(r, 0, sizeof *r);
    r->scenario = s->index;

    for (size_t i = 0; i < p->count; i++)
        loan_el[i] = loan_expected_loss(&p->loans[i], schedules + i * HORIZON_Q, s);

    summarize_scenario(p, loan_el, r);
    obligor_concentration(p, loan_el, r);
    return r;
}

static int compare_results_desc(const void *a, const void *b)
{
    const ScenarioResult *x = *(const ScenarioResult *const *)a;
    const ScenarioResult *y = *(const ScenarioResult *const *)b;
    if (x->total_el != y->total_el)
        return x->total_el < y->total_el ? 1 : -1;
    return x->scenario - y->scenario;
}

/* Rank (1 = most severe) of each scenario by total expected loss. */
static NOINLINE int *rank_scenarios(ScenarioResult **results, int count)
{
    ScenarioResult **order = GC_MALLOC((size_t)count * sizeof *order);
    int *rank = GC_MALLOC_ATOMIC((size_t)count * sizeof *rank);
    if (!order || !rank) {
        fprintf(stderr, "loans: out of memory ranking scenarios\n");
        exit(1);
    }
    memcpy(order, results, (size_t)count * sizeof *order);
    qsort(order, (size_t)count, sizeof *order, compare_results_desc);
    for (int i = 0; i < count; i++)
        rank[order[i]->scenario] = i + 1;
    return rank;
}

/* ------------------------------------------------------------------------- */
/* CSV export                                                                */
/* ------------------------------------------------------------------------- */

static NOINLINE __attribute__((format(printf, 2, 3))) void csv_appendf(CsvBuffer *b, const char *fmt, ...)
{
    for (;;) {
        size_t room = b->cap - b->len;
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->data ? b->data + b->len : NULL, room, fmt, ap);
        va_end(ap);
        if (n < 0) {
            fprintf(stderr, "loans: formatting failed\n");
            exit(1);
        }
        if ((size_t)n < room) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap - b->len <= (size_t)n)
            cap *= 2;
        char *data = realloc(b->data, cap);
        if (!data) {
            fprintf(stderr, "loans: out of memory for the report\n");
            exit(1);
        }
        b->data = data;
        b->cap = cap;
    }
}

static void csv_segment(CsvBuffer *b, const char *record, const Scenario *s, int rank, const char *segment,
                        double exposure, double el)
{
    csv_appendf(b, "%s,%d,%s,%d,%.1f,%.1f,%.0f,%.0f,%s,%.2f,%.2f,%.6f", record, s->index, s->name, rank, s->gdp,
                s->unemployment, s->house_prices, s->rate_bp, segment, exposure, el,
                exposure > 0.0 ? el / exposure : 0.0);
}

static NOINLINE void write_report(CsvBuffer *b, const Portfolio *p, const Scenario *scenarios,
                                  ScenarioResult **results, const int *rank, int count)
{
    csv_appendf(b, "record,scenario,name,rank,gdp_pct,unemployment_pp,house_prices_pct,rate_shock_bp,"
                   "segment,exposure,expected_loss,loss_rate,largest_loan_el,obligors_with_loss,"
                   "obligor_p50,obligor_p95,obligor_p99,top1pct_obligor_share\n");
    for (int i = 0; i < count; i++) {
        const Scenario *s = &scenarios[i];
        const ScenarioResult *r = results[i];
        csv_segment(b, "scenario", s, rank[i], "all", p->total_exposure, r->total_el);
        csv_appendf(b, ",%.2f,%zu,%.2f,%.2f,%.2f,%.4f\n", r->largest_loan_el, r->obligors_with_loss, r->obligor_p50,
                    r->obligor_p95, r->obligor_p99, r->top_obligor_share);
        for (int k = 0; k < N_SECTORS; k++) {
            csv_segment(b, "sector", s, rank[i], sector_names[k], p->exposure_by_sector[k], r->el_by_sector[k]);
            csv_appendf(b, ",,,,,,\n");
        }
        for (int k = 0; k < N_RATINGS; k++) {
            csv_segment(b, "rating", s, rank[i], rating_names[k], p->exposure_by_rating[k], r->el_by_rating[k]);
            csv_appendf(b, ",,,,,,\n");
        }
    }
}

static NOINLINE int write_file(const char *path, const CsvBuffer *b)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t written = b->len ? fwrite(b->data, 1, b->len, f) : 0;
    int failed = written != b->len;
    if (fclose(f) != 0)
        failed = 1;
    if (failed) {
        perror(path);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------- */
/* Command line                                                              */
/* ------------------------------------------------------------------------- */

static void usage(void)
{
    fprintf(stderr, "usage: loans [--loans N] [--scenarios M] [OUTPUT.csv]\n"
                    "  --loans N       loans in the synthetic book (default %ld, at most %ld)\n"
                    "  --scenarios M   stress scenarios, 1..%d (default %d)\n"
                    "  OUTPUT.csv      report path (default %s)\n",
            DEFAULT_LOANS, MAX_LOANS, GRID_SCENARIOS, GRID_SCENARIOS, DEFAULT_OUTPUT);
}

static int parse_count(const char *text, long max, long *out)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < 1 || v > max)
        return -1;
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    long n_loans = DEFAULT_LOANS, n_scenarios = GRID_SCENARIOS;
    const char *output = DEFAULT_OUTPUT;
    int have_output = 0;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--loans") == 0 && i + 1 < argc) {
            if (parse_count(argv[++i], MAX_LOANS, &n_loans) != 0) {
                fprintf(stderr, "loans: invalid --loans value '%s'\n", argv[i]);
                return 2;
            }
        } else if (strcmp(argv[i], "--scenarios") == 0 && i + 1 < argc) {
            if (parse_count(argv[++i], GRID_SCENARIOS, &n_scenarios) != 0) {
                fprintf(stderr, "loans: invalid --scenarios value '%s'\n", argv[i]);
                return 2;
            }
        } else if (strcmp(argv[i], "--loans") == 0 || strcmp(argv[i], "--scenarios") == 0) {
            fprintf(stderr, "loans: option '%s' needs a value\n", argv[i]);
            return 2;
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage();
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "loans: unknown option '%s'\n", argv[i]);
            usage();
            return 2;
        } else if (!have_output) {
            output = argv[i];
            have_output = 1;
        } else {
            fprintf(stderr, "loans: unexpected argument '%s'\n", argv[i]);
            usage();
            return 2;
        }
    }

    GC_INIT();

    Portfolio *portfolio = generate_portfolio((size_t)n_loans, UINT64_C(20240601));
    double *schedules = build_schedules(portfolio);
    Scenario *scenarios = build_scenarios((int)n_scenarios);

    ScenarioResult **results = GC_MALLOC((size_t)n_scenarios * sizeof *results);
    if (!results) {
        fprintf(stderr, "loans: out of memory for results\n");
        return 1;
    }
    for (int i = 0; i < n_scenarios; i++)
        results[i] = portfolio_stress(portfolio, schedules, &scenarios[i]);

    int *rank = rank_scenarios(results, (int)n_scenarios);
    int worst = 0;
    for (int i = 0; i < n_scenarios; i++)
        if (rank[i] == 1)
            worst = i;

    CsvBuffer report = {0};
    write_report(&report, portfolio, scenarios, results, rank, (int)n_scenarios);
    int rc = write_file(output, &report);
    free(report.data);
    free(schedules);
    if (rc != 0)
        return 1;

    printf("loans: %ld\n", n_loans);
    printf("scenarios: %ld\n", n_scenarios);
    printf("portfolio exposure: %.2f\n", portfolio->total_exposure);
    printf("worst scenario: %s (total EL %.2f, %.3f%% of exposure)\n", scenarios[worst].name,
           results[worst]->total_el, 100.0 * results[worst]->total_el / portfolio->total_exposure);
    printf("report: %s\n", output);
    return 0;
}
