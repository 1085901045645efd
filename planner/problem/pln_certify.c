/* pln_certify.c — independent certification of a trajectory (DESIGN.md sec. 6). */
#include "problem/pln_certify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/pln_clock.h"
#include "base/pln_tolerance.h"
#include "base/pln_watchdog.h"
#include "problem/pln_dynrows.h"

void pln_certificate_destroy(PlnCertificate *c)
{
    free(c->t0);
    free(c->t1);
    free(c->lower);
    free(c->upper);
    free(c->t_min);
    free(c->pairs);
    free(c->task_error);
    free(c->task_over);
    memset(c, 0, sizeof *c);
}

static PlnStatus cert_alloc(PlnCertificate *c, int n_pairs, int n_intervals, int n_tasks,
                            char *err, size_t err_size)
{
    size_t np = (size_t)(n_pairs > 0 ? n_pairs : 1), ni = (size_t)(n_intervals > 0 ? n_intervals : 1);
    memset(c, 0, sizeof *c);
    c->n_pairs = n_pairs;
    c->n_intervals = n_intervals;
    c->n_tasks = n_tasks;
    c->t0 = calloc(ni, sizeof *c->t0);
    c->t1 = calloc(ni, sizeof *c->t1);
    c->lower = calloc(np * ni, sizeof *c->lower);
    c->upper = calloc(np * ni, sizeof *c->upper);
    c->t_min = calloc(np * ni, sizeof *c->t_min);
    c->pairs = calloc(np, sizeof *c->pairs);
    for (size_t pr = 0; c->pairs != NULL && pr < np; ++pr) c->pairs[pr].best_upper = INFINITY;
    c->zmp_margin_min = INFINITY;
    c->fz_min_rel = INFINITY;
    c->stance_link = -1;
    c->floor_link = -1;
    c->floor_min = HUGE_VAL;
    c->torque_joint = -1;
    c->torque2 = NAN;
    c->task_error = calloc((size_t)(n_tasks > 0 ? n_tasks : 1), sizeof *c->task_error);
    c->task_over = calloc((size_t)(n_tasks > 0 ? n_tasks : 1), sizeof *c->task_over);
    if (!c->t0 || !c->t1 || !c->lower || !c->upper || !c->t_min || !c->pairs || !c->task_error ||
        !c->task_over) {
        pln_certificate_destroy(c);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory for the certificate");
    }
    return PLN_OK;
}

/* the certified balance margin on interval i, whose link motion is in w->lm: the
 * Taylor-model bound of n_e . com(t) - b_e for every support edge */
static PlnStatus cert_balance(const PlnProblem *p, PlnProblemWork *w, PlnCertificate *c, int i,
                              char *err, size_t err_size)
{
    const PlnTaylor *com;
    if (p->n_edges == 0) return PLN_OK;
    com = pln_linkmotion_com(w->lm);
    if (com == NULL) return pln_errorf(PLN_ERR_INVALID, err, err_size, "balance: the robot has no mass");
    for (int e = 0; e < p->n_edges; ++e) {
        PlnTaylor g;
        double lo, hi;
        pln_taylor_scale(&g, &com[0], p->edge_n[e][0]);
        pln_taylor_axpy(&g, &g, p->edge_n[e][1], &com[1]);
        pln_taylor_bound(&g, &lo, &hi);
        if (hi - p->edge_b[e] > c->max_balance_violation) {
            c->max_balance_violation = hi - p->edge_b[e];
            c->balance_t = c->t0[i];
        }
    }
    return PLN_OK;
}

/* The certified dynamics of one stretch [ta, tb] of an interval (eq. D16-D27): the least
 * floor force, the largest friction ratio, the ZMP's least distance inside each phase's
 * polygon and the largest torque ratio, each with its time (ta). */
typedef struct DynMeasure {
    double fz_min_rel, fz_t;
    double friction_max, friction_t;
    double zmp_min, zmp_t;
    double torque_max, torque_t;
    int torque_joint;
} DynMeasure;

static void dyn_measure_init(DynMeasure *m)
{
    m->fz_min_rel = m->zmp_min = INFINITY;
    m->friction_max = m->torque_max = 0.0;
    m->fz_t = m->friction_t = m->zmp_t = m->torque_t = 0.0;
    m->torque_joint = -1;
}

/* 1 when phase ph holds on exactly the part `cover` of interval i */
static int phase_covers(const PlnProblem *p, int ph, int i, const double *cover)
{
    double c[2];
    pln_dynrows_phase_cover(p, ph, i, c);
    return c[0] == cover[0] && c[1] == cover[1];
}

/* the dynamics over the link motion last computed (w->coef_used, w->h_used), which
 * covers [ta, tb] of interval i: with cover NULL, of every phase that meets [ta, tb] (a
 * table's gap); else of the phases that hold on exactly the part `cover` of the interval,
 * which contains [ta, tb] (eq. P6d), and the floor force and friction when that part is
 * the whole interval */
static PlnStatus dyn_measure(const PlnProblem *p, PlnProblemWork *w, int i, double ta, double tb,
                             const double *cover, DynMeasure *m, char *err, size_t err_size)
{
    const PlnScenario *sc = p->scenario;
    const PlnTaylor *W;
    PlnTaylor a, b, ft;
    double lo, hi, fz_lo, ratio;
    PlnStatus st = pln_dynrows_interval_bounds(p, w, i, cover, NULL, err, err_size);
    dyn_measure_init(m);
    if (st != PLN_OK) return st;
    W = pln_dynmotion_wrench(w->dm);
    for (int ph = 0; ph < p->n_phases; ++ph) {
        const PlnPhaseGeom *g = &p->phases[ph];
        PlnTaylor zmp[2];
        if (cover != NULL ? !phase_covers(p, ph, i, cover)
                          : !(tb > g->t0 + PLN_PHASE_TIME_TOL_S && ta < g->t1 - PLN_PHASE_TIME_TOL_S)) {
            continue;
        }
        if (!pln_dynmotion_contact(w->dm, p->robot, &g->support, p->min_fz, zmp)) {
            m->zmp_min = -INFINITY;
            m->zmp_t = ta;
            if (sc->torque_limits) {
                m->torque_max = INFINITY;
                m->torque_t = ta;
            }
            continue;
        }
        for (int e = 0; e < g->n_edges; ++e) {
            PlnTaylor t;
            double d;
            pln_taylor_scale(&t, &zmp[0], g->edge_n[e][0]);
            pln_taylor_axpy(&t, &t, g->edge_n[e][1], &zmp[1]);
            pln_taylor_bound(&t, &lo, &hi);
            d = g->edge_b[e] + sc->zmp_margin - hi;
            if (d < m->zmp_min) {
                m->zmp_min = d;
                m->zmp_t = ta;
            }
        }
        for (int j = 0; j < p->robot->n_joints && sc->torque_limits; ++j) {
            const PlnJoint *jt = &p->robot->joints[j];
            /* a free base's virtual joints carry nothing (kinematics.md K18) */
            if (jt->type == PLN_JOINT_FIXED || pln_robot_joint_is_virtual(p->robot, j)) continue;
            ratio = pln_taylor_bound_abs(&pln_dynmotion_torque(w->dm)[j]) / jt->effort_max;
            if (ratio > m->torque_max) {
                m->torque_max = ratio;
                m->torque_joint = j;
                m->torque_t = ta;
            }
        }
    }
    if (cover != NULL && !(cover[0] == 0.0 && cover[1] == 1.0)) return PLN_OK;
    pln_taylor_bound(&W[5], &fz_lo, &hi);
    m->fz_min_rel = fz_lo / p->weight;
    m->fz_t = ta;
    pln_taylor_mul(&a, &W[3], &W[3]);
    pln_taylor_mul(&b, &W[4], &W[4]);
    pln_taylor_add(&ft, &a, &b);
    pln_taylor_bound(&ft, &lo, &hi);
    m->friction_max = fz_lo > 0.0 ? sqrt(fmax(hi, 0.0)) / (sc->mu * fz_lo) : INFINITY;
    m->friction_t = ta;
    return PLN_OK;
}

