/* pln_qp.c — the dual active-set method of Goldfarb and Idnani (1983) for a dense,
 * strictly convex QP (docs/math/qp.md; equations QP1-QP17 are cited below).
 *
 * Constraints are numbered c = 0..m-1 (rows a_c d <= b_c), m + i (upper bound d_i <= ub_i)
 * and m + n + i (lower bound -d_i <= -lb_i). In the paper's form n_c^T d >= b'_c the
 * normals are n_c = -a_c, -e_i and +e_i (eq. QP3). The factors: J = L^-T Q is kept by
 * columns, column j of J being row j of w->J (n x n, row-major: column operations on J are
 * contiguous row operations here); R (upper triangular, row-major, leading dimension n)
 * holds the active normals, J^T N = [R; 0] (eq. QP4). */
#include "base/pln_qp.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/pln_tolerance.h"

/* columns per block of the warm start's QR (QP16): dgeqrt factors each block recursively
 * (dgeqrt3, BLAS 3), where dgeqrf runs its unblocked level-2 code below 128 columns */
#define QP_NB 64

struct PlnQpWork {
    int n_max, m_max;
    double *J;        /* n*n: row j = column j of J = L^-T Q (eq. QP4) */
    double *R;        /* n*n: upper triangular factor of the active normals (eq. QP4) */
    double *dv;       /* n: J^T n+ (eq. QP6) */
    double *z;        /* n: primal step direction (eq. QP7) */
    double *r;        /* n: dual step direction of the active set (eq. QP7) */
    double *u;        /* n + 1: multipliers of the active set, then of the constraint added */
    double *tmp;      /* n: L^T d for the objective */
    double *s;        /* m: a_i d - b_i */
    double *rownorm;  /* m: |a_i|_2 */
    int *active;      /* n: the active constraints, in the order of R's columns */
    unsigned char *is_active; /* m + 2 n_max: 1 when constraint c is active */
    double *d0;       /* n: the unconstrained minimum (QP2), for the warm start's QP15 */
    int *hint;        /* m + 2 n_max: the warm start's usable constraints */
    double *M;        /* n*n: the warm start's L^-1 N, then its Householder QR (QP16) */
    double *tq;       /* QP_NB * n: the block reflectors' triangular factors (QP16) */
    double *work;     /* QP_NB * n: LAPACK's workspace for dgeqrt and dgemqrt (QP16) */
    /* the last solve: its sizes, active count (the set in active[], the factors in J and R),
     * and 1 when it ended ok (the factors usable by the next, PlnQpProblem.same_matrices) */
    int last_n, last_m, last_q, last_ok;
};

/* Workspace for the sizes of QP1: every buffer of the solve, allocated once. */
PlnQpWork *pln_qp_work_create(int n_max, int m_max)
{
    PlnQpWork *w;
    size_t n, m;
    if (n_max < 1 || n_max > 32768 || m_max < 0) return NULL;
    n = (size_t)n_max;
    m = (size_t)(m_max > 0 ? m_max : 1);
    w = calloc(1, sizeof *w);
    if (w == NULL) return NULL;
    w->n_max = n_max;
    w->m_max = m_max;
    w->J = malloc(n * n * sizeof(double));
    w->R = malloc(n * n * sizeof(double));
    w->dv = malloc(n * sizeof(double));
    w->z = malloc(n * sizeof(double));
    w->r = malloc(n * sizeof(double));
    w->u = malloc((n + 1) * sizeof(double));
    w->tmp = malloc(n * sizeof(double));
    w->s = malloc(m * sizeof(double));
    w->rownorm = malloc(m * sizeof(double));
    w->active = malloc(n * sizeof(int));
    w->is_active = malloc(m + 2 * n);
    w->d0 = malloc(n * sizeof(double));
    w->hint = malloc((m + 2 * n) * sizeof(int));
    w->M = malloc(n * n * sizeof(double));
    w->tq = malloc(QP_NB * n * sizeof(double));
    w->work = malloc(QP_NB * n * sizeof(double));
    if (w->J == NULL || w->R == NULL || w->dv == NULL || w->z == NULL || w->r == NULL ||
        w->u == NULL || w->tmp == NULL || w->s == NULL || w->rownorm == NULL ||
        w->active == NULL || w->is_active == NULL || w->d0 == NULL || w->hint == NULL ||
        w->M == NULL || w->tq == NULL || w->work == NULL) {
        pln_qp_work_destroy(w);
        return NULL;
    }
    return w;
}

