/* check_pln_qp.c — tests of planner/base/pln_qp.c (docs/math/qp.md sec. 6): random
 * strictly convex QPs checked by their KKT conditions, small ones against a brute-force
 * enumeration of active sets, the degenerate cases of the dual active-set method,
 * infeasible and bad input, and badly scaled rows. Random problems come from a seeded
 * xorshift generator, so every run checks the same problems. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/pln_qp.h"

/* sizes of the random problems */
#define QP_TEST_N_MAX 40
#define QP_TEST_M_MAX 80
#define QP_TEST_RANDOM_COUNT 300
#define QP_TEST_BRUTE_N 4
#define QP_TEST_BRUTE_M 6
#define QP_TEST_BRUTE_COUNT 400

/* tolerances of the assertions: relative to the scale of each quantity */
#define QP_TEST_FEAS_TOL 1e-8      /* primal feasibility, times the row's scale */
#define QP_TEST_DUAL_TOL 1e-12     /* multipliers >= -this */
#define QP_TEST_COMPL_TOL 1e-7     /* |lambda_i s_i| <= this times (1 + lambda_i) times the row's scale */
#define QP_TEST_STAT_TOL 1e-8      /* |G d + g + A^T lambda - mu_lb + mu_ub|_inf, times its terms' scale */
#define QP_TEST_OBJ_TOL 1e-8       /* objectives agree to this times (1 + |f|) */
#define QP_TEST_PIVOT_TOL 1e-11    /* brute force: a smaller pivot is a singular KKT system */
#define QP_TEST_BRUTE_FEAS 1e-9    /* brute force: a candidate is feasible within this */
#define QP_TEST_SCALE_TOL 1e-7     /* badly scaled rows: d agrees to this times (1 + |d|) */
#define QP_TEST_EXACT_TOL 1e-12    /* hand-made problems with a known answer */

#define QP_TEST_SMALL_SCALE 1e-6
#define QP_TEST_LARGE_SCALE 1e6

/* xorshift64 (Marsaglia 2003): the deterministic generator of the random problems */
typedef struct QpRng {
    unsigned long long s;
} QpRng;

static double rng_uniform(QpRng *g, double lo, double hi)
{
    g->s ^= g->s << 13;
    g->s ^= g->s >> 7;
    g->s ^= g->s << 17;
    return lo + (hi - lo) * (double)(g->s >> 11) * (1.0 / 9007199254740992.0);
}

static int rng_int(QpRng *g, int lo, int hi)
{
    int v = lo + (int)(rng_uniform(g, 0.0, 1.0) * (double)(hi - lo + 1));
    return v > hi ? hi : v;
}

/* one random problem and its storage */
typedef struct QpCase {
    int n, m;
    double L[QP_TEST_N_MAX * QP_TEST_N_MAX], G[QP_TEST_N_MAX * QP_TEST_N_MAX];
    double g[QP_TEST_N_MAX], A[QP_TEST_M_MAX * QP_TEST_N_MAX], b[QP_TEST_M_MAX];
    double lb[QP_TEST_N_MAX], ub[QP_TEST_N_MAX];
    int has_bounds;
    double d[QP_TEST_N_MAX], lambda[QP_TEST_M_MAX], mu_lb[QP_TEST_N_MAX], mu_ub[QP_TEST_N_MAX];
} QpCase;

/* G = L L^T of the case */
static void case_form_g(QpCase *c)
{
    int n = c->n, i, j, k;
    for (i = 0; i < n; ++i) {
        for (j = 0; j < n; ++j) {
            double s = 0.0;
            for (k = 0; k <= (i < j ? i : j); ++k) s += c->L[i * n + k] * c->L[j * n + k];
            c->G[i * n + j] = s;
        }
    }
}

/* a random strictly convex problem, feasible by construction around a point x0: some rows
 * pass through x0 (active candidates), the others leave slack; bounds, when asked, hold x0
 * with some of them infinite */
static void case_random(QpCase *c, QpRng *rng, int n, int m, int bounds)
{
    double x0[QP_TEST_N_MAX];
    int i, j;
    memset(c, 0, sizeof *c);
    c->n = n;
    c->m = m;
    c->has_bounds = bounds;
    for (i = 0; i < n; ++i) {
        for (j = 0; j < i; ++j) c->L[i * n + j] = rng_uniform(rng, -0.5, 0.5);
        c->L[i * n + i] = rng_uniform(rng, 0.5, 2.0);
        c->g[i] = rng_uniform(rng, -5.0, 5.0);
        x0[i] = rng_uniform(rng, -1.0, 1.0);
    }
    case_form_g(c);
    for (i = 0; i < m; ++i) {
        double ax = 0.0;
        for (j = 0; j < n; ++j) {
            c->A[i * n + j] = rng_uniform(rng, -1.0, 1.0);
            ax += c->A[i * n + j] * x0[j];
        }
        c->b[i] = ax + (rng_uniform(rng, 0.0, 1.0) < 0.3 ? 0.0 : rng_uniform(rng, 0.0, 2.0));
    }
    for (i = 0; i < n; ++i) {
        c->lb[i] = rng_uniform(rng, 0.0, 1.0) < 0.2 ? -INFINITY : x0[i] - rng_uniform(rng, 0.0, 1.0);
        c->ub[i] = rng_uniform(rng, 0.0, 1.0) < 0.2 ? INFINITY : x0[i] + rng_uniform(rng, 0.0, 1.0);
    }
}

static PlnQpProblem case_problem(const QpCase *c)
{
    PlnQpProblem p;
    memset(&p, 0, sizeof p);
    p.n = c->n;
    p.m = c->m;
    p.L = c->L;
    p.g = c->g;
    p.A = c->m > 0 ? c->A : NULL;
    p.b = c->m > 0 ? c->b : NULL;
    p.lb = c->has_bounds ? c->lb : NULL;
    p.ub = c->has_bounds ? c->ub : NULL;
    return p;
}

static PlnQpStatus case_solve(QpCase *c, PlnQpWork *w, PlnQpResult *r)
{
    PlnQpProblem p = case_problem(c);
    return pln_qp_solve(&p, w, c->d, c->lambda, c->mu_lb, c->mu_ub, r);
}

