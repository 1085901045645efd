/* check_pln_sqp.c — tests of planner/base/pln_sqp.c: known solutions of small nonlinear
 * programs (Hock-Schittkowski 71, a Rosenbrock valley cut by a disc, Powell's Maratos
 * example), a quadratic program solved in one step from its own Hessian, an inconsistent
 * linearisation left through the elastic model, a model whose curvature is far too small
 * (the regularisation, S9), the budgets and the stop flag, bad input. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/pln_sqp.h"

/* the solutions are known to about 1e-6; the optimiser stops at ftol_rel 1e-10 */
#define SQP_TEST_X_TOL 1e-4
#define SQP_TEST_F_TOL 1e-6
#define SQP_TEST_FEAS_TOL 1e-7

/* ---- Hock-Schittkowski problem 71: min x1 x4 (x1 + x2 + x3) + x3, x1 x2 x3 x4 >= 25,
 * x1^2 + x2^2 + x3^2 + x4^2 = 40 (two rows), 1 <= x <= 5; f* = 17.0140173 */
static double hs71_f(unsigned n, const double *x, double *g, void *data)
{
    (void)n, (void)data;
    if (g != NULL) {
        g[0] = x[3] * (2.0 * x[0] + x[1] + x[2]);
        g[1] = x[0] * x[3];
        g[2] = x[0] * x[3] + 1.0;
        g[3] = x[0] * (x[0] + x[1] + x[2]);
    }
    return x[0] * x[3] * (x[0] + x[1] + x[2]) + x[2];
}

static void hs71_c(unsigned m, double *c, unsigned n, const double *x, double *g, void *data)
{
    (void)m, (void)data;
    double s = x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3];
    c[0] = 25.0 - x[0] * x[1] * x[2] * x[3];
    c[1] = s - 40.0;
    c[2] = 40.0 - s;
    if (g != NULL) {
        g[0] = -x[1] * x[2] * x[3], g[1] = -x[0] * x[2] * x[3], g[2] = -x[0] * x[1] * x[3], g[3] = -x[0] * x[1] * x[2];
        for (unsigned j = 0; j < n; ++j) g[n + j] = 2.0 * x[j], g[2 * n + j] = -2.0 * x[j];
    }
}

START_TEST(test_hs71)
{
    double lb[4] = {1, 1, 1, 1}, ub[4] = {5, 5, 5, 5}, x[4] = {1, 5, 5, 1}, tol[3] = {0, 1e-9, 1e-9};
    PlnSqpProblem p;
    memset(&p, 0, sizeof p);
    p.n = 4, p.lb = lb, p.ub = ub, p.f = hs71_f;
    p.n_sets = 1, p.sets[0].m = 3, p.sets[0].fn = hs71_c, p.sets[0].tol = tol;
    PlnSqpOptions o = pln_sqp_options_default();
    o.ftol_rel = 1e-10, o.max_evals = 200;
    PlnSqpResult r;
    PlnSqpStop st = pln_sqp_minimize(&p, &o, x, &r);
    ck_assert_msg(st == PLN_SQP_FTOL || st == PLN_SQP_XTOL, "stop %s after %d evaluations", pln_sqp_stop_string(st),
                  r.evaluations);
    ck_assert_msg(fabs(r.f - 17.0140173) < SQP_TEST_F_TOL * 17.0 + 1e-6, "f %.9f", r.f);
    ck_assert_msg(fabs(x[0] - 1.0) < SQP_TEST_X_TOL && fabs(x[1] - 4.7429994) < SQP_TEST_X_TOL &&
                      fabs(x[2] - 3.8211503) < SQP_TEST_X_TOL && fabs(x[3] - 1.3794082) < SQP_TEST_X_TOL,
                  "x %.6f %.6f %.6f %.6f", x[0], x[1], x[2], x[3]);
    ck_assert(r.max_violation <= SQP_TEST_FEAS_TOL);
}
END_TEST

/* ---- Rosenbrock's valley cut by the unit disc: min (1 - x)^2 + 100 (y - x^2)^2,
 * x^2 + y^2 <= 1; x* = (0.7864152, 0.6176983), f* = 0.0456748 */
