/* pln_guess.c — the optimiser's initial guess: IK postures at the task times, then the
 * nearest spline through them. */
#include "problem/pln_guess.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/pln_tolerance.h"
#include "base/pln_watchdog.h"
#include "model/pln_ik.h"

/* Passes of the interpolation of eq. G2 that hold at their limit the variables it pushes
 * past one (each pass holds at least one more, so a few suffice in practice). */
#define PLN_GUESS_PASSES 6
/* The IK postures keep this far inside the joint limits, rad: a spline cannot pass through
 * a posture at a limit unless every control point around it sits at that limit too. */
#define PLN_GUESS_LIMIT_MARGIN_RAD 0.05
/* The IK's balance: an edge of the support polygon holds the centre of mass once it comes
 * within this distance of it, m (PLN_IK_COM's tolerance). */
#define PLN_GUESS_BALANCE_ACTIVE_M 0.005

/* The swing foot of the guess (eq. G4): its sole centre rises at least this far above the
 * line between where it lifts off and where it lands, at the middle of the swing, m; and
 * the IK holds it to its path within these tolerances (a posture target below the tasks). */
#define PLN_GUESS_SWING_LIFT_M 0.03
#define PLN_GUESS_SWING_TOL_M 0.005
#define PLN_GUESS_SWING_TOL_RAD 0.02

/* edges of the guess's balance polygon: a phase's and the next phase's, translated */
#define PLN_GUESS_COM_EDGES (2 * PLN_MAX_PHASE_EDGES)

/* everything one guess allocates */
typedef struct Guess {
    PlnKinWork *kin;
    PlnIkWork *ik;
    PlnIkTarget *targets;   /* [n_tasks + n_stance + n_swing + 1] */
    int *target_task;       /* [n_tasks + n_stance + n_swing + 1] scenario task of each
                               target (-1: a stance foot, the balance band or a swing foot) */
    double *miss;           /* [n_tasks + n_stance + n_swing + 1] each target's miss after
                               the IK */
    double *times;          /* [n_tasks + n_phases + 2] waypoint times: 0, task times and
                               phase boundaries, T */
    double *q_way;          /* [(n_tasks + n_phases + 3) * n_joints] waypoint postures and a
                               scratch row */
    double *q_ctrl;         /* [n_ctrl * n_joints] each control point's posture (eq. G0) */
    double *ctrl;           /* [n_active * n_ctrl] */
    double *B, *r, *sv;     /* the interpolation system of one joint (eq. G2) */
    int *vars;              /* [n_ctrl] distinct variables of one joint */
    int *held, *col;        /* [n_ctrl] held at a limit; the columns of the free ones */
    double *sorted;         /* [n_tasks + n_phases] waypoint times in order */
    double com_n[PLN_GUESS_COM_EDGES][2];   /* the balance polygon of one IK (eq. G0) */
    double com_b[PLN_GUESS_COM_EDGES];
} Guess;

