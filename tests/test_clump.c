/* test_clump.c -- clump mass properties, principal frame, orientation handling, and the
 * reduction of member forces, against closed forms derived by hand.
 *
 * Steiner cases: every quantity is a handful of flops from exact data, so 64 ulp of the
 * magnitude covers the rounding of the sums and of gsl_eigen_symmv (a 3x3 Jacobi
 * solve, backward stable: eigenvalue error ~ u ||J||, eigenvector error
 * ~ u ||J|| / gap; the gaps here are >= 10% of ||J||, so 1e-13 on unit vectors).
 * Grid case: the reference is the closed-form union of two overlapping spheres (sphere
 * volumes minus the lens, built from spherical caps, derived in lens_union below); the
 * grid error must stay inside the clump's own rigorous bound, within a small factor of its
 * shifted-grid estimate, and shrink with resolution. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "mb_clump.h"
#include "mb_status.h"
#include "mb_vec.h"

#define TOL(x) (64.0 * DBL_EPSILON * fabs(x))

static double det3(const double A[9])
{
    return A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6])
           + A[2] * (A[3] * A[7] - A[4] * A[6]);
}

/* world tensor R diag(I) R^T */
static void body_to_world(double W[9], const double R[9], const double I[3])
{
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            W[3 * a + b] = 0.0;
            for (int k = 0; k < 3; k++)
                W[3 * a + b] += R[3 * a + k] * I[k] * R[3 * b + k];
        }
}

/* Two spheres apart along an awkward unit direction u: axial moment (2/5)(m1 r1^2 + m2 r2^2),
 * transverse + mu d^2 with mu = m1 m2 / M; the axial one is the smallest. */
Test(clump, sphere_pair_steiner_closed_form)
{
    const double r1 = 0.413, r2 = 0.297, rho = 2385.0, d = 0.913;
    const double u[3] = { 0.48, 0.6, -0.64 }, c1[3] = { 0.11, -0.23, 0.057 };
    double x[6], r[2] = { r1, r2 };
    for (int k = 0; k < 3; k++) {
        x[k] = c1[k];
        x[3 + k] = c1[k] + d * u[k];
    }
    mb_clump *c;
    cr_assert_eq(mb_clump_build(x, r, 2, rho, MB_CLUMP_AUTO, 8, &c), MB_SUCCESS);
    cr_expect_eq(c->method, MB_CLUMP_STEINER);
    cr_expect_eq(c->overlapping, 0);
    double m1 = rho * 4.0 / 3.0 * M_PI * r1 * r1 * r1, m2 = rho * 4.0 / 3.0 * M_PI * r2 * r2 * r2;
    double M = m1 + m2, mu = m1 * m2 / M;
    cr_expect(fabs(c->mass - M) <= TOL(M));
    for (int k = 0; k < 3; k++) {
        double X = c1[k] + m2 / M * d * u[k];
        cr_expect(fabs(c->centroid[k] - X) <= TOL(1.0), "X[%d]", k);
    }
    double Ia = 0.4 * (m1 * r1 * r1 + m2 * r2 * r2), It = Ia + mu * d * d;
    cr_expect(fabs(c->principal[0] - Ia) <= TOL(It), "I1 %.17g vs %.17g", c->principal[0], Ia);
    cr_expect(fabs(c->principal[1] - It) <= TOL(It));
    cr_expect(fabs(c->principal[2] - It) <= TOL(It));
    /* first axis along +-u; proper rotation; its quaternion gives the same matrix */
    double dot = c->axes[0] * u[0] + c->axes[3] * u[1] + c->axes[6] * u[2];
    cr_expect(fabs(fabs(dot) - 1.0) <= 1e-13, "axis . u = %.17g", dot);
    cr_expect(fabs(det3(c->axes) - 1.0) <= 1e-14, "det %.17g", det3(c->axes));
    double R[9];
    mb_q_to_mat(R, c->q_principal);
    for (int k = 0; k < 9; k++)
        cr_expect(fabs(R[k] - c->axes[k]) <= 1e-14);
    /* R(q_p) r~_i = c_i - X */
    for (int i = 0; i < 2; i++) {
        double g[3];
        mb_m3_mul_v(g, R, &c->rel[3 * i]);
        for (int k = 0; k < 3; k++)
            cr_expect(fabs(g[k] - (x[3 * i + k] - c->centroid[k])) <= 1e-14);
    }
    mb_clump_free(c);
}

