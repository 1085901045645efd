/* dst_convex.h — convex shapes given by support functions; GJK separation distance, EPA
 * penetration depth, their combination into a signed distance, and 3-D convex hulls.
 *
 * Contract. A convex shape is a *core* (point cloud / hull vertices, point, segment, box,
 * ellipsoid or a user support callback) swept by a ball of radius `margin` >= 0
 * (a sphere is a point core with margin r, a capsule a segment core with margin r), placed
 * in the world by a rigid pose: x_world = R x_local + t, R row-major 3x3 orthonormal with
 * det +1, t in metres. Queries take two shapes and return, with a status, the signed
 * distance d (metres; > 0 apart, 0 touching, < 0 overlapping, minus the penetration
 * depth), witness points p_a on A and p_b on B (world frame) and the unit normal n
 * pointing from B to A, such that p_a - p_b = d n in every regime (docs/math/gjk_epa.md
 * eq. (1)-(3)). Moving A along +n increases d at unit rate, so d is continuous through
 * contact. GJK (seed 002, thesis sec. II.B.1) computes the distance of the cores with
 * signed-volume sub-simplex solves; EPA (thesis sec. II.C.1) computes the depth when the
 * cores overlap. Every query is pure: no allocation, no global state; an optional
 * warm-start cache is an explicit argument. Iterations are bounded; an iteration cap
 * ends with DST_ITER_LIMIT and bounds that are still valid. Bad input (NaN, negative
 * sizes, non-orthonormal rotation, NULL arrays, lengths outside the supported range
 * DST_CONVEX_MIN_SCALE..DST_CONVEX_MAX_COORD) gives DST_INVALID_INPUT and nothing else.
 * Shapes borrow their arrays (vertices, adjacency, user data); the caller keeps them alive.
 * The hull builder allocates (it is a preprocessing step) and has a _destroy pair. */
#ifndef DST_CONVEX_H
#define DST_CONVEX_H

#include <stddef.h>

#include "dst.h"

/* ------------------------------------------------------------------ shapes */

/* User support function of a core in its LOCAL frame: writes to out[3] a point of the
 * core that maximises dot(x, dir) (dir is not normalised, never zero). `hint` is the
 * feature id this callback returned for a nearby direction in the same query, or -1.
 * Returns a feature id >= 0 that identifies the returned point (e.g. a vertex index),
 * or -1 if points have no ids. Must be pure (no side effects on shared state). */
typedef int (*DstSupportFn)(const void *user, const double dir[3], int hint, double out[3]);

typedef enum DstConvexKind {
    DST_CONVEX_POINTS = 0, /* convex hull of verts[nverts][3] (local frame) */
    DST_CONVEX_SPHERE,     /* point core at the local origin; radius = margin */
    DST_CONVEX_CAPSULE,    /* segment core (0,0,-half_length)-(0,0,+half_length); radius = margin */
    DST_CONVEX_BOX,        /* |x_i| <= half[i] in the local frame */
    DST_CONVEX_ELLIPSOID,  /* sum (x_i / radii[i])^2 <= 1 in the local frame */
    DST_CONVEX_CUSTOM      /* core given by support(user, ...) */
} DstConvexKind;

/* A convex shape. Build it with a dst_convex_*() constructor (identity pose), then set the
 * pose with dst_convex_set_pose(). Fields not used by `kind` are ignored. */
