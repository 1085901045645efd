/* pln_sqp.c — sequential quadratic programming with a dense active-set QP (docs/math/sqp.md,
 * eq. S1-S8). */
#include "base/pln_sqp.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/pln_clock.h"
#include "base/pln_qp.h"
#include "base/pln_tolerance.h"

typedef struct SqpWork {
    int n, mt;
    double *x, *xt, *d, *dsoc, *dq;
    double *g, *gt;
    double *c, *ct, *J, *Jt, *tol;
    double *B, *B0, *Lq;
    double *Aq, *bq, *qlb, *qub, *gq;
    double *lam, *lam_t, *mulb, *muub, *mu;
    double *s, *y, *Bs, *gl;
    double f, ft;
    int lq_kind;    /* what Lq holds: 0 nothing current, 1 B's factor, 2 the elastic model's */
    int evals;
    double t0;
    int *start;     /* mt + 2n: the last QP's active rows and bounds (its warm start, QP14) */
    int n_start;
    double sigma;   /* the QP's model is B + sigma B0 (S9), sigma >= 0 */
} SqpWork;

PlnSqpOptions pln_sqp_options_default(void)
{
    PlnSqpOptions o;
    o.ftol_rel = 1e-6;
    o.xtol_rel = 1e-8;
    o.max_evals = 0;
    o.max_time_s = 0.0;
    o.regularise = 1;
    o.penalty_rho = PLN_SQP_PENALTY_RHO;
    return o;
}

const char *pln_sqp_stop_string(PlnSqpStop s)
{
    switch (s) {
    case PLN_SQP_FTOL: return "ftol_rel reached";
    case PLN_SQP_XTOL: return "xtol_rel reached";
    case PLN_SQP_MAXEVAL: return "evaluation limit";
    case PLN_SQP_MAXTIME: return "time limit";
    case PLN_SQP_FORCED: return "stopped";
    case PLN_SQP_STALLED: return "stalled: no step lowers the penalty function";
    case PLN_SQP_BAD_INPUT: return "bad input";
    case PLN_SQP_OUT_OF_MEMORY: return "out of memory";
    }
    return "unknown";
}

static void work_free(SqpWork *w)
{
    free(w->start);
    double *all[] = {w->x, w->xt, w->d, w->dsoc, w->dq, w->g, w->gt, w->c, w->ct, w->J, w->Jt, w->tol,
                     w->B, w->B0, w->Lq, w->Aq, w->bq, w->qlb, w->qub, w->gq, w->lam, w->lam_t,
                     w->mulb, w->muub, w->mu, w->s, w->y, w->Bs, w->gl};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) free(all[i]);
}

/* the run's arrays, allocated once at its start */
static int work_alloc(SqpWork *w, int n, int mt)
{
    memset(w, 0, sizeof *w);
    w->n = n, w->mt = mt;
    size_t n1 = (size_t)n + 1, m1 = (size_t)mt + 1;
    w->x = malloc(n1 * sizeof(double)), w->xt = malloc(n1 * sizeof(double));
    w->d = malloc(n1 * sizeof(double)), w->dsoc = malloc(n1 * sizeof(double)), w->dq = malloc(n1 * sizeof(double));
    w->g = malloc(n1 * sizeof(double)), w->gt = malloc(n1 * sizeof(double));
    w->c = malloc(m1 * sizeof(double)), w->ct = malloc(m1 * sizeof(double)), w->tol = malloc(m1 * sizeof(double));
    w->J = malloc(m1 * n1 * sizeof(double)), w->Jt = malloc(m1 * n1 * sizeof(double));
    w->B = malloc(n1 * n1 * sizeof(double)), w->B0 = malloc(n1 * n1 * sizeof(double));
    w->Lq = malloc(n1 * n1 * sizeof(double));
    w->Aq = malloc(m1 * n1 * sizeof(double)), w->bq = malloc(m1 * sizeof(double));
    w->qlb = malloc(n1 * sizeof(double)), w->qub = malloc(n1 * sizeof(double)), w->gq = malloc(n1 * sizeof(double));
    w->lam = malloc(m1 * sizeof(double)), w->lam_t = malloc(m1 * sizeof(double));
    w->mulb = malloc(n1 * sizeof(double)), w->muub = malloc(n1 * sizeof(double)), w->mu = malloc(m1 * sizeof(double));
    w->s = malloc(n1 * sizeof(double)), w->y = malloc(n1 * sizeof(double)), w->Bs = malloc(n1 * sizeof(double));
    w->gl = malloc(n1 * sizeof(double));
    w->start = malloc((m1 + 2 * n1) * sizeof(int));
    w->n_start = 0;
    if (w->start == NULL) return 0;
    double *all[] = {w->x, w->xt, w->d, w->dsoc, w->dq, w->g, w->gt, w->c, w->ct, w->J, w->Jt, w->tol,
                     w->B, w->B0, w->Lq, w->Aq, w->bq, w->qlb, w->qub, w->gq, w->lam, w->lam_t,
                     w->mulb, w->muub, w->mu, w->s, w->y, w->Bs, w->gl};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) {
        if (all[i] == NULL) return 0;
    }
    return 1;
}

