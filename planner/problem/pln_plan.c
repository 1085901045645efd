/* pln_plan.c — one planning run in memory: load, optimise, certify. */
#include "problem/pln_plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/pln_clock.h"
#include "base/pln_tolerance.h"
#include "base/pln_watchdog.h"
#include "base/pln_yaml.h"
#include "problem/pln_certify.h"
#include "problem/pln_guess.h"
#include "problem/pln_sip.h"
#include "model/pln_kin.h"

void pln_plan_unload(PlnLoaded *l)
{
    pln_problem_destroy(l->p);
    if (l->have_robot) pln_robot_destroy(&l->robot);
    if (l->have_sc) pln_scenario_destroy(&l->sc);
    memset(l, 0, sizeof *l);
}

/* The floating base (docs/math/kinematics.md K10-K13, planner.md sec. 4d). With dynamics
 * on and a stance foot that a moving joint carries, the waist cannot stay where the file
 * puts it: the robot is re-rooted at a foot that stands through every phase, held where it
 * stands at the initial posture, and the scenario is read again against that model (its
 * link indices change). The other stance feet get stance rows (pln_problem.h). When no
 * foot stands through every phase, the waist hangs from six virtual joints instead
 * (pln_robot_free_base, kinematics.md K17) and every stance foot gets stance rows. */
PlnStatus pln_plan_stance_root(const PlnScenario *sc, const PlnRobot *r, int *root, char *err,
                               size_t err_size)
{
    int moved = -1;
    *root = -1;
    if (!sc->dynamics || r->file_root != 0 || r->links[0].parent >= 0) return PLN_OK;
    for (int ph = 0; ph < sc->n_phases && moved < 0; ++ph) {
        for (int k = 0; k < sc->phases[ph].n_feet && moved < 0; ++k) {
            for (int a = sc->phases[ph].feet[k].index; a >= 0 && moved < 0; a = r->links[a].parent) {
                for (int m = 0; m < sc->n_active; ++m) {
                    if (r->links[a].joint >= 0 && sc->active[m].index == r->links[a].joint) {
                        moved = sc->phases[ph].feet[k].index;
                        break;
                    }
                }
            }
        }
    }
    if (moved < 0) return PLN_OK;
    for (int k = 0; k < sc->phases[0].n_feet; ++k) {
        int f = sc->phases[0].feet[k].index, everywhere = 1;
        for (int ph = 1; ph < sc->n_phases && everywhere; ++ph) {
            int here = 0;
            for (int m = 0; m < sc->phases[ph].n_feet; ++m) here |= sc->phases[ph].feet[m].index == f;
            everywhere = here;
        }
        if (everywhere) {
            *root = f;
            return PLN_OK;
        }
    }
    /* no foot stands throughout (stepping from one foot to the other): a free base */
    (void)err;
    (void)err_size;
    *root = PLN_PLAN_FREE_BASE;
    return PLN_OK;
}

static PlnStatus float_base(PlnLoaded *l, const char *scenario, const PlnPlanOptions *opt,
                            char *err, size_t err_size)
{
    PlnRobot rr;
    PlnKinWork *kin = NULL;
    double *q = NULL, R[9], pos[3];
    int root;
    PlnStatus st = pln_plan_stance_root(&l->sc, &l->robot, &root, err, err_size);
    if (st != PLN_OK || root == -1) return st;
    q = calloc((size_t)l->robot.n_joints + 1, sizeof *q);
    if (q == NULL) return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    for (int j = 0; j < l->robot.n_joints; ++j) q[j] = l->robot.joints[j].initial;
    for (int i = 0; i < l->sc.n_initial; ++i) q[l->sc.initial_joint[i].index] = l->sc.initial_value[i];
    st = pln_kin_create(&l->robot, &kin, err, err_size);
    if (st == PLN_OK) st = pln_kin_forward(kin, &l->robot, q);
    if (st == PLN_OK && root == PLN_PLAN_FREE_BASE) {
        st = pln_robot_free_base(&l->robot, &rr, err, err_size);
    } else if (st == PLN_OK) {
        memcpy(R, pln_kin_link_rot(kin, root), sizeof R);
        memcpy(pos, pln_kin_link_pos(kin, root), sizeof pos);
        st = pln_robot_reroot(&l->robot, root, pos, R, &rr, err, err_size);
    }
    pln_kin_destroy(kin);
    free(q);
    if (st != PLN_OK) return st;
    pln_robot_destroy(&l->robot);
    l->robot = rr;
    /* the scenario again, against the re-rooted model */
    pln_scenario_destroy(&l->sc);
    l->have_sc = 0;
    st = pln_scenario_parse(scenario, &l->sc, err, err_size);
    if (st != PLN_OK) return st;
    l->have_sc = 1;
    if (opt->geometry_override) l->sc.geometry = opt->geometry;
    if (opt->distance_override) l->sc.distance = opt->distance;
    if (opt->static_balance) pln_scenario_static_balance(&l->sc);
    return pln_scenario_resolve(&l->sc, &l->robot, err, err_size);
}

