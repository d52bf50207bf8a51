/* bench_dem.c -- `motionbench bench dem`: what a whole leap-frog step of a frictional
 * sphere packing costs -- contacts found through the neighbour list, the Cundall-Strack
 * law with its contact history, the integration -- next to LAMMPS's pair
 * gran/hooke/history on the same packing, in the same run (doc/performance.md, "DEM step").
 *
 * Packing: 4 c^3 spheres of diameter 1 and mass 1 on the sites of c^3 face-centred cubic
 * cells (mb_lattice_sites) of nearest-neighbour distance 0.999, each coordinate jittered
 * uniformly within +-JITTER (GSL mt19937, seed 2385), in a periodic cube of side
 * c sqrt(2) 0.999, positions wrapped into it; Maxwell velocities at T = 0.01 (zero
 * momentum), no spin.  About a third of the nearest-neighbour pairs overlap.
 * Law, in both codes: F_n = kn delta + c delta' (not clamped: LAMMPS's default), kn = 2e5,
 * c = m* gamma_n with gamma_n = 380 (m* = 1/2); tangential spring kt = 2/7 kn carried as
 * history with a Coulomb limit mu = 0.5 |F_n|, no tangential dashpot (LAMMPS dampflag 0),
 * no rolling resistance; time step 1e-4 (sqrt(m* / kn) / 16).
 * Timed, single-threaded, interleaved in rounds (the best batch of each over the rounds;
 * a batch of the library before each run of LAMMPS, each at least as long as LAMMPS's
 * loops must be, so that each code's best is taken over as many loops as long:
 * bench_lammps_rounds.h):
 *   motionbench  mb_stepper_step("leapfrog") through the public API: force reset, the
 *                contact model on a neighbour list (cutoff 1, skin SKIN, rebuilt at skin/2)
 *                with its history updated in place (each level is evaluated once:
 *                mb_contact_history_in_place), translation and spherical rotation,
 *                NaN/Inf checks; a batch of at least DEM_MIN_STEPS steps after one untimed
 *                step, as LAMMPS's loop follows its run's set-up;
 *   LAMMPS       (--lammps PROGRAM) `lmp` in a child process, OMP_NUM_THREADS=1, one
 *                process, fix nve/sphere, charged the CPU time of its "Loop time"
 *                (bench_lammps.h; a loop shorter than MB_BENCH_LAMMPS_MIN_LOOP, too short
 *                for LAMMPS's CPU timer, is run again longer, and a configuration's later
 *                rounds start from the steps of its run charged in the round before), in
 *                each configuration of lammps_configs -- neighbour
 *                skin 0.1, 0.2, 0.3, 0.4 with the list checked every step, atom sorting at
 *                LAMMPS's default or off -- the fastest is the peer's figure and is
 *                printed by name: its best configuration for this work, chosen by
 *                measurement at each size.
 * Correctness before timing: the contacts at step 0 (pairs with r < r_i + r_j) counted
 * through the model's pairs must equal LAMMPS's (compute contact/atom summed, halved);
 * exit 1 when they differ.
 * Memory: estimated before each size is built (state, list, contact pairs and history per
 * sphere) and refused when above the memory available (mb_memory_check).
 * Figures: sphere-steps/s, the ratio motionbench/LAMMPS, and the growth exponent of the
 * cost per step in n (least-squares slope of log(n / rate) against log n). */
#include "bench_growth.h"
#include "bench_lammps.h"
#include "bench_lammps_rounds.h"
#include "bench_util.h"
#include "cli.h"
#include "mb_assembly.h"
#include "mb_contact.h"
#include "mb_forces.h"
#include "mb_memory.h"
#include "mb_neighbour.h"
#include "mb_nodes.h"
#include "mb_status.h"
#include "mb_stepper.h"
#include "mb_system.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEM_H 1e-4
/* The fewest steps a timed batch of the library or a timed loop of LAMMPS runs: the two
 * codes are read on loops alike, however short the slice of time a size gives each code */
#define DEM_MIN_STEPS 10
#define DEM_DNN 0.999         /* nearest-neighbour distance of the lattice (diameter 1) */
#define DEM_JITTER 0.002      /* uniform jitter of each coordinate */
#define DEM_KN 2e5
#define DEM_GAMMA_N 380.0     /* LAMMPS gamma_n; c = m* gamma_n */
#define DEM_KT_RATIO (2.0 / 7.0)
#define DEM_MU 0.5
#define DEM_T 0.01
#define DEM_SKIN 0.1          /* the library's neighbour skin (diameters) */
#define DEM_SEED 2385
#define DEM_MAX_SIZES 8

