/* pln_tolerance.h — every numerical tolerance of planner/, with its unit and reason.
 *
 * Local tolerances inside planner/ are derived from these; no bare literal thresholds
 * appear in the algorithms. Tolerances of distance/ live in distance/dst_tolerance.h. */
#ifndef PLN_TOLERANCE_H
#define PLN_TOLERANCE_H

#include <float.h>

/* ---- Taylor models (planner/pln_taylor.c, docs/math/taylor_models.md section 4) ---- */

/* Relative widening of Taylor-model remainders for floating-point rounding
 * (dimensionless). Every operation sums at most ~20 rounded terms per result, whose
 * error is at most gamma_20 = 20u/(1-20u) ~ 10 DBL_EPSILON times the sum of the
 * magnitudes involved (u = DBL_EPSILON/2); 64 DBL_EPSILON leaves a factor >= 6 of
 * margin, and still only costs ~1.4e-14 of the magnitudes (1e-14 m on a 1 m robot). */
#define PLN_TM_ROUND_REL (64.0 * DBL_EPSILON)

/* Absolute widening added with PLN_TM_ROUND_REL (units of the quantity): covers
 * underflow to subnormals, where relative error bounds fail (each underflowing
 * operation errs by at most 2^-1075 ~ 2.5e-324; this covers 1e16 of them). */
#define PLN_TM_ROUND_ABS 1e-290

/* Error of the C library's sin() and cos() on the constant part of a Taylor model,
 * absolute (|sin|, |cos| <= 1). glibc documents < 1 ulp for both; four DBL_EPSILON
 * is a generous bound that stays rigorous on other conforming libraries with
 * errors of a few ulps. */
#define PLN_TM_LIBM_SINCOS_ERR (4.0 * DBL_EPSILON)

/* ---- kinematics (planner/pln_kin.c) ---- */

/* Largest accepted deviation of a joint axis from unit length, |1 - |axis||
 * (dimensionless). A model loaded from YAML with 6-7 printed digits stays within it;
 * the kinematics renormalise nothing, so a bigger error would skew every pose. */
#define PLN_KIN_AXIS_UNIT_TOL 1e-6

/* Largest accepted deviation of a model rotation matrix from orthonormality,
 * max |R R^T - I| entry (dimensionless); same reasoning as PLN_KIN_AXIS_UNIT_TOL. */
#define PLN_KIN_ROT_ORTHO_TOL 1e-6

#endif /* PLN_TOLERANCE_H */
