/* clump.c -- mass properties, principal frame and member bookkeeping of clumps
 * (rigid aggregates of spheres); the method and equations are in mb_clump.h. */
#include "mb_clump.h"
#include "mb_status.h"
#include "mb_vec.h"

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_math.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void mb_clump_free(mb_clump *c)
{
    if (c) {
        free(c->rel);
        free(c->radius);
        free(c);
    }
}

static int any_overlap(const double *c, const double *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (mb_v3_dist(&c[3 * i], &c[3 * j]) < r[i] + r[j])
                return 1;
    return 0;
}

/* Steiner sum over whole spheres. */
static void steiner(mb_clump *c, const double *x, const double *r)
{
    double M = 0.0, S[3] = { 0, 0, 0 };
    for (size_t i = 0; i < c->count; i++) {
        double m = c->density * 4.0 / 3.0 * M_PI * r[i] * r[i] * r[i];
        M += m;
        mb_v3_axpy(S, m, &x[3 * i]);
    }
    c->mass = M;
    c->volume = M / c->density;
    mb_v3_scale(c->centroid, 1.0 / M, S);
    memset(c->inertia, 0, sizeof c->inertia);
    for (size_t i = 0; i < c->count; i++) {
        double m = c->density * 4.0 / 3.0 * M_PI * r[i] * r[i] * r[i], d[3];
        for (int a = 0; a < 3; a++)
            c->inertia[4 * a] += 0.4 * m * r[i] * r[i];
        mb_v3_sub(d, &x[3 * i], c->centroid);
        mb_m3_add_point_inertia(c->inertia, m, d);
    }
}

/* Signed distance bound of p to the union: out = min_i (|p - c_i| - r_i) (exact outside),
 * depth = max_i (r_i - |p - c_i|) (a ball of that radius around p lies in one member). */
static void union_distance(const double *x, const double *r, size_t n, const double p[3],
                           double *out, double *depth)
{
    double o = INFINITY, dp = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        double e = mb_v3_dist(p, &x[3 * i]) - r[i];
        if (e < o)
            o = e;
        if (-e > dp)
            dp = -e;
    }
    *out = o;
    *depth = dp;
}

/* Sums of one grid pass: cells inside (count, sum q, sum |q|^2 1 - q q^T with q = p - o)
 * and boundary cells (count, sum |q|, sum |q|^2). */
struct grid_sums { double N, S[3], Q[9], Nb, Sb1, Sb2; };

/* Cell centres p = lo + (i + 1/2 + shift) h, i = -1 .. nc (one spare layer each side so a
 * shifted pass still covers the box). */
static void grid_pass(const mb_clump *c, const double *x, const double *r, const double lo[3],
                      const long nc[3], double h, const double o[3], double shift,
                      struct grid_sums *g)
{
    double hd = 0.5 * sqrt(3.0) * h;
    memset(g, 0, sizeof *g);
    for (long i = -1; i <= nc[0]; i++)
        for (long j = -1; j <= nc[1]; j++)
            for (long k = -1; k <= nc[2]; k++) {
                double p[3] = { lo[0] + (i + 0.5 + shift) * h, lo[1] + (j + 0.5 + shift) * h,
                                lo[2] + (k + 0.5 + shift) * h }, out, depth, q[3];
                union_distance(x, r, c->count, p, &out, &depth);
                mb_v3_sub(q, p, o);
                if (out < hd && depth < hd) {
                    double l = mb_v3_norm(q);
                    g->Nb += 1.0;
                    g->Sb1 += l;
                    g->Sb2 += l * l;
                }
                if (out > 0.0)
                    continue;
                g->N += 1.0;
                mb_v3_add(g->S, g->S, q);
                mb_m3_add_point_inertia(g->Q, 1.0, q);
            }
}

/* Volume, centroid and inertia about the centroid from one pass:
 * J = rho h^3 Q + N rho h^5/6 1 - M (|cq|^2 1 - cq cq^T), cq = S / N (about o). */
static void grid_moments(const struct grid_sums *g, double h, double rho, const double o[3],
                         double *V, double X[3], double J[9])
{
    double h3 = h * h * h, mc = rho * h3, cq[3];
    *V = g->N * h3;
    mb_v3_scale(cq, 1.0 / g->N, g->S);
    mb_v3_add(X, o, cq);
    for (int a = 0; a < 9; a++)
        J[a] = mc * g->Q[a];
    for (int a = 0; a < 3; a++)
        J[4 * a] += g->N * mc * h * h / 6.0;
    mb_m3_add_point_inertia(J, -rho * *V, cq);
}

