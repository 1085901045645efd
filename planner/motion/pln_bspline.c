/* pln_bspline.c — clamped uniform B-splines: knots, basis functions and derivatives,
 * span polynomials, convex-hull bounds, smoothness cost. Equation numbers refer to
 * docs/math/bspline.md. */
#include "motion/pln_bspline.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/pln_tolerance.h"

#define ORDER_MAX PLN_BSPLINE_MAX_ORDER

/* Knot vector of eq. (1): clamped ends, uniform interior knots. */
PlnStatus pln_bspline_create(PlnBspline **out, int degree, int n_ctrl, double duration,
                             char *err, size_t err_size)
{
    PlnBspline *bs;
    int n_knots;

    if (out == NULL) return pln_errorf(PLN_ERR_INVALID, err, err_size, "bspline: out is NULL");
    *out = NULL;
    if (degree < 1 || degree > PLN_BSPLINE_MAX_DEGREE)
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "bspline: degree %d outside 1..%d", degree, PLN_BSPLINE_MAX_DEGREE);
    if (n_ctrl < degree + 1)
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "bspline: n_ctrl %d < degree + 1 = %d", n_ctrl, degree + 1);
    if (!isfinite(duration) || !(duration > 0.0))
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "bspline: duration %g is not a finite positive number of seconds",
                          duration);
    n_knots = n_ctrl + degree + 1;
    bs = malloc(sizeof *bs + (size_t)n_knots * (size_t)(degree + 2) * sizeof(double));
    if (bs == NULL) return pln_errorf(PLN_ERR_NOMEM, err, err_size, "bspline: out of memory");
    bs->degree = degree;
    bs->n_ctrl = n_ctrl;
    bs->n_spans = n_ctrl - degree;
    bs->n_knots = n_knots;
    bs->duration = duration;
    /* clamped ends: k + 1 equal knots at 0 and at T */
    for (int i = 0; i <= degree; ++i) {
        bs->knots[i] = 0.0;
        bs->knots[n_knots - 1 - i] = duration;
    }
    /* uniform interior knots t_{k+m} = m T / S, the last one exactly T */
    for (int m = 1; m < bs->n_spans; ++m)
        bs->knots[degree + m] = duration * (double)m / (double)bs->n_spans;
    /* reciprocal knot differences, so that the evaluators multiply instead of divide */
    {
        double *inv = bs->knots + n_knots;
        for (int d = 1; d <= degree + 1; ++d)
            for (int j = 0; j < n_knots; ++j) {
                const double diff = j + d < n_knots ? bs->knots[j + d] - bs->knots[j] : 0.0;
                inv[(d - 1) * n_knots + j] = diff > 0.0 ? 1.0 / diff : 0.0;
            }
        bs->inv_diff = inv;
    }
    *out = bs;
    return PLN_OK;
}

void pln_bspline_destroy(PlnBspline *bs)
{
    free(bs);
}

/* Span lookup for the uniform knots of eq. (1), corrected against the stored knots. */
int pln_bspline_find_span(const PlnBspline *bs, double t)
{
    const int k = bs->degree, S = bs->n_spans;
    int s;
    /* clamp into [0, T]; NaN falls to span 0 */
    if (!(t > 0.0)) return 0;
    if (t >= bs->duration) return S - 1;
    s = (int)(t / bs->duration * (double)S);
    if (s > S - 1) s = S - 1;
    if (s < 0) s = 0;
    /* the division may be off by one ulp near a knot: settle it on the stored knots */
    while (s > 0 && t < bs->knots[s + k]) --s;
    while (s < S - 1 && t >= bs->knots[s + k + 1]) ++s;
    return s;
}

PlnStatus pln_bspline_span_interval(const PlnBspline *bs, int span, double *t0, double *t1)
{
    if (span < 0 || span >= bs->n_spans) return PLN_ERR_INVALID;
    *t0 = bs->knots[span + bs->degree];
    *t1 = bs->knots[span + bs->degree + 1];
    return PLN_OK;
}