static void guess_free(Guess *g)
{
    pln_ik_destroy(g->ik);
    pln_kin_destroy(g->kin);
    free(g->targets);
    free(g->target_task);
    free(g->miss);
    free(g->times);
    free(g->q_way);
    free(g->q_ctrl);
    free(g->ctrl);
    free(g->B);
    free(g->r);
    free(g->sv);
    free(g->vars);
    free(g->held);
    free(g->col);
    free(g->sorted);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* q of joint a on the piecewise-linear path through the waypoints at time t */
static double path_at(const Guess *g, int n_way, int n_joints, int joint, double t)
{
    int k = 0;
    if (t <= g->times[0]) return g->q_way[joint];
    while (k + 1 < n_way && g->times[k + 1] < t) ++k;
    if (k + 1 >= n_way) return g->q_way[(size_t)(n_way - 1) * n_joints + joint];
    {
        double t0 = g->times[k], t1 = g->times[k + 1];
        double u = t1 > t0 ? (t - t0) / (t1 - t0) : 1.0;
        double q0 = g->q_way[(size_t)k * n_joints + joint];
        double q1 = g->q_way[(size_t)(k + 1) * n_joints + joint];
        return q0 + u * (q1 - q0);
    }
}

/* The balance polygon of the guess at time t (eq. G0), in g->com_n / g->com_b; returns its
 * edge count (0: none). The static polygon when there is one; otherwise the ZMP polygon of
 * the phase covering t, except in a two-foot phase followed by a one-foot phase: there the
 * weight moves over the foot that will stand through the whole two-foot phase, not at the
 * lift-off (a shift of ~0.1 m in one knot span puts the ZMP ~0.1 m off the centre of mass,
 * a * z / g): the next phase's polygon S translated by (1 - s) (c_D - c_S), s the fraction of
 * the phase gone by and c the polygons' vertex means, together with the two-foot polygon D's
 * own edges. */
static int balance_polygon(const PlnProblem *p, Guess *g, double t)
{
    int n = 0;
    if (p->n_edges > 0) {
        for (int e = 0; e < p->n_edges && e < PLN_GUESS_COM_EDGES; ++e) {
            g->com_n[n][0] = p->edge_n[e][0], g->com_n[n][1] = p->edge_n[e][1];
            g->com_b[n++] = p->edge_b[e];
        }
        return n;
    }
    for (int k = 0; k < p->n_phases; ++k) {
        const PlnPhaseGeom *ph = &p->phases[k], *nx = k + 1 < p->n_phases ? &p->phases[k + 1] : NULL;
        if (t < ph->t0 - PLN_PHASE_TIME_TOL_S || t > ph->t1 + PLN_PHASE_TIME_TOL_S) continue;
        for (int e = 0; e < ph->n_edges; ++e) {
            g->com_n[n][0] = ph->edge_n[e][0], g->com_n[n][1] = ph->edge_n[e][1];
            g->com_b[n++] = ph->edge_b[e];
        }
        if (nx != NULL && ph->support.n_feet == 2 && nx->support.n_feet == 1 && nx->n_edges >= 3 &&
            fabs(nx->t0 - ph->t1) <= PLN_PHASE_TIME_TOL_S && ph->t1 > ph->t0) {
            double cd[2] = {0.0, 0.0}, cs[2] = {0.0, 0.0}, sh[2];
            const double frac = fmin(fmax((t - ph->t0) / (ph->t1 - ph->t0), 0.0), 1.0);
            for (int v = 0; v < ph->n_edges; ++v) cd[0] += ph->polygon[v][0], cd[1] += ph->polygon[v][1];
            for (int v = 0; v < nx->n_edges; ++v) cs[0] += nx->polygon[v][0], cs[1] += nx->polygon[v][1];
            for (int i = 0; i < 2; ++i) sh[i] = (1.0 - frac) * (cd[i] / ph->n_edges - cs[i] / nx->n_edges);
            for (int e = 0; e < nx->n_edges; ++e) {
                g->com_n[n][0] = nx->edge_n[e][0], g->com_n[n][1] = nx->edge_n[e][1];
                g->com_b[n++] = nx->edge_b[e] + nx->edge_n[e][0] * sh[0] + nx->edge_n[e][1] * sh[1];
            }
        }
        return n;
    }
    return 0;
}

/* R = A Rot(axis, angle) with the axis in A's frame (Rodrigues), row-major 3x3. */
static void rot_about(const double A[9], const double axis[3], double angle, double R[9])
{
    const double c = cos(angle), s = sin(angle), v = 1.0 - c;
    const double x = axis[0], y = axis[1], z = axis[2];
    const double E[9] = {c + x * x * v, x * y * v - z * s, x * z * v + y * s,
                         y * x * v + z * s, c + y * y * v, y * z * v - x * s,
                         z * x * v - y * s, z * y * v + x * s, c + z * z * v};
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            R[3 * i + j] = A[3 * i] * E[j] + A[3 * i + 1] * E[3 + j] + A[3 * i + 2] * E[6 + j];
        }
    }
}

/* The orientation a fraction u of the way from A to B: A Rot(w, u theta) with (w, theta)
 * the axis and angle of A^T B (eq. G4). No turn, or a half turn (no unique axis): A. */
static void rot_between(const double A[9], const double B[9], double u, double R[9])
{
    double M[9], w[3], sn, cs, theta;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            M[3 * i + j] = A[i] * B[j] + A[3 + i] * B[3 + j] + A[6 + i] * B[6 + j];
        }
    }
    w[0] = 0.5 * (M[7] - M[5]), w[1] = 0.5 * (M[2] - M[6]), w[2] = 0.5 * (M[3] - M[1]);
    sn = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    cs = 0.5 * (M[0] + M[4] + M[8] - 1.0);
    theta = atan2(sn, cs);
    if (!(sn > 1e-12)) {
        memcpy(R, A, 9 * sizeof *R);
        return;
    }
    for (int i = 0; i < 3; ++i) w[i] /= sn;
    rot_about(A, w, u * theta, R);
}

