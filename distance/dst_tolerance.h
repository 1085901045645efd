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

/* ---- capsule distance and capsule MCD (issue 3) ---- */

/* Relative widening that keeps a computed bound rigorous in floating point,
 * dimensionless: a value computed with at most ~60 roundings (Horner of degree <= 7,
 * de Casteljau, dot products, the segment kernel) from inputs of magnitude M is within
 * DST_ROUND_REL * M of the exact value. 128 unit roundoffs: generous on purpose. */
#define DST_ROUND_REL (128.0 * 2.220446049250313e-16)

/* Two segments are handled as parallel when sin^2 of their angle is below this,
 * i.e. |dA x dB|^2 <= DST_PARALLEL_SIN2 |dA|^2 |dB|^2; the closest points are then
 * taken at the middle of the overlap (stable witness, DESIGN sec. 6), which is off the
 * true distance by at most sin(angle) * length = 1e-10 * length. */
#define DST_PARALLEL_SIN2 1e-20

/* Absolute part of the touching band of the static capsule distance, metres; the
 * relative part is DST_ROUND_REL times the coordinate magnitude. */
#define DST_TOUCH_ABS 1e-12

/* Conservative advancement (Algorithm 3.1): the advancement toward the level d2 counts
 * as having reached it once the certified distance is within this fraction of the
 * current range width d1 - d0 above d2 (avoids the Zeno tail of CA; dimensionless). */
#define DST_CA_REACH_FRACTION 0.25

/* Hybrid: the advancement toward upper - eps counts as having reached it once the
 * certified distance is within this fraction of eps above the target (dimensionless). */
#define DST_HYBRID_REACH_FRACTION 0.25

/* Hybrid: its golden-section search also stops once both bracket ends lie within this
 * fraction of eps above the middle value (the certificate comes from the advancement;
 * dimensionless). */
#define DST_HYBRID_GSS_FLAT_FRACTION 0.25

/* Certified sampling (eq. 6.3): the sample count n makes (t1 - t0) mu / n equal to this
 * fraction of eps, leaving the rest for rounding (dimensionless). */
#define DST_SAMPLING_EPS_FRACTION 0.99

/* Default cap on the number of samples of certified sampling. */
#define DST_DEFAULT_SAMPLING_MAX 1000000

/* Rotation matrices given to the rigid-pose helper must satisfy |R R^T - I| <= this
 * (max abs entry) and det R > 0 (dimensionless). */
#define DST_ROTATION_TOL 1e-9

#endif /* DST_TOLERANCE_H */
