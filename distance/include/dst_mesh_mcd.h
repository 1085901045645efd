/* dst_mesh_mcd.h — minimum continuous distance (MCD) of two moving triangle meshes by
 * adaptive subdivision (thesis ch. IV, Algorithm 4.1).
 *
 * Contract. Each mesh is a DstBvh (dst_bvh.h, built once, borrowed) carried by a
 * DstMovingFrame over [t0, t1] (dst_motion.h: polynomial rotation in s with a spectral-norm
 * error bound, polynomial origin with an enclosure radius; what pln_linkmotion_frame()
 * exports). The result has the contract of the capsule MCD (DstMcdResult in dst_capsule.h):
 * `upper` is the signed distance (eq. 4.1, dst_bvh_distance) of the two meshes placed at a
 * real time t_min by the nominal poses (the polynomial rotation orthonormalised, the
 * polynomial origin), with witnesses and normal there; `lower` is a certified lower bound of
 * min over [t0, t1] of the true signed distance: it includes the motion enclosures (R_err,
 * origin err), the orthonormalisation and floating-point rounding. Lower bounds on
 * sub-intervals come from eq. (4.8) with the motion bound mu of eq. (4.7) computed from
 * Bernstein bounds of the frame polynomials on that sub-interval (docs/math/mesh_mcd.md).
 * The query allocates nothing and keeps no state; the caller's cache (nullable) warm-starts
 * the BVH distance. Lengths metres, times seconds. */
#ifndef DST_MESH_MCD_H
#define DST_MESH_MCD_H

#include "dst.h"
#include "dst_bvh.h"
#include "dst_capsule.h"
#include "dst_motion.h"

/* A mesh in motion: its BVH (borrowed, mesh frame) and the motion of its frame. */
typedef struct DstMovingMesh {
    const DstBvh *bvh;
    DstMovingFrame frame;
} DstMovingMesh;

/* Options; start from dst_mesh_mcd_options_default() and edit. */
typedef struct DstMeshMcdOptions {
    double eps;          /* certified error upper - lower, metres, > 0 (default 1e-3, eq. 6.1) */
    int max_evals;       /* cap on static distance evaluations (default DST_MESH_MCD_MAX_EVALS) */
    int prism_cull;      /* 1: before splitting a sub-interval, try to close it by prism culling
                          * (seed 003, dst_mesh_swept_apart) at the level UB - eps; in
                          * dst_mesh_first_contact at the level d (default 0: on the HRP-2
                          * benchmark it closed 23 of 5568 sub-intervals tried and made the MCD
                          * 4.3 times slower, the first-contact query 1.4 times;
                          * docs/perf/mesh.md) */
    double tol_rel;      /* growth of an evaluation's BVH pruning tolerance with its distance
                          * above the current UB (dst_bvh_distance_rel), in [0, 1); 0: every
                          * evaluation to DST_MESH_MCD_TOL_FRACTION of the target only, as
                          * the thesis' sampling (default DST_MESH_MCD_TOL_REL) */
    double time_tol;     /* dst_mesh_first_contact only: largest width t_hi - t_lo of the
                          * contact bracket, seconds, > 0 (default DST_MESH_TOC_TIME_TOL) */
    double stop_above;   /* metres; +INFINITY = off (default). As soon as the certified lower
                          * bound of the whole interval reaches it, the query stops with
                          * DST_ABOVE_LIMIT: `lower` >= stop_above is that certified bound,
                          * `upper`, t_min and the witnesses come from the best evaluation so
                          * far (a real nominal distance, possibly far above the minimum).
                          * First tried before any subdivision, by swept bounding spheres
                          * (dst_mesh_swept_lower) and one end evaluation, then by eq. (4.8)
                          * on the whole interval, then after each sub-interval
                          * (docs/math/mesh_mcd.md sec. 9). NaN is invalid input. */
} DstMeshMcdOptions;

/* eps = DST_DEFAULT_MCD_EPS, max_evals = DST_MESH_MCD_MAX_EVALS, prism_cull = 0,
 * tol_rel = DST_MESH_MCD_TOL_REL, time_tol = DST_MESH_TOC_TIME_TOL, stop_above = +INFINITY. */
DstMeshMcdOptions dst_mesh_mcd_options_default(void);