/* Frees the workspace of QP1 (NULL is a no-op). */
void pln_qp_work_destroy(PlnQpWork *w)
{
    if (w == NULL) return;
    free(w->J);
    free(w->R);
    free(w->dv);
    free(w->z);
    free(w->r);
    free(w->u);
    free(w->tmp);
    free(w->s);
    free(w->rownorm);
    free(w->active);
    free(w->is_active);
    free(w->d0);
    free(w->hint);
    free(w->M);
    free(w->tq);
    free(w->work);
    free(w);
}

/* Names of the statuses of QP1. */
const char *pln_qp_status_string(PlnQpStatus s)
{
    switch (s) {
    case PLN_QP_OK: return "ok";
    case PLN_QP_INFEASIBLE: return "infeasible";
    case PLN_QP_ITER_LIMIT: return "iteration limit";
    case PLN_QP_BAD_INPUT: return "bad input";
    }
    return "unknown";
}

/* The input checks of QP1 (docs/math/qp.md sec. 4): sizes, finiteness, L's positive
 * diagonal, lb <= ub. A's rows are checked with their norms, which they set in
 * w->rownorm (eqs. QP5, QP12): a row whose sum of squares is finite has finite entries;
 * only a row where that sum is not finite is read entry by entry. */
static int qp_input_ok(const PlnQpProblem *p, PlnQpWork *w, const double *d)
{
    int n = p->n, m = p->m, i, j;
    if (d == NULL || n <= 0 || n > w->n_max || m < 0 || m > w->m_max) return 0;
    if (p->L == NULL || p->g == NULL) return 0;
    if (m > 0 && (p->A == NULL || p->b == NULL)) return 0;
    for (i = 0; i < n; ++i) {
        for (j = 0; j <= i; ++j) {
            if (!isfinite(p->L[(size_t)i * (size_t)n + (size_t)j])) return 0;
        }
        if (!(p->L[(size_t)i * (size_t)n + (size_t)i] > 0.0)) return 0;
        if (!isfinite(p->g[i])) return 0;
        if (p->lb != NULL && (isnan(p->lb[i]) || p->lb[i] == INFINITY)) return 0;
        if (p->ub != NULL && (isnan(p->ub[i]) || p->ub[i] == -INFINITY)) return 0;
        if (p->lb != NULL && p->ub != NULL && p->lb[i] > p->ub[i]) return 0;
    }
    for (i = 0; i < m; ++i) {
        const double *a = p->A + (size_t)i * (size_t)n;
        if (!isfinite(p->b[i])) return 0;
        double ss = cblas_ddot(n, a, 1, a, 1); /* (a hand-written sum is one dependent chain) */
        if (isfinite(ss)) {
            w->rownorm[i] = sqrt(ss);
            continue;
        }
        for (j = 0; j < n; ++j) {
            if (!isfinite(a[j])) return 0;
        }
        w->rownorm[i] = cblas_dnrm2(n, a, 1); /* finite entries whose squares overflow */
    }
    return 1;
}

/* a_c d - b_c of every row at d, by one dgemv (eq. QP5). */
static void qp_row_values(const PlnQpProblem *p, PlnQpWork *w, const double *d)
{
    if (p->m == 0) return;
    memcpy(w->s, p->b, (size_t)p->m * sizeof(double));
    cblas_dgemv(CblasRowMajor, CblasNoTrans, p->m, p->n, 1.0, p->A, p->n, d, 1, -1.0, w->s, 1);
}

/* Keeps constraint c as the candidate when its violation v exceeds its tolerance
 * (eq. QP12) and its distance v / norm beats the candidate's (eq. QP5). */
static void qp_consider(int c, double v, double norm, double scale, int *best, double *best_score)
{
    double score;
    if (!(v > PLN_QP_FEAS_TOL * scale)) return;
    score = v / fmax(norm, PLN_QP_MIN_ROW_NORM);
    if (*best < 0 || score > *best_score) {
        *best = c;
        *best_score = score;
    }
}

/* The most violated constraint, by violation over row norm (eq. QP5); -1 when none is
 * violated beyond its tolerance (eq. QP12). Rows from one dgemv, bounds read off d. */
