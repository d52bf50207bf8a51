/* test_contact_boxes.c -- sphere-box and box-box (vertex-face) contact geometry of the
 * solfec scheme against hand-computed gaps, normals and points. */
#include <criterion/criterion.h>
#include <math.h>

#include "mb_contact_detect.h"
#include "mb_vec.h"

static double Lambda[18], X[6], Jinv[6] = { 1, 1, 1, 1, 1, 1 }, Minv[2] = { 1, 1 };
static mb_body_view view = { 2, Lambda, X, Jinv, Minv };

static void place(size_t k, const double x[3], const double rotvec[3])
{
    double q[4];
    mb_q_from_rotvec(q, rotvec);
    mb_q_to_mat(&Lambda[9 * k], q);
    mb_v3_copy(&X[3 * k], x);
}

static void normal_of(const mb_con *c, double n[3]) { mb_v3_copy(n, &c->E[6]); }

/* sphere (r 0.1) above a box (half 1, 1, 0.2) turned 90 degrees about z: face contact */
Test(contact_boxes, sphere_above_box_face)
{
    double half[3] = { 1, 0.5, 0.2 }, n[3], p[3];
    place(0, (double[3]){ 0.2, 0.1, 0.25 }, (double[3]){ 0, 0, 0 });
    place(1, (double[3]){ 0, 0, 0 }, (double[3]){ 0, 0, M_PI / 2 });
    mb_con c;
    mb_detect_sphere_box(&view, 0, 0.1, 1, half, &c);
    cr_expect_float_eq(c.gap, 0.25 - 0.2 - 0.1, 1e-15);
    normal_of(&c, n);
    cr_expect_float_eq(n[2], 1.0, 1e-15);
    mb_con_point(&view, 0, c.Ai, p);          /* midpoint of (0.2, 0.1, 0.2) and (.., 0.15) */
    cr_expect_float_eq(p[2], 0.175, 1e-15);
    cr_expect_float_eq(p[0], 0.2, 1e-15);
    cr_expect_eq(c.i, 0);
    cr_expect_eq(c.j, 1);
}

/* sphere beside a box edge: n along the diagonal from the edge to the centre */
Test(contact_boxes, sphere_at_box_edge)
{
    double half[3] = { 0.5, 0.5, 0.5 }, n[3];
    place(0, (double[3]){ 0.55, 0.55, 0 }, (double[3]){ 0, 0, 0 });
    place(1, (double[3]){ 0, 0, 0 }, (double[3]){ 0, 0, 0 });
    mb_con c;
    mb_detect_sphere_box(&view, 0, 0.1, 1, half, &c);
    cr_expect_float_eq(c.gap, 0.05 * sqrt(2.0) - 0.1, 1e-15);
    normal_of(&c, n);
    cr_expect_float_eq(n[0], sqrt(0.5), 1e-15);
    cr_expect_float_eq(n[1], sqrt(0.5), 1e-15);
}

/* sphere centre inside the box: the shallowest face decides, gap = -(depth) - r */
Test(contact_boxes, sphere_centre_inside_box)
{
    double half[3] = { 1, 1, 0.2 }, n[3];
    place(0, (double[3]){ 0.3, -0.2, -0.15 }, (double[3]){ 0, 0, 0 });
    place(1, (double[3]){ 0, 0, 0 }, (double[3]){ 0, 0, 0 });
    mb_con c;
    mb_detect_sphere_box(&view, 0, 0.1, 1, half, &c);
    cr_expect_float_eq(c.gap, -0.05 - 0.1, 1e-15);
    normal_of(&c, n);
    cr_expect_float_eq(n[2], -1.0, 1e-15);
}

/* a box (half 0.5) turned 45 degrees about y sits corner-down 0.05 deep in a box below */
Test(contact_boxes, box_vertex_in_box_face)
{
    double hi[3] = { 0.5, 0.5, 0.5 }, hj[3] = { 2, 2, 0.5 }, n[3], p[3];
    double zc = 0.5 + 0.5 * sqrt(2.0) - 0.05;
    place(0, (double[3]){ 0, 0, zc }, (double[3]){ 0, M_PI / 4, 0 });
    place(1, (double[3]){ 0, 0, 0 }, (double[3]){ 0, 0, 0 });
    int found = 0;
    for (int v = 0; v < 8; v++) {
        mb_con c;
        mb_detect_box_vertex_box(&view, 0, hi, v, 1, hj, &c);
        if (c.gap > 0)
            continue;
        found++;
        cr_expect_float_eq(c.gap, -0.05, 1e-14);
        normal_of(&c, n);
        cr_expect_float_eq(n[2], 1.0, 1e-15);
        mb_con_point(&view, 0, c.Ai, p);
        cr_expect_float_eq(p[2], 0.45, 1e-14);
    }
    cr_expect_eq(found, 2, "the lower edge's two vertices");
    /* control: lifted 0.1 the corner is clear */
    X[2] += 0.1;
    for (int v = 0; v < 8; v++) {
        mb_con c;
        mb_detect_box_vertex_box(&view, 0, hi, v, 1, hj, &c);
        cr_expect_gt(c.gap, 0);
    }
}
