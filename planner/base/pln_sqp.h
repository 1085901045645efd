/* pln_sqp.h — the project's sequential quadratic programming method (docs/math/sqp.md).
 *
 * Minimises f(x) subject to rows c(x) <= 0, given in sets, and the box lb <= x <= ub, from
 * the caller's callbacks, which take NLopt's forms (an objective and "mconstraints") so that
 * one set of callbacks serves both optimisers. Each iteration solves the quadratic model of
 * eq. (S1) with the dense dual active-set QP of pln_qp.h, its elastic form (S2) when the
 * linearised rows are inconsistent, takes a step that lowers the exact penalty function (S3)
 * by Armijo backtracking (S5), with a second-order correction of a rejected full step (S6,
 * against the Maratos effect), and updates a dense quasi-Newton model of the Lagrangian's
 * Hessian by the damped BFGS formula (S7); where steps had to be shortened, the next QP's
 * model is that plus a multiple of B0 (S9), which shortens its step. The model starts from
 * the caller's matrix B0 (its Cholesky factor), e.g. the cost's own Hessian. Every trial
 * point is one evaluation of the objective and every row set, with gradients. A run
 * allocates its workspace once, at its start; nothing is allocated per iteration. */
#ifndef PLN_SQP_H
#define PLN_SQP_H

/* f(x); grad (n, nullable) receives df/dx. NLopt's nlopt_func. */
typedef double (*PlnSqpObjective)(unsigned n, const double *x, double *grad, void *data);
/* c(x) into c (m); grad (m x n row-major, nullable) receives dc_i/dx_j at grad[i n + j].
 * NLopt's nlopt_mfunc. */
typedef void (*PlnSqpRows)(unsigned m, double *c, unsigned n, const double *x, double *grad, void *data);

#define PLN_SQP_MAX_SETS 4

typedef struct PlnSqpRowSet {
    int m;              /* rows of the set, >= 0 */
    PlnSqpRows fn;      /* nullable when m == 0 */
    void *data;         /* borrowed */
    const double *tol;  /* m, nullable: a row holds when c_i <= tol_i (0 when NULL) */
} PlnSqpRowSet;

typedef struct PlnSqpProblem {
    int n;                          /* variables, >= 1 */
    const double *lb, *ub;          /* n each: the box (finite or infinite, lb <= ub) */
    PlnSqpObjective f;
    void *f_data;                   /* borrowed */
    int n_sets;                     /* <= PLN_SQP_MAX_SETS */
    PlnSqpRowSet sets[PLN_SQP_MAX_SETS];
    const double *B0_chol;          /* nullable: n x n column-major lower Cholesky factor of the
                                     * first model of the Hessian (the identity when NULL) */
    const int *stop;                /* nullable: the run ends (PLN_SQP_FORCED) once *stop != 0,
                                     * checked after every evaluation */
    double *model;                  /* nullable: n x n row-major. With model_in != 0 the run's
                                     * first model B (symmetric positive definite; B0 stays the
                                     * model a reset returns to); the run's last model is written
                                     * back into it, so that a run can go on from another's */
    int model_in;
} PlnSqpProblem;

typedef struct PlnSqpOptions {
    double ftol_rel;    /* stop when a feasible step changes f by at most ftol_rel |f| */
    double xtol_rel;    /* ... or moves x by at most xtol_rel |x| (infinity norms) */
    int max_evals;      /* evaluations; <= 0: no limit */
    double max_time_s;  /* wall time from the start; <= 0: no limit */
    int regularise;     /* 1 (default): the model's regularisation after shortened steps (S9);
                         * 0: the plain model B in every QP */
    double penalty_rho; /* in [0, 1): the margin of the violated rows' weights over the model's
                         * change of f (S3b; default PLN_SQP_PENALTY_RHO); 0: the weights are
                         * the multipliers' alone (S3) */
} PlnSqpOptions;

typedef enum PlnSqpStop {
    PLN_SQP_FTOL = 1,      /* converged: a feasible step changed f by at most ftol_rel (or no
                            * step could lower the penalty function at a point within
                            * PLN_SQP_STALL_VIOL of feasible: rounding, sec. 4) */
    PLN_SQP_XTOL,          /* converged: a feasible step moved x by at most xtol_rel */
    PLN_SQP_MAXEVAL,       /* the evaluation budget ran out */
    PLN_SQP_MAXTIME,       /* the time budget ran out */
    PLN_SQP_FORCED,        /* *stop was set by a callback */
    PLN_SQP_STALLED,       /* no step lowered the penalty function (rounding, or an
                            * inconsistent linearisation that the elastic model cannot leave) */
    PLN_SQP_BAD_INPUT,     /* sizes, bounds, NaN from a callback at the start */
    PLN_SQP_OUT_OF_MEMORY
} PlnSqpStop;

typedef struct PlnSqpResult {
    PlnSqpStop stop;
    int evaluations;       /* objective (and row) evaluations made */
    int iterations;        /* accepted steps */
    int qp_solves;         /* quadratic subproblems solved (elastic and corrections included) */
    int corrections;       /* second-order corrections accepted (S6) */
    int elastic;           /* iterations whose model needed the elastic form (S2) */
    int resets;            /* returns of the quasi-Newton model to B0 */
    int regularised;       /* accepted steps whose QP's model was B + sigma B0 with sigma > 0 (S9) */
    int penalty_raised;    /* QPs after which the violated rows' weights were raised (S3b) */
    int forced;            /* 1 when the run ended converged on a point where no step met the
                            * test (S5), within PLN_SQP_STALL_VIOL of the rows' tolerances */
    double f;              /* f at the returned x */
    double max_violation;  /* max_i (c_i - tol_i) at the returned x (<= 0: feasible) */
} PlnSqpResult;

PlnSqpOptions pln_sqp_options_default(void);

/* Runs the method from x (n, in/out: the start, then the last accepted iterate, inside the
 * box). Returns the stop reason, also in *result (nullable). */
PlnSqpStop pln_sqp_minimize(const PlnSqpProblem *p, const PlnSqpOptions *opt, double *x, PlnSqpResult *result);

const char *pln_sqp_stop_string(PlnSqpStop s);

#endif /* PLN_SQP_H */
