/* reference.c -- choosing and evaluating a reference solution (see mb_reference.h). */
#include "mb_reference.h"
#include "mb_status.h"

#include <stdlib.h>
#include <string.h>

const char *mb_reference_kind_name(mb_reference_kind kind)
{
    switch (kind) {
    case MB_REF_ANALYTIC: return "analytic";
    case MB_REF_ODE:      return "ode";
    case MB_REF_MPFR:     return "mpfr";
    default:              return "auto";
    }
}

int mb_reference_parse(const char *text, mb_reference_request *req)
{
    req->mpfr_bits = 256;
    if (!strcmp(text, "auto")) { req->kind = MB_REF_AUTO; return MB_SUCCESS; }
    if (!strcmp(text, "analytic")) { req->kind = MB_REF_ANALYTIC; return MB_SUCCESS; }
    if (!strcmp(text, "ode")) { req->kind = MB_REF_ODE; return MB_SUCCESS; }
    if (!strncmp(text, "mpfr", 4)) {
        req->kind = MB_REF_MPFR;
        if (text[4] == '\0')
            return MB_SUCCESS;
        if (text[4] == ':') {
            char *end;
            long bits = strtol(text + 5, &end, 10);
            if (end != text + 5 && *end == '\0' && bits >= 113 && bits <= 100000) {
                req->mpfr_bits = bits;
                return MB_SUCCESS;
            }
        }
        MB_ERROR(MB_EINVAL, "reference '%s': write mpfr or mpfr:BITS with BITS in [113, 100000]", text);
    }
    MB_ERROR(MB_EINVAL, "unknown reference '%s' (analytic, ode, mpfr[:BITS] or auto)", text);
}

int mb_reference_state(const mb_problem_type *pt, const mb_options *params,
                       const mb_reference_request *req, double t, mb_nodes *out,
                       mb_reference_kind *used, double *error_estimate)
{
    mb_reference_kind kind = req->kind;
    if (kind == MB_REF_AUTO)
        kind = pt->exact ? MB_REF_ANALYTIC : MB_REF_MPFR;
    *used = kind;
    *error_estimate = 0.0;
    switch (kind) {
    case MB_REF_ANALYTIC:
        if (pt->exact == NULL)
            MB_ERROR(MB_EUNSUP, "problem '%s' has no closed-form solution (use ode or mpfr)", pt->name);
        return pt->exact(params, t, out);
    default:
        MB_ERROR(MB_EUNSUP, "reference kind '%s' is not available for problem '%s'",
                 mb_reference_kind_name(kind), pt->name);
    }
}
