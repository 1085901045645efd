/* pln_sip.c — NLopt driver of the trajectory optimisation (thesis sec. VI.A.1). */
#include "pln_sip.h"

#include <math.h>
#include <nlopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pln_tolerance.h"

/* Seconds between two progress lines. */
#define PLN_PROGRESS_PERIOD_S 0.5

/* Restarts of the optimiser from the point it stopped at while infeasible, and the
 * violation (row units) above which a stop counts as infeasible. */
#define PLN_SIP_MAX_RESTARTS 8
#define PLN_SIP_RESTART_VIOLATION 1e-6

/* NLopt's random seed: fixed, so two runs of a scenario are the same run. */
#define PLN_NLOPT_SEED 20170224UL

/* state shared by the NLopt callbacks */
typedef struct SipContext {
    const PlnProblem *p;
    PlnProblemWork *w;
    nlopt_opt opt;
    FILE *progress;
    double start, last_print;
    int evaluations;
    double cost;
    double worst;
    int worst_row;
    PlnStatus failure;
    char err[512];
} SipContext;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void print_progress(SipContext *ctx, int final)
{
    char row[160] = "-";
    double t = now_s();
    if (ctx->progress == NULL) return;
    if (!final && t - ctx->last_print < PLN_PROGRESS_PERIOD_S) return;
    ctx->last_print = t;
    if (ctx->worst_row >= 0) pln_problem_row_name(ctx->p, ctx->worst_row, row, sizeof row);
    fprintf(ctx->progress, "%s eval %5d  cost %.6e  worst %+.3e (%s)  mcd %ld  %.2f s\n",
            final ? "done" : "    ", ctx->evaluations, ctx->cost, ctx->worst, row,
            ctx->w->mcd_calls, t - ctx->start);
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

static void constraints(unsigned m, double *c, unsigned n, const double *x, double *grad,
                        void *data)
{
    SipContext *ctx = data;
    PlnStatus st;
    (void)n;
    st = pln_problem_constraints(ctx->p, ctx->w, x, c, grad, ctx->err, sizeof ctx->err);
    if (st != PLN_OK) {
        ctx->failure = st;
        /* NaN rows make NLopt stop; force_stop says why */
        for (unsigned i = 0; i < m; ++i) c[i] = NAN;
        nlopt_force_stop(ctx->opt);
        return;
    }
    ctx->worst = -HUGE_VAL;
    ctx->worst_row = -1;
    for (unsigned i = 0; i < m; ++i) {
        if (c[i] > ctx->worst) {
            ctx->worst = c[i];
            ctx->worst_row = (int)i;
        }
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

PlnStatus pln_sip_solve(const PlnProblem *p, double *x, FILE *progress, PlnSipResult *result,
                        char *err, size_t err_size)
{
    const PlnScenario *sc = p->scenario;
    SipContext ctx;
    nlopt_result res;
    double f = 0.0;
    PlnStatus st;
    double *c = NULL;

    memset(result, 0, sizeof *result);
    memset(&ctx, 0, sizeof ctx);
    ctx.p = p;
    ctx.progress = progress;
    ctx.worst_row = -1;
    ctx.failure = PLN_OK;
    st = pln_problem_work_create(p, &ctx.w, err, err_size);
    if (st != PLN_OK) return st;

    nlopt_srand(PLN_NLOPT_SEED); /* the only call in the project: reproducible runs */
    ctx.opt = nlopt_create(algorithm_of(sc->algorithm), (unsigned)p->n_vars);
    if (ctx.opt == NULL) {
        pln_problem_work_destroy(ctx.w);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "NLopt could not create the optimiser");
    }
    nlopt_set_lower_bounds(ctx.opt, p->lb);
    nlopt_set_upper_bounds(ctx.opt, p->ub);
    nlopt_set_min_objective(ctx.opt, objective, &ctx);
    if (p->m > 0) {
        res = nlopt_add_inequality_mconstraint(ctx.opt, (unsigned)p->m, constraints, &ctx,
                                               p->row_tol);
        if (res < 0) {
            pln_errorf(PLN_ERR_INTERNAL, err, err_size, "NLopt refused the constraints: %s",
                       nlopt_get_errmsg(ctx.opt) ? nlopt_get_errmsg(ctx.opt) : "unknown");
            nlopt_destroy(ctx.opt);
            pln_problem_work_destroy(ctx.w);
            return PLN_ERR_INTERNAL;
        }
    }
    nlopt_set_xtol_rel(ctx.opt, sc->xtol_rel);
    nlopt_set_ftol_rel(ctx.opt, sc->ftol_rel);
    nlopt_set_maxeval(ctx.opt, sc->max_iterations);
    nlopt_set_maxtime(ctx.opt, sc->time_limit);

    /* the start must respect the bounds NLopt enforces */
    for (int i = 0; i < p->n_vars; ++i) x[i] = fmin(fmax(x[i], p->lb[i]), p->ub[i]);

    ctx.start = now_s();
    ctx.last_print = ctx.start;
    res = nlopt_optimize(ctx.opt, x, &f);
    /* SIP restarts: SLSQP can stop on a step-size test while a constraint is still
     * violated (its quasi-Newton model gone stale after the active set changed); a fresh
     * start from the point reached, with the evaluations and time left, resets the
     * model. The worst violation is the last constraint evaluation's. */
    for (int r = 0; r < PLN_SIP_MAX_RESTARTS && ctx.failure == PLN_OK && res > 0 &&
                    res != NLOPT_MAXEVAL_REACHED && res != NLOPT_MAXTIME_REACHED &&
                    ctx.worst > PLN_SIP_RESTART_VIOLATION;
         ++r) {
        double left_time = sc->time_limit - (now_s() - ctx.start);
        int left_evals = sc->max_iterations - ctx.evaluations;
        if (left_time <= 0.0 || left_evals <= 0) break;
        nlopt_set_maxeval(ctx.opt, left_evals);
        nlopt_set_maxtime(ctx.opt, left_time);
        if (progress != NULL) {
            fprintf(progress, "     restart %d: worst violation %.3e\n", r + 1, ctx.worst);
        }
        res = nlopt_optimize(ctx.opt, x, &f);
    }
    result->nlopt_code = (int)res;
    result->wall_time_s = now_s() - ctx.start;
    if (ctx.failure != PLN_OK) {
        st = pln_errorf(ctx.failure, err, err_size, "%s", ctx.err);
    } else if (res < 0 && res != NLOPT_ROUNDOFF_LIMITED && res != NLOPT_FORCED_STOP) {
        const char *msg = nlopt_get_errmsg(ctx.opt);
        snprintf(result->message, sizeof result->message, "NLopt failed (%d): %s", (int)res,
                 msg ? msg : "no message");
        /* a failed run still leaves a point; the certification judges it */
        st = PLN_OK;
    } else {
        static const char *const names[] = {"", "success", "stopval reached",
                                            "ftol_rel reached", "xtol_rel reached",
                                            "evaluation limit reached", "time limit reached"};
        snprintf(result->message, sizeof result->message, "%s",
                 res >= 1 && res <= 6 ? names[res] : "roundoff limited");
        st = PLN_OK;
    }
    /* the final point's cost and constraints, evaluated once more */
    if (st == PLN_OK) {
        c = calloc((size_t)(p->m > 0 ? p->m : 1), sizeof *c);
        if (c == NULL) {
            st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
        } else {
            result->cost = pln_problem_cost(p, ctx.w, x, NULL);
            ctx.cost = result->cost;
            if (p->m > 0) st = pln_problem_constraints(p, ctx.w, x, c, NULL, err, err_size);
            result->worst_violation = -HUGE_VAL;
            result->worst_row = -1;
            for (int i = 0; i < p->m; ++i) {
                if (c[i] > result->worst_violation) {
                    result->worst_violation = c[i];
                    result->worst_row = i;
                }
            }
            if (p->m == 0) result->worst_violation = 0.0;
            ctx.worst = result->worst_violation;
            ctx.worst_row = result->worst_row;
        }
    }
    result->evaluations = ctx.evaluations;
    result->mcd_calls = ctx.w->mcd_calls;
    result->mcd_time_s = ctx.w->mcd_seconds;
    print_progress(&ctx, 1);
    free(c);
    nlopt_destroy(ctx.opt);
    pln_problem_work_destroy(ctx.w);
    return st;
}