/* Three equal spheres on an equilateral triangle of circumradius a, in an oblique plane:
 * I_normal = 3 [(2/5) m r^2 + m a^2], I_inplane = 3 (2/5) m r^2 + (3/2) m a^2 (twice).
 * Placed with a non-identity orientation q0, the node must carry q = q0 (x) q_p, its world
 * inertia must be R(q0) J R(q0)^T, and members must land on origin + R(q0) c_i. */
Test(clump, triplet_with_initial_orientation)
{
    const double r = 0.173, a = 0.385, rho = 731.0;
    /* orthonormal e1, e2 spanning the plane, normal nrm = e1 x e2 */
    const double e1[3] = { 0.6, 0.8, 0.0 }, e2[3] = { -0.48, 0.36, 0.8 };
    double nrm[3], x[9], rr[3] = { r, r, r }, C[3] = { 1.27, -0.41, 2.03 };
    mb_v3_cross(nrm, e1, e2);
    for (int i = 0; i < 3; i++) {
        double th = 2.0 * M_PI * i / 3.0 + 0.31;
        for (int k = 0; k < 3; k++)
            x[3 * i + k] = C[k] + a * (cos(th) * e1[k] + sin(th) * e2[k]);
    }
    mb_clump *c;
    cr_assert_eq(mb_clump_build(x, rr, 3, rho, MB_CLUMP_STEINER, 0, &c), MB_SUCCESS);
    double m = rho * 4.0 / 3.0 * M_PI * r * r * r;
    double In = 3.0 * (0.4 * m * r * r + m * a * a), Ip = 3.0 * 0.4 * m * r * r + 1.5 * m * a * a;
    cr_expect(fabs(c->principal[0] - Ip) <= TOL(In));
    cr_expect(fabs(c->principal[1] - Ip) <= TOL(In));
    cr_expect(fabs(c->principal[2] - In) <= TOL(In), "I3 %.17g vs %.17g", c->principal[2], In);
    double dot = c->axes[2] * nrm[0] + c->axes[5] * nrm[1] + c->axes[8] * nrm[2];
    cr_expect(fabs(fabs(dot) - 1.0) <= 1e-13);
    cr_expect(fabs(det3(c->axes) - 1.0) <= 1e-14);
    for (int k = 0; k < 3; k++)
        cr_expect(fabs(c->centroid[k] - C[k]) <= TOL(4.0));

    /* place with q0 = rotation by 1.1 rad about (1, -2, 2)/3 */
    double th[3] = { 1.1 / 3.0, -2.2 / 3.0, 2.2 / 3.0 }, q0[4], origin[3] = { -0.5, 0.25, 3.5 };
    mb_q_from_rotvec(q0, th);
    mb_nodes *s = mb_nodes_alloc(1, 53), *mem = mb_nodes_alloc(4, 53);
    cr_assert_eq(mb_clump_place(c, s, 0, origin, q0), MB_SUCCESS);
    double qe[4];
    mb_q_mul(qe, q0, c->q_principal);
    for (int k = 0; k < 4; k++)
        cr_expect(fabs(s->q[k] - qe[k]) <= 1e-15);
    /* world inertia: R(q) diag(I) R(q)^T = R(q0) J R(q0)^T, with J from the closed form
     * J = Ip 1 + (In - Ip) nrm nrm^T (the in-plane moments are equal) */
    double Rq[9], W[9], Rq0[9], wn[3];
    mb_q_to_mat(Rq, &s->q[0]);
    body_to_world(W, Rq, c->principal);
    mb_q_to_mat(Rq0, q0);
    mb_m3_mul_v(wn, Rq0, nrm);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double Jw = (i == j ? Ip : 0.0) + (In - Ip) * wn[i] * wn[j];
            cr_expect(fabs(W[3 * i + j] - Jw) <= 1e-13 * In, "W[%d][%d]", i, j);
        }
    cr_expect_eq(s->aspherical[0], 1);
    cr_expect(fabs(s->mass[0] - 3.0 * m) <= TOL(3.0 * m));
    /* members: world = origin + R(q0) c_i (independent route: q0 (x) (0, c) (x) q0*) */
    cr_assert_eq(mb_clump_init_members(c, s, 0, mem, 1), MB_SUCCESS);
    for (int i = 0; i < 3; i++) {
        double pq[4] = { 0, x[3 * i], x[3 * i + 1], x[3 * i + 2] }, t[4];
        double q0c[4] = { q0[0], -q0[1], -q0[2], -q0[3] };
        mb_q_mul(t, q0, pq);
        mb_q_mul(t, t, q0c);
        for (int k = 0; k < 3; k++)
            cr_expect(fabs(mem->x[3 * (i + 1) + k] - (origin[k] + t[k + 1])) <= 1e-13,
                      "member %d x[%d]: %.17g vs %.17g", i, k, mem->x[3 * (i + 1) + k],
                      origin[k] + t[k + 1]);
        cr_expect_eq(mem->radius[i + 1], r);
    }
    mb_nodes_free(s);
    mb_nodes_free(mem);
    mb_clump_free(c);
}

