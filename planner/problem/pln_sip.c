/* pln_sip.c — NLopt driver of the trajectory optimisation: an exchange method for the
 * semi-infinite programme (thesis sec. VI.A.1, Fig. 6.1; docs/math/planner.md sec. 5). */
#include "problem/pln_sip.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <nlopt.h>
#include <stdlib.h>
#include <string.h>

#include "base/pln_clock.h"
#include "base/pln_sqp.h"
#include "base/pln_tolerance.h"
#include "base/pln_watchdog.h"

/* Seconds between two progress lines. */
#define PLN_PROGRESS_PERIOD_S 0.5

/* Rounds of the exchange loop: each round optimises over the rows of the working set,
 * then adds the rows that came near; and the extra restarts of a round that stopped
 * infeasible without new rows. */
#define PLN_SIP_MAX_ROUNDS 40
#define PLN_SIP_MAX_STALLS 6

/* NLopt's random seed: fixed, so two runs of a scenario are the same run. */
#define PLN_NLOPT_SEED 20170224UL

/* state shared by the NLopt callbacks */
typedef struct SipContext {
    const PlnProblem *p;
    PlnProblemWork *w;
    PlnAlgorithm algorithm; /* the one this run uses (never PLN_ALGORITHM_AUTO) */
    nlopt_opt opt;         /* NULL when the round runs the project's SQP */
    int stop;              /* a callback ends the round (the SQP's stop flag; NLopt is also told) */
    double *sqp_model;     /* [n * n] nullable: the SQP's model of the Hessian, carried from a
                            * round to the next of one exchange loop (docs/math/sqp.md sec. 3) */
    int sqp_model_ok;      /* it holds a round's last model, of this phase (elastic or not) */
    int sqp_model_elastic;
    FILE *progress;
    int verbose;           /* every evaluation, not once per period */
    double start, last_print;
    int evaluations;
    double cost;
    double worst;          /* worst row of the last full evaluation */
    int worst_row;
    double *c_all;         /* [m] every row at the last evaluation */
    double *g_all;         /* [m * n] their gradients */
    /* the point of the last evaluation into c_all, g_all (evaluate_all): NLopt's SLSQP asks
     * again, with gradients, for the point its line search accepted (eq. P7d) */
    double *memo_x;        /* [n] */
    int memo_ok;           /* c_all (and g_all when memo_grad) hold the rows at memo_x */
    int memo_frozen, memo_grad;
    int fresh_rows;        /* PlnSipRun.fresh_rows: no reuse */
    int grad_always;       /* the constraint callback computes gradients unasked (eq. P7d) */
    int row_evaluations;   /* evaluations that computed the rows */
    int *working;          /* [m_work] rows given to NLopt one by one */
    int m_work;
    int m_round;           /* rows NLopt sees in the current round (working + aggregates) */
    int agg[5];            /* an aggregate row for the velocity / collision / balance /
                              dynamics / floor rows outside */
    char *in_work;         /* [m] row is in the working set */
    double *margin;        /* [m] frozen margin of each collision and balance row in a round */
    double trust;          /* box trust region of a round, rad per variable (0: none) */
    double *tlb, *tub;     /* [n] the round's bounds: the problem's, cut to the trust box */
    int elastic;           /* the elastic phase: task rows are in the objective, not rows */
    double *c_kin;         /* [row_collision] the task rows of the elastic objective */
    double *g_kin;         /* [row_collision * n] their gradients */
    double time_used;      /* s of the time limit that earlier runs spent (PlnSipRun) */
    double *x_best;        /* [n] the exchange loop's point of least worst row */
    double *x_last;        /* nullable [n]: where a loop that went back to x_best ended */
    int reverted;          /* the loop went back to x_best (x_last holds its last point) */
    /* the best point a round evaluated (eq. P7b): a round that its budget stops ends there,
     * not on its last trial point */
    double *x_obj;         /* [n] the point of the last objective evaluation */
    double cost_obj;       /* its objective */
    double *x_seen;        /* [n] the best evaluated point of the round */
    double seen_worst, seen_cost;
    int have_seen;
    double elastic_norm;   /* the elastic objective is divided by this (its value at the
                              phase's start, at least 1), so that it starts near 1 */
    /* the round's start and its best point other than the start (eq. P7c) */
    double *x_first;       /* [n] the round's first evaluated point */
    double *x_moved;       /* [n] its best evaluated point other than x_first */
    double moved_worst, moved_cost;
    int round_points;      /* points of the round track_seen was given */
    int have_moved;
    /* the preconditioned variables z = L^T x (eq. P23) */
    double *pre_L;         /* [n * n] nullable: lower Cholesky factor, column-major */
    double *pre_linv;      /* [n * n] L^-1, column-major: column i is d x_i / d z */
    double *pre_x;         /* [n] x of the z NLopt gives */
    char *pre_clamped;     /* [n] pre_point clamped this coordinate into the box */
    double *pre_free_lb, *pre_free_ub; /* [n] -inf and +inf: NLopt's bounds in z */
    int pre_on;            /* this round runs in z */
    /* the limit rows of the preconditioned rounds in a working set of their own (eq. P23b):
     * row r < n is x_r - tub_r, row n + i is tlb_i - x_i */
    char *lim_in;          /* [2 n] the limit row is given to NLopt one by one */
    int *lim_rows;         /* [2 n] those rows */
    int m_lim;
    int lim_agg;           /* an aggregate row stands for the limit rows outside */
    int pre_off;           /* a stall happened: the loop's later rounds run in x */
    PlnStatus failure;
    char err[512];
} SipContext;

/* x = L^-T z (eq. P23) */
static void pre_to_x(const SipContext *ctx, const double *z, double *x)
{
    const int n = ctx->p->n_vars;
    memcpy(x, z, (size_t)n * sizeof *x);
    cblas_dtrsv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, n, ctx->pre_L, n, x, 1);
}

/* The point the rows and the objective are evaluated at: x = L^-T z, clamped into the
 * round's box widened by PLN_SIP_PRECOND_SLACK of each variable's range (eq. P23). In z
 * the box is rows, which SLSQP's trial steps may cross; near the box the functions are
 * evaluated as they are (smooth), a wild step is held back (a joint far beyond its limits
 * made its Taylor model overflow). pre_clamped[i] marks the clamped coordinates, whose
 * partial derivatives are then zero. */
static void pre_point(SipContext *ctx, const double *z)
{
    const PlnProblem *p = ctx->p;
    const int n = p->n_vars;
    pre_to_x(ctx, z, ctx->pre_x);
    for (int i = 0; i < n; ++i) {
        double v = ctx->pre_x[i], slack = PLN_SIP_PRECOND_SLACK * (p->ub[i] - p->lb[i]);
        double lo = ctx->tlb[i] - slack, hi = ctx->tub[i] + slack;
        ctx->pre_clamped[i] = !(v >= lo && v <= hi);
        ctx->pre_x[i] = fmin(fmax(v, lo), hi);
    }
}

/* zeroes, in `rows` gradients (row-major, n each) with respect to x, the partials of the
 * coordinates pre_point clamped */
static void pre_zero_clamped(const SipContext *ctx, double *g, int rows)
{
    const int n = ctx->p->n_vars;
    for (int i = 0; i < n; ++i) {
        if (!ctx->pre_clamped[i]) continue;
        for (int r = 0; r < rows; ++r) g[(size_t)r * n + i] = 0.0;
    }
}

/* z = L^T x, in place */
static void pre_to_z(const SipContext *ctx, double *x)
{
    const int n = ctx->p->n_vars;
    cblas_dtrmv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, n, ctx->pre_L, n, x, 1);
}

/* gradients of `rows` functions (row-major, n each) from x to z: g_z = L^-1 g_x (eq. P23) */
static void pre_grad(const SipContext *ctx, double *g, int rows)
{
    const int n = ctx->p->n_vars;
    if (rows <= 0) return;
    cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, n, rows, 1.0,
                ctx->pre_L, n, g, n);
}