/* accepts t within the slop of [0, T] and clamps it; rejects NaN and far-away times. */
static int check_time(const PlnBspline *bs, double *t)
{
    const double slop = PLN_BSPLINE_TIME_SLOP * bs->duration;
    if (!isfinite(*t) || *t < -slop || *t > bs->duration + slop) return 0;
    if (*t < 0.0) *t = 0.0;
    if (*t > bs->duration) *t = bs->duration;
    return 1;
}

/* Cox-de Boor recursion, eq. (2), in place: on entry w[0..p-1] = N_{i-p+1+q,p-1}(t), on
 * exit w[0..p] = N_{i-p+m,p}(t), for the span with knot index i (t_i <= t <= t_{i+1}).
 * With alpha_j = (t - t_j) / (t_{j+p} - t_j) the recursion reads
 * N_{j,p} = alpha_j N_{j,p-1} + (1 - alpha_{j+1}) N_{j+1,p-1} (eq. 2b): each old value
 * N_{j',p-1} gives (1 - alpha_j') of itself to N_{j'-1,p} and alpha_j' to N_{j',p}.
 * Denominators are positive for every term that is present (each supporting interval
 * contains [t_i, t_{i+1}]); their reciprocals come from bs->inv_diff. */
static void basis_degree_up(const PlnBspline *bs, int i, int p, double t, double *w)
{
    const int j0 = i - p + 1;
    const double *kn = bs->knots + j0;
    const double *inv = bs->inv_diff + (size_t)(p - 1) * (size_t)bs->n_knots + j0;
    double carry = 0.0;
    for (int q = 0; q < p; ++q) {
        const double a = (t - kn[q]) * inv[q] * w[q];
        w[q] = carry + (w[q] - a);
        carry = a;
    }
    w[p] = carry;
}

/* Derivative raise, eq. (3): from v[m] = N^{(r)}_{i-p+m,p}(t), m = 0..p, to
 * out[m] = N^{(r+1)}_{i-p-1+m,p+1}(t), m = 0..p+1. */
static void raise_derivative(const PlnBspline *bs, int i, int p, const double *v, double *out)
{
    /* inv[j] = 1 / (t_{j+p+1} - t_j) */
    const double *inv = bs->inv_diff + (size_t)p * (size_t)bs->n_knots + (i - p - 1);
    const double f = (double)(p + 1);
    double prev = 0.0;
    /* out[m] = (p+1) (v[m-1] inv[m] - v[m] inv[m+1]), v[-1] = v[p+1] = 0 */
    for (int m = 0; m <= p; ++m) {
        const double cur = v[m] * inv[m + 1];
        out[m] = f * (prev - cur);
        prev = cur;
    }
    out[p + 1] = f * prev;
}

/* Basis functions of degree k and derivatives 0..n_deriv at t on knot span i, eq. (2)-(4):
 * N[r * (k + 1) + m] = N^{(r)}_{i-k+m,k}(t). */
static void basis_derivs(const PlnBspline *bs, int i, double t, int n_deriv, double *N)
{
    const int k = bs->degree;
    double w[ORDER_MAX];
    /* low[r][m] = N_{i-k+r+m,k-r}(t): the lower-degree values the derivatives start from */
    double low[PLN_BSPLINE_MAX_DERIV + 1][ORDER_MAX];

    w[0] = 1.0;
    if (k <= n_deriv) low[k][0] = 1.0;
    for (int p = 1; p <= k; ++p) {
        basis_degree_up(bs, i, p, t, w);
        if (p < k && k - p <= n_deriv)
            for (int m = 0; m <= p; ++m) low[k - p][m] = w[m];
    }
    for (int m = 0; m <= k; ++m) N[m] = w[m];
    for (int r = 1; r <= n_deriv; ++r) {
        double *row = N + r * (k + 1);
        if (r > k) {
            /* a polynomial of degree k has no derivative of order > k */
            for (int m = 0; m <= k; ++m) row[m] = 0.0;
            continue;
        }
        /* start from the degree k - r values and raise r times to degree k */
        {
            double buf[2][ORDER_MAX];
            const double *src = low[r];
            for (int p = k - r; p < k; ++p) {
                double *dst = p + 1 == k ? row : buf[p & 1];
                raise_derivative(bs, i, p, src, dst);
                src = dst;
            }
        }
    }
}

