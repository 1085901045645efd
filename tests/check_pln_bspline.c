/* check_pln_bspline.c — tests of planner/motion/pln_bspline.c against an independent reference:
 * the Cox-de Boor recursion written out recursively here, central finite differences
 * and dense numerical quadrature. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_rng.h"
#include "motion/pln_bspline.h"
#include "base/pln_tolerance.h"

/* tolerances of the assertions (relative to the magnitude of the compared values) */
#define TOL_EVAL 1e-12        /* basis-function evaluation vs the recursive reference */
#define TOL_FD 1e-6           /* analytic derivatives vs central differences */
#define TOL_SPAN_POLY 1e-11   /* span polynomial vs evaluation */
#define TOL_COST 1e-9         /* cost vs dense Simpson quadrature */
#define TOL_COST_GRAD 1e-6    /* cost gradient vs central differences */
#define EVAL_ULPS 64.0       /* rounding of an evaluation, in ulps of sum |N||P| */
#define TOL_EXACT 1e-13       /* identities that hold up to rounding (partition of unity) */

#define N_RANDOM_TIMES 2000
#define MAX_CTRL 40

/* reference: N_{j,p}(t) by the textbook recursion, half-open spans, t = T on the last
 * non-empty span. Independent of the library's table-based code. */
static double ref_basis(const double *kn, int n_knots, int j, int p, double t)
{
    if (p == 0) {
        const double T = kn[n_knots - 1];
        if (t == T) {
            /* the last non-empty span owns t = T */
            int last = n_knots - 2;
            while (last > 0 && kn[last] == kn[last + 1]) --last;
            return j == last ? 1.0 : 0.0;
        }
        return (kn[j] <= t && t < kn[j + 1]) ? 1.0 : 0.0;
    }
    double v = 0.0;
    if (kn[j + p] > kn[j]) v += (t - kn[j]) / (kn[j + p] - kn[j]) * ref_basis(kn, n_knots, j, p - 1, t);
    if (kn[j + p + 1] > kn[j + 1])
        v += (kn[j + p + 1] - t) / (kn[j + p + 1] - kn[j + 1]) * ref_basis(kn, n_knots, j + 1, p - 1, t);
    return v;
}

static double ref_eval(const PlnBspline *bs, const double *ctrl, double t)
{
    double q = 0.0;
    for (int j = 0; j < bs->n_ctrl; ++j)
        q += ref_basis(bs->knots, bs->n_knots, j, bs->degree, t) * ctrl[j];
    return q;
}

static PlnBspline *make(int degree, int n_ctrl, double T)
{
    PlnBspline *bs = NULL;
    char err[128];
    ck_assert_int_eq(pln_bspline_create(&bs, degree, n_ctrl, T, err, sizeof err), PLN_OK);
    ck_assert_ptr_nonnull(bs);
    return bs;
}

static void random_ctrl(Rng *r, double *ctrl, int n, double scale)
{
    for (int i = 0; i < n; ++i) ctrl[i] = rng_uniform(r, -scale, scale);
}

static double eval_r(const PlnBspline *bs, const double *ctrl, double t, int r)
{
    double out[PLN_BSPLINE_MAX_DERIV + 1];
    ck_assert_int_eq(pln_bspline_eval(bs, ctrl, t, r, out), PLN_OK);
    return out[r];
}

/* distance of t from the nearest knot */
static double knot_gap(const PlnBspline *bs, double t)
{
    double g = INFINITY;
    for (int i = 0; i < bs->n_knots; ++i) g = fmin(g, fabs(t - bs->knots[i]));
    return g;
}

/* ---------------------------------------------------------------- knots */