static int qp_choose(const PlnQpProblem *p, PlnQpWork *w, const double *d)
{
    int n = p->n, m = p->m, c, i, best = -1;
    double dinf = 0.0, best_score = 0.0, fd;
    for (i = 0; i < n; ++i) dinf = fmax(dinf, fabs(d[i]));
    fd = fmax(1.0, dinf);
    qp_row_values(p, w, d);
    for (c = 0; c < m; ++c) {
        if (w->is_active[c]) continue;
        qp_consider(c, w->s[c], w->rownorm[c], w->rownorm[c] * fd + fabs(p->b[c]), &best,
                    &best_score);
    }
    if (p->ub != NULL) {
        for (i = 0; i < n; ++i) {
            if (w->is_active[m + i] || !isfinite(p->ub[i])) continue;
            qp_consider(m + i, d[i] - p->ub[i], 1.0, fd + fabs(p->ub[i]), &best, &best_score);
        }
    }
    if (p->lb != NULL) {
        for (i = 0; i < n; ++i) {
            if (w->is_active[m + n + i] || !isfinite(p->lb[i])) continue;
            qp_consider(m + n + i, p->lb[i] - d[i], 1.0, fd + fabs(p->lb[i]), &best, &best_score);
        }
    }
    return best;
}

/* dv = J^T n+ for the normal n+ of constraint c (eq. QP6): a dgemv for a row, one column
 * of J^T (a strided copy) for a bound. */
static void qp_project_normal(const PlnQpProblem *p, PlnQpWork *w, int c)
{
    int n = p->n, m = p->m, j;
    if (c < m) {
        /* n+ = -a_c */
        cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, -1.0, w->J, n, p->A + (size_t)c * (size_t)n,
                    1, 0.0, w->dv, 1);
    } else if (c < m + n) {
        /* n+ = -e_i: J^T e_i is the i-th row of J, the i-th entry of each stored column */
        for (j = 0; j < n; ++j) w->dv[j] = -w->J[(size_t)j * (size_t)n + (size_t)(c - m)];
    } else {
        for (j = 0; j < n; ++j) w->dv[j] = w->J[(size_t)j * (size_t)n + (size_t)(c - m - n)];
    }
}

/* n+^T d - b'_c, the paper's slack of constraint c (negative when violated; eq. QP8). */
static double qp_slack(const PlnQpProblem *p, const double *d, int c)
{
    int n = p->n, m = p->m;
    if (c < m) {
        return p->b[c] - cblas_ddot(n, p->A + (size_t)c * (size_t)n, 1, d, 1);
    }
    if (c < m + n) return p->ub[c - m] - d[c - m];
    return d[c - m - n] - p->lb[c - m - n];
}

/* n+^T z for constraint c (eq. QP8). */
static double qp_normal_dot(const PlnQpProblem *p, const double *z, int c)
{
    int n = p->n, m = p->m;
    if (c < m) return -cblas_ddot(n, p->A + (size_t)c * (size_t)n, 1, z, 1);
    if (c < m + n) return -z[c - m];
    return z[c - m - n];
}

/* Adds the constraint whose J^T n+ is in w->dv as active column q (eq. QP10): Givens
 * rotations zero dv[q+1..n-1] from the bottom, J's columns turn with them, and R gains
 * the column dv[0..q]. */
static void qp_add(PlnQpWork *w, int n, int q, int c, double u_new)
{
    int j, i;
    for (j = n - 1; j > q; --j) {
        double a = w->dv[j - 1], bb = w->dv[j], h, cs, sn;
        if (bb == 0.0) continue;
        h = hypot(a, bb);
        /* h >= |bb| > 0 */
        cs = a / h;
        sn = bb / h;
        w->dv[j - 1] = h;
        w->dv[j] = 0.0;
        cblas_drot(n, w->J + (size_t)(j - 1) * (size_t)n, 1, w->J + (size_t)j * (size_t)n, 1, cs, sn);
    }
    for (i = 0; i <= q; ++i) w->R[(size_t)i * (size_t)n + (size_t)q] = w->dv[i];
    w->active[q] = c;
    w->u[q] = u_new;
    w->is_active[c] = 1;
}