static double rosen_f(unsigned n, const double *x, double *g, void *data)
{
    (void)n, (void)data;
    double a = 1.0 - x[0], b = x[1] - x[0] * x[0];
    if (g != NULL) g[0] = -2.0 * a - 400.0 * x[0] * b, g[1] = 200.0 * b;
    return a * a + 100.0 * b * b;
}

static void disc_c(unsigned m, double *c, unsigned n, const double *x, double *g, void *data)
{
    (void)m, (void)n, (void)data;
    c[0] = x[0] * x[0] + x[1] * x[1] - 1.0;
    if (g != NULL) g[0] = 2.0 * x[0], g[1] = 2.0 * x[1];
}

START_TEST(test_rosenbrock_disc)
{
    double lb[2] = {-INFINITY, -INFINITY}, ub[2] = {INFINITY, INFINITY}, tol[1] = {1e-12};
    const double starts[3][2] = {{0.0, 0.0}, {-0.5, 0.8}, {2.0, -2.0}};
    for (int k = 0; k < 3; ++k) {
        double x[2] = {starts[k][0], starts[k][1]};
        PlnSqpProblem p;
        memset(&p, 0, sizeof p);
        p.n = 2, p.lb = lb, p.ub = ub, p.f = rosen_f;
        p.n_sets = 1, p.sets[0].m = 1, p.sets[0].fn = disc_c, p.sets[0].tol = tol;
        PlnSqpOptions o = pln_sqp_options_default();
        o.ftol_rel = 1e-12, o.xtol_rel = 1e-12, o.max_evals = 500;
        PlnSqpResult r;
        PlnSqpStop st = pln_sqp_minimize(&p, &o, x, &r);
        ck_assert_msg(st == PLN_SQP_FTOL || st == PLN_SQP_XTOL, "start %d: %s", k, pln_sqp_stop_string(st));
        ck_assert_msg(fabs(x[0] - 0.7864152) < SQP_TEST_X_TOL && fabs(x[1] - 0.6176983) < SQP_TEST_X_TOL,
                      "start %d: x %.7f %.7f after %d evaluations", k, x[0], x[1], r.evaluations);
        ck_assert(r.max_violation <= SQP_TEST_FEAS_TOL);
    }
}
END_TEST

/* ---- Powell's example of the Maratos effect: min 2 (x^2 + y^2 - 1) - x, x^2 + y^2 = 1;
 * x* = (1, 0). From a point on the circle near the solution, full steps raise the
 * violation; the corrected steps (S6) are accepted. */
static double maratos_f(unsigned n, const double *x, double *g, void *data)
{
    (void)n, (void)data;
    if (g != NULL) g[0] = 4.0 * x[0] - 1.0, g[1] = 4.0 * x[1];
    return 2.0 * (x[0] * x[0] + x[1] * x[1] - 1.0) - x[0];
}

static void circle_c(unsigned m, double *c, unsigned n, const double *x, double *g, void *data)
{
    (void)m, (void)n, (void)data;
    double s = x[0] * x[0] + x[1] * x[1] - 1.0;
    c[0] = s, c[1] = -s;
    if (g != NULL) g[0] = 2.0 * x[0], g[1] = 2.0 * x[1], g[2] = -2.0 * x[0], g[3] = -2.0 * x[1];
}

START_TEST(test_maratos_corrected)
{
    double lb[2] = {-10, -10}, ub[2] = {10, 10}, th = 0.3, x[2] = {cos(th), sin(th)}, tol[2] = {1e-10, 1e-10};
    /* B0 = I, the Lagrangian's Hessian at the solution (4 I from f, -3/2 (2 I) from the
     * circle's multiplier): the full steps are Newton's, tangent to the circle */
    double L0[4] = {sqrt(1.0), 0.0, 0.0, sqrt(1.0)};
    PlnSqpProblem p;
    memset(&p, 0, sizeof p);
    p.n = 2, p.lb = lb, p.ub = ub, p.f = maratos_f, p.B0_chol = L0;
    p.n_sets = 1, p.sets[0].m = 2, p.sets[0].fn = circle_c, p.sets[0].tol = tol;
    PlnSqpOptions o = pln_sqp_options_default();
    o.ftol_rel = 1e-12, o.max_evals = 100;
    PlnSqpResult r;
    PlnSqpStop st = pln_sqp_minimize(&p, &o, x, &r);
    ck_assert_msg(st == PLN_SQP_FTOL || st == PLN_SQP_XTOL, "%s", pln_sqp_stop_string(st));
    ck_assert_msg(fabs(x[0] - 1.0) < SQP_TEST_X_TOL && fabs(x[1]) < SQP_TEST_X_TOL, "x %.7f %.7f", x[0], x[1]);
    ck_assert_msg(r.evaluations <= 30, "%d evaluations", r.evaluations);
    ck_assert_int_ge(r.corrections, 1);
}
END_TEST

