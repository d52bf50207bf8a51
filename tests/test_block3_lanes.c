/* test_block3_lanes.c -- the 3x3 block arithmetic in two-lane vectors (block3_lanes.h)
 * must give, entry by entry and bit for bit, the scalar expressions the assembly is
 * defined by, written out here:
 *   G = h C + h^2 K                 G_q = h C_q + h2 K_q
 *   F + G, F - G, -F, diag(m), +0   entry by entry
 *   a + g, a - g on one row         a_e + g_e, a_e - g_e (block3_row_addsub), in place
 *   x y^T, s A, A + s I             x_r y_c, s A_q, A_q + s on the diagonal and every other
 *                                   entry's bits kept (-0 and NaN included)
 * on blocks of pseudo-random entries over twenty binary orders of magnitude (a lane that
 * reads another entry's operand shows).  Each test first shows (the control) that its
 * data tell the documented expression from another one, so that a regrouped expression
 * in a lane fails it.  The first term's start values: +0 off the diagonal (0 - G of a +0
 * is +0, where -G would be -0).  Whether a block is zero (block3_nonzero): 1 exactly
 * when some entry q has C_q != 0 -- written out here entry by entry -- on blocks of +0 and
 * -0 with one entry, any of the nine, set to a value, -0, a subnormal or NaN. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "block3_lanes.h"

/* pseudo-random doubles in +-[2^-10, 2^10), a fixed sequence (64-bit LCG, Knuth's MMIX) */
static uint64_t lcg_state = 0x9e3779b97f4a7c15u;

static double lcg_value(void)
{
    lcg_state = lcg_state * 6364136223846793005u + 1442695040888963407u;
    double mant = 1.0 + (double)(lcg_state >> 11) * 0x1p-53;     /* [1, 2) */
    int e = (int)((lcg_state >> 3) % 20) - 10;
    return (lcg_state & 4u ? -1.0 : 1.0) * ldexp(mant, e);
}

static void lcg_block(double a[9])
{
    for (int q = 0; q < 9; q++)
        a[q] = lcg_value();
}

/* 1 when the nine entries have the same bits */
static int same_bits(const double *x, const double *y)
{
    return memcmp(x, y, 9 * sizeof(double)) == 0;
}

/* G_q = h C_q + h2 K_q with h2 = h h; the control: (h C_q + h2 K_q) against
 * h (C_q + h K_q), the same sum grouped otherwise, differs somewhere on the data */
Test(block3_lanes, g_is_h_c_plus_h2_k_entry_by_entry)
{
    const double h = 0.0083333333333333332, h2 = h * h;
    double C[9], K[9], G[9], out[9];
    int told = 0;
    for (int set = 0; set < 64; set++) {
        lcg_block(C);
        lcg_block(K);
        for (int q = 0; q < 9; q++) {
            G[q] = h * C[q] + h2 * K[q];
            told |= G[q] != h * (C[q] + h * K[q]);
        }
        block3_store(out, block3_g(C, K, h, h2));
        cr_expect(same_bits(out, G), "set %d: G differs from h C + h^2 K", set);
    }
    cr_assert(told, "control: the data do not tell h C + h^2 K from h (C + h K)");
}

/* F + G, F - G and -F entry by entry (F of both signs); the start values diag(m) and +0,
 * and 0 - G of G = +0 is +0 (control: -G would give -0) */
Test(block3_lanes, sums_and_start_values_entry_by_entry)
{
    double F[9], G[9], sum[9], dif[9], out[9];
    for (int set = 0; set < 64; set++) {
        lcg_block(F);
        lcg_block(G);
        for (int q = 0; q < 9; q++) {
            sum[q] = F[q] + G[q];
            dif[q] = F[q] - G[q];
        }
        block3_store(out, block3_add(block3_load(F), block3_load(G)));
        cr_expect(same_bits(out, sum), "set %d: F + G", set);
        block3_store(out, block3_sub(block3_load(F), block3_load(G)));
        cr_expect(same_bits(out, dif), "set %d: F - G", set);
    }
    double neg[9];
    for (int q = 0; q < 9; q++)
        neg[q] = -F[q];
    block3_store(out, block3_neg(block3_load(F)));
    cr_expect(same_bits(out, neg), "-F");
    const double m = 1.375, M[9] = { m, 0.0, 0.0, 0.0, m, 0.0, 0.0, 0.0, m };
    block3_store(out, block3_mass(m));
    cr_expect(same_bits(out, M), "diag(m) with +0 off the diagonal");
    const double zero[9] = { 0 };
    block3_store(out, block3_zero());
    cr_expect(same_bits(out, zero), "the block +0");
    double Gz[9], first[9];
    lcg_block(Gz);
    Gz[1] = Gz[5] = 0.0;                        /* +0 entries of G */
    for (int q = 0; q < 9; q++)
        first[q] = 0.0 - Gz[q];
    cr_assert(signbit(-Gz[1]) && !signbit(first[1]), "control: -(+0) is -0, 0 - (+0) is +0");
    block3_store(out, block3_sub(block3_zero(), block3_load(Gz)));
    cr_expect(same_bits(out, first), "a first term off the diagonal: 0 - G");
}

/* the ninth entry, alone in its vector, is stored and nothing beyond it is written */
Test(block3_lanes, ninth_entry_stored_nothing_beyond)
{
    double F[10], out[10];
    lcg_block(F);
    F[9] = 123.0;
    out[9] = -7.0;
    block3_store(out, block3_load(F));
    cr_expect(same_bits(out, F), "the nine entries copied");
    cr_expect(out[9] == -7.0, "the double after the block was written");
}