/* one evaluation at xe: f, its gradient, every row set's values and gradients (S1's data);
 * returns 0 when a value is not finite */
static int evaluate(const PlnSqpProblem *p, SqpWork *w, const double *xe, double *f, double *g, double *c, double *J)
{
    int n = p->n, off = 0, ok = 1;
    *f = p->f((unsigned)n, xe, g, p->f_data);
    ++w->evals;
    ok &= isfinite(*f);
    for (int k = 0; k < p->n_sets; ++k) {
        const PlnSqpRowSet *rs = p->sets + k;
        if (rs->m <= 0) continue;
        rs->fn((unsigned)rs->m, c + off, (unsigned)n, xe, J + (size_t)off * n, rs->data);
        off += rs->m;
    }
    for (int i = 0; i < n; ++i) ok &= isfinite(g[i]);
    for (int i = 0; i < w->mt; ++i) ok &= isfinite(c[i]);
    return ok;
}

/* the budget and the callbacks' stop flag: 0 to go on, else the stop reason */
static PlnSqpStop budget(const PlnSqpProblem *p, const PlnSqpOptions *o, const SqpWork *w)
{
    if (p->stop != NULL && *p->stop) return PLN_SQP_FORCED;
    if (o->max_evals > 0 && w->evals >= o->max_evals) return PLN_SQP_MAXEVAL;
    if (o->max_time_s > 0.0 && pln_clock_s() - w->t0 >= o->max_time_s) return PLN_SQP_MAXTIME;
    return (PlnSqpStop)0;
}

/* phi(x; mu) = f + sum_i mu_i max(c_i, 0), the exact penalty function (S3) */
static double merit(const SqpWork *w, double f, const double *c)
{
    double s = 0.0;
    for (int i = 0; i < w->mt; ++i) s += w->mu[i] * fmax(c[i], 0.0);
    return f + s;
}

/* max_i (c_i - tol_i), the violation of the rows at their tolerances */
static double violation(const SqpWork *w, const double *c)
{
    double v = -INFINITY;
    for (int i = 0; i < w->mt; ++i) v = fmax(v, c[i] - w->tol[i]);
    return w->mt > 0 ? v : 0.0;
}

/* the Cholesky factor of the QP's model B + sigma B0 (S9) into Lq (row-major lower, (n + e) x
 * (n + e) with e = 1 for the elastic variable, whose curvature is PLN_SQP_ELASTIC_CURV); 0 when
 * it is not positive definite */