/* m breaks a dynamic constraint (beyond the certificate's slack) */
static int dyn_violates(const PlnProblem *p, const DynMeasure *m)
{
    return m->fz_min_rel < PLN_DYN_MIN_FZ_REL - PLN_CERT_SLACK ||
           m->zmp_min < p->scenario->zmp_margin - PLN_CERT_SLACK ||
           m->friction_max > 1.0 + PLN_CERT_SLACK ||
           (p->scenario->torque_limits && m->torque_max > 1.0 + PLN_CERT_SLACK);
}

/* the least / largest of two measures (each a rigorous bound over its stretch) */
static void dyn_merge(DynMeasure *acc, const DynMeasure *m)
{
    if (m->fz_min_rel < acc->fz_min_rel) {
        acc->fz_min_rel = m->fz_min_rel;
        acc->fz_t = m->fz_t;
    }
    if (m->friction_max > acc->friction_max) {
        acc->friction_max = m->friction_max;
        acc->friction_t = m->friction_t;
    }
    if (m->zmp_min < acc->zmp_min) {
        acc->zmp_min = m->zmp_min;
        acc->zmp_t = m->zmp_t;
    }
    if (m->torque_max > acc->torque_max || (acc->torque_joint < 0 && m->torque_joint >= 0)) {
        acc->torque_max = m->torque_max;
        acc->torque_joint = m->torque_joint;
        acc->torque_t = m->torque_t;
    }
}

/* A stretch [a, b] (fractions) of spline interval i whose Taylor-model dynamics break a
 * constraint: the enclosures of a fast motion over a long stretch may be what is too
 * wide. Bisect it (at most PLN_CERT_REFINE_DEPTH levels), each part with its own link
 * motion and dynamics, and merge the parts' measures: every part's bound is rigorous, so
 * their least / largest is the stretch's. A part that still breaks a constraint at the
 * deepest level is merged as it is (a real violation, or one too narrow to resolve). */
static PlnStatus dyn_refine(const PlnProblem *p, PlnProblemWork *w, const PlnCertificate *c, int i,
                            double a, double b, int depth, const double *cover, DynMeasure *acc, char *err,
                            size_t err_size)
{
    double h = c->t1[i] - c->t0[i], mid = 0.5 * (a + b);
    for (int half = 0; half < 2; ++half) {
        double u = half == 0 ? a : mid, v = half == 0 ? mid : b;
        DynMeasure m;
        PlnStatus st = pln_problem_interval_motion_part(p, w, w->ctrl, i, u, v, err, err_size);
        if (st == PLN_OK) st = dyn_measure(p, w, i, c->t0[i] + u * h, c->t0[i] + v * h, cover, &m, err, err_size);
        if (st != PLN_OK) return st;
        if (dyn_violates(p, &m) && depth + 1 < PLN_CERT_REFINE_DEPTH) {
            st = dyn_refine(p, w, c, i, u, v, depth + 1, cover, acc, err, err_size);
            if (st != PLN_OK) return st;
        } else {
            dyn_merge(acc, &m);
        }
    }
    return PLN_OK;
}

/* the certified dynamics on interval i, whose link motion is in w->lm. On a spline each
 * phase's constraints are certified on the part of the interval where the phase holds
 * (eq. P6d: the part's own link motion), and a part that breaks a constraint is bisected
 * (dyn_refine); the interval's motion is computed again afterwards. A table's gap is
 * measured whole, every phase that meets it. */
static PlnStatus cert_dynamics(const PlnProblem *p, PlnProblemWork *w, PlnCertificate *c, int i,
                               char *err, size_t err_size)
{
    double covers[PLN_MAX_PHASES + 1][2], h = c->t1[i] - c->t0[i];
    int n_covers = 1, whole_motion = 1;
    DynMeasure m, all;
    PlnStatus st = PLN_OK;
    if (!p->dynamics || w->coef_used == NULL) return PLN_OK;
    c->dynamics_checked = 1;
    dyn_measure_init(&all);
    if (c->spline) n_covers = pln_dynrows_covers(p, i, covers);
    for (int k = 0; k < n_covers && st == PLN_OK; ++k) {
        const double *cover = c->spline ? covers[k] : NULL;
        if (cover == NULL) {
            st = dyn_measure(p, w, i, c->t0[i], c->t1[i], NULL, &m, err, err_size);
        } else {
            if (cover[0] != 0.0 || cover[1] != 1.0) {
                st = pln_problem_interval_motion_part(p, w, w->ctrl, i, cover[0], cover[1], err, err_size);
                whole_motion = 0;
            } else if (!whole_motion) {
                st = pln_problem_interval_motion(p, w, w->ctrl, i, err, err_size);
                whole_motion = 1;
            }
            if (st == PLN_OK) {
                st = dyn_measure(p, w, i, c->t0[i] + cover[0] * h, c->t0[i] + cover[1] * h, cover, &m, err,
                                 err_size);
            }
            if (st == PLN_OK && dyn_violates(p, &m)) {
                dyn_measure_init(&m);
                st = dyn_refine(p, w, c, i, cover[0], cover[1], 0, cover, &m, err, err_size);
                whole_motion = 0;
            }
        }
        if (st == PLN_OK) dyn_merge(&all, &m);
    }
    if (st == PLN_OK && !whole_motion) st = pln_problem_interval_motion(p, w, w->ctrl, i, err, err_size);
    if (st != PLN_OK) return st;
    if (all.fz_min_rel < c->fz_min_rel) {
        c->fz_min_rel = all.fz_min_rel;
        c->fz_t = all.fz_t;
    }
    if (all.friction_max > c->friction_ratio_max) {
        c->friction_ratio_max = all.friction_max;
        c->friction_t = all.friction_t;
    }
    if (all.zmp_min < c->zmp_margin_min) {
        c->zmp_margin_min = all.zmp_min;
        c->zmp_t = all.zmp_t;
    }
    if (all.torque_max > c->torque_ratio_max) {
        c->torque_ratio_max = all.torque_max;
        c->torque_t = all.torque_t;
        if (all.torque_joint >= 0) c->torque_joint = all.torque_joint;
    }
    return PLN_OK;
}


/* the MCD of every pair on interval i, whose link motion is in w->lm, and the balance */
/* The stance feet on [t0, t1] (interval i, or the part of it whose link motion is in
 * w->lm): Taylor-model bounds of how far each sole centre may be from where it stood,
 * |x(t) - x*| <= |(max |x_k - x*_k|)_k|, and of its frame's turn, sin angle =
 * |vee(M - M^T)| / 2 with M = R*^T R(t), once tr M > 1 is certified (planner.md sec. 4d;
 * the optimiser's rows are eq. P13). Only the stances whose phase covers
 * [t0, t1], or all that overlap it when `overlapping` (a conservative check). */
typedef struct StanceAcc {
    int checked;
    double pos_max, rot_max;   /* m, rad */
    int link;                  /* the stance foot of the largest ratio, -1 none */
    double t;
    int floor_checked;         /* lifted soles (eq. P13c) */
    double floor_min;          /* least corner height above the floor, m */
    int floor_link;
    double floor_t;
} StanceAcc;

