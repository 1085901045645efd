/* pln_ik.c — damped least-squares inverse kinematics on LAPACKE's SVD. */
#include "model/pln_ik.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/pln_tolerance.h"

struct PlnIkWork {
    int max_targets, n;        /* rows at most 3 max_targets, columns n (active joints) */
    int n_joints;
    double *J, *A;             /* [m x n] column-major Jacobian and its copy for dgesdd */
    double *s, *U, *VT;        /* SVD: s[k], U [m x k], VT [k x n] (column-major) */
    double *e, *dq, *q_try;    /* residuals [m], step [n], trial posture [n_joints] */
    double *q_best;            /* the posture of least residual so far [n_joints] */
    double *q_start, *q_keep;  /* the caller's start, the best restart's result [n_joints] */
    double *jac;               /* [3 x n_joints] row-major point Jacobian from pln_kin */
    double *work;
    lapack_int lwork, *iwork;
};

PlnIkOptions pln_ik_options_default(void)
{
    PlnIkOptions o;
    o.max_iterations = 200;
    o.damping = 0.02;
    o.max_step = 0.25;
    o.aim = 0.5;
    o.restarts = 8;
    o.limit_margin = 0.0;
    return o;
}

void pln_ik_destroy(PlnIkWork *w)
{
    if (w == NULL) return;
    free(w->J);
    free(w->A);
    free(w->s);
    free(w->U);
    free(w->VT);
    free(w->e);
    free(w->dq);
    free(w->q_try);
    free(w->q_best);
    free(w->q_start);
    free(w->q_keep);
    free(w->jac);
    free(w->work);
    free(w->iwork);
    free(w);
}