/* The stance entry of `link` in the nearest phase before (dir -1) or after (dir +1) phase
 * ph, or -1. */
static int stance_near(const PlnProblem *p, int link, int ph, int dir)
{
    int best = -1;
    for (int s = 0; s < p->n_stance; ++s) {
        const PlnStance *st = &p->stance[s];
        if (st->link != link || (st->phase - ph) * dir <= 0) continue;
        if (best < 0 || (st->phase - p->stance[best].phase) * dir < 0) best = s;
    }
    return best;
}

/* The swing foot's pose in the guess at time t (eq. G4): a foot that a support phase
 * lifts (p->swing) goes from where it stood before the phase (its stance target, or where
 * it will land when it starts lifted) to where it lands after it, through the position
 * tasks given to that foot in between, linearly in time, its orientation turning
 * uniformly, and its sole centre at least PLN_GUESS_SWING_LIFT_M sin(pi u) above the line
 * between the two ends (u the fraction of the swing gone by), so that it clears the floor.
 * Without it the guess left a lifted leg where the tasks of the rest of the body carried
 * it (42 cm from where it had to land on a random support problem). Fills *tg as a frame
 * target of priority 3 (below the tasks, above the posture) and returns 1; 0 when t is
 * not in a phase that lifts swing entry sw. */
static int swing_target(const PlnProblem *p, int sw, double t, PlnIkTarget *tg)
{
    const PlnScenario *sc = p->scenario;
    const PlnSwing *w = &p->swing[sw];
    const PlnPhaseGeom *ph = &p->phases[w->phase];
    int a = stance_near(p, w->link, w->phase, -1), b = stance_near(p, w->link, w->phase, +1);
    double ta, tb, pa[3], pb[3], Ra[9], Rb[9], u, lo[3], hi[3], tlo, thi, line_z;
    const PlnStance *ref;
    if (t < ph->t0 - PLN_PHASE_TIME_TOL_S || t > ph->t1 + PLN_PHASE_TIME_TOL_S) return 0;
    if (a < 0 && b < 0) return 0;
    ref = &p->stance[a >= 0 ? a : b];
    if (a < 0) a = b;
    if (b < 0) b = a;
    ta = p->stance[a].phase < w->phase ? p->phases[p->stance[a].phase].t1 : 0.0;
    tb = p->stance[b].phase > w->phase ? p->phases[p->stance[b].phase].t0 : sc->duration;
    memcpy(pa, p->stance[a].target, sizeof pa);
    memcpy(pb, p->stance[b].target, sizeof pb);
    memcpy(Ra, p->stance[a].target_rot, sizeof Ra);
    memcpy(Rb, p->stance[b].target_rot, sizeof Rb);
    u = tb > ta ? fmin(fmax((t - ta) / (tb - ta), 0.0), 1.0) : 0.5;
    memset(tg, 0, sizeof *tg);
    tg->kind = PLN_IK_FRAME;
    tg->link = w->link;
    memcpy(tg->point, ref->point, sizeof tg->point);
    rot_between(Ra, Rb, u, tg->target_rot);
    /* the keys around t: the ends and the foot's position tasks, each task's point moved
     * to the sole centre with the orientation of its time */
    tlo = ta, thi = tb;
    memcpy(lo, pa, sizeof lo);
    memcpy(hi, pb, sizeof hi);
    for (int k = 0; k < sc->n_tasks; ++k) {
        const PlnTask *task = &sc->tasks[k];
        double Rk[9], key[3];
        if (task->type != PLN_TASK_POSITION || task->link.index != w->link) continue;
        if (!(task->time > ta && task->time < tb)) continue;
        rot_between(Ra, Rb, (task->time - ta) / (tb - ta), Rk);
        for (int i = 0; i < 3; ++i) {
            key[i] = task->target[i];
            for (int j = 0; j < 3; ++j) key[i] += Rk[3 * i + j] * (ref->point[j] - task->point[j]);
        }
        if (task->time <= t && task->time >= tlo) tlo = task->time, memcpy(lo, key, sizeof lo);
        if (task->time >= t && task->time <= thi) thi = task->time, memcpy(hi, key, sizeof hi);
    }
    {
        const double s = thi > tlo ? fmin(fmax((t - tlo) / (thi - tlo), 0.0), 1.0) : 0.0;
        for (int i = 0; i < 3; ++i) tg->target[i] = lo[i] + s * (hi[i] - lo[i]);
    }
    line_z = pa[2] + u * (pb[2] - pa[2]);
    tg->target[2] = fmax(tg->target[2], line_z + PLN_GUESS_SWING_LIFT_M * sin(PLN_PI * u));
    tg->tolerance = PLN_GUESS_SWING_TOL_M;
    tg->rot_tolerance = PLN_GUESS_SWING_TOL_RAD;
    tg->priority = 3;
    return 1;
}

