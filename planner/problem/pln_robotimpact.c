/* pln_robotimpact.c — the planned robot as a seed-004 mechanism (pln_robotimpact.h). */
#include "problem/pln_robotimpact.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/pln_tolerance.h"
#include "model/pln_kin.h"

PlnStatus pln_robotimpact_find_pair(const PlnProblem *p, const char *spec, int *pair, char *err,
                                    size_t err_size)
{
    char a[PLN_NAME_MAX], b[PLN_NAME_MAX];
    const char *comma = strchr(spec, ',');
    size_t na;
    if (comma == NULL || comma == spec || comma[1] == '\0' || strchr(comma + 1, ',') != NULL) {
        return pln_errorf(PLN_ERR_USAGE, err, err_size, "--pair '%s': expected LINK_A,LINK_B", spec);
    }
    na = (size_t)(comma - spec);
    if (na >= sizeof a || strlen(comma + 1) >= sizeof b) {
        return pln_errorf(PLN_ERR_USAGE, err, err_size, "--pair '%s': a name is too long", spec);
    }
    memcpy(a, spec, na);
    a[na] = '\0';
    snprintf(b, sizeof b, "%s", comma + 1);
    for (int k = 0; k < p->scenario->n_pairs; ++k) {
        const PlnPair *pr = &p->scenario->pairs[k];
        if ((strcmp(pr->a.name, a) == 0 && strcmp(pr->b.name, b) == 0) ||
            (strcmp(pr->a.name, b) == 0 && strcmp(pr->b.name, a) == 0)) {
            *pair = k;
            return PLN_OK;
        }
    }
    return pln_errorf(PLN_ERR_INVALID, err, err_size,
                      "%s: --pair %s,%s: not among the scenario's %d measured pairs (report.json "
                      "excluded_pairs says why a pair is left out; collision.pairs can add it)",
                      p->scenario->path, a, b, p->scenario->n_pairs);
}

/* the robot's real distance of the pair at t */
static PlnStatus real_distance(const PlnProblem *p, PlnProblemWork *w, const double *ctrl, int pair,
                               double t, double *d)
{
    PlnPairDistance pd;
    PlnStatus st = pln_problem_joints_at(p, ctrl, t, w->q);
    if (st == PLN_OK) st = pln_kin_forward(w->kin, p->robot, w->q);
    if (st != PLN_OK) return st;
    pln_problem_pair_distance(p, w->kin, pair, &pd);
    *d = pd.distance;
    return PLN_OK;
}

