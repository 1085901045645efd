/* dst_ellipsoid.h — closest-approach distance of two ellipsoids along a direction
 * (M.G. Choi 2019, seed 001, eq. 1-13; docs/math/ellipsoid.md).
 *
 * Contract: given ellipsoids e1, e2 and a unit direction n, find the distance d such
 * that e2, translated so that its centre sits at c1 + d n, touches e1 from outside. For
 * the inter-centre direction n = (c2 - c1) / |c2 - c1| the signed separation along the
 * centre line is gap = |c2 - c1| - d: > 0 apart, < 0 overlapping (the ellipsoid
 * constraint of the planner is gap >= eps). The root u in (0, 1) of the scalar
 * equation f(u) = 0 (eq. 10) is found by one of three solvers, the paper's
 * root-bracketed Newton-bisection hybrid (default; always converges) or the fixed-point
 * and Steffensen iterations it is compared with (may hit the iteration limit for
 * elongated ellipsoids), from the radial start u0 = rho1 / (rho1 + rho2) (default; rho_i
 * the radius of e_i along n, the root for any two spheres) or a given u0 such as the
 * paper's 0.5 (sec. 2.3). From the root, d is evaluated through the support functions
 * (eq. 31): it is an upper bound of the exact distance, rounding included, so gap is a
 * lower bound of the separation; a residual mismatch of the two contact points triggers
 * a Newton refinement of the contact normal (eq. 33). Pure: no allocation, no global
 * state; lengths in metres.
 *
 * Two entry points answer the same query: the DstEllipsoid one takes shape and pose
 * together; the prepared one takes a DstEllipsoidShape (radii and their inverses,
 * validated once by dst_ellipsoid_shape_prepare, immutable) and a DstEllipsoidPose
 * (centre and rotation, validated at every query) for each ellipsoid, for callers whose
 * poses change at every query while the shapes stay. Both give bit-identical results. */
#ifndef DST_ELLIPSOID_H
#define DST_ELLIPSOID_H

#include "dst.h"

/* An ellipsoid {c + R diag(radii) y : |y| <= 1}: the columns of R are its principal
 * axes in the world frame. */
typedef struct DstEllipsoid {
    double centre[3];   /* world frame, metres */
    double rot[9];      /* row-major 3x3 (rot[3*i + j]), orthonormal (det +-1) */
    double radii[3];    /* semi-axis lengths along the columns of rot, metres, > 0 */
} DstEllipsoid;

/* The shape of an ellipsoid, prepared once by dst_ellipsoid_shape_prepare (the fields are
 * derived from the radii there and not rechecked per query; do not fill it by hand). */
typedef struct DstEllipsoidShape {
    double radii[3];      /* semi-axis lengths, metres, finite and > 0 */
    double inv_radii[3];  /* 1 / radii, 1/metres */
    double radii_sum;     /* radii[0] + radii[1] + radii[2], metres (rounding bound, eq. 31b) */
    double r_min;         /* smallest semi-axis, metres; 0 marks a shape that failed to prepare */
} DstEllipsoidShape;

/* The placement of a prepared shape: the ellipsoid {centre + rot diag(radii) y : |y| <= 1}. */
typedef struct DstEllipsoidPose {
    double centre[3];     /* world frame, metres, finite */
    double rot[9];        /* row-major 3x3, columns = principal axes in the world frame,
                             orthonormal within DST_ROTATION_ORTHO_TOL */
} DstEllipsoidPose;

typedef enum DstEllipsoidSolver {
    DST_ELLIPSOID_HYBRID = 0,      /* Newton on f(u) with bisection inside a bracket (eq. 10-11) */
    DST_ELLIPSOID_FIXED_POINT,     /* u <- sqrt(A) / (sqrt(A) + sqrt(B)) from eq. (8)-(9) */
    DST_ELLIPSOID_STEFFENSEN       /* Steffensen (Aitken) acceleration of the fixed point */
} DstEllipsoidSolver;

typedef enum DstEllipsoidStop {
    DST_ELLIPSOID_STOP_DU = 0,     /* eq. (12): |u_{i+1} - u_i| <= eps */
    DST_ELLIPSOID_STOP_GAP         /* eq. (13): ||x1(u_i) - x2(u_i)|| <= eps * r_min */
} DstEllipsoidStop;

typedef struct DstEllipsoidOptions {
    DstEllipsoidSolver solver;     /* default DST_ELLIPSOID_HYBRID */
    DstEllipsoidStop stop;         /* default DST_ELLIPSOID_STOP_DU */
    double eps;                    /* > 0; default DST_ELLIPSOID_DEFAULT_EPS (1e-8) */
    int max_iter;                  /* >= 1; default DST_ELLIPSOID_DEFAULT_MAX_ITER (100) */
    double u0;                     /* initial u of every solver: a value in (0, 1) (the paper's
                                      sec. 2.3 start is DST_ELLIPSOID_PAPER_U0 = 0.5), or
                                      DST_ELLIPSOID_U0_AUTO (0), the default: the radial start
                                      u0 = rho1 / (rho1 + rho2), rho_i = (n^T E_i n)^(-1/2)
                                      the radius of e_i along n (docs/math/ellipsoid.md
                                      eq. 34; the root for any two spheres) */
} DstEllipsoidOptions;

