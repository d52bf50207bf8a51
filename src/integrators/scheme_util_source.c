/* scheme_util_source.c -- helpers shared by scheme templates: scratch arrays of REAL and
 * the "all finite" test.  Included inside a template instance (after templates_on.h). */

/* count REALs, each initialised at prec and set to zero; NULL on failure. */
static inline REAL *FUNCTION(scheme, array)(size_t count, mpfr_prec_t prec)
{
    REAL *a = calloc(count ? count : 1, sizeof(REAL));
    for (size_t k = 0; a && k < count; k++) {
        R_INIT(&a[k], prec);
        R_SET_D(&a[k], 0.0);
    }
    return a;
}

static inline void FUNCTION(scheme, array_free)(REAL *a, size_t count)
{
    if (a == NULL)
        return;
    for (size_t k = 0; k < count; k++)
        R_CLEAR(&a[k]);
    free(a);
}

static inline int FUNCTION(scheme, finite)(const REAL *a, size_t count)
{
    for (size_t k = 0; k < count; k++)
        if (!R_ISFINITE(&a[k]))
            return 0;
    return 1;
}

static inline void FUNCTION(scheme, swap)(REAL **a, REAL **b)
{
    REAL *t = *a;
    *a = *b;
    *b = t;
}