/* Basis weights of a time t, eq. (2)-(4). */
PlnStatus pln_bspline_basis(const PlnBspline *bs, double t, int n_deriv, double *N,
                            int *first)
{
    int s;
    if (n_deriv < 0 || n_deriv > PLN_BSPLINE_MAX_DERIV || !check_time(bs, &t))
        return PLN_ERR_INVALID;
    s = pln_bspline_find_span(bs, t);
    basis_derivs(bs, s + bs->degree, t, n_deriv, N);
    *first = s;
    return PLN_OK;
}

/* q^{(r)}(t) = sum_j N^{(r)}_j(t) P_j, eq. (4). */
PlnStatus pln_bspline_eval(const PlnBspline *bs, const double *ctrl, double t, int n_deriv,
                           double *out)
{
    return pln_bspline_eval_joints(bs, ctrl, 1, t, n_deriv, out);
}

/* eq. (4) for several joints sharing the basis. */
PlnStatus pln_bspline_eval_joints(const PlnBspline *bs, const double *ctrl, int n_joints,
                                  double t, int n_deriv, double *out)
{
    double N[(PLN_BSPLINE_MAX_DERIV + 1) * ORDER_MAX];
    const int k = bs->degree, n = bs->n_ctrl;
    int first;
    PlnStatus st;

    if (n_joints < 0) return PLN_ERR_INVALID;
    st = pln_bspline_basis(bs, t, n_deriv, N, &first);
    if (st != PLN_OK) return st;
    for (int j = 0; j < n_joints; ++j) {
        const double *P = ctrl + (size_t)j * (size_t)n + (size_t)first;
        double acc[PLN_BSPLINE_MAX_DERIV + 1] = {0.0, 0.0, 0.0, 0.0};
        /* one pass over the k + 1 control points feeds every derivative order */
        for (int m = 0; m <= k; ++m) {
            const double pm = P[m];
            for (int r = 0; r <= n_deriv; ++r) acc[r] += N[r * (k + 1) + m] * pm;
        }
        for (int r = 0; r <= n_deriv; ++r) out[r * n_joints + j] = acc[r];
    }
    return PLN_OK;
}

/* Span polynomial, eq. (5)-(6): the Cox-de Boor recursion carried out on polynomials in
 * the local parameter u, with t = t_i + h u, so that each basis function restricted to
 * the span comes out as monomial coefficients. */
PlnStatus pln_bspline_span_matrix(const PlnBspline *bs, int span, double *M, int *first)
{
    /* poly[p][m][e]: coefficient of u^e of N_{i-p+m,p} on the span */
    double poly[ORDER_MAX][ORDER_MAX][ORDER_MAX];
    const int k = bs->degree;
    const double *kn = bs->knots;
    int i;
    double ti, h;

    if (span < 0 || span >= bs->n_spans) return PLN_ERR_INVALID;
    i = span + k;
    ti = kn[i];
    h = kn[i + 1] - ti;
    memset(poly, 0, sizeof poly);
    poly[0][0][0] = 1.0;
    for (int p = 1; p <= k; ++p) {
        for (int m = 0; m <= p; ++m) {
            const int j = i - p + m;
            double *dst = poly[p][m];
            if (m >= 1) {
                /* ((t_i - t_j) + h u) / (t_{j+p} - t_j) times N_{j,p-1} */
                const double den = kn[j + p] - kn[j];
                const double a0 = (ti - kn[j]) / den, a1 = h / den;
                const double *src = poly[p - 1][m - 1];
                for (int e = 0; e < p; ++e) {
                    dst[e] += a0 * src[e];
                    dst[e + 1] += a1 * src[e];
                }
            }
            if (m <= p - 1) {
                /* ((t_{j+p+1} - t_i) - h u) / (t_{j+p+1} - t_{j+1}) times N_{j+1,p-1} */
                const double den = kn[j + p + 1] - kn[j + 1];
                const double b0 = (kn[j + p + 1] - ti) / den, b1 = -h / den;
                const double *src = poly[p - 1][m];
                for (int e = 0; e < p; ++e) {
                    dst[e] += b0 * src[e];
                    dst[e + 1] += b1 * src[e];
                }
            }
        }
    }
    /* M[e][l] = coefficient of u^e in N_{span+l,k} */
    for (int e = 0; e <= k; ++e)
        for (int l = 0; l <= k; ++l) M[e * (k + 1) + l] = poly[k][l][e];
    *first = span;
    return PLN_OK;
}

