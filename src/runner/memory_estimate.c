/* memory_estimate.c -- estimating a run's memory before it starts (mb_memory.h).
 *
 * Bytes per node (and per two-node coupling), measured as peak RSS differences between
 * runs at two sizes (doc/limits.md), then rounded up:
 *   state                   system, force tables, scheme stages, on-step copies, the
 *                           implicit schemes' matrices and Krylov vectors: per node and
 *                           per coupling of each measured scheme (state_costs), else
 *                           STATE_DOUBLE_PER_NODE and STATE_LIST_LINK per coupling;
 *   ODE_PER_NODE            gsl_odeiv2 rk8pd driver (13 stages and error vectors on a
 *                           state of 13 numbers per node) plus the output stores;
 *   MPFR_VALUES_PER_COLUMN  state numbers per node held per extrapolation column
 *                           (2 tableau rows of 13 numbers);
 * An MPFR number costs sizeof(__mpfr_struct) + its limbs, ceil(prec / 64) x 8 bytes.
 * Measured (doc/limits.md, spring chain, 20000 and 80000 nodes, one run): double state
 * 712 B/node (explicit Euler) and 2210 B/node (implicit Euler); rk8pd reference 3380
 * B/node more; MPFR reference at 256 bits 134 KB/node, where the tableau alone accounts
 * for 105 KB/node (both passes of the step-halving estimate and the output stores hold
 * the rest): MPFR_REF_FACTOR = 1.35 brings the formula up to the measurement. */
#include "mb_memory.h"
#include "mb_metrics.h"
#include "mb_runner.h"
#include "mb_series.h"
#include "mb_stepper.h"
#include "mb_status.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define STATE_DOUBLE_PER_NODE 2400.0
/* measured, B per node and per coupling (doc/limits.md); each coupling's cost with the 40
 * bytes of the spring's hot record (force_springs.c) added to the figure measured before
 * the record existed */
#define STATE_HOT_LINK 40.0
#define STATE_IE_NODE 596.0             /* implicit-euler: 592 and 474, with the hot record */
#define STATE_IE_LINK 476.0
#define STATE_IEN_NODE 872.0            /* implicit-euler-newton: 870 and 461 */
#define STATE_IEN_LINK 464.0
#define STATE_LIST_LINK 1184.0          /* a list of Jacobian blocks: 4 x 160 B, measured on
                                         * implicit-euler-newton when it kept one */
#define STATE_EE_NODE 536.0             /* explicit-euler: 535 and 162, the hot record in */
#define STATE_EE_LINK (136.0 + STATE_HOT_LINK)  /* (measured 131 before the record) */
#define STATE_RK4_NODE 752.0            /* rk4: 752 and 162 */
#define STATE_RK4_LINK (136.0 + STATE_HOT_LINK)
#define STATE_LF_NODE 536.0             /* leapfrog: 534 and 162 */
#define STATE_LF_LINK (136.0 + STATE_HOT_LINK)
#define STATE_VN_NODE 736.0             /* verlet-nosquish: 733 and 164 */
#define STATE_VN_LINK (136.0 + STATE_HOT_LINK)
#define ODE_PER_NODE 4000.0
#define STATE_NUMBERS_PER_NODE 13.0       /* x, v, q, omega */
#define TWIN_COPIES 12.0                  /* twin system, stages, on-step store */
#define MPFR_REF_BITS_DEFAULT 256
#define MPFR_GUARD_BITS(columns) (32.0 + 2.0 * (columns))
#define MPFR_REF_FACTOR 1.35

/* The state of a run in double, per node and per two-node coupling (spring), for the
 * schemes measured (doc/limits.md, "Measured costs": peak RSS differences of `simulate`
 * between 10^4 and 10^5 particles of the spring chain, n - 1 couplings, and of the cloth,
 * about 4 n, solved for the two constants and rounded up by STATE_MARGIN).  Every
 * other scheme: STATE_DOUBLE_PER_NODE per node (the old bound, measured on the chain when
 * implicit Euler still kept a list of Jacobian blocks) and the per-coupling cost of the
 * block list, the largest measured. */
