/* pln_problem.c — variables, objective and constraints of a scenario (thesis sec. VI.A). */
#include "problem/pln_problem.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dst_convex_mcd.h"
#include "base/pln_clock.h"
#include "base/pln_tolerance.h"
#include "model/pln_linkmesh.h"
#include "problem/pln_dynrows.h"

PlnPlanOptions pln_plan_options_default(void)
{
    PlnPlanOptions o;
    o.no_collision = 0;
    o.method_override = 0;
    o.method = PLN_METHOD_HYBRID;
    o.mcd_eps_ratio = PLN_OPT_MCD_EPS_RATIO;
    o.cert_eps_ratio = PLN_CERT_MCD_EPS_RATIO;
    o.threads = PLN_THREADS_AUTO;
    o.geometry_override = 0;
    o.geometry = PLN_GEOMETRY_CAPSULE;
    o.distance_override = 0;
    o.distance = PLN_DISTANCE_EUCLIDEAN;
    return o;
}

DstMcdMethod pln_method_to_dst(PlnMethod method)
{
    switch (method) {
    case PLN_METHOD_GSS: return DST_MCD_GSS;
    case PLN_METHOD_CA: return DST_MCD_CA;
    case PLN_METHOD_SAMPLING: return DST_MCD_SAMPLING;
    case PLN_METHOD_HYBRID: break;
    }
    return DST_MCD_HYBRID;
}

void pln_problem_destroy(PlnProblem *p)
{
    if (p == NULL) return;
    pln_bspline_destroy(p->bs);
    free(p->active);
    free(p->q_init);
    free(p->var_of);
    free(p->ctrl_fixed);
    free(p->lb);
    free(p->ub);
    free(p->H);
    free(p->rows);
    free(p->row_tol);
    free(p->polygon);
    free(p->edge_n);
    free(p->edge_b);
    free(p->phases);
    free(p->dyn);
    free(p->dyn_row);
    free(p->stance);
    free(p->stance_time);
    free(p->swing);
    free(p->swing_time);
    free(p->moving);
    pln_geom_destroy(p->geom);
    free(p);
}

/* appends a row; rows and tolerances were sized for the maximum count */
static void add_row(PlnProblem *p, PlnRowKind kind, int index, int sub, double scale, double tol)
{
    p->rows[p->m].kind = kind;
    p->rows[p->m].index = index;
    p->rows[p->m].sub = sub;
    p->rows[p->m].scale = scale;
    p->row_tol[p->m] = tol;
    ++p->m;
}


/* The support polygon of static balance: the convex hull of the sole vertices (within
 * PLN_SOLE_HEIGHT_M of the lowest point) of the support links' meshes at the initial
 * posture, each edge as a half-plane n . p <= b shrunk by the margin. The support links
 * must not move, and the initial centre of mass must lie inside. */
static PlnStatus support_polygon(PlnProblem *p, char *err, size_t err_size)
{
    const PlnScenario *sc = p->scenario;
    const PlnRobot *r = p->robot;
    PlnKinWork *kin = NULL;
    DstMesh *meshes = NULL;
    double (*pts)[2] = NULL, (*hull)[2] = NULL, zmin = HUGE_VAL, com[3];
    int n_pts = 0, total = 0, h;
    PlnStatus st = PLN_OK;

    for (int s = 0; s < sc->n_support; ++s) {
        int l = sc->support[s].index;
        for (int at = l; at >= 0; at = r->links[at].parent) {
            for (int a = 0; a < p->n_active; ++a) {
                if (r->links[at].joint == p->active[a]) {
                    return pln_errorf(PLN_ERR_INVALID, err, err_size,
                                      "%s:%d:%d: balance.support[%d]: %s is moved by the moving "
                                      "joint %s; support links must stay still",
                                      sc->path, sc->support[s].line, sc->support[s].column, s,
                                      r->links[l].name, r->joints[p->active[a]].name);
                }
            }
        }
        if (!pln_link_has_mesh(&r->links[l].geometry)) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "%s:%d:%d: balance.support[%d]: %s has no mesh to take its sole from",
                              sc->path, sc->support[s].line, sc->support[s].column, s, r->links[l].name);
        }
    }
    meshes = calloc((size_t)sc->n_support, sizeof *meshes);
    if (meshes == NULL) return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    st = pln_kin_create(r, &kin, err, err_size);
    if (st == PLN_OK) st = pln_kin_forward(kin, r, p->q_init);
    for (int s = 0; s < sc->n_support && st == PLN_OK; ++s) {
        const PlnLink *link = &r->links[sc->support[s].index];
        char merr[512];
        PlnStatus mst = pln_link_mesh_read(r, sc->support[s].index, &meshes[s], merr, sizeof merr);
        if (mst != PLN_OK) {
            st = pln_errorf(mst, err, err_size, "balance.support[%d]: %s", s, merr);
            break;
        }
        total += meshes[s].n_vertices;
        for (int v = 0; v < meshes[s].n_vertices; ++v) {
            double x[3], y[3];
            pln_link_file_point(&link->geometry, meshes[s].vertices[v], y);
            pln_kin_point(kin, sc->support[s].index, y, x);
            if (x[2] < zmin) zmin = x[2];
        }
    }
    if (st == PLN_OK) {
        pts = calloc((size_t)total + 1, sizeof *pts);
        hull = calloc((size_t)total + 2, sizeof *hull);
        if (pts == NULL || hull == NULL) st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    for (int s = 0; s < sc->n_support && st == PLN_OK; ++s) {
        for (int v = 0; v < meshes[s].n_vertices; ++v) {
            double x[3], y[3];
            pln_link_file_point(&r->links[sc->support[s].index].geometry, meshes[s].vertices[v], y);
            pln_kin_point(kin, sc->support[s].index, y, x);
            if (x[2] <= zmin + PLN_SOLE_HEIGHT_M) {
                pts[n_pts][0] = x[0];
                pts[n_pts][1] = x[1];
                ++n_pts;
            }
        }
    }
    h = st == PLN_OK ? pln_hull2d(pts, n_pts, hull) : 0;
    if (st == PLN_OK && h > PLN_MAX_EDGES) {
        st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                        "%s: balance.support: the sole polygon has %d edges, more than %d", sc->path,
                        h, PLN_MAX_EDGES);
    }
    if (st == PLN_OK && h < 3) {
        st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                        "%s: balance.support: the soles span no area (%d hull points)", sc->path, h);
    }
    if (st == PLN_OK) {
        p->polygon = calloc((size_t)h, sizeof *p->polygon);
        p->edge_n = calloc((size_t)h, sizeof *p->edge_n);
        p->edge_b = calloc((size_t)h, sizeof *p->edge_b);
        if (!p->polygon || !p->edge_n || !p->edge_b) st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    if (st == PLN_OK) {
        p->n_edges = h;
        for (int e = 0; e < h; ++e) {
            const double *a = hull[e], *b = hull[(e + 1) % h];
            double dx = b[0] - a[0], dy = b[1] - a[1], len = hypot(dx, dy);
            p->polygon[e][0] = a[0];
            p->polygon[e][1] = a[1];
            p->edge_n[e][0] = dy / len; /* outward for a counter-clockwise polygon */
            p->edge_n[e][1] = -dx / len;
            p->edge_b[e] = p->edge_n[e][0] * a[0] + p->edge_n[e][1] * a[1] - sc->balance_margin;
        }
        st = pln_kin_com(kin, r, com);
        for (int e = 0; e < h && st == PLN_OK; ++e) {
            double out = p->edge_n[e][0] * com[0] + p->edge_n[e][1] * com[1] - p->edge_b[e];
            if (out > 0.0) {
                st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                                "%s: balance: the initial centre of mass is %.4f m outside the "
                                "support polygon shrunk by the margin %.3f m",
                                sc->path, out, sc->balance_margin);
            }
        }
    }
    for (int s = 0; s < sc->n_support; ++s) dst_mesh_destroy(&meshes[s]);
    free(meshes);
    free(pts);
    free(hull);
    pln_kin_destroy(kin);
    return st;
}

/* The torque cost's scale (eq. P2 applied to eq. P14): weight over the mean diagonal of
 * its Gauss-Newton Hessian (through the RNEA derivatives) with respect to the
 * variables, at the start. */
static PlnStatus torque2_scale(PlnProblem *p, char *err, size_t err_size)
{
    PlnProblemWork *w = NULL;
    double *x = NULL, *diag = NULL, value = 0.0, mean = 0.0;
    int n = 0;
    PlnStatus st;
    if (!p->dynamics) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "%s:%d: cost.type: torque2 needs the dynamics model, which is off "
                          "(dynamics.mode: off, or --static-balance)",
                          p->scenario->path, p->scenario->cost_line);
    }
    if (!p->robot->has_effort) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "%s:%d: cost.type: torque2 needs effort limits, but the robot %s "
                          "gives no effort_max for its joints",
                          p->scenario->path, p->scenario->cost_line, p->scenario->robot_path);
    }
    st = pln_problem_work_create(p, &w, err, err_size);
    x = calloc((size_t)(p->n_vars > 0 ? p->n_vars : 1), sizeof *x);
    diag = calloc((size_t)p->n_active * p->n_ctrl + 1, sizeof *diag);
    if (st == PLN_OK && (x == NULL || diag == NULL)) st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    if (st == PLN_OK) {
        pln_problem_initial_x(p, x);
        pln_problem_ctrl(p, x, w->ctrl);
        st = pln_dynrows_torque2(p, w, &value, NULL, diag, err, err_size);
    }
    if (st == PLN_OK) {
        for (int i = 0; i < p->n_active * p->n_ctrl; ++i) {
            if (p->var_of[i] >= 0) {
                mean += diag[i];
                ++n;
            }
        }
        mean = n > 0 ? mean / n : 0.0;
        p->torque2_scale = p->scenario->cost_weight / fmax(mean, PLN_MIN_COST_HESSIAN);
        p->torque2_offset = value;
    }
    free(x);
    free(diag);
    pln_problem_work_destroy(w);
    return st;
}