struct dem_bench {
    size_t n, cells;
    double side;
    mb_system *sys;
    mb_stepper *st;
    void *law;                /* owned by sys->forces */
};

static void dem_free(struct dem_bench *b)
{
    mb_stepper_free(b->st);
    mb_system_free(b->sys);
}

/* The packing of the header on b->sys->nodes. */
static int place_packing(struct dem_bench *b)
{
    mb_nodes *s = b->sys->nodes;
    const size_t cells[3] = { b->cells, b->cells, b->cells };
    const double offset[3] = { 0.25, 0.25, 0.25 }, a = DEM_DNN * M_SQRT2;
    int st = mb_lattice_sites(MB_LATTICE_FCC, cells, a, offset, s->x);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    double *m = malloc(b->n * sizeof *m);
    if (st != MB_SUCCESS || rng == NULL || m == NULL) {
        gsl_rng_free(rng);
        free(m);
        return MB_ENOMEM;
    }
    gsl_rng_set(rng, DEM_SEED);
    for (size_t k = 0; k < 3 * b->n; k++) {
        double x = s->x[k] + DEM_JITTER * (2.0 * gsl_rng_uniform(rng) - 1.0);
        s->x[k] = x - b->side * floor(x / b->side);
        if (s->x[k] >= b->side)
            s->x[k] = 0.0;
    }
    gsl_rng_free(rng);
    const double I[3] = { 0.1, 0.1, 0.1 };   /* 2/5 m r^2 with m = 1, r = 1/2 */
    for (size_t i = 0; i < b->n; i++) {
        mb_nodes_set_mass(s, i, 1.0);
        mb_nodes_set_inertia(s, i, I);
        s->radius[i] = 0.5;
        m[i] = 1.0;
    }
    st = mb_thermal_velocities(b->n, m, DEM_T, DEM_SEED, s->v);
    free(m);
    return st;
}

static int dem_alloc(struct dem_bench *b, size_t cells)
{
    memset(b, 0, sizeof *b);
    b->cells = cells;
    b->n = 4 * cells * cells * cells;
    b->side = (double)cells * DEM_DNN * M_SQRT2;
    b->sys = mb_system_alloc(b->n);
    if (b->sys == NULL || place_packing(b) != MB_SUCCESS)
        return -1;
    const mb_contact_linear_params p = { .kn = DEM_KN, .dashpot = MB_DASHPOT_COEFF,
                                         .c = 0.5 * DEM_GAMMA_N, .attractive = 1 };
    const mb_contact_friction_params fr = { .mu = DEM_MU, .kt_ratio = DEM_KT_RATIO };
    const double box[3] = { b->side, b->side, b->side };
    mb_neighbour_list *nl = mb_neighbour_new(1.0, DEM_SKIN, box);
    b->law = mb_contact_cundall_strack_new(&p, &fr);
    int st = nl && b->law ? mb_contact_use_neighbours(b->law, b->sys->nodes, nl) : MB_ENOMEM;
    if (st == MB_SUCCESS)   /* the steps evaluate each level once: history in place */
        st = mb_contact_history_in_place(b->law, 1);
    mb_neighbour_free(nl);
    if (st == MB_SUCCESS)
        st = mb_forces_add(b->sys->forces, mb_force_contact_cundall_strack, b->law);
    else
        mb_force_contact_cundall_strack->free(b->law);
    if (st != MB_SUCCESS)
        return -1;
    b->st = mb_stepper_alloc("leapfrog", b->sys);
    return b->st ? 0 : -1;
}

/* Contacts at step 0 through the model's pairs (its first evaluation builds the list). */
static long contacts_at_start(struct dem_bench *b)
{
    mb_nodes *s = b->sys->nodes;
    if (mb_forces_eval(b->sys->forces, s, 0.0) != MB_SUCCESS)
        return -1;
    long count = 0;
    for (size_t m = 0; m < mb_contact_count(b->law); m++) {
        double delta, rate, n[3];
        if (mb_contact_kinematics(b->law, m, s, &delta, &rate, n) != MB_SUCCESS)
            return -1;
        count += delta > 0.0;
    }
    return count;
}