/* One row of a block in storage of another stride (block3_row_addsub: the cloth peer's
 * scalar CSR rows): a_e + g_e or a_e - g_e written out, on three rows of a 3 x 5 array
 * (stride 5), the entries beside each row untouched.  The data hold -0 and +0 rows, where
 * a + g and a - (-g) agree but a lane that adds where it should subtract, or reads its
 * neighbour's g, does not (control: the subtraction's result differs from the sum's, and
 * from the sum with g's first two entries swapped, on every row). */
Test(block3_lanes, one_row_added_or_subtracted_in_place)
{
    double g[9], base[15];
    lcg_block(g);
    g[4] = -0.0;                                    /* row 1: a -0 and a +0 of g */
    g[5] = 0.0;
    for (int q = 0; q < 15; q++)
        base[q] = lcg_value();
    base[5 + 1] = 0.0;
    base[5 + 2] = -0.0;
    for (int add = 0; add <= 1; add++) {
        double a[15], want[15], swapped[15];
        memcpy(a, base, sizeof a);
        memcpy(want, base, sizeof want);
        memcpy(swapped, base, sizeof swapped);
        for (int r = 0; r < 3; r++) {
            for (int e = 0; e < 3; e++) {
                double x = base[5 * r + e], y = g[3 * r + e];
                double ys = e < 2 ? g[3 * r + 1 - e] : y;
                want[5 * r + e] = add ? x + y : x - y;
                swapped[5 * r + e] = add ? x + ys : x - ys;
            }
            block3_row_addsub(&a[5 * r], &g[3 * r], add);
        }
        cr_expect(memcmp(a, want, sizeof a) == 0, "add %d: the rows differ from a %s g", add,
                  add ? "+" : "-");
        cr_assert(memcmp(swapped, want, sizeof want) != 0, "control: g's lanes swapped gave "
                  "the same bits");
    }
    double s[15], d[15];
    memcpy(s, base, sizeof s);
    memcpy(d, base, sizeof d);
    for (int r = 0; r < 3; r++) {
        block3_row_addsub(&s[5 * r], &g[3 * r], 1);
        block3_row_addsub(&d[5 * r], &g[3 * r], 0);
        cr_assert(memcmp(&s[5 * r], &d[5 * r], 3 * sizeof(double)) != 0,
                  "control: row %d's sum and difference have the same bits", r);
    }
}

/* the outer product x y^T entry by entry x_r y_c, s A entry by entry, and A + s I: the
 * diagonal A_q + s, every other entry its own bits (its lane adds -0); on random data and
 * on a block whose off-diagonal entries are -0, +0, NaN and infinities.  Controls: the
 * random data tell x y^T from y x^T, and +0 (instead of -0) added off the diagonal would
 * turn the block's -0 into +0. */
Test(block3_lanes, outer_scale_and_diagonal_entry_by_entry)
{
    double x[3], y[3], A[9], O[9], S[9], D[9], out[9];
    int transposed_told = 0;
    for (int set = 0; set < 64; set++) {
        for (int k = 0; k < 3; k++)
            x[k] = lcg_value(), y[k] = lcg_value();
        lcg_block(A);
        const double s = lcg_value();
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) {
                O[3 * r + c] = x[r] * y[c];
                transposed_told |= O[3 * r + c] != x[c] * y[r];
            }
        for (int q = 0; q < 9; q++) {
            S[q] = A[q] * s;
            D[q] = q % 4 == 0 ? A[q] + s : A[q];
        }
        block3_store(out, block3_outer(x, y));
        cr_expect(same_bits(out, O), "set %d: x y^T differs from x_r y_c", set);
        block3_store(out, block3_scale(block3_load(A), s));
        cr_expect(same_bits(out, S), "set %d: s A differs from s A_q", set);
        block3_store(out, block3_add_diagonal(block3_load(A), s));
        cr_expect(same_bits(out, D), "set %d: A + s I differs from A_q + s on the diagonal", set);
    }
    cr_assert(transposed_told, "control: the data do not tell x y^T from y x^T");
    const double off[9] = { 1.5, -0.0, 0.0, NAN, -2.0, -INFINITY, INFINITY, -0.0, 0.25 };
    block3_store(out, block3_add_diagonal(block3_load(off), 0.5));
    for (int q = 0; q < 9; q++) {
        double want = q % 4 == 0 ? off[q] + 0.5 : off[q];
        cr_expect(memcmp(&out[q], &want, sizeof want) == 0, "entry %d: bits not kept", q);
    }
    const double plus = off[1] + 0.0;
    cr_assert(!signbit(plus) && signbit(off[1]), "control: +0 added to -0 keeps the sign");
}

/* the definition: 1 when some entry is not zero (NaN is not zero; -0 is) */
static int nonzero_written(const double a[9])
{
    int any = 0;
    for (int q = 0; q < 9; q++)
        if (a[q] != 0.0)
            any = 1;
    return any;
}

Test(block3_lanes, nonzero_exactly_when_an_entry_is_not_zero)
{
    static const double values[] = { 1.5, -0x1p-1074, -0.0, NAN, INFINITY };
    double a[9];
    for (int q = 0; q < 9; q++)
        a[q] = q % 2 ? -0.0 : 0.0;
    cr_assert_eq(block3_nonzero(block3_load(a)), 0, "+0 and -0: zero");
    int tested = 0, nonzero = 0;
    for (int q = 0; q < 9; q++)
        for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
            double b[9];
            memcpy(b, a, sizeof b);
            b[q] = values[v];
            int want = nonzero_written(b);
            cr_expect_eq(block3_nonzero(block3_load(b)), want, "entry %d = %g: want %d", q,
                         b[q], want);
            tested++;
            nonzero += want;
        }
    cr_expect(nonzero > 0 && nonzero < tested, "control: the blocks are zero and not zero");
}