PlnStatus pln_problem_create(PlnProblem **out, const PlnRobot *robot, const PlnScenario *sc,
                             const PlnPlanOptions *opt, char *err, size_t err_size)
{
    PlnProblem *p;
    PlnStatus st;
    int k = sc->degree, n, head, max_rows, order;
    double T = sc->duration;

    *out = NULL;
    p = calloc(1, sizeof *p);
    if (p == NULL) return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    p->robot = robot;
    p->scenario = sc;
    p->n_joints = robot->n_joints;
    p->n_active = sc->n_active;
    p->n_ctrl = n = sc->spans + k;
    p->n_intervals = sc->spans * sc->subdivisions;
    p->collision = sc->collision && !opt->no_collision && sc->n_pairs > 0;
    p->method = pln_method_to_dst(opt->method_override ? opt->method : sc->method);
    p->eps = sc->eps;
    p->mcd = dst_mcd_options_default();
    p->mcd.eps = fmax(opt->mcd_eps_ratio * sc->eps, PLN_MIN_MCD_EPS_M);

    if (sc->rest_start && sc->rest_end && n < 6) {
        pln_problem_destroy(p);
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "%s: spline: rest at both ends needs spans + degree >= 6 (have %d)",
                          sc->path, n);
    }
    st = pln_bspline_create(&p->bs, k, n, T, err, err_size);
    if (st != PLN_OK) {
        pln_problem_destroy(p);
        return st;
    }
    p->active = calloc((size_t)p->n_active, sizeof *p->active);
    p->q_init = calloc((size_t)p->n_joints, sizeof *p->q_init);
    p->var_of = calloc((size_t)p->n_active * n, sizeof *p->var_of);
    p->ctrl_fixed = calloc((size_t)p->n_active * n, sizeof *p->ctrl_fixed);
    p->lb = calloc((size_t)p->n_active * n, sizeof *p->lb);
    p->ub = calloc((size_t)p->n_active * n, sizeof *p->ub);
    p->H = calloc((size_t)n * n, sizeof *p->H);
    if (!p->active || !p->q_init || !p->var_of || !p->ctrl_fixed || !p->lb || !p->ub || !p->H) {
        pln_problem_destroy(p);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }

    /* the initial posture: the robot's, then the scenario's overrides */
    for (int j = 0; j < p->n_joints; ++j) p->q_init[j] = robot->joints[j].initial;
    for (int i = 0; i < sc->n_initial; ++i) {
        p->q_init[sc->initial_joint[i].index] = sc->initial_value[i];
    }
    for (int j = 0; j < p->n_joints; ++j) {
        const PlnJoint *jt = &robot->joints[j];
        if (p->q_init[j] < jt->lower || p->q_init[j] > jt->upper) {
            pln_errorf(PLN_ERR_INVALID, err, err_size,
                       "%s: initial posture: %s = %g rad is outside its limits [%g, %g]", sc->path,
                       jt->name, p->q_init[j], jt->lower, jt->upper);
            pln_problem_destroy(p);
            return PLN_ERR_INVALID;
        }
    }

    /* variables: fixed head (the start), free middle, tied tail (rest at the end) */
    head = sc->rest_start ? 3 : 1;
    for (int a = 0; a < p->n_active; ++a) {
        const PlnJoint *jt;
        p->active[a] = sc->active[a].index;
        jt = &robot->joints[p->active[a]];
        for (int i = 0; i < n; ++i) {
            int v;
            p->ctrl_fixed[a * n + i] = p->q_init[p->active[a]];
            if (i < head) {
                p->var_of[a * n + i] = -1;
                continue;
            }
            if (sc->rest_end && i > n - 3) {
                v = p->var_of[a * n + n - 3]; /* tied to the first of the last three */
            } else {
                /* the scenario's margin inside the limits (limits.position_margin), at most
                 * half the range: a joint narrower than two margins is held at its middle */
                double m = fmin(sc->limit_margin, 0.5 * (jt->upper - jt->lower));
                v = p->n_vars++;
                p->lb[v] = jt->lower + m;
                p->ub[v] = jt->upper - m;
            }
            p->var_of[a * n + i] = v;
        }
    }

    /* eq. P22: a budget that grows with the variables, unless the scenario sets one (SLSQP
     * builds its quasi-Newton model one step at a time, so a larger problem needs more
     * evaluations to converge) */
    p->max_evaluations = PLN_SIP_DEFAULT_EVALS_PER_VAR * p->n_vars;
    if (p->max_evaluations < PLN_SIP_DEFAULT_EVALS) p->max_evaluations = PLN_SIP_DEFAULT_EVALS;
    if (sc->max_iterations > 0) p->max_evaluations = sc->max_iterations;
    order = sc->cost == PLN_COST_JERK ? PLN_BSPLINE_COST_JERK : PLN_BSPLINE_COST_ACCEL;
    st = pln_bspline_cost_matrix(p->bs, (PlnBsplineCostOrder)order, p->H);
    if (st != PLN_OK) {
        pln_problem_destroy(p);
        return pln_errorf(st, err, err_size, "%s: cost: %s needs a spline degree above %d",
                          sc->path, order == 3 ? "jerk" : "acceleration", order - 1);
    }
    /* normalised so that the objective's Hessian has unit mean diagonal per variable
     * (docs/math/planner.md eq. P2): SLSQP's first quasi-Newton model is the identity,
     * so this makes its first steps the right size whatever the duration, spans or
     * order of the cost */
    {
        double diag = 0.0;
        for (int i = 0; i < n; ++i) diag += p->H[i * n + i];
        diag /= n;
        p->cost_scale = sc->cost_weight / fmax(2.0 * diag, PLN_MIN_COST_HESSIAN);
    }

    p->moving = calloc((size_t)(p->n_joints > 0 ? p->n_joints : 1), 1);
    if (p->moving == NULL) {
        pln_problem_destroy(p);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    for (int a = 0; a < p->n_active; ++a) p->moving[p->active[a]] = 1;
    p->dynamics = sc->dynamics;
    if (p->dynamics) {
        /* whole-body dynamics replaces the static balance (docs/math/planner.md 4c) */
        st = pln_dynrows_setup(p, err, err_size);
        if (st != PLN_OK) {
            pln_problem_destroy(p);
            return st;
        }
    } else if (sc->balance) {
        st = support_polygon(p, err, err_size);
        if (st != PLN_OK) {
            pln_problem_destroy(p);
            return st;
        }
    }

    /* the pairs' shapes, also without collision rows: certification measures them */
    if (sc->n_pairs > 0) {
        st = pln_geom_create(&p->geom, robot, sc, err, err_size);
        if (st != PLN_OK) {
            pln_problem_destroy(p);
            return st;
        }
    }
    p->mcd_stop_above = sc->eps + PLN_MESH_STOP_MARGINS * PLN_SIP_COLLISION_MARGIN_M;
    /* mesh MCD costs grow fast as its error shrinks: the optimiser's rows take a coarser
     * one (they only become more conservative), certification keeps its own */
    if (sc->geometry == PLN_GEOMETRY_MESH) p->mcd.eps = fmax(p->mcd.eps, PLN_MESH_OPT_MCD_EPS_M);

    /* rows */
    max_rows = 2 * p->n_active * n + 2 * sc->n_tasks + 2 * sc->n_tasks + 6 * sc->n_tasks +
               PLN_STANCE_ROWS * p->n_stance * (p->n_intervals * PLN_STANCE_SAMPLES + 3) +
               PLN_FLOOR_ROWS * p->n_swing * (p->n_intervals * PLN_STANCE_SAMPLES + 3) +
               (p->collision ? sc->n_pairs * p->n_intervals : 0) + p->n_edges * p->n_intervals +
               p->n_dyn * p->n_intervals;
    p->rows = calloc((size_t)(max_rows > 0 ? max_rows : 1), sizeof *p->rows);
    p->row_tol = calloc((size_t)(max_rows > 0 ? max_rows : 1), sizeof *p->row_tol);
    p->stance_time = calloc((size_t)(p->n_stance * (p->n_intervals * PLN_STANCE_SAMPLES + 3) + 1),
                            sizeof *p->stance_time);
    p->swing_time = calloc((size_t)(p->n_swing * (p->n_intervals * PLN_STANCE_SAMPLES + 3) + 1),
                           sizeof *p->swing_time);
    if (p->rows == NULL || p->row_tol == NULL || p->stance_time == NULL || p->swing_time == NULL) {
        pln_problem_destroy(p);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    for (int a = 0; a < p->n_active; ++a) {
        /* the velocity rows aim at limits.velocity_scale of the limit */
        double vmax = robot->joints[p->active[a]].velocity_max *
                      (sc->velocity_scale > 0.0 ? sc->velocity_scale : 1.0);
        for (int i = 0; i + 1 < n; ++i) {
            int v0 = p->var_of[a * n + i], v1 = p->var_of[a * n + i + 1];
            if ((v0 < 0 && v1 < 0) || v0 == v1) continue; /* constant difference */
            add_row(p, PLN_ROW_VELOCITY, a, 2 * i, 1.0 / vmax, PLN_ROW_TOL);
            add_row(p, PLN_ROW_VELOCITY, a, 2 * i + 1, 1.0 / vmax, PLN_ROW_TOL);
        }
    }
    /* eq. P11b: the task box rows, unless stance rows hold a foot (a floating base) or the
     * rounds carry a trust box (mesh collision rows, sec. 7), where they cost evaluations
     * (docs/math/planner.md sec. 3, "Task box rows") */
    const int task_box = p->n_stance == 0 && !(p->collision && sc->geometry == PLN_GEOMETRY_MESH);
    for (int t = 0; t < sc->n_tasks; ++t) {
        const PlnTask *task = &sc->tasks[t];
        if (task->type == PLN_TASK_JOINT) {
            add_row(p, PLN_ROW_JOINT_TASK, t, 0, 1.0, PLN_ROW_TOL);
            add_row(p, PLN_ROW_JOINT_TASK, t, 1, 1.0, PLN_ROW_TOL);
        } else {
            add_row(p, PLN_ROW_POSITION_TASK, t, 0, 1.0, PLN_ROW_TOL);
            if (task->has_orientation) add_row(p, PLN_ROW_ORIENTATION_TASK, t, 0, 1.0, PLN_ROW_TOL);
            for (int k = 0; task_box && k < 6; ++k) {
                add_row(p, PLN_ROW_TASK_BOX, t, k, 1.0, PLN_ROW_TOL);
            }
        }
    }
    /* stance feet: PLN_STANCE_SAMPLES times per constraint interval of the phase, its ends
     * included */
    for (int si = 0; si < p->n_stance; ++si) {
        const PlnPhaseGeom *g = &p->phases[p->stance[si].phase];
        int ns = p->n_intervals * PLN_STANCE_SAMPLES;
        for (int k = 0; k <= ns; ++k) {
            double t = (double)k * T / ns;
            if (t < g->t0 - PLN_PHASE_TIME_TOL_S || t > g->t1 + PLN_PHASE_TIME_TOL_S) continue;
            p->stance_time[p->n_stance_times] = fmin(fmax(t, g->t0), g->t1);
            for (int k2 = 0; k2 < PLN_STANCE_ROWS; ++k2) {
                add_row(p, PLN_ROW_STANCE, si, p->n_stance_times, 1.0, PLN_ROW_TOL);
            }
            ++p->n_stance_times;
        }
        /* the phase's own ends, when they fall between samples */
        for (int e = 0; e < 2; ++e) {
            double t = e == 0 ? g->t0 : g->t1, step = T / ns;
            double off = fabs(t / step - floor(t / step + 0.5)) * step;
            if (off <= PLN_PHASE_TIME_TOL_S) continue;
            p->stance_time[p->n_stance_times] = t;
            for (int k2 = 0; k2 < PLN_STANCE_ROWS; ++k2) {
                add_row(p, PLN_ROW_STANCE, si, p->n_stance_times, 1.0, PLN_ROW_TOL);
            }
            ++p->n_stance_times;
        }
    }
    /* lifted soles: the same samples over their phase, a row per corner (eq. P13c) */
    for (int si = 0; si < p->n_swing; ++si) {
        const PlnPhaseGeom *g = &p->phases[p->swing[si].phase];
        int ns = p->n_intervals * PLN_STANCE_SAMPLES;
        for (int k = 0; k <= ns + 2; ++k) {
            /* samples k = 0..ns, then the phase's own ends when they fall between them */
            double step = T / ns, t = k <= ns ? (double)k * step : (k == ns + 1 ? g->t0 : g->t1);
            if (k <= ns && (t < g->t0 - PLN_PHASE_TIME_TOL_S || t > g->t1 + PLN_PHASE_TIME_TOL_S)) continue;
            if (k > ns && fabs(t / step - floor(t / step + 0.5)) * step <= PLN_PHASE_TIME_TOL_S) continue;
            p->swing_time[p->n_swing_times] = fmin(fmax(t, g->t0), g->t1);
            for (int k2 = 0; k2 < PLN_FLOOR_ROWS; ++k2) {
                add_row(p, PLN_ROW_FLOOR, si, p->n_swing_times, 1.0, PLN_ROW_TOL);
            }
            ++p->n_swing_times;
        }
    }
    p->row_collision = p->m;
    if (p->collision) {
        for (int pr = 0; pr < sc->n_pairs; ++pr) {
            for (int i = 0; i < p->n_intervals; ++i) {
                add_row(p, PLN_ROW_COLLISION, pr, i, 1.0, PLN_ROW_TOL);
            }
        }
    }
    p->row_balance = p->m;
    for (int e = 0; e < p->n_edges; ++e) {
        for (int i = 0; i < p->n_intervals; ++i) add_row(p, PLN_ROW_BALANCE, e, i, 1.0, PLN_ROW_TOL);
    }
    p->row_dynamics = p->m;
    if (p->n_dyn > 0) {
        p->dyn_row = malloc((size_t)p->n_dyn * p->n_intervals * sizeof *p->dyn_row);
        if (p->dyn_row == NULL) {
            pln_problem_destroy(p);
            return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
        }
        for (int d = 0; d < p->n_dyn; ++d) {
            for (int i = 0; i < p->n_intervals; ++i) {
                int applies = pln_dynrows_applies(p, d, i);
                p->dyn_row[(size_t)d * p->n_intervals + i] = applies ? p->m : -1;
                if (applies) add_row(p, PLN_ROW_DYNAMICS, d, i, 1.0, PLN_ROW_TOL);
            }
        }
    }
    p->n_dyn_rows = p->m - p->row_dynamics;
    if (sc->cost == PLN_COST_TORQUE2) {
        st = torque2_scale(p, err, err_size);
        if (st != PLN_OK) {
            pln_problem_destroy(p);
            return st;
        }
    }
    *out = p;
    return PLN_OK;
}

PlnStatus pln_problem_work_create(const PlnProblem *p, PlnProblemWork **out, char *err,
                                  size_t err_size)
{
    PlnProblemWork *w = calloc(1, sizeof *w);
    int nj = p->n_joints, deg = p->scenario->degree;
    int n_results = p->scenario->n_pairs * p->n_intervals;
    PlnStatus st;
    *out = NULL;
    if (w == NULL) return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    w->ctrl = calloc((size_t)p->n_active * p->n_ctrl, sizeof *w->ctrl);
    w->grad_ctrl = calloc((size_t)p->n_active * p->n_ctrl, sizeof *w->grad_ctrl);
    w->q = calloc((size_t)nj, sizeof *w->q);
    w->coef = calloc((size_t)nj * (deg + 1), sizeof *w->coef);
    w->coef_sub = calloc((size_t)nj * (deg + 1), sizeof *w->coef_sub);
    w->q_err = calloc((size_t)nj, sizeof *w->q_err);
    w->jac_a = calloc((size_t)3 * nj, sizeof *w->jac_a);
    w->jac_b = calloc((size_t)3 * nj, sizeof *w->jac_b);
    w->mcd = calloc((size_t)(n_results > 0 ? n_results : 1), sizeof *w->mcd);
    w->mcd_status = calloc((size_t)(n_results > 0 ? n_results : 1), sizeof *w->mcd_status);
    w->exact = calloc((size_t)(n_results > 0 ? n_results : 1), sizeof *w->exact);
    w->bal_bound = calloc((size_t)(p->n_edges > 0 ? p->n_edges * p->n_intervals : 1), sizeof *w->bal_bound);
    w->bal_sample = calloc((size_t)(p->n_edges > 0 ? p->n_edges * p->n_intervals : 1), sizeof *w->bal_sample);
    w->bal_t = calloc((size_t)(p->n_edges > 0 ? p->n_edges * p->n_intervals : 1), sizeof *w->bal_t);
    w->geom_cache = calloc((size_t)(p->scenario->n_pairs > 0 ? p->scenario->n_pairs : 1), sizeof *w->geom_cache);
    for (int k = 0; w->geom_cache != NULL && k < p->scenario->n_pairs; ++k) pln_geom_cache_reset(&w->geom_cache[k]);
    w->interval_cache = calloc((size_t)(n_results > 0 ? n_results : 1), sizeof *w->interval_cache);
    for (int k = 0; w->interval_cache != NULL && k < n_results; ++k) pln_geom_cache_reset(&w->interval_cache[k]);
    if (!w->geom_cache || !w->interval_cache || !w->ctrl || !w->grad_ctrl || !w->q || !w->coef || !w->coef_sub || !w->q_err || !w->jac_a ||
        !w->jac_b || !w->mcd || !w->mcd_status || !w->exact || !w->bal_bound || !w->bal_sample || !w->bal_t) {
        pln_problem_work_destroy(w);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    st = pln_kin_create(p->robot, &w->kin, err, err_size);
    if (st == PLN_OK) st = pln_dynrows_work_create(p, w, err, err_size);
    if (st == PLN_OK) st = pln_linkmotion_create(p->robot, PLN_TM_MAX_DEGREE, &w->lm, err, err_size);
    if (st == PLN_OK && p->geom != NULL) st = pln_geom_sweep_init(&w->sweep, p->geom, err, err_size);
    if (st == PLN_OK && p->geom != NULL && p->geom->distance == PLN_DISTANCE_PHONG) {
        w->phong_ws = dst_phong_workspace_create(0);
        w->phong_cache = calloc((size_t)(n_results > 0 ? n_results : 1), sizeof *w->phong_cache);
        w->n_phong_cache = w->phong_cache != NULL ? n_results : 0;
        if (w->phong_ws == NULL || w->phong_cache == NULL) st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory (PhongDist workspace)");
    }
    if (st != PLN_OK) {
        pln_problem_work_destroy(w);
        return st;
    }
    *out = w;
    return PLN_OK;
}

void pln_problem_work_destroy(PlnProblemWork *w)
{
    if (w == NULL) return;
    free(w->ctrl);
    free(w->grad_ctrl);
    free(w->q);
    free(w->coef);
    free(w->coef_sub);
    free(w->q_err);
    free(w->jac_a);
    free(w->jac_b);
    free(w->mcd);
    free(w->exact);
    free(w->mcd_status);
    free(w->bal_bound);
    free(w->bal_sample);
    free(w->bal_t);
    free(w->dump_a);
    free(w->dump_b);
    free(w->geom_cache);
    free(w->interval_cache);
    pln_geom_sweep_destroy(&w->sweep);
    dst_phong_workspace_destroy(w->phong_ws);
    for (int k = 0; k < w->n_phong_cache; ++k) dst_phong_cache_destroy(w->phong_cache[k]);
    free(w->phong_cache);
    pln_dynrows_work_destroy(w);
    for (int k = 0; k < w->n_helpers; ++k) pln_problem_work_destroy(w->helpers[k]);
    free(w->helpers);
    pln_kin_destroy(w->kin);
    pln_linkmotion_destroy(w->lm);
    free(w);
}

PlnStatus pln_problem_work_set_threads(const PlnProblem *p, PlnProblemWork *w, int threads,
                                       char *err, size_t err_size)
{
    if (threads == PLN_THREADS_AUTO) {
        threads = pln_cpu_count();
        if (threads > PLN_THREADS_AUTO_MAX) threads = PLN_THREADS_AUTO_MAX;
        if (threads > p->n_intervals) threads = p->n_intervals > 0 ? p->n_intervals : 1;
    }
    if (threads < 1 || threads > PLN_MAX_THREADS) {
        return pln_errorf(PLN_ERR_USAGE, err, err_size, "threads: %d is outside [1, %d]", threads,
                          PLN_MAX_THREADS);
    }
    if (w->n_helpers > 0) return pln_errorf(PLN_ERR_INTERNAL, err, err_size, "threads set twice");
    if (threads == 1) return PLN_OK;
    w->helpers = calloc((size_t)threads - 1, sizeof *w->helpers);
    if (w->helpers == NULL) return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    for (int k = 0; k < threads - 1; ++k) {
        PlnStatus st = pln_problem_work_create(p, &w->helpers[k], err, err_size);
        if (st != PLN_OK) return st;
        ++w->n_helpers;
    }
    return PLN_OK;
}

PlnStatus pln_problem_work_set_dump(const PlnProblem *p, PlnProblemWork *w, FILE *dump, char *err,
                                    size_t err_size)
{
    size_t n = (size_t)(p->scenario->n_pairs * p->n_intervals > 0 ? p->scenario->n_pairs * p->n_intervals : 1);
    if (p->scenario->geometry != PLN_GEOMETRY_CAPSULE) {
        return pln_errorf(PLN_ERR_USAGE, err, err_size,
                          "--dump-queries records capsule queries; %s has collision.geometry: %s",
                          p->scenario->path, pln_geometry_string(p->scenario->geometry));
    }
    w->dump_a = calloc(n, sizeof *w->dump_a);
    w->dump_b = calloc(n, sizeof *w->dump_b);
    if (w->dump_a == NULL || w->dump_b == NULL) {
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory for the query dump");
    }
    w->dump = dump;
    fprintf(dump, "# hrpplan MCD queries v1: evaluation pair interval t0 t1, then capsule A and B,\n"
                  "# each: radius, p0 and p1 as (degree err c0x c0y c0z ... ) in s = (t - t0)/(t1 - t0)\n");
    for (int pr = 0; pr < p->scenario->n_pairs; ++pr) {
        fprintf(dump, "# pair %d: %s %s\n", pr, p->scenario->pairs[pr].a.name, p->scenario->pairs[pr].b.name);
    }
    return PLN_OK;
}

void pln_problem_ctrl(const PlnProblem *p, const double *x, double *ctrl)
{
    for (int i = 0; i < p->n_active * p->n_ctrl; ++i) {
        ctrl[i] = p->var_of[i] >= 0 ? x[p->var_of[i]] : p->ctrl_fixed[i];
    }
}

void pln_problem_x_from_ctrl(const PlnProblem *p, const double *ctrl, double *x)
{
    for (int i = 0; i < p->n_active * p->n_ctrl; ++i) {
        if (p->var_of[i] >= 0) x[p->var_of[i]] = ctrl[i];
    }
}

void pln_problem_initial_x(const PlnProblem *p, double *x)
{
    pln_problem_x_from_ctrl(p, p->ctrl_fixed, x);
}

/* adds the gradient with respect to control points into the gradient wrt x */
static void ctrl_grad_to_x(const PlnProblem *p, const double *gctrl, double *gx)
{
    for (int i = 0; i < p->n_active * p->n_ctrl; ++i) {
        if (p->var_of[i] >= 0) gx[p->var_of[i]] += gctrl[i];
    }
}

PlnStatus pln_problem_joints_at(const PlnProblem *p, const double *ctrl, double t, double *q)
{
    double N[PLN_BSPLINE_MAX_ORDER];
    int first, k1 = p->scenario->degree + 1;
    PlnStatus st = pln_bspline_basis(p->bs, t, 0, N, &first);
    if (st != PLN_OK) return st;
    memcpy(q, p->q_init, (size_t)p->n_joints * sizeof *q);
    for (int a = 0; a < p->n_active; ++a) {
        double v = 0.0;
        for (int m = 0; m < k1; ++m) v += N[m] * ctrl[a * p->n_ctrl + first + m];
        q[p->active[a]] = v;
    }
    return PLN_OK;
}

PlnStatus pln_problem_state_at(const PlnProblem *p, const double *ctrl, double t, double *q,
                               double *qd, double *qdd)
{
    double N[3 * PLN_BSPLINE_MAX_ORDER];
    int first, k1 = p->scenario->degree + 1;
    PlnStatus st = pln_bspline_basis(p->bs, t, 2, N, &first);
    if (st != PLN_OK) return st;
    memcpy(q, p->q_init, (size_t)p->n_joints * sizeof *q);
    memset(qd, 0, (size_t)p->n_joints * sizeof *qd);
    memset(qdd, 0, (size_t)p->n_joints * sizeof *qdd);
    for (int a = 0; a < p->n_active; ++a) {
        const double *P = ctrl + a * p->n_ctrl + first;
        double v[3] = {0.0, 0.0, 0.0};
        for (int r = 0; r < 3; ++r) {
            for (int m = 0; m < k1; ++m) v[r] += N[r * k1 + m] * P[m];
        }
        q[p->active[a]] = v[0];
        qd[p->active[a]] = v[1];
        qdd[p->active[a]] = v[2];
    }
    return PLN_OK;
}

double pln_problem_cost(const PlnProblem *p, PlnProblemWork *w, const double *x, double *grad)
{
    double c;
    pln_problem_ctrl(p, x, w->ctrl);
    if (p->scenario->cost == PLN_COST_TORQUE2) {
        /* eq. P14: the torque integral (torque2_scale: eq. P2 on its Gauss-Newton Hessian
         * at the start) plus `smoothing` times the normalised acceleration cost */
        char err[256];
        double a, *ga = grad ? w->grad_ctrl : NULL;
        const int nc = p->n_active * p->n_ctrl;
        double sm = p->scenario->cost_smoothing * p->cost_scale;
        a = sm > 0.0 ? pln_bspline_cost(p->bs, p->H, w->ctrl, p->n_active, ga) : 0.0;
        if (ga != NULL) {
            for (int i = 0; i < nc; ++i) ga[i] = sm > 0.0 ? ga[i] * sm / p->torque2_scale : 0.0;
        }
        if (pln_dynrows_torque2(p, w, &c, ga, NULL, err, sizeof err) != PLN_OK) {
            return NAN; /* the optimiser stops on a NaN cost */
        }
        if (grad != NULL) {
            memset(grad, 0, (size_t)p->n_vars * sizeof *grad);
            for (int i = 0; i < nc; ++i) w->grad_ctrl[i] *= p->torque2_scale;
            ctrl_grad_to_x(p, w->grad_ctrl, grad);
        }
        return (c - p->torque2_offset) * p->torque2_scale + a * sm;
    }
    c = pln_bspline_cost(p->bs, p->H, w->ctrl, p->n_active, grad ? w->grad_ctrl : NULL);
    if (grad != NULL) {
        memset(grad, 0, (size_t)p->n_vars * sizeof *grad);
        for (int i = 0; i < p->n_active * p->n_ctrl; ++i) w->grad_ctrl[i] *= p->cost_scale;
        ctrl_grad_to_x(p, w->grad_ctrl, grad);
    }
    return c * p->cost_scale;
}

int pln_problem_cost_hessian(const PlnProblem *p, double *hess)
{
    const int n = p->n_vars, nc = p->n_ctrl;
    if (p->scenario->cost == PLN_COST_TORQUE2) return 0;
    memset(hess, 0, (size_t)n * (size_t)n * sizeof *hess);
    /* f = cost_scale sum_j P_j^T H P_j with P_j = S_j x + fixed (eq. P1-P2): each pair of
     * free control points of one joint adds 2 cost_scale H_ab at their variables (several
     * control points can share a variable: the rest at the end) */
    for (int j = 0; j < p->n_active; ++j) {
        for (int a = 0; a < nc; ++a) {
            int va = p->var_of[j * nc + a];
            if (va < 0) continue;
            for (int b = 0; b < nc; ++b) {
                int vb = p->var_of[j * nc + b];
                if (vb >= 0) hess[(size_t)va * (size_t)n + (size_t)vb] += 2.0 * p->cost_scale * p->H[a * nc + b];
            }
        }
    }
    return 1;
}

void pln_problem_interval(const PlnProblem *p, int i, double *t0, double *t1)
{
    int sub = p->scenario->subdivisions, span = i / sub, k = i % sub;
    double a, b;
    pln_bspline_span_interval(p->bs, span, &a, &b);
    *t0 = a + (b - a) * (double)k / sub;
    *t1 = k + 1 == sub ? b : a + (b - a) * (double)(k + 1) / sub;
}

PlnStatus pln_problem_interval_motion(const PlnProblem *p, PlnProblemWork *w, const double *ctrl,
                                      int i, char *err, size_t err_size)
{
    return pln_problem_interval_motion_part(p, w, ctrl, i, 0.0, 1.0, err, err_size);
}

PlnStatus pln_problem_interval_motion_part(const PlnProblem *p, PlnProblemWork *w,
                                           const double *ctrl, int i, double a, double b,
                                           char *err, size_t err_size)
{
    int deg = p->scenario->degree, d1 = deg + 1, sub = p->scenario->subdivisions;
    int span = i / sub, k = i % sub;
    const double *coef = w->coef;

    if (!(a >= 0.0 && a < b && b <= 1.0)) {
        return pln_errorf(PLN_ERR_INTERNAL, err, err_size, "interval part [%g, %g] of %d", a, b, i);
    }
    /* joint polynomials in s on the span: splines of the moving joints, constants else */
    memset(w->coef, 0, (size_t)p->n_joints * d1 * sizeof *w->coef);
    memset(w->q_err, 0, (size_t)p->n_joints * sizeof *w->q_err);
    for (int j = 0; j < p->n_joints; ++j) w->coef[j * d1] = p->q_init[j];
    for (int a_ = 0; a_ < p->n_active; ++a_) {
        double *c = w->coef + p->active[a_] * d1, mag = 0.0;
        pln_bspline_span_poly(p->bs, ctrl + a_ * p->n_ctrl, span, c);
        /* the conversion from control points rounds: bound it (docs/math/bspline.md) */
        for (int m = 0; m < d1; ++m) mag += fabs(c[m]);
        for (int m = 0; m < d1; ++m) mag += fabs(ctrl[a_ * p->n_ctrl + span + m]);
        w->q_err[p->active[a_]] = PLN_SPAN_POLY_ROUND_REL * mag;
    }
    /* a part of the span: restrict the polynomials, their rounding bounded */
    if (sub > 1 || a > 0.0 || b < 1.0) {
        double s0 = (k + a) / sub, s1 = (k + b) / sub;
        for (int j = 0; j < p->n_joints; ++j) {
            w->q_err[j] += pln_linkmotion_restrict_poly(w->coef + j * d1, deg, s0, s1,
                                                        w->coef_sub + j * d1);
        }
        coef = w->coef_sub;
    }
    {
        double t0, t1;
        pln_problem_interval(p, i, &t0, &t1);
        w->coef_used = coef;
        w->h_used = (t1 - t0) * (b - a);
    }
    return pln_linkmotion_compute(w->lm, p->robot, coef, deg, w->q_err, err, err_size);
}

void pln_problem_pair_capsules(const PlnProblem *p, const PlnProblemWork *w, int pair,
                               DstMovingCapsule *a, DstMovingCapsule *b)
{
    pln_geom_pair_capsules(p->geom, w->lm, pair, a, b);
}

/* adds to grad row `grow` the gradient of sign * dir . (x_A - x_B) with respect to x,
 * where x_A, x_B are the body points local_a of link la and local_b of link lb (lb < 0:
 * fixed in the world) at time t; the forward kinematics at t must be in w->kin */
static void point_gradient_row(const PlnProblem *p, PlnProblemWork *w, double t, int la,
                               const double local_a[3], int lb, const double local_b[3],
                               const double dir[3], double sign, double *grow)
{
    double N[PLN_BSPLINE_MAX_ORDER];
    int first, nj = p->n_joints, k1 = p->scenario->degree + 1;
    pln_kin_jacobian_point(w->kin, p->robot, la, local_a, w->jac_a);
    if (lb >= 0) pln_kin_jacobian_point(w->kin, p->robot, lb, local_b, w->jac_b);
    pln_bspline_basis(p->bs, t, 0, N, &first);
    for (int a = 0; a < p->n_active; ++a) {
        int j = p->active[a];
        double dq = 0.0;
        for (int d = 0; d < 3; ++d) {
            double col = w->jac_a[d * nj + j] - (lb >= 0 ? w->jac_b[d * nj + j] : 0.0);
            dq += dir[d] * col;
        }
        dq *= sign;
        for (int m = 0; m < k1; ++m) {
            int v = p->var_of[a * p->n_ctrl + first + m];
            if (v >= 0) grow[v] += dq * N[m];
        }
    }
}

/* adds to grad row `grow` sign times the gradient of a PhongDist with respect to x
 * (docs/math/planner.md eq. P18-P19): the shape frames' origin velocities and angular
 * velocities from the link Jacobians at the forward kinematics in w->kin (time t), in
 * ph's world gradient, chained through the B-spline basis at t. lb < 0: B is an obstacle
 * and does not move. local_a, local_b: the shape frames' origins in their links. */
static void phong_gradient_row(const PlnProblem *p, PlnProblemWork *w, double t, int la,
                               const double local_a[3], int lb, const double local_b[3],
                               const PlnPairPhong *ph, double sign, double *grow)
{
    double N[PLN_BSPLINE_MAX_ORDER], r[3], rxg[3];
    int first, nj = p->n_joints, k1 = p->scenario->degree + 1;
    const double *gt = ph->grad_t, *gw = ph->grad_w;
    /* grad_t . (omega_A x r) = omega_A . (r x grad_t), r = x_B - x_A */
    for (int d = 0; d < 3; ++d) r[d] = ph->origin_b[d] - ph->origin_a[d];
    rxg[0] = r[1] * gt[2] - r[2] * gt[1];
    rxg[1] = r[2] * gt[0] - r[0] * gt[2];
    rxg[2] = r[0] * gt[1] - r[1] * gt[0];
    pln_bspline_basis(p->bs, t, 0, N, &first);
    for (int pass = 0; pass < 2; ++pass) {
        /* pass 0: the linear Jacobians (jac_a, jac_b), pass 1: the rotational ones */
        if (pass == 0) {
            pln_kin_jacobian_point(w->kin, p->robot, la, local_a, w->jac_a);
            if (lb >= 0) pln_kin_jacobian_point(w->kin, p->robot, lb, local_b, w->jac_b);
        } else {
            pln_kin_jacobian_rot(w->kin, p->robot, la, w->jac_a);
            if (lb >= 0) pln_kin_jacobian_rot(w->kin, p->robot, lb, w->jac_b);
        }
        for (int a = 0; a < p->n_active; ++a) {
            int j = p->active[a];
            double dq = 0.0;
            for (int d = 0; d < 3; ++d) {
                double ja = w->jac_a[d * nj + j], jb = lb >= 0 ? w->jac_b[d * nj + j] : 0.0;
                /* linear: grad_t . (v_B - v_A); angular: grad_w . (omega_B - omega_A)
                 * - (r x grad_t) . omega_A */
                dq += pass == 0 ? gt[d] * (jb - ja) : gw[d] * (jb - ja) - rxg[d] * ja;
            }
            dq *= sign;
            for (int m = 0; m < k1; ++m) {
                int v = p->var_of[a * p->n_ctrl + first + m];
                if (v >= 0) grow[v] += dq * N[m];
            }
        }
    }
}

void pln_problem_pair_distance(const PlnProblem *p, const PlnKinWork *kin, int pair,
                               PlnPairDistance *out)
{
    pln_geom_pair_distance(p->geom, kin, pair, NULL, out);
}

DstStatus pln_problem_pair_mcd(const PlnProblem *p, PlnProblemWork *w, int pair,
                               DstMcdMethod method, double t0, double t1,
                               const DstMcdOptions *opt, double stop_above, DstMcdResult *res,
                               DstMovingCapsule *a_out, DstMovingCapsule *b_out)
{
    return pln_geom_pair_mcd(p->geom, w->lm, pair, method, t0, t1, opt, stop_above,
                             &w->geom_cache[pair], &w->sweep, res, a_out, b_out);
}

/* a world point's coordinates in a link's frame, at the poses in kin */
static void world_to_link(const PlnKinWork *kin, int link, const double x[3], double local[3])
{
    const double *R = pln_kin_link_rot(kin, link), *o = pln_kin_link_pos(kin, link);
    double d[3] = {x[0] - o[0], x[1] - o[1], x[2] - o[2]};
    for (int i = 0; i < 3; ++i) local[i] = R[i] * d[0] + R[3 + i] * d[1] + R[6 + i] * d[2];
}

/* one moving point of a dumped query: degree, err, then 3 (degree + 1) coefficients */
static void dump_point(FILE *f, const DstPolyPoint *pt)
{
    fprintf(f, " %d %.17g", pt->degree, pt->err);
    for (int d = 0; d <= pt->degree; ++d) {
        fprintf(f, " %.17g %.17g %.17g", pt->c[d][0], pt->c[d][1], pt->c[d][2]);
    }
}

/* appends every MCD query of the last evaluation, in pair-interval order (so the file is
 * the same whatever the number of threads); format in docs/FILE_FORMATS.md */
static PlnStatus dump_queries(const PlnProblem *p, PlnProblemWork *w, char *err, size_t err_size)
{
    ++w->dump_evaluation;
    for (int pr = 0; pr < p->scenario->n_pairs; ++pr) {
        for (int i = 0; i < p->n_intervals; ++i) {
            size_t k = (size_t)pr * p->n_intervals + i;
            double t0, t1;
            pln_problem_interval(p, i, &t0, &t1);
            fprintf(w->dump, "%ld %d %d %.17g %.17g %.17g", w->dump_evaluation, pr, i, t0, t1,
                    w->dump_a[k].radius);
            dump_point(w->dump, &w->dump_a[k].p0);
            dump_point(w->dump, &w->dump_a[k].p1);
            fprintf(w->dump, " %.17g", w->dump_b[k].radius);
            dump_point(w->dump, &w->dump_b[k].p0);
            dump_point(w->dump, &w->dump_b[k].p1);
            fputc('\n', w->dump);
        }
    }
    if (ferror(w->dump)) return pln_errorf(PLN_ERR_IO, err, err_size, "writing the query dump failed");
    return PLN_OK;
}

/* adds to grow the gradient of -d, d the static distance dx of pair at time t (postures in
 * w->kin): the witness points as body points of their links (any point of the witness
 * segment gives the same n . J, eq. P5) */
static void witness_gradient_row(const PlnProblem *p, PlnProblemWork *w, const PlnPair *pair,
                                 double t, const PlnPairDistance *dx, double *grow)
{
    double la[3], lb[3] = {0, 0, 0};
    world_to_link(w->kin, pair->a.index, dx->pA, la);
    if (!pair->b_is_obstacle) world_to_link(w->kin, pair->b.index, dx->pB, lb);
    point_gradient_row(p, w, t, pair->a.index, la, pair->b_is_obstacle ? -1 : pair->b.index, lb,
                       dx->n, -1.0, grow);
}

/* The collision rows of intervals first, first + step, ... computed with the scratch
 * workspace `scratch` (its own link motion and kinematics) on the control points of `w`;
 * results go into w's rows, w->mcd and w->exact (disjoint entries per interval, so
 * threads can share them). Thesis eq. 6.1 per pair and interval; the gradient is the
 * envelope gradient at the witness time (docs/math/planner.md eq. P4-P5). */
static PlnStatus collision_rows(const PlnProblem *p, PlnProblemWork *w, PlnProblemWork *scratch,
                                int first, int step, double *c, double *grad, char *err,
                                size_t err_size)
{
    const int n = p->n_vars;
    const double *ctrl = w->ctrl;
    double kin_t = NAN; /* the time of the postures in scratch->kin (pairs share t_min) */
    PlnStatus st = PLN_OK;
    for (int i = first; i < p->n_intervals && st == PLN_OK; i += step) {
        double t0, t1;
        pln_problem_interval(p, i, &t0, &t1);
        /* the Taylor-model motion of every link over the interval */
        st = pln_problem_interval_motion(p, scratch, ctrl, i, err, err_size);
        /* every pair's MCD over the interval, timed as one block (a clock read around each
         * query took ~3 % of a capsule plan, most queries ending on their swept boxes) */
        if (st == PLN_OK) {
            double start = pln_clock_s();
            for (int pr = 0; pr < p->scenario->n_pairs; ++pr) {
                size_t k = (size_t)pr * p->n_intervals + i;
                w->mcd_status[k] = pln_geom_pair_mcd(p->geom, scratch->lm, pr, p->method, t0, t1, &p->mcd,
                                                     p->mcd_stop_above, &w->interval_cache[k], &scratch->sweep,
                                                     &w->mcd[k], w->dump_a ? &w->dump_a[k] : NULL,
                                                     w->dump_b ? &w->dump_b[k] : NULL);
            }
            scratch->mcd_seconds += pln_clock_s() - start;
            scratch->mcd_calls += p->scenario->n_pairs;
        }
        /* then each pair's row. With a working set, a gradient only for the rows in it and
         * for the interval's largest row outside it (the first of equals), written after
         * the pairs: the aggregate row (the largest outside the set, eq. P7) is one of
         * those; the others' gradients are neither read nor written (pln_problem.h) */
        /* how the candidate's gradient is still to be made: AGG_DONE (written in the loop),
         * AGG_WITNESS (witness_gradient_row below), AGG_ZERO (a constant row) */
        enum { AGG_DONE, AGG_WITNESS, AGG_ZERO } agg_grad = AGG_DONE;
        int agg = -1, agg_pr = -1;
        double agg_t = 0.0;
        PlnPairDistance agg_dx;
        const int defer = grad != NULL && w->work_rows != NULL;
        memset(&agg_dx, 0, sizeof agg_dx);
        for (int pr = 0; pr < p->scenario->n_pairs && st == PLN_OK; ++pr) {
            const PlnPair *pair = &p->scenario->pairs[pr];
            size_t k = (size_t)pr * p->n_intervals + i;
            DstMcdResult *res = &w->mcd[k];
            PlnPairDistance dx;
            DstStatus ds = w->mcd_status[k];
            int row = p->row_collision + (int)k;
            /* 1: the row's gradient is left to the end of the interval (it may be the
             * interval's largest outside the set) */
            const int outside = defer && !w->work_rows[row];
            if (ds == DST_INVALID_INPUT) {
                st = pln_errorf(PLN_ERR_INTERNAL, err, err_size,
                                "distance of %s - %s on [%g, %g] s failed: %s", pair->a.name,
                                pair->b.name, t0, t1, dst_status_string(ds));
                break;
            }
            if (ds == DST_FAILED) {
                /* Taylor models too wide for a frame (PLN_SIP_UNCERTIFIED_M): the exact
                 * distance at the middle, below */
                memset(res, 0, sizeof *res);
                res->status = DST_FAILED;
                res->t_min = 0.5 * (t0 + t1);
            }
            if (ds == DST_ABOVE_LIMIT) {
                /* a query that stopped (a mesh query inside its search, any other kind
                 * on its swept boxes, eq. P16): the pair is certified farther than
                 * p->mcd_stop_above, far from joining the working set. The row is the
                 * constant eps - stop_above with a zero gradient: its certified lower
                 * bound would jump with where the query stopped and make the aggregate
                 * row (the largest row outside the working set) erratic, and the
                 * constant stays below every row the queries do not stop, whose value
                 * exceeds it (docs/math/planner.md sec. 7) */
                w->exact[k] = res->lower;
                c[row] = p->eps - p->mcd_stop_above;
                if (outside && (agg < 0 || c[row] > c[agg])) {
                    agg = row;
                    agg_grad = AGG_ZERO;
                }
                continue;
            }
            /* the exact distance at the witness time: the forward kinematics of the
             * spline there (not the Taylor polynomial), whose gradient at fixed t* is
             * the envelope-theorem gradient of the MCD (DESIGN.md sec. 1) */
            if (!(res->t_min == kin_t)) {
                st = pln_problem_joints_at(p, ctrl, res->t_min, scratch->q);
                if (st == PLN_OK) st = pln_kin_forward(scratch->kin, p->robot, scratch->q);
                if (st != PLN_OK) {
                    st = pln_errorf(st, err, err_size, "kinematics at t = %g s failed", res->t_min);
                    break;
                }
                kin_t = res->t_min;
            }
            ds = pln_geom_pair_distance(p->geom, scratch->kin, pr, &w->interval_cache[k], &dx);
            if (ds == DST_INVALID_INPUT || ds == DST_FAILED) {
                st = pln_errorf(PLN_ERR_INTERNAL, err, err_size,
                                "distance of %s - %s at t = %g s failed: %s", pair->a.name,
                                pair->b.name, res->t_min, dst_status_string(ds));
                break;
            }
            w->exact[k] = dx.distance;
            if (res->status == DST_FAILED) {
                res->lower = dx.distance - PLN_SIP_UNCERTIFIED_M;
                res->upper = dx.distance;
                c[row] = p->eps + PLN_SIP_UNCERTIFIED_M - dx.distance;
                if (outside) {
                    if (agg < 0 || c[row] > c[agg]) {
                        agg = row, agg_grad = AGG_WITNESS, agg_pr = pr, agg_t = res->t_min, agg_dx = dx;
                    }
                } else if (grad != NULL) {
                    witness_gradient_row(p, scratch, pair, res->t_min, &dx, grad + (size_t)row * n);
                }
                continue;
            }
            /* a certified method constrains its lower bound, so that the certification
             * (lower bound at a finer eps) cannot fall below zero; golden-section search
             * has no bound and constrains the distance it found. With a frozen margin M
             * the row is eps + M - exact distance at t*: smooth, with an exact gradient
             * (docs/math/planner.md eq. P4-P5) */
            if (w->frozen_margin != NULL) {
                c[row] = p->eps + w->frozen_margin[row] - dx.distance;
            } else {
                c[row] = p->eps - (p->method == DST_MCD_GSS ? dx.distance : res->lower);
            }
            if (scratch->phong_ws != NULL && w->work_rows != NULL &&
                (w->work_rows[row] || (w->frozen_margin == NULL && c[row] > -PLN_SIP_COLLISION_MARGIN_M))) {
                /* collision.distance phong (docs/math/planner.md sec. 7b): a working row
                 * (or, in a fresh evaluation, one that may join the set, so that its
                 * frozen margin is measured the same way) takes PhongDist at t* for the
                 * distance, its gradient through the relative pose (eq. P18-P19); a query
                 * that does not converge leaves the Euclidean row of this evaluation */
                PlnPairPhong ph;
                double t_ph = pln_clock_s();
                ++scratch->phong_calls;
                /* the row's own DstPhongCache, made on its first query (interval i is this
                 * thread's alone in this evaluation, so the entry is too) */
                if (w->phong_cache != NULL && w->phong_cache[k] == NULL) w->phong_cache[k] = dst_phong_cache_create(0);
                pln_geom_pair_phong(p->geom, scratch->kin, pr, &w->interval_cache[k],
                                    w->phong_cache != NULL ? w->phong_cache[k] : NULL, grad != NULL,
                                    scratch->phong_ws, &ph);
                scratch->phong_seconds += pln_clock_s() - t_ph;
                if (ph.status == DST_SEPARATED || ph.status == DST_TOUCHING ||
                    ph.status == DST_PENETRATING) {
                    w->exact[k] = ph.distance;
                    if (w->frozen_margin != NULL) c[row] = p->eps + w->frozen_margin[row] - ph.distance;
                    if (outside) {
                        /* written here, its row cleared first */
                        memset(grad + (size_t)row * n, 0, (size_t)n * sizeof *grad);
                        if (agg < 0 || c[row] > c[agg]) agg = row, agg_grad = AGG_DONE;
                    }
                    if (grad != NULL) {
                        phong_gradient_row(p, scratch, res->t_min, pair->a.index,
                                           p->geom->links[pair->a.index].pos,
                                           pair->b_is_obstacle ? -1 : pair->b.index,
                                           pair->b_is_obstacle ? ph.origin_b
                                                               : p->geom->links[pair->b.index].pos,
                                           &ph, -1.0, grad + (size_t)row * n);
                    }
                    continue;
                }
                ++scratch->phong_fallbacks;
            }
            if (outside) {
                if (agg < 0 || c[row] > c[agg]) {
                    agg = row, agg_grad = AGG_WITNESS, agg_pr = pr, agg_t = res->t_min, agg_dx = dx;
                }
            } else if (grad != NULL) {
                witness_gradient_row(p, scratch, pair, res->t_min, &dx, grad + (size_t)row * n);
            }
        }
        if (st == PLN_OK && agg >= 0 && agg_grad != AGG_DONE) {
            /* the interval's largest row outside the set: its gradient, from a cleared row */
            memset(grad + (size_t)agg * n, 0, (size_t)n * sizeof *grad);
            if (agg_grad == AGG_WITNESS) {
                if (!(agg_t == kin_t)) {
                    st = pln_problem_joints_at(p, ctrl, agg_t, scratch->q);
                    if (st == PLN_OK) st = pln_kin_forward(scratch->kin, p->robot, scratch->q);
                    if (st != PLN_OK) {
                        st = pln_errorf(st, err, err_size, "kinematics at t = %g s failed", agg_t);
                        break;
                    }
                    kin_t = agg_t;
                }
                witness_gradient_row(p, scratch, &p->scenario->pairs[agg_pr], agg_t, &agg_dx,
                                     grad + (size_t)agg * n);
            }
        }
    }
    return st;
}

/* one thread's share of pln_problem_each_interval: the next interval not taken, until
 * none is left */
typedef struct IntervalShare {
    const PlnProblem *p;
    PlnProblemWork *w, *scratch;
    int n_items;
    atomic_int *next;
    PlnIntervalJob job;
    void *arg;
    PlnStatus st;
    char err[512];
} IntervalShare;

static void *interval_share(void *a)
{
    IntervalShare *j = a;
    j->st = PLN_OK;
    for (;;) {
        int i = atomic_fetch_add(j->next, 1);
        if (i >= j->n_items) break;
        j->st = j->job(j->p, j->w, j->scratch, i, j->arg, j->err, sizeof j->err);
        if (j->st != PLN_OK) break;
    }
    return NULL;
}

/* pln_problem_each_interval over n_items items (the intervals, and items of the job's own
 * after them) */
static PlnStatus each_item(const PlnProblem *p, PlnProblemWork *w, int n_items, PlnIntervalJob job,
                           void *arg, char *err, size_t err_size)
{
    int T = 1 + w->n_helpers;
    IntervalShare jobs[PLN_MAX_THREADS];
    pthread_t tid[PLN_MAX_THREADS];
    int started[PLN_MAX_THREADS] = {0};
    atomic_int next;
    PlnStatus st = PLN_OK;
    atomic_init(&next, 0);
    if (T > n_items) T = n_items;
    for (int k = 1; k < T; ++k) {
        PlnProblemWork *h = w->helpers[k - 1];
        /* the helper computes from the caller's motion and reads its borrowed settings */
        memcpy(h->ctrl, w->ctrl, (size_t)p->n_active * p->n_ctrl * sizeof *h->ctrl);
        h->frozen_margin = w->frozen_margin;
        h->work_rows = w->work_rows;
        jobs[k] = (IntervalShare){p, w, h, n_items, &next, job, arg, PLN_OK, ""};
        started[k] = pthread_create(&tid[k], NULL, interval_share, &jobs[k]) == 0;
        if (!started[k]) interval_share(&jobs[k]); /* no thread: do its share here */
    }
    jobs[0] = (IntervalShare){p, w, w, n_items, &next, job, arg, PLN_OK, ""};
    interval_share(&jobs[0]);
    if (jobs[0].st != PLN_OK) st = pln_errorf(jobs[0].st, err, err_size, "%s", jobs[0].err);
    for (int k = 1; k < T; ++k) {
        if (started[k]) pthread_join(tid[k], NULL);
        if (st == PLN_OK && jobs[k].st != PLN_OK) st = pln_errorf(jobs[k].st, err, err_size, "%s", jobs[k].err);
    }
    return st;
}

PlnStatus pln_problem_each_interval(const PlnProblem *p, PlnProblemWork *w, PlnIntervalJob job,
                                    void *arg, char *err, size_t err_size)
{
    return each_item(p, w, p->n_intervals, job, arg, err, err_size);
}

static PlnStatus kinematic_rows(const PlnProblem *p, PlnProblemWork *w, double *c, double *grad,
                                char *err, size_t err_size);

/* what interval_rows computes: the rows, their gradients (nullable), whether the dynamics
 * rows' values come along, and whether the rows before the collision rows do (one item
 * more, after the intervals) */
typedef struct IntervalRows {
    double *c, *grad;
    int dynamics, kinematic;
} IntervalRows;

/* the collision rows of interval i, then (with ir->dynamics) its dynamics rows' values on
 * the same scratch, whose link motion over the interval a fresh evaluation's dynamics
 * bounds then find made (a job of pln_problem_each_interval) */
static PlnStatus interval_rows(const PlnProblem *p, PlnProblemWork *w, PlnProblemWork *scratch, int i,
                               void *arg, char *err, size_t err_size)
{
    const IntervalRows *ir = arg;
    if (i == p->n_intervals) return kinematic_rows(p, scratch, ir->c, ir->grad, err, err_size);
    PlnStatus st = collision_rows(p, w, scratch, i, p->n_intervals, ir->c, ir->grad, err, err_size);
    if (st == PLN_OK && ir->dynamics) st = pln_dynrows_values(p, w, scratch, i, ir->c, err, err_size);
    return st;
}

/* every collision row (and with `dynamics` every dynamics row's value, pln_dynrows_values),
 * intervals spread over w's helper workspaces (each thread takes the next interval); each
 * row is computed the same way whatever T, so results are identical */
static PlnStatus collision_rows_all(const PlnProblem *p, PlnProblemWork *w, double *c,
                                    double *grad, int dynamics, int kinematic, char *err, size_t err_size)
{
    IntervalRows ir = {c, grad, dynamics, kinematic};
    PlnStatus st = each_item(p, w, p->n_intervals + (kinematic != 0), interval_rows, &ir, err, err_size);
    for (int k = 0; k < w->n_helpers; ++k) {
        PlnProblemWork *h = w->helpers[k];
        w->mcd_calls += h->mcd_calls;
        w->mcd_seconds += h->mcd_seconds;
        w->phong_calls += h->phong_calls;
        w->phong_fallbacks += h->phong_fallbacks;
        w->phong_seconds += h->phong_seconds;
        h->phong_seconds = 0.0;
        h->mcd_calls = 0;
        h->mcd_seconds = 0.0;
        h->phong_calls = 0;
        h->phong_fallbacks = 0;
    }
    if (st == PLN_OK && w->dump != NULL) st = dump_queries(p, w, err, err_size);
    return st;
}

/* Balance rows of every interval (docs/math/planner.md sec. 4b): the certified maximum of
 * n_e . com(t) - b_e over the interval from the Taylor model of the centre of mass, and
 * the maximum over PLN_BALANCE_SAMPLES exact samples with its gradient n_e . J_com(t*)
 * N(t*). The row is the certified bound, or with a frozen margin the sampled maximum
 * plus the margin. */
static PlnStatus balance_rows(const PlnProblem *p, PlnProblemWork *w, double *c, double *grad,
                              char *err, size_t err_size)
{
    const int n = p->n_vars, ne = p->n_edges, nj = p->n_joints, k1 = p->scenario->degree + 1;
    double gmax[PLN_MAX_EDGES], tmax[PLN_MAX_EDGES];
    PlnStatus st = PLN_OK;
    for (int i = 0; i < p->n_intervals && st == PLN_OK; ++i) {
        double t0, t1;
        const PlnTaylor *com;
        pln_problem_interval(p, i, &t0, &t1);
        /* the certified bound from the Taylor model of the centre of mass: a fresh
         * evaluation's row; a frozen one's rows are samples plus frozen margins (eq. P6) */
        if (w->frozen_margin == NULL) {
            st = pln_problem_interval_motion(p, w, w->ctrl, i, err, err_size);
            if (st != PLN_OK) break;
            com = pln_linkmotion_com(w->lm);
            if (com == NULL) return pln_errorf(PLN_ERR_INVALID, err, err_size, "balance: the robot has no mass");
            for (int e = 0; e < ne; ++e) {
                PlnTaylor g;
                double lo, hi;
                pln_taylor_scale(&g, &com[0], p->edge_n[e][0]);
                pln_taylor_axpy(&g, &g, p->edge_n[e][1], &com[1]);
                pln_taylor_bound(&g, &lo, &hi);
                w->bal_bound[e * p->n_intervals + i] = hi - p->edge_b[e];
            }
        }
        for (int e = 0; e < ne; ++e) {
            gmax[e] = -HUGE_VAL;
            tmax[e] = t0;
        }
        /* exact samples of the centre of mass */
        for (int sIdx = 0; sIdx < PLN_BALANCE_SAMPLES && st == PLN_OK; ++sIdx) {
            double t = t0 + (t1 - t0) * (double)sIdx / (PLN_BALANCE_SAMPLES - 1), cm[3];
            st = pln_problem_joints_at(p, w->ctrl, t, w->q);
            if (st == PLN_OK) st = pln_kin_forward(w->kin, p->robot, w->q);
            if (st == PLN_OK) st = pln_kin_com(w->kin, p->robot, cm);
            for (int e = 0; e < ne && st == PLN_OK; ++e) {
                double g = p->edge_n[e][0] * cm[0] + p->edge_n[e][1] * cm[1];
                if (g > gmax[e]) {
                    gmax[e] = g;
                    tmax[e] = t;
                }
            }
        }
        for (int e = 0; e < ne && st == PLN_OK; ++e) {
            size_t k = (size_t)e * p->n_intervals + i;
            int row = p->row_balance + (int)k;
            w->bal_sample[k] = gmax[e] - p->edge_b[e];
            w->bal_t[k] = tmax[e];
            c[row] = w->frozen_margin != NULL ? w->bal_sample[k] + w->frozen_margin[row]
                                              : w->bal_bound[k];
            if (grad != NULL) {
                double N[PLN_BSPLINE_MAX_ORDER];
                int first;
                st = pln_problem_joints_at(p, w->ctrl, tmax[e], w->q);
                if (st == PLN_OK) st = pln_kin_forward(w->kin, p->robot, w->q);
                if (st == PLN_OK) st = pln_kin_jacobian_com(w->kin, p->robot, w->jac_a);
                if (st != PLN_OK) break;
                pln_bspline_basis(p->bs, tmax[e], 0, N, &first);
                for (int a = 0; a < p->n_active; ++a) {
                    int j = p->active[a];
                    double dq = p->edge_n[e][0] * w->jac_a[j] + p->edge_n[e][1] * w->jac_a[nj + j];
                    for (int m = 0; m < k1; ++m) {
                        int v = p->var_of[a * p->n_ctrl + first + m];
                        if (v >= 0) grad[(size_t)row * n + v] += dq * N[m];
                    }
                }
            }
        }
    }
    return st;
}

/* position and orientation task rows starting at row r for task t */
/* The rows of a body point (link, point) meeting a world target at time t: the distance
 * row, and with Rt (nullable) the orientation row; rho and rot are what each may reach
 * (position tasks and stance feet, docs/math/planner.md eq. P11, P3). */
static PlnStatus target_rows(const PlnProblem *p, PlnProblemWork *w, double t, int link,
                             const double point[3], const double target[3], double rho,
                             const double *Rt, double rot, int r, double *c, double *grad)
{
    const int n = p->n_vars, nj = p->n_joints, k1 = p->scenario->degree + 1;
    double x[3], N[PLN_BSPLINE_MAX_ORDER];
    int first;
    PlnStatus st = pln_problem_joints_at(p, w->ctrl, t, w->q);
    if (st != PLN_OK) return st;
    st = pln_kin_forward(w->kin, p->robot, w->q);
    if (st != PLN_OK) return st;
    pln_kin_point(w->kin, link, point, x);
    if (grad != NULL) {
        pln_kin_jacobian_point(w->kin, p->robot, link, point, w->jac_a);
        pln_bspline_basis(p->bs, t, 0, N, &first);
    }
    /* distance to the target, smoothed at the target (docs/math/planner.md eq. P11):
     * c = sqrt(|e|^2 + d^2) - sqrt(rho^2 + d^2), e = x - target;
     * dc/dq_j = e . J_j / sqrt(|e|^2 + d^2) */
    {
        const double d2 = PLN_TASK_POS_SMOOTH_M * PLN_TASK_POS_SMOOTH_M;
        double e[3], len;
        for (int i = 0; i < 3; ++i) e[i] = x[i] - target[i];
        len = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2] + d2);
        c[r] = len - sqrt(rho * rho + d2);
        if (grad != NULL) {
            for (int a = 0; a < p->n_active; ++a) {
                int j = p->active[a];
                double dq = (e[0] * w->jac_a[j] + e[1] * w->jac_a[nj + j] +
                             e[2] * w->jac_a[2 * nj + j]) / len;
                for (int m = 0; m < k1; ++m) {
                    int v = p->var_of[a * p->n_ctrl + first + m];
                    if (v >= 0) grad[(size_t)r * n + v] += dq * N[m];
                }
            }
        }
    }
    if (Rt != NULL) {
        /* 1 - cos(angle) = (3 - tr(Rt^T R)) / 2; d tr(Rt^T R)/dq_j = a_j . w with
         * M = R Rt^T, w = (M23 - M32, M31 - M13, M12 - M21) (docs/math/planner.md eq. P3) */
        const double *R = pln_kin_link_rot(w->kin, link);
        double M[9], wv[3], tr = 0.0;
        int row = r + 1;
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
                M[3 * i + j] = 0.0;
                for (int l = 0; l < 3; ++l) M[3 * i + j] += R[3 * i + l] * Rt[3 * j + l];
            }
        }
        tr = M[0] + M[4] + M[8];
        c[row] = 0.5 * (3.0 - tr) - (1.0 - cos(rot));
        if (grad != NULL) {
            wv[0] = M[5] - M[7];
            wv[1] = M[6] - M[2];
            wv[2] = M[1] - M[3];
            pln_kin_jacobian_rot(w->kin, p->robot, link, w->jac_b);
            for (int a = 0; a < p->n_active; ++a) {
                int j = p->active[a];
                double dq = -0.5 * (wv[0] * w->jac_b[j] + wv[1] * w->jac_b[nj + j] +
                                    wv[2] * w->jac_b[2 * nj + j]);
                for (int m = 0; m < k1; ++m) {
                    int v = p->var_of[a * p->n_ctrl + first + m];
                    if (v >= 0) grad[(size_t)row * n + v] += dq * N[m];
                }
            }
        }
    }
    return PLN_OK;
}