/* The support's targets at time t (docs/math/planner.md sec. 8, eq. IK3): every stance
 * foot whose phase covers t where it stands (priority 0), and balance (priority 1): the
 * centre of mass inside the balance polygon of the guess at t (balance_polygon: the static
 * polygon or the phases' ZMP polygons, shrunk by their margins), an inequality (IK5); both
 * outrank the tasks. And every lifted foot on its path (priority 3, below the tasks: eq.
 * G4). Appends to g->targets from n; returns the new count. */
static int support_targets(const PlnProblem *p, Guess *g, double t, int n)
{
    const double (*en)[2] = NULL;
    const double *eb = NULL;
    int ne = 0;
    for (int s = 0; s < p->n_stance; ++s) {
        const PlnStance *st = &p->stance[s];
        const PlnPhaseGeom *ph = &p->phases[st->phase];
        PlnIkTarget *tg = &g->targets[n];
        if (t < ph->t0 - PLN_PHASE_TIME_TOL_S || t > ph->t1 + PLN_PHASE_TIME_TOL_S) continue;
        memset(tg, 0, sizeof *tg);
        tg->kind = PLN_IK_FRAME;
        tg->link = st->link;
        memcpy(tg->point, st->point, sizeof tg->point);
        memcpy(tg->target, st->target, sizeof tg->target);
        memcpy(tg->target_rot, st->target_rot, sizeof tg->target_rot);
        tg->tolerance = PLN_STANCE_ROW_FRACTION * PLN_STANCE_POS_TOL_M;
        tg->rot_tolerance = PLN_STANCE_ROW_FRACTION * PLN_STANCE_ROT_TOL_RAD;
        tg->priority = 0;
        g->target_task[n++] = -1;
    }
    /* and, below the tasks, each lifted foot on its way (eq. G4) */
    for (int w = 0; w < p->n_swing; ++w) {
        if (swing_target(p, w, t, &g->targets[n])) g->target_task[n++] = -1;
    }
    ne = balance_polygon(p, g, t);
    en = (const double (*)[2])g->com_n, eb = g->com_b;
    if (ne >= 3) {
        PlnIkTarget *tg = &g->targets[n];
        memset(tg, 0, sizeof *tg);
        tg->kind = PLN_IK_COM;
        tg->n_edges = ne;
        tg->edge_n = en;
        tg->edge_b = eb;
        tg->tolerance = PLN_GUESS_BALANCE_ACTIVE_M;
        tg->priority = 1;
        g->target_task[n++] = -1;
    }
    return n;
}

/* eq. G3: waypoints closer than half a knot span are one group: a spline of degree k
 * through two different postures that close bends by (change) / (gap)^2 and more, which
 * in a guess meant accelerations of 1e4 rad/s^2. */
static double waypoint_gap(const PlnProblem *p)
{
    const int spans = p->n_ctrl - p->bs->degree;
    return spans > 0 ? 0.5 * p->scenario->duration / spans : p->scenario->duration;
}

/* eq. G0: waypoints at the phase boundaries where the stance feet change (a foot lifts or
 * lands), appended to times[0..n) (the task times); returns the new count. A boundary
 * within waypoint_gap() of a task time or of another boundary kept, or of the start or
 * the end, is left out. */
static int add_phase_waypoints(const PlnProblem *p, double *times, int n)
{
    const double T = p->scenario->duration, gap = waypoint_gap(p);
    if (p->n_stance == 0) return n;
    for (int k = 0; k + 1 < p->n_phases; ++k) {
        const double b = p->phases[k].t1;
        int near = !(b > gap) || !(b < T - gap);
        for (int i = 0; i < n && !near; ++i) near = fabs(times[i] - b) < gap;
        if (!near) times[n++] = b;
    }
    return n;
}

/* IK postures at every task time, from the initial posture forward (docs/math/planner.md
 * sec. 8); returns the number of waypoints (0, the task times, T) in g->times/q_way. */