PlnStatus pln_ik_create(const PlnRobot *robot, int max_targets, int n_active, PlnIkWork **out,
                        char *err, size_t err_size)
{
    PlnIkWork *w;
    int m, k;
    *out = NULL;
    if (max_targets < 1 || n_active < 1 || n_active > robot->n_joints) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "inverse kinematics: %d targets on %d joints", max_targets, n_active);
    }
    w = calloc(1, sizeof *w);
    if (w == NULL) return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    w->max_targets = max_targets;
    w->n = n_active;
    w->n_joints = robot->n_joints;
    m = 3 * max_targets;
    k = m < n_active ? m : n_active;
    w->J = calloc((size_t)m * n_active, sizeof *w->J);
    w->A = calloc((size_t)m * n_active, sizeof *w->A);
    w->s = calloc((size_t)k, sizeof *w->s);
    w->U = calloc((size_t)m * k, sizeof *w->U);
    w->VT = calloc((size_t)k * n_active, sizeof *w->VT);
    w->e = calloc((size_t)m, sizeof *w->e);
    w->dq = calloc((size_t)n_active, sizeof *w->dq);
    w->q_try = calloc((size_t)robot->n_joints, sizeof *w->q_try);
    w->q_best = calloc((size_t)robot->n_joints, sizeof *w->q_best);
    w->q_start = calloc((size_t)robot->n_joints, sizeof *w->q_start);
    w->q_keep = calloc((size_t)robot->n_joints, sizeof *w->q_keep);
    w->jac = calloc((size_t)3 * robot->n_joints, sizeof *w->jac);
    w->iwork = calloc((size_t)8 * k, sizeof *w->iwork);
    if (!w->J || !w->A || !w->s || !w->U || !w->VT || !w->e || !w->dq || !w->q_try || !w->q_best || !w->q_start || !w->q_keep || !w->jac ||
        !w->iwork) {
        pln_ik_destroy(w);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    /* the largest workspace dgesdd asks for over every row count the solver may use */
    w->lwork = 1;
    for (int rows = 1; rows <= m; ++rows) {
        double q = 0.0;
        int kk = rows < n_active ? rows : n_active;
        lapack_int info = LAPACKE_dgesdd_work(LAPACK_COL_MAJOR, 'S', rows, n_active, w->A, rows,
                                              w->s, w->U, rows, w->VT, kk, &q, -1, w->iwork);
        if (info == 0 && q > (double)w->lwork) w->lwork = (lapack_int)q;
    }
    w->work = calloc((size_t)w->lwork, sizeof *w->work);
    if (w->work == NULL) {
        pln_ik_destroy(w);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    *out = w;
    return PLN_OK;
}

/* residuals e (3 rows per point, 1 per joint) at the posture of the last forward pass;
 * returns their squared norm */
static double residuals(PlnIkWork *w, const PlnKinWork *kin, const PlnIkTarget *targets,
                        int n_targets, const double *q, double *e)
{
    double sum = 0.0;
    int r = 0;
    for (int t = 0; t < n_targets; ++t) {
        const PlnIkTarget *tg = &targets[t];
        if (tg->kind == PLN_IK_POINT) {
            double x[3];
            pln_kin_point(kin, tg->link, tg->point, x);
            for (int i = 0; i < 3; ++i) {
                e[r] = x[i] - tg->target[i];
                sum += e[r] * e[r];
                ++r;
            }
        } else {
            e[r] = q[tg->joint] - tg->value;
            sum += e[r] * e[r];
            ++r;
        }
    }
    (void)w;
    return sum;
}

/* |residual| - scale * tolerance of every target; the largest, and which, in *worst */
static double worst_miss(const PlnIkTarget *targets, int n_targets, const double *e,
                         double scale, int *worst)
{
    double best = -HUGE_VAL;
    int r = 0;
    *worst = -1;
    for (int t = 0; t < n_targets; ++t) {
        double len;
        if (targets[t].kind == PLN_IK_POINT) {
            len = sqrt(e[r] * e[r] + e[r + 1] * e[r + 1] + e[r + 2] * e[r + 2]);
            r += 3;
        } else {
            len = fabs(e[r]);
            r += 1;
        }
        len -= scale * targets[t].tolerance;
        if (len > best) {
            best = len;
            *worst = t;
        }
    }
    return best;
}

/* the Jacobian of the residuals in the active joints, column-major [m x n] */
static void jacobian(PlnIkWork *w, const PlnKinWork *kin, const PlnRobot *robot,
                     const int *active, int n_active, const PlnIkTarget *targets, int n_targets,
                     int m)
{
    const int nj = robot->n_joints;
    int r = 0;
    memset(w->J, 0, (size_t)m * n_active * sizeof *w->J);
    for (int t = 0; t < n_targets; ++t) {
        const PlnIkTarget *tg = &targets[t];
        if (tg->kind == PLN_IK_POINT) {
            pln_kin_jacobian_point(kin, robot, tg->link, tg->point, w->jac);
            for (int i = 0; i < 3; ++i) {
                for (int a = 0; a < n_active; ++a) {
                    w->J[(size_t)a * m + r + i] = w->jac[i * nj + active[a]];
                }
            }
            r += 3;
        } else {
            for (int a = 0; a < n_active; ++a) {
                w->J[(size_t)a * m + r] = active[a] == tg->joint ? 1.0 : 0.0;
            }
            r += 1;
        }
    }
}

/* the limits of a joint less the margin (at most a quarter of the range) */
static void limits(const PlnJoint *jt, double margin, double *lo, double *hi)
{
    double m = fmin(margin, 0.25 * (jt->upper - jt->lower));
    *lo = jt->lower + m;
    *hi = jt->upper - m;
}

/* q_out = q with the active joints moved by step * dq, clamped to their limits */
static void apply_step(const PlnRobot *robot, const int *active, int n_active, double margin,
                       const double *q, const double *dq, double step, double *q_out)
{
    memcpy(q_out, q, (size_t)robot->n_joints * sizeof *q_out);
    for (int a = 0; a < n_active; ++a) {
        double lo, hi, v = q[active[a]] + step * dq[a];
        limits(&robot->joints[active[a]], margin, &lo, &hi);
        q_out[active[a]] = fmin(fmax(v, lo), hi);
    }
}

/* Damped least squares from the posture q (docs/math/planner.md eq. IK1-IK2); m rows. */
static PlnStatus solve_from(PlnIkWork *w, PlnKinWork *kin, const PlnRobot *robot,
                            const int *active, int n_active, const PlnIkTarget *targets,
                            int n_targets, int m, const PlnIkOptions *opt, double *q,
                            PlnIkResult *res, char *err, size_t err_size)
{
    int nudges = 0;
    double sum, best;
    PlnStatus st;

    memset(res, 0, sizeof *res);
    res->worst = -1;

    st = pln_kin_forward(kin, robot, q);
    if (st != PLN_OK) return pln_errorf(st, err, err_size, "inverse kinematics: bad posture");
    sum = best = residuals(w, kin, targets, n_targets, q, w->e);
    memcpy(w->q_best, q, (size_t)robot->n_joints * sizeof *q);

    for (res->iterations = 0; res->iterations < opt->max_iterations; ++res->iterations) {
        const int k = m < n_active ? m : n_active;
        const double lambda2 = opt->damping * opt->damping;
        double big = 0.0, step = 1.0, trial = HUGE_VAL;
        int worst, accepted = 0;
        lapack_int info;

        if (worst_miss(targets, n_targets, w->e, opt->aim, &worst) <= 0.0) {
            res->converged = 1;
            break;
        }
        /* dq = -V diag(s / (s^2 + lambda^2)) U^T e  (eq. IK1), without the columns of the
         * joints that sit at a limit and would be pushed past it (joint clamping: each
         * pass drops at least one more column) */
        jacobian(w, kin, robot, active, n_active, targets, n_targets, m);
        for (int pass = 0; pass <= n_active; ++pass) {
            int dropped = 0;
            memcpy(w->A, w->J, (size_t)m * n_active * sizeof *w->A);
            info = LAPACKE_dgesdd_work(LAPACK_COL_MAJOR, 'S', m, n_active, w->A, m, w->s, w->U,
                                       m, w->VT, k, w->work, w->lwork, w->iwork);
            if (info != 0) {
                return pln_errorf(PLN_ERR_INTERNAL, err, err_size,
                                  "inverse kinematics: SVD failed (LAPACKE_dgesdd info %d)",
                                  (int)info);
            }
            memset(w->dq, 0, (size_t)n_active * sizeof *w->dq);
            for (int i = 0; i < k; ++i) {
                double ue = 0.0, f = w->s[i] / (w->s[i] * w->s[i] + lambda2);
                for (int r = 0; r < m; ++r) ue += w->U[(size_t)i * m + r] * w->e[r];
                for (int a = 0; a < n_active; ++a) w->dq[a] -= f * ue * w->VT[(size_t)a * k + i];
            }
            for (int a = 0; a < n_active; ++a) {
                double lo, hi, v = q[active[a]];
                int col_zero = 1;
                limits(&robot->joints[active[a]], opt->limit_margin, &lo, &hi);
                for (int r = 0; r < m; ++r) col_zero &= w->J[(size_t)a * m + r] == 0.0;
                if (col_zero) continue;
                if ((v <= lo && w->dq[a] < 0.0) || (v >= hi && w->dq[a] > 0.0)) {
                    memset(w->J + (size_t)a * m, 0, (size_t)m * sizeof *w->J);
                    dropped = 1;
                }
            }
            if (!dropped) break;
        }
        /* at most max_step rad on any joint (eq. IK2) */
        for (int a = 0; a < n_active; ++a) big = fmax(big, fabs(w->dq[a]));
        if (big > opt->max_step) step = opt->max_step / big;
        /* halve until the residual decreases */
        for (int h = 0; h < 12 && !accepted; ++h, step *= 0.5) {
            apply_step(robot, active, n_active, opt->limit_margin, q, w->dq, step, w->q_try);
            st = pln_kin_forward(kin, robot, w->q_try);
            if (st != PLN_OK) return pln_errorf(st, err, err_size, "inverse kinematics: bad posture");
            trial = residuals(w, kin, targets, n_targets, w->q_try, w->e);
            accepted = trial < sum * (1.0 - PLN_IK_MIN_DECREASE);
        }
        if (!accepted) {
            /* stuck (a singular posture blind to the residual, or a local minimum):
             * a few deterministic nudges of the active joints, then stop */
            if (nudges >= PLN_IK_MAX_NUDGES) break;
            ++nudges;
            for (int a = 0; a < n_active; ++a) {
                w->dq[a] = ((a + nudges) % 2 == 0 ? 1.0 : -1.0) * PLN_IK_NUDGE_RAD * nudges;
            }
            apply_step(robot, active, n_active, opt->limit_margin, q, w->dq, 1.0, w->q_try);
            st = pln_kin_forward(kin, robot, w->q_try);
            if (st != PLN_OK) return pln_errorf(st, err, err_size, "inverse kinematics: bad posture");
            trial = residuals(w, kin, targets, n_targets, w->q_try, w->e);
        }
        memcpy(q, w->q_try, (size_t)robot->n_joints * sizeof *q);
        sum = trial;
        if (sum < best) {
            best = sum;
            memcpy(w->q_best, q, (size_t)robot->n_joints * sizeof *q);
        }
    }
    /* the outcome at the best posture reached */
    if (!res->converged) memcpy(q, w->q_best, (size_t)robot->n_joints * sizeof *q);
    st = pln_kin_forward(kin, robot, q);
    if (st != PLN_OK) return pln_errorf(st, err, err_size, "inverse kinematics: bad posture");
    residuals(w, kin, targets, n_targets, q, w->e);
    res->converged = worst_miss(targets, n_targets, w->e, opt->aim, &res->worst) <= 0.0;
    res->worst_miss = worst_miss(targets, n_targets, w->e, 1.0, &res->worst);
    res->met = res->worst_miss <= 0.0;
    if (res->met) res->worst = -1;
    return PLN_OK;
}

/* Start k >= 1 of the restarts. The first half are the caller's start moved by
 * k PLN_IK_NUDGE_RAD on every active joint with alternating signs (the answers near the
 * start, e.g. the other elbow); the others put every active joint at the fraction
 * frac(0.5 + k alpha_j) of its range, alpha_j = frac(sqrt(2 + 3 j)) (a deterministic,
 * well-spread sequence, for answers the start cannot lead to). */
static void restart_posture(const PlnRobot *robot, const int *active, int n_active,
                            double margin, int k, int restarts, double *q)
{
    for (int a = 0; a < n_active; ++a) {
        double lo, hi;
        limits(&robot->joints[active[a]], margin, &lo, &hi);
        if (2 * k <= restarts) {
            int half = (k + 1) / 2;
            double sign = ((a + k) % 2 == 0) ? 1.0 : -1.0;
            q[active[a]] = fmin(fmax(q[active[a]] + sign * 2.0 * half * PLN_IK_NUDGE_RAD, lo), hi);
        } else {
            double alpha = sqrt(2.0 + 3.0 * a), u;
            alpha -= floor(alpha);
            u = 0.5 + k * alpha;
            u -= floor(u);
            q[active[a]] = lo + u * (hi - lo);
        }
    }
}

/* largest change of an active joint between two postures, rad */
static double joint_distance(const int *active, int n_active, const double *q0, const double *q1)
{
    double d = 0.0;
    for (int a = 0; a < n_active; ++a) d = fmax(d, fabs(q1[active[a]] - q0[active[a]]));
    return d;
}

/* Damped least squares with restarts (docs/math/planner.md sec. 8). */
PlnStatus pln_ik_solve(PlnIkWork *w, PlnKinWork *kin, const PlnRobot *robot, const int *active,
                       int n_active, const PlnIkTarget *targets, int n_targets,
                       const PlnIkOptions *opt, double *q, PlnIkResult *res, char *err,
                       size_t err_size)
{
    int m = 0;
    PlnIkResult best;
    PlnStatus st;

    memset(res, 0, sizeof *res);
    res->worst = -1;
    if (n_targets > w->max_targets || n_active != w->n || !(opt->damping > 0.0) ||
        !(opt->max_step > 0.0) || !(opt->aim > 0.0 && opt->aim <= 1.0) ||
        opt->max_iterations < 1 || opt->restarts < 0 || !(opt->limit_margin >= 0.0)) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "inverse kinematics: bad call (%d targets, %d joints)", n_targets,
                          n_active);
    }
    for (int t = 0; t < n_targets; ++t) m += targets[t].kind == PLN_IK_POINT ? 3 : 1;
    if (m == 0) {
        res->converged = res->met = 1;
        return PLN_OK;
    }
    /* from the given posture first: the answer nearest to it when it succeeds */
    memcpy(w->q_start, q, (size_t)robot->n_joints * sizeof *q);
    st = solve_from(w, kin, robot, active, n_active, targets, n_targets, m, opt, q, res, err,
                    err_size);
    if (st != PLN_OK || res->met) return st;
    /* stuck against a joint limit or in a local minimum: restart from postures near the
     * start and spread over the ranges; keep, of those that meet every target, the one
     * nearest the start, else the least miss */
    best = *res;
    memcpy(w->q_keep, q, (size_t)robot->n_joints * sizeof *q);
    for (int k = 1; k <= opt->restarts; ++k) {
        PlnIkResult r;
        int iterations = best.iterations, better;
        memcpy(q, w->q_start, (size_t)robot->n_joints * sizeof *q);
        restart_posture(robot, active, n_active, opt->limit_margin, k, opt->restarts, q);
        st = solve_from(w, kin, robot, active, n_active, targets, n_targets, m, opt, q, &r, err,
                        err_size);
        if (st != PLN_OK) return st;
        r.iterations += iterations;
        best.iterations = r.iterations;
        if (r.met && best.met) {
            better = joint_distance(active, n_active, w->q_start, q) <
                     joint_distance(active, n_active, w->q_start, w->q_keep);
        } else {
            better = r.met || (!best.met && r.worst_miss < best.worst_miss);
        }
        if (better) {
            int its = best.iterations;
            best = r;
            best.iterations = its;
            memcpy(w->q_keep, q, (size_t)robot->n_joints * sizeof *q);
        }
    }
    memcpy(q, w->q_keep, (size_t)robot->n_joints * sizeof *q);
    *res = best;
    return PLN_OK;
}