static PlnStatus task_rows(const PlnProblem *p, PlnProblemWork *w, int t, int r, double *c,
                           double *grad)
{
    const PlnTask *task = &p->scenario->tasks[t];
    return target_rows(p, w, task->time, task->link.index, task->point, task->target,
                       PLN_TASK_INNER_FRACTION * task->tolerance,
                       task->has_orientation ? task->target_rot : NULL,
                       PLN_TASK_INNER_FRACTION * task->orientation_tolerance, r, c, grad);
}

/* Rows that hold a point of a link near a target, each coordinate on each side and linear
 * in the motion there (docs/math/planner.md eq. P13, P11b): at time t, the offset e = x -
 * target of the point and, when target_rot is not NULL, the rotation error e_R = vee(M -
 * M^T) / 2, M = R R_target^T (sin(angle) times the axis, IK4), within +-rho and +-rho_r:
 * rows r + 2k (e_k - tol) and r + 2k + 1 (-e_k - tol), 6 or 12 of them. de_R/dq_j = vee(A
 * - A^T) / 2 with A = [w_j] M, w_j the joint's angular-velocity column. */
static PlnStatus box_rows(const PlnProblem *p, PlnProblemWork *w, double t, int link, const double *point,
                          const double *target, const double *target_rot, double rho, double rho_r, int r,
                          double *c, double *grad)
{
    const int n = p->n_vars, nj = p->n_joints, k1 = p->scenario->degree + 1, nk = target_rot ? 6 : 3;
    double x[3], e[6], M[9], N[PLN_BSPLINE_MAX_ORDER];
    const double *R, *Rt = target_rot;
    int first;
    PlnStatus st = pln_problem_joints_at(p, w->ctrl, t, w->q);
    if (st != PLN_OK) return st;
    st = pln_kin_forward(w->kin, p->robot, w->q);
    if (st != PLN_OK) return st;
    pln_kin_point(w->kin, link, point, x);
    for (int i = 0; i < 3; ++i) e[i] = x[i] - target[i];
    if (Rt != NULL) {
        R = pln_kin_link_rot(w->kin, link);
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
                M[3 * i + j] = R[3 * i] * Rt[3 * j] + R[3 * i + 1] * Rt[3 * j + 1] + R[3 * i + 2] * Rt[3 * j + 2];
            }
        }
        e[3] = 0.5 * (M[7] - M[5]);
        e[4] = 0.5 * (M[2] - M[6]);
        e[5] = 0.5 * (M[3] - M[1]);
    }
    for (int k = 0; k < nk; ++k) {
        double tol = k < 3 ? rho : rho_r;
        c[r + 2 * k] = e[k] - tol;
        c[r + 2 * k + 1] = -e[k] - tol;
    }
    if (grad == NULL) return PLN_OK;
    pln_kin_jacobian_point(w->kin, p->robot, link, point, w->jac_a);
    if (Rt != NULL) pln_kin_jacobian_rot(w->kin, p->robot, link, w->jac_b);
    pln_bspline_basis(p->bs, t, 0, N, &first);
    for (int a = 0; a < p->n_active; ++a) {
        int j = p->active[a];
        double de[6];
        for (int i = 0; i < 3; ++i) de[i] = w->jac_a[i * nj + j];
        if (Rt != NULL) {
            const double wx = w->jac_b[j], wy = w->jac_b[nj + j], wz = w->jac_b[2 * nj + j];
            double A[9];
            /* A = [w] M, [w] = [[0, -wz, wy], [wz, 0, -wx], [-wy, wx, 0]] */
            for (int col = 0; col < 3; ++col) {
                A[col] = -wz * M[3 + col] + wy * M[6 + col];
                A[3 + col] = wz * M[col] - wx * M[6 + col];
                A[6 + col] = -wy * M[col] + wx * M[3 + col];
            }
            de[3] = 0.5 * (A[7] - A[5]);
            de[4] = 0.5 * (A[2] - A[6]);
            de[5] = 0.5 * (A[3] - A[1]);
        }
        for (int m = 0; m < k1; ++m) {
            int v = p->var_of[a * p->n_ctrl + first + m];
            if (v < 0) continue;
            for (int k = 0; k < nk; ++k) {
                grad[(size_t)(r + 2 * k) * n + v] += de[k] * N[m];
                grad[(size_t)(r + 2 * k + 1) * n + v] -= de[k] * N[m];
            }
        }
    }
    return PLN_OK;
}

