/* dst_bvh.h — static signed distance of two triangle meshes in relative pose (thesis
 * sec. II.B-C, eq. 4.1): a bounding-volume hierarchy of oriented boxes with spheres over each mesh, an exact
 * triangle-triangle distance kernel, and a penetration depth when the meshes overlap.
 *
 * Contract. A DstBvh is built once from a DstMesh (its own copy of the triangles, in the
 * mesh frame) and is immutable afterwards; queries take two BVHs with their world poses
 * (row-major rotation, orthonormal within DST_ROTATION_TOL, and origin in metres) and
 * return the result in a DstMeshDistance. Nothing is allocated during a query; the only
 * mutable state is the caller's explicit warm-start cache. Queries on the same BVHs from
 * several threads are safe (each with its own cache).
 *
 * Separation (dst_bvh_separation) is the distance between the two triangle sets: exact
 * up to rounding (the minimum over all triangle pairs of the exact triangle-triangle
 * distance; the BVH only prunes pairs that cannot be closer). The signed distance
 * (dst_bvh_distance) treats closed meshes as solids: it is the separation when the solids
 * are apart, and minus the penetration depth when they overlap (surfaces intersect, or one
 * solid contains the other, detected by ray parity; by winding number for a mesh of several
 * components, one vertex of each tested). The depth is exact (EPA on the convex
 * hulls) when both meshes are convex; otherwise only a bracket is known: lower = minus the
 * depth of the convex hulls (a valid lower bound because hulls contain the meshes), upper
 * = 0, or minus the separation of the surfaces when one solid contains the other
 * (docs/math/mesh_mcd.md sec. 3). Open meshes are surfaces: their signed distance is
 * the separation. Lengths are metres. */
#ifndef DST_BVH_H
#define DST_BVH_H

#include <stddef.h>

#include "dst.h"
#include "dst_convex.h"
#include "dst_mesh.h"

/* Most triangles in one BVH leaf. */
#define DST_BVH_LEAF_SIZE 1

/* Closest points of two triangles (dst_tri_distance). */
typedef struct DstTriPair {
    double dist;       /* Euclidean distance of the two triangles, metres, >= 0 */
    double pa[3];      /* closest point on triangle A */
    double pb[3];      /* closest point on triangle B (pa == pb when they intersect) */
} DstTriPair;

/* Exact distance of two triangles a[9], b[9] (three vertices x,y,z each, same frame,
 * metres): the minimum over the 6 vertex-face projections and the 9 edge-edge segment
 * distances, 0 when an edge of one crosses the other (thesis sec. II.B). Degenerate
 * (zero-area) triangles are handled as their edges. Inputs must be finite. */
void dst_tri_distance(const double a[9], const double b[9], DstTriPair *out);

/* One node: an oriented box (principal axes) and the sphere about its centre, both
 * enclosing its triangles; children or a run of triangles. */
typedef struct DstBvhNode {
    double c[3];       /* box and sphere centre, mesh frame, metres */
    double ax[9];      /* box axes: rows are orthonormal unit vectors, mesh frame */
    double h[3];       /* box half extents along the axes, metres (widened for rounding) */
    double r;          /* sphere radius, metres (widened for rounding) */
    int left, right;   /* child node indices, -1 for a leaf */
    int first, count;  /* leaf: triangles tri[first .. first + count - 1] */
} DstBvhNode;

typedef struct DstBvh {
    int n_nodes;
    DstBvhNode *nodes;     /* owned; nodes[0] is the root */
    int n_tris;
    double (*tri)[9];      /* owned; triangles in leaf order, mesh frame */
    int *tri_id;           /* owned; original index of each triangle in the mesh */
    double (*nrm)[3];      /* owned; unit normal of each triangle (leaf order), zero if degenerate */
    int depth;             /* levels of the tree (1 for a single leaf) */
    double radius;         /* max |vertex| about the mesh-frame origin, metres (eq. 4.7 max_j |p_j|) */
    int closed;            /* 1: closed and consistently oriented: a solid with an inside */
    int convex;            /* 1: closed, one component, and its volume equals its hull's
                            * (DST_BVH_CONVEX_VOL_REL) */
    int n_components;      /* connected components (triangles joined through shared vertex
                            * indices): several closed shells, possibly overlapping, such as a
                            * link made of several collision elements */
    int *component_tri;    /* owned; one triangle (leaf order) of each component, n_components */
    int has_hull;          /* 1: hull built (the vertices span 3-D) */
    int hull_is_box;       /* 1: more than DST_BVH_HULL_MAX_VERTS vertices: `hull` is the
                            * mesh-frame bounding box instead (contains the mesh; convex = 0) */
    DstHull hull;          /* owned when has_hull */
} DstBvh;

/* Builds the BVH of a mesh (copied; the mesh may be destroyed afterwards): top-down split
 * at the mean triangle centroid along each node box's longest axis (at least a quarter of the
 * triangles on either side), principal-axis boxes and spheres at each node. Also its convex hull and the closed / convex flags. Returns DST_OK,
 * DST_INVALID_INPUT (no triangles, index out of range, non-finite vertex; message) or
 * DST_FAILED (out of memory). On failure *out holds nothing to free. Nullable: err. */
DstStatus dst_bvh_create(const DstMesh *mesh, DstBvh *out, char *err, size_t err_size);

/* Frees a BVH and zeroes it. Nullable: bvh. */
void dst_bvh_destroy(DstBvh *bvh);

/* Warm start of coherent queries: the closest triangle pair of the last query (leaf-order
 * indices) is tried first, giving an upper bound that prunes most of the tree. */
typedef struct DstBvhCache {
    int tri_a, tri_b;      /* -1: empty */
    DstGjkCache gjk;       /* hull GJK/EPA warm start for penetrating queries */
} DstBvhCache;