/* ---- closed-form union of two overlapping balls (reference for the grid) ----
 * Ball 1 (radius r1) at the origin, ball 2 (r2) at (d, 0, 0).  The radical plane
 * x = a1 = (d^2 + r1^2 - r2^2) / (2 d) splits the lens into the cap of ball 1 with
 * x in [a1, r1] and the cap of ball 2 with d - x in [d - a1, r2].  For a cap of a ball of
 * radius R with axial coordinate z in [z0, R] (slices are discs of radius^2 R^2 - z^2):
 *   V  = pi [R^2 z - z^3/3],          Mz = pi [R^2 z^2/2 - z^4/4],
 *   Z2 = pi [R^2 z^3/3 - z^5/5],      P2 = int rho_perp^2 = (pi/2) [R^4 z - 2 R^2 z^3/3 + z^5/5]
 * evaluated between z0 and R. */
typedef struct { double V, Mx, X2, P2; } moments;

static double prim(double z, double R, int which)
{
    double R2 = R * R;
    switch (which) {
    case 0: return M_PI * (R2 * z - z * z * z / 3.0);
    case 1: return M_PI * (R2 * z * z / 2.0 - pow(z, 4) / 4.0);
    case 2: return M_PI * (R2 * pow(z, 3) / 3.0 - pow(z, 5) / 5.0);
    default: return M_PI / 2.0 * (R2 * R2 * z - 2.0 * R2 * pow(z, 3) / 3.0 + pow(z, 5) / 5.0);
    }
}

static double cap(double z0, double R, int which) { return prim(R, R, which) - prim(z0, R, which); }

static moments lens_union(double r1, double r2, double d, double *vlens)
{
    double a1 = (d * d + r1 * r1 - r2 * r2) / (2.0 * d), a2 = d - a1;
    double b1 = 4.0 / 3.0 * M_PI * pow(r1, 3), b2 = 4.0 / 3.0 * M_PI * pow(r2, 3);
    double s1 = 4.0 * M_PI / 15.0 * pow(r1, 5), s2 = 4.0 * M_PI / 15.0 * pow(r2, 5);
    /* caps: cap 1 in x = z; cap 2 in x = d - z' */
    double cV1 = cap(a1, r1, 0), cM1 = cap(a1, r1, 1), cZ1 = cap(a1, r1, 2), cP1 = cap(a1, r1, 3);
    double cV2 = cap(a2, r2, 0), cM2 = cap(a2, r2, 1), cZ2 = cap(a2, r2, 2), cP2 = cap(a2, r2, 3);
    moments u;
    *vlens = cV1 + cV2;
    u.V = b1 + b2 - cV1 - cV2;
    u.Mx = d * b2 - cM1 - (d * cV2 - cM2);
    u.X2 = s1 + (d * d * b2 + s2) - cZ1 - (d * d * cV2 - 2.0 * d * cM2 + cZ2);
    u.P2 = 2.0 * s1 + 2.0 * s2 - cP1 - cP2;
    return u;
}

/* The caps reproduce the textbook lens volume
 * V = pi (r1 + r2 - d)^2 (d^2 + 2 d r2 - 3 r2^2 + 2 d r1 + 6 r1 r2 - 3 r1^2) / (12 d). */