/* Drops active column k of q (eq. QP11): R loses column k, the Hessenberg part is made
 * triangular again by Givens rotations of R's rows, J's columns turn with them. */
static void qp_drop(PlnQpWork *w, int n, int q, int k)
{
    int i, j, col;
    w->is_active[w->active[k]] = 0;
    /* shift R's columns k+1..q-1 one to the left, and the active lists with them */
    for (col = k; col < q - 1; ++col) {
        for (i = 0; i <= col + 1; ++i) {
            w->R[(size_t)i * (size_t)n + (size_t)col] = w->R[(size_t)i * (size_t)n + (size_t)(col + 1)];
        }
        w->active[col] = w->active[col + 1];
        w->u[col] = w->u[col + 1];
    }
    /* zero the subdiagonal R[j+1][j], j = k..q-2 */
    for (j = k; j < q - 1; ++j) {
        double *rj = w->R + (size_t)j * (size_t)n, *rj1 = w->R + (size_t)(j + 1) * (size_t)n;
        double a = rj[j], bb = rj1[j], h, cs, sn;
        if (bb == 0.0) continue;
        h = hypot(a, bb);
        cs = a / h;
        sn = bb / h;
        rj[j] = h;
        rj1[j] = 0.0;
        if (q - 2 > j) cblas_drot(q - 2 - j, rj + j + 1, 1, rj1 + j + 1, 1, cs, sn);
        cblas_drot(n, w->J + (size_t)j * (size_t)n, 1, w->J + (size_t)(j + 1) * (size_t)n, 1, cs, sn);
    }
    /* the last column is no longer part of R */
    for (i = 0; i < q; ++i) w->R[(size_t)i * (size_t)n + (size_t)(q - 1)] = 0.0;
}

/* The minimiser d of f with the q active constraints held as equalities, and their
 * multipliers w->u, from the factors and the unconstrained minimum w->d0 (eq. QP15):
 * s_j = b'_j - n_j^T d0, y = R^-T s, d = d0 + J1 y, u = R^-1 y. */
static void qp_solve_active(const PlnQpProblem *p, PlnQpWork *w, double *d, int q)
{
    int n = p->n;
    for (int j = 0; j < q; ++j) w->r[j] = -qp_slack(p, w->d0, w->active[j]);
    cblas_dtrsv(CblasRowMajor, CblasUpper, CblasTrans, CblasNonUnit, q, w->R, n, w->r, 1);
    memcpy(d, w->d0, (size_t)n * sizeof(double));
    cblas_dgemv(CblasRowMajor, CblasTrans, q, n, 1.0, w->J, n, w->r, 1, 1.0, d, 1);
    memcpy(w->u, w->r, (size_t)q * sizeof(double));
    cblas_dtrsv(CblasRowMajor, CblasUpper, CblasNoTrans, CblasNonUnit, q, w->R, n, w->u, 1);
}

/* The listed constraints w->hint[0..nh-1] (nh <= n) made active at once (docs/math/qp.md
 * eq. QP16): M = L^-1 N by one triangular product with J = L^-T (Q = I), its Householder QR
 * M = Q [R; 0] (dgeqrt, blocks of QP_NB columns), J = L^-T Q (dgemqrt on J's columns), R's
 * diagonal made positive as QP10 makes it.
 * Returns nh, with the active set and the factors of QP4 set (d and u are the caller's,
 * QP15); or -1, the factors untouched, when a normal depends on those before it (the test
 * of step 2b: |R_kk| <= PLN_QP_DEPENDENT_REL |M_k|), which the one-by-one additions skip. */
