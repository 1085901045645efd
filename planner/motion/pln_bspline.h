/* pln_bspline.h — clamped uniform B-spline joint trajectories.
 *
 * A trajectory over [0, T] seconds is one scalar B-spline per joint; all joints share
 * one knot vector. The spline has degree k (1 <= k <= PLN_BSPLINE_MAX_DEGREE, default
 * 5) and n_ctrl >= k + 1 control points per joint. The knot vector is clamped (the
 * first and last k + 1 knots are 0 and T) with uniform interior knots:
 *
 *   t_0 = ... = t_k = 0,  t_{k+m} = m T / S (m = 0..S),  t_{n_ctrl} = ... = t_{n_ctrl+k} = T,
 *
 * with S = n_ctrl - k knot spans. Span s (0 <= s < S) is the time interval
 * [t_{s+k}, t_{s+k+1}]; on it only the k + 1 control points P_s .. P_{s+k} act. The
 * spline is q(t) = sum_j N_{j,k}(t) P_j (docs/math/bspline.md eq. 1-4), C^{k-1}
 * everywhere, and interpolates P_0 at t = 0 and P_{n_ctrl-1} at t = T.
 *
 * Control points of a joint are a caller-owned array ctrl[n_ctrl] (radians); several
 * joints are stored joint-major, ctrl[j * n_ctrl + i]. The PlnBspline object holds only
 * the knot vector: it is immutable after creation and may be shared between threads.
 * Every evaluator is allocation-free and works on fixed-size stack arrays. Times are
 * seconds; a time outside [0, T] by more than PLN_BSPLINE_TIME_SLOP * T, or NaN, is
 * rejected with PLN_ERR_INVALID; a time within the slop is clamped into [0, T]. */
#ifndef PLN_BSPLINE_H
#define PLN_BSPLINE_H

#include <stddef.h>

#include "base/pln_status.h"

/* Highest supported degree (matches distance/'s DST_MAX_DEGREE). */
#define PLN_BSPLINE_MAX_DEGREE 7
/* Default degree (thesis ch. VI uses quintic splines). */
#define PLN_BSPLINE_DEFAULT_DEGREE 5
/* Number of non-zero basis functions at a time: k + 1 <= this. */
#define PLN_BSPLINE_MAX_ORDER (PLN_BSPLINE_MAX_DEGREE + 1)
/* Highest derivative order the evaluators return (q, q', q'', q'''). */
#define PLN_BSPLINE_MAX_DERIV 3

/* The shared knot vector of a trajectory. Created by pln_bspline_create(), freed by
 * pln_bspline_destroy(); read-only to everyone else. Never copy it by value: the knots
 * are a flexible array member and inv_diff points into the same allocation. */
typedef struct PlnBspline {
    int degree;        /* k */
    int n_ctrl;        /* control points per joint, >= k + 1 */
    int n_spans;       /* S = n_ctrl - k */
    int n_knots;       /* n_ctrl + k + 1 */
    double duration;   /* T, seconds, > 0 and finite */
    const double *inv_diff; /* inv_diff[(d - 1) * n_knots + j] = 1 / (t_{j+d} - t_j) for
                               d = 1..k+1 and j + d < n_knots, 0 where the knots coincide
                               (1/s); points into the same allocation */
    double knots[];    /* t_0 .. t_{n_knots-1}, seconds, non-decreasing; followed in
                          memory by the inv_diff table */
} PlnBspline;

/* Integrand of the smoothness cost (eq. 9). */
typedef enum PlnBsplineCostOrder {
    PLN_BSPLINE_COST_ACCEL = 2,   /* integral of q''(t)^2 */
    PLN_BSPLINE_COST_JERK = 3     /* integral of q'''(t)^2 */
} PlnBsplineCostOrder;

/* Creates the clamped uniform knot vector of degree `degree` with `n_ctrl` control
 * points per joint over [0, duration] seconds, into *out (owned by the caller, free with
 * pln_bspline_destroy). Errors: PLN_ERR_INVALID (degree outside 1..MAX_DEGREE, n_ctrl <
 * degree + 1, duration not finite or <= 0), PLN_ERR_NOMEM; *out is then NULL and err
 * (nullable when err_size is 0) names the offending argument. */
PlnStatus pln_bspline_create(PlnBspline **out, int degree, int n_ctrl, double duration,
                             char *err, size_t err_size);

/* Frees a knot vector. Nullable: bs. */
void pln_bspline_destroy(PlnBspline *bs);

/* Span s containing time t (seconds): t_{s+k} <= t < t_{s+k+1}, and the last span for
 * t = T. Times are clamped into [0, T] first; NaN gives span 0 (validate separately). */
int pln_bspline_find_span(const PlnBspline *bs, double t);

/* Time interval [*t0, *t1] (seconds) of span s, 0 <= s < n_spans. Returns
 * PLN_ERR_INVALID for a span out of range (outputs untouched). */
PlnStatus pln_bspline_span_interval(const PlnBspline *bs, int span, double *t0, double *t1);

