/* test_blocktri_rows.c -- the block sweep (mb_blocktri_solve), whose pivot blocks are held
 * in registers by rows and its vectors r_i, z_i, x_i in lanes (block3_rows.h), must make
 * every decision and give every bit of the scalar sweep written out here from its
 * definition (linsolve_blocktri.c's header):
 *   S_0 = D_0, S_i = D_i - L_i X_{i-1}, r_i = b_i - L_i z_{i-1} (r_0 = b_0),
 *   each entry D_ac - ((L_a0 X_0c + L_a1 X_1c) + L_a2 X_2c), likewise r;
 *   ||A||_1 = max over c of (|A_0c| + |A_1c|) + |A_2c|, m = +0 then (s > m ? s : m);
 *   refused when !(||S||_1 <= 16 ||D||_1) (growth);
 *   g = adj(S) by cofactors, det = (S_0 g_0 + S_1 g_3) + S_2 g_6, and when det or
 *   ||g||_1 is not normal, the same from S ||S||_1^-1 (r = 1 / ||S||_1);
 *   refused when !(|det| > 0 && |det| >= 2^-26 (tnorm ||g||_1)) (rcond);
 *   the worst fractions kept, f = r / det, z_i = (g r_i) f, X_i = (g U_i) f (each
 *   entry the product's sum, then times f),
 *   x_{n-1} = z_{n-1}, x_i = z_i - X_i x_{i+1}; refused when x is not finite;
 *   rcond_min and growth_max = the worst fractions divided out, also when refused;
 *   a refused sweep run again with the adjugate scaled first, G = g f, z_i = G r_i,
 *   X_i = G U_i, whose outcome then stands (ref_solve).
 * Compared bit for bit: the status, the message, rcond_min, growth_max and x, on chains of
 * pseudo-random blocks over twenty binary orders of magnitude (accepted, and refused for
 * growth or rcond at some node), on blocks scaled by 2^+-400 and 2^-540 (the determinant
 * or the adjugate's norm out of the normal range: the second try), on zero and singular
 * blocks, and with a NaN or an infinity in each entry of D, L, U and b of a middle node.
 * Controls: the same data tell the written order from five others (the determinant
 * t_0 g_0 + (t_1 g_3 + t_2 g_6), a column sum |A_0c| + (|A_1c| + |A_2c|), the product
 * L_a0 X_0c + (L_a1 X_1c + L_a2 X_2c), that regrouping in the vectors' products alone,
 * r_i, z_i and x_i, and the adjugate scaled first, G = g f, z_i = G r_i, X_i = G U_i):
 * each of those sweeps differs from the sweep under test somewhere in the set.
 * The sweep with the drift beside it (mb_blocktri_solve_axpy) must give the same outcome
 * and y+ = y + x h, each entry y_k + x_k h written out, with the sum of y+ - y+ +0 where
 * every y+ is finite and NaN where one is not (an infinite y_k given with a finite x); the
 * control: the data tell y + x h from (y / h + x) h. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mb_linsolve.h"
#include "mb_status.h"

#define NODES 7

enum { AS_WRITTEN, DET_REGROUPED, COLSUM_REGROUPED, PRODUCT_REGROUPED, VECTOR_REGROUPED,
       SCALED_FIRST };

/* pseudo-random doubles in +-[2^-10, 2^10), a fixed sequence (64-bit LCG, Knuth's MMIX) */
static uint64_t lcg_state = 0x2545f4914f6cdd1du;

static double lcg_value(void)
{
    lcg_state = lcg_state * 6364136223846793005u + 1442695040888963407u;
    double mant = 1.0 + (double)(lcg_state >> 11) * 0x1p-53;
    int e = (int)((lcg_state >> 3) % 20) - 10;
    return (lcg_state & 4u ? -1.0 : 1.0) * ldexp(mant, e);
}

struct chain {
    double D[9 * NODES], L[9 * NODES], U[9 * NODES], b[3 * NODES];
};