/* Memory of one size, before it is built: the node store and stepper (the estimate of a
 * simulation of n nodes), plus per sphere the neighbour list's and the contact model's
 * share of its pairs.  Pairs within cutoff + skin of a sphere of this packing: its 12
 * nearest neighbours at 0.999 +- 0.007 < 1 + skin, the next shell at 1.41 beyond reach
 * (skin <= 0.4): 6 pairs per sphere, counted with the list's 25 % slack. */
static void estimate_memory(size_t n, mb_memory_estimate *e)
{
    mb_memory_estimate_simulate(n, 0, "leapfrog", 0, e);
    double pairs = 6.0 * 1.25 * (double)n;
    double list = (double)n * (2.0 * sizeof(size_t) + 3.0 * sizeof(double) + 3.0 * sizeof(size_t))
                  + pairs * sizeof(mb_neighbour_index);
    double contacts = pairs * (double)mb_contact_bytes_per_pair(1);
    e->state += list + contacts;
    e->total += list + contacts;
}

/* ---- LAMMPS ---- */

struct lammps_config {
    const char *name;
    double skin;
    int sort;                 /* 1: LAMMPS's default atom sort; 0: off */
};

static const struct lammps_config lammps_configs[] = {
    { "skin 0.1, sort default", 0.1, 1 }, { "skin 0.1, sort off", 0.1, 0 },
    { "skin 0.2, sort default", 0.2, 1 }, { "skin 0.2, sort off", 0.2, 0 },
    { "skin 0.3, sort default", 0.3, 1 }, { "skin 0.3, sort off", 0.3, 0 },
    { "skin 0.4, sort default", 0.4, 1 }, { "skin 0.4, sort off", 0.4, 0 },
};
enum { LAMMPS_CONFIGS = sizeof lammps_configs / sizeof lammps_configs[0] };

/* The packing as a LAMMPS data file (atom_style sphere: id type diameter density x y z;
 * density 6/pi gives mass 1), velocities included, every number with 17 digits. */
static int write_data(const struct dem_bench *b, const char *path)
{
    const mb_nodes *s = b->sys->nodes;
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return -1;
    fprintf(f, "motionbench bench dem packing\n\n%zu atoms\n1 atom types\n\n", b->n);
    for (int a = 0; a < 3; a++)
        fprintf(f, "0 %.17g %clo %chi\n", b->side, 'x' + a, 'x' + a);
    fprintf(f, "\nAtoms # sphere\n\n");
    for (size_t i = 0; i < b->n; i++)
        fprintf(f, "%zu 1 1 %.17g %.17g %.17g %.17g\n", i + 1, 6.0 / M_PI, s->x[3 * i],
                s->x[3 * i + 1], s->x[3 * i + 2]);
    fprintf(f, "\nVelocities\n\n");
    for (size_t i = 0; i < b->n; i++)
        fprintf(f, "%zu %.17g %.17g %.17g 0 0 0\n", i + 1, s->v[3 * i], s->v[3 * i + 1],
                s->v[3 * i + 2]);
    return fclose(f) == 0 ? 0 : -1;
}

/* The input of configuration c on data file `data` to f: `check` adds the count of
 * contacts at step 0 (run 0), else `steps` timed steps. */
static void print_input(FILE *f, const char *data, const struct lammps_config *c, int check,
                        long steps)
{
    fprintf(f, "units lj\natom_style sphere\nboundary p p p\ncomm_modify vel yes\n%s"
            "read_data %s\n"
            "pair_style gran/hooke/history %.17g %.17g %.17g 0 %.17g 0\npair_coeff * *\n"
            "neighbor %g bin\nneigh_modify delay 0 every 1 check yes\n"
            "fix 1 all nve/sphere\ntimestep %g\n",
            c->sort ? "" : "atom_modify sort 0 0.0\n", data, DEM_KN, DEM_KT_RATIO * DEM_KN,
            DEM_GAMMA_N, DEM_MU, c->skin, DEM_H);
    if (check)
        fprintf(f, "compute c all contact/atom\ncompute s all reduce sum c_c\n"
                "thermo_style custom step c_s\nthermo_modify norm no\nrun 0\n");
    else
        fprintf(f, "thermo 0\nrun %ld\n", steps);
}