static const struct state_cost {
    const char *scheme;
    double node, link;
} state_costs[] = {
    { "implicit-euler", STATE_IE_NODE, STATE_IE_LINK },
    { "implicit-euler-newton", STATE_IEN_NODE, STATE_IEN_LINK },
    { "explicit-euler", STATE_EE_NODE, STATE_EE_LINK },
    { "rk4", STATE_RK4_NODE, STATE_RK4_LINK },
    { "leapfrog", STATE_LF_NODE, STATE_LF_LINK },
    { "verlet-nosquish", STATE_VN_NODE, STATE_VN_LINK },
};
#define STATE_MARGIN 1.1

/* the scheme name of an integrator spec "name[k=v,...]" against a name */
static int spec_is(const char *spec, const char *name)
{
    size_t len = strcspn(spec, "[");
    return strlen(name) == len && strncmp(spec, name, len) == 0;
}

double mb_memory_state_bytes(size_t nodes, size_t links, const char *integrator)
{
    double node = STATE_DOUBLE_PER_NODE, link = STATE_LIST_LINK;
    for (size_t k = 0; integrator && k < sizeof state_costs / sizeof *state_costs; k++)
        if (spec_is(integrator, state_costs[k].scheme)) {
            node = state_costs[k].node;
            link = state_costs[k].link;
        }
    return STATE_MARGIN * ((double)nodes * node + (double)links * link);
}

static double mpfr_number_bytes(double bits)
{
    return (double)sizeof(__mpfr_struct) + 8.0 * ceil(bits / 64.0);
}

/* Gragg-Bulirsch-Stoer tableau (mpfr_reference.c): 2 rows of max_columns vectors plus 5
 * work vectors, at bits + guard; max_columns = min(max(bits/7, 8), 52) + 12. */
static double mpfr_reference_bytes(double nodes, long bits)
{
    double columns = fmin(fmax((double)(bits / 7), 8.0), 52.0) + 12.0;
    double vectors = 2.0 * columns + 5.0;
    return MPFR_REF_FACTOR * nodes * STATE_NUMBERS_PER_NODE * vectors
           * mpfr_number_bytes((double)bits + MPFR_GUARD_BITS(columns));
}

/* The reference of a run on n nodes: closed form (0), rk8pd, or rk8pd beside MPFR. */
static double reference_bytes(double n, mb_reference_kind kind, int closed, long mpfr_bits)
{
    if (closed)
        return 0.0;
    double bytes = n * ODE_PER_NODE;        /* rk8pd runs beside an mpfr reference too */
    if (kind != MB_REF_ODE)
        bytes += mpfr_reference_bytes(n, mpfr_bits > 0 ? mpfr_bits : MPFR_REF_BITS_DEFAULT);
    return bytes;
}

static double twin_bytes(double n, long bits)
{
    return bits > 0 ? n * STATE_NUMBERS_PER_NODE * TWIN_COPIES * mpfr_number_bytes((double)bits)
                    : 0.0;
}

static void add_total(mb_memory_estimate *e)
{
    e->kept = e->result + e->series + e->probes;
    e->total = e->state + e->twin + e->reference + e->growth + e->statistics + e->kept;
}

void mb_memory_estimate_run(const mb_case *c, size_t j, int series, mb_memory_estimate *e)
{
    double n = (double)c->nodes;
    memset(e, 0, sizeof *e);
    for (size_t a = 0; a < c->n_integrators; a++)      /* the largest scheme of the case */
        e->state = fmax(e->state, mb_memory_state_bytes(c->nodes, c->links, c->integrators[a]));
    e->twin = twin_bytes(n, c->precision_bits);
    if (c->has_reference) {
        int closed = c->problem->exact != NULL
                     && (c->reference.kind == MB_REF_AUTO || c->reference.kind == MB_REF_ANALYTIC);
        e->reference = reference_bytes(n, c->reference.kind, closed, c->reference.mpfr_bits);
        if (c->precision_bits > 0)               /* the twin split integrates a reference too */
            e->reference += mpfr_reference_bytes(n, c->precision_bits);
    }
    double steps = (double)c->steps[j];
    double samples = floor(steps / (double)c->sample_every) + 2.0;
    if (c->error_growth) {
        double held = fmin(samples, 2.0 * MB_GROWTH_MAX_POINTS + 2.0);
        /* kept positions, plus the reference stores of the selected times */
        e->growth = held * 3.0 * n * sizeof(double)
                    + fmin(held, MB_GROWTH_MAX_POINTS) * n * STATE_NUMBERS_PER_NODE * 2.0
                      * sizeof(double);
    }
    if (c->statistics)    /* t and e of every sample of the window, doubling growth */
        e->statistics = 2.0 * samples * 2.0 * sizeof(double);
    if (series)    /* 256 rows, doubled as needed, capped at MB_SERIES_MAX_ROWS + 1 rows
                      (series_keep.c); the buffer is kept as it is when the run ends */
        e->series = fmin(fmax(256.0, 2.0 * samples), (double)MB_SERIES_MAX_ROWS + 1.0)
                    * sizeof(mb_series_sample);
    /* every node's state at each probe time (mb_probes.h), allocated when the run starts */
    e->probes = (double)c->n_probes * n * MB_PROBE_VALUES * sizeof(double);
    e->result = sizeof(mb_run_result);    /* allocated for every run before any starts */
    add_total(e);
}