static double case_objective(const QpCase *c, const double *d)
{
    int n = c->n, i, j;
    double f = 0.0;
    for (i = 0; i < n; ++i) {
        f += c->g[i] * d[i];
        for (j = 0; j < n; ++j) f += 0.5 * d[i] * c->G[i * n + j] * d[j];
    }
    return f;
}

/* the KKT conditions of the case's answer: primal and dual feasibility, complementarity,
 * stationarity, each relative to its scale */
static void case_check_kkt(const QpCase *c, const PlnQpResult *r)
{
    int n = c->n, m = c->m, i, j;
    double dinf = 0.0, res[QP_TEST_N_MAX], scale[QP_TEST_N_MAX];
    for (i = 0; i < n; ++i) dinf = fmax(dinf, fabs(c->d[i]));
    for (i = 0; i < n; ++i) {
        res[i] = c->g[i];
        scale[i] = 1.0 + fabs(c->g[i]);
        for (j = 0; j < n; ++j) {
            res[i] += c->G[i * n + j] * c->d[j];
            scale[i] += fabs(c->G[i * n + j] * c->d[j]);
        }
    }
    for (i = 0; i < m; ++i) {
        double ad = 0.0, an = 0.0, s, rs;
        for (j = 0; j < n; ++j) {
            ad += c->A[i * n + j] * c->d[j];
            an += fabs(c->A[i * n + j]);
            res[j] += c->A[i * n + j] * c->lambda[i];
            scale[j] += fabs(c->A[i * n + j] * c->lambda[i]);
        }
        s = ad - c->b[i];
        rs = 1.0 + an * dinf + fabs(c->b[i]);
        ck_assert_msg(s <= QP_TEST_FEAS_TOL * rs, "n=%d m=%d row %d violated by %g", n, m, i, s);
        ck_assert_msg(c->lambda[i] >= -QP_TEST_DUAL_TOL, "row %d: lambda %g", i, c->lambda[i]);
        ck_assert_msg(fabs(c->lambda[i] * s) <= QP_TEST_COMPL_TOL * (1.0 + c->lambda[i]) * rs,
                      "row %d: lambda %g, slack %g", i, c->lambda[i], s);
    }
    for (i = 0; i < n; ++i) {
        res[i] += c->mu_ub[i] - c->mu_lb[i];
        scale[i] += c->mu_ub[i] + c->mu_lb[i];
        ck_assert_msg(fabs(res[i]) <= QP_TEST_STAT_TOL * scale[i], "n=%d m=%d stationarity %d: %g",
                      n, m, i, res[i]);
        ck_assert(c->mu_lb[i] >= -QP_TEST_DUAL_TOL && c->mu_ub[i] >= -QP_TEST_DUAL_TOL);
        if (c->has_bounds) {
            double rs = 1.0 + dinf;
            if (isfinite(c->lb[i])) {
                ck_assert_msg(c->lb[i] - c->d[i] <= QP_TEST_FEAS_TOL * (rs + fabs(c->lb[i])),
                              "lower bound %d violated", i);
                ck_assert(fabs(c->mu_lb[i] * (c->d[i] - c->lb[i])) <=
                          QP_TEST_COMPL_TOL * (1.0 + c->mu_lb[i]) * (rs + fabs(c->lb[i])));
            } else {
                ck_assert(c->mu_lb[i] == 0.0);
            }
            if (isfinite(c->ub[i])) {
                ck_assert_msg(c->d[i] - c->ub[i] <= QP_TEST_FEAS_TOL * (rs + fabs(c->ub[i])),
                              "upper bound %d violated", i);
                ck_assert(fabs(c->mu_ub[i] * (c->ub[i] - c->d[i])) <=
                          QP_TEST_COMPL_TOL * (1.0 + c->mu_ub[i]) * (rs + fabs(c->ub[i])));
            } else {
                ck_assert(c->mu_ub[i] == 0.0);
            }
        } else {
            ck_assert(c->mu_lb[i] == 0.0 && c->mu_ub[i] == 0.0);
        }
    }
    ck_assert(fabs(r->objective - case_objective(c, c->d)) <=
              QP_TEST_OBJ_TOL * (1.0 + fabs(r->objective)));
}

/* random problems, n 1..40, m 0..80, with and without bounds: the KKT conditions hold */
START_TEST(test_random_kkt)
{
    static QpCase c;
    QpRng rng = {0x9e3779b97f4a7c15ULL};
    PlnQpWork *w = pln_qp_work_create(QP_TEST_N_MAX, QP_TEST_M_MAX);
    int k, solved_active = 0, dropped = 0;
    ck_assert_ptr_nonnull(w);
    for (k = 0; k < QP_TEST_RANDOM_COUNT; ++k) {
        PlnQpResult r;
        int n = rng_int(&rng, 1, QP_TEST_N_MAX), m = rng_int(&rng, 0, QP_TEST_M_MAX);
        case_random(&c, &rng, n, m, k % 2);
        ck_assert_int_eq(case_solve(&c, w, &r), PLN_QP_OK);
        ck_assert_int_eq(r.status, PLN_QP_OK);
        case_check_kkt(&c, &r);
        if (r.n_active > 0) ++solved_active;
        /* more changes than active constraints: some were dropped (partial steps) */
        if (r.iterations > r.n_active) ++dropped;
    }
    /* the problems exercised the active set, adding and dropping */
    ck_assert_int_gt(solved_active, QP_TEST_RANDOM_COUNT / 2);
    ck_assert_int_gt(dropped, 0);
    pln_qp_work_destroy(w);
}
END_TEST

/* The warm start (PlnQpProblem.start, docs/math/qp.md sec. 7): on the random problems, the
 * cold answer's active set given as the start (exact), the same with a third left out and
 * as many other constraints put in (inactive rows, bounds, infinite bounds, repeats and
 * out-of-range numbers among them), and a start with only wrong entries: every answer meets
 * the KKT conditions and has the cold answer's objective; with the exact start, all of it
 * is active before the cold-start loop and no more changes are made than cold. */
