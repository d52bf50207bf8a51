/* contact_detect.c -- contact points of spheres and boxes against spheres, boxes and
 * planes for the solfec scheme (see mb_contact_detect.h).  The gap is evaluated at the
 * configuration passed in (the stepper passes q(t+h/2), seed 003). */
#include "mb_contact_detect.h"

#include <math.h>
#include <string.h>

/* body arm A = Lambda^T (p - x) */
static void arm_of(const mb_body_view *b, size_t k, const double p[3], double A[3])
{
    const double *L = &b->Lambda[9 * k];
    double d[3] = { p[0] - b->x[3 * k], p[1] - b->x[3 * k + 1], p[2] - b->x[3 * k + 2] };
    for (int r = 0; r < 3; r++)
        A[r] = L[r] * d[0] + L[3 + r] * d[1] + L[6 + r] * d[2];
}

static void contact_init(mb_con *c, size_t i, size_t j, long key)
{
    memset(c, 0, sizeof *c);
    c->kind = MB_CON_CONTACT;
    c->i = i;
    c->j = j;
    c->key = key;
}

void mb_detect_sphere_sphere(const mb_body_view *b, size_t i, double ri, size_t j, double rj,
                             mb_con *c)
{
    double d[3], n[3], p[3];
    for (int k = 0; k < 3; k++)
        d[k] = b->x[3 * i + k] - b->x[3 * j + k];
    double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    contact_init(c, i, j, (long)(i * 1000003u + j) * 16);
    if (l > 0.0)
        for (int k = 0; k < 3; k++)
            n[k] = d[k] / l;
    else
        n[0] = 0.0, n[1] = 0.0, n[2] = 1.0;
    c->gap = l - ri - rj;
    /* midpoint between the surface points x_i - ri n and x_j + rj n */
    for (int k = 0; k < 3; k++)
        p[k] = 0.5 * ((b->x[3 * i + k] - ri * n[k]) + (b->x[3 * j + k] + rj * n[k]));
    mb_con_frame_from_normal(n, c->E);
    arm_of(b, i, p, c->Ai);
    arm_of(b, j, p, c->Aj);
}

static void ground_contact(const mb_body_view *b, size_t i, const double p[3], const mb_plane *P,
                           double gap, long key, mb_con *c)
{
    contact_init(c, i, MB_CON_GROUND, key);
    c->gap = gap;
    mb_con_frame_from_normal(P->normal, c->E);
    arm_of(b, i, p, c->Ai);
    memcpy(c->Aj, p, 3 * sizeof(double));
}

void mb_detect_sphere_plane(const mb_body_view *b, size_t i, double r, const mb_plane *P,
                            mb_con *c)
{
    const double *x = &b->x[3 * i], *n = P->normal;
    double s = (x[0] - P->point[0]) * n[0] + (x[1] - P->point[1]) * n[1] + (x[2] - P->point[2]) * n[2];
    double p[3];
    for (int k = 0; k < 3; k++)
        p[k] = x[k] - r * n[k];             /* the sphere's lowest point */
    ground_contact(b, i, p, P, s - r, -(long)(i * 64 + 1), c);
}

void mb_detect_box_vertex_plane(const mb_body_view *b, size_t i, const double half[3], int v,
                                const mb_plane *P, mb_con *c)
{
    double A[3] = { (v & 1) ? half[0] : -half[0], (v & 2) ? half[1] : -half[1],
                    (v & 4) ? half[2] : -half[2] };
    double p[3];
    mb_con_point(b, i, A, p);
    const double *n = P->normal;
    double gap = (p[0] - P->point[0]) * n[0] + (p[1] - P->point[1]) * n[1] + (p[2] - P->point[2]) * n[2];
    ground_contact(b, i, p, P, gap, -(long)(i * 64 + 8 + v), c);
    memcpy(c->Ai, A, sizeof A);
}


/* global direction of body-frame vector a of body k */
static void to_global(const mb_body_view *b, size_t k, const double a[3], double g[3])
{
    const double *L = &b->Lambda[9 * k];
    for (int r = 0; r < 3; r++)
        g[r] = L[3 * r] * a[0] + L[3 * r + 1] * a[1] + L[3 * r + 2] * a[2];
}

/* shallowest face of box (half) for an inside point pb: axis and outward sign */
static int shallowest_face(const double half[3], const double pb[3], double *depth, double *sign)
{
    int axis = 0;
    *depth = INFINITY;
    for (int k = 0; k < 3; k++) {
        double d = half[k] - fabs(pb[k]);
        if (d < *depth) {
            *depth = d;
            axis = k;
        }
    }
    *sign = pb[axis] >= 0 ? 1.0 : -1.0;
    return axis;
}

void mb_detect_sphere_box(const mb_body_view *b, size_t i, double r, size_t j, const double half[3],
                          mb_con *c)
{
    double cb[3], q[3], d[3], nb[3] = { 0, 0, 0 }, n[3], gap, surf[3];
    arm_of(b, j, &b->x[3 * i], cb);
    int outside = 0;
    for (int k = 0; k < 3; k++) {
        q[k] = fmin(fmax(cb[k], -half[k]), half[k]);
        d[k] = cb[k] - q[k];
        outside |= d[k] != 0.0;
    }
    if (outside) {
        double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        for (int k = 0; k < 3; k++)
            nb[k] = d[k] / l;
        gap = l - r;
    } else {
        double depth, sign;
        int axis = shallowest_face(half, cb, &depth, &sign);
        nb[axis] = sign;
        q[axis] = sign * half[axis];
        gap = -depth - r;
    }
    contact_init(c, i, j, (long)(i * 1000003u + j) * 16 + 1);
    to_global(b, j, nb, n);
    to_global(b, j, q, surf);
    for (int k = 0; k < 3; k++)
        surf[k] = 0.5 * (surf[k] + b->x[3 * j + k] + b->x[3 * i + k] - r * n[k]);
    c->gap = gap;
    mb_con_frame_from_normal(n, c->E);
    arm_of(b, i, surf, c->Ai);
    arm_of(b, j, surf, c->Aj);
}