/* ---- a convex quadratic program with its own Hessian as B0: the first model is exact, so
 * the first step lands on the solution: min 1/2 |x - a|^2_H s.t. x1 + x2 <= 1, x >= 0 */
static double quad_f(unsigned n, const double *x, double *g, void *data)
{
    (void)n, (void)data;
    /* H = [[4, 1], [1, 2]], a = (2, 2) */
    double d0 = x[0] - 2.0, d1 = x[1] - 2.0;
    if (g != NULL) g[0] = 4.0 * d0 + d1, g[1] = d0 + 2.0 * d1;
    return 0.5 * (4.0 * d0 * d0 + 2.0 * d0 * d1 + 2.0 * d1 * d1);
}

static void half_c(unsigned m, double *c, unsigned n, const double *x, double *g, void *data)
{
    (void)m, (void)n, (void)data;
    c[0] = x[0] + x[1] - 1.0;
    if (g != NULL) g[0] = 1.0, g[1] = 1.0;
}

START_TEST(test_quadratic_one_step)
{
    /* column-major lower Cholesky factor of H: l11 = 2, l21 = 1/2, l22 = sqrt(2 - 1/4); the
     * upper entry is not part of the factor and must not be read (99) */
    double L[4] = {2.0, 0.5, 99.0, sqrt(1.75)};
    double lb[2] = {0, 0}, ub[2] = {10, 10}, x[2] = {0.0, 0.0};
    PlnSqpProblem p;
    memset(&p, 0, sizeof p);
    p.n = 2, p.lb = lb, p.ub = ub, p.f = quad_f, p.B0_chol = L;
    p.n_sets = 1, p.sets[0].m = 1, p.sets[0].fn = half_c;
    PlnSqpOptions o = pln_sqp_options_default();
    PlnSqpResult r;
    pln_sqp_minimize(&p, &o, x, &r);
    /* KKT at x = (1, 0): H (x - a) = (-6, -5) = -lambda (1, 1) + mu (0, 1) with lambda = 6,
     * mu = 1 (the row x1 + x2 <= 1 and the bound x2 >= 0 active) */
    ck_assert_msg(fabs(x[0] - 1.0) < 1e-12 && fabs(x[1]) < 1e-12, "x %.15f %.15f", x[0], x[1]);
    ck_assert_msg(r.iterations <= 2 && r.evaluations <= 3, "%d iterations, %d evaluations", r.iterations,
                  r.evaluations);
}
END_TEST

/* p: n variables in [lb, ub], objective f and one set of m rows fn (nullable when m = 0) */
static void problem_one_set(PlnSqpProblem *p, int n, double *lb, double *ub, PlnSqpObjective f, int m,
                            PlnSqpRows fn)
{
    memset(p, 0, sizeof *p);
    p->n = n, p->lb = lb, p->ub = ub, p->f = f;
    if (m > 0) p->n_sets = 1, p->sets[0].m = m, p->sets[0].fn = fn;
}

/* ---- an inconsistent linearisation at the start: at (x, y) = (-3, 0) the row y^3 >= 8 has
 * a zero gradient, so its model reads 8 <= 0; the elastic model (S2) steps anyway (the cost
 * lifts y), and the run ends at (1, 3), where x >= 1 binds */
static double elastic_f(unsigned n, const double *x, double *g, void *data)
{
    (void)n, (void)data;
    if (g != NULL) g[0] = x[0], g[1] = x[1] - 3.0;
    return 0.5 * (x[0] * x[0] + (x[1] - 3.0) * (x[1] - 3.0));
}

