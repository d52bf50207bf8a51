/* mb_clump.h -- clumps: rigid aggregates of spheres integrated as one node (DESIGN 4.2).
 *
 * A clump is built once from its member spheres (centres c_i in a construction frame,
 * radii r_i, one density rho):
 *   - mass M, centroid X and inertia tensor J about X in the construction frame, either
 *     by the Steiner sum (members do not overlap)
 *        M = sum m_i,  m_i = rho (4/3) pi r_i^3,  X = sum m_i c_i / M,
 *        J = sum [ (2/5) m_i r_i^2 1 + m_i (|d_i|^2 1 - d_i d_i^T) ],  d_i = c_i - X,
 *     or by grid sampling of the union (members overlap): cubic cells of side
 *     h = r_min / resolution; a cell belongs to the clump when its centre lies in a member;
 *     each cell adds its point mass and its own cube inertia (rho h^5 / 6 on each axis).
 *     Error bounds (rigorous, pessimistic): a cell whose centre is farther than h sqrt(3)/2
 *     from the union's surface lies wholly inside or outside, so |V_grid - V| <= N_b h^3
 *     with N_b the number of cells closer than that (volume_error_bound); likewise every
 *     inertia component about a fixed point is off by at most
 *     rho h^3 sum_b (|p_b - X| + h sqrt(3)/2)^2 (inertia_error_bound; the centroid shift adds
 *     M |dX|^2, second order).  Both shrink like h, but partial cells err with both signs
 *     and mostly cancel, so the bounds overstate the error by 2-3 orders.
 *     Error estimates (practical): the same sums on the grid shifted by h/2 along each axis;
 *     the error depends on the grid's phase, so the difference of the two passes,
 *     |V - V_shift| and max |J - J_shift| (volume_error_estimate, inertia_error_estimate),
 *     measures its size.  Figures for two overlapping spheres in doc/dem.md.
 *   - principal axes: J = P diag(I_1 <= I_2 <= I_3) P^T by gsl_eigen_symmv, with the third
 *     column negated if det P = -1 so that P is a proper rotation; q_principal is its
 *     quaternion (body/principal frame -> construction frame), and r~_i = P^T (c_i - X).
 * Placing a clump with construction frame at `origin` and orientation q0 (world point
 * = origin + R(q0) c) gives the node x = origin + R(q0) X and q = q0 (x) q_principal, so
 * that R(q) r~_i = R(q0) (c_i - X) for every member.
 * Dynamics: after the forces on the members are known, mb_clump_collect adds to the clump
 * node F = sum F_i and T = sum [T_i + (x_i - x_c) x F_i]; after each step
 * mb_clump_reposition puts the members back: x_i = x_c + R(q) r~_i,
 * v_i = v_c + w x (x_i - x_c), w_i = w, q_i = q. */
#ifndef MB_CLUMP_H
#define MB_CLUMP_H

#include "mb_nodes.h"

typedef enum { MB_CLUMP_AUTO = 0, MB_CLUMP_STEINER, MB_CLUMP_GRID } mb_clump_method;

typedef struct mb_clump {
    size_t count;
    double density;
    double mass, volume;
    double centroid[3];        /* X, construction frame */
    double inertia[9];         /* J about X, construction axes, row-major */
    double principal[3];       /* I_1 <= I_2 <= I_3 */
    double axes[9];            /* P (columns: principal axes), det = +1 */
    double q_principal[4];     /* quaternion of P */
    double *rel;               /* 3 count: r~_i, member centres in the principal frame */
    double *radius;            /* count */
    mb_clump_method method;    /* the method used (never AUTO) */
    int overlapping;           /* 1 when two members overlap */
    int resolution;            /* grid: cells per smallest radius (0 for Steiner) */
    size_t cells, boundary_cells;
    double volume_error_bound;     /* grid: |V_grid - V| <= this; 0 for Steiner */
    double inertia_error_bound;    /* grid: bound on inertia components; 0 for Steiner */
    double volume_error_estimate;  /* grid: |V - V_shifted|; 0 for Steiner */
    double inertia_error_estimate; /* grid: max |J - J_shifted|; 0 for Steiner */
} mb_clump;

/* Build from count members.  AUTO uses Steiner unless two members overlap, then the
 * grid with `resolution` cells per smallest radius (>= 1; ignored by Steiner).  Errors
 * name the offending member or parameter. */
int mb_clump_build(const double *centres, const double *radii, size_t count, double density,
                   mb_clump_method method, int resolution, mb_clump **out);
void mb_clump_free(mb_clump *c);

/* Set node `node` of s: mass, principal inertia, x = origin + R(q0) X, q = q0 (x) q_p.
 * q0 must be a unit quaternion (normalised here). */
int mb_clump_place(const mb_clump *c, mb_nodes *s, size_t node, const double origin[3],
                   const double q0[4]);
/* Members are nodes first .. first + count - 1 of `members`: set their radii, masses
 * (the clump's mass: a member's contact sees the whole clump) and pose from the node. */
/* max_k (|rel_k| + r_k): the radius about the centre of mass of a ball holding every
 * member (the clump's bounding radius, for contacts with obstacles). */
double mb_clump_bounding_radius(const mb_clump *c);
int mb_clump_init_members(const mb_clump *c, const mb_nodes *s, size_t node,
                          mb_nodes *members, size_t first);
/* Add the members' forces and torques, reduced to the clump node, to s->f, s->torque. */
int mb_clump_collect(const mb_clump *c, const mb_nodes *members, size_t first, mb_nodes *s,
                     size_t node);
/* Put the members back on the clump node's pose and velocity. */
int mb_clump_reposition(const mb_clump *c, const mb_nodes *s, size_t node, mb_nodes *members,
                        size_t first);

/* Principal moments I (ascending) and axes P (columns, row-major, det +1, and its
 * quaternion q) of a symmetric tensor J = P diag(I) P^T, by gsl_eigen_symmv; MB_EDOM with
 * a message when I_1 <= 0 (not positive definite). */
int mb_inertia_principal(const double J[9], double I[3], double P[9], double q[4]);

/* Rotation matrix (row-major, det +1) -> unit quaternion (Shepperd's method). */
void mb_mat_to_quat(double q[4], const double R[9]);

#endif
