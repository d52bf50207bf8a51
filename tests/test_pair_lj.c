/* test_pair_lj.c -- the Lennard-Jones pair potentials (mb_pair_lj.h) against closed forms
 * and an all-pairs sum written here with pow() (independent of the model's s6 products).
 *
 * Closed forms: V(r) = 4 eps [(sigma/r)^12 - (sigma/r)^6], minimum -eps at r = 2^(1/6)
 * sigma.  lj_cut: W = V - V(rc), W' = V' (the force jumps by V'(rc) at rc); lj_smooth:
 * W = V - V(rc) - (r - rc) V'(rc), W' = V' - V'(rc), so W(rc) = W'(rc) = 0 and
 * W(rc - h) = V''(rc) h^2/2 + O(h^3).  Tolerances: pow and the model's products round
 * differently, a few ulps of each term: pair values within 64 u of the largest term;
 * force sums within 64 u x (number of pairs) x the largest pair force.  The registry's
 * test (test_force_models) holds both models' Jacobians and -grad V. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mb_forces.h"
#include "mb_pair_lj.h"
#include "mb_status.h"
#include "neighbour_brute.h"

static const mb_lj_params P = {.epsilon = 1.37, .sigma = 1.09, .cutoff = 2.5 * 1.09};

static double V(double r)
{
    return 4.0 * P.epsilon * (pow(P.sigma / r, 12.0) - pow(P.sigma / r, 6.0));
}

static double dV(double r)
{
    return 4.0 * P.epsilon * (-12.0 * pow(P.sigma, 12.0) / pow(r, 13.0)
                              + 6.0 * pow(P.sigma, 6.0) / pow(r, 7.0));
}

static double d2V(double r)
{
    return 4.0 * P.epsilon * (156.0 * pow(P.sigma, 12.0) / pow(r, 14.0)
                              - 42.0 * pow(P.sigma, 6.0) / pow(r, 8.0));
}

static void *make(void *(*ctor)(const mb_lj_params *, mb_neighbour_list *), const double *box)
{
    mb_neighbour_list *nl = mb_neighbour_new(P.cutoff, 0.3, box);
    cr_assert_not_null(nl);
    void *m = ctor(&P, nl);
    cr_assert_not_null(m, "%s", mb_last_error());
    mb_neighbour_free(nl);
    return m;
}

static void lj_free_model(void *m, const mb_force_type *t) { t->free(m); }

#define TOL(scale) (64.0 * DBL_EPSILON * fabs(scale))

Test(pair_lj, closed_forms)
{
    void *cut = make(mb_lj_cut_new, NULL), *smooth = make(mb_lj_smooth_new, NULL);
    const double rc = P.cutoff, rmin = pow(2.0, 1.0 / 6.0) * P.sigma;
    double W, dW;
    for (double r = 0.93 * P.sigma; r < rc; r += 0.137) {
        mb_lj_pair(cut, r, &W, &dW);
        cr_expect(fabs(W - (V(r) - V(rc))) <= TOL(V(r)) + TOL(V(rc)), "cut W(%g)", r);
        cr_expect(fabs(dW - dV(r)) <= TOL(dV(r)), "cut W'(%g)", r);
        mb_lj_pair(smooth, r, &W, &dW);
        double Wsf = V(r) - V(rc) - (r - rc) * dV(rc);
        cr_expect(fabs(W - Wsf) <= TOL(V(r)) + 4.0 * TOL(V(rc)) + TOL(rc * dV(rc)),
                  "smooth W(%g) = %.17g, closed form %.17g", r, W, Wsf);
        cr_expect(fabs(dW - (dV(r) - dV(rc))) <= TOL(dV(r)) + TOL(dV(rc)), "smooth W'(%g)", r);
    }
    /* the well: W(rmin) = -eps - V(rc) for the cut form */
    mb_lj_pair(cut, rmin, &W, &dW);
    cr_expect(fabs(W - (-P.epsilon - V(rc))) <= TOL(P.epsilon) * 4.0, "W(rmin) = %.17g", W);
    cr_expect(fabs(dW) <= TOL(dV(P.sigma)), "W'(rmin) = %g", dW);
    /* at and beyond rc: nothing */
    mb_lj_pair(cut, rc, &W, &dW);
    cr_expect(W == 0.0 && dW == 0.0);
    lj_free_model(cut, mb_force_lj_cut);
    lj_free_model(smooth, mb_force_lj_smooth);
}