typedef struct DstEllipsoidResult {
    DstStatus status;     /* DST_OK (stopping rule met), DST_ITER_LIMIT (max_iter reached:
                             the fields hold the last iterate), DST_INVALID_INPUT (nothing
                             computed, fields zero, `error` says why), DST_FAILED
                             (numerical breakdown, fields zero; not expected for valid
                             input) */
    const char *error;    /* static message for DST_INVALID_INPUT and DST_FAILED, else NULL */
    double d;             /* closest-approach distance of the centres along n, metres: eq. (8)
                             evaluated as the upper bound of eq. (31b), >= the exact value */
    double gap;           /* (c2 - c1) . n - d, metres: the separation along n, a lower
                             bound (> 0 apart, < 0 overlapping) */
    double u;             /* root of f (eq. 10), in (0, 1) */
    int iterations;       /* updates u_i -> u_{i+1} made (a Steffensen update counts once) */
    int evaluations;      /* evaluations of f (with f') or of the fixed-point map made */
    double dir[3];        /* the unit direction n used (world) */
    double contact[3];    /* contact point x, world: on e1 (eq. 32), and on e2 placed at
                             c1 + d n up to `residual` */
    double normal[3];     /* unit outward normal of e1 at the contact (grad e1, eq. 4), world */
    double residual;      /* metres: distance between e1's contact point and e2's (e2 placed
                             at c1 + d n, opposite normal); 0 at the exact answer, ~1e-15 r
                             for moderate ratios (accuracy indicator, eq. 33) */
} DstEllipsoidResult;

/* Defaults: hybrid solver, rule (12), eps 1e-8, 100 iterations, the radial start
 * (u0 = DST_ELLIPSOID_U0_AUTO). The paper's experiments set u0 = DST_ELLIPSOID_PAPER_U0. */
DstEllipsoidOptions dst_ellipsoid_options_default(void);

/* NULL if e is a valid ellipsoid (finite centre, finite radii > 0, rotation finite and
 * orthonormal within DST_ROTATION_ORTHO_TOL), else a static message naming the field. */
const char *dst_ellipsoid_check(const DstEllipsoid *e);

/* Closest approach along the inter-centre direction n = (c2 - c1)/|c2 - c1|; gap =
 * |c2 - c1| - d. Nullable: opt (defaults). Coincident centres are DST_INVALID_INPUT (no
 * direction). Returns out->status. */
DstStatus dst_ellipsoid_closest_approach(const DstEllipsoid *e1, const DstEllipsoid *e2,
                                         const DstEllipsoidOptions *opt,
                                         DstEllipsoidResult *out);

/* The same along a given direction dir[3] (world, normalised here; must be finite and
 * non-zero). The centres enter only through gap and contact. Nullable: opt. */
DstStatus dst_ellipsoid_approach_along(const DstEllipsoid *e1, const DstEllipsoid *e2,
                                       const double *dir, const DstEllipsoidOptions *opt,
                                       DstEllipsoidResult *out);

/* Prepares the shape of semi-axes radii[3] (metres, finite, > 0). Returns NULL on success,
 * else a static message naming the field; then *shape is zeroed (r_min = 0), and a query
 * with it is DST_INVALID_INPUT. shape and radii must not be NULL (a NULL shape returns a
 * message and writes nothing). */
const char *dst_ellipsoid_shape_prepare(DstEllipsoidShape *shape, const double *radii);

/* dst_ellipsoid_approach_along for prepared shapes s1, s2 placed at p1, p2 (world); dir[3]
 * as there (world, normalised here, finite and non-zero). The poses are validated here
 * (finite centre, orthonormal rotation); the shapes only for having been prepared.
 * Nullable: opt (defaults). Returns out->status. */
DstStatus dst_ellipsoid_prepared_approach_along(const DstEllipsoidShape *s1, const DstEllipsoidPose *p1,
                                                const DstEllipsoidShape *s2, const DstEllipsoidPose *p2,
                                                const double *dir, const DstEllipsoidOptions *opt,
                                                DstEllipsoidResult *out);

/* dst_ellipsoid_closest_approach for prepared shapes: along n = (c2 - c1)/|c2 - c1|.
 * Nullable: opt. Returns out->status. */
DstStatus dst_ellipsoid_prepared_closest_approach(const DstEllipsoidShape *s1, const DstEllipsoidPose *p1,
                                                  const DstEllipsoidShape *s2, const DstEllipsoidPose *p2,
                                                  const DstEllipsoidOptions *opt, DstEllipsoidResult *out);

#endif /* DST_ELLIPSOID_H */
