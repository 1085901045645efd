/* pln_dynrows.c — the dynamic constraint rows (docs/math/planner.md sec. 4c,
 * docs/math/dynamics.md eq. D16-D27). */
#include "problem/pln_dynrows.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "base/pln_tolerance.h"
#include "model/pln_kin.h"

static const double GRAVITY[3] = {0.0, 0.0, -PLN_GRAVITY_MS2};

/* 2-D cross product of (b - a) and (c - a) */
static double cross2(const double a[2], const double b[2], const double c[2])
{
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

static int cmp_xy(const void *pa, const void *pb)
{
    const double *a = pa, *b = pb;
    if (a[0] != b[0]) return a[0] < b[0] ? -1 : 1;
    return (a[1] > b[1]) - (a[1] < b[1]);
}

int pln_hull2d(double (*pts)[2], int n, double (*hull)[2])
{
    int k = 0;
    qsort(pts, (size_t)n, sizeof *pts, cmp_xy);
    for (int i = 0; i < n; ++i) {
        while (k >= 2 && cross2(hull[k - 2], hull[k - 1], pts[i]) <= 0.0) --k;
        hull[k][0] = pts[i][0];
        hull[k][1] = pts[i][1];
        ++k;
    }
    for (int i = n - 2, lo = k + 1; i >= 0; --i) {
        while (k >= lo && cross2(hull[k - 2], hull[k - 1], pts[i]) <= 0.0) --k;
        hull[k][0] = pts[i][0];
        hull[k][1] = pts[i][1];
        ++k;
    }
    return k > 1 ? k - 1 : k;
}

void pln_phase_polygon(const PlnRobot *r, const double *const *rot, const double *const *pos,
                       double margin, PlnPhaseGeom *g)
{
    double pts[4 * PLN_MAX_PHASE_FEET][2], hull[4 * PLN_MAX_PHASE_FEET + 1][2];
    int np = 0, h;
    /* the hull of the soles' corners (eq. D16) */
    for (int k = 0; k < g->support.n_feet; ++k) {
        int foot = g->support.link[k];
        const PlnSole *sole = &r->soles[pln_robot_find_sole(r, foot)];
        for (int c = 0; c < 4; ++c) {
            const double *R = rot[k];
            double local[3], x[3];
            pln_sole_corner(sole, c, local);
            for (int d = 0; d < 3; ++d) {
                x[d] = pos[k][d] + R[3 * d] * local[0] + R[3 * d + 1] * local[1] + R[3 * d + 2] * local[2];
            }
            pts[np][0] = x[0];
            pts[np][1] = x[1];
            ++np;
        }
    }
    h = pln_hull2d(pts, np, hull);
    g->n_edges = h;
    for (int e = 0; e < h; ++e) {
        const double *a = hull[e], *b = hull[(e + 1) % h];
        double dx = b[0] - a[0], dy = b[1] - a[1], len = hypot(dx, dy);
        g->polygon[e][0] = a[0];
        g->polygon[e][1] = a[1];
        g->edge_n[e][0] = dy / len;
        g->edge_n[e][1] = -dx / len;
        g->edge_b[e] = g->edge_n[e][0] * a[0] + g->edge_n[e][1] * a[1] - margin;
    }
}

/* the row value of a ZMP edge, linear in W (eq. D17 times f_z): coefficients a[6] with
 * a . W = n_e . (f_z zmp) - b f_z, b moved PLN_DYN_ZMP_INNER_M further in (the optimiser
 * aims inside the margin the certificate checks, as tasks do) */
static void zmp_edge_coef(const PlnPhaseGeom *g, int e, double a[6])
{
    double nx = g->edge_n[e][0], ny = g->edge_n[e][1], z = g->support.floor_z;
    a[0] = ny;
    a[1] = -nx;
    a[2] = 0.0;
    a[3] = nx * z;
    a[4] = ny * z;
    a[5] = -(g->edge_b[e] - PLN_DYN_ZMP_INNER_M);
}

/* tau_j minus the soles' share (eq. D21, model/pln_contact.h) */
static double torque_with_contact(const PlnProblem *p, const PlnPhaseGeom *g,
                                  const PlnContactSplit *sp, int j, double tau0,
                                  const double z[3], const double pos[3], double *dW)
{
    return pln_contact_joint_torque(p->robot, &g->support, sp, j, tau0, z, pos, dW);
}

/* p + s R off: a point given in a frame (R row-major, origin p), s = +1, or the origin
 * that puts the frame's point off at p, s = -1 */
static void frame_point(const double R[9], const double p[3], double s, const double off[3], double out[3])
{
    for (int d = 0; d < 3; ++d) out[d] = p[d] + s * (R[3 * d] * off[0] + R[3 * d + 1] * off[1] + R[3 * d + 2] * off[2]);
}

/* support phase sp places its foot (`place`: sole centre x, y and yaw; eq. P13d): the foot
 * turns about the vertical to the yaw of its x axis, and its sole centre moves to (x, y)
 * at the height where it stood */
static void place_foot(const PlnRobot *r, const PlnSupportPhase *sp, double (*foot_rot)[9],
                       double (*foot_pos)[3])
{
    int so = pln_robot_find_sole(r, sp->place_foot.index);
    const double *off = r->soles[so].offset;
    double *R = foot_rot[so], *x = foot_pos[so], Rn[9], c[3];
    double dyaw = sp->place[2] - atan2(R[3], R[0]), cz = cos(dyaw), sz = sin(dyaw);
    frame_point(R, x, 1.0, off, c);
    for (int col = 0; col < 3; ++col) {
        Rn[col] = cz * R[col] - sz * R[3 + col];
        Rn[3 + col] = sz * R[col] + cz * R[3 + col];
        Rn[6 + col] = R[6 + col];
    }
    c[0] = sp->place[0];
    c[1] = sp->place[1];
    frame_point(Rn, c, -1.0, off, x);
    memcpy(R, Rn, sizeof Rn);
}

PlnStatus pln_dynrows_setup(PlnProblem *p, char *err, size_t err_size)
{
    double foot_rot[PLN_ROBOT_MAX_SOLES][9], foot_pos[PLN_ROBOT_MAX_SOLES][3];
    const PlnRobot *r = p->robot;
    const PlnScenario *sc = p->scenario;
    PlnKinWork *kin = NULL;
    PlnDynWork *dw = NULL;
    unsigned char *moves_below = NULL;
    double *nu = NULL, *tau = NULL;
    int nv = 6 + r->n_joints;
    PlnStatus st;

    p->weight = r->total_mass * PLN_GRAVITY_MS2;
    p->min_fz = PLN_DYN_MIN_FZ_REL * p->weight;
    p->n_phases = sc->n_phases;
    p->phases = calloc((size_t)sc->n_phases, sizeof *p->phases);
    p->stance = calloc((size_t)sc->n_phases * PLN_MAX_PHASE_FEET, sizeof *p->stance);
    p->swing = calloc((size_t)sc->n_phases * (r->n_soles > 0 ? r->n_soles : 1), sizeof *p->swing);
    /* FZ, FRICTION, ZMP edges and torques of every phase */
    p->dyn = calloc((size_t)(2 + sc->n_phases * (PLN_MAX_PHASE_EDGES + r->n_joints)), sizeof *p->dyn);
    moves_below = calloc((size_t)r->n_links, 1);
    nu = calloc((size_t)nv, sizeof *nu);
    tau = calloc((size_t)nv, sizeof *tau);
    if (!p->phases || !p->stance || !p->swing || !p->dyn || !moves_below || !nu || !tau) {
        st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
        goto done;
    }
    if (!(p->weight > 0.0)) {
        st = pln_errorf(PLN_ERR_INVALID, err, err_size, "%s: dynamics: the robot has no mass", sc->path);
        goto done;
    }
    st = pln_kin_create(r, &kin, err, err_size);
    if (st == PLN_OK) st = pln_dyn_create(r, &dw, err, err_size);
    if (st == PLN_OK) st = pln_kin_forward(kin, r, p->q_init);
    if (st != PLN_OK) goto done;
    for (int l = r->n_links - 1; l >= 0; --l) {
        int j = r->links[l].joint;
        if (j >= 0 && p->moving[j]) moves_below[l] = 1;
        if (moves_below[l] && r->links[l].parent >= 0) moves_below[r->links[l].parent] = 1;
    }
    /* where each sole's foot stands: at the initial posture, until a phase places it
     * elsewhere (`place`, sec. 4d eq. P13d) */
    for (int so = 0; so < r->n_soles && so < PLN_ROBOT_MAX_SOLES; ++so) {
        memcpy(foot_rot[so], pln_kin_link_rot(kin, r->soles[so].link), sizeof foot_rot[so]);
        memcpy(foot_pos[so], pln_kin_link_pos(kin, r->soles[so].link), sizeof foot_pos[so]);
    }
    for (int ph = 0; ph < sc->n_phases && st == PLN_OK; ++ph) {
        const PlnSupportPhase *sp = &sc->phases[ph];
        PlnPhaseGeom *g = &p->phases[ph];
        int feet[PLN_MAX_PHASE_FEET];
        const double *rot[PLN_MAX_PHASE_FEET], *pos[PLN_MAX_PHASE_FEET];
        g->t0 = sp->t0;
        g->t1 = sp->t1;
        if (sp->has_place) place_foot(r, sp, foot_rot, foot_pos);
        for (int k = 0; k < sp->n_feet; ++k) {
            int so_k = pln_robot_find_sole(r, sp->feet[k].index), carried = 0;
            feet[k] = sp->feet[k].index;
            rot[k] = foot_rot[so_k];
            pos[k] = foot_pos[so_k];
            /* a stance foot that moving joints carry (the model stands on another foot,
             * pln_robot_reroot) is held where it stands by the stance rows (sec. 4d) */
            for (int a = feet[k]; a >= 0 && !carried; a = r->links[a].parent) {
                int j = r->links[a].joint;
                if (j >= 0 && p->moving[j]) {
                    PlnStance *s = &p->stance[p->n_stance++];
                    const PlnSole *so = &r->soles[so_k];
                    s->phase = ph;
                    s->link = feet[k];
                    memcpy(s->point, so->offset, sizeof s->point);
                    frame_point(rot[k], pos[k], 1.0, so->offset, s->target);
                    memcpy(s->target_rot, rot[k], sizeof s->target_rot);
                    carried = 1;
                }
            }
            if (!carried && sp->has_place && sp->place_foot.index == feet[k]) {
                st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                                "%s:%d: support[%d].place: no moving joint carries %s, so it cannot "
                                "step (add its leg's joints to `joints`)",
                                sc->path, sp->place_line, ph, r->links[feet[k]].name);
                goto done;
            }
        }
        st = pln_contact_support(r, feet, sp->n_feet, rot, pos, PLN_SOLE_FLAT_TOL_M, &g->support,
                                 err, err_size);
        if (st != PLN_OK) {
            char inner[512];
            snprintf(inner, sizeof inner, "%s", err);
            st = pln_errorf(PLN_ERR_INVALID, err, err_size, "%s:%d: support[%d]: %s", sc->path,
                            sp->line, ph, inner);
            goto done;
        }
        /* a sole that moving joints carry and that is off the floor in this phase keeps
         * its corners above the floor (sec. 4d, eq. P13c) */
        for (int so = 0; so < r->n_soles; ++so) {
            int foot = r->soles[so].link, on = 0;
            for (int k = 0; k < sp->n_feet; ++k) on |= feet[k] == foot;
            for (int a = foot; a >= 0 && !on; a = r->links[a].parent) {
                int j = r->links[a].joint;
                if (j >= 0 && p->moving[j]) {
                    p->swing[p->n_swing++] = (PlnSwing){ph, foot, so};
                    break;
                }
            }
        }
        pln_phase_polygon(r, rot, pos, sc->zmp_margin, g);
        /* the shrunk polygon must keep its centre (for a sole: half its smaller side) */
        {
            double ctr[2] = {0.0, 0.0}, room = HUGE_VAL;
            int h = g->n_edges;
            for (int e = 0; e < h; ++e) {
                ctr[0] += g->polygon[e][0] / h;
                ctr[1] += g->polygon[e][1] / h;
            }
            for (int e = 0; e < h; ++e) {
                room = fmin(room, g->edge_b[e] + sc->zmp_margin - g->edge_n[e][0] * ctr[0] -
                                      g->edge_n[e][1] * ctr[1]);
            }
            if (!(sc->zmp_margin < room)) {
                st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                                "%s: dynamics.zmp_margin: %g m leaves no room inside the support "
                                "polygon of support[%d] (its centre is %.4f m from the nearest edge)",
                                sc->path, sc->zmp_margin, ph, room);
            }
        }
    }
    if (st != PLN_OK) goto done;
    /* the constraints */
    p->n_dyn = 0;
    p->dyn[p->n_dyn++] = (PlnDynCon){PLN_DYN_FZ, -1, 0, -1};
    p->dyn[p->n_dyn++] = (PlnDynCon){PLN_DYN_FRICTION, -1, 0, -1};
    for (int ph = 0; ph < p->n_phases; ++ph) {
        for (int e = 0; e < p->phases[ph].n_edges; ++e) {
            p->dyn[p->n_dyn++] = (PlnDynCon){PLN_DYN_ZMP, ph, e, -1};
        }
    }
    /* the posture at rest: static torques of the phases, and the start inside the polygon */
    {
        PlnDynState s;
        memset(&s, 0, sizeof s);
        memcpy(s.base_pos, r->base_pos, sizeof s.base_pos);
        memcpy(s.base_rot, r->base_rot, sizeof s.base_rot);
        s.q = p->q_init;
        st = pln_dyn_rnea(dw, r, &s, GRAVITY, tau);
        if (st != PLN_OK) {
            st = pln_errorf(st, err, err_size, "%s: dynamics: the initial posture", sc->path);
            goto done;
        }
    }
    for (int ph = 0; ph < p->n_phases && st == PLN_OK; ++ph) {
        const PlnPhaseGeom *g = &p->phases[ph];
        PlnContactSplit split;
        if (!pln_contact_split(&g->support, tau, p->min_fz, &split, 0)) {
            st = pln_errorf(PLN_ERR_INVALID, err, err_size, "%s: dynamics: the robot does not press on the floor",
                            sc->path);
            break;
        }
        if (g->t0 <= 0.0 && sc->rest_start) {
            for (int e = 0; e < g->n_edges; ++e) {
                double out = g->edge_n[e][0] * split.zmp[0] + g->edge_n[e][1] * split.zmp[1] - g->edge_b[e];
                if (out > 0.0) {
                    st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                                    "%s:%d: support[0]: the initial centre of mass is %.4f m outside "
                                    "the support polygon shrunk by zmp_margin %.3f m",
                                    sc->path, sc->phases[ph].line, out, sc->zmp_margin);
                    break;
                }
            }
        }
        for (int j = 0; j < r->n_joints && st == PLN_OK && sc->torque_limits; ++j) {
            int l = r->joints[j].link, on_path = 0;
            /* a free base's virtual joints carry nothing (kinematics.md K18) */
            if (r->joints[j].type == PLN_JOINT_FIXED || pln_robot_joint_is_virtual(r, j)) continue;
            for (int k = 0; k < g->support.n_feet; ++k) on_path |= pln_robot_link_below(r, g->support.link[k], l);
            if (moves_below[l] || (on_path && p->n_active > 0)) {
                p->dyn[p->n_dyn++] = (PlnDynCon){PLN_DYN_TORQUE, ph, 0, j};
                continue;
            }
            /* constant over the motion: check it once */
            {
                double v = torque_with_contact(p, g, &split, j, tau[6 + j], pln_kin_joint_axis(kin, l),
                                               pln_kin_link_pos(kin, l), NULL);
                if (fabs(v) > r->joints[j].effort_max) {
                    st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                                    "%s: dynamics: joint %s needs %.1f N m to hold the initial "
                                    "posture in support[%d], above its effort limit %.1f N m",
                                    sc->path, r->joints[j].name, fabs(v), ph, r->joints[j].effort_max);
                }
            }
        }
    }