START_TEST(test_warm_start)
{
    static QpCase c;
    static double d_cold[QP_TEST_N_MAX];
    QpRng rng = {0x5eedULL};
    PlnQpWork *w = pln_qp_work_create(QP_TEST_N_MAX, QP_TEST_M_MAX);
    int start[2 * (QP_TEST_M_MAX + 2 * QP_TEST_N_MAX) + 8], warmed = 0, fewer = 0;
    ck_assert_ptr_nonnull(w);
    for (int k = 0; k < QP_TEST_RANDOM_COUNT; ++k) {
        PlnQpResult cold, r;
        int n = rng_int(&rng, 1, QP_TEST_N_MAX), m = rng_int(&rng, 0, QP_TEST_M_MAX), ns = 0;
        case_random(&c, &rng, n, m, k % 2);
        ck_assert_int_eq(case_solve(&c, w, &cold), PLN_QP_OK);
        memcpy(d_cold, c.d, (size_t)n * sizeof(double));
        double f_cold = cold.objective;
        for (int variant = 0; variant < 3; ++variant) {
            PlnQpProblem p = case_problem(&c);
            ns = 0;
            if (variant < 2) {
                for (int i = 0; i < m; ++i) {
                    if (c.lambda[i] > 0.0 && (variant == 0 || rng_int(&rng, 0, 2) > 0)) start[ns++] = i;
                }
                for (int i = 0; i < n; ++i) {
                    if (c.mu_ub[i] > 0.0 && (variant == 0 || rng_int(&rng, 0, 2) > 0)) start[ns++] = m + i;
                    if (c.mu_lb[i] > 0.0 && (variant == 0 || rng_int(&rng, 0, 2) > 0)) start[ns++] = m + n + i;
                }
            }
            if (variant > 0) {
                int extra = 1 + rng_int(&rng, 0, n);
                for (int e = 0; e < extra; ++e) start[ns++] = rng_int(&rng, 0, m + 2 * n - 1);
                start[ns++] = -3;
                start[ns++] = m + 2 * n + 5;
                if (ns > 0) start[ns] = start[0], ++ns; /* a repeat */
            }
            p.start = start;
            p.n_start = ns;
            ck_assert_int_eq(pln_qp_solve(&p, w, c.d, c.lambda, c.mu_lb, c.mu_ub, &r), PLN_QP_OK);
            case_check_kkt(&c, &r);
            ck_assert_msg(fabs(r.objective - f_cold) <= QP_TEST_OBJ_TOL * (1.0 + fabs(f_cold)),
                          "problem %d start %d: objective %.17g, cold %.17g", k, variant, r.objective, f_cold);
            if (variant == 0) {
                ck_assert_int_eq(r.started, ns);
                warmed += r.started > 0;
                ck_assert_int_le(r.iterations, cold.iterations);
                fewer += r.iterations < cold.iterations;
                for (int i = 0; i < n; ++i) {
                    ck_assert(fabs(c.d[i] - d_cold[i]) <= QP_TEST_SCALE_TOL * (1.0 + fabs(d_cold[i])));
                }
            }
        }
        /* back to the cold answer's multipliers for the next variant's start */
        ck_assert_int_eq(case_solve(&c, w, &cold), PLN_QP_OK);
    }
    ck_assert_int_gt(warmed, QP_TEST_RANDOM_COUNT / 2);
    ck_assert_int_gt(fewer, 0);
    pln_qp_work_destroy(w);
}
END_TEST

/* Reusing the last solve's factors (PlnQpProblem.same_matrices), as a second-order
 * correction does: on the random problems, b shifted (some rows loosened, some tightened:
 * the last active set then partly wrong) and solved with same_matrices: the answer meets
 * the KKT conditions with the cold answer's objective; the factors were reused after every
 * ok solve of the same sizes, and not after a change of size, an infinite bound that was
 * active, or a failed solve. */
START_TEST(test_same_matrices)
{
    static QpCase c, c2;
    QpRng rng = {0x5a3eULL};
    PlnQpWork *w = pln_qp_work_create(QP_TEST_N_MAX, QP_TEST_M_MAX);
    int reused = 0, bound_cases = 0;
    ck_assert_ptr_nonnull(w);
    for (int k = 0; k < QP_TEST_RANDOM_COUNT; ++k) {
        PlnQpResult r, cold;
        int n = rng_int(&rng, 1, QP_TEST_N_MAX), m = rng_int(&rng, 0, QP_TEST_M_MAX);
        case_random(&c, &rng, n, m, k % 2);
        ck_assert_int_eq(case_solve(&c, w, &r), PLN_QP_OK);
        ck_assert_int_eq(r.reused, 0);
        /* the shifted problem, cold in a workspace of its own for the reference */
        c2 = c;
        for (int i = 0; i < m; ++i) c2.b[i] += rng_uniform(&rng, -0.3, 0.3);
        {
            PlnQpWork *w2 = pln_qp_work_create(QP_TEST_N_MAX, QP_TEST_M_MAX);
            PlnQpStatus st2 = case_solve(&c2, w2, &cold);
            pln_qp_work_destroy(w2);
            if (st2 != PLN_QP_OK) continue; /* the shift made it infeasible */
        }
        PlnQpProblem p = case_problem(&c2);
        p.same_matrices = 1;
        ck_assert_int_eq(pln_qp_solve(&p, w, c2.d, c2.lambda, c2.mu_lb, c2.mu_ub, &r), PLN_QP_OK);
        ck_assert_int_eq(r.reused, 1);
        reused += r.reused;
        case_check_kkt(&c2, &r);
        ck_assert_msg(fabs(r.objective - cold.objective) <= QP_TEST_OBJ_TOL * (1.0 + fabs(cold.objective)),
                      "problem %d: objective %.17g, cold %.17g", k, r.objective, cold.objective);
        /* an active bound made infinite: not reused, the same answer as cold */
        if (c2.has_bounds) {
            for (int i = 0; i < n; ++i) {
                if (c2.mu_ub[i] > 0.0) {
                    c2.ub[i] = INFINITY;
                    p = case_problem(&c2);
                    p.same_matrices = 1;
                    ck_assert_int_eq(pln_qp_solve(&p, w, c2.d, c2.lambda, c2.mu_lb, c2.mu_ub, &r), PLN_QP_OK);
                    ck_assert_int_eq(r.reused, 0);
                    case_check_kkt(&c2, &r);
                    ++bound_cases;
                    break;
                }
            }
        }
    }
    ck_assert_int_gt(reused, QP_TEST_RANDOM_COUNT / 2);
    ck_assert_int_gt(bound_cases, 10);
    /* sizes changed: not reused */
    case_random(&c, &rng, 5, 4, 0);
    ck_assert_int_eq(case_solve(&c, w, NULL), PLN_QP_OK);
    case_random(&c2, &rng, 6, 4, 0);
    {
        PlnQpResult r;
        PlnQpProblem p = case_problem(&c2);
        p.same_matrices = 1;
        ck_assert_int_eq(pln_qp_solve(&p, w, c2.d, c2.lambda, c2.mu_lb, c2.mu_ub, &r), PLN_QP_OK);
        ck_assert_int_eq(r.reused, 0);
        case_check_kkt(&c2, &r);
    }
    /* after a failed solve (contradictory rows d_0 <= -1, -d_0 <= -1): not reused */
    {
        double L[1] = {1.0}, g[1] = {0.0}, A[2] = {1.0, -1.0}, b[2] = {-1.0, -1.0}, d[1], lam[2];
        PlnQpProblem p = {1, 2, L, g, A, b, NULL, NULL, 0, NULL, 0, 0};
        PlnQpResult r;
        ck_assert_int_eq(pln_qp_solve(&p, w, d, lam, NULL, NULL, &r), PLN_QP_INFEASIBLE);
        b[1] = 3.0;
        p.same_matrices = 1;
        ck_assert_int_eq(pln_qp_solve(&p, w, d, lam, NULL, NULL, &r), PLN_QP_OK);
        ck_assert_int_eq(r.reused, 0);
        ck_assert(fabs(d[0] + 1.0) < 1e-12);
    }
    pln_qp_work_destroy(w);
}
END_TEST

