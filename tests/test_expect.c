/* test_expect.c -- the grammar of [expect] values and [check] tolerances, key splitting,
 * and the verdicts. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "mb_case.h"
#include "mb_runner.h"
#include "mb_status.h"

Test(expect, grammar)
{
    mb_expectation e;
    cr_assert_eq(mb_expect_parse_value("2 +- 0.1", &e), 0);
    cr_expect(e.op == MB_EXPECT_APPROX && e.value == 2.0 && e.tol == 0.1);
    cr_assert_eq(mb_expect_parse_value("  -1.5e-3+-2e-4 ", &e), 0);
    cr_expect(e.op == MB_EXPECT_APPROX && e.value == -1.5e-3 && e.tol == 2e-4);
    cr_assert_eq(mb_expect_parse_value("< 1e-3", &e), 0);
    cr_expect(e.op == MB_EXPECT_LT && e.value == 1e-3);
    cr_assert_eq(mb_expect_parse_value("<= 4", &e), 0);
    cr_expect(e.op == MB_EXPECT_LE);
    cr_assert_eq(mb_expect_parse_value(">2.385", &e), 0);
    cr_expect(e.op == MB_EXPECT_GT && e.value == 2.385);
    cr_assert_eq(mb_expect_parse_value(">= -7", &e), 0);
    cr_expect(e.op == MB_EXPECT_GE && e.value == -7);
    cr_assert_eq(mb_expect_parse_value("diverged", &e), 0);
    cr_expect(e.op == MB_EXPECT_WORD && !strcmp(e.word, "diverged"));
    cr_assert_eq(mb_expect_parse_value("= 0", &e), 0);     /* a count: exactly 0 */
    cr_expect(e.op == MB_EXPECT_APPROX && e.value == 0.0 && e.tol == 0.0);
    cr_assert_eq(mb_expect_parse_value("=12", &e), 0);
    cr_expect(e.op == MB_EXPECT_APPROX && e.value == 12.0 && e.tol == 0.0);
    static const char *const bad[] = { "2", "2 +-", "2 +- x", "2 +- -1", "< ", "<< 1", "=> 1",
                                       "1e999 +- 1", "nan +- 1", "okay", "2 +- 0.1 extra",
                                       "+- 2", "=", "= ", "== 0", "= x", "= 1 +- 2", NULL };
    for (const char *const *b = bad; *b; b++)
        cr_expect_neq(mb_expect_parse_value(*b, &e), 0, "'%s' accepted", *b);
}

Test(expect, tolerance_grammar)
{
    mb_tolerance t;
    cr_assert_eq(mb_tolerance_parse("rel 1e-3", &t), 0);
    cr_expect(t.relative && t.tol == 1e-3);
    cr_assert_eq(mb_tolerance_parse("abs 0.05", &t), 0);
    cr_expect(!t.relative && t.tol == 0.05);
    cr_expect_neq(mb_tolerance_parse("0.05", &t), 0);
    cr_expect_neq(mb_tolerance_parse("abs -1", &t), 0);
    cr_expect_neq(mb_tolerance_parse("relative 1", &t), 0);
}

Test(expect, verdicts)
{
    /* binary-exact numbers so the boundary is exact: |2.5 - 2| = 0.5 */
    mb_expectation e = { .op = MB_EXPECT_APPROX, .value = 2.0, .tol = 0.5 };
    mb_metric_value m = { .value = 2.5 };
    cr_expect_eq(mb_expectation_holds(&e, &m), MB_VERDICT_PASS);   /* boundary included */
    m.value = 2.5000001;
    cr_expect_eq(mb_expectation_holds(&e, &m), MB_VERDICT_FAIL);
    m.value = NAN;
    cr_expect_eq(mb_expectation_holds(&e, &m), MB_VERDICT_FAIL);    /* NaN never passes */
    e.op = MB_EXPECT_LT; e.value = 1.0; m.value = 1.0;
    cr_expect_eq(mb_expectation_holds(&e, &m), MB_VERDICT_FAIL);
    e.op = MB_EXPECT_LE;
    cr_expect_eq(mb_expectation_holds(&e, &m), MB_VERDICT_PASS);
    e.op = MB_EXPECT_GT;
    cr_expect_eq(mb_expectation_holds(&e, &m), MB_VERDICT_FAIL);
    e.op = MB_EXPECT_GE;
    cr_expect_eq(mb_expectation_holds(&e, &m), MB_VERDICT_PASS);
    e.op = MB_EXPECT_WORD;
    strcpy(e.word, "ok");
    m.word = "diverged";
    cr_expect_eq(mb_expectation_holds(&e, &m), MB_VERDICT_FAIL);
    m.word = "ok";
    cr_expect_eq(mb_expectation_holds(&e, &m), MB_VERDICT_PASS);
    cr_expect_eq(mb_expectation_holds(&e, NULL), MB_VERDICT_MISSING);
}