/* Result of a mesh MCD query over [t0, t1] (field meanings as DstMcdResult). */
typedef struct DstMeshMcdResult {
    DstStatus status;    /* DST_CERTIFIED (upper - lower <= eps); DST_ABOVE_LIMIT (stopped:
                          * lower >= opt->stop_above, upper - lower may exceed eps, upper a
                          * real nominal distance at t_min); DST_NOT_CERTIFIED (the
                          * enclosures alone exceed eps, or a non-convex overlap whose depth
                          * is only bracketed); DST_ITER_LIMIT (max_evals ended the search,
                          * bounds valid); DST_INVALID_INPUT (nothing computed, zeros);
                          * DST_FAILED (a rotation polynomial R(s) too far from a rotation to
                          * orthonormalise: columns of norm outside (0.5, 2); zeros) */
    double lower;        /* certified lower bound of min_t of the true signed distance, metres */
    double upper;        /* nominal signed distance at t_min, metres: a real distance of the
                          * nominal placements, between the exact one and that plus
                          * DST_MESH_MCD_TOL_FRACTION * eps (relaxed BVH pruning); when
                          * non-convex meshes overlap there, the upper end of the static
                          * bracket of dst_bvh_distance (<= 0) */
    double t_min;        /* seconds, in [t0, t1] */
    double pA[3], pB[3]; /* witness points at t_min, world, metres */
    double n[3];         /* unit normal from B to A at t_min */
    int tri_a, tri_b;    /* mesh triangle indices of the witnesses (-1: from the hulls) */
    int distance_evals;  /* static mesh distance evaluations */
    int subintervals;    /* sub-intervals examined (Algorithm 4.1 calls) */
    int max_depth;       /* deepest subdivision level reached */
    int culled;          /* sub-intervals closed by prism culling */
    int prism_tests;     /* sub-intervals on which prism culling was tried */
    long prism_pairs;    /* triangle prism pairs tested (seed 003 Table 2 "pairs") */
    long prism_culled;   /* of which culled by the single-axis test */
} DstMeshMcdResult;

/* Mesh MCD by adaptive subdivision, thesis Algorithm 4.1 with eq. (4.5)-(4.8). a, b, out
 * non-NULL; opt, cache nullable. Returns out->status. */
DstStatus dst_mesh_mcd(const DstMovingMesh *a, const DstMovingMesh *b, double t0, double t1,
                       const DstMeshMcdOptions *opt, DstBvhCache *cache, DstMeshMcdResult *out);

/* Baseline: certified uniform sampling of thesis eq. (6.3): n samples with n chosen from the
 * global motion bound so that the Lipschitz gap between samples is below eps (capped at
 * max_evals, then DST_ITER_LIMIT). Same result contract. */
DstStatus dst_mesh_mcd_sampling(const DstMovingMesh *a, const DstMovingMesh *b, double t0, double t1,
                                const DstMeshMcdOptions *opt, DstBvhCache *cache, DstMeshMcdResult *out);

/* The nominal signed distance at local parameter s in [0, 1] (what `upper` is made of),
 * with the BVH pruning tolerance tol (dst_bvh_distance_tol; 0 = exact):
 * meshes placed by the orthonormalised polynomial rotation and the polynomial origin.
 * *dev receives the bound (metres) on how far any vertex of the polynomial (affine) shapes
 * lies from these rigid placements (orthonormalisation). Nullable: cache, dev. */
DstStatus dst_mesh_nominal_distance(const DstMovingMesh *a, const DstMovingMesh *b, double s, double tol,
                                    DstBvhCache *cache, DstMeshDistance *out, double *dev);