/* Empties a cache. */
void dst_bvh_cache_reset(DstBvhCache *cache);

/* Result of a static mesh query. */
typedef struct DstMeshDistance {
    DstStatus status;      /* DST_SEPARATED, DST_TOUCHING, DST_PENETRATING, DST_INVALID_INPUT */
    double distance;       /* signed distance, metres: separation, or -depth when overlapping
                            * (non-convex overlap: = upper, 0 or minus the surface separation
                            * of a contained solid) */
    double lower, upper;   /* bracket of the exact signed distance (rounding included) */
    double pa[3], pb[3];   /* witness points, world: on A and on B */
    double n[3];           /* unit normal from B to A (direction that separates A) */
    int tri_a, tri_b;      /* mesh triangle indices of the witnesses; -1 when they come from the hulls */
    int overlap;           /* 0 apart; 1 surfaces intersect; 2 one solid inside the other */
    int exact;             /* 1: lower == upper up to rounding (apart, or both convex) */
    int node_pairs;        /* sphere-sphere tests */
    int tri_pairs;         /* triangle-triangle tests */
} DstMeshDistance;

/* Separation (surface distance >= 0) of mesh A posed at (Ra, xa) and mesh B at (Rb, xb):
 * exact minimum over all triangle pairs. Witnesses, normal, triangle ids, counters.
 * Status DST_SEPARATED or DST_TOUCHING (surfaces meet); DST_INVALID_INPUT for a
 * non-finite or non-orthonormal pose. Nullable: cache (cold start). */
DstStatus dst_bvh_separation(const DstBvh *a, const double Ra[9], const double xa[3], const DstBvh *b,
                             const double Rb[9], const double xb[3], DstBvhCache *cache,
                             DstMeshDistance *out);

/* Signed distance of eq. (4.1) (see the contract above). Nullable: cache. */
DstStatus dst_bvh_distance(const DstBvh *a, const double Ra[9], const double xa[3], const DstBvh *b,
                           const double Rb[9], const double xb[3], DstBvhCache *cache,
                           DstMeshDistance *out);

/* The same two queries with relaxed pruning: node and triangle pairs whose lower bound is
 * above (best so far - tol) are skipped, so the returned distance is still a real distance
 * of two surface points, but may exceed the exact one by up to tol; `lower` accounts for
 * it (lower <= exact <= distance <= lower + tol + rounding). tol >= 0 metres (0: exact).
 * The MCD uses tol = a fraction of eps: it needs end values only to that accuracy. */
DstStatus dst_bvh_separation_tol(const DstBvh *a, const double Ra[9], const double xa[3], const DstBvh *b,
                                 const double Rb[9], const double xb[3], double tol, DstBvhCache *cache,
                                 DstMeshDistance *out);
DstStatus dst_bvh_distance_tol(const DstBvh *a, const double Ra[9], const double xa[3], const DstBvh *b,
                               const double Rb[9], const double xb[3], double tol, DstBvhCache *cache,
                               DstMeshDistance *out);

/* The same with a pruning tolerance that grows with the distance found: pairs whose lower
 * bound is above thr(d) = d - max(tol, rel (d - ref)) are skipped (d the best so far), so the
 * result is a real distance d with lower = thr(d) (less rounding) <= exact <= d. For callers
 * that need a value precisely only near a reference ref (metres; the MCD's UB) and ever less
 * precisely above it (docs/math/mesh_mcd.md eq. 5b). 0 <= rel < 1; ref finite when rel > 0. */
DstStatus dst_bvh_separation_rel(const DstBvh *a, const double Ra[9], const double xa[3], const DstBvh *b,
                                 const double Rb[9], const double xb[3], double tol, double ref, double rel,
                                 DstBvhCache *cache, DstMeshDistance *out);
DstStatus dst_bvh_distance_rel(const DstBvh *a, const double Ra[9], const double xa[3], const DstBvh *b,
                               const double Rb[9], const double xb[3], double tol, double ref, double rel,
                               DstBvhCache *cache, DstMeshDistance *out);


/* The same with the pruning level capped by the caller: pairs whose bound is at or above
 * thr(d) = min(level, d - max(tol, rel (d - ref))) are skipped, so the result is a real
 * distance d with lower = thr(d) (less rounding) <= exact <= d; it is only shown to reach
 * level when d is far enough above it (docs/math/mesh_mcd.md eq. 5d). For a caller that needs
 * to know whether the distance reaches a level (the MCD: the value that closes both halves of
 * a split sub-interval). level = +INFINITY is the rel form above; NaN is invalid input. */
DstStatus dst_bvh_separation_level(const DstBvh *a, const double Ra[9], const double xa[3], const DstBvh *b,
                                   const double Rb[9], const double xb[3], double tol, double ref, double rel,
                                   double level, DstBvhCache *cache, DstMeshDistance *out);
DstStatus dst_bvh_distance_level(const DstBvh *a, const double Ra[9], const double xa[3], const DstBvh *b,
                                 const double Rb[9], const double xb[3], double tol, double ref, double rel,
                                 double level, DstBvhCache *cache, DstMeshDistance *out);

/* 1 when the point p (mesh frame of bvh, metres) lies inside the closed mesh, by three
 * rays (majority vote, robust to a ray grazing an edge): for a mesh of one component the
 * parity of the ray's crossings; for several components (shells that may overlap: the
 * solid is their union) the winding number, the signed count of crossings (+1 leaving
 * through an outward face, -1 entering), which is the number of shells holding p, so p is
 * inside when it is > 0 (docs/math/mesh_mcd.md eq. 11.13). 0 outside or when the mesh is
 * not closed. */
int dst_bvh_contains(const DstBvh *bvh, const double p[3]);

#endif /* DST_BVH_H */