#define STANCE_ACC_EMPTY {0, 0.0, 0.0, -1, 0.0, 0, HUGE_VAL, -1, 0.0}

static void stance_measure(const PlnProblem *p, PlnProblemWork *w, StanceAcc *c, double t0,
                           double t1, int overlapping)
{
    for (int s = 0; s < p->n_stance; ++s) {
        const PlnStance *st = &p->stance[s];
        const PlnPhaseGeom *g = &p->phases[st->phase];
        const PlnTaylor *R = pln_linkmotion_rot(w->lm, st->link);
        PlnTaylor x[3], tr;
        double e2 = 0.0, lo, hi, angle, ratio;
        int covers = g->t0 <= t0 + PLN_PHASE_TIME_TOL_S && g->t1 >= t1 - PLN_PHASE_TIME_TOL_S;
        int overlaps = t1 > g->t0 + PLN_PHASE_TIME_TOL_S && t0 < g->t1 - PLN_PHASE_TIME_TOL_S;
        if (!(covers || (overlapping && overlaps))) continue;
        c->checked = 1;
        pln_linkmotion_point_tm(w->lm, st->link, st->point, x);
        for (int k = 0; k < 3; ++k) {
            pln_taylor_bound(&x[k], &lo, &hi);
            lo -= st->target[k];
            hi -= st->target[k];
            e2 += fmax(lo * lo, hi * hi);
        }
        /* the turn: M = R*^T R, sin angle = |vee(M - M^T)| / 2, linear in R (so the
         * models' widths enter linearly), valid while cos angle > 0, i.e. tr M > 1 */
        pln_taylor_scale(&tr, &R[0], st->target_rot[0]);
        for (int k = 1; k < 9; ++k) pln_taylor_axpy(&tr, &tr, st->target_rot[k], &R[k]);
        pln_taylor_bound(&tr, &lo, &hi);
        angle = INFINITY;
        if (lo > 1.0) {
            /* (a, b) pairs of M - M^T: (2,1) (0,2) (1,0), M_ab = sum_k R*_ka R_kb */
            static const int AB[3][2] = {{2, 1}, {0, 2}, {1, 0}};
            double s2 = 0.0;
            for (int v = 0; v < 3; ++v) {
                int a = AB[v][0], b = AB[v][1];
                PlnTaylor m;
                pln_taylor_const(&m, R[0].n, 0.0);
                for (int k = 0; k < 3; ++k) {
                    pln_taylor_axpy(&m, &m, 0.5 * st->target_rot[3 * k + a], &R[3 * k + b]);
                    pln_taylor_axpy(&m, &m, -0.5 * st->target_rot[3 * k + b], &R[3 * k + a]);
                }
                pln_taylor_bound(&m, &lo, &hi);
                s2 += fmax(lo * lo, hi * hi);
            }
            angle = sqrt(s2) < 1.0 ? asin(sqrt(s2)) : 2.0 * atan(1.0);
        }
        if (!isfinite(e2)) angle = e2 = INFINITY;
        ratio = fmax(sqrt(e2) / PLN_STANCE_POS_TOL_M, angle / PLN_STANCE_ROT_TOL_RAD);
        if (sqrt(e2) > c->pos_max) c->pos_max = sqrt(e2);
        if (angle > c->rot_max) c->rot_max = angle;
        if (c->link < 0 ||
            ratio > fmax(c->pos_max / PLN_STANCE_POS_TOL_M,
                         c->rot_max / PLN_STANCE_ROT_TOL_RAD) - 1e-15) {
            c->link = st->link;
            c->t = t0;
        }
    }
    /* lifted soles: each corner's height above the floor, the lower end of its Taylor
     * model's z (eq. P13c) */
    for (int s = 0; s < p->n_swing; ++s) {
        const PlnSwing *sw = &p->swing[s];
        const PlnPhaseGeom *g = &p->phases[sw->phase];
        int covers = g->t0 <= t0 + PLN_PHASE_TIME_TOL_S && g->t1 >= t1 - PLN_PHASE_TIME_TOL_S;
        int overlaps = t1 > g->t0 + PLN_PHASE_TIME_TOL_S && t0 < g->t1 - PLN_PHASE_TIME_TOL_S;
        if (!(covers || (overlapping && overlaps))) continue;
        c->floor_checked = 1;
        for (int k = 0; k < PLN_FLOOR_ROWS; ++k) {
            double local[3], lo, hi;
            PlnTaylor x[3];
            pln_sole_corner(&p->robot->soles[sw->sole], k, local);
            pln_linkmotion_point_tm(w->lm, sw->link, local, x);
            pln_taylor_bound(&x[2], &lo, &hi);
            lo = isfinite(lo) ? lo - g->support.floor_z : -HUGE_VAL;
            if (lo < c->floor_min) {
                c->floor_min = lo;
                c->floor_link = sw->link;
                c->floor_t = t0;
            }
        }
    }
}

static void stance_merge(StanceAcc *acc, const StanceAcc *m)
{
    double ra, rm;
    if (m->floor_checked) {
        acc->floor_checked = 1;
        if (m->floor_min < acc->floor_min) {
            acc->floor_min = m->floor_min;
            acc->floor_link = m->floor_link;
            acc->floor_t = m->floor_t;
        }
    }
    if (!m->checked) return;
    ra = acc->checked ? fmax(acc->pos_max / PLN_STANCE_POS_TOL_M, acc->rot_max / PLN_STANCE_ROT_TOL_RAD) : -1.0;
    rm = fmax(m->pos_max / PLN_STANCE_POS_TOL_M, m->rot_max / PLN_STANCE_ROT_TOL_RAD);
    acc->checked = 1;
    if (rm > ra) {
        acc->link = m->link;
        acc->t = m->t;
    }
    acc->pos_max = fmax(acc->pos_max, m->pos_max);
    acc->rot_max = fmax(acc->rot_max, m->rot_max);
}

static int stance_violates(const StanceAcc *m)
{
    return (m->checked && (m->pos_max > PLN_STANCE_POS_TOL_M + PLN_CERT_SLACK ||
                           m->rot_max > PLN_STANCE_ROT_TOL_RAD + PLN_CERT_SLACK)) ||
           (m->floor_checked && !(m->floor_min >= -PLN_STANCE_POS_TOL_M - PLN_CERT_SLACK));
}

/* the stance bounds of the part [a, b] (fractions) of spline interval i, bisected while
 * they break a tolerance (as dyn_refine: wide enclosures of a fast motion), at most
 * PLN_CERT_REFINE_DEPTH levels; every part's bound is rigorous, so their largest is */
static PlnStatus stance_refine(const PlnProblem *p, PlnProblemWork *w, const PlnCertificate *c,
                               int i, double a, double b, int depth, int overlapping,
                               StanceAcc *acc, char *err, size_t err_size)
{
    double h = c->t1[i] - c->t0[i], mid = 0.5 * (a + b);
    for (int half = 0; half < 2; ++half) {
        double u = half == 0 ? a : mid, v = half == 0 ? mid : b;
        StanceAcc m = STANCE_ACC_EMPTY;
        PlnStatus st = pln_problem_interval_motion_part(p, w, w->ctrl, i, u, v, err, err_size);
        if (st != PLN_OK) return st;
        stance_measure(p, w, &m, c->t0[i] + u * h, c->t0[i] + v * h, overlapping);
        if (stance_violates(&m) && depth + 1 < PLN_CERT_REFINE_DEPTH) {
            st = stance_refine(p, w, c, i, u, v, depth + 1, overlapping, acc, err, err_size);
            if (st != PLN_OK) return st;
        } else {
            stance_merge(acc, &m);
        }
    }
    return PLN_OK;
}