START_TEST(test_create_rejects_bad_arguments)
{
    PlnBspline *bs = (PlnBspline *)&bs;
    char err[128];
    ck_assert_int_eq(pln_bspline_create(&bs, 0, 10, 1.0, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_null(bs);
    ck_assert_ptr_nonnull(strstr(err, "degree"));
    ck_assert_int_eq(pln_bspline_create(&bs, PLN_BSPLINE_MAX_DEGREE + 1, 20, 1.0, err, sizeof err),
                     PLN_ERR_INVALID);
    ck_assert_int_eq(pln_bspline_create(&bs, 5, 5, 1.0, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "n_ctrl"));
    ck_assert_int_eq(pln_bspline_create(&bs, 5, 10, NAN, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "duration"));
    ck_assert_int_eq(pln_bspline_create(&bs, 5, 10, 0.0, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_int_eq(pln_bspline_create(&bs, 5, 10, -2.0, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_int_eq(pln_bspline_create(&bs, 5, 10, INFINITY, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_int_eq(pln_bspline_create(NULL, 5, 10, 1.0, NULL, 0), PLN_ERR_INVALID);
    ck_assert_ptr_null(bs);
    pln_bspline_destroy(NULL);
}
END_TEST

START_TEST(test_knot_vector_clamped_uniform)
{
    PlnBspline *bs = make(5, 12, 3.0);
    const int k = 5;
    ck_assert_int_eq(bs->n_knots, 12 + 5 + 1);
    ck_assert_int_eq(bs->n_spans, 7);
    for (int i = 0; i <= k; ++i) {
        ck_assert(bs->knots[i] == 0.0);
        ck_assert(bs->knots[bs->n_knots - 1 - i] == 3.0);
    }
    for (int s = 0; s < bs->n_spans; ++s) {
        double t0, t1;
        ck_assert_int_eq(pln_bspline_span_interval(bs, s, &t0, &t1), PLN_OK);
        ck_assert_double_eq_tol(t1 - t0, 3.0 / 7.0, TOL_EXACT);
    }
    for (int i = 0; i + 1 < bs->n_knots; ++i) ck_assert(bs->knots[i] <= bs->knots[i + 1]);
    {
        double t0, t1;
        ck_assert_int_eq(pln_bspline_span_interval(bs, 7, &t0, &t1), PLN_ERR_INVALID);
        ck_assert_int_eq(pln_bspline_span_interval(bs, -1, &t0, &t1), PLN_ERR_INVALID);
    }
    pln_bspline_destroy(bs);
}
END_TEST

START_TEST(test_find_span)
{
    PlnBspline *bs = make(3, 9, 2.0);
    Rng r = {11};
    /* every knot starts its span; T belongs to the last span */
    for (int s = 0; s < bs->n_spans; ++s) ck_assert_int_eq(pln_bspline_find_span(bs, bs->knots[s + 3]), s);
    ck_assert_int_eq(pln_bspline_find_span(bs, 2.0), bs->n_spans - 1);
    ck_assert_int_eq(pln_bspline_find_span(bs, -1.0), 0);
    ck_assert_int_eq(pln_bspline_find_span(bs, 5.0), bs->n_spans - 1);
    for (int n = 0; n < N_RANDOM_TIMES; ++n) {
        const double t = rng_uniform(&r, 0.0, 2.0);
        const int s = pln_bspline_find_span(bs, t);
        ck_assert(bs->knots[s + 3] <= t && t < bs->knots[s + 4]);
    }
    /* just below a knot stays in the previous span */
    ck_assert_int_eq(pln_bspline_find_span(bs, nextafter(bs->knots[5], 0.0)), 1);
    pln_bspline_destroy(bs);
}
END_TEST

/* ---------------------------------------------------------------- evaluation */

START_TEST(test_eval_matches_cox_de_boor)
{
    Rng r = {1234};
    double ctrl[MAX_CTRL];
    for (int k = 1; k <= PLN_BSPLINE_MAX_DEGREE; ++k) {
        for (int extra = 0; extra <= 12; extra += 6) {
            const int n = k + 1 + extra;
            const double T = rng_uniform(&r, 0.3, 7.0);
            PlnBspline *bs = make(k, n, T);
            random_ctrl(&r, ctrl, n, 2.0);
            for (int m = 0; m < N_RANDOM_TIMES / 4; ++m) {
                /* random times, every knot, and both ends */
                double t = m < bs->n_knots ? bs->knots[m] : rng_uniform(&r, 0.0, T);
                const double want = ref_eval(bs, ctrl, t);
                const double got = eval_r(bs, ctrl, t, 0);
                ck_assert_double_eq_tol(got, want, TOL_EVAL * (1.0 + fabs(want)));
            }
            /* clamped ends interpolate the end control points */
            ck_assert_double_eq_tol(eval_r(bs, ctrl, 0.0, 0), ctrl[0], TOL_EVAL);
            ck_assert_double_eq_tol(eval_r(bs, ctrl, T, 0), ctrl[n - 1], TOL_EVAL);
            pln_bspline_destroy(bs);
        }
    }
}
END_TEST

START_TEST(test_eval_joints_matches_single)
{
    Rng r = {99};
    const int nj = 4, n = 11;
    double ctrl[4 * 11], out[4 * 4], one[4];
    PlnBspline *bs = make(5, n, 2.5);
    random_ctrl(&r, ctrl, nj * n, 1.5);
    for (int m = 0; m < 200; ++m) {
        const double t = rng_uniform(&r, 0.0, 2.5);
        ck_assert_int_eq(pln_bspline_eval_joints(bs, ctrl, nj, t, 3, out), PLN_OK);
        for (int j = 0; j < nj; ++j) {
            ck_assert_int_eq(pln_bspline_eval(bs, ctrl + j * n, t, 3, one), PLN_OK);
            for (int d = 0; d <= 3; ++d) ck_assert(out[d * nj + j] == one[d]);
        }
    }
    pln_bspline_destroy(bs);
}
END_TEST

START_TEST(test_derivatives_vs_central_differences)
{
    Rng r = {777};
    double ctrl[MAX_CTRL];
    for (int k = 1; k <= PLN_BSPLINE_MAX_DEGREE; ++k) {
        const int n = k + 8;
        const double T = rng_uniform(&r, 0.5, 4.0);
        PlnBspline *bs = make(k, n, T);
        const double h = 1e-6 * T;
        random_ctrl(&r, ctrl, n, 1.0);
        for (int m = 0; m < 300; ++m) {
            const double t = rng_uniform(&r, 0.0, T);
            double out[4];
            /* derivatives of order <= k - 1 are continuous; FD needs a knot-free window */
            if (knot_gap(bs, t) < 4.0 * h) continue;
            ck_assert_int_eq(pln_bspline_eval(bs, ctrl, t, 3, out), PLN_OK);
            for (int d = 1; d <= 3; ++d) {
                const double fd = (eval_r(bs, ctrl, t + h, d - 1) - eval_r(bs, ctrl, t - h, d - 1)) / (2.0 * h);
                /* scale: the size of this derivative order for unit control points */
                const double scale = pow((double)(k + 1) * bs->n_spans / T, d);
                if (d > k) {
                    ck_assert(out[d] == 0.0);
                    continue;
                }
                ck_assert_msg(fabs(out[d] - fd) <= TOL_FD * scale,
                              "k=%d d=%d t=%g: analytic %.12g fd %.12g", k, d, t, out[d], fd);
            }
        }
        pln_bspline_destroy(bs);
    }
}
END_TEST

START_TEST(test_partition_of_unity)
{
    Rng r = {5};
    for (int k = 1; k <= PLN_BSPLINE_MAX_DEGREE; ++k) {
        PlnBspline *bs = make(k, k + 6, 1.7);
        for (int m = 0; m < N_RANDOM_TIMES / 4; ++m) {
            double N[4 * PLN_BSPLINE_MAX_ORDER];
            int first;
            const double t = m < bs->n_knots ? bs->knots[m] : rng_uniform(&r, 0.0, 1.7);
            ck_assert_int_eq(pln_bspline_basis(bs, t, 3, N, &first), PLN_OK);
            ck_assert_int_eq(first, pln_bspline_find_span(bs, t));
            for (int d = 0; d <= 3; ++d) {
                double sum = 0.0, mag = 0.0;
                for (int l = 0; l <= k; ++l) {
                    sum += N[d * (k + 1) + l];
                    mag += fabs(N[d * (k + 1) + l]);
                    if (d == 0) ck_assert(N[l] >= -TOL_EXACT);
                }
                /* sum N = 1, sum N^{(d)} = 0 */
                ck_assert_double_eq_tol(sum, d == 0 ? 1.0 : 0.0, TOL_EXACT * (1.0 + mag));
            }
        }
        pln_bspline_destroy(bs);
    }
}
END_TEST

START_TEST(test_basis_weights_are_control_point_gradient)
{
    /* dq^{(d)}(t)/dP_j = N_j^{(d)}(t): checked by perturbing each control point */
    Rng r = {42};
    const int k = 5, n = 14;
    double ctrl[14];
    PlnBspline *bs = make(k, n, 3.0);
    random_ctrl(&r, ctrl, n, 1.0);
    for (int m = 0; m < 50; ++m) {
        const double t = rng_uniform(&r, 0.0, 3.0);
        double N[4 * PLN_BSPLINE_MAX_ORDER];
        int first;
        ck_assert_int_eq(pln_bspline_basis(bs, t, 3, N, &first), PLN_OK);
        for (int j = 0; j < n; ++j) {
            const double dp = 1e-3, save = ctrl[j];
            double hi[4], lo[4];
            ctrl[j] = save + dp;
            pln_bspline_eval(bs, ctrl, t, 3, hi);
            ctrl[j] = save - dp;
            pln_bspline_eval(bs, ctrl, t, 3, lo);
            ctrl[j] = save;
            for (int d = 0; d <= 3; ++d) {
                const double want = (hi[d] - lo[d]) / (2.0 * dp);
                const double got = (j >= first && j <= first + k) ? N[d * (k + 1) + j - first] : 0.0;
                ck_assert_double_eq_tol(got, want, TOL_FD * (1.0 + fabs(want)));
            }
        }
    }
    pln_bspline_destroy(bs);
}
END_TEST

START_TEST(test_linear_precision)
{
    /* control points at the Greville abscissae reproduce q(t) = t exactly */
    const int k = 5, n = 13;
    double ctrl[13];
    PlnBspline *bs = make(k, n, 2.0);
    Rng r = {3};
    for (int i = 0; i < n; ++i) {
        double g = 0.0;
        for (int l = 1; l <= k; ++l) g += bs->knots[i + l];
        ctrl[i] = g / k;
    }
    for (int m = 0; m < 200; ++m) {
        const double t = rng_uniform(&r, 0.0, 2.0);
        double out[4];
        ck_assert_int_eq(pln_bspline_eval(bs, ctrl, t, 3, out), PLN_OK);
        ck_assert_double_eq_tol(out[0], t, TOL_EVAL);
        ck_assert_double_eq_tol(out[1], 1.0, TOL_FD);
        ck_assert_double_eq_tol(out[2], 0.0, TOL_FD);
        ck_assert_double_eq_tol(out[3], 0.0, TOL_FD);
    }
    pln_bspline_destroy(bs);
}
END_TEST

START_TEST(test_eval_rejects_bad_input)
{
    double ctrl[8] = {0}, out[4] = {7, 7, 7, 7}, N[32];
    int first = -5;
    PlnBspline *bs = make(3, 8, 1.0);
    ck_assert_int_eq(pln_bspline_eval(bs, ctrl, NAN, 0, out), PLN_ERR_INVALID);
    ck_assert_int_eq(pln_bspline_eval(bs, ctrl, -0.1, 0, out), PLN_ERR_INVALID);
    ck_assert_int_eq(pln_bspline_eval(bs, ctrl, 1.1, 0, out), PLN_ERR_INVALID);
    ck_assert_int_eq(pln_bspline_eval(bs, ctrl, INFINITY, 0, out), PLN_ERR_INVALID);
    ck_assert_int_eq(pln_bspline_eval(bs, ctrl, 0.5, 4, out), PLN_ERR_INVALID);
    ck_assert_int_eq(pln_bspline_eval(bs, ctrl, 0.5, -1, out), PLN_ERR_INVALID);
    ck_assert_int_eq(pln_bspline_basis(bs, NAN, 0, N, &first), PLN_ERR_INVALID);
    ck_assert(out[0] == 7.0);
    ck_assert_int_eq(first, -5);
    /* within the slop: clamped, not rejected */
    ck_assert_int_eq(pln_bspline_eval(bs, ctrl, 1.0 + 0.5 * PLN_BSPLINE_TIME_SLOP, 0, out), PLN_OK);
    ck_assert_int_eq(pln_bspline_eval(bs, ctrl, -0.5 * PLN_BSPLINE_TIME_SLOP, 0, out), PLN_OK);
    pln_bspline_destroy(bs);
}
END_TEST

/* ---------------------------------------------------------------- span polynomials */

START_TEST(test_span_polynomial_matches_eval)
{
    Rng r = {2024};
    double ctrl[MAX_CTRL];
    for (int k = 1; k <= PLN_BSPLINE_MAX_DEGREE; ++k) {
        const int n = k + 7;
        const double T = rng_uniform(&r, 0.5, 5.0);
        PlnBspline *bs = make(k, n, T);
        random_ctrl(&r, ctrl, n, 3.0);
        for (int s = 0; s < bs->n_spans; ++s) {
            double c[PLN_BSPLINE_MAX_ORDER], M[PLN_BSPLINE_MAX_ORDER * PLN_BSPLINE_MAX_ORDER];
            double t0, t1;
            int first;
            ck_assert_int_eq(pln_bspline_span_poly(bs, ctrl, s, c), PLN_OK);
            ck_assert_int_eq(pln_bspline_span_matrix(bs, s, M, &first), PLN_OK);
            ck_assert_int_eq(first, s);
            pln_bspline_span_interval(bs, s, &t0, &t1);
            /* each basis polynomial sums to 1: column sums of M are (1, 0, ..., 0) */
            for (int e = 0; e <= k; ++e) {
                double sum = 0.0;
                for (int l = 0; l <= k; ++l) sum += M[e * (k + 1) + l];
                ck_assert_double_eq_tol(sum, e == 0 ? 1.0 : 0.0, TOL_SPAN_POLY);
            }
            for (int m = 0; m <= 40; ++m) {
                /* u in [0, 1] including both ends */
                const double u = m / 40.0, t = t0 + u * (t1 - t0);
                double p = 0.0, dp = 0.0, out[2];
                for (int e = k; e >= 0; --e) p = p * u + c[e];
                for (int e = k; e >= 1; --e) dp = dp * u + e * c[e];
                dp /= (t1 - t0);
                /* at u = 1 the evaluator takes the next span: equal by continuity */
                ck_assert_int_eq(pln_bspline_eval(bs, ctrl, t, 1, out), PLN_OK);
                ck_assert_double_eq_tol(p, out[0], TOL_SPAN_POLY * (1.0 + fabs(out[0])));
                if (k >= 2 || m < 40)
                    ck_assert_double_eq_tol(dp, out[1], TOL_SPAN_POLY * (1.0 + fabs(out[1])) * n / T);
            }
        }
        {
            double c[PLN_BSPLINE_MAX_ORDER];
            ck_assert_int_eq(pln_bspline_span_poly(bs, ctrl, bs->n_spans, c), PLN_ERR_INVALID);
        }
        pln_bspline_destroy(bs);
    }
}
END_TEST

/* ---------------------------------------------------------------- bounds */

START_TEST(test_span_bounds_enclose_dense_samples)
{
    Rng r = {31337};
    double ctrl[MAX_CTRL];
    const int n_dense = 400;
    for (int trial = 0; trial < 60; ++trial) {
        const int k = 1 + trial % PLN_BSPLINE_MAX_DEGREE;
        const int n = k + 1 + (int)(rng_next(&r) % 12);
        const double T = rng_uniform(&r, 0.1, 6.0);
        PlnBspline *bs = make(k, n, T);
        /* awkward cases too: constant, huge magnitude, alternating, tiny steps */
        const int kind = trial % 5;
        for (int i = 0; i < n; ++i) {
            switch (kind) {
            case 0: ctrl[i] = rng_uniform(&r, -3.0, 3.0); break;
            case 1: ctrl[i] = 0.7; break;
            case 2: ctrl[i] = 1e6 + rng_uniform(&r, -1e-3, 1e-3); break;
            case 3: ctrl[i] = (i % 2 ? 1.0 : -1.0) * rng_uniform(&r, 0.5, 1.0); break;
            default: ctrl[i] = 1e-9 * i; break;
            }
        }
        for (int s = 0; s < bs->n_spans; ++s) {
            double qb[2], vb[2], t0, t1;
            ck_assert_int_eq(pln_bspline_span_bounds(bs, ctrl, s, qb, vb), PLN_OK);
            pln_bspline_span_interval(bs, s, &t0, &t1);
            {
                /* not vacuous: the bounds are those of the k + 1 (resp. k) hull points */
                double lo = ctrl[s], hi = ctrl[s], vlo = INFINITY, vhi = -INFINITY, vel[MAX_CTRL];
                pln_bspline_velocity_ctrl(bs, ctrl, vel);
                for (int l = 0; l <= k; ++l) {
                    lo = fmin(lo, ctrl[s + l]);
                    hi = fmax(hi, ctrl[s + l]);
                    if (l < k) {
                        vlo = fmin(vlo, vel[s + l]);
                        vhi = fmax(vhi, vel[s + l]);
                    }
                }
                ck_assert(qb[0] == lo && qb[1] == hi);
                ck_assert(vb[0] <= vlo && vb[0] >= vlo - 2.0 * PLN_BSPLINE_BOUND_WIDEN * fabs(vlo));
                ck_assert(vb[1] >= vhi && vb[1] <= vhi + 2.0 * PLN_BSPLINE_BOUND_WIDEN * fabs(vhi));
            }
            for (int m = 0; m <= n_dense; ++m) {
                const double t = t0 + (t1 - t0) * m / n_dense;
                double out[2], N[2 * PLN_BSPLINE_MAX_ORDER], mag0 = 0.0, mag1 = 0.0;
                int first;
                ck_assert_int_eq(pln_bspline_eval(bs, ctrl, t, 1, out), PLN_OK);
                /* the bound is rigorous for the exact spline; the slack below covers only
                   the rounding of the evaluator, a few ulps of sum |N_j^(r)| |P_j| */
                ck_assert_int_eq(pln_bspline_basis(bs, t, 1, N, &first), PLN_OK);
                for (int l = 0; l <= k; ++l) {
                    mag0 += fabs(N[l] * ctrl[first + l]);
                    mag1 += fabs(N[k + 1 + l] * ctrl[first + l]);
                }
                ck_assert_msg(out[0] >= qb[0] - EVAL_ULPS * DBL_EPSILON * mag0 &&
                              out[0] <= qb[1] + EVAL_ULPS * DBL_EPSILON * mag0,
                              "q=%.17g outside [%.17g, %.17g]", out[0], qb[0], qb[1]);
                if (m < n_dense || s + 1 == bs->n_spans) {
                    ck_assert_msg(out[1] >= vb[0] - EVAL_ULPS * DBL_EPSILON * mag1 &&
                                  out[1] <= vb[1] + EVAL_ULPS * DBL_EPSILON * mag1,
                                  "q'=%.17g outside [%.17g, %.17g]", out[1], vb[0], vb[1]);
                }
            }
        }
        pln_bspline_destroy(bs);
    }
}
END_TEST

START_TEST(test_velocity_ctrl_is_derivative_spline)
{
    /* q' equals the degree k-1 spline of eq. (7) on knots t_1 .. t_{n+k-1} */
    Rng r = {8};
    const int k = 5, n = 12;
    double ctrl[12], vel[11];
    PlnBspline *bs = make(k, n, 2.0);
    random_ctrl(&r, ctrl, n, 1.0);
    pln_bspline_velocity_ctrl(bs, ctrl, vel);
    for (int m = 0; m < 300; ++m) {
        const double t = rng_uniform(&r, 0.0, 2.0);
        double want = 0.0;
        for (int i = 0; i < n - 1; ++i)
            want += ref_basis(bs->knots + 1, bs->n_knots - 2, i, k - 1, t) * vel[i];
        ck_assert_double_eq_tol(eval_r(bs, ctrl, t, 1), want, TOL_EVAL * (1.0 + fabs(want)) * n);
    }
    pln_bspline_destroy(bs);
}
END_TEST

/* ---------------------------------------------------------------- cost */

/* reference quadrature: composite 3-point Gauss (hard-coded nodes, independent of the
 * library's Gauss-Legendre generator), 100 panels per span, interior nodes only */
static double panel_cost(const PlnBspline *bs, const double *ctrl, int r)
{
    static const double gx[3] = {-0.77459666924148337704, 0.0, 0.77459666924148337704};
    static const double gw[3] = {5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0};
    double total = 0.0;
    for (int s = 0; s < bs->n_spans; ++s) {
        double t0, t1;
        const int panels = 100;
        pln_bspline_span_interval(bs, s, &t0, &t1);
        const double h = (t1 - t0) / panels;
        for (int p = 0; p < panels; ++p) {
            const double mid = t0 + (p + 0.5) * h;
            for (int q = 0; q < 3; ++q) {
                const double v = eval_r(bs, ctrl, mid + 0.5 * h * gx[q], r);
                total += 0.5 * h * gw[q] * v * v;
            }
        }
    }
    return total;
}

START_TEST(test_cost_matches_quadrature)
{
    Rng r = {555};
    double ctrl[2 * MAX_CTRL], H[MAX_CTRL * MAX_CTRL];
    for (int k = 3; k <= PLN_BSPLINE_MAX_DEGREE; ++k) {
        for (int order = 2; order <= 3; ++order) {
            const int n = k + 5;
            const double T = rng_uniform(&r, 0.5, 3.0);
            PlnBspline *bs = make(k, n, T);
            random_ctrl(&r, ctrl, 2 * n, 1.0);
            ck_assert_int_eq(pln_bspline_cost_matrix(bs, (PlnBsplineCostOrder)order, H), PLN_OK);
            /* symmetric and banded */
            for (int a = 0; a < n; ++a)
                for (int b = 0; b < n; ++b) {
                    ck_assert_double_eq_tol(H[a * n + b], H[b * n + a], TOL_EXACT * (1.0 + fabs(H[a * n + b])));
                    if (abs(a - b) > k) ck_assert(H[a * n + b] == 0.0);
                }
            {
                const double got = pln_bspline_cost(bs, H, ctrl, 2, NULL);
                const double want = panel_cost(bs, ctrl, order) + panel_cost(bs, ctrl + n, order);
                ck_assert_msg(fabs(got - want) <= TOL_COST * (1.0 + fabs(want)),
                              "k=%d r=%d: cost %.15g quadrature %.15g", k, order, got, want);
            }
            pln_bspline_destroy(bs);
        }
    }
}
END_TEST

START_TEST(test_cost_gradient_vs_central_differences)
{
    Rng r = {4242};
    const int k = 5, n = 11, nj = 3;
    double ctrl[3 * 11], grad[3 * 11], H[11 * 11];
    PlnBspline *bs = make(k, n, 2.0);
    random_ctrl(&r, ctrl, nj * n, 1.0);
    for (int order = 2; order <= 3; ++order) {
        ck_assert_int_eq(pln_bspline_cost_matrix(bs, (PlnBsplineCostOrder)order, H), PLN_OK);
        pln_bspline_cost(bs, H, ctrl, nj, grad);
        for (int i = 0; i < nj * n; ++i) {
            const double dp = 1e-5, save = ctrl[i];
            double hi, lo, fd;
            ctrl[i] = save + dp;
            hi = pln_bspline_cost(bs, H, ctrl, nj, NULL);
            ctrl[i] = save - dp;
            lo = pln_bspline_cost(bs, H, ctrl, nj, NULL);
            ctrl[i] = save;
            fd = (hi - lo) / (2.0 * dp);
            ck_assert_msg(fabs(grad[i] - fd) <= TOL_COST_GRAD * (1.0 + fabs(fd)),
                          "order %d i %d: grad %.12g fd %.12g", order, i, grad[i], fd);
        }
    }
    pln_bspline_destroy(bs);
}
END_TEST

START_TEST(test_cost_zero_for_linear_motion_and_bad_order)
{
    const int k = 5, n = 10;
    double ctrl[10], H[100];
    PlnBspline *bs = make(k, n, 1.0);
    for (int i = 0; i < n; ++i) {
        double g = 0.0;
        for (int l = 1; l <= k; ++l) g += bs->knots[i + l];
        ctrl[i] = 0.3 - 2.0 * g / k;
    }
    ck_assert_int_eq(pln_bspline_cost_matrix(bs, PLN_BSPLINE_COST_ACCEL, H), PLN_OK);
    ck_assert_double_eq_tol(pln_bspline_cost(bs, H, ctrl, 1, NULL), 0.0, TOL_COST);
    ck_assert_int_eq(pln_bspline_cost_matrix(bs, (PlnBsplineCostOrder)1, H), PLN_ERR_INVALID);
    pln_bspline_destroy(bs);
    bs = make(2, 6, 1.0);
    ck_assert_int_eq(pln_bspline_cost_matrix(bs, PLN_BSPLINE_COST_JERK, H), PLN_ERR_INVALID);
    pln_bspline_destroy(bs);
}
END_TEST

Suite *pln_bspline_suite(void)
{
    Suite *s = suite_create("pln_bspline");
    TCase *tc;

    tc = tcase_create("knots");
    tcase_add_test(tc, test_create_rejects_bad_arguments);
    tcase_add_test(tc, test_knot_vector_clamped_uniform);
    tcase_add_test(tc, test_find_span);
    suite_add_tcase(s, tc);

    tc = tcase_create("evaluation");
    tcase_add_test(tc, test_eval_matches_cox_de_boor);
    tcase_add_test(tc, test_eval_joints_matches_single);
    tcase_add_test(tc, test_derivatives_vs_central_differences);
    tcase_add_test(tc, test_partition_of_unity);
    tcase_add_test(tc, test_basis_weights_are_control_point_gradient);
    tcase_add_test(tc, test_linear_precision);
    tcase_add_test(tc, test_eval_rejects_bad_input);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);

    tc = tcase_create("span_polynomial");
    tcase_add_test(tc, test_span_polynomial_matches_eval);
    suite_add_tcase(s, tc);

    tc = tcase_create("bounds");
    tcase_add_test(tc, test_span_bounds_enclose_dense_samples);
    tcase_add_test(tc, test_velocity_ctrl_is_derivative_spline);
    suite_add_tcase(s, tc);

    tc = tcase_create("cost");
    tcase_add_test(tc, test_cost_matches_quadrature);
    tcase_add_test(tc, test_cost_gradient_vs_central_differences);
    tcase_add_test(tc, test_cost_zero_for_linear_motion_and_bad_order);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}
