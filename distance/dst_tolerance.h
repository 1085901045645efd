/* dst_tolerance.h — every numerical tolerance of distance/, with its unit and reason.
 *
 * Local tolerances inside the kernels are derived from these; no bare literal
 * thresholds appear in the algorithms. User-facing tolerances (MCD eps, GSS tau)
 * are options whose defaults are defined here as the seeds give them. */
#ifndef DST_TOLERANCE_H
#define DST_TOLERANCE_H

/* Smallest denominator accepted in a guarded division (dimensionless or m^2):
 * below it the quantity is treated as degenerate and the explicit branch is taken. */
#define DST_MIN_DENOM 1e-300

/* Default certified error of a continuous distance query, metres (thesis sec. VI.A.3,
 * eq. 6.1: eps = 1e-3 m). */
#define DST_DEFAULT_MCD_EPS 1e-3

/* Default golden-section bracket width tau, seconds (thesis sec. III.B). */
#define DST_DEFAULT_GSS_TAU 1e-3

/* Default iteration cap of conservative advancement (thesis sec. VI.A.3 used 500). */
#define DST_DEFAULT_CA_MAX_ITER 500

/* Ellipsoid closest approach (seed 001): default stopping tolerance of eq. (12) on
 * |u_{i+1} - u_i| (dimensionless; the paper's 1e-8), iteration cap (the paper's 100)
 * and initial u (sec. 2.3: exact for two equal spheres). */
#define DST_ELLIPSOID_DEFAULT_EPS 1e-8
#define DST_ELLIPSOID_DEFAULT_MAX_ITER 100
#define DST_ELLIPSOID_DEFAULT_U0 0.5

/* Rounding allowance, in units of DBL_EPSILON, of each term of the ellipsoid distance
 * d = (h1 + h2) / (N . n) (docs/math/ellipsoid.md eq. 31): every term carries at most a
 * handful of roundings (G, the products, the square roots); 16 covers them with room, so
 * that d stays an upper bound of the exact distance and the reported gap a lower bound. */
#define DST_ELLIPSOID_ROUND_ULPS 16.0

/* Refinement of the ellipsoid contact (docs/math/ellipsoid.md eq. 33): when the contact
 * points of the two ellipsoids differ by more than this fraction of the smallest
 * semi-axis (only for very elongated pairs, where the root u of eq. 10 is
 * ill-conditioned), up to DST_ELLIPSOID_REFINE_STEPS Newton steps on the support function
 * refine the normal; each step must lower d. */
#define DST_ELLIPSOID_REFINE_TOL 1e-10
#define DST_ELLIPSOID_REFINE_STEPS 3

/* Largest accepted deviation |R^T R - I| (entrywise, dimensionless) of a rotation
 * matrix given through the API: a few thousand ulps, enough for products of many
 * rotations, small enough to reject matrices that are not rotations at all. */
#define DST_ROTATION_ORTHO_TOL 1e-9

#endif /* DST_TOLERANCE_H */