/* a stance foot at one sample of its phase (docs/math/planner.md eq. P13): its sole
 * centre's offset from where it stands and its rotation error, 12 rows (box_rows), so
 * that SLSQP's linearisation bounds every direction in which the foot can slide or turn */
static PlnStatus stance_rows(const PlnProblem *p, PlnProblemWork *w, const PlnRow *row, int r,
                             double *c, double *grad)
{
    const PlnStance *s = &p->stance[row->index];
    return box_rows(p, w, p->stance_time[row->sub], s->link, s->point, s->target, s->target_rot,
                    PLN_STANCE_ROW_FRACTION * PLN_STANCE_POS_TOL_M,
                    sin(PLN_STANCE_ROW_FRACTION * PLN_STANCE_ROT_TOL_RAD), r, c, grad);
}

/* a position task's box (docs/math/planner.md eq. P11b): each coordinate of its offset
 * within +-rho, rho the task row's (eq. P11), 6 rows. The task row implies them (|e_k| <=
 * |e|); they make SLSQP's linearisation see the target where the task row's gradient
 * vanishes, at the target itself */
static PlnStatus task_box_rows(const PlnProblem *p, PlnProblemWork *w, int t, int r, double *c,
                               double *grad)
{
    const PlnTask *task = &p->scenario->tasks[t];
    return box_rows(p, w, task->time, task->link.index, task->point, task->target, NULL,
                    PLN_TASK_INNER_FRACTION * task->tolerance, 0.0, r, c, grad);
}