/* The stance bounds on [t0, t1] of interval i, whose link motion is in w->lm, merged into
 * c; on a spline, a stretch that breaks a tolerance is bisected (stance_refine) and the
 * motion of [t0, t1] recomputed afterwards. */
static PlnStatus cert_stance(const PlnProblem *p, PlnProblemWork *w, PlnCertificate *c, int i,
                             double t0, double t1, int overlapping, char *err, size_t err_size)
{
    StanceAcc m = STANCE_ACC_EMPTY, acc = {c->stance_checked, c->stance_pos_max, c->stance_rot_max,
                                          c->stance_link,   c->stance_t,       c->floor_checked,
                                          c->floor_min,     c->floor_link,     c->floor_t};
    stance_measure(p, w, &m, t0, t1, overlapping);
    if (c->spline && stance_violates(&m)) {
        double h = c->t1[i] - c->t0[i], fa = (t0 - c->t0[i]) / h, fb = fmin(1.0, (t1 - c->t0[i]) / h);
        StanceAcc r = STANCE_ACC_EMPTY;
        PlnStatus st = stance_refine(p, w, c, i, fa, fb, 0, overlapping, &r, err, err_size);
        if (st == PLN_OK) st = pln_problem_interval_motion_part(p, w, w->ctrl, i, fa, fb, err, err_size);
        if (st != PLN_OK) return st;
        m = r;
    }
    stance_merge(&acc, &m);
    c->stance_checked = acc.checked;
    c->stance_pos_max = acc.pos_max;
    c->stance_rot_max = acc.rot_max;
    c->stance_link = acc.link;
    c->stance_t = acc.t;
    c->floor_checked = acc.floor_checked;
    c->floor_min = acc.floor_min;
    c->floor_link = acc.floor_link;
    c->floor_t = acc.floor_t;
    return PLN_OK;
}


static PlnStatus cert_interval(const PlnProblem *p, PlnProblemWork *w, const DstMcdOptions *opt,
                               PlnCertificate *c, int i, char *err, size_t err_size)
{
    PlnStatus st = cert_balance(p, w, c, i, err, err_size);
    if (st == PLN_OK) st = cert_dynamics(p, w, c, i, err, err_size);
    /* a spline's interval that a phase covers only in part is checked on that part
     * (pln_certify_spline); a table's gap on the whole gap */
    if (st == PLN_OK) st = cert_stance(p, w, c, i, c->t0[i], c->t1[i], !c->spline, err, err_size);
    if (st != PLN_OK) return st;
    for (int pr = 0; pr < c->n_pairs; ++pr) {
        DstMcdResult res;
        DstStatus ds;
        double start = pln_clock_s();
        size_t k = (size_t)pr * c->n_intervals + i;
        /* a mesh query may stop once its lower bound shows that this interval cannot hold
         * the pair's minimum to better than eps (pln_certify.h, PlnPairCert.best_upper) */
        double stop = p->scenario->geometry == PLN_GEOMETRY_MESH && isfinite(c->pairs[pr].best_upper)
                          ? c->pairs[pr].best_upper - opt->eps : INFINITY;
        ds = pln_problem_pair_mcd(p, w, pr, DST_MCD_HYBRID, c->t0[i], c->t1[i], opt, stop, &res,
                                  NULL, NULL);
        c->mcd_time_s += pln_clock_s() - start;
        ++c->mcd_calls;
        if (ds == DST_INVALID_INPUT) {
            return pln_errorf(PLN_ERR_INTERNAL, err, err_size,
                              "certification: distance of %s - %s on [%g, %g] s failed: %s",
                              p->scenario->pairs[pr].a.name, p->scenario->pairs[pr].b.name,
                              c->t0[i], c->t1[i], dst_status_string(ds));
        }
        if (ds == DST_FAILED) {
            /* Taylor models too wide for a frame: no bound on this interval
             * (PLN_SIP_UNCERTIFIED_M); the true distance at its middle is the upper end,
             * and cert_refine bisects it where the geometry allows */
            memset(&res, 0, sizeof res);
            res.lower = -PLN_SIP_UNCERTIFIED_M;
            res.upper = HUGE_VAL;
            res.t_min = 0.5 * (c->t0[i] + c->t1[i]);
        }
        c->lower[k] = res.lower;
        c->upper[k] = res.upper;
        c->t_min[k] = res.t_min;
        if (res.upper < c->pairs[pr].best_upper) c->pairs[pr].best_upper = res.upper;
        /* a mesh pair that may touch here, for the first time: when exactly (intervals come
         * in time order, so the first hit is the pair's first contact) */
        if (res.lower < 0.0 && c->pairs[pr].contact == 0 &&
            p->scenario->geometry == PLN_GEOMETRY_MESH) {
            DstMeshToc toc;
            ds = pln_geom_pair_first_contact(p->geom, w->lm, pr, c->t0[i], c->t1[i], 0.0, opt->eps, &toc);
            if (ds == DST_CERTIFIED && toc.hit) {
                c->pairs[pr].contact = 1;
                c->pairs[pr].contact_lo = toc.t_lo;
                c->pairs[pr].contact_hi = toc.t_hi;
            } else if (ds != DST_CERTIFIED) {
                /* undecided (enclosures too wide): contact possible from t_lo on */
                c->pairs[pr].contact = 2;
                c->pairs[pr].contact_lo = ds == DST_INVALID_INPUT || ds == DST_FAILED ? c->t0[i] : toc.t_lo;
                c->pairs[pr].contact_hi = c->t1[i];
            }
        }
        if (i == 0 || res.lower < c->pairs[pr].lower) {
            c->pairs[pr].lower = res.lower;
            c->pairs[pr].upper = res.upper;
            c->pairs[pr].t_min = res.t_min;
            c->pairs[pr].interval = i;
            c->pairs[pr].status = ds;
        }
    }
    return PLN_OK;
}

/* The real signed distance of pair pr at time t of the spline ctrl: forward kinematics
 * and the static distance, no Taylor model (what the robot does at t). */
static PlnStatus true_distance(const PlnProblem *p, PlnProblemWork *w, const double *ctrl,
                               int pr, double t, double *d, char *err, size_t err_size)
{
    PlnPairDistance pd;
    PlnStatus st = pln_problem_joints_at(p, ctrl, t, w->q);
    if (st == PLN_OK) st = pln_kin_forward(w->kin, p->robot, w->q);
    if (st != PLN_OK) return pln_errorf(st, err, err_size, "certification: posture at %g s", t);
    pln_problem_pair_distance(p, w->kin, pr, &pd);
    *d = pd.distance;
    return PLN_OK;
}

/* The pair's summary over intervals 0..last from the per-interval results. */
static void pair_summary(PlnCertificate *c, int pr, int last)
{
    for (int i = 0; i <= last; ++i) {
        size_t k = (size_t)pr * c->n_intervals + i;
        if (i == 0 || c->lower[k] < c->pairs[pr].lower) {
            c->pairs[pr].lower = c->lower[k];
            c->pairs[pr].upper = c->upper[k];
            c->pairs[pr].t_min = c->t_min[k];
            c->pairs[pr].interval = i;
        }
    }
}