Test(clump, lens_reference_is_consistent)
{
    const double r1 = 0.413, r2 = 0.297, d = 0.531;
    double vl;
    lens_union(r1, r2, d, &vl);
    double s = r1 + r2 - d;
    double text = M_PI * s * s * (d * d + 2 * d * r2 - 3 * r2 * r2 + 2 * d * r1 + 6 * r1 * r2
                                  - 3 * r1 * r1) / (12.0 * d);
    cr_expect(fabs(vl - text) <= 1e-14, "caps %.17g, textbook %.17g", vl, text);
}

/* Grid sampling converges to the closed-form union; its error stays inside the clump's own
 * bound; the Steiner sum on the same overlapping pair is off by the lens (negative control). */
Test(clump, grid_converges_to_lens_union)
{
    const double r1 = 0.413, r2 = 0.297, d = 0.531, rho = 2385.0;
    const double off[3] = { 0.0123, -0.0371, 0.0519 };    /* not aligned with the grid */
    double x[6] = { off[0], off[1], off[2], off[0] + d, off[1], off[2] }, r[2] = { r1, r2 };
    double vl;
    moments u = lens_union(r1, r2, d, &vl);
    double xb = u.Mx / u.V;
    double Iax = rho * u.P2, Itr = rho * (u.X2 + 0.5 * u.P2) - rho * u.V * xb * xb;
    const int res[4] = { 4, 8, 16, 32 };
    double evol[4], eint[4];
    for (int n = 0; n < 4; n++) {
        mb_clump *c;
        cr_assert_eq(mb_clump_build(x, r, 2, rho, MB_CLUMP_AUTO, res[n], &c), MB_SUCCESS);
        cr_expect_eq(c->method, MB_CLUMP_GRID);
        evol[n] = fabs(c->volume - u.V);
        cr_expect(evol[n] <= c->volume_error_bound, "res %d: |dV| %.3g > bound %.3g", res[n],
                  evol[n], c->volume_error_bound);
        double e1 = fabs(c->principal[0] - Iax), e2 = fabs(c->principal[1] - Itr),
               e3 = fabs(c->principal[2] - Itr);
        eint[n] = fmax(e1, fmax(e2, e3));
        cr_expect(eint[n] <= c->inertia_error_bound, "res %d: |dI| %.3g > bound %.3g",
                  res[n], eint[n], c->inertia_error_bound);
        /* the shifted-grid estimate is an estimate, not a bound: on this pair the errors are
         * 0.2-1.5 times it, so 3 times is the calibrated check */
        cr_expect(evol[n] <= 3.0 * c->volume_error_estimate, "res %d: dV vs estimate", res[n]);
        cr_expect(eint[n] <= 3.0 * c->inertia_error_estimate, "res %d: dI vs estimate", res[n]);
        cr_expect(fabs(c->centroid[0] - (off[0] + xb)) <= c->volume_error_bound / u.V * (r1 + d),
                  "res %d centroid", res[n]);
        cr_log_info("res %2d: rel dV %.2e (estimate %.2e, bound %.2e), rel dI %.2e (estimate %.2e, "
                    "bound %.2e)\n", res[n], evol[n] / u.V, c->volume_error_estimate / u.V,
                    c->volume_error_bound / u.V, eint[n] / Iax, c->inertia_error_estimate / Iax,
                    c->inertia_error_bound / Iax);
        cr_expect(fabs(det3(c->axes) - 1.0) <= 1e-14);
        mb_clump_free(c);
    }
    /* refinement by 8 must reduce the errors by at least 8 (first order or better) */
    cr_expect(evol[3] <= evol[0] / 8.0, "volume error %.3g -> %.3g", evol[0], evol[3]);
    cr_expect(eint[3] <= eint[0] / 8.0, "inertia error %.3g -> %.3g", eint[0], eint[3]);
    cr_expect(evol[3] / u.V < 2e-3);
    /* negative control: Steiner double counts the lens, far outside the grid's bound */
    mb_clump *s;
    cr_assert_eq(mb_clump_build(x, r, 2, rho, MB_CLUMP_STEINER, 0, &s), MB_SUCCESS);
    cr_expect(s->overlapping);
    cr_expect(fabs(s->volume - u.V - vl) <= 1e-13);
    cr_expect(fabs(s->volume - u.V) > 10.0 * evol[3]);
    mb_clump_free(s);
}