/* what a sweep gives */
struct outcome {
    int status;
    char message[256];
    double rcond_min, growth_max, x[3 * NODES];
};

static double ref_norm1(const double *a, int variant)
{
    double m = 0.0;
    for (int c = 0; c < 3; c++) {
        double s = variant == COLSUM_REGROUPED
                       ? fabs(a[c]) + (fabs(a[3 + c]) + fabs(a[6 + c]))
                       : (fabs(a[c]) + fabs(a[3 + c])) + fabs(a[6 + c]);
        m = s > m ? s : m;
    }
    return m;
}

static double ref_adjugate(const double *t, double *g, int variant)
{
    g[0] = t[4] * t[8] - t[5] * t[7];
    g[1] = t[2] * t[7] - t[1] * t[8];
    g[2] = t[1] * t[5] - t[2] * t[4];
    g[3] = t[5] * t[6] - t[3] * t[8];
    g[4] = t[0] * t[8] - t[2] * t[6];
    g[5] = t[2] * t[3] - t[0] * t[5];
    g[6] = t[3] * t[7] - t[4] * t[6];
    g[7] = t[1] * t[6] - t[0] * t[7];
    g[8] = t[0] * t[4] - t[1] * t[3];
    if (variant == DET_REGROUPED)
        return t[0] * g[0] + (t[1] * g[3] + t[2] * g[6]);
    return (t[0] * g[0] + t[1] * g[3]) + t[2] * g[6];
}

/* the a-th entry of row a of A times column c of B (stride: B's row length; 1 for a
 * vector) */
static double ref_dot(const double *Aa, const double *B, int c, int stride, int variant)
{
    if (variant == PRODUCT_REGROUPED || (variant == VECTOR_REGROUPED && stride == 1))
        return Aa[0] * B[c] + (Aa[1] * B[stride + c] + Aa[2] * B[2 * stride + c]);
    return (Aa[0] * B[c] + Aa[1] * B[stride + c]) + Aa[2] * B[2 * stride + c];
}

static void ref_fail(struct outcome *o, const char *fmt, size_t i, double v)
{
    o->status = MB_ESINGULAR;
    snprintf(o->message, sizeof o->message, fmt, i, v, MB_BLOCKTRI_RCOND_MIN);
}