/* A pair whose lower bound on interval i is below zero while the robot's real distance
 * at the bound's time is not: the Taylor enclosures of the whole interval may be what is
 * too wide (a fast motion over a long interval). Bisect the interval (depth-first, at most
 * PLN_CERT_REFINE_DEPTH levels), each part with its own, tighter link motion, until every
 * part's lower bound is >= 0, or the real distance at a part's minimum is below zero (a
 * real contact: stop). When every part was certified its way, the interval's lower bound
 * becomes the least over the parts, as rigorous as the whole interval's (each part's bound
 * is one). `upper` and `t_min` take the least real distance met. Capsule, convex and
 * ellipsoid pairs; the link motion of w is left on the last part. */
static PlnStatus cert_refine(const PlnProblem *p, PlnProblemWork *w, const double *ctrl,
                             const DstMcdOptions *opt, PlnCertificate *c, int i, int pr,
                             char *err, size_t err_size)
{
    double lo_a[PLN_CERT_REFINE_DEPTH + 2], lo_b[PLN_CERT_REFINE_DEPTH + 2];
    int depth[PLN_CERT_REFINE_DEPTH + 2], top = 0, complete = 1;
    const double t0 = c->t0[i], t1 = c->t1[i];
    const size_t k = (size_t)pr * c->n_intervals + i;
    double lower = HUGE_VAL, upper = c->upper[k], t_min = c->t_min[k];

    /* a stack of parts [a, b] of the interval with their depth */
    lo_a[top] = 0.5, lo_b[top] = 1.0, depth[top++] = 1;
    lo_a[top] = 0.0, lo_b[top] = 0.5, depth[top++] = 1;
    while (top > 0) {
        double a = lo_a[--top], b = lo_b[top], real = NAN;
        int d = depth[top];
        DstMcdResult res;
        DstStatus ds;
        double start = pln_clock_s();
        PlnStatus st = pln_problem_interval_motion_part(p, w, ctrl, i, a, b, err, err_size);
        if (st != PLN_OK) return st;
        ds = pln_problem_pair_mcd(p, w, pr, DST_MCD_HYBRID, t0 + a * (t1 - t0), t0 + b * (t1 - t0),
                                  opt, INFINITY, &res, NULL, NULL);
        c->mcd_time_s += pln_clock_s() - start;
        ++c->mcd_calls;
        if (ds == DST_INVALID_INPUT) {
            return pln_errorf(PLN_ERR_INTERNAL, err, err_size,
                              "certification: distance of %s - %s on [%g, %g] s failed: %s",
                              p->scenario->pairs[pr].a.name, p->scenario->pairs[pr].b.name,
                              t0 + a * (t1 - t0), t0 + b * (t1 - t0), dst_status_string(ds));
        }
        if (ds == DST_FAILED) { /* still too wide: no bound on this part */
            memset(&res, 0, sizeof res);
            res.lower = -PLN_SIP_UNCERTIFIED_M;
            res.t_min = t0 + 0.5 * (a + b) * (t1 - t0);
        }
        st = true_distance(p, w, ctrl, pr, res.t_min, &real, err, err_size);
        if (st != PLN_OK) return st;
        if (real < upper) {
            upper = real;
            t_min = res.t_min;
        }
        if (res.lower >= 0.0) {
            lower = fmin(lower, res.lower);
        } else if (real < 0.0) {
            complete = 0;   /* a real contact: no refinement can certify this interval */
            break;
        } else if (d < PLN_CERT_REFINE_DEPTH) {
            double m = 0.5 * (a + b);
            lo_a[top] = m, lo_b[top] = b, depth[top++] = d + 1;
            lo_a[top] = a, lo_b[top] = m, depth[top++] = d + 1;
        } else {
            lower = fmin(lower, res.lower);
        }
    }
    if (complete && lower > c->lower[k]) c->lower[k] = lower;
    c->upper[k] = upper;
    c->t_min[k] = t_min;
    if (upper < c->pairs[pr].best_upper) c->pairs[pr].best_upper = upper;
    pair_summary(c, pr, i);
    return PLN_OK;
}

/* errors of every task from a joint-position function evaluated at the task times */
static PlnStatus cert_tasks(const PlnProblem *p, PlnProblemWork *w, PlnCertificate *c,
                            PlnStatus (*joints_at)(const PlnProblem *, const void *, double,
                                                   double *),
                            const void *src)
{
    for (int t = 0; t < p->scenario->n_tasks; ++t) {
        const PlnTask *task = &p->scenario->tasks[t];
        double over;
        PlnStatus st = joints_at(p, src, task->time, w->q);
        if (st != PLN_OK) return st;
        if (task->type == PLN_TASK_JOINT) {
            c->task_error[t] = fabs(w->q[task->joint.index] - task->value);
            over = c->task_error[t] - task->tolerance;
        } else {
            double x[3], d2 = 0.0;
            st = pln_kin_forward(w->kin, p->robot, w->q);
            if (st != PLN_OK) return st;
            pln_kin_point(w->kin, task->link.index, task->point, x);
            for (int a = 0; a < 3; ++a) d2 += (x[a] - task->target[a]) * (x[a] - task->target[a]);
            c->task_error[t] = sqrt(d2);
            over = c->task_error[t] - task->tolerance;
            if (task->has_orientation) {
                const double *R = pln_kin_link_rot(w->kin, task->link.index);
                double tr = 0.0, angle;
                for (int i = 0; i < 3; ++i) {
                    for (int l = 0; l < 3; ++l) tr += task->target_rot[3 * l + i] * R[3 * l + i];
                }
                angle = acos(fmin(1.0, fmax(-1.0, 0.5 * (tr - 1.0))));
                over = fmax(over, angle - task->orientation_tolerance);
            }
        }
        c->task_over[t] = over;
        if (over > c->max_task_violation) {
            c->max_task_violation = over;
            c->worst_task = t;
        }
    }
    return PLN_OK;
}

/* How far a failed certificate misses on its own cause, in units of that check's
 * tolerance (docs/math/planner.md sec. 5c, eq. P20b): 0 for a certified one or a missed
 * task (tasks are ranked by max_task_violation). */
static double cause_shortfall(const PlnProblem *p, const PlnCertificate *c)
{
    double zmp_scale = p->scenario->zmp_margin > 0.0 ? p->scenario->zmp_margin : PLN_STANCE_POS_TOL_M;
    switch (c->cause) {
    case PLN_CAUSE_CONTACT: return -c->min_clearance / p->eps;
    case PLN_CAUSE_JOINT_LIMIT: return c->max_joint_limit_violation;
    case PLN_CAUSE_VELOCITY: return c->max_velocity_violation;
    case PLN_CAUSE_BALANCE: return c->max_balance_violation;
    case PLN_CAUSE_DYNAMICS:
        return fmax(fmax((PLN_DYN_MIN_FZ_REL - c->fz_min_rel) / PLN_DYN_MIN_FZ_REL,
                         (p->scenario->zmp_margin - c->zmp_margin_min) / zmp_scale),
                    fmax(c->friction_ratio_max - 1.0,
                         c->torque_joint >= 0 ? c->torque_ratio_max - 1.0 : -HUGE_VAL));
    case PLN_CAUSE_STANCE:
        return fmax(fmax(c->stance_pos_max / PLN_STANCE_POS_TOL_M, c->stance_rot_max / PLN_STANCE_ROT_TOL_RAD),
                    c->floor_checked ? -c->floor_min / PLN_STANCE_POS_TOL_M : -HUGE_VAL);
    case PLN_CAUSE_TASK:
    case PLN_CAUSE_NONE: break;
    }
    return 0.0;
}