/* Answer of dst_mesh_first_contact. */
typedef struct DstMeshToc {
    DstStatus status;    /* DST_CERTIFIED: the answer below is certified; DST_ITER_LIMIT
                          * (max_evals) or DST_NOT_CERTIFIED (a sub-interval could neither be
                          * closed nor split further): only [t0, t_lo) is certified, hit = 0;
                          * DST_INVALID_INPUT, DST_FAILED: nothing computed (zeros) */
    int hit;             /* 1: the meshes come within d (bracket below); 0: they do not
                          * (with DST_CERTIFIED: the true distance stays > d on [t0, t1]) */
    double t_lo;         /* seconds: the true signed distance is > d on [t0, t_lo) (certified,
                          * enclosures and rounding included); t1 when hit = 0 and certified */
    double t_hi;         /* seconds, hit = 1: t_lo <= t_hi <= t_lo + time_tol, and the nominal
                          * distance there is <= d + eps (the true one within the enclosure of
                          * it): the first contact lies in [t_lo, t_hi], up to eps */
    double distance;     /* nominal signed distance at t_hi, metres (hit = 1) */
    double pA[3], pB[3]; /* its witnesses, world, metres (hit = 1) */
    int distance_evals;  /* static mesh distance evaluations */
    int subintervals;    /* sub-intervals examined */
    int closed_lb;       /* sub-intervals closed by eq. (4.8) */
    int prism_tests;     /* sub-intervals on which prism culling was tried */
    int culled;          /* of which closed by prism culling */
    long prism_pairs;    /* triangle prism pairs tested */
    long prism_culled;   /* of which culled by the single-axis test */
} DstMeshToc;

/* Time of first contact within distance d (docs/math/mesh_mcd.md sec. 10): the first t in
 * [t0, t1] at which the two moving meshes come within d metres (signed distance <= d; d may
 * be 0 for contact, or negative for a depth). Sub-intervals are scanned in time order: one is
 * closed when eq. (4.8) or prism culling (opt->prism_cull, dst_mesh_swept_apart at the level
 * d plus the enclosures) certifies the true distance > d on it; otherwise it is split at its
 * middle, until an end within opt->time_tol of the certified part has a nominal distance
 * <= d + opt->eps. Unlike an end-point check, a contact strictly inside [t0, t1] is found.
 * a, b, out non-NULL; opt nullable (defaults). Returns out->status. */
DstStatus dst_mesh_first_contact(const DstMovingMesh *a, const DstMovingMesh *b, double t0, double t1, double d,
                                 const DstMeshMcdOptions *opt, DstMeshToc *out);

/* Counters of prism culling. */
typedef struct DstPrismStats {
    long node_pairs;     /* swept node pairs visited */
    long prism_pairs;    /* triangle prism pairs tested by seed eq. (1)-(9) */
    long prism_culled;   /* of which separated by at least d */
} DstPrismStats;

/* Prism culling (seed 003) as a certified test: 1 when the polynomial (affine) shapes of
 * the two meshes stay at least d > 0 metres apart at every s in [s0, s1] (subset of [0, 1]);
 * 0 when that cannot be shown (some prism pair is not separated, or bad input). Node pairs
 * are culled by swept spheres, triangle pairs by the prisms of their end vertices enlarged
 * by the deviation from linear motion, tested on the single axis of seed eq. (1)-(9). The
 * true shapes are within the enclosures (dst_moving_frame_enclosure) of these. Stops at the
 * first pair not culled. Nullable: stats (counters are added to). */
int dst_mesh_swept_apart(const DstMovingMesh *a, const DstMovingMesh *b, double s0, double s1, double d,
                         DstPrismStats *stats);

/* The same traversal without the early exit, for culling statistics (seed 003 Table 2): every
 * node pair the swept spheres do not cull reaches the prism test; returns the number of
 * prism pairs not culled at level d (0: the test above would succeed), -1 on bad input.
 * Nullable: stats (counters are added to). */
long dst_mesh_swept_count(const DstMovingMesh *a, const DstMovingMesh *b, double s0, double s1, double d,
                          DstPrismStats *stats);

/* Certified lower bound (metres) of the distance of the polynomial (affine) shapes of the two
 * meshes at every s in [s0, s1] (subset of [0, 1]), from bounding spheres swept over the
 * sub-interval (sphere at the middle time plus the eq. (4.7) motion radius): best-first
 * refinement of a frontier of node pairs, at most `budget` sphere tests, stopping early once
 * the bound reaches d_stop. A positive value bounds the separation of the surfaces; it bounds
 * the signed distance only when the solids are known apart at one time of the sub-interval
 * (continuity). -INFINITY on bad input. Nullable: stats (node_pairs is added to). */
double dst_mesh_swept_lower(const DstMovingMesh *a, const DstMovingMesh *b, double s0, double s1, double d_stop,
                            int budget, DstPrismStats *stats);

#endif /* DST_MESH_MCD_H */