static void ref_sweep(const struct chain *ch, int variant, struct outcome *o)
{
    double X[9 * NODES], z[3 * NODES];
    double rc_num = 1.0, rc_den = 0.0, gr_num = 0.0, gr_den = 1.0;
    memset(o, 0, sizeof *o);
    o->status = MB_SUCCESS;
    for (size_t i = 0; i < NODES && o->status == MB_SUCCESS; i++) {
        const double *Di = &ch->D[9 * i], *Li = &ch->L[9 * i];
        double S[9], r[3], g[9], t[9];
        for (int a = 0; a < 3; a++) {
            for (int c = 0; c < 3; c++)
                S[3 * a + c] = i == 0 ? Di[3 * a + c]
                                      : Di[3 * a + c] - ref_dot(&Li[3 * a], &X[9 * (i - 1)],
                                                                c, 3, variant);
            r[a] = i == 0 ? ch->b[a]
                          : ch->b[3 * i + a] - ref_dot(&Li[3 * a], &z[3 * (i - 1)], 0, 1,
                                                       variant);
        }
        double snorm = ref_norm1(S, variant), dnorm = ref_norm1(Di, variant);
        if (!(snorm <= 16.0 * dnorm)) {
            ref_fail(o, "block-tridiagonal solve: pivot block of node %zu is singular or "
                        "has grown %g times its diagonal block", i, snorm / dnorm);
            break;
        }
        double rs = 1.0, tnorm = snorm, det = ref_adjugate(S, g, variant);
        double anorm = ref_norm1(g, variant);
        if (!isnormal(det) || !isnormal(anorm)) {
            rs = 1.0 / snorm;
            tnorm = 1.0;
            for (int k = 0; k < 9; k++)
                t[k] = S[k] * rs;
            det = ref_adjugate(t, g, variant);
            anorm = ref_norm1(g, variant);
        }
        double adet = fabs(det), bound = tnorm * anorm;
        if (!(adet > 0.0 && adet >= 0x1p-26 * bound)) {
            ref_fail(o, "block-tridiagonal solve: pivot block of node %zu has rcond %g < %g",
                     i, adet / bound);
            break;
        }
        if (adet * rc_den < rc_num * bound)
            rc_num = adet, rc_den = bound;
        if (snorm * gr_den > gr_num * dnorm)
            gr_num = snorm, gr_den = dnorm;
        double f = rs / det, after = f;
        if (variant == SCALED_FIRST) {
            for (int k = 0; k < 9; k++)
                g[k] *= f;
            after = 1.0;
        }
        for (int a = 0; a < 3; a++) {
            z[3 * i + a] = ref_dot(&g[3 * a], r, 0, 1, variant) * after;
            for (int c = 0; c < 3 && i + 1 < NODES; c++)
                X[9 * i + 3 * a + c] = ref_dot(&g[3 * a], &ch->U[9 * i], c, 3, variant) * after;
        }
    }
    o->rcond_min = rc_num / rc_den;
    o->growth_max = gr_num / gr_den;
    if (o->status != MB_SUCCESS)
        return;
    double bad = 0.0;
    for (size_t i = NODES; i-- > 0;)
        for (int a = 0; a < 3; a++) {
            double *xi = &o->x[3 * i + a];
            *xi = i + 1 == NODES ? z[3 * i + a]
                                 : z[3 * i + a] - ref_dot(&X[9 * i + 3 * a], &o->x[3 * (i + 1)],
                                                          0, 1, variant);
            bad += *xi - *xi;
        }
    if (!(bad == 0.0)) {
        o->status = MB_ESINGULAR;
        snprintf(o->message, sizeof o->message,
                 "block-tridiagonal solve: the solution is not finite");
    }
}

/* The sweep's outcome as the header defines it: the products first, and where that is
 * refused, the adjugate scaled first */
static void ref_solve(const struct chain *ch, struct outcome *o)
{
    ref_sweep(ch, AS_WRITTEN, o);
    if (o->status != MB_SUCCESS)
        ref_sweep(ch, SCALED_FIRST, o);
}

/* the library's storage holding the chain's blocks */
static mb_blocktri *chain_storage(const struct chain *ch)
{
    mb_blocktri *T = mb_blocktri_alloc(NODES);
    cr_assert_not_null(T);
    memcpy(T->D, ch->D, sizeof ch->D);
    memcpy(T->L, ch->L, sizeof ch->L);
    memcpy(T->U, ch->U, sizeof ch->U);
    return T;
}

/* o's status, message and worst pivot blocks from a sweep of T that returned status; T freed */
static void sweep_outcome(mb_blocktri *T, int status, struct outcome *o)
{
    o->status = status;
    if (status != MB_SUCCESS)
        snprintf(o->message, sizeof o->message, "%s", mb_last_error());
    o->rcond_min = T->rcond_min;
    o->growth_max = T->growth_max;
    mb_blocktri_free(T);
}

static void lib_sweep(const struct chain *ch, struct outcome *o)
{
    mb_blocktri *T = chain_storage(ch);
    memset(o, 0, sizeof *o);
    sweep_outcome(T, mb_blocktri_solve(T, ch->b, o->x), o);
}

static int same_outcome(const struct outcome *a, const struct outcome *b)
{
    return a->status == b->status && strcmp(a->message, b->message) == 0
           && memcmp(&a->rcond_min, &b->rcond_min, sizeof a->rcond_min) == 0
           && memcmp(&a->growth_max, &b->growth_max, sizeof a->growth_max) == 0
           && memcmp(a->x, b->x, sizeof a->x) == 0;
}