static void elastic_c(unsigned m, double *c, unsigned n, const double *x, double *g, void *data)
{
    (void)m, (void)n, (void)data;
    c[0] = 1.0 - x[0];
    c[1] = 8.0 - x[1] * x[1] * x[1];
    if (g != NULL) g[0] = -1.0, g[1] = 0.0, g[2] = 0.0, g[3] = -3.0 * x[1] * x[1];
}

START_TEST(test_elastic_start)
{
    double lb[2] = {-10, -10}, ub[2] = {10, 10}, x[2] = {-3.0, 0.0};
    PlnSqpProblem p;
    problem_one_set(&p, 2, lb, ub, elastic_f, 2, elastic_c);
    PlnSqpOptions o = pln_sqp_options_default();
    o.ftol_rel = 1e-12, o.max_evals = 200;
    PlnSqpResult r;
    PlnSqpStop st = pln_sqp_minimize(&p, &o, x, &r);
    ck_assert_msg(st == PLN_SQP_FTOL || st == PLN_SQP_XTOL, "%s", pln_sqp_stop_string(st));
    ck_assert_int_ge(r.elastic, 1);
    ck_assert_msg(fabs(x[0] - 1.0) < SQP_TEST_X_TOL && fabs(x[1] - 3.0) < SQP_TEST_X_TOL, "x %.7f %.7f", x[0], x[1]);
}
END_TEST

/* ---- the violated rows' weights (S3b): min (x + 1)^2 / 2 + (x + 1)^4 / 8 subject to x >= 1,
 * from x = 0 with B0 = 1. The first QP step d = 1 meets the row exactly, with the multiplier
 * lambda = 2.5 (g + d) and a model change of f of q = g d + d^2 / 2 = 2; f itself rises by
 * 3.375. With the weight equal to the multiplier the penalty falls by 2.5 and the full step is
 * rejected; S3b raises the weight to q / (1 - 1/2) = 4, the full step is taken and the run
 * ends in fewer evaluations, at x = 1 either way. */
static double steep_f(unsigned n, const double *x, double *g, void *data)
{
    (void)n, (void)data;
    double e = x[0] + 1.0;
    if (g != NULL) g[0] = e + 0.5 * e * e * e;
    return 0.5 * e * e + 0.125 * e * e * e * e;
}

static void at_least_one_c(unsigned m, double *c, unsigned n, const double *x, double *g, void *data)
{
    (void)m, (void)n, (void)data;
    c[0] = 1.0 - x[0];
    if (g != NULL) g[0] = -1.0;
}

START_TEST(test_penalty_weights_raised)
{
    int evals[2];
    for (int raised = 0; raised < 2; ++raised) {
        double lb[1] = {-10}, ub[1] = {10}, x[1] = {0.0};
        PlnSqpProblem p;
        problem_one_set(&p, 1, lb, ub, steep_f, 1, at_least_one_c);
        PlnSqpOptions o = pln_sqp_options_default();
        o.ftol_rel = 1e-12, o.max_evals = 100;
        if (!raised) o.penalty_rho = 0.0;
        PlnSqpResult r;
        PlnSqpStop st = pln_sqp_minimize(&p, &o, x, &r);
        ck_assert_msg(st == PLN_SQP_FTOL || st == PLN_SQP_XTOL, "%s", pln_sqp_stop_string(st));
        ck_assert_msg(fabs(x[0] - 1.0) < SQP_TEST_X_TOL, "x %.9f", x[0]);
        ck_assert_int_eq(r.penalty_raised > 0, raised);
        evals[raised] = r.evaluations;
    }
    ck_assert_msg(evals[1] < evals[0], "%d evaluations with S3b, %d without", evals[1], evals[0]);
    /* the margin must lie in [0, 1) */
    {
        double lb[1] = {-10}, ub[1] = {10}, x[1] = {0.0};
        PlnSqpProblem p;
        problem_one_set(&p, 1, lb, ub, steep_f, 0, NULL);
        PlnSqpOptions o = pln_sqp_options_default();
        o.penalty_rho = 1.0;
        ck_assert_int_eq(pln_sqp_minimize(&p, &o, x, NULL), PLN_SQP_BAD_INPUT);
        o.penalty_rho = NAN;
        ck_assert_int_eq(pln_sqp_minimize(&p, &o, x, NULL), PLN_SQP_BAD_INPUT);
    }
}
END_TEST