static void print_progress(SipContext *ctx, int final)
{
    char row[160] = "-";
    double t = pln_clock_s();
    if (ctx->progress == NULL) return;
    if (!final && !ctx->verbose && t - ctx->last_print < PLN_PROGRESS_PERIOD_S) return;
    ctx->last_print = t;
    if (ctx->worst_row >= 0) pln_problem_row_name(ctx->p, ctx->worst_row, row, sizeof row);
    fprintf(ctx->progress, "%s eval %5d  cost %.6e  worst %+.3e (%s)  rows %d/%d  mcd %ld  %.2f s\n",
            final ? "done" : "    ", ctx->evaluations, ctx->cost, ctx->worst, row,
            ctx->m_work + ctx->agg[0] + ctx->agg[1] + ctx->agg[2] + ctx->agg[3] + ctx->agg[4], ctx->p->m, ctx->w->mcd_calls,
            t - ctx->start);
    fflush(ctx->progress);
}

/* The scale of a task row in the elastic objective: its tolerance (m or rad; for an
 * orientation row, 1 - cos of the angle), at least PLN_SIP_ELASTIC_MIN_SCALE. */
static double elastic_scale(const PlnProblem *p, int row)
{
    const PlnTask *task = &p->scenario->tasks[p->rows[row].index];
    double s = p->rows[row].kind == PLN_ROW_ORIENTATION_TASK ? 1.0 - cos(task->orientation_tolerance)
                                                             : task->tolerance;
    return fmax(s, PLN_SIP_ELASTIC_MIN_SCALE);
}

/* The elastic penalty of the task rows in c (docs/math/planner.md eq. P15):
 * W sum_r (max(0, c_r) / s_r)^2, and its gradient added to grad (nullable) from g. */
static double elastic_penalty(const PlnProblem *p, const double *c, const double *g, double *grad)
{
    double sum = 0.0;
    for (int r = 0; r < p->row_collision; ++r) {
        double s, v;
        /* the task box rows (eq. P11b) only restate the task rows */
        if (!pln_problem_row_is_task(p, r) || p->rows[r].kind == PLN_ROW_TASK_BOX || !(c[r] > 0.0)) continue;
        s = elastic_scale(p, r);
        v = c[r] / s;
        sum += PLN_SIP_ELASTIC_WEIGHT * v * v;
        if (grad != NULL) {
            double k = 2.0 * PLN_SIP_ELASTIC_WEIGHT * v / s;
            for (int i = 0; i < p->n_vars; ++i) grad[i] += k * g[(size_t)r * p->n_vars + i];
        }
    }
    return sum;
}

static double objective_x(unsigned n, const double *x, double *grad, void *data);

/* a callback ends the round: NLopt's or the SQP's */
static void sip_force_stop(SipContext *ctx)
{
    ctx->stop = 1;
    if (ctx->opt != NULL) nlopt_force_stop(ctx->opt);
}

/* NLopt's objective: in z when the round is preconditioned (eq. P23) */
static double objective(unsigned n, const double *x, double *grad, void *data)
{
    SipContext *ctx = data;
    double f;
    if (!ctx->pre_on) return objective_x(n, x, grad, data);
    pre_point(ctx, x);
    f = objective_x(n, ctx->pre_x, grad, data);
    if (grad != NULL) {
        pre_zero_clamped(ctx, grad, 1);
        pre_grad(ctx, grad, 1);
    }
    return f;
}

static double objective_x(unsigned n, const double *x, double *grad, void *data)
{
    SipContext *ctx = data;
    (void)n;
    ctx->cost = pln_problem_cost(ctx->p, ctx->w, x, grad);
    if (ctx->elastic) {
        PlnStatus st = pln_problem_kinematic_rows(ctx->p, ctx->w, x, ctx->c_kin,
                                                  grad != NULL ? ctx->g_kin : NULL, ctx->err,
                                                  sizeof ctx->err);
        if (st != PLN_OK) {
            ctx->failure = st;
            sip_force_stop(ctx);
            return NAN;
        }
        ctx->cost += elastic_penalty(ctx->p, ctx->c_kin, ctx->g_kin, grad);
        ctx->cost /= ctx->elastic_norm;
        if (grad != NULL) {
            for (unsigned i = 0; i < n; ++i) grad[i] /= ctx->elastic_norm;
        }
    }
    memcpy(ctx->x_obj, x, (size_t)n * sizeof *x);
    ctx->cost_obj = ctx->cost;
    ++ctx->evaluations;
    /* with rows, the line is printed once they are evaluated at this x (constraints()),
     * so that its worst row is this point's, not the previous one's */
    if (ctx->m_round == 0) print_progress(ctx, 0);
    return ctx->cost;
}

/* evaluates every row into c_all (and g_all when grad is wanted); worst row tracked */
static PlnStatus evaluate_all(SipContext *ctx, const double *x, int want_grad, int frozen)
{
    const PlnProblem *p = ctx->p;
    PlnStatus st;
    /* eq. P7d: the rows at the same point, with the same margins and working set (memo_ok
     * is cleared wherever those change), are those of the last evaluation */
    if (!ctx->fresh_rows && ctx->memo_ok && frozen == ctx->memo_frozen && (!want_grad || ctx->memo_grad) &&
        memcmp(x, ctx->memo_x, (size_t)p->n_vars * sizeof *x) == 0) {
        return PLN_OK;
    }
    ctx->memo_ok = 0;
    ++ctx->row_evaluations;
    ctx->w->frozen_margin = frozen ? ctx->margin : NULL;
    ctx->w->work_rows = ctx->in_work; /* gradients: the working rows and the aggregates' */
    st = pln_problem_constraints(p, ctx->w, x, ctx->c_all, want_grad ? ctx->g_all : NULL,
                                 ctx->err, sizeof ctx->err);
    ctx->w->frozen_margin = NULL;
    ctx->w->work_rows = NULL;
    if (st != PLN_OK) return st;
    memcpy(ctx->memo_x, x, (size_t)p->n_vars * sizeof *x);
    ctx->memo_ok = 1;
    ctx->memo_frozen = frozen;
    ctx->memo_grad = want_grad;
    ctx->worst = p->m > 0 ? -HUGE_VAL : 0.0;
    ctx->worst_row = -1;
    for (int i = 0; i < p->m; ++i) {
        if (ctx->elastic && pln_problem_row_is_task(p, i)) continue; /* in the objective */
        if (ctx->c_all[i] > ctx->worst) {
            ctx->worst = ctx->c_all[i];
            ctx->worst_row = i;
        }
    }
    return PLN_OK;
}

/* aggregated kinds: velocity, collision, balance, dynamics, floor */
#define N_AGG 5
static const PlnRowKind AGG_KIND[N_AGG] = {PLN_ROW_VELOCITY, PLN_ROW_COLLISION, PLN_ROW_BALANCE,
                                           PLN_ROW_DYNAMICS, PLN_ROW_FLOOR};

/* the largest row of `kind` outside the working set, or -1 */
static int outside_max(const SipContext *ctx, PlnRowKind kind)
{
    const PlnProblem *p = ctx->p;
    int best = -1;
    for (int i = 0; i < p->m; ++i) {
        if (ctx->in_work[i] || p->rows[i].kind != kind) continue;
        if (best < 0 || ctx->c_all[i] > ctx->c_all[best]) best = i;
    }
    return best;
}

/* 1 when a point of worst row w1 and cost f1 is better than one of w2, f2 (eq. P7b): less
 * violation first (worst rows at or below PLN_SIP_FEASIBLE count as none), then less cost */
static int seen_better(double w1, double f1, double w2, double f2)
{
    double v1 = w1 > PLN_SIP_FEASIBLE ? w1 : 0.0, v2 = w2 > PLN_SIP_FEASIBLE ? w2 : 0.0;
    if (v1 != v2) return v1 < v2;
    return f1 < f2;
}

/* how far x lies outside the round's box (0 inside): in a preconditioned round the limits
 * are rows that trial points may cross (eq. P23), and a point beyond them is no better
 * than its largest crossing */
static double box_excess(const SipContext *ctx, const double *x)
{
    double out = 0.0;
    for (int i = 0; i < ctx->p->n_vars; ++i) out = fmax(out, fmax(ctx->tlb[i] - x[i], x[i] - ctx->tub[i]));
    return out;
}

/* the point x whose rows were just evaluated (ctx->worst, frozen margins): kept as the
 * round's best when the objective was evaluated at the same x and it is better; in a
 * preconditioned round its worst row counts the limit rows too */