static int qp_warm_blocked(const PlnQpProblem *p, PlnQpWork *w, int nh)
{
    int n = p->n, m = p->m, nb;
    if (nh <= 1) return -1; /* one addition is as cheap one by one */
    /* M's column k first = -n+ of hint k: a_c for a row, e_i for an upper bound, -e_i for
     * a lower */
    memset(w->M, 0, (size_t)nh * (size_t)n * sizeof(double));
    for (int k = 0; k < nh; ++k) {
        int c = w->hint[k];
        double *col = w->M + (size_t)k * (size_t)n;
        if (c < m) memcpy(col, p->A + (size_t)c * (size_t)n, (size_t)n * sizeof(double));
        else if (c < m + n) col[c - m] = 1.0;
        else col[c - m - n] = -1.0;
    }
    /* w->J read as a column-major matrix is J itself (its rows are J's columns), here
     * L^-T, upper triangular: M = L^-1 N = -J^T M by one triangular product */
    cblas_dtrmm(CblasColMajor, CblasLeft, CblasUpper, CblasTrans, CblasNonUnit, n, nh, -1.0, w->J, n, w->M, n);
    for (int k = 0; k < nh; ++k) w->dv[k] = cblas_dnrm2(n, w->M + (size_t)k * (size_t)n, 1); /* |M_k| */
    nb = nh < QP_NB ? nh : QP_NB;
    if (LAPACKE_dgeqrt_work(LAPACK_COL_MAJOR, n, nh, nb, w->M, n, w->tq, nb, w->work) != 0) return -1;
    for (int k = 0; k < nh; ++k) {
        if (!(fabs(w->M[(size_t)k * (size_t)n + (size_t)k]) > PLN_QP_DEPENDENT_REL * w->dv[k])) return -1;
    }
    /* J <- J Q (w->J, column-major, is J) */
    if (LAPACKE_dgemqrt_work(LAPACK_COL_MAJOR, 'R', 'N', n, n, nh, nb, w->M, n, w->tq, nb, w->J, n, w->work) != 0) {
        return -1;
    }
    for (int k = 0; k < nh; ++k) {
        double sgn = w->M[(size_t)k * (size_t)n + (size_t)k] < 0.0 ? -1.0 : 1.0;
        for (int j = k; j < nh; ++j) w->R[(size_t)k * (size_t)n + (size_t)j] = sgn * w->M[(size_t)j * (size_t)n + (size_t)k];
        if (sgn < 0.0) cblas_dscal(n, -1.0, w->J + (size_t)k * (size_t)n, 1);
        w->active[k] = w->hint[k];
        w->is_active[w->hint[k]] = 1;
    }
    return nh;
}

/* The warm start (docs/math/qp.md sec. 7, eq. QP14): the constraints of p->start made
 * active as equalities from the unconstrained minimum d0, each by the full step of eq.
 * QP8-QP10 whatever its sign (t2 alone: no dual blocking). While some multipliers are
 * negative, those constraints are dropped from the factors (QP11) and d and u recomputed
 * for the rest held as equalities (QP15). On return d and the active set are a pair of
 * GI's method (d the minimiser over the active constraints held as equalities, u >= 0),
 * from which the cold-start loop goes on. Returns the active count q; *iter counts the
 * steps. */
static int qp_drop_negative(const PlnQpProblem *p, PlnQpWork *w, double *d, int q, int *iter);

static int qp_warm_start(const PlnQpProblem *p, PlnQpWork *w, double *d, int *iter, int *blocked)
{
    int n = p->n, m = p->m, nh = 0, q = 0;
    /* the usable entries, once each, in the caller's order */
    for (int k = 0; k < p->n_start; ++k) {
        int c = p->start[k];
        if (c < 0 || c >= m + 2 * n || w->is_active[c]) continue;
        if (c >= m && c < m + n && (p->ub == NULL || !isfinite(p->ub[c - m]))) continue;
        if (c >= m + n && (p->lb == NULL || !isfinite(p->lb[c - m - n]))) continue;
        w->is_active[c] = 1; /* marks "listed" for the moment */
        w->hint[nh++] = c;
    }
    for (int k = 0; k < nh; ++k) w->is_active[w->hint[k]] = 0;
    q = qp_warm_blocked(p, w, nh < n ? nh : n);
    if (q > 0) {
        /* d and u for the listed constraints as equalities (QP15), then the drops below */
        qp_solve_active(p, w, d, q);
        *iter += q;
        *blocked = 1;
        nh = 0; /* nothing left for the one-by-one additions */
    } else {
        q = 0;
    }
    for (int k = 0; k < nh && q < n; ++k) {
        int c = w->hint[k];
        double norm_all, norm_free, zn, t;
        qp_project_normal(p, w, c);
        norm_all = cblas_dnrm2(n, w->dv, 1);
        norm_free = cblas_dnrm2(n - q, w->dv + q, 1);
        if (!(norm_free > PLN_QP_DEPENDENT_REL * norm_all)) continue; /* dependent: skipped */
        cblas_dgemv(CblasRowMajor, CblasTrans, n - q, n, 1.0, w->J + (size_t)q * (size_t)n, n, w->dv + q, 1, 0.0,
                    w->z, 1);
        memcpy(w->r, w->dv, (size_t)q * sizeof(double));
        if (q > 0) cblas_dtrsv(CblasRowMajor, CblasUpper, CblasNoTrans, CblasNonUnit, q, w->R, n, w->r, 1);
        zn = qp_normal_dot(p, w->z, c);
        if (!(zn > 0.0)) continue;
        /* the step that makes c hold with equality, either sign (eq. QP14) */
        t = -qp_slack(p, d, c) / zn;
        cblas_daxpy(n, t, w->z, 1, d, 1);
        for (int j = 0; j < q; ++j) w->u[j] -= t * w->r[j];
        qp_add(w, n, q, c, t);
        ++q;
        ++*iter;
    }
    return qp_drop_negative(p, w, d, q, iter);
}