static int factor_model(SqpWork *w, int elastic)
{
    int n = w->n, nq = n + elastic;
    if (w->lq_kind == 1 + elastic) return 1; /* B and sigma unchanged since (a correction's, S6) */
    w->lq_kind = 0;
    for (int i = 0; i < nq; ++i) {
        for (int j = 0; j < nq; ++j) {
            size_t ij = (size_t)i * n + j;
            w->Lq[(size_t)i * nq + j] = (i < n && j < n) ? w->B[ij] + w->sigma * w->B0[ij] : 0.0;
        }
    }
    if (elastic) w->Lq[(size_t)n * nq + n] = PLN_SQP_ELASTIC_CURV;
    if (LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', nq, w->Lq, nq) != 0) return 0;
    for (int i = 0; i < nq; ++i) {
        for (int j = i + 1; j < nq; ++j) w->Lq[(size_t)i * nq + j] = 0.0;
    }
    w->lq_kind = 1 + elastic;
    return 1;
}

/* The quadratic model (S1): min 1/2 d'Bd + g'd, c + J d <= rhs_shift (0, or the correction
 * of S6), lb - x <= d <= ub - x; with elastic = 1 its elastic form (S2): the variable v in
 * [0, 1] relaxes each violated row by v c_i+, at the price M v + eps_v v^2 / 2. The answer in
 * w->dq (n, then v), the rows' multipliers in w->lam_t. */
static PlnQpStatus solve_model(const PlnSqpProblem *p, SqpWork *w, PlnQpWork *qw, int elastic, const double *rhs,
                               double weight, int same, int *solves)
{
    int n = w->n, mt = w->mt, nq = n + elastic;
    if (!factor_model(w, elastic)) return PLN_QP_BAD_INPUT;
    for (int j = 0; j < n; ++j) {
        w->gq[j] = w->g[j];
        w->qlb[j] = p->lb[j] - w->x[j];
        w->qub[j] = p->ub[j] - w->x[j];
    }
    const double *A = w->J;
    if (elastic) {
        w->gq[n] = weight, w->qlb[n] = 0.0, w->qub[n] = 1.0;
        for (int i = 0; i < mt; ++i) {
            memcpy(w->Aq + (size_t)i * nq, w->J + (size_t)i * n, (size_t)n * sizeof(double));
            w->Aq[(size_t)i * nq + n] = -fmax(w->c[i], 0.0);
        }
        A = w->Aq;
    }
    for (int i = 0; i < mt; ++i) w->bq[i] = rhs[i];
    /* the model's QP starts from the last one's active set (same rows and bounds; the
     * elastic QP has one variable more and starts cold), docs/math/qp.md sec. 7 */
    PlnQpProblem qp = {nq, mt, w->Lq, w->gq, mt > 0 ? A : NULL, w->bq, w->qlb, w->qub, 0,
                       elastic ? NULL : w->start, elastic ? 0 : w->n_start, same};
    PlnQpResult qr;
    ++*solves;
    PlnQpStatus st = pln_qp_solve(&qp, qw, w->dq, w->lam_t, w->mulb, w->muub, &qr);
    if (!elastic && st == PLN_QP_OK) {
        w->n_start = 0;
        for (int i = 0; i < mt; ++i) {
            if (w->lam_t[i] > 0.0) w->start[w->n_start++] = i;
        }
        for (int j = 0; j < n; ++j) {
            if (w->muub[j] > 0.0) w->start[w->n_start++] = mt + j;
            if (w->mulb[j] > 0.0) w->start[w->n_start++] = mt + n + j;
        }
    }
    return st;
}

/* B back to B0 (the caller's first model, or the identity) */
static void model_reset(SqpWork *w)
{
    int n = w->n;
    memcpy(w->B, w->B0, (size_t)n * n * sizeof(double));
    w->lq_kind = 0;
}

/* The damped BFGS update of the model (S7; Powell's damping keeps B positive definite):
 * s = x_new - x, y = grad L(x_new, lambda) - grad L(x, lambda). */
static void bfgs_update(SqpWork *w)
{
    int n = w->n;
    /* B s, s'Bs and s'y by BLAS (a hand-written sum is one dependent chain of additions) */
    cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, 1.0, w->B, n, w->s, 1, 0.0, w->Bs, 1);
    double sBs = cblas_ddot(n, w->s, 1, w->Bs, 1), sy = cblas_ddot(n, w->s, 1, w->y, 1);
    if (!(sBs > PLN_SQP_TINY)) return;
    w->lq_kind = 0;
    if (sy < PLN_SQP_DAMPING * sBs) {
        double th = (1.0 - PLN_SQP_DAMPING) * sBs / (sBs - sy);
        for (int i = 0; i < n; ++i) w->y[i] = th * w->y[i] + (1.0 - th) * w->Bs[i];
        sy = PLN_SQP_DAMPING * sBs;
    }
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            w->B[(size_t)i * n + j] += w->y[i] * w->y[j] / sy - w->Bs[i] * w->Bs[j] / sBs;
        }
    }
}