/* a chain of pseudo-random blocks, D_i's diagonal raised by dom times its row's others */
static void random_chain(struct chain *ch, double dom)
{
    for (int k = 0; k < 9 * NODES; k++) {
        ch->D[k] = lcg_value();
        ch->L[k] = k < 9 ? 0.0 : lcg_value();
        ch->U[k] = k >= 9 * (NODES - 1) ? 0.0 : lcg_value();
    }
    for (int k = 0; k < 3 * NODES; k++)
        ch->b[k] = lcg_value();
    for (int i = 0; i < NODES; i++)
        for (int a = 0; a < 3; a++) {
            double off = 0.0;
            for (int c = 0; c < 3; c++)
                off += fabs(ch->L[9 * i + 3 * a + c]) + fabs(ch->U[9 * i + 3 * a + c])
                       + (c != a ? fabs(ch->D[9 * i + 3 * a + c]) : 0.0);
            ch->D[9 * i + 4 * a] += copysign(dom * off, ch->D[9 * i + 4 * a]);
        }
}

/* node k's blocks and right-hand side times s */
static void scale_node(struct chain *ch, int k, double s)
{
    for (int q = 0; q < 9; q++) {
        ch->D[9 * k + q] *= s;
        ch->L[9 * k + q] *= s;
        ch->U[9 * k + q] *= s;
    }
    for (int a = 0; a < 3; a++)
        ch->b[3 * k + a] *= s;
}

#define CASES 400

/* the case set: each call builds case c */
static void build_case(struct chain *ch, int c)
{
    const double special[4] = { NAN, INFINITY, -INFINITY, 0.0 };
    random_chain(ch, c % 4 == 0 ? 0.0 : c % 4 == 1 ? 0.25 : 1.5);
    if (c < 120)
        return;                         /* accepted, or refused where they happen to be */
    if (c < 160) {                      /* out of the normal range: the second try */
        const double s[4] = { 0x1p-400, 0x1p+400, 0x1p-540, 0x1p-360 };
        scale_node(ch, 1 + c % 5, s[(c / 5) % 4]);
        return;
    }
    if (c < 170) {                      /* a zero block, a singular one (rows 0 and 1 equal) */
        int k = 1 + c % 5;
        if (c % 2)
            memset(&ch->D[9 * k], 0, 9 * sizeof(double));
        else
            memcpy(&ch->D[9 * k + 3], &ch->D[9 * k], 3 * sizeof(double));
        return;
    }
    int e = (c - 170) % 57, which = (c - 170) / 57 % 4;    /* one entry of node 3 special */
    double v = special[which];
    if (e < 9)
        ch->D[27 + e] = v;
    else if (e < 18)
        ch->L[27 + e - 9] = v;
    else if (e < 27)
        ch->U[27 + e - 18] = v;
    else if (e < 30)
        ch->b[9 + e - 27] = v;
    else if (e < 39)
        ch->D[9 * 6 + e - 30] = v;      /* the last node */
    else if (e < 48)
        ch->D[e - 39] = v;              /* the first node */
    else
        ch->L[9 * 6 + e - 48] = v;
}

Test(blocktri_rows, every_decision_and_bit_of_the_written_sweep)
{
    struct chain ch;
    struct outcome lib, ref;
    int refused[3] = { 0, 0, 0 };
    lcg_state = 0x2545f4914f6cdd1du;
    for (int c = 0; c < CASES; c++) {
        build_case(&ch, c);
        lib_sweep(&ch, &lib);
        ref_solve(&ch, &ref);
        cr_expect(same_outcome(&lib, &ref),
                  "case %d: status %d/%d, rcond %a/%a, growth %a/%a, '%s' / '%s'", c,
                  lib.status, ref.status, lib.rcond_min, ref.rcond_min, lib.growth_max,
                  ref.growth_max, lib.message, ref.message);
        if (ref.status != MB_SUCCESS)
            refused[strstr(ref.message, "grown") ? 0 : strstr(ref.message, "rcond") ? 1 : 2]++;
    }
    /* the set reaches every refusal */
    cr_expect(refused[0] > 0 && refused[1] > 0 && refused[2] > 0, "refused %d %d %d",
              refused[0], refused[1], refused[2]);
}