/* Grid sampling of the union at cells of side h = r_min / resolution (mb_clump.h), plus
 * a second pass on the grid shifted by h/2 along every axis for the error estimates. */
static int grid(mb_clump *c, const double *x, const double *r)
{
    double lo[3], hi[3], rmin = INFINITY;
    for (int a = 0; a < 3; a++) {
        lo[a] = INFINITY;
        hi[a] = -INFINITY;
    }
    for (size_t i = 0; i < c->count; i++) {
        rmin = fmin(rmin, r[i]);
        for (int a = 0; a < 3; a++) {
            lo[a] = fmin(lo[a], x[3 * i + a] - r[i]);
            hi[a] = fmax(hi[a], x[3 * i + a] + r[i]);
        }
    }
    double h = rmin / c->resolution, hd = 0.5 * sqrt(3.0) * h, o[3];
    long nc[3];
    double span[3];
    for (int a = 0; a < 3; a++)
        span[a] = ceil((hi[a] - lo[a]) / h);
    /* checked in double before the cast: a span beyond a long is undefined behaviour */
    double cells = (span[0] + 2) * (span[1] + 2) * (span[2] + 2);
    if (!(cells <= 2e8))
        MB_ERROR(MB_EDOM, "clump grid: resolution %d needs %.3g cells per pass (limit 2e8)",
                 c->resolution, cells);
    for (int a = 0; a < 3; a++) {
        nc[a] = (long)span[a];
        o[a] = lo[a] + 0.5 * nc[a] * h;     /* centre of the sampled box */
    }
    struct grid_sums g, g2;
    grid_pass(c, x, r, lo, nc, h, o, 0.0, &g);
    grid_pass(c, x, r, lo, nc, h, o, 0.5, &g2);
    if (g.N == 0.0 || g2.N == 0.0)
        MB_ERROR(MB_EDOM, "clump grid: no cell inside the members (resolution %d)", c->resolution);
    double V2, X2[3], J2[9], h3 = h * h * h;
    grid_moments(&g, h, c->density, o, &c->volume, c->centroid, c->inertia);
    grid_moments(&g2, h, c->density, o, &V2, X2, J2);
    c->cells = (size_t)g.N;
    c->boundary_cells = (size_t)g.Nb;
    c->mass = c->density * c->volume;
    c->volume_error_bound = g.Nb * h3;
    /* rho h^3 sum_b (|p - X| + hd)^2 <= rho h^3 sum_b (|q| + |X - o| + hd)^2 */
    double cq[3];
    mb_v3_sub(cq, c->centroid, o);
    double e = mb_v3_norm(cq) + hd;
    c->inertia_error_bound = c->density * h3 * (g.Sb2 + 2.0 * e * g.Sb1 + g.Nb * e * e);
    c->volume_error_estimate = fabs(V2 - c->volume);
    c->inertia_error_estimate = 0.0;
    for (int a = 0; a < 9; a++)
        c->inertia_error_estimate = fmax(c->inertia_error_estimate, fabs(J2[a] - c->inertia[a]));
    return MB_SUCCESS;
}

/* Shepperd: pick the largest of w, x, y, z to divide by. */
void mb_mat_to_quat(double q[4], const double R[9])
{
    double tr = R[0] + R[4] + R[8];
    if (tr >= R[0] && tr >= R[4] && tr >= R[8]) {
        double s = 2.0 * sqrt(1.0 + tr);
        q[0] = 0.25 * s;
        q[1] = (R[7] - R[5]) / s;
        q[2] = (R[2] - R[6]) / s;
        q[3] = (R[3] - R[1]) / s;
    } else if (R[0] >= R[4] && R[0] >= R[8]) {
        double s = 2.0 * sqrt(1.0 + R[0] - R[4] - R[8]);
        q[0] = (R[7] - R[5]) / s;
        q[1] = 0.25 * s;
        q[2] = (R[1] + R[3]) / s;
        q[3] = (R[2] + R[6]) / s;
    } else if (R[4] >= R[8]) {
        double s = 2.0 * sqrt(1.0 + R[4] - R[0] - R[8]);
        q[0] = (R[2] - R[6]) / s;
        q[1] = (R[1] + R[3]) / s;
        q[2] = 0.25 * s;
        q[3] = (R[5] + R[7]) / s;
    } else {
        double s = 2.0 * sqrt(1.0 + R[8] - R[0] - R[4]);
        q[0] = (R[3] - R[1]) / s;
        q[1] = (R[2] + R[6]) / s;
        q[2] = (R[5] + R[7]) / s;
        q[3] = 0.25 * s;
    }
    if (q[0] < 0.0)
        for (int a = 0; a < 4; a++)
            q[a] = -q[a];
    mb_q_normalize(q);
}