static int write_input(const char *path, const char *data, const struct lammps_config *c,
                       int check, long steps)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return -1;
    print_input(f, data, c, check, steps);
    return fclose(f) == 0 ? 0 : -1;
}

/* The program's own name and version, the first line of its log ("LAMMPS (29 Sep 2021 -
 * Update 2)"), into version (empty when unreadable). */
static void lammps_version(const char *log, char *version, size_t size)
{
    FILE *f = fopen(log, "r");
    version[0] = '\0';
    if (f == NULL)
        return;
    if (fgets(version, (int)size, f) != NULL)
        version[strcspn(version, "\r\n")] = '\0';
    fclose(f);
}

/* LAMMPS's contacts at step 0: the sum of contact/atom on the thermo line of step 0,
 * halved (each contact counted by both spheres). */
static long lammps_contacts(const char *log)
{
    FILE *f = fopen(log, "r");
    if (f == NULL)
        return -1;
    char line[512];
    long count = -1;
    int header = 0;
    while (fgets(line, sizeof line, f)) {
        long step;
        double sum;
        if (strstr(line, "Step") && strstr(line, "c_s"))
            header = 1;
        else if (header && sscanf(line, "%ld %lf", &step, &sum) == 2 && step == 0) {
            count = (long)llround(sum / 2.0);
            break;
        }
    }
    fclose(f);
    return count;
}

struct lammps_dir {
    char dir[64], data[96], input[96], log[96];
};

static int lammps_dir_open(struct lammps_dir *d, const struct dem_bench *b)
{
    snprintf(d->dir, sizeof d->dir, "/tmp/motionbench-dem-XXXXXX");
    if (mkdtemp(d->dir) == NULL) {
        d->dir[0] = '\0';
        return -1;
    }
    snprintf(d->data, sizeof d->data, "%s/data", d->dir);
    snprintf(d->input, sizeof d->input, "%s/in", d->dir);
    snprintf(d->log, sizeof d->log, "%s/log", d->dir);
    return write_data(b, d->data);
}

/* LAMMPS's files removed after runs that all went well (`ok`), else kept and named */
static void lammps_dir_done(struct lammps_dir *d, int ok)
{
    if (!ok) {
        fprintf(stderr, "motionbench bench dem: LAMMPS's data, input, log and output are "
                "kept in %s\n", d->dir);
        return;
    }
    unlink(d->data);
    unlink(d->input);
    unlink(d->log);
    rmdir(d->dir);
}

/* LAMMPS's count of contacts at the start, its first run (a directory opened for its
 * files, d->dir "" if none could be): NULL when counted into *contacts, else why not */
static const char *lammps_count_contacts(const char *program, struct lammps_dir *d,
                                         const struct dem_bench *b, long *contacts)
{
    if (lammps_dir_open(d, b) != 0)
        return d->dir[0] ? "cannot write its data file" : "cannot make a directory for its "
                                                           "files in /tmp";
    if (write_input(d->input, d->data, &lammps_configs[0], 1, 0) != 0)
        return "cannot write its input";
    if (mb_bench_lammps_run(program, d->input, d->log, "") != 0)
        return mb_last_error();
    if ((*contacts = lammps_contacts(d->log)) < 0)
        return "its log holds no count of contacts at step 0";
    return NULL;
}

/* ---- the library's step ---- */

/* The library's rate over a batch of at least DEM_MIN_STEPS steps and at least `slice`
 * seconds, after one untimed step: LAMMPS's loop likewise follows its run's set-up, which
 * evaluates the forces once and builds the list before the loop's timer starts, so neither
 * code is charged for finding its arrays cold after the other ran */
static double batch_rate(struct dem_bench *b, double slice, long *timed)
{
    long steps = 0;
    *timed = 0;
    if (mb_stepper_step(b->st, b->sys, DEM_H) != MB_SUCCESS)    /* untimed */
        return -1.0;
    double t0 = mb_bench_now(), dt;
    do {
        if (mb_stepper_step(b->st, b->sys, DEM_H) != MB_SUCCESS)
            return -1.0;
        steps++;
        dt = mb_bench_now() - t0;
    } while (steps < DEM_MIN_STEPS || dt < slice);
    *timed = steps;
    return (double)b->n * (double)steps / dt;
}

/* The rounds' context (bench_lammps_rounds.h): the packing, the library's best batch,
 * LAMMPS's program and files */