/* 1 when the only failed check is the ZMP's margin and the ZMP stays inside the support
 * polygon: the motion balances, with less margin than asked (eq. P20b) */
static int zmp_margin_only(const PlnCertificate *c)
{
    return c->cause == PLN_CAUSE_DYNAMICS && c->zmp_margin_min >= 0.0 &&
           c->fz_min_rel >= PLN_DYN_MIN_FZ_REL - PLN_CERT_SLACK &&
           c->friction_ratio_max <= 1.0 + PLN_CERT_SLACK &&
           (c->torque_joint < 0 || c->torque_ratio_max <= 1.0 + PLN_CERT_SLACK) &&
           (!c->stance_checked || (c->stance_pos_max <= PLN_STANCE_POS_TOL_M + PLN_CERT_SLACK &&
                                   c->stance_rot_max <= PLN_STANCE_ROT_TOL_RAD + PLN_CERT_SLACK)) &&
           (!c->floor_checked || c->floor_min >= -PLN_STANCE_POS_TOL_M - PLN_CERT_SLACK);
}

int pln_certificate_better(const PlnProblem *p, const PlnCertificate *a, const PlnCertificate *b)
{
    if (a->certified) return 0;
    if (b->certified) return 1;
    if (b->cause == PLN_CAUSE_TASK && a->cause != PLN_CAUSE_TASK) return 1;
    if (a->cause == PLN_CAUSE_TASK && b->cause != PLN_CAUSE_TASK) return 0;
    if (zmp_margin_only(b) != zmp_margin_only(a)) return zmp_margin_only(b);
    if (b->cause != a->cause) return 0;
    if (b->cause == PLN_CAUSE_TASK) return b->max_task_violation < a->max_task_violation;
    return cause_shortfall(p, b) < cause_shortfall(p, a);
}

const char *pln_cert_cause_string(PlnCertCause cause)
{
    switch (cause) {
    case PLN_CAUSE_NONE: return "none";
    case PLN_CAUSE_CONTACT: return "contact";
    case PLN_CAUSE_JOINT_LIMIT: return "joint_limit";
    case PLN_CAUSE_VELOCITY: return "velocity";
    case PLN_CAUSE_BALANCE: return "balance";
    case PLN_CAUSE_TASK: return "task";
    case PLN_CAUSE_DYNAMICS: return "dynamics";
    case PLN_CAUSE_STANCE: return "stance";
    }
    return "unknown";
}

/* summary per pair and the verdict */
static void cert_finish(const PlnProblem *p, PlnCertificate *c)
{
    c->min_clearance = HUGE_VAL;
    c->reason[0] = '\0';
    for (int pr = 0; pr < c->n_pairs; ++pr) {
        if (c->pairs[pr].lower < c->min_clearance) c->min_clearance = c->pairs[pr].lower;
    }
    c->certified = 1;
    c->cause = PLN_CAUSE_NONE;
    for (int pr = 0; pr < c->n_pairs; ++pr) {
        if (c->pairs[pr].lower < 0.0) {
            const PlnPair *pair = &p->scenario->pairs[pr];
            int n = snprintf(c->reason, sizeof c->reason,
                             "%s - %s may touch: certified clearance %.6f m near t = %.3f s",
                             pair->a.name, pair->b.name, c->pairs[pr].lower, c->pairs[pr].t_min);
            if (n > 0 && (size_t)n < sizeof c->reason && c->pairs[pr].contact == 1) {
                snprintf(c->reason + n, sizeof c->reason - (size_t)n,
                         "; first contact at t in [%.3f, %.3f] s", c->pairs[pr].contact_lo,
                         c->pairs[pr].contact_hi);
            } else if (n > 0 && (size_t)n < sizeof c->reason && c->pairs[pr].contact == 2) {
                snprintf(c->reason + n, sizeof c->reason - (size_t)n,
                         "; no contact before t = %.3f s", c->pairs[pr].contact_lo);
            }
            c->certified = 0;
            c->cause = PLN_CAUSE_CONTACT;
            return;
        }
    }
    if (c->max_joint_limit_violation > PLN_CERT_SLACK) {
        snprintf(c->reason, sizeof c->reason, "joint position limit exceeded by %.3g rad",
                 c->max_joint_limit_violation);
        c->certified = 0;
        c->cause = PLN_CAUSE_JOINT_LIMIT;
    } else if (c->max_velocity_violation > PLN_CERT_SLACK) {
        snprintf(c->reason, sizeof c->reason, "joint velocity limit exceeded by %.3g rad/s",
                 c->max_velocity_violation);
        c->certified = 0;
        c->cause = PLN_CAUSE_VELOCITY;
    } else if (c->max_balance_violation > PLN_CERT_SLACK) {
        snprintf(c->reason, sizeof c->reason,
                 "the centre of mass may come %.4f m closer to the support edge than the margin "
                 "near t = %.3f s",
                 c->max_balance_violation, c->balance_t);
        c->certified = 0;
        c->cause = PLN_CAUSE_BALANCE;
    } else if (c->dynamics_checked && c->fz_min_rel < PLN_DYN_MIN_FZ_REL - PLN_CERT_SLACK) {
        snprintf(c->reason, sizeof c->reason,
                 "the floor's push may fall to %.3g of the robot's weight near t = %.3f s (at "
                 "least %g is needed)", c->fz_min_rel, c->fz_t, PLN_DYN_MIN_FZ_REL);
        c->certified = 0;
        c->cause = PLN_CAUSE_DYNAMICS;
    } else if (c->dynamics_checked && c->zmp_margin_min < p->scenario->zmp_margin - PLN_CERT_SLACK) {
        snprintf(c->reason, sizeof c->reason,
                 "the ZMP may come within %.4f m of the support polygon's edge near t = %.3f s "
                 "(zmp_margin %.3f m)", c->zmp_margin_min, c->zmp_t, p->scenario->zmp_margin);
        c->certified = 0;
        c->cause = PLN_CAUSE_DYNAMICS;
    } else if (c->dynamics_checked && c->friction_ratio_max > 1.0 + PLN_CERT_SLACK) {
        snprintf(c->reason, sizeof c->reason,
                 "the feet may slip: the tangential force may reach %.3g of mu times the normal "
                 "force near t = %.3f s", c->friction_ratio_max, c->friction_t);
        c->certified = 0;
        c->cause = PLN_CAUSE_DYNAMICS;
    } else if (c->dynamics_checked && c->torque_joint >= 0 && c->torque_ratio_max > 1.0 + PLN_CERT_SLACK) {
        snprintf(c->reason, sizeof c->reason,
                 "joint %s may need %.3g times its effort limit near t = %.3f s",
                 p->robot->joints[c->torque_joint].name, c->torque_ratio_max, c->torque_t);
        c->certified = 0;
        c->cause = PLN_CAUSE_DYNAMICS;
    } else if (c->stance_checked && (c->stance_pos_max > PLN_STANCE_POS_TOL_M + PLN_CERT_SLACK ||
                                     c->stance_rot_max > PLN_STANCE_ROT_TOL_RAD + PLN_CERT_SLACK)) {
        snprintf(c->reason, sizeof c->reason,
                 "the stance foot %s may slide %.3g mm or turn %.3g mrad near t = %.3f s (at most "
                 "%g mm and %g mrad)",
                 p->robot->links[c->stance_link].name, 1e3 * c->stance_pos_max,
                 1e3 * c->stance_rot_max, c->stance_t, 1e3 * PLN_STANCE_POS_TOL_M,
                 1e3 * PLN_STANCE_ROT_TOL_RAD);
        c->certified = 0;
        c->cause = PLN_CAUSE_STANCE;
    } else if (c->floor_checked && !(c->floor_min >= -PLN_STANCE_POS_TOL_M - PLN_CERT_SLACK)) {
        snprintf(c->reason, sizeof c->reason,
                 "the lifted foot %s may go %.3g mm below the floor near t = %.3f s (at most %g mm)",
                 c->floor_link >= 0 ? p->robot->links[c->floor_link].name : "?",
                 -1e3 * c->floor_min, c->floor_t, 1e3 * PLN_STANCE_POS_TOL_M);
        c->certified = 0;
        c->cause = PLN_CAUSE_STANCE;
    } else if (c->max_task_violation > PLN_CERT_SLACK) {
        const PlnTask *task = &p->scenario->tasks[c->worst_task];
        snprintf(c->reason, sizeof c->reason,
                 "tasks[%d] (%s %s at %g s, line %d) is missed by %.3g %s beyond its tolerance",
                 c->worst_task, task->type == PLN_TASK_JOINT ? "joint" : "position of",
                 task->type == PLN_TASK_JOINT ? task->joint.name : task->link.name, task->time,
                 task->line, c->max_task_violation,
                 task->type == PLN_TASK_JOINT &&
                         p->robot->joints[task->joint.index].type != PLN_JOINT_PRISMATIC ? "rad" : "m");
        if (c->n_margin_bound > 0) {
            size_t len = strlen(c->reason);
            snprintf(c->reason + len, sizeof c->reason - len,
                     "; %d moving joint(s), e.g. %s, end on the joint-limit margin "
                     "(limits.position_margin = %g %s): the target may need them nearer their "
                     "limits", c->n_margin_bound, p->robot->joints[c->margin_bound_joint].name,
                     p->scenario->limit_margin,
                     p->robot->joints[c->margin_bound_joint].type == PLN_JOINT_PRISMATIC ? "m" : "rad");
        }
        /* every other task missed, with its residual, as far as the reason holds */
        for (int t = 0, first = 1; t < p->scenario->n_tasks; ++t) {
            size_t len = strlen(c->reason);
            const PlnTask *o = &p->scenario->tasks[t];
            int n;
            if (t == c->worst_task || !(c->task_over[t] > PLN_CERT_SLACK)) continue;
            n = snprintf(c->reason + len, sizeof c->reason - len, "%s tasks[%d] by %.3g %s",
                         first ? "; also missed:" : ",", t, c->task_over[t],
                         o->type == PLN_TASK_JOINT ? "rad" : "m");
            if (n < 0 || (size_t)n >= sizeof c->reason - len) {
                c->reason[len] = '\0';
                snprintf(c->reason + len, sizeof c->reason - len, ", ...");
                break;
            }
            first = 0;
        }
        c->certified = 0;
        c->cause = PLN_CAUSE_TASK;
    }
}