typedef struct DstConvex {
    DstConvexKind kind;
    double rot[9]; /* local -> world rotation, row-major, orthonormal, det +1 */
    double pos[3]; /* local origin in the world frame, metres */
    double margin; /* radius of the ball swept around the core, metres, >= 0 */
    /* DST_CONVEX_POINTS: borrowed vertex array [nverts][3], metres, local frame. */
    const double *verts;
    int nverts;
    /* Optional vertex adjacency in CSR form (borrowed; nullable, both or neither):
     * neighbours of vertex i are adj[adj_start[i] .. adj_start[i+1]-1]. It must be the edge
     * graph of the convex hull of verts with every vertex extreme (dst_hull_build gives
     * one); then supports hill-climb from the previous vertex instead of scanning all. */
    const int *adj_start; /* [nverts + 1] */
    const int *adj;       /* [adj_start[nverts]] */
    /* Optional start table for the hill-climb (borrowed; nullable; needs adj): a cube map of
     * 6 * dir_res^2 cells, cell (face f = 2 m + (d_m < 0), i, j) at index (f dir_res + i)
     * dir_res + j holds the support vertex of the direction through the cell's centre, where
     * m = argmax |d_m| and i, j bin d_{m+1}/|d_m|, d_{m+2}/|d_m| over [-1, 1]
     * (dst_hull_build fills one; docs/math/gjk_epa.md eq. (5)). */
    const int *dir_table;
    int dir_res;
    double half_length;   /* DST_CONVEX_CAPSULE: half length of the core segment, >= 0 */
    double half[3];       /* DST_CONVEX_BOX: half extents, >= 0 (0 gives a flat box) */
    double radii[3];      /* DST_CONVEX_ELLIPSOID: semi-axes, > 0 */
    DstSupportFn support; /* DST_CONVEX_CUSTOM: the core's support function */
    const void *user;     /* DST_CONVEX_CUSTOM: passed to support(); nullable */
} DstConvex;

/* Point cloud / hull vertices: verts[n][3] borrowed. Nullable: adj_start, adj (no hill-climb). */
DstConvex dst_convex_points(const double *verts, int n, const int *adj_start, const int *adj);
/* Sphere of radius r (metres) centred at the local origin. */
DstConvex dst_convex_sphere(double radius);
/* Capsule: segment of half length h along local z, swept by a ball of radius r (metres). */
DstConvex dst_convex_capsule(double radius, double half_length);
/* Box with half extents hx, hy, hz (metres) centred at the local origin. */
DstConvex dst_convex_box(double hx, double hy, double hz);
/* Ellipsoid with semi-axes a, b, c (metres) along local x, y, z. */
DstConvex dst_convex_ellipsoid(double a, double b, double c);
/* Shape defined by a user support function; user is borrowed, nullable. */
DstConvex dst_convex_custom(DstSupportFn support, const void *user);

/* Sets the pose. rot: row-major 3x3 (local -> world); pos: metres. Nullable: rot (identity),
 * pos (zero). Values are validated by the queries, not here. */
void dst_convex_set_pose(DstConvex *shape, const double rot[9], const double pos[3]);

/* Checks a shape: finite numbers, non-negative sizes, orthonormal rotation with det +1
 * (tolerance DST_CONVEX_ORTHO_TOL), non-NULL arrays, every vertex finite, adjacency
 * indices in range. Call it once per shape built from outside data: the queries re-check
 * only the O(1) fields (pose, sizes, pointers) and the finiteness of each support point.
 * Returns DST_OK or DST_INVALID_INPUT with a one-line message naming the field.
 * Nullable: err (when err_size is 0). */
DstStatus dst_convex_validate(const DstConvex *shape, char *err, size_t err_size);

/* World-frame support point of the whole shape (core plus margin) in direction dir
 * (world, any length; a zero direction gives some point of the shape). */
void dst_convex_support(const DstConvex *shape, const double dir[3], double out[3]);

/* ------------------------------------------------------------------ GJK */

/* One vertex of a GJK/EPA simplex: w = a - b, with a on core A and b on core B (world). */
typedef struct DstSimplexVertex {
    double w[3], a[3], b[3];
    int id_a, id_b; /* feature ids from the supports, -1 when unknown */
} DstSimplexVertex;

/* Warm-start cache for coherent queries (Box2D's simplex cache): zero-initialise it
 * (or dst_gjk_cache_reset) before the first query of a pair; each query reads it as the
 * starting simplex and writes the final one. Holds feature ids, so it must only be reused
 * for the same pair of shapes (poses may change). */