static PlnStatus solve_waypoints(const PlnProblem *p, Guess *g, int *n_way, PlnGuessReport *rep,
                                 char *err, size_t err_size)
{
    const PlnScenario *sc = p->scenario;
    const int nj = p->n_joints;
    PlnIkOptions opt = pln_ik_options_default();
    double *q = g->q_way;
    /* aim where the optimiser's rows aim (half of its 0.9 tolerance), judge by the
     * tolerance the certificate checks */
    opt.aim = 0.5 * PLN_TASK_INNER_FRACTION;
    opt.limit_margin = PLN_GUESS_LIMIT_MARGIN_RAD;
    int n_times = 0, w = 1;

    memcpy(q, p->q_init, (size_t)nj * sizeof *q);
    g->times[0] = 0.0;
    for (int t = 0; t < sc->n_tasks; ++t) g->sorted[n_times++] = sc->tasks[t].time;
    n_times = add_phase_waypoints(p, g->sorted, n_times);
    qsort(g->sorted, (size_t)n_times, sizeof *g->sorted, cmp_double);
    for (int i = 0, next; i < n_times; i = next) {
        double time = 0.0, first = g->sorted[i], last;
        int n_t = 0, n_task_targets, n_distinct = 0;
        PlnIkResult res;
        PlnStatus st;
        /* one group per cluster of times within half a knot span (eq. G3), solved at their
         * mean */
        for (next = i; next < n_times && g->sorted[next] - first < waypoint_gap(p); ++next) {
            if (next == i || g->sorted[next] != g->sorted[next - 1]) time += g->sorted[next], ++n_distinct;
        }
        last = g->sorted[next - 1];
        time /= n_distinct;
        if (!(first > 0.0)) continue;                      /* the start is fixed */
        for (int t = 0; t < sc->n_tasks; ++t) {
            const PlnTask *task = &sc->tasks[t];
            PlnIkTarget *tg = &g->targets[n_t];
            if (task->time < first || task->time > last) continue;
            memset(tg, 0, sizeof *tg);
            tg->tolerance = task->tolerance;
            tg->priority = 2;
            if (task->type == PLN_TASK_POSITION) {
                tg->kind = PLN_IK_POINT;
                tg->link = task->link.index;
                memcpy(tg->point, task->point, sizeof tg->point);
                memcpy(tg->target, task->target, sizeof tg->target);
            } else {
                tg->kind = PLN_IK_JOINT;
                tg->joint = task->joint.index;
                tg->value = task->value;
            }
            g->target_task[n_t++] = t;
        }
        n_task_targets = n_t;
        n_t = support_targets(p, g, time, n_t);
        if (n_t == 0) continue;   /* a phase boundary with nothing to hold */
        /* from the posture of the group before */
        memcpy(q + (size_t)w * nj, q + (size_t)(w - 1) * nj, (size_t)nj * sizeof *q);
        st = pln_ik_solve(g->ik, g->kin, p->robot, p->active, p->n_active, g->targets, n_t, &opt,
                          q + (size_t)w * nj, &res, err, err_size);
        if (st != PLN_OK) return st;
        if (!res.met) {
            /* a target may need a joint within the margin of its limit: once more without */
            PlnIkOptions edge = opt;
            PlnIkResult res2;
            double *q2 = q + (size_t)(w + 1) * nj;
            edge.limit_margin = 0.0;
            memcpy(q2, q + (size_t)(w - 1) * nj, (size_t)nj * sizeof *q);
            st = pln_ik_solve(g->ik, g->kin, p->robot, p->active, p->n_active, g->targets, n_t,
                              &edge, q2, &res2, err, err_size);
            if (st != PLN_OK) return st;
            if (res2.met || res2.worst_miss < res.worst_miss) {
                memcpy(q + (size_t)w * nj, q2, (size_t)nj * sizeof *q);
                res = res2;
            }
        }
        g->times[w] = time;
        ++w;
        rep->groups += n_task_targets > 0;
        if (!res.met) {
            /* the task that misses most (a stance foot or the balance band that cannot be
             * kept while it is met is the optimiser's to settle) */
            int unmet = 0;
            pln_ik_misses(g->ik, g->targets, n_t, g->miss);
            for (int k = 0; k < n_t; ++k) {
                int task = g->target_task[k];
                if (task < 0 || !(g->miss[k] > 0.0)) continue;
                unmet = 1;
                if (rep->worst_task < 0 || g->miss[k] > rep->worst_miss) {
                    rep->worst_task = task;
                    rep->worst_miss = g->miss[k];
                }
            }
            rep->unmet += unmet;
        }
    }
    /* hold the last posture to the end */
    g->times[w] = sc->duration;
    memcpy(q + (size_t)w * nj, q + (size_t)(w - 1) * nj, (size_t)nj * sizeof *q);
    *n_way = w + 1;
    return PLN_OK;
}