static DstMcdOptions cert_options(const PlnProblem *p, double eps_ratio)
{
    DstMcdOptions o = dst_mcd_options_default();
    o.eps = fmax(eps_ratio * p->eps, PLN_MIN_MCD_EPS_M);
    return o;
}

static PlnStatus spline_joints_at(const PlnProblem *p, const void *src, double t, double *q)
{
    return pln_problem_joints_at(p, (const double *)src, t, q);
}

PlnStatus pln_certify_spline(const PlnProblem *p, const double *ctrl, double eps_ratio,
                             PlnCertificate *c, char *err, size_t err_size)
{
    PlnProblemWork *w;
    DstMcdOptions opt = cert_options(p, eps_ratio);
    double *vel;
    PlnStatus st;
    pln_watchdog_phase("certifying");
    st = cert_alloc(c, p->scenario->n_pairs, p->n_intervals, p->scenario->n_tasks, err,
                              err_size);
    if (st != PLN_OK) return st;
    st = pln_problem_work_create(p, &w, err, err_size);
    if (st != PLN_OK) {
        pln_certificate_destroy(c);
        return st;
    }
    memcpy(w->ctrl, ctrl, (size_t)p->n_active * p->n_ctrl * sizeof *ctrl);
    c->spline = 1;
    for (int i = 0; i < p->n_intervals && st == PLN_OK; ++i) {
        pln_problem_interval(p, i, &c->t0[i], &c->t1[i]);
        st = pln_problem_interval_motion(p, w, ctrl, i, err, err_size);
        if (st == PLN_OK) st = cert_interval(p, w, &opt, c, i, err, err_size);
        /* undecided pairs (bound below zero, the real distance at its time not): bisect
         * the interval */
        for (int pr = 0; pr < c->n_pairs && st == PLN_OK; ++pr) {
            size_t k = (size_t)pr * c->n_intervals + i;
            double real = NAN; /* set by true_distance() */
            if (p->scenario->geometry == PLN_GEOMETRY_MESH) continue;
            /* the upper end is the robot's real distance at t_min, one the motion attains
             * (the Taylor polynomials' distance there can be below it) */
            st = true_distance(p, w, ctrl, pr, c->t_min[k], &real, err, err_size);
            if (st != PLN_OK) break;
            c->upper[k] = real;
            if (real < c->pairs[pr].best_upper) c->pairs[pr].best_upper = real;
            if (c->lower[k] < 0.0 && real >= 0.0) {
                st = cert_refine(p, w, ctrl, &opt, c, i, pr, err, err_size);
            } else {
                pair_summary(c, pr, i);
            }
        }
    }
    /* stance feet and lifted soles on the parts of intervals that a phase covers only in
     * part */
    for (int i = 0; i < p->n_intervals && st == PLN_OK; ++i) {
        for (int s = 0; s < p->n_stance + p->n_swing && st == PLN_OK; ++s) {
            const PlnPhaseGeom *g = &p->phases[s < p->n_stance ? p->stance[s].phase
                                                               : p->swing[s - p->n_stance].phase];
            double a = fmax(g->t0, c->t0[i]), b = fmin(g->t1, c->t1[i]), h = c->t1[i] - c->t0[i];
            if (!(b > a + PLN_PHASE_TIME_TOL_S)) continue;
            if (a <= c->t0[i] + PLN_PHASE_TIME_TOL_S && b >= c->t1[i] - PLN_PHASE_TIME_TOL_S) continue;
            st = pln_problem_interval_motion_part(p, w, ctrl, i, (a - c->t0[i]) / h,
                                                  fmin(1.0, (b - c->t0[i]) / h), err, err_size);
            if (st == PLN_OK) st = cert_stance(p, w, c, i, a, b, 0, err, err_size);
        }
    }
    /* limits by the convex-hull property: control points of q and of q' */
    vel = w->grad_ctrl; /* scratch of n_ctrl >= n_ctrl - 1 entries per joint */
    c->margin_bound_joint = -1;
    for (int a = 0; a < p->n_active && st == PLN_OK; ++a) {
        const PlnJoint *jt = &p->robot->joints[p->active[a]];
        const double *P = ctrl + a * p->n_ctrl;
        int on_margin = 0;
        for (int i = 0; i < p->n_ctrl; ++i) {
            double over = fmax(P[i] - jt->upper, jt->lower - P[i]);
            int v = p->var_of[a * p->n_ctrl + i];
            if (over > c->max_joint_limit_violation) c->max_joint_limit_violation = over;
            /* a free control point held by the margin's bound (not by the limit itself) */
            if (v >= 0 && p->scenario->limit_margin > 0.0 &&
                (P[i] <= p->lb[v] + PLN_MARGIN_BOUND_TOL_RAD || P[i] >= p->ub[v] - PLN_MARGIN_BOUND_TOL_RAD)) {
                on_margin = 1;
            }
        }
        if (on_margin) {
            if (c->n_margin_bound++ == 0) c->margin_bound_joint = p->active[a];
        }
        pln_bspline_velocity_ctrl(p->bs, P, vel);
        for (int i = 0; i + 1 < p->n_ctrl; ++i) {
            double over = fabs(vel[i]) - jt->velocity_max;
            if (over > c->max_velocity_violation) c->max_velocity_violation = over;
        }
    }
    if (st == PLN_OK) st = cert_tasks(p, w, c, spline_joints_at, ctrl);
    if (st == PLN_OK && p->dynamics && p->robot->has_effort) {
        st = pln_dynrows_torque2(p, w, &c->torque2, NULL, NULL, err, err_size);
    }
    pln_problem_work_destroy(w);
    if (st != PLN_OK) {
        pln_certificate_destroy(c);
        return st;
    }
    cert_finish(p, c);
    return PLN_OK;
}