/* grad L = g + J' lambda into out */
static void lagrangian_grad(const SqpWork *w, const double *g, const double *J, const double *lam, double *out)
{
    int n = w->n;
    memcpy(out, g, (size_t)n * sizeof(double));
    for (int i = 0; i < w->mt; ++i) {
        if (lam[i] == 0.0) continue;
        const double *row = J + (size_t)i * n;
        for (int j = 0; j < n; ++j) out[j] += lam[i] * row[j];
    }
}

/* the trial point x + a d, inside the box */
static void trial_point(const PlnSqpProblem *p, SqpWork *w, const double *dir, double a)
{
    for (int j = 0; j < w->n; ++j) w->xt[j] = fmin(fmax(w->x[j] + a * dir[j], p->lb[j]), p->ub[j]);
}

/* the trial's values become the iterate's */
static void accept_trial(SqpWork *w)
{
    int n = w->n, mt = w->mt;
    double *t;
    memcpy(w->x, w->xt, (size_t)n * sizeof(double));
    w->f = w->ft;
    t = w->g, w->g = w->gt, w->gt = t;
    t = w->c, w->c = w->ct, w->ct = t;
    t = w->J, w->J = w->Jt, w->Jt = t;
    (void)mt;
}

/* Algorithm S (docs/math/sqp.md sec. 2). */
PlnSqpStop pln_sqp_minimize(const PlnSqpProblem *p, const PlnSqpOptions *opt, double *x, PlnSqpResult *result)
{
    PlnSqpResult res;
    memset(&res, 0, sizeof res);
    PlnSqpOptions o = opt != NULL ? *opt : pln_sqp_options_default();
    if (p == NULL || x == NULL || p->n < 1 || p->f == NULL || p->lb == NULL || p->ub == NULL || p->n_sets < 0 ||
        p->n_sets > PLN_SQP_MAX_SETS || !(o.penalty_rho >= 0.0 && o.penalty_rho < 1.0)) {
        res.stop = PLN_SQP_BAD_INPUT;
        if (result != NULL) *result = res;
        return res.stop;
    }
    int n = p->n, mt = 0;
    for (int k = 0; k < p->n_sets; ++k) {
        if (p->sets[k].m < 0 || (p->sets[k].m > 0 && p->sets[k].fn == NULL)) {
            res.stop = PLN_SQP_BAD_INPUT;
            if (result != NULL) *result = res;
            return res.stop;
        }
        mt += p->sets[k].m;
    }
    for (int j = 0; j < n; ++j) {
        if (!(p->lb[j] <= p->ub[j]) || !isfinite(x[j])) {
            res.stop = PLN_SQP_BAD_INPUT;
            if (result != NULL) *result = res;
            return res.stop;
        }
    }
    SqpWork w;
    PlnQpWork *qw = NULL;
    if (!work_alloc(&w, n, mt) || (qw = pln_qp_work_create(n + 1, mt > 0 ? mt : 1)) == NULL) {
        work_free(&w);
        res.stop = PLN_SQP_OUT_OF_MEMORY;
        if (result != NULL) *result = res;
        return res.stop;
    }
    w.t0 = pln_clock_s();
    /* the row tolerances, and B0 = C C^T from the caller's factor (or I) */
    for (int k = 0, off = 0; k < p->n_sets; ++k) {
        for (int i = 0; i < p->sets[k].m; ++i) w.tol[off + i] = p->sets[k].tol != NULL ? p->sets[k].tol[i] : 0.0;
        off += p->sets[k].m;
    }
    if (p->B0_chol != NULL) {
        /* B0 = L L^T = C^T C, C = L^T read by rows (C[k][i] = L[i][k], i >= k; the other
         * triangle of the caller's array is not read: zeros in w.B, which model_reset
         * overwrites below), by one dsyrk into the lower triangle, mirrored */
        for (int k = 0; k < n; ++k) {
            memset(w.B + (size_t)k * n, 0, (size_t)k * sizeof(double));
            memcpy(w.B + (size_t)k * n + k, p->B0_chol + (size_t)k * n + k, (size_t)(n - k) * sizeof(double));
        }
        cblas_dsyrk(CblasRowMajor, CblasLower, CblasTrans, n, n, 1.0, w.B, n, 0.0, w.B0, n);
        for (int i = 0; i < n; ++i) {
            for (int j = i + 1; j < n; ++j) w.B0[(size_t)i * n + j] = w.B0[(size_t)j * n + i];
        }
    } else {
        for (int i = 0; i < n; ++i) {
            for (int j = 0; j < n; ++j) w.B0[(size_t)i * n + j] = i == j ? 1.0 : 0.0;
        }
    }
    model_reset(&w);
    int fresh = 1; /* B is B0 */
    if (p->model != NULL && p->model_in) {
        memcpy(w.B, p->model, (size_t)n * n * sizeof(double));
        w.lq_kind = 0;
        fresh = 0;
    }
    for (int i = 0; i < mt; ++i) w.mu[i] = 0.0, w.lam[i] = 0.0;

    /* the start, inside the box */
    for (int j = 0; j < n; ++j) w.x[j] = fmin(fmax(x[j], p->lb[j]), p->ub[j]);
    PlnSqpStop stop = (PlnSqpStop)0;
    if (!evaluate(p, &w, w.x, &w.f, w.g, w.c, w.J)) {
        stop = budget(p, &o, &w);
        if (stop == 0) stop = PLN_SQP_BAD_INPUT;
    }
    int soc_failed = 0; /* second-order corrections rejected in a row */
    w.sigma = 0.0;
    while (stop == 0) {
        if ((stop = budget(p, &o, &w)) != 0) break;
        /* S1, or S2 when the linearised rows are inconsistent */
        double gmax = 0.0, mumax = 0.0;
        for (int j = 0; j < n; ++j) gmax = fmax(gmax, fabs(w.g[j]));
        for (int i = 0; i < mt; ++i) mumax = fmax(mumax, w.mu[i]);
        double weight = PLN_SQP_ELASTIC_WEIGHT * (1.0 + gmax + mumax);
        double *rhs = w.ct; /* scratch until the next evaluation */
        for (int i = 0; i < mt; ++i) rhs[i] = -w.c[i];
        int elastic = 0;
        PlnQpStatus qs = solve_model(p, &w, qw, 0, rhs, weight, 0, &res.qp_solves);
        if (qs == PLN_QP_INFEASIBLE || qs == PLN_QP_ITER_LIMIT) {
            elastic = 1;
            ++res.elastic;
            qs = solve_model(p, &w, qw, 1, rhs, weight, 0, &res.qp_solves);
        }
        if (qs == PLN_QP_BAD_INPUT && !fresh) {
            model_reset(&w), fresh = 1, ++res.resets;
            continue;
        }
        if (qs != PLN_QP_OK) {
            stop = PLN_SQP_STALLED;
            break;
        }
        double v = elastic ? w.dq[n] : 0.0;
        memcpy(w.d, w.dq, (size_t)n * sizeof(double));
        /* S3: the penalty weights from the multipliers */
        for (int i = 0; i < mt; ++i) {
            double l = w.lam_t[i];
            w.mu[i] = fmax(l, 0.5 * (w.mu[i] + l));
        }
        double cplus = 0.0, c1 = 0.0;
        for (int i = 0; i < mt; ++i) {
            cplus += w.mu[i] * fmax(w.c[i], 0.0);
            c1 += fmax(w.c[i], 0.0);
        }
        double gd = 0.0, dmax = 0.0, xmax = 0.0;
        for (int j = 0; j < n; ++j) {
            gd += w.g[j] * w.d[j];
            dmax = fmax(dmax, fabs(w.d[j]));
            xmax = fmax(xmax, fabs(w.x[j]));
        }
        /* S3b: the weights of the violated rows raised, all by one amount, until the
         * model's predicted decrease of the penalty term pays for the model's change of f
         * with a margin: (1 - v) sum mu_i c_i+ >= (g'd + d'(B + sigma B0)d / 2) / (1 - rho).
         * A row's multiplier prices it at the linearisation only; where the rows' curvature
         * or f's makes the step dearer, weights equal to the multipliers reject the full
         * step and its correction alike, and the steps crawl (docs/math/sqp.md sec. 9) */
        if (o.penalty_rho > 0.0 && c1 > 0.0 && v < 1.0) {
            /* d'(B + sigma B0)d = |Lq^T d|^2 from the model's factor (its leading n x n
             * block in the elastic form); Bs is scratch until the BFGS update */
            memcpy(w.Bs, w.d, (size_t)n * sizeof(double));
            cblas_dtrmv(CblasRowMajor, CblasLower, CblasTrans, CblasNonUnit, n, w.Lq, n + elastic, w.Bs, 1);
            double dbd = cblas_ddot(n, w.Bs, 1, w.Bs, 1);
            double need = (gd + 0.5 * dbd) / (1.0 - o.penalty_rho), have = (1.0 - v) * cplus;
            if (need > have) {
                double delta = (need - have) / ((1.0 - v) * c1);
                for (int i = 0; i < mt; ++i) {
                    if (w.c[i] > 0.0) w.mu[i] += delta;
                }
                cplus += delta * c1;
                ++res.penalty_raised;
            }
        }
        /* S4: the model's predicted change of phi along d */
        double D = gd - (1.0 - v) * cplus;
        double viol = violation(&w, w.c);
        if (viol <= 0.0 && dmax <= o.xtol_rel * xmax) {
            stop = PLN_SQP_XTOL;
            break;
        }
        /* S8: a feasible point where the model predicts a change of f below ftol_rel */
        if (viol <= 0.0 && fabs(D) <= o.ftol_rel * fabs(w.f)) {
            stop = PLN_SQP_FTOL;
            break;
        }
        if (!(D < 0.0)) {
            if (!fresh) {
                model_reset(&w), fresh = 1, ++res.resets;
                continue;
            }
            /* no descent even with B0: a stationary point of phi, converged when it is
             * within PLN_SQP_STALL_VIOL of every row's tolerance (S8: near a solution the
             * model's predicted change is rounding, and so is its sign), else a stall */
            stop = viol <= PLN_SQP_STALL_VIOL ? PLN_SQP_FTOL : PLN_SQP_STALLED;
            res.forced += stop == PLN_SQP_FTOL && viol > 0.0;
            break;
        }
        double phi0 = merit(&w, w.f, w.c);
        /* S5, S6: the full step, its correction, then backtracking */
        double a = 1.0;
        int accepted = 0, tries = 0, used_soc = 0, tiny = 0;
        const double *dir = w.d;
        while (!accepted) {
            trial_point(p, &w, dir, a);
            if (!evaluate(p, &w, w.xt, &w.ft, w.gt, w.ct, w.Jt)) {
                if ((stop = budget(p, &o, &w)) != 0) break;
                a *= PLN_SQP_BACKTRACK_MIN; /* a non-finite value: much shorter */
            } else {
                double phi = merit(&w, w.ft, w.ct);
                if (phi - phi0 <= PLN_SQP_ARMIJO * a * D) {
                    accepted = 1;
                    break;
                }
                if ((stop = budget(p, &o, &w)) != 0) break;
                if (a == 1.0 && dir == w.d && mt > 0 && !elastic && !used_soc &&
                    soc_failed < PLN_SQP_SOC_TRIES) {
                    /* S6: the second-order correction: the rows at x + d shift the model's
                     * rows, c(x + d) + J (d^ - d) <= 0 */
                    used_soc = 1;
                    cblas_dgemv(CblasRowMajor, CblasNoTrans, mt, n, 1.0, w.J, n, w.d, 1, 0.0, w.bq, 1);
                    for (int i = 0; i < mt; ++i) w.bq[i] -= w.ct[i];
                    /* (the trial's rows are not needed any more: their room holds the
                     * corrected right-hand side, which solve_model copies) */
                    memcpy(w.ct, w.bq, (size_t)mt * sizeof(double));
                    /* the same model and rows as the step's QP: its factors are the start */
                    if (solve_model(p, &w, qw, 0, w.ct, weight, 1, &res.qp_solves) == PLN_QP_OK) {
                        memcpy(w.dsoc, w.dq, (size_t)n * sizeof(double));
                        dir = w.dsoc;
                        continue; /* a = 1 along the corrected step */
                    }
                }
                if (dir == w.dsoc) {
                    ++soc_failed;
                    /* the correction failed too: backtrack along d from the full step's
                     * value (the interpolation needs phi at x + d: a half step instead) */
                    dir = w.d;
                    a = PLN_SQP_BACKTRACK_MAX;
                } else {
                    /* S5: the minimiser of the quadratic through phi0, D and phi(x + a d) */
                    double r = a * D / (2.0 * (a * D - (phi - phi0)));
                    a *= fmin(fmax(r, PLN_SQP_BACKTRACK_MIN), PLN_SQP_BACKTRACK_MAX);
                }
            }
            if (++tries > PLN_SQP_MAX_BACKTRACKS) break;
            /* at a point within PLN_SQP_STALL_VIOL of feasible, a step whose predicted
             * decrease is below ftol_rel |f| is not worth trying (S8) */
            if (a * fabs(D) <= o.ftol_rel * fabs(w.f) && viol <= PLN_SQP_STALL_VIOL) {
                tiny = 1;
                break;
            }
        }
        if (stop != 0) break;
        if (!accepted) {
            if (tiny) {
                /* converged as far as the rows' rounding lets the test see (S8) */
                stop = PLN_SQP_FTOL;
                res.forced = 1;
                break;
            }
            if (!fresh) {
                model_reset(&w), fresh = 1, ++res.resets;
                continue;
            }
            /* with B0 too, no trial met (S5): the end. Within PLN_SQP_STALL_VIOL of every
             * row's tolerance that is convergence (S8): the rows of points near a solution
             * carry rounding that the penalty function's test cannot see through */
            stop = violation(&w, w.c) <= PLN_SQP_STALL_VIOL ? PLN_SQP_FTOL : PLN_SQP_STALLED;
            res.forced += stop == PLN_SQP_FTOL;
            break;
        }
        res.corrections += dir == w.dsoc;
        /* a correction that succeeded, or a full step taken without one (the model holds
         * here: the failures before were another region's), lets the corrections start
         * over (S6) */
        if (dir == w.dsoc || (a == 1.0 && dir == w.d)) soc_failed = 0;
        res.regularised += w.sigma > 0.0;
        /* S9: the model's regularisation for the next QP. A shortened step whose predicted
         * decrease was mostly the objective's: the model's curvature along d was too small,
         * and B + sigma B0 takes about a's length next time. A shortened step that mostly
         * restored the rows leaves sigma alone (its length is the rows', which sigma cannot
         * shorten, and a larger sigma would only turn the rest away from the objective). */
        double sigma = w.sigma;
        if (!o.regularise) {
            /* the plain model */
        } else if (a < 1.0) {
            if (fabs(gd) >= (1.0 - v) * cplus) sigma = (1.0 + sigma) * fmin(1.0 / a, PLN_SQP_REG_GROWTH) - 1.0;
        } else {
            sigma *= PLN_SQP_REG_DECAY;
            if (sigma < PLN_SQP_REG_MIN) sigma = 0.0;
        }
        if (sigma != w.sigma) w.sigma = sigma, w.lq_kind = 0;
        /* S7: the model learns the step */
        memcpy(w.lam, w.lam_t, (size_t)mt * sizeof(double));
        for (int j = 0; j < n; ++j) w.s[j] = w.xt[j] - w.x[j];
        lagrangian_grad(&w, w.g, w.J, w.lam, w.gl);
        lagrangian_grad(&w, w.gt, w.Jt, w.lam, w.y);
        for (int j = 0; j < n; ++j) w.y[j] -= w.gl[j];
        double fold = w.f, smax = 0.0;
        for (int j = 0; j < n; ++j) smax = fmax(smax, fabs(w.s[j]));
        accept_trial(&w);
        ++res.iterations;
        bfgs_update(&w);
        fresh = 0;
        /* S8: convergence of a feasible iterate */
        xmax = 0.0;
        for (int j = 0; j < n; ++j) xmax = fmax(xmax, fabs(w.x[j]));
        if (violation(&w, w.c) <= 0.0) {
            if (fabs(w.f - fold) <= o.ftol_rel * fabs(w.f)) stop = PLN_SQP_FTOL;
            else if (smax <= o.xtol_rel * xmax) stop = PLN_SQP_XTOL;
        }
    }
    memcpy(x, w.x, (size_t)n * sizeof(double));
    if (p->model != NULL) memcpy(p->model, w.B, (size_t)n * n * sizeof(double));
    res.stop = stop;
    res.evaluations = w.evals;
    res.f = w.f;
    res.max_violation = violation(&w, w.c);
    pln_qp_work_destroy(qw);
    work_free(&w);
    if (result != NULL) *result = res;
    return stop;
}
