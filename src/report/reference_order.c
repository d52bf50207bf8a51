/* reference_order.c -- expected or declared order of a scheme (mb_reference_order.h). */
#include "mb_reference_order.h"
#include "mb_stepper.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *mb_order_source_name(mb_order_source s)
{
    return s == MB_ORDER_EXPECTED ? "expected" : s == MB_ORDER_DECLARED ? "declared" : "";
}

/* "... .order.QUANTITY = P ..." of a checks.csv row: P, NaN when the text is not of that
 * form (a bound "< P", a flags or stderr expectation) */
static double expected_in(const char *text, const char *quantity)
{
    char key[64];
    snprintf(key, sizeof key, ".order.%s = ", quantity);
    const char *at = strstr(text, key);
    if (at == NULL)
        return NAN;
    char *end;
    double p = strtod(at + strlen(key), &end);
    return end != at + strlen(key) && (*end == '\0' || *end == ' ') ? p : NAN;
}

static double expected_order(const mb_results *r, const char *c, const char *spec,
                             const char *quantity)
{
    const mb_csv_table *t = r->checks;
    int cc = mb_csv_col(t, "case"), ci = mb_csv_col(t, "integrator");
    int cd = mb_csv_col(t, "dt"), ce = mb_csv_col(t, "expectation");
    for (size_t k = 0; t && k < t->n_rows; k++)
        if (!strcmp(mb_csv_cell(t, k, cc), c) && !strcmp(mb_csv_cell(t, k, ci), spec)
            && mb_csv_cell(t, k, cd)[0] == '\0') {
            double p = expected_in(mb_csv_cell(t, k, ce), quantity);
            if (isfinite(p))
                return p;
        }
    return NAN;
}

/* the scheme's declared order; NaN for outside programs and unknown names */
static double declared_order(const char *spec, const char *quantity)
{
    char name[128];
    size_t len = strcspn(spec, "[");
    if (len >= sizeof name || !strncmp(spec, "external:", 9))
        return NAN;
    memcpy(name, spec, len);
    name[len] = '\0';
    const mb_stepper_type *type = mb_stepper_find(name);
    if (type == NULL)
        return NAN;
    int rotation = !strcmp(quantity, "orientation") || !strcmp(quantity, "angular_velocity");
    int p = rotation ? type->order_rotation : type->order;
    return p > 0 ? (double)p : NAN;
}

mb_order_source mb_reference_order(const mb_results *r, const char *c, const char *spec,
                                   const char *quantity, double *p)
{
    if (isfinite(*p = expected_order(r, c, spec, quantity)))
        return MB_ORDER_EXPECTED;
    if (isfinite(*p = declared_order(spec, quantity)))
        return MB_ORDER_DECLARED;
    return MB_ORDER_NONE;
}