PlnStatus pln_plan_load(const char *scenario, const PlnPlanOptions *opt, PlnLoaded *l,
                        char *err, size_t err_size)
{
    PlnStatus st;
    pln_watchdog_phase("loading the scenario, its robot and meshes");
    memset(l, 0, sizeof *l);
    st = pln_scenario_parse(scenario, &l->sc, err, err_size);
    if (st != PLN_OK) return st;
    l->have_sc = 1;
    st = pln_robot_load(l->sc.robot_path, &l->robot, err, err_size);
    if (st == PLN_ERR_IO) {
        /* the scenario names a robot file that cannot be read: say where it is named */
        char inner[768];
        snprintf(inner, sizeof inner, "%s", err);
        return pln_errorf(st, err, err_size, "%s:%d:%d: robot: %s", l->sc.path, l->sc.robot_line,
                          l->sc.robot_column, inner);
    }
    if (st != PLN_OK) return st;
    l->have_robot = 1;
    if (opt->geometry_override) l->sc.geometry = opt->geometry;
    if (opt->distance_override) l->sc.distance = opt->distance;
    if (opt->static_balance) pln_scenario_static_balance(&l->sc);
    st = pln_scenario_resolve(&l->sc, &l->robot, err, err_size);
    if (st != PLN_OK) return st;
    st = float_base(l, scenario, opt, err, err_size);
    if (st != PLN_OK) return st;
    st = pln_problem_create(&l->p, &l->robot, &l->sc, opt, err, err_size);
    /* eq. P22b: a time limit not written grows with the evaluation budget */
    if (st == PLN_OK && !l->sc.time_limit_written) {
        l->sc.time_limit = fmax(PLN_SIP_DEFAULT_TIME_S, PLN_SIP_DEFAULT_S_PER_EVAL * l->p->max_evaluations);
    }
    return st;
}

/* A further run's result (nx, nctrl, nsip, ncert) against the kept one: its evaluations and
 * times add to the kept run's; when its certificate is better it becomes the kept result
 * (returns 1), else its certificate is destroyed (returns 0). */
static int adopt_if_better(const PlnProblem *p, double *x, double *ctrl, PlnSipResult *sip,
                           PlnCertificate *cert, const double *nx, const double *nctrl,
                           PlnSipResult *nsip, PlnCertificate *ncert)
{
    int keep = pln_certificate_better(p, cert, ncert);
    nsip->evaluations += sip->evaluations;
    nsip->row_evaluations += sip->row_evaluations;
    nsip->wall_time_s += sip->wall_time_s;
    nsip->mcd_calls += sip->mcd_calls;
    nsip->mcd_time_s += sip->mcd_time_s;
    nsip->phong_calls += sip->phong_calls;
    nsip->phong_fallbacks += sip->phong_fallbacks;
    nsip->phong_time_s += sip->phong_time_s;
    if (keep) {
        memcpy(x, nx, (size_t)p->n_vars * sizeof *x);
        memcpy(ctrl, nctrl, (size_t)p->n_active * p->n_ctrl * sizeof *ctrl);
        pln_certificate_destroy(cert);
        *cert = *ncert;
        *sip = *nsip;
    } else {
        pln_certificate_destroy(ncert);
        sip->evaluations = nsip->evaluations;
        sip->row_evaluations = nsip->row_evaluations;
        sip->wall_time_s = nsip->wall_time_s;
        sip->mcd_calls = nsip->mcd_calls;
        sip->mcd_time_s = nsip->mcd_time_s;
        sip->phong_calls = nsip->phong_calls;
        sip->phong_fallbacks = nsip->phong_fallbacks;
        sip->phong_time_s = nsip->phong_time_s;
    }
    return keep;
}