/* The warm start by one factorisation (eq. QP16) and its fallback: min 1/2 |d|^2 - (2, 2) d
 * with d_0 <= 1 (rows 0 and 1, the same) and d_1 <= 1 (row 2), answer (1, 1). Listed {0, 2}:
 * both active at once (blocked), the answer with lambda = (1, 0, 1) and no step left. Listed
 * {0, 1, 2} (QP16 takes the first n = 2): row 1 depends on row 0, QP16 gives up and QP14
 * adds 0 and 2, skipping 1: the
 * same answer, not blocked. And on the random problems of `warm_start`, listing the cold
 * answer's active set (independent normals) is blocked whenever it has two or more. */
START_TEST(test_warm_start_blocked)
{
    double L[4] = {1.0, 0.0, 0.0, 1.0}, g[2] = {-2.0, -2.0}, A[6] = {1.0, 0.0, 1.0, 0.0, 0.0, 1.0};
    double b[3] = {1.0, 1.0, 1.0}, d[2], lambda[3], mu_lb[2], mu_ub[2];
    int lists[2][3] = {{0, 2, -1}, {0, 1, 2}};
    PlnQpWork *w = pln_qp_work_create(QP_TEST_N_MAX, QP_TEST_M_MAX);
    ck_assert_ptr_nonnull(w);
    PlnQpProblem p = {2, 3, L, g, A, b, NULL, NULL, 0, NULL, 0, 0};
    PlnQpResult r;
    for (int list = 0; list < 2; ++list) {
        p.start = lists[list];
        p.n_start = list == 0 ? 2 : 3;
        ck_assert_int_eq(pln_qp_solve(&p, w, d, lambda, mu_lb, mu_ub, &r), PLN_QP_OK);
        int want_blocked = list == 0;
        ck_assert_int_eq(r.blocked, want_blocked);
        ck_assert_int_eq(r.started, 2);
        ck_assert_int_eq(r.iterations, 2);
        ck_assert_msg(fabs(d[0] - 1.0) < 1e-14 && fabs(d[1] - 1.0) < 1e-14, "list %d: d %.17g %.17g", list, d[0],
                      d[1]);
        ck_assert_msg(fabs(lambda[0] - 1.0) < 1e-14 && lambda[1] == 0.0 && fabs(lambda[2] - 1.0) < 1e-14,
                      "list %d: lambda %.17g %.17g %.17g", list, lambda[0], lambda[1], lambda[2]);
    }
    /* random problems: the cold active set listed */
    static QpCase c;
    QpRng rng = {0xb10cULL};
    int start_r[QP_TEST_M_MAX + 2 * QP_TEST_N_MAX], blocked = 0, listed2 = 0;
    for (int k = 0; k < QP_TEST_RANDOM_COUNT; ++k) {
        PlnQpResult cold;
        int n = rng_int(&rng, 1, QP_TEST_N_MAX), m = rng_int(&rng, 0, QP_TEST_M_MAX), ns = 0;
        case_random(&c, &rng, n, m, k % 2);
        ck_assert_int_eq(case_solve(&c, w, &cold), PLN_QP_OK);
        double f_cold = cold.objective;
        for (int i = 0; i < m; ++i) {
            if (c.lambda[i] > 0.0) start_r[ns++] = i;
        }
        for (int i = 0; i < n; ++i) {
            if (c.mu_ub[i] > 0.0) start_r[ns++] = m + i;
            if (c.mu_lb[i] > 0.0) start_r[ns++] = m + n + i;
        }
        PlnQpProblem pr = case_problem(&c);
        pr.start = start_r;
        pr.n_start = ns;
        ck_assert_int_eq(pln_qp_solve(&pr, w, c.d, c.lambda, c.mu_lb, c.mu_ub, &r), PLN_QP_OK);
        case_check_kkt(&c, &r);
        ck_assert_msg(fabs(r.objective - f_cold) <= QP_TEST_OBJ_TOL * (1.0 + fabs(f_cold)),
                      "problem %d: objective %.17g, cold %.17g", k, r.objective, f_cold);
        listed2 += ns >= 2;
        blocked += r.blocked;
        if (ns >= 2) ck_assert_msg(r.blocked, "problem %d: %d independent normals listed, not blocked", k, ns);
    }
    ck_assert_int_gt(listed2, QP_TEST_RANDOM_COUNT / 4);
    ck_assert_int_eq(blocked, listed2);
    pln_qp_work_destroy(w);
}
END_TEST