struct dem_rounds {
    struct dem_bench *b;
    double best;                /* the library's best sphere-steps/s */
    long best_steps;            /* its batch's steps */
    int batches;
    const char *program;
    const struct lammps_dir *d;
};

/* The library's batch (bench_lammps_rounds.h's library), its best kept */
static double dem_library(void *ctx, double seconds, long *steps)
{
    struct dem_rounds *x = ctx;
    double rate = batch_rate(x->b, seconds, steps);
    if (rate < 0.0)
        return -1.0;
    x->batches++;
    if (rate > x->best) {
        x->best = rate;
        x->best_steps = *steps;
    }
    return rate;
}

/* A run of LAMMPS of `steps` steps in configuration `slot` (bench_lammps_rounds.h's
 * lammps) */
static int dem_lammps(void *ctx, int slot, long steps)
{
    const struct dem_rounds *x = ctx;
    if (write_input(x->d->input, x->d->data, &lammps_configs[slot], 0, steps) != 0)
        return mb_error_record(MB_EIO, __FILE__, __LINE__, "cannot write LAMMPS's input %s",
                               x->d->input);
    return mb_bench_lammps_run(x->program, x->d->input, x->d->log, "");
}

/* The growth exponent of the cost per step n / rate over every size (bench_growth.h). */
static double growth_exponent(const double *n, const double *rate, int k)
{
    double cost[DEM_MAX_SIZES];
    for (int i = 0; i < k; i++)
        cost[i] = n[i] / rate[i];
    return mb_bench_growth_fit(n, cost, (size_t)k).exponent;
}

struct dem_size {
    double n, ours, peer;
    long contacts, peer_contacts, peer_steps;
    long our_steps, our_run;    /* the library's best batch's steps; its steps run in all,
                                 * read from the time its system reached */
    int our_batches, peer_runs; /* the library's timed batches, LAMMPS's charged runs */
    const struct lammps_config *config;
    char version[128];
};

/* The timed rounds on n spheres (bench_lammps_rounds.h): in each of 3 rounds, for each of
 * LAMMPS's configurations (one slot without LAMMPS), a batch of the library's step, then a
 * run of LAMMPS in that configuration of as many steps.  MB_EXIT_OK, or MB_EXIT_USAGE when
 * either fails (message printed; *peer_failed set when LAMMPS did). */
static int dem_rounds(struct dem_bench *b, size_t n, double min_time, const char *lammps,
                      const struct lammps_dir *d, struct dem_size *r, int *peer_failed)
{
    enum { ROUNDS = 3 };
    const int slots = lammps ? LAMMPS_CONFIGS : 1;
    struct dem_rounds x = { .b = b, .program = lammps, .d = d };
    const struct mb_bench_rounds R = {
        .rounds = ROUNDS, .slots = slots, .n = n, .min_steps = DEM_MIN_STEPS,
        .slice = min_time / (ROUNDS * slots * (lammps ? 2 : 1)), .ctx = &x,
        .library = dem_library, .lammps = lammps ? dem_lammps : NULL, .log = d->log,
    };
    struct mb_bench_peer_best best;
    int failed_slot, status = MB_EXIT_OK;
    switch (mb_bench_rounds_run(&R, &best, &failed_slot)) {
    case MB_BENCH_ROUNDS_LIBRARY_FAILED:
        fprintf(stderr, "motionbench bench dem: step failed: %s\n", mb_last_error());
        status = MB_EXIT_USAGE;
        break;
    case MB_BENCH_ROUNDS_LAMMPS_FAILED:
        fprintf(stderr, "motionbench bench dem: LAMMPS '%s' failed on %zu spheres (%s): %s\n",
                lammps, n, lammps_configs[failed_slot].name, mb_last_error());
        status = MB_EXIT_USAGE;
        *peer_failed = 1;
        break;
    }
    r->ours = x.best;
    r->our_steps = x.best_steps;
    r->our_batches = x.batches;
    r->peer = best.rate;
    r->peer_steps = best.steps;
    r->peer_runs = best.runs;
    r->config = best.runs > 0 ? &lammps_configs[best.slot] : NULL;
    return status;
}

/* One size: memory check (against memory_limit, 0: the memory available), set-up,
 * contact check, interleaved rounds (none when check_only). */
