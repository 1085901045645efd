/* dst_mesh_depth.h — deepest-penetrating-vertex depth of two overlapping closed triangle
 * meshes, and the exact point-to-surface distance it needs (docs/math/mesh_mcd.md sec. 11).
 *
 * Contract. depth_V(A, B) (eq. 11.1) is the largest distance to the other mesh's surface of a
 * vertex of either mesh that lies inside the other solid: 0 when no vertex of A is inside B
 * and none of B is inside A (the surfaces may still cross edge through face). It is a lower
 * bound of the translational penetration depth PD (eq. 11.3), so -depth_V is an upper bound
 * of the signed distance of eq. (4.1) that is tighter than the 0 of dst_bvh_distance for
 * non-convex overlaps; it is 1-Lipschitz in the relative translation (eq. 11.5), so it grows
 * continuously from 0 at the onset of contact, and its witness direction n is the direction
 * in which translating A reduces it (minus its gradient with respect to A's position).
 * Point-in-solid is decided by the closest face when the closest surface point lies in the open
 * face of a triangle (eq. 11.12), else by dst_bvh_contains (ray parity, majority of three rays); the
 * distance of each inside vertex to the surface is exact up to rounding (the minimum over all
 * triangles of the exact point-triangle distance; the BVH only prunes triangles that cannot
 * be closer). Both meshes must be closed (the `closed` flag of DstBvh). Nothing is allocated
 * during a query, the BVHs are only read, so queries on the same BVHs may run in several
 * threads. Lengths are metres; rotations row-major 3x3, orthonormal within DST_ROTATION_TOL. */
#ifndef DST_MESH_DEPTH_H
#define DST_MESH_DEPTH_H

#include "dst.h"
#include "dst_bvh.h"

/* Result of dst_mesh_vertex_depth. */
typedef struct DstVertexDepth {
    DstStatus status;    /* DST_PENETRATING: some vertex lies inside the other solid;
                          * DST_SEPARATED: none does (depth 0; the surfaces may still cross
                          * edge through face); DST_INVALID_INPUT: NULL, non-finite or
                          * non-orthonormal pose, or a mesh that is not closed (nothing computed) */
    double depth;        /* depth_V of eq. (11.1), metres, >= 0 */
    double slack;        /* rounding allowance, metres: depth - slack <= exact depth_V for the
                          * computed inside/outside classification (eq. 11.6) */
    double pa[3], pb[3]; /* world, metres. A vertex of A inside B: pa = that vertex, pb = its
                          * closest point on B's surface. A vertex of B inside A: pb = that vertex,
                          * pa = its closest point on A's surface. Zero when DST_SEPARATED. */
    double n[3];         /* unit, world, from B to A: translating A along n reduces the depth
                          * (d depth / d xa = -n; for a small world rotation w of A about xa,
                          * d depth / d w = -(pa - xa) x n); pa - pb = -depth n. When the deepest vertex lies
                          * on the surface (depth 0 with DST_PENETRATING), the outward normal of
                          * the closest triangle of B, or the inward one of A. Zero when DST_SEPARATED. */
    int from_b;          /* 0: the deepest vertex is A's (inside B); 1: it is B's (inside A) */
    int tri;             /* mesh index of the closest triangle on the other surface, -1 if none */
    int vertices_tested; /* vertices (or node centres) whose side needed ray parity (dst_bvh_contains) */
    int vertices_sided;  /* vertices (or node centres) whose side the closest face decided (eq. 11.12) */
    int vertices_inside; /* vertices found inside the other solid and deeper than all before them
                          * (a vertex that cannot beat the deepest so far is not classified) */
    int nodes_classified;/* BVH nodes whose whole sphere lay on one side of the other surface */
} DstVertexDepth;

/* depth_V (eq. 11.1) of mesh A posed at (Ra, xa) and mesh B at (Rb, xb) in the world (x_world =
 * R x_mesh + x). Returns out->status. Nullable: nothing (NULL a, b, poses or out: DST_INVALID_INPUT,
 * out is written only when non-NULL). */
DstStatus dst_mesh_vertex_depth(const DstBvh *a, const double Ra[9], const double xa[3], const DstBvh *b,
                                const double Rb[9], const double xb[3], DstVertexDepth *out);

/* Exact unsigned distance (metres) from the point p (mesh frame of bvh, metres) to the mesh's
 * triangles, by a nearest-first BVH traversal pruned with sphere and oriented-box lower bounds;
 * equal to the minimum over all triangles of the exact point-triangle distance (eq. 11.7) up to
 * rounding. Writes the closest point (mesh frame) into closest and the mesh index of its
 * triangle into *tri. Returns -1 (and writes nothing) for a NULL bvh or p or a non-finite p.
 * Nullable: closest, tri. */
double dst_bvh_point_distance(const DstBvh *bvh, const double p[3], double closest[3], int *tri);

#endif /* DST_MESH_DEPTH_H */