Test(blocktri_rows, the_data_tell_the_written_order_from_others)
{
    const int controls[5] = { DET_REGROUPED, COLSUM_REGROUPED, PRODUCT_REGROUPED,
                              VECTOR_REGROUPED, SCALED_FIRST };
    struct chain ch;
    struct outcome lib, other;
    for (int k = 0; k < 5; k++) {
        int differ = 0;
        lcg_state = 0x2545f4914f6cdd1du;
        for (int c = 0; c < CASES; c++) {
            build_case(&ch, c);
            lib_sweep(&ch, &lib);
            ref_sweep(&ch, controls[k], &other);
            differ += !same_outcome(&lib, &other);
        }
        cr_expect(differ > 0, "control %d: no case tells it from the sweep", controls[k]);
    }
}

/* The second try itself is reached and decides: a node of a diagonally dominant chain
 * scaled by 2^-540 has a determinant about 2^-1620, zero in doubles (shown on D_3), and
 * is accepted from S / ||S||_1 as the written sweep accepts it. */
Test(blocktri_rows, second_try_reached_and_accepted)
{
    struct chain ch;
    struct outcome lib, ref;
    lcg_state = 0x9e3779b97f4a7c15u;
    random_chain(&ch, 1.5);
    scale_node(&ch, 3, 0x1p-540);
    lib_sweep(&ch, &lib);
    ref_solve(&ch, &ref);
    cr_assert_eq(lib.status, MB_SUCCESS, "%s", lib.message);
    cr_expect(same_outcome(&lib, &ref));
    double S[9], g[9];
    memcpy(S, &ch.D[27], sizeof S);
    cr_expect(!isnormal(ref_adjugate(S, g, AS_WRITTEN)), "det D_3 is normal: no second try");
}

/* the sweep with the drift: its outcome, y+ and the sum of y+ - y+ */
static void lib_sweep_axpy(const struct chain *ch, const double *y, double h,
                           struct outcome *o, double *y_new, double *nonfinite)
{
    mb_blocktri *T = chain_storage(ch);
    memset(o, 0, sizeof *o);
    sweep_outcome(T, mb_blocktri_solve_axpy(T, ch->b, o->x, y, h, y_new, nonfinite), o);
}

/* y for case c: pseudo-random, one entry +Inf or NaN in every seventh case */
static void drift_start(double *y, int c)
{
    for (int k = 0; k < 3 * NODES; k++)
        y[k] = lcg_value();
    if (c % 7 == 3)
        y[c % (3 * NODES)] = c % 2 ? INFINITY : NAN;
}

enum { DRIFT_AS_WRITTEN, DRIFT_REGROUPED };

/* y + x h entry by entry, or the control (y / h + x) h; 1 when y_new holds those bits */
static int same_drift(const double *y, const double *x, double h, const double *y_new,
                      int variant)
{
    for (int k = 0; k < 3 * NODES; k++) {
        double r = variant == DRIFT_AS_WRITTEN ? y[k] + x[k] * h : (y[k] / h + x[k]) * h;
        if (memcmp(&r, &y_new[k], sizeof r) != 0)
            return 0;
    }
    return 1;
}