/* F = sum F_i, T = sum [T_i + (x_i - x_c) x F_i] written out component by component. */
Test(clump, collect_forces_and_torques_by_hand)
{
    double x[9] = { 0, 0, 0, 1.5, 0, 0, 0, 0.9, 0 }, r[3] = { 0.4, 0.3, 0.35 };
    mb_clump *c;
    cr_assert_eq(mb_clump_build(x, r, 3, 1000.0, MB_CLUMP_STEINER, 0, &c), MB_SUCCESS);
    mb_nodes *s = mb_nodes_alloc(2, 53), *mem = mb_nodes_alloc(3, 53);
    const double q0[4] = { 1, 0, 0, 0 }, o[3] = { 0.2, 0.3, -0.1 };
    mb_clump_place(c, s, 1, o, q0);
    mb_clump_init_members(c, s, 1, mem, 0);
    const double F[9] = { 1.25, -2.5, 0.75, 0.5, 3.0, -1.0, -2.0, 0.25, 4.0 };
    const double T[9] = { 0.125, 0.0, -0.25, 0.0, 0.5, 0.0, 0.375, -0.125, 0.0 };
    memcpy(mem->f, F, sizeof F);
    memcpy(mem->torque, T, sizeof T);
    s->f[3] = 0.5;                      /* the node's own force is kept */
    cr_assert_eq(mb_clump_collect(c, mem, 0, s, 1), MB_SUCCESS);
    double Fx = 0.5, Fy = 0, Fz = 0, Tx = 0, Ty = 0, Tz = 0;
    for (int i = 0; i < 3; i++) {
        double dx = mem->x[3 * i] - s->x[3], dy = mem->x[3 * i + 1] - s->x[4],
               dz = mem->x[3 * i + 2] - s->x[5];
        Fx += F[3 * i]; Fy += F[3 * i + 1]; Fz += F[3 * i + 2];
        Tx += T[3 * i] + dy * F[3 * i + 2] - dz * F[3 * i + 1];
        Ty += T[3 * i + 1] + dz * F[3 * i] - dx * F[3 * i + 2];
        Tz += T[3 * i + 2] + dx * F[3 * i + 1] - dy * F[3 * i];
    }
    const double got[6] = { s->f[3], s->f[4], s->f[5], s->torque[3], s->torque[4], s->torque[5] };
    const double want[6] = { Fx, Fy, Fz, Tx, Ty, Tz };
    for (int k = 0; k < 6; k++)
        cr_expect(fabs(got[k] - want[k]) <= 1e-14, "[%d] %.17g vs %.17g", k, got[k], want[k]);
    cr_expect_eq(s->f[0], 0.0);
    /* member 1 sits at x_c + (1.5, 0, 0) - X: hand value of its lever arm's z-torque share */
    mb_nodes_free(s);
    mb_nodes_free(mem);
    mb_clump_free(c);
}

/* Members follow the node: v_i = v_c + w x (x_i - x_c), positions keep their distances. */
Test(clump, reposition_rigid_velocity_field)
{
    double x[6] = { 0, 0, 0, 0.8, 0.1, 0 }, r[2] = { 0.35, 0.3 };
    mb_clump *c;
    cr_assert_eq(mb_clump_build(x, r, 2, 1000.0, MB_CLUMP_AUTO, 4, &c), MB_SUCCESS);
    mb_nodes *s = mb_nodes_alloc(1, 53), *mem = mb_nodes_alloc(2, 53);
    const double q0[4] = { 0.8, 0.0, 0.6, 0.0 }, o[3] = { 0, 0, 0 };
    mb_clump_place(c, s, 0, o, q0);
    const double w[3] = { 0.3, -1.7, 2.2 }, v[3] = { 0.5, 0.25, -0.75 }, th[3] = { 0.2, 0.1, -0.4 };
    double dq[4];
    mb_q_from_rotvec(dq, th);
    mb_q_mul(&s->q[0], dq, &s->q[0]);
    memcpy(&s->omega[0], w, sizeof w);
    memcpy(&s->v[0], v, sizeof v);
    s->x[0] += 0.37;
    cr_assert_eq(mb_clump_reposition(c, s, 0, mem, 0), MB_SUCCESS);
    double d01 = mb_v3_dist(&mem->x[0], &mem->x[3]);
    cr_expect(fabs(d01 - mb_v3_dist(&x[0], &x[3])) <= 1e-15);
    for (int i = 0; i < 2; i++) {
        double d[3] = { mem->x[3 * i] - s->x[0], mem->x[3 * i + 1] - s->x[1],
                        mem->x[3 * i + 2] - s->x[2] };
        double ve[3] = { v[0] + w[1] * d[2] - w[2] * d[1], v[1] + w[2] * d[0] - w[0] * d[2],
                         v[2] + w[0] * d[1] - w[1] * d[0] };
        for (int k = 0; k < 3; k++)
            cr_expect(fabs(mem->v[3 * i + k] - ve[k]) <= 1e-15);
    }
    mb_nodes_free(s);
    mb_nodes_free(mem);
    mb_clump_free(c);
}