/* ---- a model whose curvature is far too small (S9): min sum_i (i + 1)^2 (x_i - 1)^4 / 4 +
 * x_i^2 / 2 subject to sum_i x_i <= 2, from x = 10, with B0 = I while the quartic's curvature
 * there is 243 (i + 1)^2 + 1: the plain model's full steps overshoot by orders of magnitude and
 * are shortened step after step (the crawl of the support problems, docs/math/sqp.md sec. 8).
 * With the regularisation the run reaches the same KKT point in fewer evaluations (57 against
 * 127 when written). */
#define QUARTIC_N 20
static double quartic_f(unsigned n, const double *x, double *g, void *data)
{
    (void)data;
    double f = 0.0;
    for (unsigned i = 0; i < n; ++i) {
        double e = x[i] - 1.0, w = (double)((i + 1) * (i + 1));
        f += 0.25 * w * e * e * e * e + 0.5 * x[i] * x[i];
        if (g != NULL) g[i] = w * e * e * e + x[i];
    }
    return f;
}

static void sum_c(unsigned m, double *c, unsigned n, const double *x, double *g, void *data)
{
    (void)m, (void)data;
    c[0] = -2.0;
    for (unsigned i = 0; i < n; ++i) {
        c[0] += x[i];
        if (g != NULL) g[i] = 1.0;
    }
}

static PlnSqpStop quartic_run(int regularise, double *x, PlnSqpResult *r)
{
    double lb[QUARTIC_N], ub[QUARTIC_N];
    for (int i = 0; i < QUARTIC_N; ++i) lb[i] = -50.0, ub[i] = 50.0, x[i] = 10.0;
    PlnSqpProblem p;
    memset(&p, 0, sizeof p);
    p.n = QUARTIC_N, p.lb = lb, p.ub = ub, p.f = quartic_f;
    p.n_sets = 1, p.sets[0].m = 1, p.sets[0].fn = sum_c;
    PlnSqpOptions o = pln_sqp_options_default();
    o.ftol_rel = 1e-12, o.xtol_rel = 1e-12, o.max_evals = 2000, o.regularise = regularise;
    return pln_sqp_minimize(&p, &o, x, r);
}

START_TEST(test_regularised_model)
{
    double xp[QUARTIC_N], xr[QUARTIC_N];
    PlnSqpResult rp, rr;
    PlnSqpStop sp = quartic_run(0, xp, &rp), sr = quartic_run(1, xr, &rr);
    printf("quartic (S9): plain model %d evaluations (%d steps), regularised %d evaluations (%d steps, %d "
           "regularised)\n",
           rp.evaluations, rp.iterations, rr.evaluations, rr.iterations, rr.regularised);
    ck_assert_msg(sp == PLN_SQP_FTOL || sp == PLN_SQP_XTOL, "plain: %s", pln_sqp_stop_string(sp));
    ck_assert_msg(sr == PLN_SQP_FTOL || sr == PLN_SQP_XTOL, "regularised: %s", pln_sqp_stop_string(sr));
    ck_assert_int_eq(rp.regularised, 0);
    ck_assert_int_ge(rr.regularised, 1);
    /* the same KKT point: sum x = 2 active, (i + 1)(x_i - 1)^3 + x_i = -lambda for every i */
    double sum = 0.0;
    for (int i = 0; i < QUARTIC_N; ++i) {
        ck_assert_msg(fabs(xr[i] - xp[i]) < SQP_TEST_X_TOL, "x[%d] %.9f against %.9f", i, xr[i], xp[i]);
        sum += xr[i];
    }
    ck_assert_msg(fabs(sum - 2.0) < 1e-8, "sum %.12f", sum);
    double lam = -((xr[0] - 1.0) * (xr[0] - 1.0) * (xr[0] - 1.0) + xr[0]);
    for (int i = 1; i < QUARTIC_N; ++i) {
        double e = xr[i] - 1.0, li = -((i + 1) * (i + 1) * e * e * e + xr[i]);
        ck_assert_msg(fabs(li - lam) < 1e-5 * (1.0 + fabs(lam)), "multiplier %d: %.9f against %.9f", i, li, lam);
    }
    ck_assert_msg(lam > 0.0, "lambda %.9f", lam);
    ck_assert_msg(4 * rr.evaluations < 3 * rp.evaluations, "regularised %d evaluations, plain %d",
                  rr.evaluations, rp.evaluations);
}
END_TEST