/* The q active constraints with their multipliers w->u (QP15): those with negative ones
 * leave, the last first (QP11 keeps the factors of the others), and the rest are solved for
 * afresh (QP15): y = R^-T s with s_j = b'_j - n_j^T d0, d = d0 + J1 y, u = R^-1 y; each round
 * drops one at least. Returns the active count left (d = d0 when none). */
static int qp_drop_negative(const PlnQpProblem *p, PlnQpWork *w, double *d, int q, int *iter)
{
    int n = p->n;
    for (;;) {
        int dropped = 0;
        for (int j = q - 1; j >= 0; --j) {
            if (w->u[j] >= 0.0) continue;
            qp_drop(w, n, q, j);
            --q;
            ++dropped;
            ++*iter;
        }
        if (dropped == 0 || q == 0) break;
        qp_solve_active(p, w, d, q);
    }
    if (q == 0) memcpy(d, w->d0, (size_t)n * sizeof(double));
    return q;
}

/* U <- U^-1 for the upper triangular k x k matrix U (column-major, leading dimension ld,
 * nonzero diagonal; the strictly lower part is neither read nor written), by halves:
 * [U11 U12; 0 U22]^-1 = [U11^-1, -U11^-1 U12 U22^-1; 0, U22^-1], two triangular products
 * per level (BLAS 3, k^3/3 flops in all). OpenBLAS's dtrtri runs its unblocked level-2 code
 * on one thread: slower here than a solve against the identity (n^3 flops). */
static void qp_upper_inverse(int k, double *U, int ld)
{
    if (k <= 16) {
        /* columns left to right: column j of the inverse from the inverse's first j columns */
        for (int j = 0; j < k; ++j) {
            double *cj = U + (size_t)j * (size_t)ld, djj = 1.0 / cj[j];
            cj[j] = djj;
            /* x = -U^-1[0..j-1, 0..j-1] u_j / u_jj, the top of column j */
            cblas_dtrmv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, j, U, ld, cj, 1);
            cblas_dscal(j, -djj, cj, 1);
        }
        return;
    }
    int h = k / 2;
    double *U12 = U + (size_t)h * (size_t)ld, *U22 = U12 + h;
    qp_upper_inverse(h, U, ld);
    qp_upper_inverse(k - h, U22, ld);
    cblas_dtrmm(CblasColMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, h, k - h, -1.0, U, ld, U12, ld);
    cblas_dtrmm(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, h, k - h, 1.0, U22, ld, U12, ld);
}

/* The whole method (eqs. QP2-QP13): unconstrained minimum, then add the most violated
 * constraint by primal-dual steps, dropping blocking ones, until none is violated. */