/* a lifted sole at one sample of its phase (docs/math/planner.md eq. P13c): each corner's
 * height z above the floor z_f of the phase, (z_f - rho) - z <= 0, rho =
 * PLN_STANCE_ROW_FRACTION PLN_STANCE_POS_TOL_M; dc/dq_j = -J_z,j of the corner */
static PlnStatus floor_rows(const PlnProblem *p, PlnProblemWork *w, const PlnRow *row, int r,
                            double *c, double *grad)
{
    const PlnSwing *s = &p->swing[row->index];
    const PlnSole *so = &p->robot->soles[s->sole];
    const int n = p->n_vars, nj = p->n_joints, k1 = p->scenario->degree + 1;
    const double t = p->swing_time[row->sub];
    const double floor_z = p->phases[s->phase].support.floor_z;
    const double rho = PLN_STANCE_ROW_FRACTION * PLN_STANCE_POS_TOL_M;
    double N[PLN_BSPLINE_MAX_ORDER];
    int first;
    PlnStatus st = pln_problem_joints_at(p, w->ctrl, t, w->q);
    if (st != PLN_OK) return st;
    st = pln_kin_forward(w->kin, p->robot, w->q);
    if (st != PLN_OK) return st;
    if (grad != NULL) pln_bspline_basis(p->bs, t, 0, N, &first);
    for (int k = 0; k < PLN_FLOOR_ROWS; ++k) {
        double local[3], x[3];
        pln_sole_corner(so, k, local);
        pln_kin_point(w->kin, s->link, local, x);
        c[r + k] = floor_z - rho - x[2];
        if (grad == NULL) continue;
        pln_kin_jacobian_point(w->kin, p->robot, s->link, local, w->jac_a);
        for (int a = 0; a < p->n_active; ++a) {
            double dz = w->jac_a[2 * nj + p->active[a]];
            for (int m = 0; m < k1; ++m) {
                int v = p->var_of[a * p->n_ctrl + first + m];
                if (v >= 0) grad[(size_t)(r + k) * n + v] -= dz * N[m];
            }
        }
    }
    return PLN_OK;
}