static void track_seen(SipContext *ctx, unsigned n, const double *x)
{
    int first = ctx->round_points++ == 0;
    double worst = ctx->pre_on ? fmax(ctx->worst, box_excess(ctx, x)) : ctx->worst;
    if (first) memcpy(ctx->x_first, x, (size_t)n * sizeof *x);
    if (memcmp(x, ctx->x_obj, (size_t)n * sizeof *x) != 0 || !isfinite(ctx->cost_obj)) return;
    if (!first && (!ctx->have_moved || seen_better(worst, ctx->cost_obj, ctx->moved_worst, ctx->moved_cost))) {
        memcpy(ctx->x_moved, x, (size_t)n * sizeof *x);
        ctx->moved_worst = worst;
        ctx->moved_cost = ctx->cost_obj;
        ctx->have_moved = 1;
    }
    if (ctx->have_seen && !seen_better(worst, ctx->cost_obj, ctx->seen_worst, ctx->seen_cost)) return;
    memcpy(ctx->x_seen, x, (size_t)n * sizeof *x);
    ctx->seen_worst = worst;
    ctx->seen_cost = ctx->cost_obj;
    ctx->have_seen = 1;
}

/* NLopt's vector constraint: the working rows, then the aggregate rows (the largest
 * velocity, collision and balance rows outside the working set; a max of smooth rows, so
 * no row can be violated unseen between exchanges; docs/math/planner.md eq. P7) */
static void constraints_x(unsigned m, double *c, unsigned n, const double *x, double *grad,
                          void *data);

/* NLopt's vector constraint: in z when the round is preconditioned (eq. P23) */
static void constraints(unsigned m, double *c, unsigned n, const double *x, double *grad,
                        void *data)
{
    SipContext *ctx = data;
    if (!ctx->pre_on) {
        constraints_x(m, c, n, x, grad, data);
        return;
    }
    pre_point(ctx, x);
    constraints_x(m, c, n, ctx->pre_x, grad, data);
    if (grad != NULL) {
        pre_zero_clamped(ctx, grad, (int)m);
        pre_grad(ctx, grad, (int)m);
    }
}

/* the value at x of limit row r (eq. P23b) */
static double limit_value(const SipContext *ctx, int r, const double *x)
{
    const int n = ctx->p->n_vars;
    return r < n ? x[r] - ctx->tub[r] : ctx->tlb[r - n] - x[r - n];
}

/* The joint limits of a preconditioned round (eq. P23, P23b): the round's box tlb <= x <= tub
 * on the control points (the limits, cut to the trust box on meshes) is rows x_i - tub_i <=
 * 0 and tlb_i - x_i <= 0 in z, with the constant gradients +-(L^-1 e_i). NLopt is given
 * those in the limit working set (lim_rows) one by one and, for the others, their largest
 * (an aggregate, as for the other rows outside the working set, eq. P7) */
static void limit_rows(unsigned m, double *c, unsigned n, const double *z, double *grad,
                       void *data)
{
    SipContext *ctx = data;
    int best = -1;
    double best_c = -HUGE_VAL;
    (void)m;
    pre_to_x(ctx, z, ctx->pre_x);
    for (int k = 0; k < ctx->m_lim; ++k) c[k] = limit_value(ctx, ctx->lim_rows[k], ctx->pre_x);
    if (ctx->lim_agg) {
        for (int r = 0; r < 2 * (int)n; ++r) {
            double v;
            if (ctx->lim_in[r]) continue;
            v = limit_value(ctx, r, ctx->pre_x);
            if (best < 0 || v > best_c) {
                best = r;
                best_c = v;
            }
        }
        c[ctx->m_lim] = best_c;
    }
    if (grad == NULL) return;
    for (int k = 0; k < ctx->m_lim + ctx->lim_agg; ++k) {
        int r = k < ctx->m_lim ? ctx->lim_rows[k] : best, i = r < (int)n ? r : r - (int)n;
        const double *col = ctx->pre_linv + (size_t)i * n;
        const double sign = r < (int)n ? 1.0 : -1.0;
        double *g = grad + (size_t)k * n;
        for (unsigned j = 0; j < n; ++j) g[j] = sign * col[j];
    }
}

/* adds to the limit working set the rows within PLN_SIP_LIMIT_MARGIN of each variable's
 * range of their bound at x (eq. P23b); the set only grows within an exchange loop */
static void limit_select(SipContext *ctx, const double *x)
{
    const PlnProblem *p = ctx->p;
    const int n = p->n_vars;
    ctx->m_lim = 0;
    for (int r = 0; r < 2 * n; ++r) {
        int i = r < n ? r : r - n;
        if (limit_value(ctx, r, x) > -PLN_SIP_LIMIT_MARGIN * (p->ub[i] - p->lb[i])) ctx->lim_in[r] = 1;
        if (ctx->lim_in[r]) ctx->lim_rows[ctx->m_lim++] = r;
    }
    ctx->lim_agg = ctx->m_lim < 2 * n;
}

static void constraints_x(unsigned m, double *c, unsigned n, const double *x, double *grad,
                          void *data)
{
    SipContext *ctx = data;
    /* with gradients even where NLopt asks for none (grad_always: not with mesh rows): its
     * line search's points are asked for again with gradients when accepted (eq. P7d), and
     * most are */
    PlnStatus st = evaluate_all(ctx, x, ctx->grad_always || grad != NULL, 1);
    int k = 0;
    if (st != PLN_OK) {
        ctx->failure = st;
        for (unsigned i = 0; i < m; ++i) c[i] = NAN;
        sip_force_stop(ctx);
        return;
    }
    track_seen(ctx, n, x);
    print_progress(ctx, 0);
    for (; k < ctx->m_work; ++k) {
        int r = ctx->working[k];
        c[k] = ctx->c_all[r];
        if (grad != NULL) memcpy(grad + (size_t)k * n, ctx->g_all + (size_t)r * n, n * sizeof *grad);
    }
    for (int a = 0; a < N_AGG; ++a) {
        int r;
        if (!ctx->agg[a]) continue;
        r = outside_max(ctx, AGG_KIND[a]);
        c[k] = r >= 0 ? ctx->c_all[r] : -1.0;
        if (grad != NULL) {
            if (r >= 0) memcpy(grad + (size_t)k * n, ctx->g_all + (size_t)r * n, n * sizeof *grad);
            else memset(grad + (size_t)k * n, 0, n * sizeof *grad);
        }
        ++k;
    }
}

static nlopt_algorithm algorithm_of(PlnAlgorithm a)
{
    switch (a) {
    case PLN_ALGORITHM_MMA: return NLOPT_LD_MMA;
    case PLN_ALGORITHM_CCSAQ: return NLOPT_LD_CCSAQ;
    case PLN_ALGORITHM_AUGLAG: return NLOPT_AUGLAG;
    case PLN_ALGORITHM_SLSQP:
    case PLN_ALGORITHM_AUTO: /* (resolved by pln_sip_algorithm before) */
    case PLN_ALGORITHM_SQP: break; /* (run_round_sqp: never NLopt's) */
    }
    return NLOPT_LD_SLSQP;
}

/* optimizer.algorithm auto (docs/math/sqp.md sec. 7): the SQP, except with mesh collision
 * rows. Their values and gradients come from queries warm-started at the query before and
 * jump in their last digits; the SQP's penalty test reads that as a failed step, and
 * twist_mesh ended with its tasks relaxed where SLSQP certifies it. */
PlnAlgorithm pln_sip_algorithm(const PlnProblem *p)
{
    const PlnScenario *sc = p->scenario;
    if (sc->algorithm != PLN_ALGORITHM_AUTO) return sc->algorithm;
    return p->collision && sc->geometry == PLN_GEOMETRY_MESH ? PLN_ALGORITHM_SLSQP : PLN_ALGORITHM_SQP;
}

/* rows within reach of being active: tasks always; velocity and collision rows once
 * their value comes within a margin of zero (docs/math/planner.md sec. 5, eq. P7) */