/* The warm start's drops (eq. QP15): min 1/2 |d|^2 - (1, 1) d subject to d_0 <= 1/2 and
 * d_1 <= 5, started from both rows, the inactive one listed first: held as equalities, d_1 = 5
 * takes the multiplier -4 and leaves, and the rest solved for afresh is the answer (1/2, 1)
 * with lambda = (1/2, 0), one constraint active when the cold-start loop begins and no step
 * left for it (two equality steps and one drop). A start of only the inactive row ends with
 * nothing active (d0 = (1, 1), then the cold loop adds row 0). */
START_TEST(test_warm_start_drops)
{
    double L[4] = {1.0, 0.0, 0.0, 1.0}, g[2] = {-1.0, -1.0}, A[4] = {1.0, 0.0, 0.0, 1.0}, b[2] = {0.5, 5.0};
    double d[2], lambda[2], mu_lb[2], mu_ub[2];
    int start[2] = {1, 0};
    PlnQpWork *w = pln_qp_work_create(2, 2);
    ck_assert_ptr_nonnull(w);
    PlnQpProblem p = {2, 2, L, g, A, b, NULL, NULL, 0, start, 2, 0};
    PlnQpResult r;
    ck_assert_int_eq(pln_qp_solve(&p, w, d, lambda, mu_lb, mu_ub, &r), PLN_QP_OK);
    ck_assert_int_eq(r.started, 1);
    ck_assert_int_eq(r.iterations, 3);
    ck_assert_msg(fabs(d[0] - 0.5) < 1e-15 && fabs(d[1] - 1.0) < 1e-15, "d %.17g %.17g", d[0], d[1]);
    ck_assert_msg(fabs(lambda[0] - 0.5) < 1e-15 && lambda[1] == 0.0, "lambda %.17g %.17g", lambda[0], lambda[1]);
    p.n_start = 1; /* row 1 alone */
    ck_assert_int_eq(pln_qp_solve(&p, w, d, lambda, mu_lb, mu_ub, &r), PLN_QP_OK);
    ck_assert_int_eq(r.started, 0);
    ck_assert_msg(fabs(d[0] - 0.5) < 1e-15 && fabs(d[1] - 1.0) < 1e-15, "d %.17g %.17g", d[0], d[1]);
    pln_qp_work_destroy(w);
}
END_TEST

/* Gaussian elimination with partial pivoting on the k x k system M x = rhs (in place);
 * 0 when a pivot is below QP_TEST_PIVOT_TOL times the largest entry */
static int dense_solve(double *M, double *rhs, int k)
{
    int i, j, col, piv;
    double big = 0.0;
    for (i = 0; i < k * k; ++i) big = fmax(big, fabs(M[i]));
    for (col = 0; col < k; ++col) {
        piv = col;
        for (i = col + 1; i < k; ++i) {
            if (fabs(M[i * k + col]) > fabs(M[piv * k + col])) piv = i;
        }
        if (fabs(M[piv * k + col]) <= QP_TEST_PIVOT_TOL * big) return 0;
        if (piv != col) {
            for (j = 0; j < k; ++j) {
                double t = M[col * k + j];
                M[col * k + j] = M[piv * k + j];
                M[piv * k + j] = t;
            }
            double t = rhs[col];
            rhs[col] = rhs[piv];
            rhs[piv] = t;
        }
        for (i = col + 1; i < k; ++i) {
            double f = M[i * k + col] / M[col * k + col];
            for (j = col; j < k; ++j) M[i * k + j] -= f * M[col * k + j];
            rhs[i] -= f * rhs[col];
        }
    }
    for (i = k - 1; i >= 0; --i) {
        double s = rhs[i];
        for (j = i + 1; j < k; ++j) s -= M[i * k + j] * rhs[j];
        rhs[i] = s / M[i * k + i];
    }
    return 1;
}

/* the least objective over every active set (rows and finite bounds taken as rows): each
 * set's equality-constrained minimiser, when feasible, is a candidate; -1 if none */
static double brute_force(const QpCase *c, double *best_d)
{
    enum { MAXC = QP_TEST_BRUTE_M + 2 * QP_TEST_BRUTE_N };
    double rows[MAXC][QP_TEST_BRUTE_N], rb[MAXC];
    int nc = 0, n = c->n, i, j, set;
    double best = INFINITY;
    for (i = 0; i < c->m; ++i) {
        for (j = 0; j < n; ++j) rows[nc][j] = c->A[i * n + j];
        rb[nc++] = c->b[i];
    }
    if (c->has_bounds) {
        for (i = 0; i < n; ++i) {
            if (isfinite(c->ub[i])) {
                for (j = 0; j < n; ++j) rows[nc][j] = i == j ? 1.0 : 0.0;
                rb[nc++] = c->ub[i];
            }
            if (isfinite(c->lb[i])) {
                for (j = 0; j < n; ++j) rows[nc][j] = i == j ? -1.0 : 0.0;
                rb[nc++] = -c->lb[i];
            }
        }
    }
    for (set = 0; set < (1 << nc); ++set) {
        int idx[MAXC], k = 0, dim, feasible = 1;
        double M[(QP_TEST_BRUTE_N + MAXC) * (QP_TEST_BRUTE_N + MAXC)], x[QP_TEST_BRUTE_N + MAXC];
        for (i = 0; i < nc; ++i) {
            if (set & (1 << i)) idx[k++] = i;
        }
        if (k > n) continue;
        dim = n + k;
        memset(M, 0, sizeof M);
        for (i = 0; i < n; ++i) {
            for (j = 0; j < n; ++j) M[i * dim + j] = c->G[i * n + j];
            x[i] = -c->g[i];
        }
        for (i = 0; i < k; ++i) {
            for (j = 0; j < n; ++j) {
                M[(n + i) * dim + j] = rows[idx[i]][j];
                M[j * dim + n + i] = rows[idx[i]][j];
            }
            x[n + i] = rb[idx[i]];
        }
        if (!dense_solve(M, x, dim)) continue;
        for (i = 0; i < nc && feasible; ++i) {
            double s = -rb[i];
            for (j = 0; j < n; ++j) s += rows[i][j] * x[j];
            if (s > QP_TEST_BRUTE_FEAS * (1.0 + fabs(rb[i]))) feasible = 0;
        }
        if (feasible) {
            double f = case_objective(c, x);
            if (f < best) {
                best = f;
                memcpy(best_d, x, (size_t)n * sizeof(double));
            }
        }
    }
    return best;
}