PlnQpStatus pln_qp_solve(const PlnQpProblem *p, PlnQpWork *w, double *d, double *lambda,
                         double *mu_lb, double *mu_ub, PlnQpResult *r)
{
    PlnQpStatus status = PLN_QP_OK;
    int n, m, q = 0, iter = 0, max_iter, c, i, j, p_c, reuse = 0;
    if (r != NULL) memset(r, 0, sizeof *r);
    if (w != NULL) {
        /* the last solve's factors, when the caller says they still hold (checked below) */
        reuse = p != NULL && p->same_matrices && w->last_ok && p->n == w->last_n && p->m == w->last_m;
        w->last_ok = 0;
    }
    if (p == NULL || w == NULL || !qp_input_ok(p, w, d)) {
        if (p != NULL && w != NULL && d != NULL && p->n > 0 && p->n <= w->n_max) {
            memset(d, 0, (size_t)p->n * sizeof(double));
        }
        if (r != NULL) r->status = PLN_QP_BAD_INPUT;
        return PLN_QP_BAD_INPUT;
    }
    n = p->n;
    m = p->m;
    max_iter = p->max_iter > 0 ? p->max_iter : PLN_QP_DEFAULT_ITER_FACTOR * (n + m + 2 * n);

    /* (the row norms, for the choice of the violated row and its tolerance, eqs. QP5 and
     * QP12, came with the input check) */
    memset(w->is_active, 0, (size_t)(m + 2 * n));
    /* an active bound of the last answer that is infinite now cannot be held: start over */
    for (j = 0; reuse && j < w->last_q; ++j) {
        c = w->active[j];
        if ((c >= m && c < m + n && (p->ub == NULL || !isfinite(p->ub[c - m]))) ||
            (c >= m + n && (p->lb == NULL || !isfinite(p->lb[c - m - n])))) {
            reuse = 0;
        }
    }

    /* unconstrained minimum d = -L^-T L^-1 g (eq. QP2) */
    for (i = 0; i < n; ++i) d[i] = -p->g[i];
    cblas_dtrsv(CblasRowMajor, CblasLower, CblasNoTrans, CblasNonUnit, n, p->L, n, d, 1);
    cblas_dtrsv(CblasRowMajor, CblasLower, CblasTrans, CblasNonUnit, n, p->L, n, d, 1);

    if (reuse) {
        /* eq. QP17: the last answer's active set, factors and all (the same L and normals:
         * J and R hold), d and u for it as equalities with the new b (QP15), then the drops */
        q = w->last_q;
        for (j = 0; j < q; ++j) w->is_active[w->active[j]] = 1;
        memcpy(w->d0, d, (size_t)n * sizeof(double));
        if (q > 0) {
            qp_solve_active(p, w, d, q);
            q = qp_drop_negative(p, w, d, q, &iter);
        }
        if (r != NULL) r->started = q, r->reused = 1;
        goto cold_loop;
    }
    /* J = L^-T (Q = I): its columns are the rows of L^-1 (eq. QP4). w->J (row-major, its
     * rows J's columns) is L^-1; read column-major it is L^-T, the inverse of L^T, which is
     * L read column-major: one triangular inverse (qp_upper_inverse, n^3/3 flops, where a
     * solve against the identity takes n^3), the other triangle zero */
    for (i = 0; i < n; ++i) {
        memcpy(w->J + (size_t)i * (size_t)n, p->L + (size_t)i * (size_t)n, (size_t)(i + 1) * sizeof(double));
        memset(w->J + (size_t)i * (size_t)n + i + 1, 0, (size_t)(n - i - 1) * sizeof(double));
    }
    qp_upper_inverse(n, w->J, n);
    memset(w->R, 0, (size_t)n * (size_t)n * sizeof(double));
    if (p->start != NULL && p->n_start > 0) {
        memcpy(w->d0, d, (size_t)n * sizeof(double));
        int blocked = 0;
        q = qp_warm_start(p, w, d, &iter, &blocked);
        if (r != NULL) r->started = q, r->blocked = blocked;
    }

cold_loop:
    /* step 1: choose a violated constraint (eq. QP5) */
    while ((p_c = qp_choose(p, w, d)) >= 0) {
        double u_new = 0.0;
        for (;;) {
            double t1 = INFINITY, t2 = INFINITY, t, norm_all, norm_free, zn;
            int k = -1;
            if (iter >= max_iter) {
                status = PLN_QP_ITER_LIMIT;
                goto done;
            }
            /* step 2a: dv = J^T n+, z = J2 J2^T n+, r = R^-1 J1^T n+ (eqs. QP6-QP7) */
            qp_project_normal(p, w, p_c);
            norm_all = cblas_dnrm2(n, w->dv, 1);
            norm_free = q < n ? cblas_dnrm2(n - q, w->dv + q, 1) : 0.0;
            if (q < n) {
                cblas_dgemv(CblasRowMajor, CblasTrans, n - q, n, 1.0, w->J + (size_t)q * (size_t)n, n,
                            w->dv + q, 1, 0.0, w->z, 1);
            } else {
                memset(w->z, 0, (size_t)n * sizeof(double));
            }
            memcpy(w->r, w->dv, (size_t)q * sizeof(double));
            /* R's diagonal is nonzero: set to |J2^T n+| > PLN_QP_DEPENDENT_REL |J^T n+| > 0
             * on adding, and a drop's rotation only grows it (eq. QP11) */
            if (q > 0) {
                cblas_dtrsv(CblasRowMajor, CblasUpper, CblasNoTrans, CblasNonUnit, q, w->R, n, w->r, 1);
            }

            /* step 2b: the dual step length t1, blocked by active constraint k (eq. QP8) */
            for (j = 0; j < q; ++j) {
                if (w->r[j] > 0.0) {
                    double tj = w->u[j] / w->r[j];
                    if (tj < t1) {
                        t1 = tj;
                        k = j;
                    }
                }
            }
            /* the primal step length t2, unless n+ depends on the active normals (eq. QP8) */
            if (norm_free > PLN_QP_DEPENDENT_REL * norm_all) {
                zn = qp_normal_dot(p, w->z, p_c);
                if (zn > 0.0) t2 = fmax(0.0, -qp_slack(p, d, p_c)) / zn;
            }

            /* step 2c: no step at all: the constraints are contradictory (eq. QP9) */
            if (t1 == INFINITY && t2 == INFINITY) {
                status = PLN_QP_INFEASIBLE;
                goto done;
            }
            t = fmin(t1, t2);
            /* the step (eq. QP9): a dual-only step when t2 is infinite */
            if (t2 < INFINITY) cblas_daxpy(n, t, w->z, 1, d, 1);
            for (j = 0; j < q; ++j) w->u[j] = fmax(0.0, w->u[j] - t * w->r[j]);
            u_new += t;
            ++iter;
            if (t2 <= t1) {
                /* full step: n+ joins the active set (eq. QP10) */
                qp_add(w, n, q, p_c, u_new);
                ++q;
                break;
            }
            /* partial or dual-only step: the blocking constraint leaves (eq. QP11) */
            w->u[k] = 0.0;
            qp_drop(w, n, q, k);
            --q;
        }
    }

done:
    w->last_n = n, w->last_m = m, w->last_q = q, w->last_ok = status == PLN_QP_OK;
    /* multipliers of the active set onto rows and bounds (eq. QP13) */
    if (lambda != NULL) memset(lambda, 0, (size_t)m * sizeof(double));
    if (mu_lb != NULL) memset(mu_lb, 0, (size_t)n * sizeof(double));
    if (mu_ub != NULL) memset(mu_ub, 0, (size_t)n * sizeof(double));
    for (j = 0; j < q; ++j) {
        c = w->active[j];
        if (c < m) {
            if (lambda != NULL) lambda[c] = w->u[j];
        } else if (c < m + n) {
            if (mu_ub != NULL) mu_ub[c - m] = w->u[j];
        } else if (mu_lb != NULL) {
            mu_lb[c - m - n] = w->u[j];
        }
    }
    if (r != NULL) {
        double maxv = -INFINITY, lt;
        /* constraint values afresh at the answer (eq. QP12) */
        qp_row_values(p, w, d);
        for (c = 0; c < m; ++c) maxv = fmax(maxv, w->s[c]);
        for (i = 0; i < n; ++i) {
            if (p->ub != NULL && isfinite(p->ub[i])) maxv = fmax(maxv, d[i] - p->ub[i]);
            if (p->lb != NULL && isfinite(p->lb[i])) maxv = fmax(maxv, p->lb[i] - d[i]);
        }
        r->status = status;
        r->iterations = iter;
        r->n_active = q;
        r->max_violation = maxv == -INFINITY ? 0.0 : maxv;
        /* 1/2 |L^T d|^2 + g^T d (eq. QP1) */
        memcpy(w->tmp, d, (size_t)n * sizeof(double));
        cblas_dtrmv(CblasRowMajor, CblasLower, CblasTrans, CblasNonUnit, n, p->L, n, w->tmp, 1);
        lt = cblas_ddot(n, w->tmp, 1, w->tmp, 1);
        r->objective = 0.5 * lt + cblas_ddot(n, p->g, 1, d, 1);
    }
    return status;
}