void mb_memory_estimate_simulate(size_t nodes, size_t links, const char *integrator,
                                 long twin_bits, mb_memory_estimate *e)
{
    memset(e, 0, sizeof *e);
    e->state = mb_memory_state_bytes(nodes, links, integrator);
    e->twin = twin_bytes((double)nodes, twin_bits);
    add_total(e);
}

void mb_memory_estimate_reference(size_t nodes, mb_reference_kind kind, long mpfr_bits,
                                  mb_memory_estimate *e)
{
    memset(e, 0, sizeof *e);
    e->state = (double)nodes * STATE_DOUBLE_PER_NODE;
    if (kind == MB_REF_MPFR)      /* the mpfr method integrates in MPFR alone */
        e->reference = mpfr_reference_bytes((double)nodes,
                                            mpfr_bits > 0 ? mpfr_bits : MPFR_REF_BITS_DEFAULT);
    else if (kind == MB_REF_ODE)
        e->reference = (double)nodes * ODE_PER_NODE;
    add_total(e);
}

int mb_memory_limit(double option, double *limit, const char **source)
{
    if (option > 0.0) {
        *limit = option;
        *source = "--memory-limit";
        return MB_SUCCESS;
    }
    return mb_memory_available(limit, source);
}

int mb_memory_refuse(double need, double limit, const char *source, int at_once,
                     const char *what, const mb_memory_estimate *w, double kept_all)
{
    char a[32], b[32], s[32], r[32], t[32], g[32], q[32], st[32], p[32], k[32];
    mb_memory_format(need, a, sizeof a);
    mb_memory_format(limit, b, sizeof b);
    mb_memory_format(w->state, s, sizeof s);
    mb_memory_format(w->reference, r, sizeof r);
    mb_memory_format(w->twin, t, sizeof t);
    mb_memory_format(w->growth, g, sizeof g);
    mb_memory_format(w->series, q, sizeof q);
    mb_memory_format(w->statistics, st, sizeof st);
    mb_memory_format(w->probes, p, sizeof p);
    mb_memory_format(kept_all, k, sizeof k);
    if (at_once <= 0)
        MB_ERROR(MB_EINVAL, "estimated memory %s exceeds %s, %s: %s needs state %s, reference "
                 "%s, twin %s.  Use a smaller problem or a cheaper method or precision, or "
                 "raise --memory-limit", a, source, b, what, s, r, t);
    MB_ERROR(MB_EINVAL, "estimated memory %s exceeds %s, %s (%d run%s at once); largest run: "
             "%s needs state %s, reference %s, twin %s, error growth %s, statistics %s, series "
             "%s, probes %s; the results every run keeps until the report is written %s.  Use "
             "fewer --jobs, a smaller problem, a cheaper reference or fewer probes, or raise "
             "--memory-limit", a, source, b, at_once, at_once == 1 ? "" : "s", what, s, r, t, g,
             st, q, p, k);
}

int mb_memory_check(const mb_memory_estimate *e, double option, const char *what)
{
    double limit;
    const char *source;
    if (mb_memory_limit(option, &limit, &source) != MB_SUCCESS)
        return MB_EIO;
    if (e->total <= limit)
        return MB_SUCCESS;
    return mb_memory_refuse(e->total, limit, source, 0, what, e, 0.0);
}