/* small problems (n <= 4, m <= 6): the objective is the brute-force optimum */
START_TEST(test_brute_force)
{
    static QpCase c;
    QpRng rng = {0x243f6a8885a308d3ULL};
    PlnQpWork *w = pln_qp_work_create(QP_TEST_BRUTE_N, QP_TEST_BRUTE_M);
    int k;
    ck_assert_ptr_nonnull(w);
    for (k = 0; k < QP_TEST_BRUTE_COUNT; ++k) {
        PlnQpResult r;
        double bd[QP_TEST_BRUTE_N], best;
        int n = rng_int(&rng, 1, QP_TEST_BRUTE_N), m = rng_int(&rng, 0, QP_TEST_BRUTE_M);
        case_random(&c, &rng, n, m, k % 3 == 0);
        ck_assert_int_eq(case_solve(&c, w, &r), PLN_QP_OK);
        best = brute_force(&c, bd);
        ck_assert(isfinite(best));
        ck_assert_msg(fabs(r.objective - best) <= QP_TEST_OBJ_TOL * (1.0 + fabs(best)),
                      "case %d n=%d m=%d: %.15g vs brute force %.15g", k, n, m, r.objective, best);
    }
    pln_qp_work_destroy(w);
}
END_TEST

/* a 2-D problem min 1/2 |d - target|^2 (L = I, g = -target) with the given rows */
static PlnQpStatus solve_2d(const double *target, int m, const double *A, const double *b,
                            const double *lb, const double *ub, double *d, double *lambda,
                            PlnQpResult *r)
{
    static const double eye[4] = {1.0, 0.0, 0.0, 1.0};
    double g[2] = {-target[0], -target[1]}, mlb[2], mub[2];
    PlnQpProblem p;
    PlnQpWork *w = pln_qp_work_create(2, 8);
    PlnQpStatus s;
    memset(&p, 0, sizeof p);
    p.n = 2;
    p.m = m;
    p.L = eye;
    p.g = g;
    p.A = A;
    p.b = b;
    p.lb = lb;
    p.ub = ub;
    s = pln_qp_solve(&p, w, d, lambda, mlb, mub, r);
    pln_qp_work_destroy(w);
    return s;
}

/* degenerate cases: each has a known answer */
START_TEST(test_degenerate)
{
    double d[2], lam[8];
    PlnQpResult r;
    /* duplicated rows: d1 <= 1 twice, target (3, 0) -> (1, 0), one of them active */
    {
        const double t[2] = {3.0, 0.0}, A[4] = {1.0, 0.0, 1.0, 0.0}, b[2] = {1.0, 1.0};
        ck_assert_int_eq(solve_2d(t, 2, A, b, NULL, NULL, d, lam, &r), PLN_QP_OK);
        ck_assert(fabs(d[0] - 1.0) <= QP_TEST_EXACT_TOL && fabs(d[1]) <= QP_TEST_EXACT_TOL);
        ck_assert(fabs(lam[0] + lam[1] - 2.0) <= QP_TEST_EXACT_TOL);
        ck_assert_int_eq(r.n_active, 1);
    }
    /* three lines through the origin, target (-3, 1) far off in the corner they make:
     * d1 <= 0... written as -d1 - d2 <= 0, -d1 + d2 <= 0 and -d1 <= 0: answer (0, 0) */
    {
        const double t[2] = {-3.0, 1.0};
        const double A[6] = {-1.0, -1.0, -1.0, 1.0, -1.0, 0.0}, b[3] = {0.0, 0.0, 0.0};
        ck_assert_int_eq(solve_2d(t, 3, A, b, NULL, NULL, d, lam, &r), PLN_QP_OK);
        ck_assert(fabs(d[0]) <= QP_TEST_EXACT_TOL && fabs(d[1]) <= QP_TEST_EXACT_TOL);
        /* stationarity: d - t + A^T lambda = 0 */
        ck_assert(fabs(d[0] - t[0] - lam[0] - lam[1] - lam[2]) <= QP_TEST_EXACT_TOL);
        ck_assert(fabs(d[1] - t[1] - lam[0] + lam[1]) <= QP_TEST_EXACT_TOL);
        ck_assert(r.n_active <= 2);
    }
    /* a row of zeros with b >= 0 is never violated */
    {
        const double t[2] = {3.0, -2.0}, A[2] = {0.0, 0.0}, b[1] = {0.0};
        ck_assert_int_eq(solve_2d(t, 1, A, b, NULL, NULL, d, lam, &r), PLN_QP_OK);
        ck_assert(fabs(d[0] - 3.0) <= QP_TEST_EXACT_TOL && fabs(d[1] + 2.0) <= QP_TEST_EXACT_TOL);
        ck_assert_int_eq(r.iterations, 0);
    }
    /* ... and with b < 0 it admits no point */
    {
        const double t[2] = {3.0, -2.0}, A[4] = {1.0, 0.0, 0.0, 0.0}, b[2] = {1.0, -1.0};
        ck_assert_int_eq(solve_2d(t, 2, A, b, NULL, NULL, d, lam, &r), PLN_QP_INFEASIBLE);
        ck_assert_int_eq(r.status, PLN_QP_INFEASIBLE);
    }
    /* an equality as two opposite inequalities: d1 + d2 = 1, target (0, 0) -> (1/2, 1/2) */
    {
        const double t[2] = {0.0, 0.0}, A[4] = {1.0, 1.0, -1.0, -1.0}, b[2] = {1.0, -1.0};
        ck_assert_int_eq(solve_2d(t, 2, A, b, NULL, NULL, d, lam, &r), PLN_QP_OK);
        ck_assert(fabs(d[0] - 0.5) <= QP_TEST_EXACT_TOL && fabs(d[1] - 0.5) <= QP_TEST_EXACT_TOL);
        ck_assert(fabs(lam[1] - lam[0] - 0.5) <= QP_TEST_EXACT_TOL);
    }
    /* lb == ub fixes a variable: d2 = 0.25 */
    {
        const double t[2] = {1.0, 2.0}, lb[2] = {-INFINITY, 0.25}, ub[2] = {INFINITY, 0.25};
        ck_assert_int_eq(solve_2d(t, 0, NULL, NULL, lb, ub, d, lam, &r), PLN_QP_OK);
        ck_assert(fabs(d[0] - 1.0) <= QP_TEST_EXACT_TOL && fabs(d[1] - 0.25) <= QP_TEST_EXACT_TOL);
        ck_assert_int_eq(r.n_active, 1);
    }
    /* unconstrained: m = 0, no bounds: d = target */
    {
        const double t[2] = {-4.0, 7.0};
        ck_assert_int_eq(solve_2d(t, 0, NULL, NULL, NULL, NULL, d, lam, &r), PLN_QP_OK);
        ck_assert(fabs(d[0] + 4.0) <= QP_TEST_EXACT_TOL && fabs(d[1] - 7.0) <= QP_TEST_EXACT_TOL);
        ck_assert_int_eq(r.iterations, 0);
        ck_assert(r.max_violation == 0.0);
        ck_assert(fabs(r.objective + 0.5 * (16.0 + 49.0)) <= QP_TEST_EXACT_TOL);
    }
    /* the unconstrained minimum already feasible: 0 iterations, no active constraint */
    {
        const double t[2] = {0.5, 0.5}, A[2] = {1.0, 1.0}, b[1] = {2.0};
        const double lb[2] = {0.0, 0.0}, ub[2] = {1.0, 1.0};
        ck_assert_int_eq(solve_2d(t, 1, A, b, lb, ub, d, lam, &r), PLN_QP_OK);
        ck_assert_int_eq(r.iterations, 0);
        ck_assert_int_eq(r.n_active, 0);
        ck_assert(lam[0] == 0.0);
        ck_assert(fabs(r.max_violation + 0.5) <= QP_TEST_EXACT_TOL);
    }
}
END_TEST