static int near_active(const PlnProblem *p, int row, double c)
{
    switch (p->rows[row].kind) {
    case PLN_ROW_VELOCITY: return c > -PLN_SIP_VELOCITY_MARGIN;
    case PLN_ROW_COLLISION: return c > -PLN_SIP_COLLISION_MARGIN_M;
    case PLN_ROW_BALANCE: return c > -PLN_SIP_BALANCE_MARGIN_M;
    case PLN_ROW_DYNAMICS: return c > -PLN_SIP_DYNAMICS_MARGIN;
    case PLN_ROW_FLOOR: return c > -PLN_SIP_COLLISION_MARGIN_M; /* a sole near the floor */
    /* a task's box row once it holds (eq. P11b): one that is broken far from the target may
     * have no gradient (a straight arm along the offset), which would leave SLSQP's
     * linearisation without a solution; its task row leads there */
    case PLN_ROW_TASK_BOX: return c <= 0.0;
    default: return 1;
    }
}

/* adds the near-active rows to the working set; returns how many were added */
static int exchange(SipContext *ctx)
{
    const PlnProblem *p = ctx->p;
    int added = 0;
    ctx->memo_ok = 0; /* the working set decides which gradients an evaluation computes */
    for (int i = 0; i < p->m; ++i) {
        if (ctx->elastic && pln_problem_row_is_task(p, i)) continue; /* in the objective */
        /* the elastic phase starts wherever the other rows hold best (often at rest, every
         * velocity row far from its bound) and its objective pulls hard: its first steps
         * would cross many velocity rows at once, which their aggregate (a max) shows only
         * one at a time; these linear rows are cheap, so they all join at once */
        if (!ctx->in_work[i] && (near_active(p, i, ctx->c_all[i]) ||
                                 (ctx->elastic && p->rows[i].kind == PLN_ROW_VELOCITY))) {
            ctx->in_work[i] = 1;
            ctx->working[ctx->m_work++] = i;
            ++added;
        }
    }
    for (int a = 0; a < N_AGG; ++a) ctx->agg[a] = 0;
    for (int i = 0; i < p->m; ++i) {
        if (ctx->in_work[i]) continue;
        for (int a = 0; a < N_AGG; ++a) ctx->agg[a] |= p->rows[i].kind == AGG_KIND[a];
    }
    return added;
}

/* freezes the margin of every collision row, (exact distance at t*) - lower (eq. P6),
 * and of every balance row, certified max - sampled max, from the last fresh evaluation */
static void freeze_margins(SipContext *ctx)
{
    const PlnProblem *p = ctx->p;
    ctx->memo_ok = 0;
    for (int r = 0; r < p->m; ++r) {
        const PlnRow *row = &p->rows[r];
        size_t k = (size_t)row->index * p->n_intervals + row->sub;
        ctx->margin[r] = 0.0;
        if (row->kind == PLN_ROW_COLLISION && p->method != DST_MCD_GSS &&
            ctx->w->mcd[k].status != DST_FAILED) { /* no bound: no margin (collision_rows) */
            ctx->margin[r] = fmax(0.0, ctx->w->exact[k] - ctx->w->mcd[k].lower);
        } else if (row->kind == PLN_ROW_BALANCE) {
            ctx->margin[r] = fmax(0.0, ctx->w->bal_bound[k] - ctx->w->bal_sample[k]);
        } else if (row->kind == PLN_ROW_DYNAMICS) {
            int q = r - p->row_dynamics;
            /* a row without a bound (PLN_DYN_UNCERTIFIED: a torque row where the floor
             * force is not certified, which its own row then shows broken, or a bound not
             * finite) freezes no margin, as a collision row without one */
            if (ctx->w->dyn_bound[q] < PLN_DYN_UNCERTIFIED) {
                ctx->margin[r] = fmax(0.0, ctx->w->dyn_bound[q] - ctx->w->dyn_sample[q]);
            }
        }
    }
}

static const char *stop_name(nlopt_result res);

/* The end of a round, NLopt's or the SQP's (x: the optimiser's answer, in x): eq. P7c's
 * restart from the best point after the start, eq. P7b's best point evaluated, the box. */
static nlopt_result round_finish(SipContext *ctx, double *x, nlopt_result res, int pre)
{
    const PlnProblem *p = ctx->p;
    if (pre && (res == NLOPT_FTOL_REACHED || res == NLOPT_XTOL_REACHED) && ctx->failure == PLN_OK &&
        ctx->have_moved &&
        memcmp(x, ctx->x_first, (size_t)p->n_vars * sizeof *x) == 0) {
        /* eq. P7c: stopped by its tolerances, NLopt answers with its best point whose rows
         * hold to within PLN_ROW_TOL; when that is the round's start, every point the round
         * moved to was infeasible and the round has not converged (SLSQP's iterates come
         * from outside; with the preconditioned model the cost settles first and ftol_rel
         * stops the round while the rows are still being met). The round goes on from its
         * best point other than the start (eq. P7b's order), which the exchange loop
         * evaluates afresh and restarts from as a stall. Preconditioned rounds only: in x
         * (and in the elastic phase, whose start meets every other row by construction) the
         * start can be the answer (lift_at_limit's elastic phase: its only moves ran into
         * the shelf) */
        if (ctx->progress != NULL) {
            fprintf(ctx->progress, "     %s at the round's start: on from its best point after it "
                                   "(worst %+.3e, cost %.6e)\n", stop_name(res), ctx->moved_worst,
                    ctx->moved_cost);
        }
        memcpy(x, ctx->x_moved, (size_t)p->n_vars * sizeof *x);
    } else if (res != NLOPT_FORCED_STOP && res != NLOPT_OUT_OF_MEMORY && res != NLOPT_INVALID_ARGS &&
        ctx->have_seen && memcmp(x, ctx->x_seen, (size_t)p->n_vars * sizeof *x) != 0) {
        /* NLopt returns its best point feasible to within the rows' tolerance (PLN_ROW_TOL,
         * far below PLN_SIP_FEASIBLE, which SLSQP's iterates rarely reach: then it returns
         * an early iterate), or, stopped by its budget, its last iterate, which may be a
         * line search's trial point. The round ends on the best point it evaluated (eq. P7b)
         * unless NLopt's is as good (its rows, frozen margins, evaluated once more) */
        double seen_worst = ctx->seen_worst, seen_cost = ctx->seen_cost;
        double cost_x = objective((unsigned)p->n_vars, x, NULL, ctx);
        PlnStatus st = ctx->failure == PLN_OK ? evaluate_all(ctx, x, 0, 1) : ctx->failure;
        double worst_x = pre ? fmax(ctx->worst, box_excess(ctx, x)) : ctx->worst;
        if (st != PLN_OK) ctx->failure = st;
        if (st == PLN_OK && seen_better(seen_worst, seen_cost, worst_x, cost_x)) {
            if (ctx->progress != NULL) {
                fprintf(ctx->progress, "     %s: back to the best point evaluated (worst %+.3e, "
                                       "cost %.6e; the last: %+.3e, %.6e)\n", stop_name(res),
                        seen_worst, seen_cost, worst_x, cost_x);
            }
            memcpy(x, ctx->x_seen, (size_t)p->n_vars * sizeof *x);
        }
    }
    if (res < 0 && res != NLOPT_FORCED_STOP && ctx->opt != NULL) {
        const char *msg = nlopt_get_errmsg(ctx->opt);
        snprintf(ctx->err, sizeof ctx->err, "NLopt stopped (%d): %s", (int)res,
                 msg ? msg : "no message");
    }
    if (pre) {
        /* the box held as rows, to within PLN_ROW_TOL (the best points of eq. P7b, P7c
         * may lie outside, by no more than PLN_SIP_PRECOND_SLACK): into it, and onto an
         * edge it came that near (the trust box's edge test of the exchange loop) */
        for (int i = 0; i < p->n_vars; ++i) {
            x[i] = fmin(fmax(x[i], ctx->tlb[i]), ctx->tub[i]);
            if (x[i] - ctx->tlb[i] <= 2.0 * PLN_ROW_TOL) x[i] = ctx->tlb[i];
            if (ctx->tub[i] - x[i] <= 2.0 * PLN_ROW_TOL) x[i] = ctx->tub[i];
        }
    }
    return res;
}

/* The optimiser's stop as NLopt's code, which the exchange loop reads */
static nlopt_result sqp_result(PlnSqpStop stop)
{
    switch (stop) {
    case PLN_SQP_FTOL: return NLOPT_FTOL_REACHED;
    case PLN_SQP_XTOL: return NLOPT_XTOL_REACHED;
    case PLN_SQP_MAXEVAL: return NLOPT_MAXEVAL_REACHED;
    case PLN_SQP_MAXTIME: return NLOPT_MAXTIME_REACHED;
    case PLN_SQP_FORCED: return NLOPT_FORCED_STOP;
    case PLN_SQP_STALLED: return NLOPT_ROUNDOFF_LIMITED;
    case PLN_SQP_OUT_OF_MEMORY: return NLOPT_OUT_OF_MEMORY;
    case PLN_SQP_BAD_INPUT: break;
    }
    return NLOPT_FAILURE;
}

