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
 * elongated ellipsoids). From the root, d is evaluated through the support functions
 * (eq. 31): it is an upper bound of the exact distance, rounding included, so gap is a
 * lower bound of the separation; a residual mismatch of the two contact points triggers
 * a Newton refinement of the contact normal (eq. 33). Pure: no allocation, no global
 * state; lengths in metres. */
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
    double u0;                     /* initial u in (0, 1); default 0.5 (sec. 2.3) */
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

/* Defaults: hybrid solver, rule (12), eps 1e-8, 100 iterations, u0 = 0.5. */
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

#endif /* DST_ELLIPSOID_H */