done:
    pln_kin_destroy(kin);
    pln_dyn_destroy(dw);
    free(moves_below);
    free(nu);
    free(tau);
    return st;
}

int pln_dynrows_applies(const PlnProblem *p, int d, int i)
{
    const PlnDynCon *c = &p->dyn[d];
    double t0, t1;
    if (c->phase < 0) return 1;
    pln_problem_interval(p, i, &t0, &t1);
    return t1 > p->phases[c->phase].t0 + PLN_PHASE_TIME_TOL_S &&
           t0 < p->phases[c->phase].t1 - PLN_PHASE_TIME_TOL_S;
}

PlnStatus pln_dynrows_work_create(const PlnProblem *p, PlnProblemWork *w, char *err,
                                  size_t err_size)
{
    int nj = p->n_joints, nv = 6 + nj, nr = p->n_dyn_rows > 0 ? p->n_dyn_rows : 1;
    PlnStatus st;
    w->dyn_bound = calloc((size_t)nr, sizeof *w->dyn_bound);
    w->dyn_part = calloc((size_t)nr, sizeof *w->dyn_part);
    w->dyn_whole = calloc((size_t)nr, sizeof *w->dyn_whole);
    w->dyn_lower = calloc((size_t)nr, sizeof *w->dyn_lower);
    w->dyn_poly = calloc((size_t)nr, sizeof *w->dyn_poly);
    w->dyn_model = calloc((size_t)(PLN_CERT_REFINE_DEPTH + 1) * nr, sizeof *w->dyn_model);
    w->dyn_model_ok = calloc((size_t)(PLN_CERT_REFINE_DEPTH + 1) * nr, sizeof *w->dyn_model_ok);
    w->dyn_sample = calloc((size_t)nr, sizeof *w->dyn_sample);
    w->dyn_t = calloc((size_t)nr, sizeof *w->dyn_t);
    w->qd = calloc((size_t)nj, sizeof *w->qd);
    w->qdd = calloc((size_t)nj, sizeof *w->qdd);
    w->nu = calloc((size_t)nv, sizeof *w->nu);
    w->nudot = calloc((size_t)nv, sizeof *w->nudot);
    w->tau = calloc((size_t)nv, sizeof *w->tau);
    w->dtau_dq = calloc((size_t)nv * nv, sizeof *w->dtau_dq);
    w->dtau_dnu = calloc((size_t)nv * nv, sizeof *w->dtau_dnu);
    w->mass = calloc((size_t)nv * nv, sizeof *w->mass);
    w->t2_y = calloc((size_t)nv, sizeof *w->t2_y);
    w->t2_g = calloc((size_t)3 * nv, sizeof *w->t2_g);
    w->t2_geo = calloc((size_t)nv, sizeof *w->t2_geo);
    if (!w->t2_y || !w->t2_geo || !w->t2_g || !w->dyn_bound || !w->dyn_part || !w->dyn_whole || !w->dyn_lower || !w->dyn_poly || !w->dyn_model || !w->dyn_model_ok || !w->dyn_sample || !w->dyn_t || !w->qd || !w->qdd || !w->nu || !w->nudot ||
        !w->tau || !w->dtau_dq || !w->dtau_dnu || !w->mass) {
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    if (!p->dynamics) return PLN_OK;
    st = pln_dynmotion_create(p->robot, &w->dm, err, err_size);
    if (st == PLN_OK) st = pln_dyn_create(p->robot, &w->dw, err, err_size);
    return st;
}

void pln_dynrows_work_destroy(PlnProblemWork *w)
{
    pln_dynmotion_destroy(w->dm);
    pln_dyn_destroy(w->dw);
    free(w->dyn_bound);
    free(w->dyn_part);
    free(w->dyn_whole);
    free(w->dyn_lower);
    free(w->dyn_poly);
    free(w->dyn_model);
    free(w->dyn_model_ok);
    free(w->dyn_sample);
    free(w->dyn_t);
    free(w->qd);
    free(w->qdd);
    free(w->nu);
    free(w->nudot);
    free(w->tau);
    free(w->dtau_dq);
    free(w->dtau_dnu);
    free(w->mass);
    free(w->t2_y);
    free(w->t2_g);
    free(w->t2_geo);
}

/* eq. P6d: the fractions of interval i in which phase ph holds (ends meeting within
 * PLN_PHASE_TIME_TOL_S count as the interval's) */
void pln_dynrows_phase_cover(const PlnProblem *p, int ph, int i, double cover[2])
{
    double t0, t1, h;
    cover[0] = 0.0;
    cover[1] = 1.0;
    if (ph < 0) return;
    pln_problem_interval(p, i, &t0, &t1);
    h = t1 - t0;
    if (p->phases[ph].t0 > t0 + PLN_PHASE_TIME_TOL_S) cover[0] = fmin(1.0, (p->phases[ph].t0 - t0) / h);
    if (p->phases[ph].t1 < t1 - PLN_PHASE_TIME_TOL_S) cover[1] = fmax(0.0, (p->phases[ph].t1 - t0) / h);
}

/* eq. P6d: the parts of interval i to bound, [0, 1] first (floor force, friction) */
int pln_dynrows_covers(const PlnProblem *p, int i, double (*covers)[2])
{
    int n = 0;
    double t0, t1;
    pln_problem_interval(p, i, &t0, &t1);
    for (int ph = -1; ph < p->n_phases; ++ph) {
        double c[2];
        int seen = 0;
        if (ph >= 0 && !(t1 > p->phases[ph].t0 + PLN_PHASE_TIME_TOL_S && t0 < p->phases[ph].t1 - PLN_PHASE_TIME_TOL_S)) {
            continue;
        }
        pln_dynrows_phase_cover(p, ph, i, c);
        if (!(c[1] > c[0])) continue;
        for (int k = 0; k < n && !seen; ++k) seen = covers[k][0] == c[0] && covers[k][1] == c[1];
        if (seen) continue;
        covers[n][0] = c[0];
        covers[n][1] = c[1];
        ++n;
    }
    return n;
}

/* 1 when support phase ph (-1: the rows of every phase) holds on exactly the part `cover`
 * of interval i (every phase when cover is NULL) */
static int phase_in_cover(const PlnProblem *p, int ph, int i, const double *cover)
{
    double c[2];
    if (cover == NULL) return 1;
    pln_dynrows_phase_cover(p, ph, i, c);
    return c[0] == cover[0] && c[1] == cover[1];
}

/* The bound v of row constraint c from its model t over a stretch (eq. P6b), a value u
 * the row takes at the stretch's middle (a model's value there lies in c[0] + [lo, hi];
 * eq. P6c) and, when v0 is not NULL, the bound the polynomial part alone gives (the
 * model's remainder left out; eq. P6e). ok = 0: a torque row without a model (the floor
 * force not certified above f_min), PLN_DYN_UNCERTIFIED, whose *v0 is -inf (a model of
 * the stretch's own may have one). */
static void model_bound(const PlnProblem *p, const PlnDynCon *c, const PlnTaylor *t, int ok, double *v_out,
                        double *u_out, double *v0)
{
    const double g2 = p->weight * p->weight;
    double lo, hi, v = 0.0, u = -HUGE_VAL, pl = 0.0, ph = 0.0;
    if (v0 != NULL && ok) pln_taylor_poly_bound(t, &pl, &ph); /* (t is not read when !ok) */
    switch (c->kind) {
    case PLN_DYN_FZ:
        pln_taylor_bound(t, &lo, &hi);
        v = (p->min_fz - lo) / p->weight;
        u = (p->min_fz - (t->c[0] + t->hi)) / p->weight;
        if (v0 != NULL) *v0 = (p->min_fz - pl) / p->weight;
        break;
    case PLN_DYN_FRICTION:
        pln_taylor_bound(t, &lo, &hi);
        v = hi / g2;
        u = (t->c[0] + t->lo) / g2;
        if (v0 != NULL) *v0 = ph / g2;
        break;
    case PLN_DYN_ZMP:
        pln_taylor_bound(t, &lo, &hi);
        v = hi / p->weight;
        u = (t->c[0] + t->lo) / p->weight;
        if (v0 != NULL) *v0 = ph / p->weight;
        break;
    case PLN_DYN_TORQUE: {
        double tmax = p->robot->joints[c->joint].effort_max, b;
        if (!ok) {
            v = PLN_DYN_UNCERTIFIED;
            if (v0 != NULL) *v0 = -HUGE_VAL;
            break;
        }
        b = pln_taylor_bound_abs(t) / tmax;
        v = b * b - 1.0;
        {
            double bm = fmax(0.0, fabs(t->c[0]) - fmax(fabs(t->lo), fabs(t->hi))) / tmax;
            u = bm * bm - 1.0; /* |tau| at the middle is at least bm tmax */
        }
        if (v0 != NULL) {
            double b0 = fmax(fabs(pl), fabs(ph)) / tmax;
            *v0 = b0 * b0 - 1.0;
        }
        break;
    }
    }
    if (!isfinite(v)) v = PLN_DYN_UNCERTIFIED;
    if (!(u <= v)) u = -HUGE_VAL; /* NaN, or rounding above the bound */
    *v_out = v;
    *u_out = u;
}

/* The models of the dynamic rows of interval i that hold on the part `cover` (every row
 * when NULL) from the Taylor-model RNEA over the link motion last computed, into
 * mod[row - p->row_dynamics] (ok[] 0 for a torque row without one): the floor force f_z,
 * the friction polynomial, a ZMP edge's combination of W, a torque with the soles' share of
 * its phase (eq. D16-D21). */
static PlnStatus row_models(const PlnProblem *p, PlnProblemWork *w, int i, const double *cover, PlnTaylor *mod,
                            unsigned char *ok, char *err, size_t err_size)
{
    const PlnScenario *sc = p->scenario;
    const PlnTaylor *W;
    PlnTaylor ft;
    PlnStatus st = pln_dynmotion_compute(w->dm, p->robot, w->lm, w->coef_used, sc->degree, w->h_used,
                                         w->q_err, p->moving, PLN_GRAVITY_MS2, err, err_size);
    if (st != PLN_OK) return st;
    W = pln_dynmotion_wrench(w->dm);
    /* friction: f_x^2 + f_y^2 - mu^2 f_z^2 */
    {
        PlnTaylor a, b;
        pln_taylor_mul(&a, &W[3], &W[3]);
        pln_taylor_mul(&b, &W[4], &W[4]);
        pln_taylor_add(&ft, &a, &b);
        pln_taylor_mul(&a, &W[5], &W[5]);
        pln_taylor_axpy(&ft, &ft, -sc->mu * sc->mu, &a);
    }
    for (int ph = -1; ph < p->n_phases; ++ph) {
        int contact = -1;
        if (!phase_in_cover(p, ph, i, cover)) continue;
        for (int d = 0; d < p->n_dyn; ++d) {
            const PlnDynCon *c = &p->dyn[d];
            int row = p->dyn_row[(size_t)d * p->n_intervals + i], k;
            if (row < 0 || c->phase != ph) continue;
            k = row - p->row_dynamics;
            ok[k] = 1;
            switch (c->kind) {
            case PLN_DYN_FZ:
                mod[k] = W[5];
                break;
            case PLN_DYN_FRICTION:
                mod[k] = ft;
                break;
            case PLN_DYN_ZMP: {
                double a[6];
                zmp_edge_coef(&p->phases[ph], c->edge, a);
                pln_taylor_scale(&mod[k], &W[0], a[0]);
                for (int e = 1; e < 6; ++e) pln_taylor_axpy(&mod[k], &mod[k], a[e], &W[e]);
                break;
            }
            case PLN_DYN_TORQUE:
                if (contact < 0) contact = pln_dynmotion_contact(w->dm, p->robot, &p->phases[ph].support, p->min_fz, NULL);
                if (contact) mod[k] = pln_dynmotion_torque(w->dm)[c->joint];
                else ok[k] = 0;
                break;
            }
        }
    }
    return PLN_OK;
}

PlnStatus pln_dynrows_interval_bounds(const PlnProblem *p, PlnProblemWork *w, int i, const double *cover,
                                      double *worst, char *err, size_t err_size)
{
    double big = -HUGE_VAL;
    PlnStatus st = row_models(p, w, i, cover, w->dyn_model, w->dyn_model_ok, err, err_size);
    if (st != PLN_OK) return st;
    for (int d = 0; d < p->n_dyn; ++d) {
        int row = p->dyn_row[(size_t)d * p->n_intervals + i], k;
        if (row < 0 || !phase_in_cover(p, p->dyn[d].phase, i, cover)) continue;
        k = row - p->row_dynamics;
        model_bound(p, &p->dyn[d], &w->dyn_model[k], w->dyn_model_ok[k], &w->dyn_bound[k], &w->dyn_lower[k], NULL);
        big = fmax(big, w->dyn_bound[k]);
    }
    if (worst != NULL) *worst = big;
    return PLN_OK;
}

/* the value of dynamic row constraint d at one instant: W = tau[0..5]; split (nullable
 * unless TORQUE) of d's phase; z, pos of the joint's link for TORQUE; with dW/dT not
 * NULL, the derivatives d value / d W[6] and d value / d tau_j (TORQUE) */
static double row_value(const PlnProblem *p, const PlnDynCon *c, const double *tau,
                        const PlnContactSplit *split, const double *z, const double *pos,
                        double *dW, double *dT)
{
    const double *W = tau;
    double g2 = p->weight * p->weight;
    if (dW != NULL) memset(dW, 0, 6 * sizeof *dW);
    if (dT != NULL) *dT = 0.0;
    switch (c->kind) {
    case PLN_DYN_FZ:
        if (dW != NULL) dW[5] = -1.0 / p->weight;
        return (p->min_fz - W[5]) / p->weight;
    case PLN_DYN_FRICTION: {
        double mu2 = p->scenario->mu * p->scenario->mu;
        if (dW != NULL) {
            dW[3] = 2.0 * W[3] / g2;
            dW[4] = 2.0 * W[4] / g2;
            dW[5] = -2.0 * mu2 * W[5] / g2;
        }
        return (W[3] * W[3] + W[4] * W[4] - mu2 * W[5] * W[5]) / g2;
    }
    case PLN_DYN_ZMP: {
        double a[6], v = 0.0;
        zmp_edge_coef(&p->phases[c->phase], c->edge, a);
        for (int k = 0; k < 6; ++k) {
            v += a[k] * W[k];
            if (dW != NULL) dW[k] = a[k] / p->weight;
        }
        return v / p->weight;
    }
    case PLN_DYN_TORQUE: {
        double tmax = p->robot->joints[c->joint].effort_max, v;
        if (split == NULL) {
            /* the floor pulls (f_z <= 0): no share of it to give the soles. The floor
             * force row's value and gradient stand in, which push f_z back up */
            if (dW != NULL) dW[5] = -1.0 / p->weight;
            if (dT != NULL) *dT = 0.0;
            return (p->min_fz - W[5]) / p->weight;
        }
        v = torque_with_contact(p, &p->phases[c->phase], split, c->joint, tau[6 + c->joint], z, pos, dW);
        if (dW != NULL) {
            for (int k = 0; k < 6; ++k) dW[k] *= 2.0 * v / (tmax * tmax);
        }
        if (dT != NULL) *dT = 2.0 * v / (tmax * tmax);
        return v * v / (tmax * tmax) - 1.0;
    }
    }
    return 0.0;
}

/* the inverse dynamics of the spline at t into w->tau (and its derivatives when deriv),
 * with the base still; forward kinematics at t into w->kin */
static PlnStatus state_dynamics(const PlnProblem *p, PlnProblemWork *w, double t, int deriv)
{
    const PlnRobot *r = p->robot;
    PlnDynState s;
    PlnStatus st = pln_problem_state_at(p, w->ctrl, t, w->q, w->qd, w->qdd);
    if (st != PLN_OK) return st;
    memset(w->nu, 0, 6 * sizeof *w->nu);
    memset(w->nudot, 0, 6 * sizeof *w->nudot);
    memcpy(w->nu + 6, w->qd, (size_t)p->n_joints * sizeof *w->nu);
    memcpy(w->nudot + 6, w->qdd, (size_t)p->n_joints * sizeof *w->nudot);
    memset(&s, 0, sizeof s);
    memcpy(s.base_pos, r->base_pos, sizeof s.base_pos);
    memcpy(s.base_rot, r->base_rot, sizeof s.base_rot);
    s.q = w->q;
    s.nu = w->nu;
    s.nudot = w->nudot;
    st = pln_kin_forward(w->kin, r, w->q);
    if (st != PLN_OK) return st;
    if (deriv) return pln_dyn_rnea_derivatives(w->dw, r, &s, GRAVITY, w->tau, w->dtau_dq, w->dtau_dnu, w->mass);
    return pln_dyn_rnea(w->dw, r, &s, GRAVITY, w->tau);
}

/* does phase ph hold at time t */
static int phase_at(const PlnProblem *p, int ph, double t)
{
    return ph < 0 || (t >= p->phases[ph].t0 - PLN_PHASE_TIME_TOL_S && t <= p->phases[ph].t1 + PLN_PHASE_TIME_TOL_S);
}

/* 1 when a row's bound b above zero could change in a way that matters (eq. P6c): either
 * the row may hold (u, its value at the stretch's middle, is not above zero), or it is
 * broken in fact and its bound exceeds that value by more than PLN_DYN_REFINE_REL times it.
 * A row broken by far needs no sharper margin: the next round moves it by more than the
 * margin's excess. */
static int row_refinable(double b, double u)
{
    return b > 0.0 && !(u > 0.0 && b - u <= PLN_DYN_REFINE_REL * u);
}

/* 1 when the bound b of a row whose value at the stretch's middle is u needs a model of
 * the stretch's own (eq. P6e): b0, the bound of the polynomial part alone, lies further
 * than PLN_DYN_REMAINDER_REL |b| below it (the model's remainder, which a model of the
 * stretch shrinks, is a large part of the bound), or there is no model (b0 = -inf); a row
 * broken by far needs no sharper bound (row_refinable) */
static int row_needs_model(double b, double u, double b0)
{
    if (u > 0.0 && b - u <= PLN_DYN_REFINE_REL * u) return 0;
    return b - b0 > PLN_DYN_REMAINDER_REL * fabs(b);
}

/* 1 when a row of interval i holding on the part `cover` has a refinable bound
 * (w->dyn_bound, w->dyn_lower); with `remainder`, when one needs a model of the stretch's
 * own (row_needs_model, w->dyn_poly) */
static int interval_refinable(const PlnProblem *p, const PlnProblemWork *w, int i, const double *cover,
                              int remainder)
{
    for (int d = 0; d < p->n_dyn; ++d) {
        int row = p->dyn_row[(size_t)d * p->n_intervals + i], k;
        if (row < 0 || !phase_in_cover(p, p->dyn[d].phase, i, cover)) continue;
        k = row - p->row_dynamics;
        if (remainder ? row_needs_model(w->dyn_bound[k], w->dyn_lower[k], w->dyn_poly[k])
                      : row_refinable(w->dyn_bound[k], w->dyn_lower[k])) {
            return 1;
        }
    }
    return 0;
}

static int interval_violated(const PlnProblem *p, const PlnProblemWork *w, int i, const double *cover)
{
    return interval_refinable(p, w, i, cover, 0);
}

/* The bounds of the rows of interval i holding on the part `cover` over its stretch [u, v]
 * (fractions of the interval) from the models mod, ok of the stretch [pa, pb] that contains
 * it, each restricted to [u, v] (eq. 6.4 of taylor_models.md, P6e): into w->dyn_bound,
 * w->dyn_lower and w->dyn_poly */
static void restricted_bounds(const PlnProblem *p, PlnProblemWork *w, int i, const double *cover,
                              const PlnTaylor *mod, const unsigned char *ok, double pa, double pb, double u,
                              double v)
{
    double lo = fmax(-1.0, 2.0 * (u - pa) / (pb - pa) - 1.0), hi = fmin(1.0, 2.0 * (v - pa) / (pb - pa) - 1.0);
    for (int d = 0; d < p->n_dyn; ++d) {
        int row = p->dyn_row[(size_t)d * p->n_intervals + i], k;
        PlnTaylor t;
        if (row < 0 || !phase_in_cover(p, p->dyn[d].phase, i, cover)) continue;
        k = row - p->row_dynamics;
        if (ok[k]) pln_taylor_restrict(&t, &mod[k], lo, hi);
        else pln_taylor_const(&t, 0, 0.0); /* (no model: not read) */
        model_bound(p, &p->dyn[d], &t, ok[k], &w->dyn_bound[k], &w->dyn_lower[k], &w->dyn_poly[k]);
    }
}

/* The stretch [a, b] (fractions) of interval i, whose bounds break a row of the phases that
 * hold on exactly the part `cover` of it, bisected (eq. P6b, P6e). Each half is bounded first
 * by the models of `level` (w->dyn_model's slot, made on the stretch [pa, pb]) restricted to
 * it; a half whose rows are still broken where only the models' remainders break them gets
 * models of its own (its link motion and Taylor-model RNEA, slot depth + 1), each row keeping
 * the smaller of the two bounds, and passes them on. A half that still breaks a row is
 * bisected again down to PLN_CERT_REFINE_DEPTH levels, as the certificate does (pln_certify
 * dyn_refine); w->dyn_part takes each row's largest part bound. *moved: set when a link
 * motion other than the interval's was computed. */
static PlnStatus refine_bounds(const PlnProblem *p, PlnProblemWork *w, int i, double a, double b, int depth,
                               const double *cover, int level, double pa, double pb, int *moved, char *err,
                               size_t err_size)
{
    const size_t nr = (size_t)(p->n_dyn_rows > 0 ? p->n_dyn_rows : 1);
    double mid = 0.5 * (a + b);
    for (int half = 0; half < 2; ++half) {
        double u = half == 0 ? a : mid, v = half == 0 ? mid : b, qa = pa, qb = pb;
        int lv = level;
        PlnStatus st;
        restricted_bounds(p, w, i, cover, w->dyn_model + level * nr, w->dyn_model_ok + level * nr, pa, pb, u, v);
        if (interval_violated(p, w, i, cover) && interval_refinable(p, w, i, cover, 1)) {
            /* the half's own models (slot depth + 1: the slots above are its ancestors') */
            PlnTaylor *mod = w->dyn_model + (size_t)(depth + 1) * nr;
            unsigned char *ok = w->dyn_model_ok + (size_t)(depth + 1) * nr;
            st = pln_problem_interval_motion_part(p, w, w->ctrl, i, u, v, err, err_size);
            if (st == PLN_OK) st = row_models(p, w, i, cover, mod, ok, err, err_size);
            if (st != PLN_OK) return st;
            *moved = 1;
            for (int d = 0; d < p->n_dyn; ++d) {
                int row = p->dyn_row[(size_t)d * p->n_intervals + i], k;
                double bv, bu;
                if (row < 0 || !phase_in_cover(p, p->dyn[d].phase, i, cover)) continue;
                k = row - p->row_dynamics;
                model_bound(p, &p->dyn[d], &mod[k], ok[k], &bv, &bu, &w->dyn_poly[k]);
                w->dyn_bound[k] = fmin(w->dyn_bound[k], bv);
                w->dyn_lower[k] = fmax(w->dyn_lower[k], bu); /* both values the row takes */
                if (!(w->dyn_lower[k] <= w->dyn_bound[k])) w->dyn_lower[k] = -HUGE_VAL;
            }
            lv = depth + 1;
            qa = u;
            qb = v;
        }
        if (depth + 1 < PLN_CERT_REFINE_DEPTH && interval_violated(p, w, i, cover)) {
            st = refine_bounds(p, w, i, u, v, depth + 1, cover, lv, qa, qb, moved, err, err_size);
            if (st != PLN_OK) return st;
            continue;
        }
        for (int d = 0; d < p->n_dyn; ++d) {
            int row = p->dyn_row[(size_t)d * p->n_intervals + i], k;
            if (row < 0 || !phase_in_cover(p, p->dyn[d].phase, i, cover)) continue;
            k = row - p->row_dynamics;
            w->dyn_part[k] = fmax(w->dyn_part[k], w->dyn_bound[k]);
        }
    }
    return PLN_OK;
}

/* The certified bounds of interval i's rows in a fresh evaluation (eq. P6b, P6d, P6e): the
 * rows of a support phase are bounded on the part of the interval where the phase holds
 * (the whole interval for the floor force, friction and a phase that covers it), by the
 * Taylor models over that part, and, when one of them breaks its row, over the halves of a
 * bisection (refine_bounds), each row keeping the smaller of the two rigorous bounds. The
 * loop then judges a motion as the certificate will (which bisects the same way), and the
 * margins it freezes (bound - sample, eq. P6) are not the width of a coarse enclosure,
 * which goes stale as the motion moves. The interval's own link motion is in w on return. */
static PlnStatus fresh_bounds(const PlnProblem *p, PlnProblemWork *w, int i, char *err, size_t err_size)
{
    double covers[PLN_MAX_PHASES + 1][2];
    int n_covers = pln_dynrows_covers(p, i, covers), whole_motion = 0;
    PlnStatus st = PLN_OK;
    for (int k = 0; k < n_covers && st == PLN_OK; ++k) {
        const double *cover = covers[k];
        int moved = 0;
        if (cover[0] == 0.0 && cover[1] == 1.0) {
            if (!whole_motion) st = pln_problem_interval_motion(p, w, w->ctrl, i, err, err_size);
            whole_motion = 1;
        } else {
            st = pln_problem_interval_motion_part(p, w, w->ctrl, i, cover[0], cover[1], err, err_size);
            whole_motion = 0;
        }
        if (st == PLN_OK) st = pln_dynrows_interval_bounds(p, w, i, cover, NULL, err, err_size);
        if (st != PLN_OK || !interval_violated(p, w, i, cover)) continue;
        /* the bounds over the whole part, kept while the bisection's overwrite dyn_bound */
        for (int d = 0; d < p->n_dyn; ++d) {
            int row = p->dyn_row[(size_t)d * p->n_intervals + i];
            if (row < 0 || !phase_in_cover(p, p->dyn[d].phase, i, cover)) continue;
            w->dyn_part[row - p->row_dynamics] = -HUGE_VAL;
            w->dyn_whole[row - p->row_dynamics] = w->dyn_bound[row - p->row_dynamics];
        }
        /* slot 0 holds the part's models (pln_dynrows_interval_bounds) */
        st = refine_bounds(p, w, i, cover[0], cover[1], 0, cover, 0, cover[0], cover[1], &moved, err, err_size);
        if (moved) whole_motion = 0;
        for (int d = 0; d < p->n_dyn && st == PLN_OK; ++d) {
            int row = p->dyn_row[(size_t)d * p->n_intervals + i], r;
            if (row < 0 || !phase_in_cover(p, p->dyn[d].phase, i, cover)) continue;
            r = row - p->row_dynamics;
            w->dyn_bound[r] = fmin(w->dyn_whole[r], w->dyn_part[r]);
        }
    }
    if (st == PLN_OK && !whole_motion) st = pln_problem_interval_motion(p, w, w->ctrl, i, err, err_size);
    return st;
}

PlnStatus pln_dynrows_values(const PlnProblem *p, PlnProblemWork *w, PlnProblemWork *s, int i, double *c,
                             char *err, size_t err_size)
{
    const PlnRobot *r = p->robot;
    double t0, t1;
    PlnStatus st = PLN_OK;
    /* the certified bounds (Taylor models of the dynamics over the interval): what a
     * fresh evaluation's rows are; a frozen evaluation's rows are samples plus frozen
     * margins (docs/math/planner.md eq. P6), and need a bound only for a row that no
     * sample of its phase reaches */
    int have_bound = 0;
    pln_problem_interval(p, i, &t0, &t1);
    if (s->frozen_margin == NULL) {
        st = fresh_bounds(p, s, i, err, err_size);
        if (st != PLN_OK) return st;
        have_bound = 1;
    }
    for (int d = 0; d < p->n_dyn; ++d) {
        int row = p->dyn_row[(size_t)d * p->n_intervals + i];
        if (row >= 0) s->dyn_sample[row - p->row_dynamics] = -HUGE_VAL;
    }
    /* exact samples */
    for (int si = 0; si < PLN_BALANCE_SAMPLES && st == PLN_OK; ++si) {
        double t = t0 + (t1 - t0) * (double)si / (PLN_BALANCE_SAMPLES - 1);
        PlnContactSplit split;
        int split_phase = -2, have_split = 0;
        st = state_dynamics(p, s, t, 0);
        for (int d = 0; d < p->n_dyn && st == PLN_OK; ++d) {
            const PlnDynCon *cd = &p->dyn[d];
            int row = p->dyn_row[(size_t)d * p->n_intervals + i], l;
            double v;
            if (row < 0 || !phase_at(p, cd->phase, t)) continue;
            if (cd->kind == PLN_DYN_TORQUE && split_phase != cd->phase) {
                split_phase = cd->phase;
                have_split = pln_contact_split(&p->phases[cd->phase].support, s->tau, 0.0, &split, 0);
            }
            l = cd->kind == PLN_DYN_TORQUE ? r->joints[cd->joint].link : 0;
            v = row_value(p, cd, s->tau, have_split ? &split : NULL, pln_kin_joint_axis(s->kin, l),
                          pln_kin_link_pos(s->kin, l), NULL, NULL);
            if (v > s->dyn_sample[row - p->row_dynamics]) {
                s->dyn_sample[row - p->row_dynamics] = v;
                s->dyn_t[row - p->row_dynamics] = t;
            }
        }
    }
    for (int d = 0; d < p->n_dyn && st == PLN_OK; ++d) {
        int row = p->dyn_row[(size_t)d * p->n_intervals + i], k;
        if (row < 0) continue;
        k = row - p->row_dynamics;
        if (!(s->dyn_sample[k] > -HUGE_VAL)) {  /* phase rows on no sample: use the bound */
            if (!have_bound) {
                st = fresh_bounds(p, s, i, err, err_size);
                if (st != PLN_OK) break;
                have_bound = 1;
            }
            s->dyn_sample[k] = s->dyn_bound[k];
            s->dyn_t[k] = 0.5 * (t0 + t1);
        }
        c[row] = s->frozen_margin != NULL ? s->dyn_sample[k] + s->frozen_margin[row] : s->dyn_bound[k];
        if (s != w) {  /* a helper's rows into the caller's arrays */
            w->dyn_bound[k] = s->dyn_bound[k];
            w->dyn_lower[k] = s->dyn_lower[k];
            w->dyn_sample[k] = s->dyn_sample[k];
            w->dyn_t[k] = s->dyn_t[k];
        }
    }
    return st;
}

/* what dyn_gradients needs beside the work */
typedef struct DynGradArg {
    double *grad;
    int agg_row;
} DynGradArg;

/* The gradients of interval i's rows (a job of pln_problem_each_interval): each at the
 * row's sampled maximum w->dyn_t, the analytic RNEA derivatives (computed in s) chained
 * through the spline's basis (docs/math/planner.md eq. P12). With a working set, only its
 * rows' and the aggregate row's. */
static PlnStatus dyn_gradients(const PlnProblem *p, PlnProblemWork *w, PlnProblemWork *s, int i, void *arg,
                               char *err, size_t err_size)
{
    const PlnRobot *r = p->robot;
    const int n = p->n_vars, nv = 6 + p->n_joints, k1 = p->scenario->degree + 1;
    const DynGradArg *ga = arg;
    double t_done = NAN, N[3 * PLN_BSPLINE_MAX_ORDER];
    int first = 0;
    PlnStatus st = PLN_OK;
    (void)err;
    (void)err_size;
    for (int d = 0; d < p->n_dyn && st == PLN_OK; ++d) {
        const PlnDynCon *cd = &p->dyn[d];
        int row = p->dyn_row[(size_t)d * p->n_intervals + i], l;
        double t, dW[6], dT;
        PlnContactSplit split;
        int have_split = 0;
        if (row < 0) continue;
        if (s->work_rows != NULL && !s->work_rows[row] && row != ga->agg_row) continue;
        t = w->dyn_t[row - p->row_dynamics];
        if (t != t_done) {  /* rows often share their sampled maximum's time */
            st = state_dynamics(p, s, t, 1);
            if (st == PLN_OK) st = pln_bspline_basis(p->bs, t, 2, N, &first);
            if (st != PLN_OK) break;
            t_done = t;
        }
        if (cd->kind == PLN_DYN_TORQUE) {
            have_split = pln_contact_split(&p->phases[cd->phase].support, s->tau, 0.0, &split, 1);
        }
        l = cd->kind == PLN_DYN_TORQUE ? r->joints[cd->joint].link : 0;
        (void)row_value(p, cd, s->tau, have_split ? &split : NULL, pln_kin_joint_axis(s->kin, l),
                        pln_kin_link_pos(s->kin, l), dW, &dT);
        if (cd->kind == PLN_DYN_TORQUE && have_split) {
            /* the joint's axis and origin move with the joints above it */
            memset(s->t2_geo, 0, (size_t)nv * sizeof *s->t2_geo);
            pln_contact_joint_torque_dq(r, s->kin, &p->phases[cd->phase].support, &split,
                                        cd->joint, dT, s->t2_geo);
        }
        for (int a = 0; a < p->n_active; ++a) {
            int col = 6 + p->active[a];
            double g[3] = {0.0, 0.0, 0.0};
            for (int k = 0; k < 6; ++k) {
                g[0] += dW[k] * s->dtau_dq[k * nv + col];
                g[1] += dW[k] * s->dtau_dnu[k * nv + col];
                g[2] += dW[k] * s->mass[k * nv + col];
            }
            if (cd->kind == PLN_DYN_TORQUE) {
                int tr = 6 + cd->joint;
                if (have_split) g[0] += s->t2_geo[col];
                g[0] += dT * s->dtau_dq[tr * nv + col];
                g[1] += dT * s->dtau_dnu[tr * nv + col];
                g[2] += dT * s->mass[tr * nv + col];
            }
            for (int m = 0; m < k1; ++m) {
                int v = p->var_of[a * p->n_ctrl + first + m];
                if (v >= 0) {
                    ga->grad[(size_t)row * n + v] += g[0] * N[m] + g[1] * N[k1 + m] + g[2] * N[2 * k1 + m];
                }
            }
        }
    }
    return st;
}

/* pln_dynrows_values as a job of pln_problem_each_interval (arg: c) */
static PlnStatus dyn_values(const PlnProblem *p, PlnProblemWork *w, PlnProblemWork *s, int i, void *arg,
                            char *err, size_t err_size)
{
    return pln_dynrows_values(p, w, s, i, arg, err, err_size);
}

PlnStatus pln_dynrows_eval(const PlnProblem *p, PlnProblemWork *w, double *c, double *grad,
                           char *err, size_t err_size)
{
    /* the values, interval by interval on the work's threads */
    PlnStatus st = pln_problem_each_interval(p, w, dyn_values, c, err, err_size);
    if (grad == NULL || st != PLN_OK) return st;
    return pln_dynrows_gradients(p, w, c, grad, err, err_size);
}

PlnStatus pln_dynrows_gradients(const PlnProblem *p, PlnProblemWork *w, const double *c, double *grad,
                                char *err, size_t err_size)
{
    DynGradArg ga = {grad, -1};
    if (grad == NULL) return PLN_OK;
    /* the largest row outside the caller's working set (the first of equals, as the
     * aggregate row takes it), which needs its gradient too */
    if (w->work_rows != NULL) {
        for (int r = p->row_dynamics; r < p->row_dynamics + p->n_dyn_rows; ++r) {
            if (!w->work_rows[r] && (ga.agg_row < 0 || c[r] > c[ga.agg_row])) ga.agg_row = r;
        }
        /* rows outside the set are not cleared (pln_problem_constraints) */
        if (ga.agg_row >= 0) memset(grad + (size_t)ga.agg_row * p->n_vars, 0, (size_t)p->n_vars * sizeof *grad);
    }
    return pln_problem_each_interval(p, w, dyn_gradients, &ga, err, err_size);
}

void pln_dynrows_name(const PlnProblem *p, int d, char *buf, size_t size)
{
    const PlnDynCon *c = &p->dyn[d];
    switch (c->kind) {
    case PLN_DYN_FZ: snprintf(buf, size, "floor force"); break;
    case PLN_DYN_FRICTION: snprintf(buf, size, "friction"); break;
    case PLN_DYN_ZMP: snprintf(buf, size, "zmp edge %d of support[%d]", c->edge, c->phase); break;
    case PLN_DYN_TORQUE:
        snprintf(buf, size, "torque %s in support[%d]", p->robot->joints[c->joint].name, c->phase);
        break;
    }
}

/* Gauss-Legendre rule of PLN_TORQUE2_POINTS points on [-1, 1] (exact for polynomials of
 * degree 7) */
static const double GL_X[PLN_TORQUE2_POINTS] = {-0.86113631159405258, -0.33998104358485626,
                                                0.33998104358485626, 0.86113631159405258};
static const double GL_W[PLN_TORQUE2_POINTS] = {0.34785484513745386, 0.65214515486254614,
                                                0.65214515486254614, 0.34785484513745386};

/* tau_j (eq. D21) at the current state; with y, adds s d tau_j / d(tau0, W) into y[nv]
 * (e_{6+j} plus the soles' share through the split) and, with geo, s times the part of
 * d tau_j / dq that comes from the joint's moving axis into geo[nv] */
static double joint_torque_row(const PlnProblem *p, PlnProblemWork *w, const PlnPhaseGeom *g,
                               const PlnContactSplit *split, int j, double s, double *y,
                               double *geo)
{
    const PlnRobot *r = p->robot;
    int l = r->joints[j].link;
    double dW[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0}, v;
    if (split == NULL) {
        v = w->tau[6 + j];
    } else {
        v = pln_contact_joint_torque(r, &g->support, split, j, w->tau[6 + j],
                                     pln_kin_joint_axis(w->kin, l), pln_kin_link_pos(w->kin, l),
                                     y != NULL ? dW : NULL);
    }
    if (y != NULL) {
        for (int k = 0; k < 6; ++k) y[k] += s * dW[k];
        y[6 + j] += s;
        if (split != NULL && geo != NULL) pln_contact_joint_torque_dq(r, w->kin, &g->support, split, j, s, geo);
    }
    return v;
}

/* the torque cost, eq. P14 (docs/math/planner.md sec. 2) */
PlnStatus pln_dynrows_torque2(const PlnProblem *p, PlnProblemWork *w, double *value,
                              double *grad_ctrl, double *gn_diag, char *err, size_t err_size)
{
    const PlnRobot *r = p->robot;
    const int nj = p->n_joints, nv = 6 + nj, k1 = p->scenario->degree + 1, nc = p->n_ctrl;
    const int deriv = grad_ctrl != NULL || gn_diag != NULL;
    double total = 0.0, N[3 * PLN_BSPLINE_MAX_ORDER];
    double *Y = NULL, *G = NULL;
    PlnStatus st = PLN_OK;

    if (gn_diag != NULL) { /* one row per joint (called once per problem, not per evaluation) */
        Y = calloc((size_t)nj * nv, sizeof *Y);
        G = calloc((size_t)3 * nj * nv, sizeof *G);
        if (Y == NULL || G == NULL) {
            free(Y);
            free(G);
            return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
        }
    }
    for (int i = 0; i < p->n_intervals && st == PLN_OK; ++i) {
        double t0, t1;
        pln_problem_interval(p, i, &t0, &t1);
        for (int gp = 0; gp < PLN_TORQUE2_POINTS && st == PLN_OK; ++gp) {
            double t = 0.5 * (t0 + t1) + 0.5 * (t1 - t0) * GL_X[gp];
            double wq = 0.5 * (t1 - t0) * GL_W[gp];
            const PlnPhaseGeom *g = NULL;
            PlnContactSplit split;
            int have_split = 0, first = 0;
            for (int ph = 0; ph < p->n_phases && g == NULL; ++ph) {
                if (phase_at(p, ph, t)) g = &p->phases[ph];
            }
            st = state_dynamics(p, w, t, deriv);
            if (st == PLN_OK && deriv) st = pln_bspline_basis(p->bs, t, 2, N, &first);
            if (st != PLN_OK) break;
            if (g != NULL) have_split = pln_contact_split(&g->support, w->tau, 0.0, &split, deriv);
            if (deriv) {
                memset(w->t2_y, 0, (size_t)nv * sizeof *w->t2_y);
                memset(w->t2_geo, 0, (size_t)nv * sizeof *w->t2_geo);
            }
            for (int j = 0; j < nj; ++j) {
                double tmax = r->joints[j].effort_max, v;
                if (!(tmax > 0.0)) continue;
                v = joint_torque_row(p, w, g, have_split ? &split : NULL, j, 0.0, NULL, NULL) / tmax;
                total += wq * v * v;
                if (grad_ctrl != NULL) {
                    (void)joint_torque_row(p, w, g, have_split ? &split : NULL, j, 2.0 * wq * v / tmax, w->t2_y,
                                           w->t2_geo);
                }
                if (Y != NULL) {
                    memset(Y + (size_t)j * nv, 0, (size_t)nv * sizeof *Y);
                    (void)joint_torque_row(p, w, g, have_split ? &split : NULL, j, 1.0 / tmax, Y + (size_t)j * nv,
                                           NULL);
                }
            }
            /* the chain rule through the spline's basis (eq. P12): y^T dtau/d(q, nu, nudot) */
            if (grad_ctrl != NULL) {
                double *gq = w->t2_g, *gn = w->t2_g + nv, *gm = w->t2_g + 2 * nv;
                cblas_dgemv(CblasRowMajor, CblasTrans, nv, nv, 1.0, w->dtau_dq, nv, w->t2_y, 1, 0.0, gq, 1);
                cblas_dgemv(CblasRowMajor, CblasTrans, nv, nv, 1.0, w->dtau_dnu, nv, w->t2_y, 1, 0.0, gn, 1);
                cblas_dgemv(CblasRowMajor, CblasTrans, nv, nv, 1.0, w->mass, nv, w->t2_y, 1, 0.0, gm, 1);
                for (int a = 0; a < p->n_active; ++a) {
                    int col = 6 + p->active[a];
                    for (int m = 0; m < k1; ++m) {
                        grad_ctrl[a * nc + first + m] += (gq[col] + w->t2_geo[col]) * N[m] + gn[col] * N[k1 + m] +
                                                         gm[col] * N[2 * k1 + m];
                    }
                }
            }
            /* Gauss-Newton diagonal: 2 wq sum_j (d r_j / dP)^2 */
            if (Y != NULL) {
                cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, nj, nv, nv, 1.0, Y, nv, w->dtau_dq, nv, 0.0, G, nv);
                cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, nj, nv, nv, 1.0, Y, nv, w->dtau_dnu, nv, 0.0, G + (size_t)nj * nv, nv);
                cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, nj, nv, nv, 1.0, Y, nv, w->mass, nv, 0.0, G + (size_t)2 * nj * nv, nv);
                for (int j = 0; j < nj; ++j) {
                    const double *gq = G + (size_t)j * nv, *gn = gq + (size_t)nj * nv, *gm = gn + (size_t)nj * nv;
                    for (int a = 0; a < p->n_active; ++a) {
                        int col = 6 + p->active[a];
                        for (int m = 0; m < k1; ++m) {
                            double d = gq[col] * N[m] + gn[col] * N[k1 + m] + gm[col] * N[2 * k1 + m];
                            gn_diag[a * nc + first + m] += 2.0 * wq * d * d;
                        }
                    }
                }
            }
        }
    }
    free(Y);
    free(G);
    if (st != PLN_OK) return st;
    *value = total;
    return PLN_OK;
}

PlnStatus pln_dynrows_sample(const PlnProblem *p, PlnProblemWork *w, double t, int *phase,
                             double zmp[2], double *tau, char *err, size_t err_size)
{
    const PlnPhaseGeom *g = NULL;
    PlnContactSplit split;
    int have_split = 0;
    PlnStatus st;
    *phase = -1;
    for (int ph = 0; ph < p->n_phases && g == NULL; ++ph) {
        if (phase_at(p, ph, t)) {
            g = &p->phases[ph];
            *phase = ph;
        }
    }
    st = state_dynamics(p, w, t, 0);
    if (st != PLN_OK) return pln_errorf(st, err, err_size, "the dynamics at t = %g s failed", t);
    if (g != NULL) have_split = pln_contact_split(&g->support, w->tau, p->min_fz, &split, 0);
    zmp[0] = have_split ? split.zmp[0] : NAN;
    zmp[1] = have_split ? split.zmp[1] : NAN;
    for (int j = 0; j < p->n_joints; ++j) {
        tau[j] = joint_torque_row(p, w, g, have_split ? &split : NULL, j, 0.0, NULL, NULL);
    }
    return PLN_OK;
}