/* one number of the splitmix64 stream (Steele, Lea, Flood 2014) as a double in [-1, 1) */
static double restart_uniform(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-52 - 1.0;
}

/* The start of restart k (0, 1, ...): x0 with each joint's free control points moved by
 * A_a sin(pi r / (n_a + 1)), r = 1..n_a the free points in order, A_a in
 * [-PLN_PLAN_RESTART_STEP_RAD, PLN_PLAN_RESTART_STEP_RAD) from a stream seeded by k alone
 * (deterministic), clamped to the bounds (docs/math/planner.md sec. 5c, eq. P20). */
static void restart_start(const PlnProblem *p, const double *x0, int k, double *x)
{
    unsigned long long state = 0x5eed0000ULL + (unsigned long long)k;
    memcpy(x, x0, (size_t)p->n_vars * sizeof *x);
    for (int a = 0; a < p->n_active; ++a) {
        double amp = PLN_PLAN_RESTART_STEP_RAD * restart_uniform(&state);
        int n_free = 0, r = 0;
        for (int i = 0; i < p->n_ctrl; ++i) n_free += p->var_of[a * p->n_ctrl + i] >= 0;
        for (int i = 0; i < p->n_ctrl; ++i) {
            int v = p->var_of[a * p->n_ctrl + i];
            if (v < 0) continue;
            ++r;
            x[v] = fmin(fmax(x[v] + amp * sin(PLN_PI * r / (n_free + 1)), p->lb[v]), p->ub[v]);
        }
    }
}

/* Restarts (issue 21 item 3, docs/math/planner.md sec. 5c): while the result fails on
 * something other than its tasks, with time left, at most PLN_PLAN_RESTARTS runs from
 * restart_start(x0, k); a run's result replaces the kept one when its certificate is
 * better (pln_certificate_better). The runs' evaluations and times add to *sip. */
static PlnStatus restarts(const PlnProblem *p, const PlnPlanOptions *opt, const PlnSipRun *run,
                          const double *x0, double *x, double *ctrl, PlnSipResult *sip,
                          PlnCertificate *cert, double *rx, double *rctrl, char *err, size_t err_size)
{
    PlnStatus st = PLN_OK;
    for (int k = 0; k < PLN_PLAN_RESTARTS && st == PLN_OK; ++k) {
        PlnSipRun rrun = *run;
        PlnSipResult rsip;
        PlnCertificate rcert;
        rrun.time_used = run->time_used + sip->wall_time_s;
        if (cert->certified || cert->cause == PLN_CAUSE_TASK ||
            !(rrun.time_used < p->scenario->time_limit) ||
            (cert->cause == PLN_CAUSE_CONTACT && !p->collision)) {
            break;
        }
        rrun.x_last = NULL;
        rrun.max_evaluations = (p->max_evaluations + 1) / 2;
        restart_start(p, x0, k, rx);
        if (run->progress != NULL) {
            fprintf(run->progress, "     restart %d of %d from the perturbed initial guess (%s)\n", k + 1,
                    PLN_PLAN_RESTARTS, cert->reason);
        }
        st = pln_sip_solve(p, rx, &rrun, &rsip, err, err_size);
        if (st != PLN_OK) break;
        pln_problem_ctrl(p, rx, rctrl);
        st = pln_certify_spline(p, rctrl, opt->cert_eps_ratio, &rcert, err, err_size);
        if (st != PLN_OK) break;
        if (run->progress != NULL) {
            fprintf(run->progress, "     restart %d: %s: %s\n", k + 1,
                    rcert.certified ? "certified" : rcert.reason, pln_certificate_better(p, cert, &rcert) ? "kept" : "not kept");
        }
        rsip.restarts = k + 1;
        (void)adopt_if_better(p, x, ctrl, sip, cert, rx, rctrl, &rsip, &rcert);
    }
    return st;
}