/* The posture of every control point: the path's posture at its Greville abscissa xi_i
 * (eq. G1); with stance rows (eq. G0), that of a free one projected by the IK onto the
 * support's targets at xi_i (the stance feet of the phases covering it, balance in
 * balance_polygon, the lifted feet on their paths of eq. G4), from the path's posture without restarts, so the change is
 * the least that holds them. The waypoints hold them at their times only; between them a
 * joint-space path lets a stance foot of a closed chain slide and the centre of mass leave
 * a one-foot polygon. A target the IK cannot meet is left to the optimiser. */
static PlnStatus ctrl_postures(const PlnProblem *p, Guess *g, int n_way, char *err,
                               size_t err_size)
{
    const PlnBspline *bs = p->bs;
    const int nc = p->n_ctrl, k = bs->degree, nj = p->n_joints;
    PlnIkOptions opt = pln_ik_options_default();
    opt.aim = 0.5 * PLN_TASK_INNER_FRACTION;
    opt.limit_margin = PLN_GUESS_LIMIT_MARGIN_RAD;
    opt.restarts = 0;
    for (int i = 0; i < nc; ++i) {
        double xi = 0.0, *q = g->q_ctrl + (size_t)i * nj;
        int free_point = 0, n_t;
        PlnIkResult res;
        PlnStatus st;
        for (int l = 1; l <= k; ++l) xi += bs->knots[i + l];
        xi /= k;
        for (int j = 0; j < nj; ++j) q[j] = path_at(g, n_way, nj, j, xi);
        for (int a = 0; a < p->n_active; ++a) free_point |= p->var_of[a * nc + i] >= 0;
        if (!free_point || p->n_stance == 0) continue;
        n_t = support_targets(p, g, xi, 0);
        if (n_t == 0) continue;
        st = pln_ik_solve(g->ik, g->kin, p->robot, p->active, p->n_active, g->targets, n_t, &opt, q,
                          &res, err, err_size);
        if (st != PLN_OK) return st;
    }
    return PLN_OK;
}

/* Control points of joint a: Greville samples of the path (eq. G1), then the least change
 * of its free variables that makes the spline pass through the waypoints (eq. G2); a
 * variable the change pushes past its joint limit is held at the limit and the change
 * solved again for the others (at most PLN_GUESS_PASSES times). */
