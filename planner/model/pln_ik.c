/* pln_ik.c — damped least-squares inverse kinematics on LAPACKE's SVD. */
#include "model/pln_ik.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/pln_tolerance.h"

struct PlnIkWork {
    int max_targets, n;        /* rows at most 6 max_targets, columns n (active joints) */
    int n_joints;
    double *J, *A;             /* [m x n] column-major Jacobian (rows by priority) and the
                                  matrix of one level for dgesdd */
    double *N;                 /* [n x n] column-major null-space projector of the levels done */
    double *s, *U, *VT;        /* SVD: s[k], U [m x k], VT [k x n] (column-major) */
    double *e, *r, *b;         /* residuals, the residuals the step drives (a centre of mass
                                  inside its band: zero), one level's right side [m] */
    double *angle;             /* [max_targets] a frame's rotation angle, rad; the centre of
                                  mass's largest n_e . c - b_e, m */
    int *com_edge;             /* [2 max_targets] the polygon edges a centre of mass's rows
                                  stand for (-1: the row is off) */
    int *row0;                 /* [max_targets] first row of each target (by priority) */
    int level_row[PLN_IK_MAX_LEVELS + 1]; /* rows of level l: [level_row[l], level_row[l + 1]) */
    int last_level;            /* the lowest-priority level that has targets */
    double *dq, *q_try;        /* step [n], trial posture [n_joints] */
    double *q_best;            /* the posture of least residual so far [n_joints] */
    double *q_start, *q_keep;  /* the caller's start, the best restart's result [n_joints] */
    double *jac;               /* [3 x n_joints] row-major point / rotation / com Jacobian */
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
    free(w->N);
    free(w->s);
    free(w->U);
    free(w->VT);
    free(w->e);
    free(w->r);
    free(w->b);
    free(w->angle);
    free(w->com_edge);
    free(w->row0);
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

static int rows_of(PlnIkKind kind)
{
    switch (kind) {
    case PLN_IK_POINT: return 3;
    case PLN_IK_JOINT: return 1;
    case PLN_IK_FRAME: return 6;
    case PLN_IK_COM: return 2;
    }
    return 0;
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
    m = 6 * max_targets;
    k = m < n_active ? m : n_active;
    w->J = calloc((size_t)m * n_active, sizeof *w->J);
    w->A = calloc((size_t)m * n_active, sizeof *w->A);
    w->N = calloc((size_t)n_active * n_active, sizeof *w->N);
    w->s = calloc((size_t)k, sizeof *w->s);
    w->U = calloc((size_t)m * k, sizeof *w->U);
    w->VT = calloc((size_t)k * n_active, sizeof *w->VT);
    w->e = calloc((size_t)m, sizeof *w->e);
    w->r = calloc((size_t)m, sizeof *w->r);
    w->b = calloc((size_t)m, sizeof *w->b);
    w->angle = calloc((size_t)max_targets, sizeof *w->angle);
    w->com_edge = calloc((size_t)2 * max_targets, sizeof *w->com_edge);
    w->row0 = calloc((size_t)max_targets, sizeof *w->row0);
    w->dq = calloc((size_t)n_active, sizeof *w->dq);
    w->q_try = calloc((size_t)robot->n_joints, sizeof *w->q_try);
    w->q_best = calloc((size_t)robot->n_joints, sizeof *w->q_best);
    w->q_start = calloc((size_t)robot->n_joints, sizeof *w->q_start);
    w->q_keep = calloc((size_t)robot->n_joints, sizeof *w->q_keep);
    w->jac = calloc((size_t)3 * robot->n_joints, sizeof *w->jac);
    w->iwork = calloc((size_t)8 * k, sizeof *w->iwork);
    if (!w->J || !w->A || !w->N || !w->s || !w->U || !w->VT || !w->e || !w->r || !w->b ||
        !w->angle || !w->com_edge || !w->row0 || !w->dq || !w->q_try || !w->q_best || !w->q_start ||
        !w->q_keep || !w->jac || !w->iwork) {
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

/* Rows of the targets, ordered by priority (stable): row0 of each target, the row range
 * of each level; returns the row count. */
static int layout(PlnIkWork *w, const PlnIkTarget *targets, int n_targets)
{
    int r = 0;
    for (int l = 0; l < PLN_IK_MAX_LEVELS; ++l) {
        w->level_row[l] = r;
        for (int t = 0; t < n_targets; ++t) {
            if (targets[t].priority != l) continue;
            w->row0[t] = r;
            r += rows_of(targets[t].kind);
        }
    }
    w->level_row[PLN_IK_MAX_LEVELS] = r;
    w->last_level = 0;
    for (int l = 0; l < PLN_IK_MAX_LEVELS; ++l) {
        if (w->level_row[l + 1] > w->level_row[l]) w->last_level = l;
    }
    return r;
}

/* Residuals e of every target at the posture of the last forward pass, the driven
 * residuals r, and the merit of each level that the line search compares level by level
 * (eq. IK3): the lowest level's sum of |r_t|^2; a higher level's sum of
 * max(0, |r_t| - aim tol_t)^2, so that the second-order drift of a met stance foot inside
 * its band does not stop the levels below. A frame's rotation error is
 * vee(R Rt^T - Rt R^T) / 2, sin(angle) times the axis (eq. IK4). A centre of mass (eq.
 * IK5): of the polygon's edges with v_e = n_e . c - b_e > -tolerance, the two largest
 * give a row each, residual max(0, v_e) (0 holds it on that edge's side, > 0 pulls it
 * back); no such edge, no row (it moves freely inside). */
static PlnStatus residuals(PlnIkWork *w, const PlnKinWork *kin, const PlnRobot *robot,
                           const PlnIkTarget *targets, int n_targets, const double *q,
                           double aim, double *merit)
{
    for (int l = 0; l < PLN_IK_MAX_LEVELS; ++l) merit[l] = 0.0;
    for (int t = 0; t < n_targets; ++t) {
        const PlnIkTarget *tg = &targets[t];
        const int r = w->row0[t], nr = rows_of(tg->kind);
        double *e = w->e + r, part = 0.0;
        if (tg->kind == PLN_IK_POINT || tg->kind == PLN_IK_FRAME) {
            double x[3];
            pln_kin_point(kin, tg->link, tg->point, x);
            for (int i = 0; i < 3; ++i) e[i] = x[i] - tg->target[i];
        } else if (tg->kind == PLN_IK_JOINT) {
            e[0] = q[tg->joint] - tg->value;
        } else {
            double c[3], v[2] = {-HUGE_VAL, -HUGE_VAL};
            int *edge = w->com_edge + 2 * t;
            PlnStatus st = pln_kin_com(kin, robot, c);
            if (st != PLN_OK) return st;
            edge[0] = edge[1] = -1;
            w->angle[t] = -HUGE_VAL;
            for (int k = 0; k < tg->n_edges; ++k) {
                double ve = tg->edge_n[k][0] * c[0] + tg->edge_n[k][1] * c[1] - tg->edge_b[k];
                w->angle[t] = fmax(w->angle[t], ve);
                if (!(ve > -tg->tolerance)) continue;
                if (ve > v[0]) {
                    v[1] = v[0], edge[1] = edge[0];
                    v[0] = ve, edge[0] = k;
                } else if (ve > v[1]) {
                    v[1] = ve, edge[1] = k;
                }
            }
            e[0] = edge[0] >= 0 ? fmax(0.0, v[0]) : 0.0;
            e[1] = edge[1] >= 0 ? fmax(0.0, v[1]) : 0.0;
        }
        if (tg->kind == PLN_IK_FRAME) {
            const double *R = pln_kin_link_rot(kin, tg->link);
            double M[9];
            for (int i = 0; i < 3; ++i) {
                for (int j = 0; j < 3; ++j) {
                    M[3 * i + j] = 0.0;
                    for (int l = 0; l < 3; ++l) M[3 * i + j] += R[3 * i + l] * tg->target_rot[3 * j + l];
                }
            }
            e[3] = 0.5 * (M[7] - M[5]);
            e[4] = 0.5 * (M[2] - M[6]);
            e[5] = 0.5 * (M[3] - M[1]);
            w->angle[t] = acos(fmin(1.0, fmax(-1.0, 0.5 * (M[0] + M[4] + M[8] - 1.0))));
        }
        for (int i = 0; i < nr; ++i) w->r[r + i] = e[i];
        for (int i = 0; i < nr; ++i) part += w->r[r + i] * w->r[r + i];
        if (tg->priority < w->last_level) {
            /* the excess over the band, position and rotation apart */
            double pos = 0.0, rot = 0.0;
            int np = tg->kind == PLN_IK_FRAME ? 3 : nr;
            for (int i = 0; i < np; ++i) pos += w->r[r + i] * w->r[r + i];
            pos = fmax(0.0, sqrt(pos) - aim * tg->tolerance);
            if (tg->kind == PLN_IK_FRAME) rot = fmax(0.0, w->angle[t] - aim * tg->rot_tolerance);
            if (tg->kind == PLN_IK_COM) pos = sqrt(part); /* r is already what is beyond */
            part = pos * pos + rot * rot;
        }
        merit[tg->priority] += part;
    }
    return PLN_OK;
}

/* 1 when merit a is below b level by level (eq. IK3): the first level where they differ
 * decides; a decrease must be by the relative amount `rel` */
static int merit_below(const double *a, const double *b, double rel)
{
    for (int l = 0; l < PLN_IK_MAX_LEVELS; ++l) {
        if (a[l] < b[l] * (1.0 - rel)) return 1;
        if (a[l] > b[l]) return 0;
    }
    return 0;
}

/* |residual| - scale * tolerance of target t (a frame: the larger of position and angle) */
static double target_miss(const PlnIkWork *w, const PlnIkTarget *tg, int t, double scale)
{
    const double *e = w->e + w->row0[t];
    double len;
    switch (tg->kind) {
    case PLN_IK_JOINT: return fabs(e[0]) - scale * tg->tolerance;
    case PLN_IK_COM: return w->angle[t]; /* beyond the polygon, m (<= 0 inside) */
    case PLN_IK_POINT:
    case PLN_IK_FRAME: break;
    }
    len = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]) - scale * tg->tolerance;
    if (tg->kind == PLN_IK_FRAME) len = fmax(len, w->angle[t] - scale * tg->rot_tolerance);
    return len;
}

/* the largest miss over every target, which one in *worst, and per level (nullable) */
static double worst_miss(const PlnIkWork *w, const PlnIkTarget *targets, int n_targets,
                         double scale, int *worst, double *level)
{
    double best = -HUGE_VAL;
    *worst = -1;
    if (level != NULL) {
        for (int l = 0; l < PLN_IK_MAX_LEVELS; ++l) level[l] = -HUGE_VAL;
    }
    for (int t = 0; t < n_targets; ++t) {
        double miss = target_miss(w, &targets[t], t, scale);
        if (level != NULL) level[targets[t].priority] = fmax(level[targets[t].priority], miss);
        if (miss > best) {
            best = miss;
            *worst = t;
        }
    }
    return best;
}

void pln_ik_misses(const PlnIkWork *w, const PlnIkTarget *targets, int n_targets, double *miss)
{
    for (int t = 0; t < n_targets; ++t) miss[t] = target_miss(w, &targets[t], t, 1.0);
}

/* the Jacobian of the residuals in the active joints, column-major [m x n] */
static PlnStatus jacobian(PlnIkWork *w, const PlnKinWork *kin, const PlnRobot *robot,
                          const int *active, int n_active, const PlnIkTarget *targets,
                          int n_targets, int m)
{
    const int nj = robot->n_joints;
    memset(w->J, 0, (size_t)m * n_active * sizeof *w->J);
    for (int t = 0; t < n_targets; ++t) {
        const PlnIkTarget *tg = &targets[t];
        const int r = w->row0[t];
        int rows = 3;
        if (tg->kind == PLN_IK_JOINT) {
            for (int a = 0; a < n_active; ++a) {
                w->J[(size_t)a * m + r] = active[a] == tg->joint ? 1.0 : 0.0;
            }
            continue;
        }
        if (tg->kind == PLN_IK_COM) {
            /* row k: n_e . J_com(x, y) for the edge it stands for, zero when off */
            const int *edge = w->com_edge + 2 * t;
            PlnStatus st = pln_kin_jacobian_com(kin, robot, w->jac);
            if (st != PLN_OK) return st;
            for (int k = 0; k < 2; ++k) {
                if (edge[k] < 0) continue;
                for (int a = 0; a < n_active; ++a) {
                    w->J[(size_t)a * m + r + k] = tg->edge_n[edge[k]][0] * w->jac[active[a]] +
                                                  tg->edge_n[edge[k]][1] * w->jac[nj + active[a]];
                }
            }
            continue;
        } else {
            pln_kin_jacobian_point(kin, robot, tg->link, tg->point, w->jac);
        }
        for (int i = 0; i < rows; ++i) {
            for (int a = 0; a < n_active; ++a) w->J[(size_t)a * m + r + i] = w->jac[i * nj + active[a]];
        }
        if (tg->kind == PLN_IK_FRAME) {
            /* d(rotation error)/dq = the angular-velocity Jacobian, to first order (IK4) */
            pln_kin_jacobian_rot(kin, robot, tg->link, w->jac);
            for (int i = 0; i < 3; ++i) {
                for (int a = 0; a < n_active; ++a) {
                    w->J[(size_t)a * m + r + 3 + i] = w->jac[i * nj + active[a]];
                }
            }
        }
    }
    return PLN_OK;
}

/* The prioritised damped least-squares step (eq. IK1, IK3): for each level l in turn,
 *   A_l = J_l N,  dq += V_l diag(s / (s^2 + lambda^2)) U_l^T (-r_l - J_l dq),
 *   N -= V_l' V_l'^T  (the right singular vectors of A_l with s > PLN_IK_RANK_REL s_max),
 * from dq = 0, N = I. With one level this is IK1 exactly. */
static PlnStatus prioritised_step(PlnIkWork *w, int n_active, int m, double lambda2)
{
    const int n = n_active;
    memset(w->dq, 0, (size_t)n * sizeof *w->dq);
    memset(w->N, 0, (size_t)n * n * sizeof *w->N);
    for (int a = 0; a < n; ++a) w->N[(size_t)a * n + a] = 1.0;
    for (int l = 0; l < PLN_IK_MAX_LEVELS; ++l) {
        const int r0 = w->level_row[l], ml = w->level_row[l + 1] - r0;
        const int k = ml < n ? ml : n;
        lapack_int info;
        double smax;
        if (ml == 0) continue;
        /* A = J_l N (column-major ml x n), b = -r_l - J_l dq */
        for (int c = 0; c < n; ++c) {
            for (int i = 0; i < ml; ++i) {
                double v = 0.0;
                for (int a = 0; a < n; ++a) v += w->J[(size_t)a * m + r0 + i] * w->N[(size_t)c * n + a];
                w->A[(size_t)c * ml + i] = v;
            }
        }
        for (int i = 0; i < ml; ++i) {
            double v = -w->r[r0 + i];
            for (int a = 0; a < n; ++a) v -= w->J[(size_t)a * m + r0 + i] * w->dq[a];
            w->b[i] = v;
        }
        info = LAPACKE_dgesdd_work(LAPACK_COL_MAJOR, 'S', ml, n, w->A, ml, w->s, w->U, ml, w->VT,
                                   k, w->work, w->lwork, w->iwork);
        if (info != 0) return PLN_ERR_INTERNAL;
        smax = k > 0 ? w->s[0] : 0.0;
        for (int i = 0; i < k; ++i) {
            double ub = 0.0, f = w->s[i] / (w->s[i] * w->s[i] + lambda2);
            for (int j = 0; j < ml; ++j) ub += w->U[(size_t)i * ml + j] * w->b[j];
            for (int a = 0; a < n; ++a) w->dq[a] += f * ub * w->VT[(size_t)a * k + i];
            if (w->s[i] > PLN_IK_RANK_REL * smax && w->s[i] > 0.0) {
                for (int c = 0; c < n; ++c) {
                    for (int a = 0; a < n; ++a) {
                        w->N[(size_t)c * n + a] -= w->VT[(size_t)a * k + i] * w->VT[(size_t)c * k + i];
                    }
                }
            }
        }
    }
    return PLN_OK;
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

/* forward kinematics and residuals at q */
static PlnStatus evaluate(PlnIkWork *w, PlnKinWork *kin, const PlnRobot *robot,
                          const PlnIkTarget *targets, int n_targets, const double *q, double aim,
                          double *merit, char *err, size_t err_size)
{
    PlnStatus st = pln_kin_forward(kin, robot, q);
    if (st == PLN_OK) st = residuals(w, kin, robot, targets, n_targets, q, aim, merit);
    if (st != PLN_OK) return pln_errorf(st, err, err_size, "inverse kinematics: bad posture or a massless robot");
    return PLN_OK;
}

/* Damped least squares from the posture q (docs/math/planner.md eq. IK1-IK5); m rows. */
static PlnStatus solve_from(PlnIkWork *w, PlnKinWork *kin, const PlnRobot *robot,
                            const int *active, int n_active, const PlnIkTarget *targets,
                            int n_targets, int m, const PlnIkOptions *opt, double *q,
                            PlnIkResult *res, char *err, size_t err_size)
{
    int nudges = 0;
    double sum[PLN_IK_MAX_LEVELS], best[PLN_IK_MAX_LEVELS], trial[PLN_IK_MAX_LEVELS];
    PlnStatus st;

    memset(res, 0, sizeof *res);
    res->worst = -1;

    st = evaluate(w, kin, robot, targets, n_targets, q, opt->aim, sum, err, err_size);
    if (st != PLN_OK) return st;
    memcpy(best, sum, sizeof best);
    memcpy(w->q_best, q, (size_t)robot->n_joints * sizeof *q);

    for (res->iterations = 0; res->iterations < opt->max_iterations; ++res->iterations) {
        const double lambda2 = opt->damping * opt->damping;
        double big = 0.0, step = 1.0;
        int worst, accepted = 0;

        if (worst_miss(w, targets, n_targets, opt->aim, &worst, NULL) <= 0.0) {
            res->converged = 1;
            break;
        }
        /* the step of eq. IK1/IK3, without the columns of the joints that sit at a limit
         * and would be pushed past it (joint clamping: each pass drops at least one more
         * column) */
        st = jacobian(w, kin, robot, active, n_active, targets, n_targets, m);
        if (st != PLN_OK) return pln_errorf(st, err, err_size, "inverse kinematics: a massless robot");
        for (int pass = 0; pass <= n_active; ++pass) {
            int dropped = 0;
            if (prioritised_step(w, n_active, m, lambda2) != PLN_OK) {
                return pln_errorf(PLN_ERR_INTERNAL, err, err_size,
                                  "inverse kinematics: SVD failed (LAPACKE_dgesdd)");
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
        /* halve until the merit decreases */
        for (int h = 0; h < 12 && !accepted; ++h, step *= 0.5) {
            apply_step(robot, active, n_active, opt->limit_margin, q, w->dq, step, w->q_try);
            st = evaluate(w, kin, robot, targets, n_targets, w->q_try, opt->aim, trial, err, err_size);
            if (st != PLN_OK) return st;
            accepted = merit_below(trial, sum, PLN_IK_MIN_DECREASE);
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
            st = evaluate(w, kin, robot, targets, n_targets, w->q_try, opt->aim, trial, err, err_size);
            if (st != PLN_OK) return st;
        }
        memcpy(q, w->q_try, (size_t)robot->n_joints * sizeof *q);
        memcpy(sum, trial, sizeof sum);
        if (merit_below(sum, best, 0.0)) {
            memcpy(best, sum, sizeof best);
            memcpy(w->q_best, q, (size_t)robot->n_joints * sizeof *q);
        }
    }
    /* the outcome at the best posture reached */
    if (!res->converged) memcpy(q, w->q_best, (size_t)robot->n_joints * sizeof *q);
    st = evaluate(w, kin, robot, targets, n_targets, q, opt->aim, sum, err, err_size);
    if (st != PLN_OK) return st;
    res->converged = worst_miss(w, targets, n_targets, opt->aim, &res->worst, NULL) <= 0.0;
    res->worst_miss = worst_miss(w, targets, n_targets, 1.0, &res->worst, res->level_miss);
    res->met = res->worst_miss <= 0.0;
    if (res->met) res->worst = -1;
    return PLN_OK;
}

/* 1 when result a is better than b: the highest level whose misses differ decides (a miss
 * within tolerance counts as none); then the worst miss */
static int better_levels(const PlnIkResult *a, const PlnIkResult *b)
{
    for (int l = 0; l < PLN_IK_MAX_LEVELS; ++l) {
        double x = fmax(a->level_miss[l], 0.0), y = fmax(b->level_miss[l], 0.0);
        if (fabs(x - y) > PLN_IK_LEVEL_MISS_TIE) return x < y;
    }
    return a->worst_miss < b->worst_miss;
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

/* Prioritised damped least squares with restarts (docs/math/planner.md sec. 8). */
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
    for (int t = 0; t < n_targets; ++t) {
        const PlnIkTarget *tg = &targets[t];
        if (rows_of(tg->kind) == 0 || tg->priority < 0 || tg->priority >= PLN_IK_MAX_LEVELS ||
            !(tg->tolerance >= 0.0) || (tg->kind == PLN_IK_FRAME && !(tg->rot_tolerance >= 0.0)) ||
            (tg->kind == PLN_IK_COM && (tg->n_edges < 1 || tg->edge_n == NULL || tg->edge_b == NULL))) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "inverse kinematics: target %d: bad kind, priority or tolerance", t);
        }
    }
    m = layout(w, targets, n_targets);
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
            better = r.met || (!best.met && better_levels(&r, &best));
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
    {
        double merit[PLN_IK_MAX_LEVELS]; /* the residuals of the posture returned, for pln_ik_misses() */
        return evaluate(w, kin, robot, targets, n_targets, q, opt->aim, merit, err, err_size);
    }
}