Test(blocktri_rows, the_sweep_with_the_drift_gives_y_plus_x_h)
{
    const double h = 0.37;
    struct chain ch;
    struct outcome lib, ref;
    double y[3 * NODES], y_new[3 * NODES], nonfinite;
    int finite = 0, not_finite = 0, x_not_finite = 0;
    lcg_state = 0x2545f4914f6cdd1du;
    for (int c = 0; c < CASES; c++) {
        build_case(&ch, c);
        drift_start(y, c);
        lib_sweep_axpy(&ch, y, h, &lib, y_new, &nonfinite);
        ref_solve(&ch, &ref);
        cr_expect(same_outcome(&lib, &ref), "case %d: status %d/%d, '%s' / '%s'", c,
                  lib.status, ref.status, lib.message, ref.message);
        x_not_finite += strstr(ref.message, "not finite") != NULL;
        if (ref.status != MB_SUCCESS)
            continue;
        cr_expect(same_drift(y, ref.x, h, y_new, DRIFT_AS_WRITTEN), "case %d: y+", c);
        int all = 1;
        for (int k = 0; k < 3 * NODES; k++)
            all &= isfinite(y_new[k]) != 0;
        cr_expect(all ? nonfinite == 0.0 && !signbit(nonfinite) : isnan(nonfinite) != 0,
                  "case %d: the sum %g with every y+ %s", c, nonfinite,
                  all ? "finite" : "not finite");
        finite += all;
        not_finite += !all;
    }
    /* both kinds of accepted solution reached, and a solution refused as not finite */
    cr_expect(finite > 0 && not_finite > 0 && x_not_finite > 0,
              "finite %d, not finite %d, x not finite %d", finite, not_finite, x_not_finite);
}

Test(blocktri_rows, the_data_tell_the_drift_as_written_from_another)
{
    const double h = 0.37;
    struct chain ch;
    struct outcome lib;
    double y[3 * NODES], y_new[3 * NODES], nonfinite;
    int differ = 0;
    lcg_state = 0x2545f4914f6cdd1du;
    for (int c = 0; c < CASES; c++) {
        build_case(&ch, c);
        drift_start(y, c);
        lib_sweep_axpy(&ch, y, h, &lib, y_new, &nonfinite);
        if (lib.status == MB_SUCCESS)
            differ += !same_drift(y, lib.x, h, y_new, DRIFT_REGROUPED);
    }
    cr_expect(differ > 0, "no case tells (y / h + x) h from y + x h");
}

/* A right-hand side near DBL_MAX on a chain whose pivot blocks' adjugates exceed 1: the
 * products adj(S_i) r_i overflow where S_i^-1 r_i does not, so the products-first sweep
 * alone is refused (shown by the written sweep), and the library's sweep, run again with
 * the adjugate scaled first, gives that sweep's every bit (both calls). */
static void overflowing_products(struct chain *ch)
{
    lcg_state = 0x243f6a8885a308d3u;
    random_chain(ch, 1.5);
    for (int k = 0; k < 9 * NODES; k++) {
        ch->D[k] *= 0x1p+12;
        ch->L[k] *= 0x1p+12;
        ch->U[k] *= 0x1p+12;
    }
    for (int k = 0; k < 3 * NODES; k++)
        ch->b[k] = ch->b[k] * 0x1p+1012;
}

Test(blocktri_rows, overflowing_products_run_again_scaled_first)
{
    struct chain ch;
    struct outcome lib, products_first, scaled_first;
    double y[3 * NODES], y_new[3 * NODES], nonfinite;
    overflowing_products(&ch);
    ref_sweep(&ch, AS_WRITTEN, &products_first);
    ref_sweep(&ch, SCALED_FIRST, &scaled_first);
    cr_assert_neq(products_first.status, MB_SUCCESS, "the products do not overflow here");
    cr_assert_eq(scaled_first.status, MB_SUCCESS, "%s", scaled_first.message);
    lib_sweep(&ch, &lib);
    cr_expect(same_outcome(&lib, &scaled_first), "status %d, '%s'", lib.status, lib.message);
    for (int k = 0; k < 3 * NODES; k++)
        y[k] = 0.5;
    lib_sweep_axpy(&ch, y, 0.25, &lib, y_new, &nonfinite);
    cr_expect(same_outcome(&lib, &scaled_first), "drift: status %d, '%s'", lib.status,
              lib.message);
    cr_expect(same_drift(y, scaled_first.x, 0.25, y_new, DRIFT_AS_WRITTEN));
    cr_expect(nonfinite == 0.0);
}
