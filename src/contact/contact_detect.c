/* contact_detect.c -- contact points of spheres and boxes against spheres, boxes and
 * planes for the solfec scheme (see mb_contact_detect.h).  The gap is evaluated at the
 * configuration passed in (the stepper passes q(t+h/2), seed 003). */
#include "mb_contact_detect.h"

#include <math.h>
#include <string.h>

#include "mb_vec.h"

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

int mb_box_closest(const double half[3], const double pb[3], double q[3], double nb[3],
                   double *dist)
{
    double d[3];
    int clamped = 0;
    for (int k = 0; k < 3; k++) {
        q[k] = fmin(fmax(pb[k], -half[k]), half[k]);
        d[k] = pb[k] - q[k];
        clamped += d[k] != 0.0;
        nb[k] = 0.0;
    }
    if (clamped) {
        double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        for (int k = 0; k < 3; k++)
            nb[k] = d[k] / l;
        *dist = l;
        return clamped;
    }
    double depth, sign;
    int axis = shallowest_face(half, pb, &depth, &sign);
    nb[axis] = sign;
    q[axis] = sign * half[axis];
    *dist = -depth;
    return 0;
}

void mb_detect_sphere_box(const mb_body_view *b, size_t i, double r, size_t j, const double half[3],
                          mb_con *c)
{
    double cb[3], q[3], nb[3], n[3], dist, surf[3];
    arm_of(b, j, &b->x[3 * i], cb);
    mb_box_closest(half, cb, q, nb, &dist);
    double gap = dist - r;
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

/* Edge-edge contacts of two boxes: the edge-edge axes of the separating-axis test
 * (Gottschalk, Lin & Manocha, "OBBTree: a hierarchical structure for rapid interference
 * detection", SIGGRAPH 1996), kept only where the two edges are the parts of their boxes
 * extreme along the axis (the Gauss-map test: the edge pair is a face of the Minkowski
 * difference, Gregorius, "The Separating Axis Test between Convex Polyhedra", GDC 2013).
 * Edge e (0..11) of a box runs along body axis a = e / 4 through the vertex whose other two
 * sign bits are the bits of e % 4 (edge_vertex). */

/* the vertex of edge e at the negative end of its axis (bit m set: +half[m]) */
static int edge_vertex(int e)
{
    int a = e / 4, k = e % 4, v = 0, bit = 0;
    for (int m = 0; m < 3; m++)
        if (m != a)
            v |= ((k >> bit++) & 1) << m;
    return v;
}

/* midpoint and global unit direction of edge e of box k */
static void edge_of(const mb_body_view *b, size_t k, const double h[3], int e, double mid[3],
                    double dir[3])
{
    int a = e / 4, v = edge_vertex(e);
    double A[3] = { (v & 1) ? h[0] : -h[0], (v & 2) ? h[1] : -h[1], (v & 4) ? h[2] : -h[2] };
    double u[3] = { 0, 0, 0 };
    A[a] = 0.0;
    u[a] = 1.0;
    mb_con_point(b, k, A, mid);
    to_global(b, k, u, dir);
}

/* n . (outward normals of the two faces of box k meeting at edge e) both > tol: n lies
 * strictly inside the edge's normal cone, i.e. the edge alone is the part of the box extreme
 * along n (on the cone's boundary a face is, and the touch is face-edge or face-face) */
static int in_normal_cone(const mb_body_view *b, size_t k, int e, const double n[3], double tol)
{
    int a = e / 4, v = edge_vertex(e);
    for (int m = 0; m < 3; m++) {
        if (m == a)
            continue;
        double f[3] = { 0, 0, 0 }, g[3];
        f[m] = (v >> m) & 1 ? 1.0 : -1.0;
        to_global(b, k, f, g);
        if (!(g[0] * n[0] + g[1] * n[1] + g[2] * n[2] > tol))
            return 0;
    }
    return 1;
}

/* point p (global) inside box k (half-extents h) up to tol */
static int inside_box(const mb_body_view *b, size_t k, const double h[3], const double p[3],
                      double tol)
{
    double pb[3];
    arm_of(b, k, p, pb);
    return fabs(pb[0]) <= h[0] + tol && fabs(pb[1]) <= h[1] + tol && fabs(pb[2]) <= h[2] + tol;
}

void mb_detect_box_edge_box(const mb_body_view *b, size_t i, const double hi[3], int ei, size_t j,
                            const double hj[3], int ej, double tol, mb_con *c)
{
    double Pi[3], di[3], Pj[3], dj[3], r[3], n[3], pi[3], pj[3], p[3];
    edge_of(b, i, hi, ei, Pi, di);
    edge_of(b, j, hj, ej, Pj, dj);
    contact_init(c, i, j, ((long)(i * 1000003u + j) * 144 + 12 * ei + ej) * 128 + 24);
    c->gap = 1.0;                           /* no edge-edge contact unless found below */
    mb_v3_cross(n, di, dj);
    double sine = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (sine < MB_EDGE_PARALLEL_SINE)
        return;
    for (int k = 0; k < 3; k++) {
        n[k] /= sine;
        r[k] = Pi[k] - Pj[k];
    }
    /* closest points Pi + s di, Pj + t dj of the two lines (unit directions, cos = di.dj):
     * s = (cos (dj.r) - di.r) / sin^2, t = dj.r + cos s */
    double cosine = mb_v3_dot(di, dj), dr = mb_v3_dot(dj, r);
    double s = (cosine * dr - mb_v3_dot(di, r)) / (sine * sine), t = dr + cosine * s;
    if (!(fabs(s) < hi[ei / 4] && fabs(t) < hj[ej / 4]))
        return;                             /* at or beyond an end: a vertex, not an edge */
    /* orient n out of box j at its edge (from j to i), then ask the same of box i along -n */
    if (!in_normal_cone(b, j, ej, n, MB_EDGE_CONE_MARGIN))
        mb_v3_scale(n, -1.0, n);
    double m[3] = { -n[0], -n[1], -n[2] };
    if (!in_normal_cone(b, j, ej, n, MB_EDGE_CONE_MARGIN)
        || !in_normal_cone(b, i, ei, m, MB_EDGE_CONE_MARGIN))
        return;
    for (int k = 0; k < 3; k++) {
        pi[k] = Pi[k] + s * di[k];
        pj[k] = Pj[k] + t * dj[k];
        p[k] = 0.5 * (pi[k] + pj[k]);
    }
    /* a crossing of the surfaces: each edge's closest point inside the other box */
    if (!inside_box(b, j, hj, pi, tol) || !inside_box(b, i, hi, pj, tol))
        return;
    c->gap = mb_v3_dot(n, r);              /* n.(pi - pj): n is normal to both edges */
    mb_con_frame_from_normal(n, c->E);
    arm_of(b, i, p, c->Ai);
    arm_of(b, j, p, c->Aj);
}

/* a contact with the law of its pair of materials (mb_scene_pair_law), active when its gap
 * is <= 0 up to the round-off of the positions it was computed from (1e-12 of the size of
 * the bodies): a box resting exactly on a plane keeps all four bottom vertices, not the two
 * that a rotation of 1e-14 rad left 1e-15 above it */
static int gap_active(double gap, double size) { return gap <= 1e-12 * size; }

static size_t push(const mb_scene *s, int ma, int mb, double size, mb_con *out, size_t cap,
                   size_t count, const mb_con *c)
{
    double mu, e;
    int active = gap_active(c->gap, size);
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
 * (every vertex of each box against the faces of the other, then edge against edge) */
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
        double size = fmax(size_of(s, i), size_of(s, j));
        int vertex_i[8], vertex_j[8];           /* vertex-face contact active */
        for (int v = 0; v < 8; v++) {
            mb_detect_box_vertex_box(b, i, ei, v, j, ej, &c);
            vertex_i[v] = gap_active(c.gap, size);
            count = push(s, mi, mj, size, out, cap, count, &c);
            mb_detect_box_vertex_box(b, j, ej, v, i, ei, &c);
            vertex_j[v] = gap_active(c.gap, size);
            count = push(s, mi, mj, size, out, cap, count, &c);
        }
        /* edge-edge where neither edge has an end in a vertex-face contact: that contact
         * already holds the edge (mb_contact_detect.h) */
        for (int a = 0; a < 12; a++) {
            int va = edge_vertex(a);
            if (vertex_i[va] || vertex_i[va | 1 << a / 4])
                continue;
            for (int e = 0; e < 12; e++) {
                int ve = edge_vertex(e);
                if (vertex_j[ve] || vertex_j[ve | 1 << e / 4])
                    continue;
                mb_detect_box_edge_box(b, i, ei, a, j, ej, e, 1e-12 * size, &c);
                count = push(s, mi, mj, size, out, cap, count, &c);
            }
        }
    }
    return count;
}

size_t mb_detect_capacity(const mb_scene *s)
{
    return s ? 9 * s->nbodies * (s->nplanes + 1) + 32 * s->nbodies * s->nbodies + 1 : 1;
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