int pln_problem_row_is_task(const PlnProblem *p, int row)
{
    PlnRowKind k = p->rows[row].kind;
    return k == PLN_ROW_JOINT_TASK || k == PLN_ROW_POSITION_TASK || k == PLN_ROW_ORIENTATION_TASK ||
           k == PLN_ROW_TASK_BOX;
}

PlnStatus pln_problem_kinematic_rows(const PlnProblem *p, PlnProblemWork *w, const double *x,
                                     double *c, double *grad, char *err, size_t err_size)
{
    pln_problem_ctrl(p, x, w->ctrl);
    if (grad != NULL) memset(grad, 0, (size_t)p->row_collision * p->n_vars * sizeof *grad);
    return kinematic_rows(p, w, c, grad, err, err_size);
}

/* the rows before the collision rows of the spline in w->ctrl, into cleared gradient rows
 * (pln_problem_kinematic_rows; in pln_problem_constraints, an item of the threads' pass) */
static PlnStatus kinematic_rows(const PlnProblem *p, PlnProblemWork *w, double *c, double *grad,
                                char *err, size_t err_size)
{
    const int n = p->n_vars, nc = p->n_ctrl, k1 = p->scenario->degree + 1;
    PlnStatus st = PLN_OK;
    int r = 0;

    while (r < p->row_collision && st == PLN_OK) {
        const PlnRow *row = &p->rows[r];
        if (row->kind == PLN_ROW_VELOCITY) {
            /* +-scale_i (P_{i+1} - P_i) / v_max - 1 <= 0 */
            int a = row->index, i = row->sub / 2;
            double sign = row->sub % 2 == 0 ? 1.0 : -1.0;
            double s = pln_bspline_velocity_scale(p->bs, i) * row->scale;
            const double *P = w->ctrl + a * nc;
            c[r] = sign * s * (P[i + 1] - P[i]) - 1.0;
            if (grad != NULL) {
                int v0 = p->var_of[a * nc + i], v1 = p->var_of[a * nc + i + 1];
                if (v1 >= 0) grad[(size_t)r * n + v1] += sign * s;
                if (v0 >= 0) grad[(size_t)r * n + v0] -= sign * s;
            }
            ++r;
        } else if (row->kind == PLN_ROW_JOINT_TASK) {
            /* +-(q_j(t) - value) - tolerance <= 0 */
            const PlnTask *task = &p->scenario->tasks[row->index];
            double N[PLN_BSPLINE_MAX_ORDER], q = 0.0;
            int first, a = 0;
            while (p->active[a] != task->joint.index) ++a;
            pln_bspline_basis(p->bs, task->time, 0, N, &first);
            for (int m = 0; m < k1; ++m) q += N[m] * w->ctrl[a * nc + first + m];
            for (int side = 0; side < 2; ++side) {
                double sign = side == 0 ? 1.0 : -1.0;
                c[r + side] = sign * (q - task->value) - PLN_TASK_INNER_FRACTION * task->tolerance;
                if (grad == NULL) continue;
                for (int m = 0; m < k1; ++m) {
                    int v = p->var_of[a * nc + first + m];
                    if (v >= 0) grad[(size_t)(r + side) * n + v] += sign * N[m];
                }
            }
            r += 2;
        } else if (row->kind == PLN_ROW_POSITION_TASK) {
            st = task_rows(p, w, row->index, r, c, grad);
            r += p->scenario->tasks[row->index].has_orientation ? 2 : 1;
        } else if (row->kind == PLN_ROW_TASK_BOX) {
            st = task_box_rows(p, w, row->index, r, c, grad);
            r += 6;
        } else if (row->kind == PLN_ROW_STANCE) {
            st = stance_rows(p, w, row, r, c, grad);
            r += PLN_STANCE_ROWS;
        } else if (row->kind == PLN_ROW_FLOOR) {
            st = floor_rows(p, w, row, r, c, grad);
            r += PLN_FLOOR_ROWS;
        } else {
            st = pln_errorf(PLN_ERR_INTERNAL, err, err_size, "constraint row %d out of order", r);
        }
    }
    return st;
}