static PlnStatus fit_joint(const PlnProblem *p, Guess *g, int n_way, int a, char *err,
                           size_t err_size)
{
    const PlnBspline *bs = p->bs;
    const int nc = p->n_ctrl, k = bs->degree, nj = p->n_joints, joint = p->active[a];
    const int n_rows = n_way - 2;   /* the task times: 0 and T are not interpolated */
    double *P = g->ctrl + (size_t)a * nc;
    int n_v = 0;

    /* eq. G1 (G0): P_i = q_w(xi_i) projected, xi_i = (t_{i+1} + ... + t_{i+k}) / k; fixed
     * ones stay */
    for (int i = 0; i < nc; ++i) {
        if (p->var_of[a * nc + i] < 0) continue;
        P[i] = g->q_ctrl[(size_t)i * nj + joint];
    }
    /* the distinct variables of the joint; a tied tail takes the value of its first point */
    for (int i = 0; i < nc; ++i) {
        int v = p->var_of[a * nc + i], seen = 0;
        if (v < 0) continue;
        for (int j = 0; j < n_v; ++j) seen |= g->vars[j] == v;
        if (!seen) {
            g->held[n_v] = 0;
            g->vars[n_v++] = v;
        }
        for (int j = 0; j < i; ++j) {
            if (p->var_of[a * nc + j] == v) {
                P[i] = P[j];
                break;
            }
        }
    }
    for (int pass = 0; n_rows > 0 && pass < PLN_GUESS_PASSES; ++pass) {
        const int ldb = n_rows > n_v ? n_rows : n_v;
        int newly_held = 0, n_free = 0;
        lapack_int rank, info;
        /* eq. G2: min |d| subject to B d = r over the variables not held, B[row][v] = sum
         * of N_i(t_row) over the control points of v, r = q_way(t_row) - q(t_row) (least
         * squares if inconsistent) */
        for (int j = 0; j < n_v; ++j) {
            if (!g->held[j]) g->col[n_free++] = j;
        }
        if (n_free == 0) break;
        memset(g->B, 0, (size_t)n_rows * n_free * sizeof *g->B);
        memset(g->r, 0, (size_t)ldb * sizeof *g->r);
        for (int row = 0; row < n_rows; ++row) {
            double t = g->times[1 + row], N[PLN_BSPLINE_MAX_ORDER], q = 0.0;
            int first;
            PlnStatus st = pln_bspline_basis(bs, t, 0, N, &first);
            if (st != PLN_OK) return pln_errorf(st, err, err_size, "initial guess: task time %g s", t);
            for (int m = 0; m <= k; ++m) {
                int i = first + m, v = p->var_of[a * nc + i];
                q += N[m] * P[i];
                for (int c = 0; v >= 0 && c < n_free; ++c) {
                    if (g->vars[g->col[c]] == v) g->B[(size_t)c * n_rows + row] += N[m];
                }
            }
            g->r[row] = g->q_way[(size_t)(1 + row) * nj + joint] - q;
        }
        info = LAPACKE_dgelsd(LAPACK_COL_MAJOR, n_rows, n_free, 1, g->B, n_rows, g->r, ldb, g->sv,
                              -1.0, &rank);
        if (info != 0) {
            return pln_errorf(PLN_ERR_INTERNAL, err, err_size,
                              "initial guess: least squares failed (LAPACKE_dgelsd info %d)",
                              (int)info);
        }
        /* apply the change; hold what crosses a limit at the limit */
        for (int c = 0; c < n_free; ++c) {
            int j = g->col[c], v = g->vars[j];
            for (int i = 0; i < nc; ++i) {
                if (p->var_of[a * nc + i] != v) continue;
                P[i] += g->r[c];
                if (P[i] < p->lb[v] || P[i] > p->ub[v]) {
                    P[i] = fmin(fmax(P[i], p->lb[v]), p->ub[v]);
                    newly_held += !g->held[j];
                    g->held[j] = 1;
                }
            }
        }
        if (newly_held == 0) break;
    }
    return PLN_OK;
}

/* eq. G5: the support once more, after the fit. (G2) changes each joint's control points
 * on its own, by the least change that passes through the waypoints; with degree 5 on few
 * spans a control point reaches over most of the motion, so a kink at one waypoint moved
 * the hips of control points far from it, against each other, and a stance foot slid by
 * up to 35 cm between waypoints on random support problems. Each free control point's
 * posture is projected again onto the support's targets at its Greville abscissa (no
 * restarts: the least change), and a variable shared by several points (the tied rest)
 * takes the first one's value. The spline then passes near, not through, the waypoints;
 * the optimiser's task rows finish the job. */
static PlnStatus reproject_ctrl(const PlnProblem *p, Guess *g, char *err, size_t err_size)
{
    const PlnBspline *bs = p->bs;
    const int nc = p->n_ctrl, k = bs->degree, nj = p->n_joints;
    PlnIkOptions opt = pln_ik_options_default();
    double *q = g->q_ctrl;   /* the first row serves as scratch: (G1) is done with them */
    opt.aim = 0.5 * PLN_TASK_INNER_FRACTION;
    opt.limit_margin = PLN_GUESS_LIMIT_MARGIN_RAD;
    opt.restarts = 0;
    if (p->n_stance == 0) return PLN_OK;
    for (int i = 0; i < nc; ++i) {
        double xi = 0.0;
        int free_point = 0, n_t;
        PlnIkResult res;
        PlnStatus st;
        for (int a = 0; a < p->n_active; ++a) {
            int v = p->var_of[a * nc + i], first = 1;
            for (int j = 0; j < i && v >= 0; ++j) first &= p->var_of[a * nc + j] != v;
            free_point |= v >= 0 && first;
        }
        if (!free_point) continue;
        for (int l = 1; l <= k; ++l) xi += bs->knots[i + l];
        xi /= k;
        memcpy(q, p->q_init, (size_t)nj * sizeof *q);
        for (int a = 0; a < p->n_active; ++a) q[p->active[a]] = g->ctrl[(size_t)a * nc + i];
        n_t = support_targets(p, g, xi, 0);
        if (n_t == 0) continue;
        st = pln_ik_solve(g->ik, g->kin, p->robot, p->active, p->n_active, g->targets, n_t, &opt, q,
                          &res, err, err_size);
        if (st != PLN_OK) return st;
        for (int a = 0; a < p->n_active; ++a) {
            int v = p->var_of[a * nc + i], first = 1;
            double value;
            for (int j = 0; j < i && v >= 0; ++j) first &= p->var_of[a * nc + j] != v;
            if (v < 0 || !first) continue;
            value = fmin(fmax(q[p->active[a]], p->lb[v]), p->ub[v]);
            for (int j = i; j < nc; ++j) {
                if (p->var_of[a * nc + j] == v) g->ctrl[(size_t)a * nc + j] = value;
            }
        }
    }
    return PLN_OK;
}