/* A round by the project's SQP (docs/math/sqp.md): in x, with the round's box as its bounds,
 * the working rows and aggregates as one row set, and the cost's Hessian of eq. P23 as its
 * first model (the identity in the elastic phase, whose objective holds the tasks too). */
static nlopt_result run_round_sqp(SipContext *ctx, double *x, int m, int max_evals, double max_time)
{
    const PlnProblem *p = ctx->p;
    const PlnScenario *sc = p->scenario;
    double *tol = NULL;
    if (m > 0) {
        tol = malloc((size_t)m * sizeof *tol);
        if (tol == NULL) return NLOPT_OUT_OF_MEMORY;
        for (int k = 0; k < m; ++k) tol[k] = k < ctx->m_work ? p->row_tol[ctx->working[k]] : PLN_ROW_TOL;
    }
    PlnSqpProblem sp;
    memset(&sp, 0, sizeof sp);
    sp.n = p->n_vars;
    sp.lb = ctx->tlb, sp.ub = ctx->tub;
    sp.f = objective, sp.f_data = ctx;
    sp.n_sets = m > 0 ? 1 : 0;
    sp.sets[0].m = m, sp.sets[0].fn = constraints, sp.sets[0].data = ctx, sp.sets[0].tol = tol;
    sp.B0_chol = ctx->elastic || ctx->pre_off ? NULL : ctx->pre_L;
    sp.stop = &ctx->stop;
    /* the last round's model, when it was of this phase (the rows changed; the curvature
     * of the cost and of the rows kept mostly did not) */
    sp.model = ctx->sqp_model;
    sp.model_in = ctx->sqp_model_ok && ctx->sqp_model_elastic == ctx->elastic;
    PlnSqpOptions so = pln_sqp_options_default();
    so.ftol_rel = sc->ftol_rel, so.xtol_rel = sc->xtol_rel;
    so.max_evals = max_evals, so.max_time_s = max_time;
    ctx->opt = NULL;
    ctx->pre_on = 0;
    ctx->have_seen = 0;
    ctx->have_moved = 0;
    ctx->round_points = 0;
    memset(ctx->x_obj, 0, (size_t)p->n_vars * sizeof *ctx->x_obj);
    ctx->cost_obj = NAN;
    PlnSqpResult sr;
    nlopt_result res = sqp_result(pln_sqp_minimize(&sp, &so, x, &sr));
    free(tol);
    ctx->sqp_model_ok = ctx->sqp_model != NULL && sr.stop != PLN_SQP_BAD_INPUT && sr.stop != PLN_SQP_OUT_OF_MEMORY;
    ctx->sqp_model_elastic = ctx->elastic;
    if (ctx->progress != NULL) {
        fprintf(ctx->progress,
                "     sqp: %d steps (%d regularised), %d quadratic subproblems, %d corrections, %d elastic, %d model "
                "resets, weights raised %d times%s\n",
                sr.iterations, sr.regularised, sr.qp_solves, sr.corrections, sr.elastic, sr.resets, sr.penalty_raised,
                sr.forced ? "; ended where no step lowers the penalty (rounding)" : "");
    }
    if (res == NLOPT_FAILURE || res == NLOPT_OUT_OF_MEMORY) {
        snprintf(ctx->err, sizeof ctx->err, "the SQP stopped: %s", pln_sqp_stop_string(sr.stop));
    }
    return round_finish(ctx, x, res, 0); /* (leaves ctx->err to the SQP's message) */
}

/* one NLopt run (or SQP run, run_round_sqp) over the current working set from x */
static nlopt_result run_round(SipContext *ctx, double *x, int max_evals, double max_time)
{
    const PlnProblem *p = ctx->p;
    const PlnScenario *sc = p->scenario;
    int m = ctx->m_work + ctx->agg[0] + ctx->agg[1] + ctx->agg[2] + ctx->agg[3] + ctx->agg[4];
    double f = 0.0, *tol;
    nlopt_result res;
    /* eq. P23: in z, unless the loop stalled since it began (pre_off) or the tasks are in
     * the objective (the elastic phase: not the cost's Hessian alone) */
    const int pre = ctx->pre_L != NULL && !ctx->pre_off && !ctx->elastic;

    ctx->m_round = m;
    /* the bounds NLopt enforces hold at the start (the points of a preconditioned round
     * meet them as rows, to within PLN_ROW_TOL) */
    for (int i = 0; i < p->n_vars; ++i) x[i] = fmin(fmax(x[i], p->lb[i]), p->ub[i]);
    for (int i = 0; i < p->n_vars; ++i) {
        ctx->tlb[i] = ctx->trust > 0.0 ? fmax(p->lb[i], x[i] - ctx->trust) : p->lb[i];
        ctx->tub[i] = ctx->trust > 0.0 ? fmin(p->ub[i], x[i] + ctx->trust) : p->ub[i];
    }
    ctx->stop = 0;
    if (ctx->algorithm == PLN_ALGORITHM_SQP) return run_round_sqp(ctx, x, m, max_evals, max_time);
    ctx->opt = nlopt_create(algorithm_of(ctx->algorithm), (unsigned)p->n_vars);
    if (ctx->opt == NULL) return NLOPT_OUT_OF_MEMORY;
    /* in z the box is rows (limit_rows) and NLopt's bounds are infinite */
    nlopt_set_lower_bounds(ctx->opt, pre ? ctx->pre_free_lb : ctx->tlb);
    nlopt_set_upper_bounds(ctx->opt, pre ? ctx->pre_free_ub : ctx->tub);
    nlopt_set_min_objective(ctx->opt, objective, ctx);
    if (pre) {
        limit_select(ctx, x);
        tol = malloc(2 * (size_t)p->n_vars * sizeof *tol);
        if (tol == NULL) {
            nlopt_destroy(ctx->opt);
            return NLOPT_OUT_OF_MEMORY;
        }
        for (int k = 0; k < 2 * p->n_vars; ++k) tol[k] = PLN_ROW_TOL;
        res = nlopt_add_inequality_mconstraint(ctx->opt, (unsigned)(ctx->m_lim + ctx->lim_agg), limit_rows,
                                               ctx, tol);
        free(tol);
        if (res < 0) {
            nlopt_destroy(ctx->opt);
            return res;
        }
    }
    if (m > 0) {
        tol = malloc((size_t)m * sizeof *tol);
        if (tol == NULL) {
            nlopt_destroy(ctx->opt);
            return NLOPT_OUT_OF_MEMORY;
        }
        for (int k = 0; k < m; ++k) tol[k] = k < ctx->m_work ? p->row_tol[ctx->working[k]] : PLN_ROW_TOL;
        res = nlopt_add_inequality_mconstraint(ctx->opt, (unsigned)m, constraints, ctx, tol);
        free(tol);
        if (res < 0) {
            nlopt_destroy(ctx->opt);
            return res;
        }
    }
    nlopt_set_xtol_rel(ctx->opt, sc->xtol_rel);
    nlopt_set_ftol_rel(ctx->opt, sc->ftol_rel);
    if (ctx->algorithm == PLN_ALGORITHM_AUGLAG) {
        /* the augmented Lagrangian's subproblems: bound-constrained L-BFGS with the same
         * tolerances (the evaluation and time budgets are the outer run's, shared) */
        nlopt_opt local = nlopt_create(NLOPT_LD_LBFGS, (unsigned)p->n_vars);
        if (local == NULL) {
            nlopt_destroy(ctx->opt);
            return NLOPT_OUT_OF_MEMORY;
        }
        nlopt_set_xtol_rel(local, sc->xtol_rel);
        nlopt_set_ftol_rel(local, sc->ftol_rel);
        res = nlopt_set_local_optimizer(ctx->opt, local);
        nlopt_destroy(local);
        if (res < 0) {
            nlopt_destroy(ctx->opt);
            return res;
        }
    }
    nlopt_set_maxeval(ctx->opt, max_evals);
    nlopt_set_maxtime(ctx->opt, max_time);
    ctx->have_seen = 0;
    ctx->have_moved = 0;
    ctx->round_points = 0;
    memset(ctx->x_obj, 0, (size_t)p->n_vars * sizeof *ctx->x_obj);
    ctx->cost_obj = NAN;
    if (pre) pre_to_z(ctx, x);
    ctx->pre_on = pre;
    res = nlopt_optimize(ctx->opt, x, &f);
    if (pre) {
        pre_point(ctx, x); /* as the evaluations saw it (x_first, x_seen, x_moved) */
        memcpy(x, ctx->pre_x, (size_t)p->n_vars * sizeof *x);
        ctx->pre_on = 0;
    }
    res = round_finish(ctx, x, res, pre);
    nlopt_destroy(ctx->opt);
    ctx->opt = NULL;
    return res;
}

