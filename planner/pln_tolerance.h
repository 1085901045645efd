/* pln_tolerance.h — numerical tolerances of planner/, each with its unit and reason.
 *
 * Local tolerances inside planner/ are derived from these; no bare literal thresholds
 * appear in the algorithms. User-facing tolerances are options whose defaults are
 * defined next to the option structs. */
#ifndef PLN_TOLERANCE_H
#define PLN_TOLERANCE_H

/* Relative slack, in units of the trajectory duration T, by which a time may fall
 * outside [0, T] and still be accepted (and clamped) by the B-spline evaluators:
 * covers rounding in callers that compute t = t0 + s * (t1 - t0). Dimensionless. */
#define PLN_BSPLINE_TIME_SLOP 1e-12

/* Relative outward widening of B-spline bounds computed in floating point (derivative
 * control points k (P_{i+1} - P_i) / dt carry a few roundings): a multiple of the
 * double-precision unit roundoff, dimensionless. */
#define PLN_BSPLINE_BOUND_WIDEN 1e-14

#endif /* PLN_TOLERANCE_H */