typedef struct DstGjkCache {
    int count;            /* 0 = empty */
    int id_a[4], id_b[4]; /* feature ids of the cached simplex vertices */
    double dir[3];        /* last closest vector v (world); seeds curved shapes */
} DstGjkCache;

/* Empties a cache (same as zero-initialising it). Nullable: cache. */
void dst_gjk_cache_reset(DstGjkCache *cache);

typedef struct DstGjkOptions {
    int max_iter;   /* > 0; iterations (support calls per shape) cap */
    double rel_tol; /* stop when upper - lower <= rel_tol * distance + abs_tol * scale */
    double abs_tol; /* dimensionless, times the shapes' scale */
} DstGjkOptions;

/* Defaults: DST_GJK_DEFAULT_MAX_ITER, DST_GJK_DEFAULT_REL_TOL, DST_GJK_DEFAULT_ABS_TOL. */
DstGjkOptions dst_gjk_options_default(void);

typedef struct DstGjkResult {
    /* DST_SEPARATED, DST_TOUCHING, DST_PENETRATING, DST_ITER_LIMIT (bounds valid, tolerance
     * not reached), DST_INVALID_INPUT, DST_FAILED (a support point not finite / in range) */
    DstStatus status;
    /* 1: the cores intersect; distance is then only the upper bound -(margin_a + margin_b)
     * and the depth needs dst_epa_depth */
    int cores_overlap;
    /* signed distance of the whole shapes when the cores are apart (core distance minus both
     * margins; < 0 when only the margins overlap); -(margin_a + margin_b) when cores_overlap */
    double distance;
    /* lower bound of `distance` from the support gaps (exact arithmetic); equals distance
     * when cores_overlap */
    double lower;
    double point_a[3];    /* witness on A (world) */
    double point_b[3];    /* witness on B (world) */
    double normal[3];     /* unit, from B to A; zero when cores_overlap */
    double core_distance; /* distance of the cores, >= 0 */
    double scale;         /* problem size seen (|w| and support reach), metres: tolerance unit */
    int iterations;       /* support evaluations per shape */
    int count;            /* final simplex (seeds EPA) */
    DstSimplexVertex simplex[4];
} DstGjkResult;

/* GJK distance between shapes a and b (seed 002; thesis eq. (2.3) for the separated case).
 * Nullable: opt (defaults), cache (cold start), err. out is always written; on
 * DST_INVALID_INPUT only out->status is meaningful. Returns out->status. */
DstStatus dst_gjk_distance(const DstConvex *a, const DstConvex *b, const DstGjkOptions *opt,
                           DstGjkCache *cache, DstGjkResult *out, char *err, size_t err_size);

/* ------------------------------------------------------------------ EPA */

typedef struct DstEpaOptions {
    int max_iter;   /* > 0; expansion steps cap (also capped by DST_EPA_MAX_VERTS) */
    double rel_tol; /* stop when upper - lower <= rel_tol * depth + abs_tol * scale */
    double abs_tol;
} DstEpaOptions;

/* Defaults: DST_EPA_DEFAULT_MAX_ITER, DST_EPA_DEFAULT_REL_TOL, DST_EPA_DEFAULT_ABS_TOL. */
DstEpaOptions dst_epa_options_default(void);

typedef struct DstEpaResult {
    /* DST_PENETRATING (converged), DST_TOUCHING (depth within the touching band),
     * DST_ITER_LIMIT (bounds valid, tolerance not reached), DST_INVALID_INPUT, DST_FAILED */
    DstStatus status;
    double depth;       /* penetration depth of the whole shapes (cores + margins), metres */
    double depth_lower; /* bracket of the depth (exact arithmetic) */
    double depth_upper;
    double point_a[3], point_b[3]; /* witnesses (world): point_a - point_b = -depth * normal */
    double normal[3];              /* unit, from B to A: moving A by depth * normal separates */
    int iterations;                /* expansion steps */
    int faces;                     /* live faces of the final polytope */
} DstEpaResult;

