/* pln_sip.c — NLopt driver of the trajectory optimisation: an exchange method for the
 * semi-infinite programme (thesis sec. VI.A.1, Fig. 6.1; docs/math/planner.md sec. 5). */
#include "problem/pln_sip.h"

#include <math.h>
#include <nlopt.h>
#include <stdlib.h>
#include <string.h>

#include "base/pln_clock.h"
#include "base/pln_tolerance.h"

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
    nlopt_opt opt;
    FILE *progress;
    int verbose;           /* every evaluation, not once per period */
    double start, last_print;
    int evaluations;
    double cost;
    double worst;          /* worst row of the last full evaluation */
    int worst_row;
    double *c_all;         /* [m] every row at the last evaluation */
    double *g_all;         /* [m * n] their gradients */
    int *working;          /* [m_work] rows given to NLopt one by one */
    int m_work;
    int agg[4];            /* an aggregate row for the velocity / collision / balance rows outside */
    char *in_work;         /* [m] row is in the working set */
    double *margin;        /* [m] frozen margin of each collision and balance row in a round */
    double trust;          /* box trust region of a round, rad per variable (0: none) */
    double *tlb, *tub;     /* [n] the round's bounds: the problem's, cut to the trust box */
    PlnStatus failure;
    char err[512];
} SipContext;

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
            ctx->m_work + ctx->agg[0] + ctx->agg[1] + ctx->agg[2] + ctx->agg[3], ctx->p->m, ctx->w->mcd_calls,
            t - ctx->start);
    fflush(ctx->progress);
}

static double objective(unsigned n, const double *x, double *grad, void *data)
{
    SipContext *ctx = data;
    (void)n;
    ctx->cost = pln_problem_cost(ctx->p, ctx->w, x, grad);
    ++ctx->evaluations;
    print_progress(ctx, 0);
    return ctx->cost;
}

/* evaluates every row into c_all (and g_all when grad is wanted); worst row tracked */
static PlnStatus evaluate_all(SipContext *ctx, const double *x, int want_grad, int frozen)
{
    const PlnProblem *p = ctx->p;
    PlnStatus st;
    ctx->w->frozen_margin = frozen ? ctx->margin : NULL;
    st = pln_problem_constraints(p, ctx->w, x, ctx->c_all, want_grad ? ctx->g_all : NULL,
                                 ctx->err, sizeof ctx->err);
    ctx->w->frozen_margin = NULL;
    if (st != PLN_OK) return st;
    ctx->worst = p->m > 0 ? -HUGE_VAL : 0.0;
    ctx->worst_row = -1;
    for (int i = 0; i < p->m; ++i) {
        if (ctx->c_all[i] > ctx->worst) {
            ctx->worst = ctx->c_all[i];
            ctx->worst_row = i;
        }
    }
    return PLN_OK;
}

/* aggregated kinds: velocity, collision, balance, dynamics */
#define N_AGG 4
static const PlnRowKind AGG_KIND[N_AGG] = {PLN_ROW_VELOCITY, PLN_ROW_COLLISION, PLN_ROW_BALANCE,
                                           PLN_ROW_DYNAMICS};

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

/* NLopt's vector constraint: the working rows, then the aggregate rows (the largest
 * velocity, collision and balance rows outside the working set; a max of smooth rows, so
 * no row can be violated unseen between exchanges; docs/math/planner.md eq. P7) */
static void constraints(unsigned m, double *c, unsigned n, const double *x, double *grad,
                        void *data)
{
    SipContext *ctx = data;
    PlnStatus st = evaluate_all(ctx, x, grad != NULL, 1);
    int k = 0;
    if (st != PLN_OK) {
        ctx->failure = st;
        for (unsigned i = 0; i < m; ++i) c[i] = NAN;
        nlopt_force_stop(ctx->opt);
        return;
    }
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
    case PLN_ALGORITHM_SLSQP: break;
    }
    return NLOPT_LD_SLSQP;
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
    default: return 1;
    }
}

