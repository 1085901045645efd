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


/* ---- convex shapes, GJK, EPA, hulls (distance/dst_convex.h) ---- */

/* Rotation check: |R R^T - I| entries and |det R - 1| must be below this (dimensionless);
 * looser than rounding of a composed pose chain, tight enough to catch a scaled matrix. */
#define DST_CONVEX_ORTHO_TOL 1e-9

/* Supported range of lengths, metres: coordinates, sizes and support points beyond
 * DST_CONVEX_MAX_COORD, or a problem whose whole extent is below DST_CONVEX_MIN_SCALE (but
 * not zero), are rejected as invalid input: squares and triple products of such numbers
 * overflow or underflow a double (1e100^3 and 1e-100^3 are still representable). */
#define DST_CONVEX_MAX_COORD 1e100
#define DST_CONVEX_MIN_SCALE 1e-100

/* GJK iteration cap: a polytope pair converges in far fewer; curved cores converge
 * linearly and stop on the tolerance well before it. */
#define DST_GJK_DEFAULT_MAX_ITER 128

/* GJK stops when the support gap (upper - lower bound of the distance) is below
 * rel_tol * distance + abs_tol * scale (scale = radius of the Minkowski difference seen). */
#define DST_GJK_DEFAULT_REL_TOL 1e-10
#define DST_GJK_DEFAULT_ABS_TOL 1e-13

/* Cores overlap when the closest vector is shorter than this times the scale: at that size
 * the closest point is below the rounding noise of the supports (dimensionless). */
#define DST_GJK_OVERLAP_REL 1e-13

/* A sub-simplex is degenerate (zero length / area / volume) below this relative size:
 * length < rel * L, area < rel * L^2, volume < rel * L^3 with L the simplex extent. */
#define DST_GJK_DEGENERATE_REL 1e-12

/* Signed distances within this times the scale of zero are reported as touching. */
#define DST_CONVEX_TOUCH_REL 1e-9

/* EPA caps: polytope vertices and faces live in a fixed workspace on the stack. */
#define DST_EPA_MAX_VERTS 128
#define DST_EPA_MAX_FACES (2 * DST_EPA_MAX_VERTS)
#define DST_EPA_DEFAULT_MAX_ITER 120

/* EPA stops when depth_upper - depth_lower <= rel_tol * depth + abs_tol * scale. Polytope
 * cores reach it exactly; curved cores (ellipsoids) approach it at rate ~ edge^2. */
#define DST_EPA_DEFAULT_REL_TOL 1e-9
#define DST_EPA_DEFAULT_ABS_TOL 1e-12

/* EPA: a support point within this times the scale of a face plane is on it (not visible
 * from it); far above the rounding of n . w, far below any depth of interest. */
#define DST_EPA_PLANE_REL 1e-12

/* Hull: points within this times the bounding-box diagonal of a face plane are on it. */
#define DST_HULL_REL_TOL 1e-10

/* Hull: cube-map resolution of the support start table (6 * res^2 cells); at 8 the
 * hill-climb from the table starts one or two steps from the answer on ~100-vertex hulls. */
#define DST_HULL_DIR_RES 8

/* Hull: when rounding on nearly coplanar faces breaks convexity at the requested tolerance,
 * the hull is rebuilt with 100 times larger tolerances up to this one (relative to the
 * bounding-box diagonal); beyond it the build fails. */
#define DST_HULL_MAX_REL_TOL 1e-6

#endif /* DST_TOLERANCE_H */