/* Put v into the sorted list top[0..slots) (largest first) if it is among the largest. */
static void keep_largest(double *top, int slots, double v)
{
    int k = slots - 1;
    if (!(v > top[k]))
        return;
    while (k > 0 && top[k - 1] < v) {
        top[k] = top[k - 1];
        k--;
    }
    top[k] = v;
}

double mb_memory_estimate_cases(mb_case *const *cases, size_t n, int jobs, int series,
                                size_t *worst_case, size_t *worst_dt, mb_memory_estimate *worst,
                                double *kept_all)
{
    /* the working parts of the `jobs` largest runs at once: a small sorted list */
    double top[64] = { 0 };
    int slots = jobs < 1 ? 1 : jobs > 64 ? 64 : jobs;
    memset(worst, 0, sizeof *worst);
    *worst_case = *worst_dt = 0;
    *kept_all = 0.0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < cases[i]->n_dt; j++) {
            mb_memory_estimate e;
            mb_memory_estimate_run(cases[i], j, series, &e);
            if (e.total > worst->total) {
                *worst = e;
                *worst_case = i;
                *worst_dt = j;
            }
            for (size_t a = 0; a < cases[i]->n_integrators; a++) {
                keep_largest(top, slots, e.total - e.kept);
                *kept_all += e.kept;    /* held from its run to the report (runner.c) */
            }
        }
    double sum = *kept_all;
    for (int k = 0; k < slots; k++)
        sum += top[k];
    return sum;
}

static int meminfo_available(double *bytes)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (f == NULL)
        return 0;
    char line[256];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        unsigned long long kb;
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
            *bytes = 1024.0 * (double)kb;
            found = 1;
        }
    }
    fclose(f);
    return found;
}

/* a number in a one-line file ("max" or no file: 0) */
static int read_number(const char *path, double *v)
{
    FILE *f = fopen(path, "r");
    unsigned long long n;
    int ok = f && fscanf(f, "%llu", &n) == 1;
    if (f)
        fclose(f);
    if (ok)
        *v = (double)n;
    return ok;
}

static void lower(double *bytes, const char **source, double v, const char *what)
{
    if (v > 0.0 && v < *bytes) {
        *bytes = v;
        *source = what;
    }
}

int mb_memory_available(double *bytes, const char **source)
{
    *source = "the memory available (MemAvailable)";
    if (!meminfo_available(bytes)) {
        long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
        if (!(pages > 0 && size > 0))
            MB_ERROR(MB_EIO, "the available memory is unknown (no /proc/meminfo, no "
                     "_SC_AVPHYS_PAGES): give --memory-limit");
        *bytes = (double)pages * (double)size;
        *source = "the memory available (_SC_AVPHYS_PAGES)";
    }
    /* a cap on this process (ulimit -v, -d) or its control group (cgroup v2) */
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        lower(bytes, source, (double)rl.rlim_cur, "the address-space limit (ulimit -v)");
    if (getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        lower(bytes, source, (double)rl.rlim_cur, "the data-size limit (ulimit -d)");
    double max, current = 0.0;
    if (read_number("/sys/fs/cgroup/memory.max", &max)) {
        read_number("/sys/fs/cgroup/memory.current", &current);
        lower(bytes, source, max - current > 1.0 ? max - current : 1.0,
              "the control group's memory.max");
    }
    return MB_SUCCESS;
}

int mb_memory_parse_size(const char *text, double *bytes)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    double unit = 1.0;
    switch (toupper((unsigned char)*end)) {
    case 'K': unit = 1024.0; end++; break;
    case 'M': unit = 1048576.0; end++; break;
    case 'G': unit = 1073741824.0; end++; break;
    case 'T': unit = 1099511627776.0; end++; break;
    default: break;
    }
    if (*end == 'B' || *end == 'b')
        end++;
    if (end == text || *end != '\0' || errno == ERANGE || !(v > 0.0) || !isfinite(v * unit))
        MB_ERROR(MB_EINVAL, "memory size '%s': write a positive number of bytes with an "
                 "optional K, M, G or T (powers of 1024), e.g. 8G", text);
    *bytes = v * unit;
    return MB_SUCCESS;
}

void mb_memory_format(double bytes, char *buf, size_t size)
{
    static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    int u = 0;
    while (bytes >= 1024.0 && u < 6) {
        bytes /= 1024.0;
        u++;
    }
    snprintf(buf, size, "%.3g %s", bytes, units[u]);
}