static double det3(const double A[9])
{
    return A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6])
           + A[2] * (A[3] * A[7] - A[4] * A[6]);
}

int mb_inertia_principal(const double J[9], double I[3], double P[9], double q[4])
{
    double a[9];
    memcpy(a, J, sizeof a);
    gsl_matrix_view A = gsl_matrix_view_array(a, 3, 3);
    gsl_vector *eval = gsl_vector_alloc(3);
    gsl_matrix *evec = gsl_matrix_alloc(3, 3);
    gsl_eigen_symmv_workspace *w = gsl_eigen_symmv_alloc(3);
    if (eval == NULL || evec == NULL || w == NULL) {
        gsl_vector_free(eval);
        gsl_matrix_free(evec);
        gsl_eigen_symmv_free(w);
        MB_ERROR(MB_ENOMEM, "cannot allocate the eigen workspace");
    }
    gsl_eigen_symmv(&A.matrix, eval, evec, w);
    gsl_eigen_symmv_sort(eval, evec, GSL_EIGEN_SORT_VAL_ASC);
    for (int i = 0; i < 3; i++) {
        I[i] = gsl_vector_get(eval, i);
        for (int j = 0; j < 3; j++)
            P[3 * i + j] = gsl_matrix_get(evec, i, j);
    }
    gsl_vector_free(eval);
    gsl_matrix_free(evec);
    gsl_eigen_symmv_free(w);
    if (det3(P) < 0.0)
        for (int i = 0; i < 3; i++)
            P[3 * i + 2] = -P[3 * i + 2];
    mb_mat_to_quat(q, P);
    if (!(I[0] > 0.0))
        MB_ERROR(MB_EDOM, "inertia tensor is not positive definite (smallest principal moment "
                 "%.17g)", I[0]);
    return MB_SUCCESS;
}

static int principal_frame(mb_clump *c)
{
    int st = mb_inertia_principal(c->inertia, c->principal, c->axes, c->q_principal);
    if (st == MB_EDOM)
        MB_ERROR(MB_EDOM, "clump: inertia tensor is not positive definite (I_1 = %g)",
                 c->principal[0]);
    return st;
}

static int validate(const double *x, const double *r, size_t n, double rho, int method,
                    int resolution)
{
    if (n == 0)
        MB_ERROR(MB_EINVAL, "clump: needs at least one member sphere");
    if (!(isfinite(rho) && rho > 0.0))
        MB_ERROR(MB_EDOM, "clump: density must be finite and > 0 (got %g)", rho);
    if (method != MB_CLUMP_STEINER && resolution < 1)
        MB_ERROR(MB_EDOM, "clump: grid resolution must be >= 1 cell per smallest radius (got %d)",
                 resolution);
    for (size_t i = 0; i < n; i++) {
        if (!(isfinite(r[i]) && r[i] > 0.0))
            MB_ERROR(MB_EDOM, "clump: member %zu radius must be finite and > 0 (got %g)", i, r[i]);
        for (int a = 0; a < 3; a++)
            if (!isfinite(x[3 * i + a]))
                MB_ERROR(MB_EDOM, "clump: member %zu centre is not finite", i);
    }
    return MB_SUCCESS;
}

int mb_clump_build(const double *centres, const double *radii, size_t count, double density,
                   mb_clump_method method, int resolution, mb_clump **out)
{
    *out = NULL;
    int st = validate(centres, radii, count, density, method, resolution);
    if (st != MB_SUCCESS)
        return st;
    mb_clump *c = calloc(1, sizeof *c);
    if (c == NULL || (c->rel = malloc(3 * count * sizeof *c->rel)) == NULL
        || (c->radius = malloc(count * sizeof *c->radius)) == NULL) {
        mb_clump_free(c);
        MB_ERROR(MB_ENOMEM, "cannot allocate a clump of %zu members", count);
    }
    c->count = count;
    c->density = density;
    c->overlapping = any_overlap(centres, radii, count);
    c->method = method == MB_CLUMP_AUTO ? (c->overlapping ? MB_CLUMP_GRID : MB_CLUMP_STEINER)
                                        : method;
    memcpy(c->radius, radii, count * sizeof *radii);
    if (c->method == MB_CLUMP_GRID) {
        c->resolution = resolution;
        st = grid(c, centres, radii);
    } else {
        steiner(c, centres, radii);
    }
    if (st == MB_SUCCESS)
        st = principal_frame(c);
    if (st != MB_SUCCESS) {
        mb_clump_free(c);
        return st;
    }
    for (size_t i = 0; i < count; i++) {       /* r~_i = P^T (c_i - X) */
        double d[3];
        mb_v3_sub(d, &centres[3 * i], c->centroid);
        mb_m3t_mul_v(&c->rel[3 * i], c->axes, d);
    }
    *out = c;
    return MB_SUCCESS;
}