PlnStatus pln_robotimpact_first_contact(const PlnProblem *p, const double *ctrl, int pair,
                                        double *t, int *found, char *err, size_t err_size)
{
    PlnProblemWork *w = NULL;
    DstMcdOptions opt = dst_mcd_options_default();
    PlnStatus st = pln_problem_work_create(p, &w, err, err_size);
    double d0;
    *found = 0;
    if (st != PLN_OK) return st;
    memcpy(w->ctrl, ctrl, (size_t)p->n_active * p->n_ctrl * sizeof *ctrl);
    opt.eps = fmax(0.25 * p->eps, PLN_MIN_MCD_EPS_M);
    st = real_distance(p, w, ctrl, pair, 0.0, &d0);
    if (st == PLN_OK && d0 <= 0.0) { /* touching from the start */
        *t = 0.0;
        *found = 1;
    }
    for (int i = 0; i < p->n_intervals && st == PLN_OK && !*found; ++i) {
        double t0, t1, sa[PLN_IMPACT_TOC_DEPTH + 2], sb[PLN_IMPACT_TOC_DEPTH + 2];
        int sd[PLN_IMPACT_TOC_DEPTH + 2], top = 0;
        pln_problem_interval(p, i, &t0, &t1);
        /* parts of the interval in time order (a stack, the earlier half on top) */
        sa[top] = 0.0, sb[top] = 1.0, sd[top++] = 0;
        while (top > 0 && st == PLN_OK && !*found) {
            double a = sa[--top], b = sb[top], ta = t0 + a * (t1 - t0), tb = t0 + b * (t1 - t0), real;
            int depth = sd[top];
            DstMcdResult res;
            DstStatus ds;
            st = pln_problem_interval_motion_part(p, w, ctrl, i, a, b, err, err_size);
            if (st != PLN_OK) break;
            ds = pln_problem_pair_mcd(p, w, pair, DST_MCD_HYBRID, ta, tb, &opt, INFINITY, &res, NULL, NULL);
            if (ds == DST_INVALID_INPUT || ds == DST_FAILED) {
                st = pln_errorf(PLN_ERR_INTERNAL, err, err_size, "impact: distance on [%g, %g] s failed: %s", ta,
                                tb, dst_status_string(ds));
                break;
            }
            if (res.lower > 0.0) continue; /* certified clear */
            if (depth < PLN_IMPACT_TOC_DEPTH) {
                double m = 0.5 * (a + b);
                sa[top] = m, sb[top] = b, sd[top++] = depth + 1;
                sa[top] = a, sb[top] = m, sd[top++] = depth + 1;
                continue;
            }
            /* the deepest part: a real contact at its end, or at the bound's time? */
            st = real_distance(p, w, ctrl, pair, tb, &real);
            if (st == PLN_OK && real > 0.0) {
                st = real_distance(p, w, ctrl, pair, res.t_min, &real);
                if (st == PLN_OK && real <= 0.0) tb = res.t_min;
            }
            if (st != PLN_OK || real > 0.0) continue; /* within eps of contact, not touching */
            /* the real distance is > 0 at ta (every earlier part is clear) and <= 0 at tb */
            while (tb - ta > PLN_IMPACT_TOC_TOL_S && st == PLN_OK) {
                double m = 0.5 * (ta + tb), dm = 0.0;
                st = real_distance(p, w, ctrl, pair, m, &dm);
                if (st == PLN_OK && dm > 0.0) ta = m;
                else tb = m;
            }
            *t = ta; /* the last instant known clear: the witness points are defined there */
            *found = 1;
        }
    }
    pln_problem_work_destroy(w);
    return st;
}

static void mat_mul3(const double *A, const double *B, double *C)
{
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) C[3 * r + c] = A[3 * r] * B[c] + A[3 * r + 1] * B[3 + c] + A[3 * r + 2] * B[6 + c];
    }
}