/* Non-zero basis functions of time t and their time derivatives (eq. 2-4):
 * N[r * (k + 1) + m] = d^r/dt^r N_{first+m,k}(t) for r = 0..n_deriv, m = 0..k, with
 * *first = span index of t (the first control point that acts at t). Derivative orders
 * above k are zero. Units: N is dimensionless, its r-th derivative 1/s^r.
 * Shapes: N[(n_deriv + 1) * (k + 1)], 0 <= n_deriv <= PLN_BSPLINE_MAX_DERIV.
 * Returns PLN_ERR_INVALID for a bad t or n_deriv (outputs untouched). */
PlnStatus pln_bspline_basis(const PlnBspline *bs, double t, int n_deriv, double *N,
                            int *first);

/* Value and derivatives of one joint at time t: out[r] = q^{(r)}(t), r = 0..n_deriv
 * (rad, rad/s, rad/s^2, rad/s^3). ctrl[n_ctrl]. Returns PLN_ERR_INVALID for a bad t or
 * n_deriv (out untouched). */
PlnStatus pln_bspline_eval(const PlnBspline *bs, const double *ctrl, double t, int n_deriv,
                           double *out);

/* The same for n_joints joints sharing the knot vector, basis computed once:
 * ctrl[n_joints * n_ctrl] joint-major, out[r * n_joints + j] = q_j^{(r)}(t),
 * out[(n_deriv + 1) * n_joints]. */
PlnStatus pln_bspline_eval_joints(const PlnBspline *bs, const double *ctrl, int n_joints,
                                  double t, int n_deriv, double *out);

/* Linear map from the k + 1 control points of span s to the monomial coefficients of q
 * on that span in the local parameter u = (t - t0) / (t1 - t0) in [0, 1] (eq. 5-6):
 *   q(t0 + u h) = sum_{m=0..k} c_m u^m,  c_m = sum_{l=0..k} M[m * (k + 1) + l] P_{first+l}.
 * M[(k + 1) * (k + 1)], *first = s. The coefficients of q' in u follow as m c_m / h.
 * Returns PLN_ERR_INVALID for a span out of range. */
PlnStatus pln_bspline_span_matrix(const PlnBspline *bs, int span, double *M, int *first);

/* Monomial coefficients c[k + 1] (rad) of one joint on span s in u = (t - t0) / h, i.e.
 * M applied to ctrl (eq. 6). ctrl[n_ctrl]. Returns PLN_ERR_INVALID for a span out of
 * range. */
PlnStatus pln_bspline_span_poly(const PlnBspline *bs, const double *ctrl, int span,
                                double *c);

/* Control points of q' (eq. 7): a B-spline of degree k - 1 on the knots t_1 .. t_{n+k-1}
 * with vel[i] = k (P_{i+1} - P_i) / (t_{i+k+1} - t_{i+1}), i = 0..n_ctrl - 2 (rad/s).
 * The factor k / (t_{i+k+1} - t_{i+1}) alone is pln_bspline_velocity_scale(bs, i), so a
 * planner can write linear velocity constraints on P. */
void pln_bspline_velocity_ctrl(const PlnBspline *bs, const double *ctrl, double *vel);
double pln_bspline_velocity_scale(const PlnBspline *bs, int i);

/* Rigorous bounds over span s by the convex-hull property (eq. 8): for every t in the
 * span, q_lo <= q(t) <= q_hi (rad) and qd_lo <= q'(t) <= qd_hi (rad/s), the velocity
 * bound widened outward by PLN_BSPLINE_BOUND_WIDEN for the rounding of eq. 7.
 * Nullable: q_bounds, qd_bounds (each double[2] = {lo, hi}).
 * Returns PLN_ERR_INVALID for a span out of range. */
PlnStatus pln_bspline_span_bounds(const PlnBspline *bs, const double *ctrl, int span,
                                  double *q_bounds, double *qd_bounds);

/* Smoothness cost matrix (eq. 9-10): H[a * n_ctrl + b] = integral_0^T N_a^{(r)}(t)
 * N_b^{(r)}(t) dt with r = order, so that integral (q^{(r)})^2 dt = P^T H P exactly
 * (Gauss-Legendre with k - r + 1 nodes per span, exact for the degree 2 (k - r)
 * integrand). H[n_ctrl * n_ctrl], symmetric, banded (|a - b| <= k), units 1/s^(2r-1).
 * Returns PLN_ERR_INVALID for an order other than ACCEL or JERK, or order > degree. */
PlnStatus pln_bspline_cost_matrix(const PlnBspline *bs, PlnBsplineCostOrder order,
                                  double *H);

/* Cost sum_j P_j^T H P_j over n_joints joints (ctrl joint-major, ctrl[n_joints * n_ctrl])
 * and its gradient grad[n_joints * n_ctrl] = 2 H P_j (nullable: grad). H from
 * pln_bspline_cost_matrix. Units rad^2 / s^(2r-1). */
double pln_bspline_cost(const PlnBspline *bs, const double *H, const double *ctrl,
                        int n_joints, double *grad);

#endif /* PLN_BSPLINE_H */