/* contradictory rows: d1 <= -1 and -d1 <= -1 */
START_TEST(test_infeasible)
{
    const double t[2] = {0.0, 0.0}, A[4] = {1.0, 0.0, -1.0, 0.0}, b[2] = {-1.0, -1.0};
    const double lb[2] = {0.0, 0.0}, ub[2] = {1.0, 1.0};
    const double A2[2] = {1.0, 1.0}, b2[1] = {-1.0};
    double d[2], lam[2];
    PlnQpResult r;
    ck_assert_int_eq(solve_2d(t, 2, A, b, NULL, NULL, d, lam, &r), PLN_QP_INFEASIBLE);
    ck_assert_int_eq(r.status, PLN_QP_INFEASIBLE);
    ck_assert(r.max_violation > 0.0);
    /* a row against the bounds: d1 + d2 <= -1 with 0 <= d <= 1 */
    ck_assert_int_eq(solve_2d(t, 1, A2, b2, lb, ub, d, lam, &r), PLN_QP_INFEASIBLE);
    ck_assert_str_eq(pln_qp_status_string(PLN_QP_INFEASIBLE), "infeasible");
}
END_TEST

/* max_iter = 1 on a problem that needs two changes: PLN_QP_ITER_LIMIT, with the
 * iterate after one change */
START_TEST(test_iter_limit)
{
    static const double eye[4] = {1.0, 0.0, 0.0, 1.0};
    const double g[2] = {-3.0, -3.0}, A[4] = {1.0, 0.0, 0.0, 1.0}, b[2] = {1.0, 2.0};
    double d[2], lam[2];
    PlnQpProblem p;
    PlnQpResult r;
    PlnQpWork *w = pln_qp_work_create(2, 2);
    memset(&p, 0, sizeof p);
    p.n = 2;
    p.m = 2;
    p.L = eye;
    p.g = g;
    p.A = A;
    p.b = b;
    p.max_iter = 1;
    ck_assert_int_eq(pln_qp_solve(&p, w, d, lam, NULL, NULL, &r), PLN_QP_ITER_LIMIT);
    ck_assert_int_eq(r.iterations, 1);
    ck_assert(r.max_violation > 0.0);
    p.max_iter = 0;
    ck_assert_int_eq(pln_qp_solve(&p, w, d, lam, NULL, NULL, &r), PLN_QP_OK);
    ck_assert_int_eq(r.iterations, 2);
    ck_assert(fabs(d[0] - 1.0) <= QP_TEST_EXACT_TOL && fabs(d[1] - 2.0) <= QP_TEST_EXACT_TOL);
    ck_assert(fabs(lam[0] - 2.0) <= QP_TEST_EXACT_TOL && fabs(lam[1] - 1.0) <= QP_TEST_EXACT_TOL);
    ck_assert_str_eq(pln_qp_status_string(PLN_QP_ITER_LIMIT), "iteration limit");
    ck_assert_str_eq(pln_qp_status_string(PLN_QP_OK), "ok");
    pln_qp_work_destroy(w);
}
END_TEST