PlnStatus pln_problem_constraints(const PlnProblem *p, PlnProblemWork *w, const double *x,
                                  double *c, double *grad, char *err, size_t err_size)
{
    PlnStatus st;
    if (grad != NULL && w->work_rows == NULL) {
        memset(grad, 0, (size_t)p->m * p->n_vars * sizeof *grad);
    } else if (grad != NULL) {
        /* with a working set: every row cleared but the collision and dynamics rows
         * outside it, which their writers clear where they write one (the aggregate
         * candidates); runs of rows at once */
        for (int r = 0; r < p->m;) {
            int e = r;
            while (e < p->m && (w->work_rows[e] || (p->rows[e].kind != PLN_ROW_COLLISION &&
                                                    p->rows[e].kind != PLN_ROW_DYNAMICS))) {
                ++e;
            }
            if (e > r) memset(grad + (size_t)r * p->n_vars, 0, (size_t)(e - r) * p->n_vars * sizeof *grad);
            r = e + 1;
        }
    }
    /* the dynamics rows' values with the collision rows, interval by interval (one
     * parallel pass), and on several threads the rows before them as one item more; the
     * dynamics rows' gradients need every value first (the aggregate row) */
    if (p->collision && w->n_helpers > 0) {
        pln_problem_ctrl(p, x, w->ctrl); /* (the rows before were cleared above) */
        st = collision_rows_all(p, w, c, grad, p->n_dyn_rows > 0, 1, err, err_size);
    } else {
        st = pln_problem_kinematic_rows(p, w, x, c, grad, err, err_size);
        if (st == PLN_OK && p->collision) st = collision_rows_all(p, w, c, grad, p->n_dyn_rows > 0, 0, err, err_size);
    }
    if (st == PLN_OK && p->n_edges > 0) st = balance_rows(p, w, c, grad, err, err_size);
    if (st == PLN_OK && p->n_dyn_rows > 0) {
        st = p->collision ? pln_dynrows_gradients(p, w, c, grad, err, err_size)
                          : pln_dynrows_eval(p, w, c, grad, err, err_size);
    }
    return st;
}