/* eq. (6): c = M P. */
PlnStatus pln_bspline_span_poly(const PlnBspline *bs, const double *ctrl, int span,
                                double *c)
{
    double M[ORDER_MAX * ORDER_MAX];
    const int k = bs->degree;
    int first;
    PlnStatus st = pln_bspline_span_matrix(bs, span, M, &first);
    if (st != PLN_OK) return st;
    for (int e = 0; e <= k; ++e) {
        double acc = 0.0;
        for (int l = 0; l <= k; ++l) acc += M[e * (k + 1) + l] * ctrl[first + l];
        c[e] = acc;
    }
    return PLN_OK;
}

/* Derivative control points, eq. (7). */
double pln_bspline_velocity_scale(const PlnBspline *bs, int i)
{
    const int k = bs->degree;
    return (double)k / (bs->knots[i + k + 1] - bs->knots[i + 1]);
}

void pln_bspline_velocity_ctrl(const PlnBspline *bs, const double *ctrl, double *vel)
{
    for (int i = 0; i + 1 < bs->n_ctrl; ++i)
        vel[i] = pln_bspline_velocity_scale(bs, i) * (ctrl[i + 1] - ctrl[i]);
}

/* Convex-hull bounds over a span, eq. (8). */
PlnStatus pln_bspline_span_bounds(const PlnBspline *bs, const double *ctrl, int span,
                                  double *q_bounds, double *qd_bounds)
{
    const int k = bs->degree;
    if (span < 0 || span >= bs->n_spans) return PLN_ERR_INVALID;
    if (q_bounds != NULL) {
        /* q is a convex combination of P_span .. P_span+k: min/max are exact */
        double lo = ctrl[span], hi = ctrl[span];
        for (int l = 1; l <= k; ++l) {
            lo = fmin(lo, ctrl[span + l]);
            hi = fmax(hi, ctrl[span + l]);
        }
        q_bounds[0] = lo;
        q_bounds[1] = hi;
    }
    if (qd_bounds != NULL) {
        /* q' is a convex combination of Q_span .. Q_span+k-1 (degree k - 1 spline) */
        double lo = INFINITY, hi = -INFINITY;
        for (int l = 0; l < k; ++l) {
            const int i = span + l;
            const double Q = pln_bspline_velocity_scale(bs, i) * (ctrl[i + 1] - ctrl[i]);
            lo = fmin(lo, Q);
            hi = fmax(hi, Q);
        }
        /* the computed Q carry three roundings: widen outward */
        qd_bounds[0] = lo - PLN_BSPLINE_BOUND_WIDEN * fabs(lo);
        qd_bounds[1] = hi + PLN_BSPLINE_BOUND_WIDEN * fabs(hi);
    }
    return PLN_OK;
}

/* Gauss-Legendre nodes and weights on [-1, 1] by Newton's method on the Legendre
 * polynomial P_n (three-term recurrence), eq. (11). n <= ORDER_MAX. */