/* optimizer.algorithm auto (docs/math/sqp.md sec. 7): when the SQP's motion does not
 * certify, SLSQP runs from the first run's start x0 with the scenario's whole budget (in
 * what is left of its time); its result replaces the kept one when its certificate is
 * better. A contact with the collision rows switched off is what was asked for. */
static PlnStatus fallback(const PlnProblem *p, const PlnPlanOptions *opt, const PlnSipRun *run,
                          const double *x0, double *x, double *ctrl, PlnSipResult *sip,
                          PlnCertificate *cert, double *rx, double *rctrl, char *err, size_t err_size)
{
    PlnSipRun rrun = *run;
    PlnSipResult rsip;
    PlnCertificate rcert;
    PlnStatus st;
    rrun.time_used = run->time_used + sip->wall_time_s;
    if (cert->certified || !(rrun.time_used < p->scenario->time_limit) ||
        (cert->cause == PLN_CAUSE_CONTACT && !p->collision)) {
        return PLN_OK;
    }
    rrun.slsqp = 1;
    rrun.x_last = NULL;
    memcpy(rx, x0, (size_t)p->n_vars * sizeof *rx);
    if (run->progress != NULL) {
        fprintf(run->progress, "     the SQP's motion: %s; SLSQP from the same start (optimizer.algorithm auto)\n",
                cert->reason);
    }
    st = pln_sip_solve(p, rx, &rrun, &rsip, err, err_size);
    if (st != PLN_OK) return st;
    pln_problem_ctrl(p, rx, rctrl);
    st = pln_certify_spline(p, rctrl, opt->cert_eps_ratio, &rcert, err, err_size);
    if (st != PLN_OK) return st;
    if (run->progress != NULL) {
        fprintf(run->progress, "     SLSQP: %s: %s\n", rcert.certified ? "certified" : rcert.reason,
                pln_certificate_better(p, cert, &rcert) ? "kept" : "the SQP's result is kept");
    }
    (void)adopt_if_better(p, x, ctrl, sip, cert, rx, rctrl, &rsip, &rcert);
    return PLN_OK;
}