/* Initial guess: IK waypoints, then splines through them (docs/math/planner.md sec. 8). */
PlnStatus pln_guess_initial_x(const PlnProblem *p, double *x, PlnGuessReport *report, char *err,
                              size_t err_size)
{
    const PlnScenario *sc = p->scenario;
    const int nt = sc->n_tasks, nj = p->n_joints, nc = p->n_ctrl;
    PlnGuessReport rep = {0, 0, -1, 0.0};
    Guess g;
    int n_way = 0;
    PlnStatus st = PLN_OK;

    pln_watchdog_phase("computing the initial guess");
    memset(&g, 0, sizeof g);
    pln_problem_initial_x(p, x);
    if (report != NULL) *report = rep;
    if (nt == 0 || p->n_vars == 0) return PLN_OK;

    st = pln_kin_create(p->robot, &g.kin, err, err_size);
    if (st == PLN_OK) {
        st = pln_ik_create(p->robot, nt + p->n_stance + p->n_swing + 1, p->n_active, &g.ik, err,
                           err_size);
    }
    if (st == PLN_OK) {
        const int nw = nt + p->n_phases;   /* waypoints: task times and phase boundaries */
        int rows = nw + 2 > nc ? nw + 2 : nc, nmax = nt + p->n_stance + p->n_swing + 1;
        g.targets = calloc((size_t)nmax, sizeof *g.targets);
        g.target_task = calloc((size_t)nmax, sizeof *g.target_task);
        g.miss = calloc((size_t)nmax, sizeof *g.miss);
        g.times = calloc((size_t)nw + 2, sizeof *g.times);
        g.q_way = calloc(((size_t)nw + 3) * nj, sizeof *g.q_way);  /* + a scratch row */
        g.q_ctrl = calloc((size_t)nc * nj, sizeof *g.q_ctrl);
        g.ctrl = calloc((size_t)p->n_active * nc, sizeof *g.ctrl);
        g.B = calloc((size_t)(nw + 2) * nc, sizeof *g.B);
        g.r = calloc((size_t)rows, sizeof *g.r);
        g.sv = calloc((size_t)rows, sizeof *g.sv);
        g.vars = calloc((size_t)nc, sizeof *g.vars);
        g.held = calloc((size_t)nc, sizeof *g.held);
        g.col = calloc((size_t)nc, sizeof *g.col);
        g.sorted = calloc((size_t)nw, sizeof *g.sorted);
        if (!g.targets || !g.target_task || !g.miss || !g.times || !g.q_way || !g.q_ctrl || !g.ctrl || !g.B || !g.r ||
            !g.sv || !g.vars || !g.held || !g.col || !g.sorted) {
            st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
        }
    }
    if (st == PLN_OK) st = solve_waypoints(p, &g, &n_way, &rep, err, err_size);
    if (st == PLN_OK) st = ctrl_postures(p, &g, n_way, err, err_size);
    if (st == PLN_OK) {
        pln_problem_ctrl(p, x, g.ctrl);
        for (int a = 0; a < p->n_active && st == PLN_OK; ++a) {
            st = fit_joint(p, &g, n_way, a, err, err_size);
        }
    }
    if (st == PLN_OK) st = reproject_ctrl(p, &g, err, err_size);
    if (st == PLN_OK) {
        pln_problem_x_from_ctrl(p, g.ctrl, x);
        for (int v = 0; v < p->n_vars; ++v) x[v] = fmin(fmax(x[v], p->lb[v]), p->ub[v]);
        if (report != NULL) *report = rep;
    } else {
        pln_problem_initial_x(p, x);
    }
    guess_free(&g);
    return st;
}