/* a table with its columns mapped to robot joints */
typedef struct TableSource {
    const PlnTable *table;
    const int *joint_of;   /* [n_columns] robot joint of each column */
} TableSource;

static PlnStatus table_joints_at(const PlnProblem *p, const void *src, double t, double *q)
{
    const TableSource *ts = src;
    const PlnTable *tb = ts->table;
    int r = 0;
    double u;
    memcpy(q, p->q_init, (size_t)p->n_joints * sizeof *q);
    if (t <= tb->t[0]) {
        r = 0;
        u = 0.0;
    } else if (t >= tb->t[tb->n_rows - 1]) {
        r = tb->n_rows > 1 ? tb->n_rows - 2 : 0;
        u = tb->n_rows > 1 ? 1.0 : 0.0;
    } else {
        int lo = 0, hi = tb->n_rows - 1;
        while (hi - lo > 1) {
            int mid = (lo + hi) / 2;
            if (tb->t[mid] <= t) lo = mid;
            else hi = mid;
        }
        r = lo;
        u = (t - tb->t[r]) / (tb->t[r + 1] - tb->t[r]);
    }
    for (int col = 0; col < tb->n_joints; ++col) {
        double a = tb->q[(size_t)r * tb->n_joints + col];
        double b = tb->n_rows > 1 ? tb->q[(size_t)(r + 1) * tb->n_joints + col] : a;
        q[ts->joint_of[col]] = a + u * (b - a);
    }
    return PLN_OK;
}

PlnStatus pln_certify_table(const PlnProblem *p, const PlnTable *tb, double eps_ratio,
                            PlnCertificate *c, char *err, size_t err_size)
{
    PlnProblemWork *w;
    DstMcdOptions opt = cert_options(p, eps_ratio);
    int *joint_of, nj = p->n_joints;
    TableSource src;
    PlnStatus st;
    pln_watchdog_phase("certifying");

    if (tb->n_rows < 2) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "the trajectory needs two samples or more");
    }
    /* the samples lie in the scenario's [0, duration]: what lies outside is no part of
     * its motion, and would certify nothing about it */
    if (tb->t[0] < -PLN_TABLE_TIME_TOL_S ||
        tb->t[tb->n_rows - 1] > p->scenario->duration + PLN_TABLE_TIME_TOL_S) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "samples from %.9g s to %.9g s: they must lie within the scenario's "
                          "[0, %.9g] s", tb->t[0], tb->t[tb->n_rows - 1], p->scenario->duration);
    }
    if (p->robot->free_base) {
        /* the waist of a free base is six joints that a .pos or .csv does not carry */
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "the scenario steps from foot to foot, so its waist floats free "
                          "(six virtual joints): check its trajectory.json, which carries the "
                          "waist; a .pos or .csv holds only the robot's joints");
    }
    joint_of = calloc((size_t)tb->n_joints, sizeof *joint_of);
    if (joint_of == NULL) return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    if (tb->names[0][0] == '\0') {
        /* .pos: one column per robot joint, robot order */
        if (tb->n_joints != nj) {
            free(joint_of);
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "the trajectory has %d joint columns, the robot %s has %d joints",
                              tb->n_joints, p->robot->name, nj);
        }
        for (int col = 0; col < nj; ++col) joint_of[col] = col;
    } else {
        for (int col = 0; col < tb->n_joints; ++col) {
            joint_of[col] = pln_robot_find_joint(p->robot, tb->names[col]);
            if (joint_of[col] < 0) {
                PlnStatus e = pln_errorf(PLN_ERR_INVALID, err, err_size,
                                         "column %d: '%s' is not a joint of robot %s", col + 2,
                                         tb->names[col], p->robot->name);
                free(joint_of);
                return e;
            }
        }
    }
    src.table = tb;
    src.joint_of = joint_of;
    st = cert_alloc(c, p->scenario->n_pairs, tb->n_rows - 1, p->scenario->n_tasks, err, err_size);
    if (st != PLN_OK) {
        free(joint_of);
        return st;
    }
    st = pln_problem_work_create(p, &w, err, err_size);
    if (st != PLN_OK) {
        free(joint_of);
        pln_certificate_destroy(c);
        return st;
    }
    /* limits at the samples and slopes of the gaps (exact for straight-line motion) */
    for (int r = 0; r < tb->n_rows; ++r) {
        for (int col = 0; col < tb->n_joints; ++col) {
            const PlnJoint *jt = &p->robot->joints[joint_of[col]];
            double q = tb->q[(size_t)r * tb->n_joints + col];
            double over = fmax(q - jt->upper, jt->lower - q);
            if (over > c->max_joint_limit_violation) c->max_joint_limit_violation = over;
            if (r + 1 < tb->n_rows) {
                double v = (tb->q[(size_t)(r + 1) * tb->n_joints + col] - q) / (tb->t[r + 1] - tb->t[r]);
                over = fabs(v) - jt->velocity_max;
                if (over > c->max_velocity_violation) c->max_velocity_violation = over;
            }
        }
    }
    /* every gap is one interval of straight-line joint motion (degree 1 in s) */
    for (int r = 0; r + 1 < tb->n_rows && st == PLN_OK; ++r) {
        c->t0[r] = tb->t[r];
        c->t1[r] = tb->t[r + 1];
        for (int j = 0; j < nj; ++j) {
            w->coef[2 * j] = p->q_init[j];
            w->coef[2 * j + 1] = 0.0;
            w->q_err[j] = 0.0;
        }
        for (int col = 0; col < tb->n_joints; ++col) {
            int j = joint_of[col];
            double a = tb->q[(size_t)r * tb->n_joints + col];
            double b = tb->q[(size_t)(r + 1) * tb->n_joints + col];
            w->coef[2 * j] = a;
            w->coef[2 * j + 1] = b - a;
            w->q_err[j] = PLN_SPAN_POLY_ROUND_REL * (fabs(a) + fabs(b));
        }
        st = pln_linkmotion_compute(w->lm, p->robot, w->coef, 1, w->q_err, err, err_size);
        if (st == PLN_OK) st = cert_interval(p, w, &opt, c, r, err, err_size);
    }
    if (st == PLN_OK) st = cert_tasks(p, w, c, table_joints_at, &src);
    pln_problem_work_destroy(w);
    free(joint_of);
    if (st != PLN_OK) {
        pln_certificate_destroy(c);
        return st;
    }
    cert_finish(p, c);
    return PLN_OK;
}
