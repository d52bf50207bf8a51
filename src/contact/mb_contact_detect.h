/* mb_contact_detect.h -- contact geometry for the solfec scheme: sphere-sphere,
 * sphere-plane, box vertices against a plane, sphere-box, and box-box as vertex-face
 * and edge-edge contacts.  Each contact point is returned as a
 * constraint (MB_CON_CONTACT) with its local frame (normal n from master to slave as
 * third row), body arms, signed gap, and a key identifying it between steps. */
#ifndef MB_CONTACT_DETECT_H
#define MB_CONTACT_DETECT_H

#include "mb_constraint.h"
#include "mb_scene.h"

/* Sphere i (radius ri) against sphere j: the contact point is the midpoint of the
 * closest surface points; n = (x_i - x_j)/|x_i - x_j|, gap = |x_i - x_j| - ri - rj. */
void mb_detect_sphere_sphere(const mb_body_view *b, size_t i, double ri, size_t j, double rj,
                             mb_con *c);
/* Sphere i against plane P (master: the ground): gap = (x_i - p).n - r. */
void mb_detect_sphere_plane(const mb_body_view *b, size_t i, double r, const mb_plane *P,
                            mb_con *c);
/* Vertex v (0..7, signs of the half-extents from its bits) of box i against plane P. */
void mb_detect_box_vertex_plane(const mb_body_view *b, size_t i, const double half[3], int v,
                                const mb_plane *P, mb_con *c);
/* The point q of a box (half-extents, centred at the origin of its frame) closest to the
 * point pb (box frame), the outward unit normal nb at q towards pb and the signed
 * distance *dist of pb from the surface along nb: outside, q is pb clamped to the box,
 * nb = (pb - q)/|pb - q| and *dist = |pb - q|; inside, q is pb's projection on the
 * shallowest face, nb that face's normal and *dist = -(its depth).  Returns the number of
 * axes clamped: 1 a face, 2 an edge, 3 a vertex, 0 inside (a face).  The one home of the
 * sphere-box geometry: mb_detect_sphere_box and the DEM laws' sphere-box pairs. */
int mb_box_closest(const double half[3], const double pb[3], double q[3], double nb[3],
                   double *dist);
/* Sphere i (radius r, slave) against box j (half-extents, master): with the sphere centre
 * outside the box, n runs from the closest box point to the centre and gap = distance - r;
 * inside, n is the normal of the shallowest face and gap = -(its depth) - r.  The contact
 * point is the midpoint of the box surface point and the sphere's point x_i - r n. */
void mb_detect_sphere_box(const mb_body_view *b, size_t i, double r, size_t j, const double half[3],
                          mb_con *c);
/* Vertex v of box i (slave) against the faces of box j (master): when the vertex is inside
 * box j, n is the outward normal of j's shallowest face and gap = -(its depth), the
 * contact point the vertex; otherwise gap = 1 (no contact). */
void mb_detect_box_vertex_box(const mb_body_view *b, size_t i, const double hi[3], int v, size_t j,
                              const double hj[3], mb_con *c);
/* Edges closer to parallel than this sine are not paired edge to edge (the vertex-face
 * contacts of their ends hold them); it bounds the round-off of the closest points,
 * ~1e-16 / sine^2 of the box size, to 1e-8. */
#define MB_EDGE_PARALLEL_SINE 1e-4
/* n is paired edge to edge only when its cosine with each face normal at both edges
 * exceeds this margin (well above the 1e-16 round-off of the rotations): a normal along a
 * face normal is a face-edge or face-face touch, left to the vertex-face contacts. */
#define MB_EDGE_CONE_MARGIN 1e-9
/* Edge ei (0..11: along body axis ei / 4, through the vertex whose other two sign bits are
 * those of ei % 4) of box i against edge ej of box j.  A contact (gap <= 0 when the edges
 * cross) when: the edges are not parallel (sine >= MB_EDGE_PARALLEL_SINE); the closest
 * points of their lines lie strictly inside both segments (at an end it is a vertex); with
 * n = di x dj / |di x dj| oriented from j to i, n is strictly inside the normal cone of
 * edge ej of box j and -n inside that of edge ei of box i (cosines with the four face
 * normals > MB_EDGE_CONE_MARGIN: each edge alone is the part of its box extreme along the
 * axis, the Gauss-map test); and each closest point lies inside the other box (up to tol).  Then gap = n.(pi - pj), the signed distance of the closest points along n, and
 * the contact point is their midpoint; otherwise gap = 1 (no contact).  Key: residue 24
 * modulo 128, disjoint from the vertex-face keys. */
void mb_detect_box_edge_box(const mb_body_view *b, size_t i, const double hi[3], int ei, size_t j,
                            const double hj[3], int ej, double tol, mb_con *c);
/* Room for every contact mb_detect_contacts may find in scene s (n bodies): 9 per body and
 * plane (box vertices, a sphere), and per pair of bodies 16 box-box vertex-face contacts
 * with room for up to 48 edge-edge contacts: 9 n (planes + 1) + 32 n^2 + 1 (1 without a
 * scene). */
size_t mb_detect_capacity(const mb_scene *s);
/* Every contact of the scene with gap <= 0 -- up to round-off, 1e-12 of the bodies' size --
 * (at most cap), returns the count (may exceed
 * cap: then only cap were written). */
size_t mb_detect_contacts(const mb_scene *s, const mb_body_view *b, mb_con *out, size_t cap);

#endif