/* adds the near-active rows to the working set; returns how many were added */
static int exchange(SipContext *ctx)
{
    const PlnProblem *p = ctx->p;
    int added = 0;
    for (int i = 0; i < p->m; ++i) {
        if (!ctx->in_work[i] && near_active(p, i, ctx->c_all[i])) {
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
    for (int r = 0; r < p->m; ++r) {
        const PlnRow *row = &p->rows[r];
        size_t k = (size_t)row->index * p->n_intervals + row->sub;
        ctx->margin[r] = 0.0;
        if (row->kind == PLN_ROW_COLLISION && p->method != DST_MCD_GSS) {
            ctx->margin[r] = fmax(0.0, ctx->w->exact[k] - ctx->w->mcd[k].lower);
        } else if (row->kind == PLN_ROW_BALANCE) {
            ctx->margin[r] = fmax(0.0, ctx->w->bal_bound[k] - ctx->w->bal_sample[k]);
        } else if (row->kind == PLN_ROW_DYNAMICS) {
            int q = r - p->row_dynamics;
            ctx->margin[r] = fmax(0.0, ctx->w->dyn_bound[q] - ctx->w->dyn_sample[q]);
        }
    }
}

/* one NLopt run over the current working set from x */
static nlopt_result run_round(SipContext *ctx, double *x, int max_evals, double max_time)
{
    const PlnProblem *p = ctx->p;
    const PlnScenario *sc = p->scenario;
    int m = ctx->m_work + ctx->agg[0] + ctx->agg[1] + ctx->agg[2] + ctx->agg[3];
    double f = 0.0, *tol;
    nlopt_result res;

    ctx->opt = nlopt_create(algorithm_of(sc->algorithm), (unsigned)p->n_vars);
    if (ctx->opt == NULL) return NLOPT_OUT_OF_MEMORY;
    for (int i = 0; i < p->n_vars; ++i) {
        ctx->tlb[i] = ctx->trust > 0.0 ? fmax(p->lb[i], x[i] - ctx->trust) : p->lb[i];
        ctx->tub[i] = ctx->trust > 0.0 ? fmin(p->ub[i], x[i] + ctx->trust) : p->ub[i];
    }
    nlopt_set_lower_bounds(ctx->opt, ctx->tlb);
    nlopt_set_upper_bounds(ctx->opt, ctx->tub);
    nlopt_set_min_objective(ctx->opt, objective, ctx);
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
    nlopt_set_maxeval(ctx->opt, max_evals);
    nlopt_set_maxtime(ctx->opt, max_time);
    res = nlopt_optimize(ctx->opt, x, &f);
    if (res < 0 && res != NLOPT_FORCED_STOP) {
        const char *msg = nlopt_get_errmsg(ctx->opt);
        snprintf(ctx->err, sizeof ctx->err, "NLopt stopped (%d): %s", (int)res,
                 msg ? msg : "no message");
    }
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

PlnStatus pln_sip_solve(const PlnProblem *p, double *x, const PlnSipRun *run,
                        PlnSipResult *result, char *err, size_t err_size)
{
    FILE *progress = run->progress;
    const PlnScenario *sc = p->scenario;
    SipContext ctx;
    nlopt_result res = NLOPT_SUCCESS;
    PlnStatus st;
    int stalls = 0, round;

    memset(result, 0, sizeof *result);
    memset(&ctx, 0, sizeof ctx);
    ctx.p = p;
    ctx.progress = progress;
    ctx.verbose = run->verbose;
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
    /* overlapping non-convex meshes have no usable depth to lead the optimiser out
     * (docs/math/planner.md sec. 7): with mesh collision rows, a round may move each
     * control point only so far before the rows are evaluated afresh */
    ctx.trust = p->collision && sc->geometry == PLN_GEOMETRY_MESH ? PLN_SIP_MESH_TRUST_RAD : 0.0;
    if (!ctx.c_all || !ctx.g_all || !ctx.working || !ctx.in_work || !ctx.margin || !ctx.tlb || !ctx.tub) {
        st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory for %d x %d constraint rows",
                        p->m, p->n_vars);
        goto done;
    }
    nlopt_srand(PLN_NLOPT_SEED); /* the only call in the project: reproducible runs */

    /* the start must respect the bounds NLopt enforces */
    for (int i = 0; i < p->n_vars; ++i) x[i] = fmin(fmax(x[i], p->lb[i]), p->ub[i]);
    ctx.start = pln_clock_s();
    ctx.last_print = ctx.start;
    st = evaluate_all(&ctx, x, 0, 0);
    if (st != PLN_OK) {
        pln_errorf(st, err, err_size, "%s", ctx.err);
        goto done;
    }
    exchange(&ctx);

    /* exchange loop: optimise over the working set, add rows that came near, repeat
     * until a round ends feasible with nothing to add (or the budget is spent) */
    for (round = 0; round < PLN_SIP_MAX_ROUNDS; ++round) {
        double left_time = sc->time_limit - (pln_clock_s() - ctx.start);
        int left_evals = sc->max_iterations - ctx.evaluations, added;
        if (left_time <= 0.0 || left_evals <= 0) {
            /* the budget ran out between rounds (in the evaluations around them): say so,
             * not the last round's own stop */
            res = left_time <= 0.0 ? NLOPT_MAXTIME_REACHED : NLOPT_MAXEVAL_REACHED;
            break;
        }
        freeze_margins(&ctx);
        res = run_round(&ctx, x, left_evals, left_time);
        if (ctx.failure != PLN_OK) {
            st = pln_errorf(ctx.failure, err, err_size, "%s", ctx.err);
            goto done;
        }
        if (res == NLOPT_OUT_OF_MEMORY || res == NLOPT_INVALID_ARGS) {
            st = pln_errorf(PLN_ERR_INTERNAL, err, err_size, "%s", ctx.err);
            goto done;
        }
        st = evaluate_all(&ctx, x, 0, 0); /* fresh: the certified lower bounds decide */
        if (st != PLN_OK) {
            pln_errorf(st, err, err_size, "%s", ctx.err);
            goto done;
        }
        added = exchange(&ctx);
        /* a round that ended on its trust box has not converged: re-centre and go on */
        if (ctx.trust > 0.0 && res != NLOPT_MAXEVAL_REACHED && res != NLOPT_MAXTIME_REACHED) {
            int edge = 0;
            for (int i = 0; i < p->n_vars && !edge; ++i) {
                edge = (x[i] <= ctx.tlb[i] && ctx.tlb[i] > p->lb[i]) ||
                       (x[i] >= ctx.tub[i] && ctx.tub[i] < p->ub[i]);
            }
            if (edge) {
                if (progress != NULL) {
                    fprintf(progress, "     round %d: %s on the trust box, %d rows added, worst %+.3e\n",
                            round + 1, stop_name(res), added, ctx.worst);
                }
                continue;
            }
        }
        if (added == 0 && ctx.worst <= PLN_SIP_FEASIBLE) break;
        if (res == NLOPT_MAXEVAL_REACHED || res == NLOPT_MAXTIME_REACHED) break;
        if (added == 0 && ++stalls > PLN_SIP_MAX_STALLS) break;
        if (progress != NULL) {
            fprintf(progress, "     round %d: %s, %d rows added, worst %+.3e\n", round + 1,
                    stop_name(res), added, ctx.worst);
        }
    }
    snprintf(result->message, sizeof result->message, "%s", stop_name(res));
    result->cost = pln_problem_cost(p, ctx.w, x, NULL);
    ctx.cost = result->cost;
    result->worst_violation = ctx.worst;
    result->worst_row = ctx.worst_row;
    result->nlopt_code = (int)res;
    st = PLN_OK;
done:
    result->evaluations = ctx.evaluations;
    result->wall_time_s = pln_clock_s() - ctx.start;
    result->mcd_calls = ctx.w->mcd_calls;
    result->mcd_time_s = ctx.w->mcd_seconds;
    if (st == PLN_OK) print_progress(&ctx, 1);
    free(ctx.c_all);
    free(ctx.g_all);
    free(ctx.working);
    free(ctx.in_work);
    free(ctx.margin);
    free(ctx.tlb);
    free(ctx.tub);
    pln_problem_work_destroy(ctx.w);
    return st;
}