/* The difference the two forms make at the cutoff: the cut form's force jumps by V'(rc)
 * (NEGATIVE CONTROL for any smoothness claim), the smooth form's goes to 0 as rc - r and
 * its energy as (rc - r)^2 V''(rc)/2. */
Test(pair_lj, behaviour_at_the_cutoff)
{
    void *cut = make(mb_lj_cut_new, NULL), *smooth = make(mb_lj_smooth_new, NULL);
    const double rc = P.cutoff;
    double W, dW;
    mb_lj_pair(cut, nextafter(rc, 0.0), &W, &dW);
    cr_expect(fabs(dW - dV(rc)) <= TOL(dV(rc)), "cut: force jump %g, expected V'(rc) = %g", dW,
              dV(rc));
    cr_expect(fabs(dW) > 1e-3, "cut: the force should jump at rc");
    for (double h = 1e-2; h > 1e-4; h /= 4.0) {
        mb_lj_pair(smooth, rc - h, &W, &dW);
        double Wexp = 0.5 * d2V(rc) * h * h, dWexp = -h * d2V(rc);
        /* next terms: V'''(rc) h^3/6 and V'''(rc) h^2/2; |V'''(rc)| < 10 |V''(rc)| / rc
         * here (V''' ~ -14 V''/r for the dominant r^-8 term) */
        double k3 = 10.0 * fabs(d2V(rc)) / rc;
        cr_expect(fabs(W - Wexp) <= k3 * h * h * h / 6.0 + TOL(V(rc)) * 4.0,
                  "smooth W(rc - %g) = %g, expected %g", h, W, Wexp);
        cr_expect(fabs(dW - dWexp) <= k3 * h * h / 2.0 + TOL(dV(rc)) * 4.0,
                  "smooth W'(rc - %g) = %g, expected %g", h, dW, dWexp);
    }
    lj_free_model(cut, mb_force_lj_cut);
    lj_free_model(smooth, mb_force_lj_smooth);
}

/* a periodic fluid-like set: particles on a jittered simple cubic lattice */
static mb_nodes *fluid(size_t side, double a, double *box)
{
    size_t n = side * side * side;
    mb_nodes *s = mb_nodes_alloc(n, 53);
    unsigned long long seed = 7;
    for (size_t i = 0; i < n; i++) {
        size_t c[3] = {i % side, (i / side) % side, i / (side * side)};
        for (int k = 0; k < 3; k++)
            s->x[3 * i + k] = a * ((double)c[k] + 0.2 * (nb_uniform(&seed) - 0.5));
        mb_nodes_set_mass(s, i, 1.0);
    }
    for (int k = 0; k < 3; k++)
        box[k] = a * (double)side;
    return s;
}