void mb_detect_box_vertex_box(const mb_body_view *b, size_t i, const double hi[3], int v, size_t j,
                              const double hj[3], mb_con *c)
{
    double A[3] = { (v & 1) ? hi[0] : -hi[0], (v & 2) ? hi[1] : -hi[1], (v & 4) ? hi[2] : -hi[2] };
    double p[3], pb[3], nb[3] = { 0, 0, 0 }, n[3], depth, sign;
    mb_con_point(b, i, A, p);
    arm_of(b, j, p, pb);
    contact_init(c, i, j, ((long)(i * 1000003u + j) * 16 + 2) * 8 + v);
    int inside = fabs(pb[0]) <= hj[0] && fabs(pb[1]) <= hj[1] && fabs(pb[2]) <= hj[2];
    if (!inside) {
        c->gap = 1.0;                   /* no vertex-face contact */
        return;
    }
    int axis = shallowest_face(hj, pb, &depth, &sign);
    nb[axis] = sign;
    to_global(b, j, nb, n);
    c->gap = -depth;
    mb_con_frame_from_normal(n, c->E);
    memcpy(c->Ai, A, sizeof A);
    arm_of(b, j, p, c->Aj);
}

/* a contact with the law of its pair of materials (mb_scene_pair_law), active when its gap
 * is <= 0 up to the round-off of the positions it was computed from (1e-12 of the size of
 * the bodies): a box resting exactly on a plane keeps all four bottom vertices, not the two
 * that a rotation of 1e-14 rad left 1e-15 above it */
static size_t push(const mb_scene *s, int ma, int mb, double size, mb_con *out, size_t cap,
                   size_t count, const mb_con *c)
{
    double mu, e;
    int active = c->gap <= 1e-12 * size;
    mb_scene_pair_law(s, ma, mb, &mu, &e);
    if (active && count < cap) {
        out[count] = *c;
        out[count].mu = mu;
        out[count].e = e;
    }
    return active ? count + 1 : count;
}

static double size_of(const mb_scene *s, size_t i)
{
    const double *e = &s->extent[3 * i];
    return s->shape[i] == MB_SHAPE_BOX ? fmax(e[0], fmax(e[1], e[2])) : e[0];
}

/* contacts between bodies i < j: sphere-sphere, sphere-box (slave: the sphere), box-box
 * (every vertex of each box against the faces of the other) */
static size_t detect_pair(const mb_scene *s, const mb_body_view *b, size_t i, size_t j, mb_con *out,
                          size_t cap, size_t count)
{
    const double *ei = &s->extent[3 * i], *ej = &s->extent[3 * j];
    int si = s->shape[i], sj = s->shape[j];
    int mi = s->material[i], mj = s->material[j];
    mb_con c;
    if (si == MB_SHAPE_SPHERE && sj == MB_SHAPE_SPHERE) {
        /* slave: the later body j, master i; n points from i to j */
        mb_detect_sphere_sphere(b, j, ej[0], i, ei[0], &c);
        count = push(s, mi, mj, fmax(size_of(s, i), size_of(s, j)), out, cap, count, &c);
    } else if (si == MB_SHAPE_SPHERE && sj == MB_SHAPE_BOX) {
        mb_detect_sphere_box(b, i, ei[0], j, ej, &c);
        count = push(s, mi, mj, fmax(size_of(s, i), size_of(s, j)), out, cap, count, &c);
    } else if (si == MB_SHAPE_BOX && sj == MB_SHAPE_SPHERE) {
        mb_detect_sphere_box(b, j, ej[0], i, ei, &c);
        count = push(s, mi, mj, fmax(size_of(s, i), size_of(s, j)), out, cap, count, &c);
    } else if (si == MB_SHAPE_BOX && sj == MB_SHAPE_BOX) {
        for (int v = 0; v < 8; v++) {
            mb_detect_box_vertex_box(b, i, ei, v, j, ej, &c);
            count = push(s, mi, mj, fmax(size_of(s, i), size_of(s, j)), out, cap, count, &c);
            mb_detect_box_vertex_box(b, j, ej, v, i, ei, &c);
            count = push(s, mi, mj, fmax(size_of(s, i), size_of(s, j)), out, cap, count, &c);
        }
    }
    return count;
}

size_t mb_detect_contacts(const mb_scene *s, const mb_body_view *b, mb_con *out, size_t cap)
{
    size_t count = 0;
    mb_con c;
    for (size_t i = 0; i < s->nbodies; i++) {
        const double *ext = &s->extent[3 * i];
        for (size_t p = 0; p < s->nplanes; p++) {
            if (s->shape[i] == MB_SHAPE_SPHERE) {
                mb_detect_sphere_plane(b, i, ext[0], &s->planes[p], &c);
                c.key -= (long)p * 1000000;
                count = push(s, s->material[i], s->planes[p].material, size_of(s, i), out, cap, count, &c);
            } else if (s->shape[i] == MB_SHAPE_BOX) {
                for (int v = 0; v < 8; v++) {
                    mb_detect_box_vertex_plane(b, i, ext, v, &s->planes[p], &c);
                    c.key -= (long)p * 1000000;
                    count = push(s, s->material[i], s->planes[p].material, size_of(s, i), out, cap, count, &c);
                }
            }
        }
        for (size_t j = i + 1; j < s->nbodies; j++)
            count = detect_pair(s, b, i, j, out, cap, count);
    }
    return count;
}
