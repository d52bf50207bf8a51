/* expect_eval.c -- the verdict of an expectation on a metric value (DESIGN 7).
 * A NaN value fails every numeric comparison; a missing value is its own verdict. */
#include "mb_runner.h"

#include <math.h>
#include <string.h>

const char *mb_verdict_name(mb_verdict v)
{
    switch (v) {
    case MB_VERDICT_PASS: return "pass";
    case MB_VERDICT_FAIL: return "fail";
    case MB_VERDICT_SKIPPED: return "skipped";
    default: return "missing";
    }
}

mb_verdict mb_expectation_holds(const mb_expectation *e, const mb_metric_value *m)
{
    if (m == NULL)
        return MB_VERDICT_MISSING;
    if (e->op == MB_EXPECT_WORD)
        return m->word && strcmp(m->word, e->word) == 0 ? MB_VERDICT_PASS : MB_VERDICT_FAIL;
    if (m->word)
        return MB_VERDICT_FAIL;
    double v = m->value;
    int ok;
    switch (e->op) {
    case MB_EXPECT_APPROX: ok = fabs(v - e->value) <= e->tol; break;
    case MB_EXPECT_LT: ok = v < e->value; break;
    case MB_EXPECT_LE: ok = v <= e->value; break;
    case MB_EXPECT_GT: ok = v > e->value; break;
    default: ok = v >= e->value; break;
    }
    return ok ? MB_VERDICT_PASS : MB_VERDICT_FAIL;
}