static int measure_size(size_t cells, double min_time, double memory_limit,
                        const char *lammps, int check_only, struct dem_size *r)
{
    size_t n = 4 * cells * cells * cells;
    mb_memory_estimate e;
    char text[32];
    estimate_memory(n, &e);
    mb_memory_format(e.total, text, sizeof text);
    printf("%zu spheres: memory estimate %s\n", n, text);
    fflush(stdout);
    if (mb_memory_check(&e, memory_limit, "bench dem") != MB_SUCCESS)
        return mb_cli_fail("bench dem");
    struct dem_bench b;
    struct lammps_dir d;
    memset(&d, 0, sizeof d);
    if (dem_alloc(&b, cells) != 0) {
        dem_free(&b);
        return mb_cli_fail("bench dem");
    }
    memset(r, 0, sizeof *r);
    r->n = (double)n;
    r->contacts = contacts_at_start(&b);
    r->peer_contacts = -1;
    int status = r->contacts < 0 ? MB_EXIT_USAGE : MB_EXIT_OK, peer_failed = 0;
    if (status == MB_EXIT_OK && lammps) {
        const char *why = lammps_count_contacts(lammps, &d, &b, &r->peer_contacts);
        if (why != NULL) {
            fprintf(stderr, "motionbench bench dem: LAMMPS '%s' failed on %zu spheres: %s\n",
                    lammps, n, why);
            status = MB_EXIT_USAGE;
            peer_failed = d.dir[0] != '\0';
        } else {
            lammps_version(d.log, r->version, sizeof r->version);
        }
    }
    if (status == MB_EXIT_OK && !check_only)
        status = dem_rounds(&b, n, min_time, lammps, &d, r, &peer_failed);
    r->our_run = llround(b.sys->t / DEM_H);
    if (lammps && d.dir[0])
        lammps_dir_done(&d, !peer_failed);
    dem_free(&b);
    return status;
}

static void print_header(const char *lammps)
{
    printf("dem: frictional sphere packing (fcc, jittered, periodic), whole leap-frog steps,\n"
           "single thread, sphere-steps/s; kn %g, gamma_n %g, kt 2/7 kn, mu %g, dt %g;\n"
           "motionbench: neighbour list cutoff 1 + skin %g, contact-cundall-strack, leapfrog;\n",
           DEM_KN, DEM_GAMMA_N, DEM_MU, DEM_H, DEM_SKIN);
    if (lammps)
        printf("LAMMPS: pair gran/hooke/history, fix nve/sphere, charged its Loop time x CPU "
               "use,\nbest of %d configurations (neighbor skin 0.1-0.4, every 1 check yes, "
               "atom sort default/off);\na batch of motionbench before each run of LAMMPS, "
               "each batch and loop at least %g s.\n", LAMMPS_CONFIGS, MB_BENCH_LAMMPS_MIN_LOOP);
    printf("\n");
}

/* Sizes 4 c^3 ~ 10^3 .. max_nodes by decades. */
static int size_cells(double max_nodes, size_t *cells)
{
    int k = 0;
    for (double nn = 1e3; nn <= max_nodes * 1.0000001 && k < DEM_MAX_SIZES; nn *= 10.0)
        cells[k++] = (size_t)llround(cbrt(nn / 4.0));
    return k;
}

/* The peer as it ran at the largest size, so that a reader can rerun it: the program,
 * its version, how it was run and charged, and its input in the best configuration (at
 * the other sizes the table names the configuration: the skin of `neighbor`, and the
 * `atom_modify sort 0 0.0` line present for "sort off"). */
static void print_peer(const char *lammps, const struct dem_size *r)
{
    printf("\nLAMMPS at %.0f spheres: %s (%s), run as OMP_NUM_THREADS=1 %s -in IN "
           "-log LOG -screen none,\ncharged the CPU time of its Loop time (Loop time x %% CPU "
           "use); best configuration \"%s\", input IN:\n", r->n, lammps,
           r->version[0] ? r->version : "version unknown", lammps, r->config->name);
    print_input(stdout, "DATA  (the packing: id 1 1 6/pi x y z, velocities, 17 digits)",
                r->config, 0, r->peer_steps);
}