PlnStatus pln_plan_optimise(const PlnProblem *p, const PlnPlanOptions *opt, const PlnSipRun *run,
                            double *x, double *ctrl, PlnSipResult *sip, PlnCertificate *cert,
                            char *err, size_t err_size)
{
    const int n = p->n_vars, nc = p->n_active * p->n_ctrl;
    PlnSipRun erun = *run, frun = *run, base = *run;
    PlnSipResult esip;
    PlnCertificate ecert;
    double *ex = NULL, *ectrl = NULL, *x0 = NULL;
    int has_tasks = 0;
    PlnStatus st;
    ex = malloc((size_t)(n > 0 ? n : 1) * sizeof *ex);
    ectrl = malloc((size_t)(nc > 0 ? nc : 1) * sizeof *ectrl);
    x0 = malloc((size_t)(n > 0 ? n : 1) * sizeof *x0);
    if (ex == NULL || ectrl == NULL || x0 == NULL) {
        free(ex);
        free(ectrl);
        free(x0);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    memcpy(x0, x, (size_t)n * sizeof *x0);
    frun.x_last = ex;
    st = pln_sip_solve(p, x, &frun, sip, err, err_size);
    if (st == PLN_OK) {
        pln_problem_ctrl(p, x, ctrl);
        st = pln_certify_spline(p, ctrl, opt->cert_eps_ratio, cert, err, err_size);
    }
    /* the loop went back to its point of least worst row: the certificate decides between
     * that and where it ended */
    if (st == PLN_OK && sip->reverted) {
        pln_problem_ctrl(p, ex, ectrl);
        st = pln_certify_spline(p, ectrl, opt->cert_eps_ratio, &ecert, err, err_size);
        if (st == PLN_OK && pln_certificate_better(p, cert, &ecert)) {
            memcpy(x, ex, (size_t)n * sizeof *x);
            memcpy(ctrl, ectrl, (size_t)nc * sizeof *ctrl);
            pln_certificate_destroy(cert);
            *cert = ecert;
            sip->reverted = 0;
        } else if (st == PLN_OK) {
            pln_certificate_destroy(&ecert);
        } else {
            pln_certificate_destroy(cert);
        }
    }
    if (st == PLN_OK && p->scenario->algorithm == PLN_ALGORITHM_AUTO && sip->algorithm != PLN_ALGORITHM_SLSQP) {
        /* auto's second run: SLSQP from the same start, and the rest of the plan with it */
        st = fallback(p, opt, run, x0, x, ctrl, sip, cert, ex, ectrl, err, err_size);
        if (st != PLN_OK) pln_certificate_destroy(cert);
        else base.slsqp = 1;
    }
    if (st == PLN_OK) {
        st = restarts(p, opt, &base, x0, x, ctrl, sip, cert, ex, ectrl, err, err_size);
        if (st != PLN_OK) pln_certificate_destroy(cert);
    }
    free(x0);
    if (st != PLN_OK) {
        free(ex);
        free(ectrl);
        return st;
    }
    for (int i = 0; i < p->m; ++i) has_tasks |= pln_problem_row_is_task(p, i);
    erun = base;
    erun.elastic = 1;
    erun.elastic_from_rest = cert->cause != PLN_CAUSE_TASK;
    erun.time_used = run->time_used + sip->wall_time_s;
    /* a contact with the collision rows switched off (--no-collision, collision.enabled:
     * false) is what was asked for: a restart would only find a collision-free motion by
     * chance */
    if (cert->certified || !has_tasks || !(erun.time_used < p->scenario->time_limit) ||
        (cert->cause == PLN_CAUSE_CONTACT && !p->collision)) {
        free(ex);
        free(ectrl);
        return PLN_OK;
    }
    memcpy(ex, x, (size_t)n * sizeof *ex);
    st = pln_sip_solve(p, ex, &erun, &esip, err, err_size);
    if (st == PLN_OK) {
        pln_problem_ctrl(p, ex, ectrl);
        st = pln_certify_spline(p, ectrl, opt->cert_eps_ratio, &ecert, err, err_size);
    }
    if (st == PLN_OK) {
        if (run->progress != NULL) {
            fprintf(run->progress, "     elastic phase: %s: %s\n",
                    ecert.certified ? "certified" : ecert.reason,
                    pln_certificate_better(p, cert, &ecert) ? "kept" : "the first run's result is kept");
        }
        (void)adopt_if_better(p, x, ctrl, sip, cert, ex, ectrl, &esip, &ecert);
    } else {
        pln_certificate_destroy(cert);
    }
    free(ex);
    free(ectrl);
    return st;
}

PlnStatus pln_plan_run(const char *scenario, const PlnPlanOptions *opt, PlnPlanRun *run,
                       char *err, size_t err_size)
{
    PlnLoaded l;
    PlnSipResult sip;
    PlnCertificate cert;
    double *x = NULL, *ctrl = NULL, start = pln_clock_s();
    PlnStatus st;

    memset(run, 0, sizeof *run);
    st = pln_plan_load(scenario, opt, &l, err, err_size);
    if (st == PLN_OK) {
        x = calloc((size_t)(l.p->n_vars > 0 ? l.p->n_vars : 1), sizeof *x);
        ctrl = calloc((size_t)l.p->n_active * l.p->n_ctrl, sizeof *ctrl);
        if (x == NULL || ctrl == NULL) st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    if (st == PLN_OK) {
        PlnSipRun sr = {NULL, opt->threads, NULL, 0, 0, 0.0, 0, NULL, 0, 0, 0};
        PlnGuessReport guess;
        st = pln_guess_initial_x(l.p, x, &guess, err, err_size);
        run->ik_unmet = guess.unmet;
        if (st == PLN_OK) st = pln_plan_optimise(l.p, opt, &sr, x, ctrl, &sip, &cert, err, err_size);
    }
    if (st == PLN_OK) {
        run->certified = cert.certified;
        run->cause = cert.cause;
        snprintf(run->reason, sizeof run->reason, "%s", cert.reason);
        run->min_clearance = cert.min_clearance;
        pln_certificate_destroy(&cert);
        run->optimise_s = sip.wall_time_s;
        run->mcd_time_s = sip.mcd_time_s;
        run->mcd_calls = sip.mcd_calls;
        run->phong_calls = sip.phong_calls;
        run->phong_fallbacks = sip.phong_fallbacks;
        run->phong_time_s = sip.phong_time_s;
        run->evaluations = sip.evaluations;
        run->cost = sip.cost;
        run->nlopt_code = sip.nlopt_code;
        run->tasks_relaxed = sip.tasks_relaxed;
        run->restart = sip.restarts;
        {
            const unsigned char *b = (const unsigned char *)ctrl;
            size_t nb = (size_t)l.p->n_active * l.p->n_ctrl * sizeof *ctrl;
            unsigned long long h = 1469598103934665603ULL; /* FNV-1a, 64 bits */
            for (size_t i = 0; i < nb; ++i) h = (h ^ b[i]) * 1099511628211ULL;
            run->ctrl_hash = h;
        }
    }
    run->wall_time_s = pln_clock_s() - start;
    free(x);
    free(ctrl);
    pln_plan_unload(&l);
    return st;
}

/* the scenario scaled to duration T and its problem rebuilt */
static PlnStatus rescale(PlnLoaded *l, const PlnPlanOptions *opt, double T, char *err, size_t err_size)
{
    pln_scenario_scale_time(&l->sc, T / l->sc.duration);
    pln_problem_destroy(l->p);
    l->p = NULL;
    return pln_problem_create(&l->p, &l->robot, &l->sc, opt, err, err_size);
}

PlnStatus pln_plan_shorten(PlnLoaded *l, const PlnPlanOptions *opt, const PlnSipRun *run, double *x,
                           PlnSipResult *sip, PlnTimeSearch *ts, char *err, size_t err_size)
{
    const int n = l->p->n_vars;
    double *best = NULL, *trial = NULL, lo, hi, start = pln_clock_s();
    PlnSipResult sbest = *sip;
    PlnSipRun quiet = *run;
    PlnStatus st = PLN_OK;
    memset(ts, 0, sizeof *ts);
    ts->duration0 = hi = l->sc.duration;
    lo = l->sc.cost_min_duration > 0.0 ? l->sc.cost_min_duration : PLN_TIME_SEARCH_FLOOR * hi;
    if (!(lo < hi)) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "%s:%d: cost.min_duration: %g s is not below the duration (%g s)", l->sc.path,
                          l->sc.cost_line, lo, hi);
    }
    best = calloc((size_t)(n > 0 ? n : 1), sizeof *best);
    trial = calloc((size_t)(n > 0 ? n : 1), sizeof *trial);
    if (best == NULL || trial == NULL) {
        free(best);
        free(trial);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    memcpy(best, x, (size_t)n * sizeof *best);
    quiet.progress = NULL; /* one line per plan instead of the optimiser's */
    ts->done = 1;
    ts->failed = lo;
    /* is the floor itself certified? then nothing shorter is asked for */
    for (int k = 0; k < PLN_TIME_SEARCH_PLANS && st == PLN_OK && hi / lo > 1.0 + PLN_TIME_SEARCH_REL; ++k) {
        double T = k == 0 && l->sc.cost_min_duration > 0.0 ? lo : sqrt(lo * hi);
        PlnSipResult s;
        PlnCertificate c;
        int ok = 0;
        st = rescale(l, opt, T, err, err_size);
        if (st != PLN_OK) break;
        memcpy(trial, best, (size_t)n * sizeof *trial);
        st = pln_sip_solve(l->p, trial, &quiet, &s, err, err_size);
        if (st == PLN_OK) {
            double *ctrl = calloc((size_t)l->p->n_active * l->p->n_ctrl + 1, sizeof *ctrl);
            if (ctrl == NULL) {
                st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
                break;
            }
            pln_problem_ctrl(l->p, trial, ctrl);
            st = pln_certify_spline(l->p, ctrl, opt->cert_eps_ratio, &c, err, err_size);
            free(ctrl);
            if (st == PLN_OK) {
                ok = c.certified;
                if (run->progress != NULL) {
                    fprintf(run->progress, "time search: %.4g s: %s (%d evaluations)%s%s\n", T,
                            ok ? "certified" : "not certified", s.evaluations, ok ? "" : ": ", ok ? "" : c.reason);
                }
                pln_certificate_destroy(&c);
            }
        }
        if (st != PLN_OK) break;
        ++ts->plans;
        ts->evaluations += s.evaluations;
        if (ok) {
            hi = T;
            memcpy(best, trial, (size_t)n * sizeof *best);
            sbest = s;
        } else {
            lo = T;
            ts->failed = T;
        }
    }
    if (st == PLN_OK) st = rescale(l, opt, hi, err, err_size);
    if (st == PLN_OK) {
        memcpy(x, best, (size_t)n * sizeof *x);
        *sip = sbest;
        ts->duration = hi;
    }
    ts->wall_time_s = pln_clock_s() - start;
    free(best);
    free(trial);
    return st;
}

PlnStatus pln_plan_read_trajectory_json(const char *path, const PlnProblem *p, double *ctrl,
                                        char *err, size_t err_size)
{
    static const char *const keys[] = {"format", "version", "comment", "scenario", "robot",
                                       "robot_file", "robot_file_relative", "robot_sha256",
                                       "certified", "duration", "joints",
                                       "initial", "spline", "samples", "base", NULL};
    static const char *const spline_keys[] = {"degree", "knots", "joints", "control_points", NULL};
    PlnYaml y;
    yaml_node_t *root, *spline, *joints, *cps;
    char format[64];
    int degree, n;
    double *knots = NULL;
    PlnStatus st = pln_yaml_load(&y, path, err, err_size);
    if (st != PLN_OK) return st;
    root = pln_yaml_root(&y);
    st = pln_yaml_check_mapping(&y, root, "", keys);
    if (st == PLN_OK) st = pln_yaml_string(&y, root, "", "format", 1, format, sizeof format);
    if (st == PLN_OK && strcmp(format, "hrpplan-trajectory") != 0) {
        st = pln_yaml_error(&y, pln_yaml_get(&y, root, "format"), "format", PLN_ERR_INVALID,
                            "'%s' is not an hrpplan trajectory", format);
    }
    /* the floating base must be the one this problem stands on */
    if (st == PLN_OK) {
        yaml_node_t *b = pln_yaml_get(&y, root, "base");
        /* a re-rooted model stands on its root; a free base names the waist, free: true */
        const char *want = p->robot->free_base ? p->robot->links[p->robot->file_root].name
                           : p->robot->file_root != 0 ? p->robot->links[0].name : NULL;
        char link[PLN_NAME_MAX] = "";
        int free_base = 0;
        if (b != NULL && b->type == YAML_MAPPING_NODE) {
            st = pln_yaml_string(&y, b, "base", "link", 1, link, sizeof link);
            if (st == PLN_OK) st = pln_yaml_bool(&y, b, "base", "free", 0, &free_base);
            if (st == PLN_OK && free_base != p->robot->free_base) {
                st = pln_yaml_error(&y, b, "base.free", PLN_ERR_INVALID,
                                    p->robot->free_base ? "missing: the scenario steps from foot to foot, so its waist floats free"
                                                        : "the plan's waist floated free, but this scenario stands on a foot or on the waist");
            }
        }
        if (st == PLN_OK && (b == NULL) != (want == NULL)) {
            st = pln_yaml_error(&y, b != NULL ? b : root, "base", PLN_ERR_INVALID,
                                want != NULL ? "missing: the scenario's robot stands on %s (its legs move)"
                                             : "the plan stood on a foot, but this scenario keeps the waist where the robot file puts it",
                                want != NULL ? want : "");
        } else if (st == PLN_OK && want != NULL && strcmp(link, want) != 0) {
            st = pln_yaml_error(&y, b, "base.link", PLN_ERR_INVALID,
                                "'%s', but the scenario's robot stands on %s", link, want);
        }
    }
    spline = pln_yaml_get(&y, root, "spline");
    if (st == PLN_OK && spline == NULL) {
        st = pln_yaml_error(&y, root, "spline", PLN_ERR_INVALID, "required key is missing");
    }
    if (st == PLN_OK) st = pln_yaml_check_mapping(&y, spline, "spline", spline_keys);
    if (st == PLN_OK) st = pln_yaml_int(&y, spline, "spline", "degree", 1, 1, 7, &degree);
    if (st == PLN_OK && degree != p->bs->degree) {
        st = pln_yaml_error(&y, pln_yaml_get(&y, spline, "degree"), "spline.degree",
                            PLN_ERR_INVALID, "%d, but the scenario's spline has degree %d", degree,
                            p->bs->degree);
    }
    if (st == PLN_OK) {
        knots = calloc((size_t)p->bs->n_knots, sizeof *knots);
        if (knots == NULL) st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    if (st == PLN_OK) {
        yaml_node_t *kn = pln_yaml_get(&y, spline, "knots");
        st = kn ? pln_yaml_node_numbers(&y, kn, "spline.knots", p->bs->n_knots, knots)
                : pln_yaml_error(&y, spline, "spline.knots", PLN_ERR_INVALID, "required key is missing");
        for (int i = 0; st == PLN_OK && i < p->bs->n_knots; ++i) {
            double tol = PLN_TIME_EPS_REL * fmax(1.0, p->scenario->duration);
            if (fabs(knots[i] - p->bs->knots[i]) > tol) {
                st = pln_yaml_error(&y, kn, "spline.knots", PLN_ERR_INVALID,
                                    "knot %d is %g s, the scenario's is %g s (another duration "
                                    "or span count?)",
                                    i, knots[i], p->bs->knots[i]);
            }
        }
    }
    joints = spline ? pln_yaml_get(&y, spline, "joints") : NULL;
    cps = spline ? pln_yaml_get(&y, spline, "control_points") : NULL;
    if (st == PLN_OK && (joints == NULL || cps == NULL)) {
        st = pln_yaml_error(&y, spline, "spline", PLN_ERR_INVALID,
                            "needs joints and control_points");
    }
    if (st == PLN_OK) st = pln_yaml_sequence(&y, joints, "spline.joints", &n);
    if (st == PLN_OK && n != p->n_active) {
        st = pln_yaml_error(&y, joints, "spline.joints", PLN_ERR_INVALID,
                            "%d moving joints, the scenario moves %d", n, p->n_active);
    }
    for (int a = 0; st == PLN_OK && a < n; ++a) {
        char name[PLN_NAME_MAX], field[64];
        yaml_node_t *item = pln_yaml_item(&y, joints, a);
        snprintf(field, sizeof field, "spline.joints[%d]", a);
        st = pln_yaml_node_string(&y, item, field, name, sizeof name);
        if (st == PLN_OK && strcmp(name, p->robot->joints[p->active[a]].name) != 0) {
            st = pln_yaml_error(&y, item, field, PLN_ERR_INVALID,
                                "'%s', but the scenario's moving joint %d is %s", name, a,
                                p->robot->joints[p->active[a]].name);
        }
    }
    if (st == PLN_OK) {
        int rows;
        st = pln_yaml_sequence(&y, cps, "spline.control_points", &rows);
        if (st == PLN_OK && rows != p->n_active) {
            st = pln_yaml_error(&y, cps, "spline.control_points", PLN_ERR_INVALID,
                                "%d rows, expected %d", rows, p->n_active);
        }
        for (int a = 0; st == PLN_OK && a < p->n_active; ++a) {
            char field[64];
            snprintf(field, sizeof field, "spline.control_points[%d]", a);
            st = pln_yaml_node_numbers(&y, pln_yaml_item(&y, cps, a), field, p->n_ctrl, ctrl + a * p->n_ctrl);
            for (int k = 0; st == PLN_OK && k < p->n_ctrl; ++k) {
                if (fabs(ctrl[a * p->n_ctrl + k]) > PLN_MAX_JOINT_ABS) {
                    st = pln_yaml_error(&y, pln_yaml_item(&y, cps, a), field, PLN_ERR_INVALID,
                                        "value %d: %.17g is beyond the joint range +-%g", k,
                                        ctrl[a * p->n_ctrl + k], PLN_MAX_JOINT_ABS);
                }
            }
        }
    }
    free(knots);
    pln_yaml_free(&y);
    return st;
}