static const char *stop_name(nlopt_result res)
{
    switch (res) {
    case NLOPT_SUCCESS: return "success";
    case NLOPT_STOPVAL_REACHED: return "stopval reached";
    case NLOPT_FTOL_REACHED: return "ftol_rel reached";
    case NLOPT_XTOL_REACHED: return "xtol_rel reached";
    case NLOPT_MAXEVAL_REACHED: return "evaluation limit reached";
    case NLOPT_MAXTIME_REACHED: return "time limit reached";
    case NLOPT_ROUNDOFF_LIMITED: return "roundoff limited";
    case NLOPT_FORCED_STOP: return "stopped by an evaluation error";
    default: return "failed";
    }
}

/* The exchange loop (docs/math/planner.md sec. 5): optimise over the working set, add the
 * rows that came near, repeat until a round ends feasible with nothing to add, or the
 * budget (evaluations up to eval_cap, the scenario's time limit) is spent. A loop that
 * ends infeasible, for a caller that gives x_last, returns the point of least worst row
 * among its start and its rounds' ends and leaves its last point in x_last (a round can
 * diverge: SLSQP's quasi-Newton model on a new working set once took a whole-body plan
 * from a worst row of 7e-3 to 3e4). On return the rows of x were evaluated afresh. */
static PlnStatus exchange_loop(SipContext *ctx, double *x, int eval_cap, nlopt_result *out,
                               char *err, size_t err_size)
{
    const PlnProblem *p = ctx->p;
    const PlnScenario *sc = p->scenario;
    nlopt_result res = NLOPT_SUCCESS;
    int stalls = 0, improved = 0, retried = 0;
    double best_worst = ctx->worst; /* the start's, evaluated afresh by the caller */
    const double start_worst = ctx->worst;
    PlnStatus st;
    ctx->pre_off = 0;
    ctx->sqp_model_ok = 0;
    if (ctx->lim_in != NULL) memset(ctx->lim_in, 0, 2 * (size_t)p->n_vars);
    memcpy(ctx->x_best, x, (size_t)p->n_vars * sizeof *x);
again:
    for (int round = 0; round < PLN_SIP_MAX_ROUNDS; ++round) {
        double left_time = sc->time_limit - ctx->time_used - (pln_clock_s() - ctx->start);
        int left_evals = eval_cap - ctx->evaluations, added;
        if (left_time <= 0.0 || left_evals <= 0) {
            /* the budget ran out between rounds (in the evaluations around them): say so,
             * not the last round's own stop */
            res = left_time <= 0.0 ? NLOPT_MAXTIME_REACHED : NLOPT_MAXEVAL_REACHED;
            break;
        }
        int round_cap = ctx->trust > 0.0 && PLN_SIP_MESH_ROUND_EVALS < left_evals ? PLN_SIP_MESH_ROUND_EVALS : left_evals;
        freeze_margins(ctx);
        res = run_round(ctx, x, round_cap, left_time);
        if (ctx->failure != PLN_OK) return pln_errorf(ctx->failure, err, err_size, "%s", ctx->err);
        if (res == NLOPT_OUT_OF_MEMORY || res == NLOPT_INVALID_ARGS) {
            return pln_errorf(PLN_ERR_INTERNAL, err, err_size, "%s", ctx->err);
        }
        st = evaluate_all(ctx, x, 0, 0); /* fresh: the certified lower bounds decide */
        if (st != PLN_OK) return pln_errorf(st, err, err_size, "%s", ctx->err);
        if (ctx->worst < best_worst) {
            best_worst = ctx->worst;
            improved = 1;
            memcpy(ctx->x_best, x, (size_t)p->n_vars * sizeof *x);
        }
        added = exchange(ctx);
        /* a mesh round that spent its own share of evaluations: fresh margins, re-centred
         * trust box, a fresh quasi-Newton model, and on */
        if (res == NLOPT_MAXEVAL_REACHED && round_cap < left_evals) {
            if (ctx->progress != NULL) {
                fprintf(ctx->progress, "     round %d: its %d evaluations spent, %d rows added, worst %+.3e\n",
                        round + 1, round_cap, added, ctx->worst);
            }
            continue;
        }
        /* a round that ended on its trust box has not converged: re-centre and go on */
        if (ctx->trust > 0.0 && res != NLOPT_MAXEVAL_REACHED && res != NLOPT_MAXTIME_REACHED) {
            int edge = 0;
            for (int i = 0; i < p->n_vars && !edge; ++i) {
                edge = (x[i] <= ctx->tlb[i] && ctx->tlb[i] > p->lb[i]) ||
                       (x[i] >= ctx->tub[i] && ctx->tub[i] < p->ub[i]);
            }
            if (edge) {
                if (ctx->progress != NULL) {
                    fprintf(ctx->progress, "     round %d: %s on the trust box, %d rows added, worst %+.3e\n",
                            round + 1, stop_name(res), added, ctx->worst);
                }
                continue;
            }
        }
        if (added == 0 && ctx->worst <= PLN_SIP_FEASIBLE) break;
        if (res == NLOPT_MAXEVAL_REACHED || res == NLOPT_MAXTIME_REACHED) break;
        if (added == 0 && ++stalls > PLN_SIP_MAX_STALLS) break;
        if (added == 0 && ctx->pre_L != NULL && !ctx->pre_off && !ctx->elastic) {
            /* a stall (infeasible, nothing to add) in z: the restarts run in x, where
             * SLSQP's first model (the identity) takes shorter steps (eq. P23) */
            ctx->pre_off = 1;
            if (ctx->progress != NULL) {
                fprintf(ctx->progress, "     round %d stalled: the next rounds in the unpreconditioned variables\n",
                        round + 1);
            }
        }
        if (ctx->progress != NULL) {
            fprintf(ctx->progress, "     round %d: %s, %d rows added, worst %+.3e\n", round + 1,
                    stop_name(res), added, ctx->worst);
        }
    }
    /* eq. P23: a loop whose preconditioned rounds ended infeasible without any round's end
     * improving on its start (a basin where the tasks cannot be met, seen on one random
     * problem in 80) runs once more from its start, in x only, within the budget left */
    if (ctx->worst > PLN_SIP_FEASIBLE && !improved && !retried && ctx->pre_L != NULL && !ctx->elastic &&
        start_worst < ctx->worst && res != NLOPT_MAXEVAL_REACHED && res != NLOPT_MAXTIME_REACHED) {
        if (ctx->progress != NULL) {
            fprintf(ctx->progress, "     no round improved on the start (worst %+.3e against %+.3e): once "
                                   "more from it in the unpreconditioned variables\n", ctx->worst, start_worst);
        }
        retried = 1;
        stalls = 0;
        ctx->pre_off = 1;
        memcpy(x, ctx->x_best, (size_t)p->n_vars * sizeof *x);
        st = evaluate_all(ctx, x, 0, 0);
        if (st != PLN_OK) return pln_errorf(st, err, err_size, "%s", ctx->err);
        (void)exchange(ctx);
        goto again;
    }
    /* only for a caller that takes the last point too (x_last) and lets the certificate
     * choose: the worst row mixes units, and the last point may certify where the point of
     * least worst row does not */
    if (ctx->worst > PLN_SIP_FEASIBLE && best_worst < ctx->worst && ctx->x_last != NULL) {
        if (ctx->progress != NULL) {
            char row[160] = "-";
            if (ctx->worst_row >= 0) pln_problem_row_name(p, ctx->worst_row, row, sizeof row);
            fprintf(ctx->progress, "     ended with a worst row of %+.3e (%s); back to the point of "
                                   "%+.3e\n", ctx->worst, row, best_worst);
        }
        memcpy(ctx->x_last, x, (size_t)p->n_vars * sizeof *x);
        ctx->reverted = 1;
        memcpy(x, ctx->x_best, (size_t)p->n_vars * sizeof *x);
        st = evaluate_all(ctx, x, 0, 0);
        if (st != PLN_OK) return pln_errorf(st, err, err_size, "%s", ctx->err);
    }
    *out = res;
    return PLN_OK;
}