/* EPA penetration depth (thesis sec. II.C.1) of a and b whose cores overlap, seeded by the
 * simplex of a GJK result with cores_overlap = 1. Works in a fixed workspace of about 50 KB
 * on the stack (DST_EPA_MAX_VERTS vertices); no allocation. Nullable: opt, err. */
DstStatus dst_epa_depth(const DstConvex *a, const DstConvex *b, const DstGjkResult *gjk,
                        const DstEpaOptions *opt, DstEpaResult *out, char *err, size_t err_size);

/* ------------------------------------------------------------------ signed distance */

typedef struct DstConvexDistance {
    /* DST_SEPARATED, DST_TOUCHING, DST_PENETRATING, DST_ITER_LIMIT, DST_INVALID_INPUT,
     * DST_FAILED */
    DstStatus status;
    double distance;               /* signed distance, metres (negative = -depth) */
    double lower, upper;           /* bracket of the signed distance */
    double point_a[3], point_b[3]; /* witnesses (world): point_a - point_b = distance * normal */
    double normal[3];              /* unit, from B to A */
    int gjk_iterations, epa_iterations;
} DstConvexDistance;

/* Signed distance: GJK, then EPA when the cores overlap. Nullable: gjk_opt, epa_opt, cache,
 * err. Returns out->status. */
DstStatus dst_convex_distance(const DstConvex *a, const DstConvex *b, const DstGjkOptions *gjk_opt,
                              const DstEpaOptions *epa_opt, DstGjkCache *cache,
                              DstConvexDistance *out, char *err, size_t err_size);

/* ------------------------------------------------------------------ convex hull */

/* A closed convex triangulated hull: vertices (a subset of the input points, each an extreme
 * point within tolerance), outward counter-clockwise triangles, and the vertex adjacency in
 * CSR form for hill-climbing supports. Owned; free with dst_hull_destroy. */
typedef struct DstHull {
    int nverts;
    double *verts; /* [nverts][3], metres */
    int *source;   /* [nverts]: index of each vertex in the input array */
    int ntris;
    int *tris;      /* [ntris][3], counter-clockwise seen from outside */
    int *adj_start; /* [nverts + 1] */
    int *adj;       /* [adj_start[nverts]] */
    int *dir_table; /* [6 dir_res^2] support vertex per cube-map cell (see DstConvex) */
    int dir_res;    /* DST_HULL_DIR_RES */
    int dim;        /* affine dimension of the input: 3 for a hull; 0, 1, 2 when the
                       input is coincident, collinear or coplanar (no hull built) */
    double tol;     /* absolute tolerance used, metres: every input point lies below every
                       face plane within tol, every vertex within 2 tol */
} DstHull;

/* Quickhull of pts[n][3] (metres). tol_rel: points within tol_rel * (bounding-box diagonal)
 * of a face count as on it (<= 0 selects DST_HULL_REL_TOL); if rounding on nearly coplanar
 * faces breaks convexity, the hull is rebuilt with 100 times larger tolerances up to
 * DST_HULL_MAX_REL_TOL (the one used is out->tol). On success returns DST_OK and
 * fills *out (free with dst_hull_destroy). Degenerate input (all points coincident,
 * collinear or coplanar within tolerance) returns DST_INVALID_INPUT with out->dim set to
 * 0, 1 or 2 and a message; NaN/inf, n < 1, NULL gives DST_INVALID_INPUT; out of memory or a
 * numerical breakdown DST_FAILED. In every failure *out holds no allocation. Cost
 * O(n h + n F) (h hull vertices, F faces: every point is certified against every face);
 * a preprocessing step. Nullable: err. */
DstStatus dst_hull_build(const double *pts, int n, double tol_rel, DstHull *out, char *err,
                         size_t err_size);

/* Frees the arrays of a hull built by dst_hull_build and zeroes it. Nullable: hull. */
void dst_hull_destroy(DstHull *hull);

/* A DST_CONVEX_POINTS shape over the hull's vertices with its adjacency and start table
 * (borrows hull). */
DstConvex dst_hull_convex(const DstHull *hull);

#endif /* DST_CONVEX_H */