/* NaN in g, A, b; a zero diagonal in L; lb > ub; n > n_max; a NULL workspace */
START_TEST(test_bad_input)
{
    double L[4] = {1.0, 0.0, 0.0, 1.0}, g[2] = {1.0, 1.0}, A[2] = {1.0, 0.0}, b[1] = {0.0};
    double lb[2] = {0.0, 0.0}, ub[2] = {1.0, 1.0}, d[2], lam[1];
    PlnQpProblem p;
    PlnQpResult r;
    PlnQpWork *w = pln_qp_work_create(2, 1);
    ck_assert_ptr_nonnull(w);
    memset(&p, 0, sizeof p);
    p.n = 2;
    p.m = 1;
    p.L = L;
    p.g = g;
    p.A = A;
    p.b = b;
    p.lb = lb;
    p.ub = ub;
    ck_assert_int_eq(pln_qp_solve(&p, w, d, lam, NULL, NULL, &r), PLN_QP_OK);
    g[1] = NAN;
    ck_assert_int_eq(pln_qp_solve(&p, w, d, lam, NULL, NULL, &r), PLN_QP_BAD_INPUT);
    ck_assert_int_eq(r.status, PLN_QP_BAD_INPUT);
    g[1] = 1.0;
    A[1] = NAN;
    ck_assert_int_eq(pln_qp_solve(&p, w, d, lam, NULL, NULL, &r), PLN_QP_BAD_INPUT);
    A[1] = 0.0;
    b[0] = NAN;
    ck_assert_int_eq(pln_qp_solve(&p, w, d, lam, NULL, NULL, &r), PLN_QP_BAD_INPUT);
    b[0] = 0.0;
    L[3] = 0.0;
    ck_assert_int_eq(pln_qp_solve(&p, w, d, lam, NULL, NULL, &r), PLN_QP_BAD_INPUT);
    L[3] = 1.0;
    lb[0] = 2.0;
    ck_assert_int_eq(pln_qp_solve(&p, w, d, lam, NULL, NULL, &r), PLN_QP_BAD_INPUT);
    lb[0] = 0.0;
    p.n = 3;
    ck_assert_int_eq(pln_qp_solve(&p, w, d, lam, NULL, NULL, &r), PLN_QP_BAD_INPUT);
    p.n = 0;
    ck_assert_int_eq(pln_qp_solve(&p, w, d, lam, NULL, NULL, &r), PLN_QP_BAD_INPUT);
    p.n = 2;
    p.m = 2;
    ck_assert_int_eq(pln_qp_solve(&p, w, d, lam, NULL, NULL, &r), PLN_QP_BAD_INPUT);
    p.m = 1;
    ck_assert_int_eq(pln_qp_solve(&p, NULL, d, lam, NULL, NULL, &r), PLN_QP_BAD_INPUT);
    ck_assert_int_eq(pln_qp_solve(&p, w, d, lam, NULL, NULL, &r), PLN_QP_OK);
    ck_assert_ptr_null(pln_qp_work_create(0, 1));
    ck_assert_ptr_null(pln_qp_work_create(2, -1));
    pln_qp_work_destroy(NULL);
    ck_assert_str_eq(pln_qp_status_string(PLN_QP_BAD_INPUT), "bad input");
    pln_qp_work_destroy(w);
}
END_TEST

/* rows multiplied by 1e-6 or 1e6 (and b with them) describe the same polyhedron: the same
 * d, and the scaled problem's KKT conditions hold */
START_TEST(test_badly_scaled)
{
    static QpCase c, s;
    QpRng rng = {0x13198a2e03707344ULL};
    PlnQpWork *w = pln_qp_work_create(QP_TEST_N_MAX, QP_TEST_M_MAX);
    int k, i, j;
    ck_assert_ptr_nonnull(w);
    for (k = 0; k < QP_TEST_RANDOM_COUNT / 3; ++k) {
        PlnQpResult r, rs;
        int n = rng_int(&rng, 1, 20), m = rng_int(&rng, 1, 40);
        double factor[QP_TEST_M_MAX];
        case_random(&c, &rng, n, m, k % 2);
        s = c;
        for (i = 0; i < m; ++i) {
            factor[i] = rng_uniform(&rng, 0.0, 1.0) < 0.5 ? QP_TEST_SMALL_SCALE : QP_TEST_LARGE_SCALE;
            for (j = 0; j < n; ++j) s.A[i * n + j] *= factor[i];
            s.b[i] *= factor[i];
        }
        ck_assert_int_eq(case_solve(&c, w, &r), PLN_QP_OK);
        ck_assert_int_eq(case_solve(&s, w, &rs), PLN_QP_OK);
        for (i = 0; i < n; ++i) {
            ck_assert_msg(fabs(c.d[i] - s.d[i]) <= QP_TEST_SCALE_TOL * (1.0 + fabs(c.d[i])),
                          "case %d: d[%d] %.15g vs scaled %.15g", k, i, c.d[i], s.d[i]);
        }
        /* the multipliers are not compared one by one: where more rows than variables pass
         * through the answer they are not unique; the KKT check of the scaled problem
         * holds them to stationarity instead */
        case_check_kkt(&s, &rs);
    }
    pln_qp_work_destroy(w);
}
END_TEST

Suite *pln_qp_suite(void)
{
    Suite *s = suite_create("pln_qp");
    TCase *tc;
    tc = tcase_create("random_kkt");
    tcase_add_test(tc, test_random_kkt);
    tcase_add_test(tc, test_warm_start);
    tcase_add_test(tc, test_warm_start_drops);
    tcase_add_test(tc, test_warm_start_blocked);
    tcase_add_test(tc, test_same_matrices);
    suite_add_tcase(s, tc);
    tc = tcase_create("brute_force");
    tcase_add_test(tc, test_brute_force);
    suite_add_tcase(s, tc);
    tc = tcase_create("degenerate");
    tcase_add_test(tc, test_degenerate);
    suite_add_tcase(s, tc);
    tc = tcase_create("infeasible");
    tcase_add_test(tc, test_infeasible);
    suite_add_tcase(s, tc);
    tc = tcase_create("iter_limit");
    tcase_add_test(tc, test_iter_limit);
    suite_add_tcase(s, tc);
    tc = tcase_create("bad_input");
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    tc = tcase_create("badly_scaled");
    tcase_add_test(tc, test_badly_scaled);
    suite_add_tcase(s, tc);
    return s;
}
