/* pln_qp.h — a dense, strictly convex quadratic program, solved exactly.
 *
 * Contract: pln_qp_solve() returns the minimiser d of 1/2 d^T G d + g^T d over the
 * polyhedron A d <= b, lb <= d <= ub, with G = L L^T positive definite given by its
 * Cholesky factor, together with the multipliers of every row and bound, by the dual
 * active-set method of Goldfarb and Idnani (1983) (docs/math/qp.md). It either finds the
 * answer (PLN_QP_OK: no constraint violated beyond PLN_QP_FEAS_TOL of its scale, the
 * multipliers >= 0 and the KKT equation holding), proves the constraints contradictory
 * (PLN_QP_INFEASIBLE), stops after max_iter active-set changes (PLN_QP_ITER_LIMIT, with
 * the dual-feasible point reached so far), or refuses its input (PLN_QP_BAD_INPUT).
 * Every number that enters is checked for finiteness. All scratch memory lives in a
 * PlnQpWork made once for the largest sizes; a solve allocates nothing, so one workspace
 * per thread serves any number of solves. Base layer: includes only base/ and the C and
 * CBLAS headers. */
#ifndef PLN_QP_H
#define PLN_QP_H

/* max_iter <= 0 asks for PLN_QP_DEFAULT_ITER_FACTOR (n + m + 2n) active-set changes */
#define PLN_QP_DEFAULT_ITER_FACTOR 10

/* solve  min_d  1/2 d^T G d + g^T d   s.t.  A d <= b  (m rows),  lb <= d <= ub  (n bounds)
 * G = L L^T given by its lower-triangular Cholesky factor L (n x n, row-major, only the lower
 * triangle read). lb/ub may be NULL (no bounds); entries may be -INFINITY/+INFINITY. */
typedef enum PlnQpStatus { PLN_QP_OK = 0, PLN_QP_INFEASIBLE, PLN_QP_ITER_LIMIT, PLN_QP_BAD_INPUT } PlnQpStatus;

typedef struct PlnQpWork PlnQpWork; /* opaque workspace, allocated once */

/* A workspace for problems of at most n_max variables and m_max rows (n_max >= 1,
 * m_max >= 0, n_max <= 32768). NULL on allocation failure or bad sizes. */
PlnQpWork *pln_qp_work_create(int n_max, int m_max);
/* NULL is a no-op */
void pln_qp_work_destroy(PlnQpWork *w);

typedef struct PlnQpProblem {
    int n, m;               /* n <= n_max, m <= m_max of the workspace; m may be 0 */
    const double *L;        /* n*n, row-major, lower triangle: G = L L^T, positive diagonal */
    const double *g;        /* n */
    const double *A;        /* m*n row-major (NULL when m == 0) */
    const double *b;        /* m (NULL when m == 0); finite */
    const double *lb, *ub;  /* n each, nullable; lb may hold -INFINITY, ub +INFINITY */
    int max_iter;           /* active-set changes; <= 0: a default of 10 (n + m + 2n) */
    /* nullable: a warm start (docs/math/qp.md sec. 7), e.g. the active set of a QP with the
     * same rows solved just before. Constraints numbered 0..m-1 (rows), m + i (d_i <= ub_i),
     * m + n + i (lb_i <= d_i); out-of-range, repeated, infinite-bound and dependent entries
     * are skipped. They are made active first, as equalities; those whose multipliers come
     * out negative are dropped and the rest solved for again (eq. QP15), until every
     * multiplier is >= 0; then the method goes on as from a cold start. The answer is the
     * QP's one minimiser either way; only the path, and so the last bits, may differ. Each
     * equality step and each drop counts as an active-set change. */
    const int *start;
    int n_start;
    /* 1: L and A (and n, m) are those of the last solve with this workspace (e.g. a
     * second-order correction, only b changed). When that solve ended ok, its final active
     * set is the start, with its factors as they are (no J = L^-T, no QR of QP16; start is
     * not read); d and u come from QP15 with this problem's g, b and bounds, as after a warm
     * start. Otherwise (or with an active bound of the last answer infinite here) as 0. */
    int same_matrices;
} PlnQpProblem;

typedef struct PlnQpResult {
    PlnQpStatus status;
    int iterations;         /* active-set changes made */
    int started;            /* constraints of p->start active when the cold-start loop began */
    int blocked;            /* 1 when the list became active by one factorisation (QP16), 0
                             * when one by one (QP14: a listed normal depends on others) or
                             * with no list */
    int reused;             /* 1 when the last solve's factors were the start (same_matrices) */
    int n_active;           /* rows + bounds active at the answer */
    double objective;       /* 1/2 d'Gd + g'd at d */
    double max_violation;   /* largest a_i d - b_i, lb - d, d - ub (> 0 means violated), at d;
                             * 0 when there is no row and no finite bound */
} PlnQpResult;

/* d (n): the solution; lambda (m, nullable): multipliers of the rows (>= 0);
 * mu_lb, mu_ub (n each, nullable): multipliers of the bounds (>= 0).
 * KKT at OK: G d + g + A^T lambda - mu_lb + mu_ub = 0. No allocation inside.
 * r is nullable. On PLN_QP_INFEASIBLE and PLN_QP_ITER_LIMIT, d and the multipliers are
 * those of the last iterate (dual feasible, primal infeasible); on PLN_QP_BAD_INPUT d is
 * zero (when n is valid) and the multipliers are untouched. */
PlnQpStatus pln_qp_solve(const PlnQpProblem *p, PlnQpWork *w, double *d, double *lambda,
                         double *mu_lb, double *mu_ub, PlnQpResult *r);

/* "ok", "infeasible", "iteration limit", "bad input" (static strings) */
const char *pln_qp_status_string(PlnQpStatus s);

#endif /* PLN_QP_H */