static void gauss_legendre(int n, double *x, double *w)
{
    const double pi = 3.14159265358979323846;
    for (int i = 0; i < n; ++i) {
        double z = cos(pi * ((double)i + 0.75) / ((double)n + 0.5));
        double dp = 1.0;
        for (int it = 0; it < 100; ++it) {
            double p0 = 1.0, p1 = z, dz;
            /* P_n(z) by the recurrence (m+1) P_{m+1} = (2m+1) z P_m - m P_{m-1} */
            for (int m = 1; m < n; ++m) {
                const double p2 = ((2.0 * m + 1.0) * z * p1 - (double)m * p0) / (m + 1.0);
                p0 = p1;
                p1 = p2;
            }
            /* P_n'(z) = n (z P_n - P_{n-1}) / (z^2 - 1) */
            dp = (double)n * (z * p1 - p0) / (z * z - 1.0);
            dz = p1 / dp;
            z -= dz;
            if (fabs(dz) <= 4.0 * DBL_EPSILON) break;
        }
        x[i] = z;
        w[i] = 2.0 / ((1.0 - z * z) * dp * dp);
    }
}

/* Smoothness cost matrix, eq. (9)-(11). */
PlnStatus pln_bspline_cost_matrix(const PlnBspline *bs, PlnBsplineCostOrder order,
                                  double *H)
{
    double N[(PLN_BSPLINE_MAX_DERIV + 1) * ORDER_MAX];
    double gx[ORDER_MAX], gw[ORDER_MAX];
    const int k = bs->degree, n = bs->n_ctrl;
    const int r = (int)order;
    int nq;

    if ((order != PLN_BSPLINE_COST_ACCEL && order != PLN_BSPLINE_COST_JERK) || r > k)
        return PLN_ERR_INVALID;
    /* the integrand has degree 2 (k - r): nq nodes integrate degree 2 nq - 1 exactly */
    nq = k - r + 1;
    gauss_legendre(nq, gx, gw);
    memset(H, 0, (size_t)n * (size_t)n * sizeof(double));
    for (int s = 0; s < bs->n_spans; ++s) {
        const int i = s + k;
        const double t0 = bs->knots[i], h = bs->knots[i + 1] - t0;
        for (int q = 0; q < nq; ++q) {
            const double t = t0 + 0.5 * h * (1.0 + gx[q]);
            const double wq = 0.5 * h * gw[q];
            const double *d;
            basis_derivs(bs, i, t, r, N);
            d = N + r * (k + 1);
            /* rank-one update of the (k+1) x (k+1) block of control points s .. s+k */
            for (int a = 0; a <= k; ++a)
                for (int b = 0; b <= k; ++b)
                    H[(size_t)(s + a) * (size_t)n + (size_t)(s + b)] += wq * d[a] * d[b];
        }
    }
    return PLN_OK;
}

/* eq. (10): J = sum_j P_j^T H P_j, dJ/dP_j = 2 H P_j (H symmetric). */
double pln_bspline_cost(const PlnBspline *bs, const double *H, const double *ctrl,
                        int n_joints, double *grad)
{
    const int k = bs->degree, n = bs->n_ctrl;
    double total = 0.0;
    for (int j = 0; j < n_joints; ++j) {
        const double *P = ctrl + (size_t)j * (size_t)n;
        for (int a = 0; a < n; ++a) {
            /* H is banded: only |a - b| <= k are non-zero */
            const int b0 = a - k > 0 ? a - k : 0, b1 = a + k < n - 1 ? a + k : n - 1;
            double hp = 0.0;
            for (int b = b0; b <= b1; ++b) hp += H[(size_t)a * (size_t)n + (size_t)b] * P[b];
            total += P[a] * hp;
            if (grad != NULL) grad[(size_t)j * (size_t)n + (size_t)a] = 2.0 * hp;
        }
    }
    return total;
}