static void cross3(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

PlnStatus pln_robotimpact_build(const PlnProblem *p, const double *ctrl, int pair, double t,
                                double e, double mu, PlnRobotImpact *out, char *err,
                                size_t err_size)
{
    const PlnRobot *r = p->robot;
    const int nl = r->n_links, nj = r->n_joints;
    PlnProblemWork *w = NULL;
    double *wl = NULL, *vl = NULL, *qdd = NULL;
    int *joint_of_link = NULL, nwj = 0;
    PlnPairDistance pd;
    PlnStatus st;
    memset(out, 0, sizeof *out);
    out->t = t;
    for (int j = 0; j < nj; ++j) {
        if (r->joints[j].type == PLN_JOINT_PRISMATIC) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "impact: joint '%s' is prismatic: the robot's impact mechanism "
                              "takes revolute joints and welds only", r->joints[j].name);
        }
    }
    st = pln_problem_work_create(p, &w, err, err_size);
    if (st != PLN_OK) return st;
    out->bodies = calloc((size_t)nl, sizeof *out->bodies);
    out->joints = calloc((size_t)nl + PLN_MAX_PHASE_FEET + 1, sizeof *out->joints);
    out->robot_joint = calloc((size_t)nl + PLN_MAX_PHASE_FEET + 1, sizeof *out->robot_joint);
    out->qd = calloc((size_t)(nj > 0 ? nj : 1), sizeof *out->qd);
    wl = calloc((size_t)3 * nl, sizeof *wl);
    vl = calloc((size_t)3 * nl, sizeof *vl);
    qdd = calloc((size_t)(nj > 0 ? nj : 1), sizeof *qdd);
    joint_of_link = calloc((size_t)nl, sizeof *joint_of_link);
    if (!out->bodies || !out->joints || !out->robot_joint || !out->qd || !wl || !vl || !qdd || !joint_of_link) {
        st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
        goto done;
    }
    st = pln_problem_state_at(p, ctrl, t, w->q, out->qd, qdd);
    if (st == PLN_OK) st = pln_kin_forward(w->kin, r, w->q);
    if (st != PLN_OK) {
        st = pln_errorf(st, err, err_size, "impact: the robot's state at t = %g s", t);
        goto done;
    }
    for (int k = 0; k < nl; ++k) joint_of_link[k] = -1;
    for (int j = 0; j < nj; ++j) joint_of_link[r->joints[j].link] = j;
    /* link velocities from the base outwards (links are in topological order) */
    for (int k = 0; k < nl; ++k) {
        const PlnLink *lk = &r->links[k];
        const double *pos = pln_kin_link_pos(w->kin, k), *R = pln_kin_link_rot(w->kin, k);
        PlnImpactBody *b = &out->bodies[k];
        double c[3], lc[3], wx[3], Rt[9], RI[9];
        if (lk->parent >= 0) {
            const double *pp = pln_kin_link_pos(w->kin, lk->parent);
            double d[3], wd[3];
            int j = joint_of_link[k];
            for (int a = 0; a < 3; ++a) d[a] = pos[a] - pp[a];
            cross3(wl + 3 * lk->parent, d, wd);
            for (int a = 0; a < 3; ++a) {
                wl[3 * k + a] = wl[3 * lk->parent + a];
                vl[3 * k + a] = vl[3 * lk->parent + a] + wd[a];
            }
            if (j >= 0 && r->joints[j].type == PLN_JOINT_REVOLUTE) {
                const double *z = pln_kin_joint_axis(w->kin, k);
                for (int a = 0; a < 3; ++a) wl[3 * k + a] += z[a] * out->qd[j];
            }
        }
        snprintf(b->name, sizeof b->name, "%s", lk->name);
        b->mass = lk->mass;
        if (!(lk->mass > 0.0)) {
            st = pln_errorf(PLN_ERR_INVALID, err, err_size, "impact: link %s has no mass in %s", lk->name,
                            p->scenario->robot_path);
            goto done;
        }
        /* centre of mass and its velocity, inertia R I R^T */
        for (int a = 0; a < 3; ++a) lc[a] = R[3 * a] * lk->com[0] + R[3 * a + 1] * lk->com[1] + R[3 * a + 2] * lk->com[2];
        for (int a = 0; a < 3; ++a) c[a] = pos[a] + lc[a];
        cross3(wl + 3 * k, lc, wx);
        for (int a = 0; a < 3; ++a) {
            b->com[a] = c[a];
            b->v[a] = vl[3 * k + a] + wx[a];
            b->w[a] = wl[3 * k + a];
        }
        for (int a = 0; a < 3; ++a) {
            for (int bb = 0; bb < 3; ++bb) Rt[3 * a + bb] = R[3 * bb + a];
        }
        mat_mul3(R, lk->inertia, RI);
        mat_mul3(RI, Rt, b->inertia);
        /* symmetric to the last bit */
        for (int a = 0; a < 3; ++a) {
            for (int bb = a + 1; bb < 3; ++bb) {
                double s = 0.5 * (b->inertia[3 * a + bb] + b->inertia[3 * bb + a]);
                b->inertia[3 * a + bb] = b->inertia[3 * bb + a] = s;
            }
        }
        /* the joint to the parent */
        if (lk->parent >= 0) {
            PlnImpactJoint *jt = &out->joints[nwj];
            int j = joint_of_link[k];
            snprintf(jt->name, sizeof jt->name, "%s", j >= 0 ? r->joints[j].name : lk->name);
            jt->type = j >= 0 && r->joints[j].type == PLN_JOINT_REVOLUTE ? PLN_IMPACT_REVOLUTE : PLN_IMPACT_FIXED;
            jt->body_i = k;
            jt->body_j = lk->parent;
            memcpy(jt->anchor, pos, sizeof jt->anchor);
            if (jt->type == PLN_IMPACT_REVOLUTE) memcpy(jt->axis, pln_kin_joint_axis(w->kin, k), sizeof jt->axis);
            else jt->axis[2] = 1.0;
            out->robot_joint[nwj++] = j;
        }
    }
    /* the feet on the floor (or the base) welded to the world */
    {
        const PlnPhaseGeom *g = NULL;
        for (int ph = 0; ph < p->n_phases && g == NULL; ++ph) {
            if (t >= p->phases[ph].t0 - PLN_PHASE_TIME_TOL_S && t <= p->phases[ph].t1 + PLN_PHASE_TIME_TOL_S) {
                g = &p->phases[ph];
            }
        }
        if (p->dynamics && g != NULL) {
            out->welds_feet = 1;
            for (int f = 0; f < g->support.n_feet; ++f) {
                int link = g->support.link[f], so = pln_robot_find_sole(r, link);
                PlnImpactJoint *jt = &out->joints[nwj];
                snprintf(jt->name, sizeof jt->name, "floor-%.50s", r->links[link].name);
                jt->type = PLN_IMPACT_FIXED;
                jt->body_i = link;
                jt->body_j = PLN_IMPACT_WORLD;
                if (so >= 0) pln_kin_point(w->kin, link, r->soles[so].offset, jt->anchor);
                else memcpy(jt->anchor, pln_kin_link_pos(w->kin, link), sizeof jt->anchor);
                jt->axis[2] = 1.0;
                out->robot_joint[nwj++] = -1;
                ++out->n_welds;
            }
        } else {
            PlnImpactJoint *jt = &out->joints[nwj];
            snprintf(jt->name, sizeof jt->name, "base-%.50s", r->links[0].name);
            jt->type = PLN_IMPACT_FIXED;
            jt->body_i = 0;
            jt->body_j = PLN_IMPACT_WORLD;
            memcpy(jt->anchor, pln_kin_link_pos(w->kin, 0), sizeof jt->anchor);
            jt->axis[2] = 1.0;
            out->robot_joint[nwj++] = -1;
            out->n_welds = 1;
        }
    }
    /* the contact: the witness points at t */
    pln_problem_pair_distance(p, w->kin, pair, &pd);
    out->distance = pd.distance;
    {
        double nn = sqrt(pd.n[0] * pd.n[0] + pd.n[1] * pd.n[1] + pd.n[2] * pd.n[2]);
        const PlnPair *pr = &p->scenario->pairs[pair];
        PlnImpactContact *c = &out->system.contact;
        if (!(nn > 0.5) || !isfinite(pd.distance)) {
            st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                            "impact: %s - %s at t = %g s: no contact normal (distance %g m)", pr->a.name, pr->b.name,
                            t, pd.distance);
            goto done;
        }
        c->body_a = pr->a.index;
        c->body_b = pr->b_is_obstacle ? PLN_IMPACT_WORLD : pr->b.index;
        for (int a = 0; a < 3; ++a) {
            c->point[a] = 0.5 * (pd.pA[a] + pd.pB[a]);
            c->normal[a] = pd.n[a] / nn;
        }
        c->restitution = e;
        c->mu = mu;
    }
    out->system.n_bodies = nl;
    out->system.bodies = out->bodies;
    out->system.n_joints = nwj;
    out->system.joints = out->joints;
done:
    free(wl);
    free(vl);
    free(qdd);
    free(joint_of_link);
    pln_problem_work_destroy(w);
    if (st != PLN_OK) pln_robotimpact_destroy(out);
    return st;
}

void pln_robotimpact_rates(const PlnProblem *p, const PlnRobotImpact *ri, const double *w_after,
                           double *qd_after)
{
    const PlnRobot *r = p->robot;
    memset(qd_after, 0, (size_t)r->n_joints * sizeof *qd_after);
    for (int c = 0; c < ri->system.n_joints; ++c) {
        const PlnImpactJoint *jt = &ri->joints[c];
        int j = ri->robot_joint[c];
        if (j < 0 || jt->type != PLN_IMPACT_REVOLUTE) continue;
        qd_after[j] = 0.0;
        for (int a = 0; a < 3; ++a) qd_after[j] += (w_after[3 * jt->body_i + a] - w_after[3 * jt->body_j + a]) * jt->axis[a];
    }
}

void pln_robotimpact_destroy(PlnRobotImpact *ri)
{
    free(ri->bodies);
    free(ri->joints);
    free(ri->robot_joint);
    free(ri->qd);
    memset(ri, 0, sizeof *ri);
}