Test(clump, bad_input_is_reported)
{
    double x[6] = { 0, 0, 0, 1, 0, 0 }, r[2] = { 0.3, -0.1 };
    mb_clump *c = (mb_clump *)1;
    cr_expect_eq(mb_clump_build(x, r, 2, 1000.0, MB_CLUMP_AUTO, 4, &c), MB_EDOM);
    cr_expect_null(c);
    cr_expect(strstr(mb_last_error(), "member 1 radius") != NULL, "%s", mb_last_error());
    r[1] = 0.8;
    cr_expect_eq(mb_clump_build(x, r, 2, 1000.0, MB_CLUMP_AUTO, 0, &c), MB_EDOM);
    cr_expect(strstr(mb_last_error(), "resolution") != NULL, "%s", mb_last_error());
    cr_expect_eq(mb_clump_build(x, r, 2, -1.0, MB_CLUMP_AUTO, 4, &c), MB_EDOM);
    cr_expect(strstr(mb_last_error(), "density") != NULL, "%s", mb_last_error());
    cr_expect_eq(mb_clump_build(x, r, 0, 1.0, MB_CLUMP_AUTO, 4, &c), MB_EINVAL);
    cr_assert_eq(mb_clump_build(x, r, 2, 1000.0, MB_CLUMP_AUTO, 4, &c), MB_SUCCESS);
    mb_nodes *s = mb_nodes_alloc(1, 53), *mem = mb_nodes_alloc(2, 53);
    const double q0[4] = { 0, 0, 0, 0 }, o[3] = { 0, 0, 0 };
    cr_expect_eq(mb_clump_place(c, s, 0, o, q0), MB_EDOM);
    cr_expect_eq(mb_clump_place(c, s, 3, o, q0), MB_EINVAL);
    cr_expect_eq(mb_clump_collect(c, mem, 1, s, 0), MB_EINVAL);
    mb_nodes_free(s);
    mb_nodes_free(mem);
    mb_clump_free(c);
}

/* Overlapping members whose radii differ by 300 decades: the cell count per axis,
 * (extent / h) with h = r_min / resolution, is far beyond a long; it must be refused by
 * the cell limit, not cast (undefined behaviour, in practice a negative count that ended
 * in "no cell inside the members"). */
Test(clump, grid_too_fine_is_refused_before_the_cast)
{
    double x[6] = { 0, 0, 0, 0.5, 0, 0 }, r[2] = { 1.0, 1e-300 };
    mb_clump *c = (mb_clump *)1;
    cr_expect_eq(mb_clump_build(x, r, 2, 1000.0, MB_CLUMP_GRID, 16, &c), MB_EDOM);
    cr_expect_null(c);
    cr_expect(strstr(mb_last_error(), "limit 2e8") != NULL, "%s", mb_last_error());
}

/* Shepperd's four branches: round trip q -> R(q) -> q for rotations whose largest
 * component is w, x, y, z in turn (signs normalised to w >= 0). */
Test(clump, matrix_to_quaternion_all_branches)
{
    const double qs[4][4] = { { 0.9, 0.3, -0.2, 0.1 }, { 0.1, 0.9, 0.3, -0.2 },
                              { 0.2, -0.1, 0.9, 0.3 }, { 0.3, 0.2, -0.1, 0.9 } };
    for (int b = 0; b < 4; b++) {
        double q[4], R[9], r[4];
        memcpy(q, qs[b], sizeof q);
        mb_q_normalize(q);
        mb_q_to_mat(R, q);
        mb_mat_to_quat(r, R);
        for (int k = 0; k < 4; k++)
            cr_expect(fabs(r[k] - q[k]) <= 4e-16, "branch %d: q[%d] %.17g vs %.17g", b, k, r[k], q[k]);
    }
}
