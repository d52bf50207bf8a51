/* nodes_source.c -- template body of the node store (see nodes.c). */

static REAL *FUNCTION(nodes, real_array)(size_t count, mpfr_prec_t prec)
{
    REAL *a = calloc(count ? count : 1, sizeof(REAL));
    if (a == NULL)
        return NULL;
    for (size_t k = 0; k < count; k++) {
        R_INIT(&a[k], prec);
        R_SET_D(&a[k], 0.0);
    }
    return a;
}

static void FUNCTION(nodes, real_array_free)(REAL *a, size_t count)
{
    if (a == NULL)
        return;
    for (size_t k = 0; k < count; k++)
        R_CLEAR(&a[k]);
    free(a);
}

TYPE(mb_nodes) *FUNCTION(mb_nodes, alloc)(size_t n, mpfr_prec_t prec)
{
    TYPE(mb_nodes) *s = calloc(1, sizeof *s);
    if (s == NULL)
        MB_ERROR_NULL(MB_ENOMEM, "cannot allocate a store of %zu nodes", n);
    s->n = n;
    s->prec = IS_MPFR ? prec : 53;
    int ok = 1;
#define X(m, w) ok &= (s->m = FUNCTION(nodes, real_array)((w) * n, prec)) != NULL;
#define Y(m, w) ok &= (s->m = calloc(n ? n : 1, (w))) != NULL;
    NODES_NUMBER_ARRAYS(X) NODES_BYTE_ARRAYS(Y)
#undef X
#undef Y
    if (!ok) {
        FUNCTION(mb_nodes, free)(s);
        MB_ERROR_NULL(MB_ENOMEM, "cannot allocate a store of %zu nodes", n);
    }
    for (size_t i = 0; i < n; i++) {
        R_SET_D(&s->q[4 * i], 1.0);     /* identity orientation */
        R_SET_D(&s->mass[i], 1.0);
        R_SET_D(&s->inv_mass[i], 1.0);
        for (int k = 0; k < 3; k++)
            R_SET_D(&s->inertia[3 * i + k], 1.0);
    }
    return s;
}

void FUNCTION(mb_nodes, free)(TYPE(mb_nodes) *s)
{
    if (s == NULL)
        return;
    size_t n = s->n;
#define X(m, w) FUNCTION(nodes, real_array_free)(s->m, (w) * n);
#define Y(m, w) free(s->m);
    NODES_NUMBER_ARRAYS(X) NODES_BYTE_ARRAYS(Y)
#undef X
#undef Y
    free(s);
}

static void FUNCTION(nodes, copy_array)(REAL *d, const REAL *a, size_t count)
{
    for (size_t k = 0; k < count; k++)
        R_SET(&d[k], &a[k]);
}

int FUNCTION(mb_nodes, copy)(TYPE(mb_nodes) *dst, const TYPE(mb_nodes) *src)
{
    if (dst->n != src->n)
        MB_ERROR(MB_EINVAL, "node stores differ in size (%zu vs %zu)", dst->n, src->n);
    size_t n = src->n;
#define X(m, w) FUNCTION(nodes, copy_array)(dst->m, src->m, (w) * n);
#define Y(m, w) memcpy(dst->m, src->m, (w) * n);
    NODES_NUMBER_ARRAYS(X) NODES_BYTE_ARRAYS(Y)
#undef X
#undef Y
    FUNCTION(mb_nodes, touch)(dst);
    return MB_SUCCESS;
}

void FUNCTION(mb_nodes, set_mass)(TYPE(mb_nodes) *s, size_t i, double m)
{
    FUNCTION(mb_nodes, touch)(s);
    R_SET_D(&s->mass[i], m);
    if (isinf(m))
        R_SET_D(&s->inv_mass[i], 0.0);
    else
        R_D_DIV(&s->inv_mass[i], 1.0, &s->mass[i]);
}

void FUNCTION(mb_nodes, set_inertia)(TYPE(mb_nodes) *s, size_t i, const double I[3])
{
    for (int k = 0; k < 3; k++)
        R_SET_D(&s->inertia[3 * i + k], I[k]);
    s->aspherical[i] = !(I[0] == I[1] && I[1] == I[2]);
    FUNCTION(mb_nodes, touch)(s);
}

static int FUNCTION(nodes, finite_array)(const REAL *a, size_t count)
{
    for (size_t k = 0; k < count; k++)
        if (!R_ISFINITE(&a[k]))
            return 0;
    return 1;
}

int FUNCTION(mb_nodes, all_finite)(const TYPE(mb_nodes) *s)
{
    size_t n = s->n;
    return FUNCTION(nodes, finite_array)(s->x, 3 * n) && FUNCTION(nodes, finite_array)(s->v, 3 * n)
        && FUNCTION(nodes, finite_array)(s->q, 4 * n) && FUNCTION(nodes, finite_array)(s->omega, 3 * n)
        && FUNCTION(nodes, finite_array)(s->angmom, 3 * n);
}