/* ---- the budget and the stop flag end the run where they say */
typedef struct StopAfter {
    int calls, after;
    int flag;
} StopAfter;

static double stopping_f(unsigned n, const double *x, double *g, void *data)
{
    StopAfter *s = data;
    if (++s->calls >= s->after) s->flag = 1;
    return rosen_f(n, x, g, NULL);
}

START_TEST(test_budget_and_stop)
{
    double lb[2] = {-5, -5}, ub[2] = {5, 5};
    PlnSqpProblem p;
    memset(&p, 0, sizeof p);
    p.n = 2, p.lb = lb, p.ub = ub, p.f = rosen_f;
    PlnSqpOptions o = pln_sqp_options_default();
    o.ftol_rel = 0.0, o.xtol_rel = 0.0, o.max_evals = 7;
    PlnSqpResult r;
    double x[2] = {-1.2, 1.0};
    ck_assert_int_eq(pln_sqp_minimize(&p, &o, x, &r), PLN_SQP_MAXEVAL);
    ck_assert_int_eq(r.evaluations, 7);
    StopAfter s = {0, 4, 0};
    p.f = stopping_f, p.f_data = &s, p.stop = &s.flag;
    o.max_evals = 0;
    x[0] = -1.2, x[1] = 1.0;
    ck_assert_int_eq(pln_sqp_minimize(&p, &o, x, &r), PLN_SQP_FORCED);
    ck_assert_int_eq(r.evaluations, 4);
    ck_assert(x[0] >= lb[0] && x[0] <= ub[0] && x[1] >= lb[1] && x[1] <= ub[1]);
}
END_TEST

START_TEST(test_bad_input)
{
    double lb[2] = {0, 1}, ub[2] = {1, 0}, x[2] = {0.5, 0.5};
    PlnSqpProblem p;
    memset(&p, 0, sizeof p);
    p.n = 2, p.lb = lb, p.ub = ub, p.f = rosen_f;
    ck_assert_int_eq(pln_sqp_minimize(&p, NULL, x, NULL), PLN_SQP_BAD_INPUT); /* lb > ub */
    ub[1] = 2.0;
    x[0] = NAN;
    ck_assert_int_eq(pln_sqp_minimize(&p, NULL, x, NULL), PLN_SQP_BAD_INPUT); /* NaN start */
    x[0] = 0.5;
    p.n = 0;
    ck_assert_int_eq(pln_sqp_minimize(&p, NULL, x, NULL), PLN_SQP_BAD_INPUT);
    p.n = 2, p.n_sets = 1, p.sets[0].m = 1, p.sets[0].fn = NULL;
    ck_assert_int_eq(pln_sqp_minimize(&p, NULL, x, NULL), PLN_SQP_BAD_INPUT); /* rows without a callback */
    ck_assert_int_eq(pln_sqp_minimize(NULL, NULL, x, NULL), PLN_SQP_BAD_INPUT);
}
END_TEST

Suite *pln_sqp_suite(void)
{
    Suite *s = suite_create("pln_sqp");
    TCase *tc = tcase_create("known_solutions");
    tcase_add_test(tc, test_hs71);
    tcase_add_test(tc, test_rosenbrock_disc);
    tcase_add_test(tc, test_maratos_corrected);
    tcase_add_test(tc, test_quadratic_one_step);
    tcase_add_test(tc, test_elastic_start);
    tcase_add_test(tc, test_penalty_weights_raised);
    tcase_add_test(tc, test_regularised_model);
    suite_add_tcase(s, tc);
    tc = tcase_create("control");
    tcase_add_test(tc, test_budget_and_stop);
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