/* the largest row outside the tasks, and the elastic penalty of the task rows, of the last
 * evaluation */
static void split_violation(const SipContext *ctx, double *safety, double *tasks)
{
    const PlnProblem *p = ctx->p;
    *safety = 0.0;
    for (int i = 0; i < p->m; ++i) {
        if (!pln_problem_row_is_task(p, i) && ctx->c_all[i] > *safety) *safety = ctx->c_all[i];
    }
    *tasks = elastic_penalty(p, ctx->c_all, NULL, NULL);
}

/* The rows outside the tasks that hold the relaxed motion back: the names of the (at
 * most four) largest rows within PLN_SIP_BINDING of their bound, each name once, into buf. */
static void binding_rows(const SipContext *ctx, char *buf, size_t size)
{
    const PlnProblem *p = ctx->p;
    char names[4][160];
    int n = 0;
    double above = HUGE_VAL; /* rows are taken in decreasing value */
    size_t len = 0;
    buf[0] = '\0';
    while (n < 4) {
        int best = -1, dup = 0;
        for (int i = 0; i < p->m; ++i) {
            double c = ctx->c_all[i];
            if (pln_problem_row_is_task(p, i) || !(c > -PLN_SIP_BINDING) || !(c < above)) continue;
            if (best < 0 || c > ctx->c_all[best]) best = i;
        }
        if (best < 0) break;
        above = ctx->c_all[best];
        pln_problem_row_name(p, best, names[n], sizeof names[n]);
        for (int k = 0; k < n; ++k) dup |= strcmp(names[k], names[n]) == 0;
        if (!dup) ++n;
    }
    for (int k = 0; k < n && len + 1 < size; ++k) {
        int w = snprintf(buf + len, size - len, "%s%s", k ? ", " : "", names[k]);
        if (w < 0) break;
        len = len + (size_t)w < size ? len + (size_t)w : size - 1;
    }
}

/* frees the preconditioned variables' arrays: the rounds run in x */
static void precondition_drop(SipContext *ctx)
{
    free(ctx->pre_L);
    free(ctx->pre_linv);
    free(ctx->pre_x);
    free(ctx->pre_free_lb);
    free(ctx->pre_free_ub);
    free(ctx->pre_clamped);
    free(ctx->lim_in);
    free(ctx->lim_rows);
    ctx->pre_L = ctx->pre_linv = ctx->pre_x = ctx->pre_free_lb = ctx->pre_free_ub = NULL;
    ctx->pre_clamped = ctx->lim_in = NULL;
    ctx->lim_rows = NULL;
}

/* Sets up the preconditioned variables z = L^T x (docs/math/planner.md eq. P23): L L^T =
 * H_x + PLN_SIP_PRECOND_REG h I, H_x the constant Hessian of the objective (acceleration or
 * jerk cost) and h its mean diagonal; L^-1 for the limit rows. Leaves ctx->pre_L NULL (the
 * rounds run in x) when the Hessian is not constant (the torque cost) or not positive
 * definite. */
static PlnStatus precondition(SipContext *ctx, char *err, size_t err_size)
{
    const PlnProblem *p = ctx->p;
    const int n = p->n_vars;
    const size_t nn = (size_t)n * (size_t)n;
    double *L, *inv, h = 0.0;
    ctx->pre_L = L = malloc(nn * sizeof *L);
    ctx->pre_linv = inv = malloc(nn * sizeof *inv);
    ctx->pre_x = malloc((size_t)n * sizeof *ctx->pre_x);
    ctx->pre_free_lb = malloc((size_t)n * sizeof *ctx->pre_free_lb);
    ctx->pre_free_ub = malloc((size_t)n * sizeof *ctx->pre_free_ub);
    ctx->pre_clamped = calloc((size_t)n, 1);
    ctx->lim_in = calloc(2 * (size_t)n, 1);
    ctx->lim_rows = malloc(2 * (size_t)n * sizeof *ctx->lim_rows);
    if (!L || !inv || !ctx->pre_x || !ctx->pre_free_lb || !ctx->pre_free_ub || !ctx->pre_clamped ||
        !ctx->lim_in || !ctx->lim_rows) {
        precondition_drop(ctx);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory for the %d x %d preconditioner", n, n);
    }
    if (!pln_problem_cost_hessian(p, L)) {
        precondition_drop(ctx);
        return PLN_OK;
    }
    for (int i = 0; i < n; ++i) h += L[(size_t)i * n + i];
    h /= n;
    for (int i = 0; i < n; ++i) L[(size_t)i * n + i] += PLN_SIP_PRECOND_REG * h;
    if (!(h > 0.0) || LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, L, n) != 0) {
        precondition_drop(ctx);
        return PLN_OK;
    }
    for (int j = 0; j < n; ++j) {
        for (int i = 0; i < n; ++i) {
            if (i < j) L[(size_t)j * n + i] = 0.0; /* dpotrf leaves the upper part as it was */
            inv[(size_t)j * n + i] = i == j ? 1.0 : 0.0;
        }
    }
    cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, n, n, 1.0, L, n, inv, n);
    for (int i = 0; i < n; ++i) {
        ctx->pre_free_lb[i] = -HUGE_VAL;
        ctx->pre_free_ub[i] = HUGE_VAL;
    }
    return PLN_OK;
}