void pln_problem_row_name(const PlnProblem *p, int row, char *buf, size_t size)
{
    const PlnRow *r = &p->rows[row];
    const PlnScenario *sc = p->scenario;
    switch (r->kind) {
    case PLN_ROW_VELOCITY:
        snprintf(buf, size, "velocity %s", p->robot->joints[p->active[r->index]].name);
        break;
    case PLN_ROW_JOINT_TASK:
        snprintf(buf, size, "tasks[%d] (joint %s at %g s)", r->index, sc->tasks[r->index].joint.name,
                 sc->tasks[r->index].time);
        break;
    case PLN_ROW_POSITION_TASK:
        snprintf(buf, size, "tasks[%d] (position of %s at %g s)", r->index,
                 sc->tasks[r->index].link.name, sc->tasks[r->index].time);
        break;
    case PLN_ROW_ORIENTATION_TASK:
        snprintf(buf, size, "tasks[%d] (orientation of %s at %g s)", r->index,
                 sc->tasks[r->index].link.name, sc->tasks[r->index].time);
        break;
    case PLN_ROW_TASK_BOX:
        snprintf(buf, size, "tasks[%d] (offset %c%c of %s at %g s)", r->index, r->sub % 2 == 0 ? '+' : '-',
                 "xyz"[r->sub / 2], sc->tasks[r->index].link.name, sc->tasks[r->index].time);
        break;
    case PLN_ROW_STANCE: {
        const PlnStance *st = &p->stance[r->index];
        snprintf(buf, size, "stance %s (support[%d]) at %g s", p->robot->links[st->link].name,
                 st->phase, p->stance_time[r->sub]);
        break;
    }
    case PLN_ROW_FLOOR: {
        const PlnSwing *sw = &p->swing[r->index];
        snprintf(buf, size, "floor under %s (support[%d]) at %g s", p->robot->links[sw->link].name,
                 sw->phase, p->swing_time[r->sub]);
        break;
    }
    case PLN_ROW_BALANCE: {
        double t0, t1;
        pln_problem_interval(p, r->sub, &t0, &t1);
        snprintf(buf, size, "balance edge %d [%.3f, %.3f] s", r->index, t0, t1);
        break;
    }
    case PLN_ROW_DYNAMICS: {
        double t0, t1;
        char name[128];
        pln_problem_interval(p, r->sub, &t0, &t1);
        pln_dynrows_name(p, r->index, name, sizeof name);
        snprintf(buf, size, "%s [%.3f, %.3f] s", name, t0, t1);
        break;
    }
    case PLN_ROW_COLLISION: {
        double t0, t1;
        pln_problem_interval(p, r->sub, &t0, &t1);
        snprintf(buf, size, "collision %s-%s [%.3f, %.3f] s", sc->pairs[r->index].a.name,
                 sc->pairs[r->index].b.name, t0, t1);
        break;
    }
    }
}