static int print_results(const struct dem_size *r, int k, const char *lammps, int check_only)
{
    int mismatch = 0;
    if (check_only)
        printf("\n%10s %10s %10s\n", "spheres", "contacts", "LAMMPS");
    for (int i = 0; check_only && i < k; i++) {
        printf("%10.0f %10ld %10ld\n", r[i].n, r[i].contacts, r[i].peer_contacts);
        mismatch |= lammps && r[i].contacts != r[i].peer_contacts;
    }
    if (!check_only)
        printf("\n%10s %14s %14s %10s %10s %10s  %s\n", "spheres", "motionbench", "LAMMPS",
               "ratio", "contacts", "LAMMPS", "LAMMPS's best configuration");
    for (int i = 0; !check_only && i < k; i++) {
        printf("%10.0f %14.4g", r[i].n, r[i].ours);
        if (lammps)
            printf(" %14.4g %10.3f %10ld %10ld  %s\n", r[i].peer, r[i].ours / r[i].peer,
                   r[i].contacts, r[i].peer_contacts, r[i].config ? r[i].config->name : "-");
        else
            printf(" %14s %10s %10ld\n", "-", "-", r[i].contacts);
        mismatch |= lammps && r[i].contacts != r[i].peer_contacts;
    }
    if (!check_only) {
        printf("\nsteps timed in the best batch or loop (at least %d, each after its code's set-up:"
               " one untimed step of motionbench, the run's set-up of LAMMPS):\n", DEM_MIN_STEPS);
        for (int i = 0; i < k; i++) {
            printf("at %.0f spheres: motionbench %ld (of %ld run in %d batches)", r[i].n,
                   r[i].our_steps, r[i].our_run, r[i].our_batches);
            if (lammps)
                printf(", LAMMPS %ld (of %d runs)", r[i].peer_steps, r[i].peer_runs);
            printf("\n");
        }
    }
    if (k >= 2 && !check_only) {
        double n[DEM_MAX_SIZES], a[DEM_MAX_SIZES], p[DEM_MAX_SIZES];
        for (int i = 0; i < k; i++) {
            n[i] = r[i].n;
            a[i] = r[i].ours;
            p[i] = r[i].peer;
        }
        printf("\ngrowth exponent of the cost per step: motionbench %.3f", growth_exponent(n, a, k));
        if (lammps)
            printf(", LAMMPS %.3f", growth_exponent(n, p, k));
        printf("\n");
    }
    if (lammps)
        printf("check: contacts at step 0 equal LAMMPS's at every size: %s\n",
               mismatch ? "FAIL" : "pass");
    if (lammps && !check_only && k > 0 && r[k - 1].config)
        print_peer(lammps, &r[k - 1]);
    return mismatch ? MB_EXIT_FAIL : MB_EXIT_OK;
}

int mb_bench_dem(int argc, char **argv)
{
    double max_nodes = 1e5, min_time = 6.0, memory_limit = 0.0;
    const char *lammps = NULL;
    int check_only = 0;
    const mb_cli_option own[] = {
        { .name = "--lammps", .kind = MB_CLI_STRING, .dest = &lammps, .value = "a program",
          .empty = "empty program name", .flags = MB_CLI_ONCE },
        { .name = "--check", .kind = MB_CLI_FLAG, .dest = &check_only },
        { .name = "--memory-limit", .kind = MB_CLI_SIZE, .dest = &memory_limit,
          .value = "a size, e.g. 8G", .flags = MB_CLI_ONCE },
    };
    int st = mb_bench_size_args(argc, argv, "dem", &max_nodes, &min_time, own, 3);
    if (st < 0)
        printf("  --lammps PROGRAM: also run LAMMPS (e.g. lmp) on the same packing, check its\n"
               "  contacts at step 0 and time it in each configuration;\n"
               "  --check: the contact check alone, nothing timed;\n"
               "  --memory-limit SIZE: refuse a size whose estimated memory exceeds SIZE\n"
               "  (e.g. 8G; default: the memory available).\n");
    if (st != 0)
        return st < 0 ? MB_EXIT_OK : st;
    print_header(lammps);
    size_t cells[DEM_MAX_SIZES];
    struct dem_size r[DEM_MAX_SIZES];
    int k = size_cells(max_nodes, cells);
    for (int i = 0; i < k; i++)
        if ((st = measure_size(cells[i], min_time, memory_limit, lammps, check_only, &r[i]))
            != MB_EXIT_OK)
            return st;
    return print_results(r, k, lammps, check_only);
}