PlnStatus pln_sip_solve(const PlnProblem *p, double *x, const PlnSipRun *run,
                        PlnSipResult *result, char *err, size_t err_size)
{
    FILE *progress = run->progress;
    const PlnScenario *sc = p->scenario;
    SipContext ctx;
    nlopt_result res = NLOPT_SUCCESS;
    PlnStatus st;
    double *x_main = NULL;

    pln_watchdog_phase("optimising");
    memset(result, 0, sizeof *result);
    memset(&ctx, 0, sizeof ctx);
    ctx.p = p;
    ctx.algorithm = run->slsqp ? PLN_ALGORITHM_SLSQP : pln_sip_algorithm(p);
    result->algorithm = ctx.algorithm;
    ctx.progress = progress;
    ctx.verbose = run->verbose;
    ctx.fresh_rows = run->fresh_rows;
    /* eq. P7d: not with mesh rows, whose queries start from the query before: a gradient
     * computed after the line search's rejected trial point differs in its last digits
     * from the one computed after the accepted point itself, and the mesh plans took more
     * evaluations with it (pass 226 -> 309, twist_mesh 145 -> 186, place with PhongDist
     * 275 -> 401, its limit) */
    ctx.grad_always = !run->fresh_rows && !(p->collision && sc->geometry == PLN_GEOMETRY_MESH);
    ctx.time_used = run->time_used;
    ctx.x_last = run->x_last;
    ctx.worst_row = -1;
    ctx.failure = PLN_OK;
    st = pln_problem_work_create(p, &ctx.w, err, err_size);
    if (st != PLN_OK) return st;
    st = pln_problem_work_set_threads(p, ctx.w, run->threads, err, err_size);
    if (st == PLN_OK && run->dump != NULL) st = pln_problem_work_set_dump(p, ctx.w, run->dump, err, err_size);
    if (st != PLN_OK) {
        pln_problem_work_destroy(ctx.w);
        return st;
    }
    ctx.c_all = calloc((size_t)(p->m > 0 ? p->m : 1), sizeof *ctx.c_all);
    ctx.g_all = calloc((size_t)(p->m > 0 ? p->m : 1) * (size_t)(p->n_vars > 0 ? p->n_vars : 1),
                       sizeof *ctx.g_all);
    ctx.working = calloc((size_t)(p->m > 0 ? p->m : 1), sizeof *ctx.working);
    ctx.in_work = calloc((size_t)(p->m > 0 ? p->m : 1), 1);
    ctx.margin = calloc((size_t)(p->m > 0 ? p->m : 1), sizeof *ctx.margin);
    ctx.tlb = calloc((size_t)(p->n_vars > 0 ? p->n_vars : 1), sizeof *ctx.tlb);
    ctx.tub = calloc((size_t)(p->n_vars > 0 ? p->n_vars : 1), sizeof *ctx.tub);
    ctx.c_kin = calloc((size_t)(p->row_collision > 0 ? p->row_collision : 1), sizeof *ctx.c_kin);
    ctx.g_kin = calloc((size_t)(p->row_collision > 0 ? p->row_collision : 1) *
                           (size_t)(p->n_vars > 0 ? p->n_vars : 1), sizeof *ctx.g_kin);
    x_main = calloc((size_t)(p->n_vars > 0 ? p->n_vars : 1), sizeof *x_main);
    ctx.x_best = calloc((size_t)(p->n_vars > 0 ? p->n_vars : 1), sizeof *ctx.x_best);
    ctx.x_obj = calloc((size_t)(p->n_vars > 0 ? p->n_vars : 1), sizeof *ctx.x_obj);
    ctx.x_seen = calloc((size_t)(p->n_vars > 0 ? p->n_vars : 1), sizeof *ctx.x_seen);
    ctx.x_first = calloc((size_t)(p->n_vars > 0 ? p->n_vars : 1), sizeof *ctx.x_first);
    ctx.x_moved = calloc((size_t)(p->n_vars > 0 ? p->n_vars : 1), sizeof *ctx.x_moved);
    ctx.memo_x = calloc((size_t)(p->n_vars > 0 ? p->n_vars : 1), sizeof *ctx.memo_x);
    if (ctx.algorithm == PLN_ALGORITHM_SQP && p->n_vars > 0) {
        ctx.sqp_model = malloc((size_t)p->n_vars * (size_t)p->n_vars * sizeof *ctx.sqp_model);
        if (ctx.sqp_model == NULL) {
            st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory for the SQP's model of %d variables",
                            p->n_vars);
            goto done;
        }
    }
    /* overlapping non-convex meshes have no usable depth to lead the optimiser out
     * (docs/math/planner.md sec. 7): with mesh collision rows, a round may move each
     * control point only so far before the rows are evaluated afresh */
    ctx.trust = p->collision && sc->geometry == PLN_GEOMETRY_MESH ? PLN_SIP_MESH_TRUST_RAD : 0.0;
    if (!ctx.c_all || !ctx.g_all || !ctx.working || !ctx.in_work || !ctx.margin || !ctx.tlb ||
        !ctx.tub || !ctx.c_kin || !ctx.g_kin || !x_main || !ctx.x_best ||
        !ctx.x_obj || !ctx.x_seen || !ctx.x_first || !ctx.x_moved || !ctx.memo_x) {
        st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory for %d x %d constraint rows",
                        p->m, p->n_vars);
        goto done;
    }
    nlopt_srand(PLN_NLOPT_SEED); /* the only call in the project: reproducible runs */
    if (sc->precondition && (ctx.algorithm == PLN_ALGORITHM_SLSQP || ctx.algorithm == PLN_ALGORITHM_SQP) &&
        p->n_vars > 0) {
        st = precondition(&ctx, err, err_size);
        if (st != PLN_OK) goto done;
    }

    /* the start must respect the bounds NLopt enforces */
    for (int i = 0; i < p->n_vars; ++i) x[i] = fmin(fmax(x[i], p->lb[i]), p->ub[i]);
    ctx.start = pln_clock_s();
    ctx.last_print = ctx.start;
    st = evaluate_all(&ctx, x, 0, 0);
    if (st != PLN_OK) {
        pln_errorf(st, err, err_size, "%s", ctx.err);
        goto done;
    }
    if (run->elastic) {
        /* The elastic phase (docs/math/planner.md sec. 5b): the tasks move into the
         * objective (eq. P15); the optimiser looks for the motion that meets every other
         * row and comes nearest the targets. It starts from the motion that stays at the
         * initial posture when that meets the other rows better than x (it meets them all
         * when the robot stands clear and balanced there): an optimiser that starts where
         * those rows hold keeps them. */
        double safety_x, tasks_x;
        char binding[192];
        split_violation(&ctx, &safety_x, &tasks_x);
        memcpy(x_main, x, (size_t)p->n_vars * sizeof *x);
        ctx.elastic = 1;
        ctx.memo_ok = 0; /* the worst row leaves the task rows out */
        pln_problem_initial_x(p, x);
        /* a joint that starts at its limit starts outside the bounds NLopt enforces (the
         * scenario's position_margin inside the limits) */
        for (int i = 0; i < p->n_vars; ++i) x[i] = fmin(fmax(x[i], p->lb[i]), p->ub[i]);
        st = evaluate_all(&ctx, x, 0, 0);
        if (st == PLN_OK && !run->elastic_from_rest && !(fmax(ctx.worst, 0.0) < safety_x)) {
            memcpy(x, x_main, (size_t)p->n_vars * sizeof *x);
            st = evaluate_all(&ctx, x, 0, 0);
        }
        if (st != PLN_OK) {
            pln_errorf(st, err, err_size, "%s", ctx.err);
            goto done;
        }
        ctx.elastic_norm = fmax(1.0, pln_problem_cost(p, ctx.w, x, NULL) +
                                         elastic_penalty(p, ctx.c_all, NULL, NULL));
        if (progress != NULL) {
            fprintf(progress, "     elastic phase: the tasks move into the objective, from %s\n",
                    memcmp(x, x_main, (size_t)p->n_vars * sizeof *x) == 0 ? "the run's result"
                                                                          : "the initial posture");
        }
        exchange(&ctx);
        st = exchange_loop(&ctx, x, (p->max_evaluations + 1) / 2, &res, err, err_size);
        if (st != PLN_OK) goto done;
        ctx.elastic = 0;
        ctx.memo_ok = 0;
        binding_rows(&ctx, binding, sizeof binding);
        result->tasks_relaxed = 1;
        snprintf(result->message, sizeof result->message,
                 "%s; tasks relaxed: the motion nearest the targets that meets every other "
                 "constraint%s%s", stop_name(res), binding[0] ? "; held back by " : "", binding);
        st = evaluate_all(&ctx, x, 0, 0); /* every row, tasks included, for the result */
        if (st != PLN_OK) {
            pln_errorf(st, err, err_size, "%s", ctx.err);
            goto done;
        }
    } else {
        exchange(&ctx);
        st = exchange_loop(&ctx, x, run->max_evaluations > 0 ? run->max_evaluations : p->max_evaluations,
                           &res, err, err_size);
        if (st != PLN_OK) goto done;
        snprintf(result->message, sizeof result->message, "%s", stop_name(res));
    }
    result->cost = pln_problem_cost(p, ctx.w, x, NULL);
    ctx.cost = result->cost;
    result->worst_violation = ctx.worst;
    result->worst_row = ctx.worst_row;
    result->nlopt_code = (int)res;
    result->reverted = ctx.reverted;
    st = PLN_OK;
done:
    result->evaluations = ctx.evaluations;
    result->row_evaluations = ctx.row_evaluations;
    result->preconditioned = ctx.pre_L != NULL;
    result->wall_time_s = pln_clock_s() - ctx.start;
    result->mcd_calls = ctx.w->mcd_calls;
    result->mcd_time_s = ctx.w->mcd_seconds;
    result->phong_calls = ctx.w->phong_calls;
    result->phong_fallbacks = ctx.w->phong_fallbacks;
    result->phong_time_s = ctx.w->phong_seconds;
    if (st == PLN_OK) print_progress(&ctx, 1);
    free(ctx.c_all);
    free(ctx.g_all);
    free(ctx.working);
    free(ctx.in_work);
    free(ctx.margin);
    free(ctx.tlb);
    free(ctx.tub);
    free(ctx.c_kin);
    free(ctx.g_kin);
    free(x_main);
    free(ctx.x_best);
    free(ctx.x_obj);
    free(ctx.x_seen);
    free(ctx.x_first);
    free(ctx.x_moved);
    free(ctx.memo_x);
    free(ctx.sqp_model);
    precondition_drop(&ctx);
    pln_problem_work_destroy(ctx.w);
    return st;
}