Test(pair_lj, forces_and_energy_against_all_pairs)
{
    double box[3];
    mb_nodes *s = fluid(7, 1.17, box);
    for (int variant = 0; variant < 2; variant++) {
        const mb_force_type *t = variant ? mb_force_lj_smooth : mb_force_lj_cut;
        void *m = make(variant ? mb_lj_smooth_new : mb_lj_cut_new, box);
        memset(s->f, 0, 3 * s->n * sizeof(double));
        cr_assert_eq(t->eval(m, s, 0.0), MB_SUCCESS, "%s", mb_last_error());
        double *f = calloc(3 * s->n, sizeof(double)), e = 0.0, fmax = 0.0;
        size_t pairs = 0;
        const double rc = P.cutoff;
        for (size_t i = 0; i < s->n; i++)
            for (size_t j = i + 1; j < s->n; j++) {
                double d[3];
                nb_brute_delta(s->x, box, i, j, d);
                double r = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
                if (!(r < rc))
                    continue;
                pairs++;
                double dW = dV(r) - (variant ? dV(rc) : 0.0);
                e += V(r) - V(rc) - (variant ? (r - rc) * dV(rc) : 0.0);
                fmax = fmax > fabs(dW) ? fmax : fabs(dW);
                for (int k = 0; k < 3; k++) {
                    f[3 * i + k] += dW / r * d[k];
                    f[3 * j + k] -= dW / r * d[k];
                }
            }
        double tol = 64.0 * DBL_EPSILON * (double)pairs * fmax;
        for (size_t k = 0; k < 3 * s->n; k++)
            cr_expect(fabs(s->f[k] - f[k]) <= tol, "variant %d: f[%zu] = %.17g, all pairs %.17g",
                      variant, k, s->f[k], f[k]);
        double emod = t->potential(m, s);
        cr_expect(fabs(emod - e) <= 64.0 * DBL_EPSILON * (double)pairs * 10.0 * P.epsilon,
                  "variant %d: energy %.17g, all pairs %.17g", variant, emod, e);
        /* momentum: Newton's third law pair by pair, sum zero to round-off */
        for (int k = 0; k < 3; k++) {
            double sum = 0.0;
            for (size_t i = 0; i < s->n; i++)
                sum += s->f[3 * i + k];
            cr_expect(fabs(sum) <= tol, "variant %d: total force %g along %d", variant, sum, k);
        }
        free(f);
        t->free(m);
    }
    mb_nodes_free(s);
}

/* Two interactions on one list: the list is built once for both, and survives either. */
Test(pair_lj, models_share_one_list)
{
    double box[3];
    mb_nodes *s = fluid(6, 1.21, box);
    mb_neighbour_list *nl = mb_neighbour_new(P.cutoff, 0.3, box);
    void *a = mb_lj_cut_new(&P, nl), *b = mb_lj_smooth_new(&P, nl);
    cr_assert(a && b);
    cr_assert_eq(mb_force_lj_cut->eval(a, s, 0.0), MB_SUCCESS);
    cr_assert_eq(mb_force_lj_smooth->eval(b, s, 0.0), MB_SUCCESS);
    cr_expect_eq(mb_neighbour_get_stats(nl).builds, 1, "builds: %lu",
                 mb_neighbour_get_stats(nl).builds);
    mb_force_lj_cut->free(a);
    cr_assert_eq(mb_force_lj_smooth->eval(b, s, 0.0), MB_SUCCESS);
    mb_force_lj_smooth->free(b);
    cr_expect_eq(mb_neighbour_get_stats(nl).builds, 1);
    mb_neighbour_free(nl);
    mb_nodes_free(s);
}

Test(pair_lj, bad_parameters)
{
    mb_neighbour_list *nl = mb_neighbour_new(2.0, 0.3, NULL);
    mb_lj_params p = P;
    cr_expect_null(mb_lj_cut_new(&p, nl), "cutoff 2.725 > list cutoff 2 accepted");
    p.cutoff = 2.0;
    p.sigma = 0.0;
    cr_expect_null(mb_lj_cut_new(&p, nl));
    p.sigma = 1.0;
    p.epsilon = INFINITY;
    cr_expect_null(mb_lj_smooth_new(&p, nl));
    p.epsilon = 1.0;
    cr_expect_null(mb_lj_smooth_new(&p, NULL));
    void *m = mb_lj_cut_new(&p, nl);
    cr_assert_not_null(m);
    mb_nodes *s = mb_nodes_alloc(2, 53);
    for (int k = 0; k < 6; k++)
        s->x[k] = 0.5;
    cr_expect_eq(mb_force_lj_cut->eval(m, s, 0.0), MB_EDIVERGED);
    cr_expect(strstr(mb_last_error(), "coincide") != NULL, "%s", mb_last_error());
    mb_force_lj_cut->free(m);
    mb_neighbour_free(nl);
    mb_nodes_free(s);
}