int mb_clump_place(const mb_clump *c, mb_nodes *s, size_t node, const double origin[3],
                   const double q0[4])
{
    if (node >= s->n)
        MB_ERROR(MB_EINVAL, "clump: node %zu out of range (%zu nodes)", node, s->n);
    double qn = mb_q_norm(q0);
    if (!(isfinite(qn) && qn > 0.0))
        MB_ERROR(MB_EDOM, "clump: initial orientation must be a non-zero finite quaternion");
    double q[4] = { q0[0] / qn, q0[1] / qn, q0[2] / qn, q0[3] / qn }, X[3];
    mb_q_rotate(X, q, c->centroid);
    mb_v3_add(&s->x[3 * node], origin, X);
    mb_q_mul(&s->q[4 * node], q, c->q_principal);
    mb_q_normalize(&s->q[4 * node]);
    mb_nodes_set_mass(s, node, c->mass);
    mb_nodes_set_inertia(s, node, c->principal);
    s->radius[node] = 0.0;
    return MB_SUCCESS;
}

static int check_members(const mb_clump *c, const mb_nodes *s, size_t node,
                         const mb_nodes *members, size_t first)
{
    if (node >= s->n)
        MB_ERROR(MB_EINVAL, "clump: node %zu out of range (%zu nodes)", node, s->n);
    if (first + c->count > members->n || first + c->count < first)
        MB_ERROR(MB_EINVAL, "clump: members %zu..%zu out of range (%zu member nodes)", first,
                 first + c->count - 1, members->n);
    return MB_SUCCESS;
}

int mb_clump_init_members(const mb_clump *c, const mb_nodes *s, size_t node,
                          mb_nodes *members, size_t first)
{
    int st = check_members(c, s, node, members, first);
    if (st != MB_SUCCESS)
        return st;
    for (size_t i = 0; i < c->count; i++) {
        members->radius[first + i] = c->radius[i];
        mb_nodes_set_mass(members, first + i, c->mass);
    }
    return mb_clump_reposition(c, s, node, members, first);
}

double mb_clump_bounding_radius(const mb_clump *c)
{
    double r = 0.0;
    for (size_t k = 0; k < c->count; k++)
        r = fmax(r, mb_v3_norm(&c->rel[3 * k]) + c->radius[k]);
    return r;
}

/* F_c += sum F_i,  T_c += sum [T_i + (x_i - x_c) x F_i] */
int mb_clump_collect(const mb_clump *c, const mb_nodes *members, size_t first, mb_nodes *s,
                     size_t node)
{
    int st = check_members(c, s, node, members, first);
    if (st != MB_SUCCESS)
        return st;
    double *F = &s->f[3 * node], *T = &s->torque[3 * node];
    for (size_t i = first; i < first + c->count; i++) {
        double d[3], m[3];
        mb_v3_sub(d, &members->x[3 * i], &s->x[3 * node]);
        mb_v3_cross(m, d, &members->f[3 * i]);
        mb_v3_add(F, F, &members->f[3 * i]);
        mb_v3_add(T, T, &members->torque[3 * i]);
        mb_v3_add(T, T, m);
    }
    return MB_SUCCESS;
}

/* x_i = x_c + R(q) r~_i, v_i = v_c + w x (x_i - x_c), w_i = w, q_i = q */
int mb_clump_reposition(const mb_clump *c, const mb_nodes *s, size_t node, mb_nodes *members,
                        size_t first)
{
    int st = check_members(c, s, node, members, first);
    if (st != MB_SUCCESS)
        return st;
    double R[9];
    const double *xc = &s->x[3 * node], *vc = &s->v[3 * node], *w = &s->omega[3 * node];
    mb_q_to_mat(R, &s->q[4 * node]);
    for (size_t i = 0; i < c->count; i++) {
        size_t m = first + i;
        double d[3], wxd[3];
        mb_m3_mul_v(d, R, &c->rel[3 * i]);
        mb_v3_add(&members->x[3 * m], xc, d);
        mb_v3_cross(wxd, w, d);
        mb_v3_add(&members->v[3 * m], vc, wxd);
        mb_v3_copy(&members->omega[3 * m], w);
        memcpy(&members->q[4 * m], &s->q[4 * node], 4 * sizeof(double));
    }
    return MB_SUCCESS;
}