Test(expect, exact_count)
{
    mb_expectation e;
    cr_assert_eq(mb_expect_parse_value("= 0", &e), 0);
    mb_metric_value m = { .value = 0.0 };
    cr_expect_eq(mb_expectation_holds(&e, &m), MB_VERDICT_PASS);
    m.value = 1.0;
    cr_expect_eq(mb_expectation_holds(&e, &m), MB_VERDICT_FAIL);
    m.value = 4.9e-324;                     /* the smallest nonzero double is not 0 */
    cr_expect_eq(mb_expectation_holds(&e, &m), MB_VERDICT_FAIL);
    m.value = NAN;
    cr_expect_eq(mb_expectation_holds(&e, &m), MB_VERDICT_FAIL);
}

Test(expect, key_split)
{
    char *specs[2] = { "explicit-euler", "other-scheme[a=1]" };
    mb_case c;
    memset(&c, 0, sizeof c);
    c.n_integrators = 2;
    c.integrators = specs;
    const char *integ, *metric;
    cr_assert_eq(mb_case_split_key(&c, "explicit-euler.order.position", &integ, &metric), 0);
    cr_expect_str_eq(integ, "explicit-euler");
    cr_expect_str_eq(metric, "order.position");
    /* a bare name matching a listed spec with options */
    cr_assert_eq(mb_case_split_key(&c, "other-scheme.status", &integ, &metric), 0);
    cr_expect_str_eq(integ, "other-scheme[a=1]");
    cr_expect_str_eq(metric, "status");
    cr_expect_neq(mb_case_split_key(&c, "explicit-euler", &integ, &metric), 0);
    cr_expect_neq(mb_case_split_key(&c, "leapfrog.status", &integ, &metric), 0);
    /* a spec in brackets is canonicalised through the registry: explicit-euler takes no
     * options, so any option is an error naming it */
    cr_expect_neq(mb_case_split_key(&c, "explicit-euler[x=1].status", &integ, &metric), 0);
    cr_expect(strstr(mb_last_error(), "explicit-euler") != NULL, "%s", mb_last_error());
    cr_assert_eq(mb_case_split_key(&c, "explicit-euler[].status", &integ, &metric), 0);
    cr_expect_str_eq(integ, "explicit-euler");
}

/* canonical specs: defaults dropped, options in table order, shortest exact numbers */
Test(expect, canonical_spec)
{
    char out[256];
    cr_assert_eq(mb_case_canonical_spec("leapfrog[aspherical=fincham]", out, sizeof out), 0);
    cr_expect_str_eq(out, "leapfrog");
    cr_assert_eq(mb_case_canonical_spec(" leapfrog [ aspherical = fincham-woo , damping=0.50 ]",
                                        out, sizeof out), 0, "%s", mb_last_error());
    cr_expect_str_eq(out, "leapfrog[damping=0.5,aspherical=fincham-woo]");
    cr_assert_eq(mb_case_canonical_spec("leapfrog[adj_vel0=off]", out, sizeof out), 0);
    cr_expect_str_eq(out, "leapfrog[adj_vel0=off]");
    cr_expect_neq(mb_case_canonical_spec("leapfrog[aspherical=spiral]", out, sizeof out), 0);
    cr_expect_neq(mb_case_canonical_spec("leapfrg", out, sizeof out), 0);
    cr_expect(strstr(mb_last_error(), "did you mean 'leapfrog'") != NULL, "%s", mb_last_error());
}

/* Order flags are words too: the eight forms order.<q>.flags writes, and nothing else
 * (not another order of the same flags, not a misspelling). */
Test(expect, order_flags_words)
{
    mb_expectation e;
    cr_assert_eq(mb_expect_parse_value("excluded+short-range", &e), 0);
    cr_expect(e.op == MB_EXPECT_WORD && !strcmp(e.word, "excluded+short-range"));
    cr_assert_eq(mb_expect_parse_value("excluded+non-monotone+short-range", &e), 0);
    cr_expect_str_eq(e.word, "excluded+non-monotone+short-range");
    cr_assert_eq(mb_expect_parse_value("none", &e), 0);
    cr_expect(mb_expect_flags_word("none") && !mb_expect_status_word("none"));
    cr_expect(mb_expect_status_word("ok") && !mb_expect_flags_word("ok"));
    cr_expect_neq(mb_expect_parse_value("short-range+excluded", &e), 0);
    cr_expect_neq(mb_expect_parse_value("exclude", &e), 0);
    cr_expect(strstr(mb_last_error(), "did you mean 'excluded'") != NULL, "%s", mb_last_error());
}
