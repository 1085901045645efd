/* check_pln_impact.c — tests of planner/model/pln_impact.c (seed 004): on random
 * articulated mechanisms with every joint type, the block solver equals the dense
 * LAPACKE_dgesv solution; free mechanisms keep their linear and angular momentum; kinetic
 * energy does not grow for restitution in [0, 1] and is kept at e = 1 without friction;
 * every joint's condition, the restitution law and the friction law hold after the
 * impulse; textbook cases (a ball on the floor, a rod on a nail) have their closed-form
 * answers; bad systems are refused. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_rng.h"
#include "check_util.h"
#include "cli_run.h"
#include "cli/pln_cli.h"
#include "model/pln_impact.h"
#include "base/pln_tolerance.h"
#include "model/pln_kin.h"
#include "model/pln_mechanism.h"
#include "problem/pln_plan.h"
#include "problem/pln_robotimpact.h"

#define MAX_BODIES 10

typedef struct Mech {
    PlnImpactBody bodies[2 * MAX_BODIES];
    PlnImpactJoint joints[2 * MAX_BODIES];
    PlnImpactSystem sys;
} Mech;

static void v_cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static double v_dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void rand_vec(Rng *r, double *v, double amp)
{
    for (int d = 0; d < 3; ++d) v[d] = rng_uniform(r, -amp, amp);
}

/* inertia R diag(a, b, c) R^T with a, b, c satisfying the triangle inequality */
static void rand_inertia(Rng *r, double m, double I[9])
{
    double R[9], d[3];
    for (;;) {
        for (int k = 0; k < 3; ++k) d[k] = m * rng_uniform(r, 0.005, 0.1);
        if (d[0] + d[1] > d[2] && d[1] + d[2] > d[0] && d[0] + d[2] > d[1]) break;
    }
    rng_rotation(r, R);
    for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) {
            I[3 * a + b] = 0.0;
            for (int k = 0; k < 3; ++k) I[3 * a + b] += R[3 * a + k] * d[k] * R[3 * b + k];
        }
    }
}

/* velocity of body k's point p */
static void body_point_velocity(const PlnImpactBody *b, const double p[3], double out[3])
{
    double l[3], wl[3];
    for (int d = 0; d < 3; ++d) l[d] = p[d] - b->com[d];
    v_cross(b->w, l, wl);
    for (int d = 0; d < 3; ++d) out[d] = b->v[d] + wl[d];
}

/* A random tree of n bodies (body k > 0 hangs from a random earlier one by a random joint
 * type), velocities that satisfy every joint (each child's motion = its parent's plus the
 * joint's free motion), optionally nailed to the world at body 0. Appends to m from body
 * index `first`; returns the number of joints added. */
static int rand_tree(Rng *r, Mech *m, int first, int n, int nailed, int *n_joints)
{
    static const PlnImpactJointType TYPES[] = {PLN_IMPACT_POINT, PLN_IMPACT_REVOLUTE, PLN_IMPACT_ANGLE,
                                               PLN_IMPACT_CYLINDRICAL, PLN_IMPACT_PRISMATIC, PLN_IMPACT_FIXED};
    int added = 0;
    for (int k = 0; k < n; ++k) {
        PlnImpactBody *b = &m->bodies[first + k];
        memset(b, 0, sizeof *b);
        snprintf(b->name, sizeof b->name, "b%d", first + k);
        b->mass = rng_uniform(r, 0.3, 3.0);
        rand_inertia(r, b->mass, b->inertia);
        if (k == 0) {
            rand_vec(r, b->com, 0.5);
            rand_vec(r, b->v, 1.0);
            rand_vec(r, b->w, 2.0);
            if (nailed) {
                PlnImpactJoint *j = &m->joints[(*n_joints)++];
                double vp[3];
                memset(j, 0, sizeof *j);
                snprintf(j->name, sizeof j->name, "nail%d", first);
                j->type = PLN_IMPACT_NAIL;
                j->body_i = first;
                j->body_j = PLN_IMPACT_WORLD;
                rand_vec(r, j->anchor, 0.2);
                for (int d = 0; d < 3; ++d) j->anchor[d] += b->com[d];
                /* the nail's point is still: v = -w x (anchor - com) */
                body_point_velocity(b, j->anchor, vp);
                for (int d = 0; d < 3; ++d) b->v[d] -= vp[d];
                ++added;
            }
        } else {
            int parent = first + (int)(rng_u01(r) * k);
            PlnImpactBody *pb = &m->bodies[parent];
            PlnImpactJoint *j = &m->joints[(*n_joints)++];
            double va[3], dw[3] = {0.0, 0.0, 0.0}, dv[3] = {0.0, 0.0, 0.0}, u[3], l[3], wl[3];
            memset(j, 0, sizeof *j);
            snprintf(j->name, sizeof j->name, "j%d", first + k);
            j->type = TYPES[(int)(rng_u01(r) * 6)];
            /* the child as body_i or body_j, at random: the conditions are symmetric */
            if (rng_u01(r) < 0.5) {
                j->body_i = first + k;
                j->body_j = parent;
            } else {
                j->body_i = parent;
                j->body_j = first + k;
            }
            rand_vec(r, j->anchor, 0.3);
            for (int d = 0; d < 3; ++d) j->anchor[d] += pb->com[d];
            rng_unit(r, j->axis);
            rand_vec(r, b->com, 0.3);
            for (int d = 0; d < 3; ++d) b->com[d] += j->anchor[d];
            /* the joint's free motion */
            switch (j->type) {
            case PLN_IMPACT_POINT:
                rand_vec(r, dw, 2.0);
                break;
            case PLN_IMPACT_REVOLUTE:
                for (int d = 0; d < 3; ++d) dw[d] = 1.5 * j->axis[d];
                break;
            case PLN_IMPACT_ANGLE:
                rand_vec(r, u, 2.0);
                for (int d = 0; d < 3; ++d) dw[d] = u[d] - v_dot(u, j->axis) * j->axis[d];
                break;
            case PLN_IMPACT_CYLINDRICAL:
                for (int d = 0; d < 3; ++d) {
                    dw[d] = -0.7 * j->axis[d];
                    dv[d] = 0.4 * j->axis[d];
                }
                break;
            case PLN_IMPACT_PRISMATIC:
                for (int d = 0; d < 3; ++d) dv[d] = -0.6 * j->axis[d];
                break;
            default:
                break;
            }
            body_point_velocity(pb, j->anchor, va);
            for (int d = 0; d < 3; ++d) b->w[d] = pb->w[d] + dw[d];
            for (int d = 0; d < 3; ++d) l[d] = b->com[d] - j->anchor[d];
            v_cross(b->w, l, wl);
            for (int d = 0; d < 3; ++d) b->v[d] = va[d] + dv[d] + wl[d];
            ++added;
        }
    }
    return added;
}

/* a contact between body a and body b (or the world) at a point near a, approaching */
static void rand_contact(Rng *r, Mech *m, int a, int b, double e, double mu)
{
    PlnImpactContact *c = &m->sys.contact;
    double va[3], vb[3] = {0.0, 0.0, 0.0};
    c->body_a = a;
    c->body_b = b;
    rand_vec(r, c->point, 0.2);
    for (int d = 0; d < 3; ++d) c->point[d] += m->bodies[a].com[d];
    rng_unit(r, c->normal);
    body_point_velocity(&m->bodies[a], c->point, va);
    if (b >= 0) body_point_velocity(&m->bodies[b], c->point, vb);
    {
        double un = (va[0] - vb[0]) * c->normal[0] + (va[1] - vb[1]) * c->normal[1] + (va[2] - vb[2]) * c->normal[2];
        if (un > 0.0) {
            for (int d = 0; d < 3; ++d) c->normal[d] = -c->normal[d];
        }
    }
    c->restitution = e;
    c->mu = mu;
}

/* random mechanism kind k: 0 one free tree, contact inside it; 1 two free trees hitting
 * each other; 2 a nailed tree hitting the world */
static void rand_mech(Rng *r, Mech *m, int kind, double e, double mu)
{
    int nj = 0, n1 = 2 + (int)(rng_u01(r) * 6), n2 = 1 + (int)(rng_u01(r) * 4), n;
    memset(m, 0, sizeof *m);
    if (kind == 1) {
        rand_tree(r, m, 0, n1, 0, &nj);
        rand_tree(r, m, n1, n2, 0, &nj);
        n = n1 + n2;
        m->sys.n_bodies = n;
        rand_contact(r, m, (int)(rng_u01(r) * n1), n1 + (int)(rng_u01(r) * n2), e, mu);
    } else {
        rand_tree(r, m, 0, n1, kind == 2, &nj);
        n = n1;
        m->sys.n_bodies = n;
        if (kind == 0) {
            int a = (int)(rng_u01(r) * n), b = (a + 1 + (int)(rng_u01(r) * (n - 1))) % n;
            rand_contact(r, m, a, b, e, mu);
        } else {
            rand_contact(r, m, (int)(rng_u01(r) * n), PLN_IMPACT_WORLD, e, mu);
        }
    }
    m->sys.bodies = m->bodies;
    m->sys.joints = m->joints;
    m->sys.n_joints = nj;
}


static PlnImpactWork *work_for(const Mech *m)
{
    PlnImpactWork *w = NULL;
    char err[256];
    ck_assert_msg(pln_impact_work_create(m->sys.n_bodies, m->sys.n_joints, &w, err, sizeof err) == PLN_OK, "%s", err);
    return w;
}

/* block == dense; momentum of free mechanisms; joint conditions; restitution; friction */
START_TEST(test_random_mechanisms)
{
    Rng r = {0x1a333f9cULL + (uint64_t)_i};
    int counts[2] = {0, 0}, kinds[3] = {0, 0, 0}, singular = 0, capped = 0;
    for (int trial = 0; trial < 400; ++trial) {
        Mech m;
        PlnImpactResult rb, rd;
        PlnImpactWork *wb, *wd;
        char err[512];
        int kind = trial % 3;
        double e = trial % 5 == 1 ? 0.0 : rng_u01(&r), mu = trial % 4 == 0 ? 0.0 : rng_uniform(&r, 0.05, 1.2);
        double L0[3], A0[3], L1[3], A1[3], scale = 0.0, vs = 0.0, dvmax = 0.0;
        rand_mech(&r, &m, kind, e, mu);
        wb = work_for(&m);
        wd = work_for(&m);
        {
            PlnStatus sb = pln_impact_solve(wb, &m.sys, PLN_IMPACT_BLOCK, &rb, err, sizeof err);
            PlnStatus sd = pln_impact_solve(wd, &m.sys, PLN_IMPACT_DENSE, &rd, err, sizeof err);
            /* a contact whose points cannot move apart in 3-D (a single nailed body, two
             * bodies joined by one hinge) over-determines the sticking system: both
             * solvers must call it singular, not return a number */
            ck_assert_msg(sb == sd, "trial %d: block %d, dense %d (%s)", trial, (int)sb, (int)sd, err);
            if (sb != PLN_OK) {
                ck_assert_int_eq(sb, PLN_ERR_INVALID);
                ck_assert_ptr_nonnull(strstr(err, "singular"));
                ++singular;
                pln_impact_work_destroy(wb);
                pln_impact_work_destroy(wd);
                continue;
            }
        }
        ck_assert_int_eq(rb.approaching, rd.approaching);
        if (!rb.approaching) { /* bodies welded at the contact: no relative velocity */
            ck_assert(rb.u_before[0] >= 0.0 && fabs(rb.u_before[0]) < 1e-12);
            pln_impact_work_destroy(wb);
            pln_impact_work_destroy(wd);
            continue;
        }
        ck_assert_int_eq(rb.sliding, rd.sliding);
        {
            int blocks = 2 * m.sys.n_bodies + 1;
            for (int j = 0; j < m.sys.n_joints; ++j) {
                PlnImpactJointType t = m.joints[j].type;
                blocks += t == PLN_IMPACT_POINT || t == PLN_IMPACT_NAIL ? 1 : 2;
            }
            ck_assert_int_eq(rb.unknowns, 3 * blocks); /* 3 (2 n + m + 1), m 3-vectors */
        }
        ++kinds[kind];
        ++counts[rb.sliding];
        /* the block solver equals LAPACKE_dgesv to 1e-10 (relative to the solution) */
        for (int k = 0; k < 3 * m.sys.n_bodies; ++k) {
            vs = fmax(vs, fmax(fabs(rd.v[k]), fabs(rd.w[k])));
            dvmax = fmax(dvmax, fmax(fabs(rb.v[k] - rd.v[k]), fabs(rb.w[k] - rd.w[k])));
        }
        ck_assert_msg(dvmax <= 1e-10 * (1.0 + vs), "trial %d: block vs dense velocities differ by %g", trial, dvmax);
        for (int k = 0; k < 3; ++k) {
            double ps = 1.0 + fabs(rd.P[0]) + fabs(rd.P[1]) + fabs(rd.P[2]);
            ck_assert_msg(fabs(rb.P[k] - rd.P[k]) <= 1e-10 * ps, "trial %d: P differs", trial);
        }
        for (int k = 0; k < 3 * m.sys.n_joints; ++k) {
            ck_assert(fabs(rb.joint_P[k] - rd.joint_P[k]) <= 1e-10 * (1.0 + fabs(rd.joint_P[k])));
            ck_assert(fabs(rb.joint_T[k] - rd.joint_T[k]) <= 1e-10 * (1.0 + fabs(rd.joint_T[k])));
        }
        ck_assert(rb.block_ops > 0);
        /* joint conditions after the impulse */
        ck_assert_msg(pln_impact_joint_residual(wb, &m.sys) <= 1e-12 * (1.0 + vs), "trial %d: joint residual %g", trial,
                      pln_impact_joint_residual(wb, &m.sys));
        /* restitution (eq. 7): u_N after = -e u_N before */
        ck_assert(rb.restitution_used <= e && rb.restitution_used >= 0.0);
        ck_assert(rb.energy_capped == rd.energy_capped);
        capped += rb.energy_capped;
        if (rb.energy_capped) {
            /* the paper's law as written gains energy there */
            PlnImpactResult rn;
            m.sys.contact.newton_only = 1;
            ck_assert(pln_impact_solve(wd, &m.sys, PLN_IMPACT_DENSE, &rn, err, sizeof err) == PLN_OK);
            ck_assert(rn.energy_gain && !rn.energy_capped && rn.restitution_used == e && rn.mu_used == mu);
            ck_assert(rn.energy_after > rn.energy_before);
            m.sys.contact.newton_only = 0;
        }
        if (!rb.energy_capped) ck_assert(rb.restitution_used == e);
        ck_assert(fabs(rb.u_after[0] + rb.restitution_used * rb.u_before[0]) <= 1e-12 * (1.0 + vs));
        ck_assert(rb.P_ntr[0] >= 0.0);
        if (!rb.sliding) {
            /* sticking (8)-(9), inside the cone */
            ck_assert(fabs(rb.u_after[1]) <= 1e-12 * (1.0 + vs) && fabs(rb.u_after[2]) <= 1e-12 * (1.0 + vs));
            ck_assert(hypot(rb.P_ntr[1], rb.P_ntr[2]) <= mu * rb.P_ntr[0] * (1.0 + 1e-9));
        } else {
            /* sliding (10)-(11): on the cone's edge (or frictionless), against U */
            ck_assert(rb.mu_used <= mu && (rb.mu_used == mu || rb.energy_capped));
            ck_assert(fabs(hypot(rb.P_ntr[1], rb.P_ntr[2]) - rb.mu_used * rb.P_ntr[0]) <= 1e-10 * (1.0 + rb.P_ntr[0]));
            if (mu > 0.0 && hypot(rb.u_before[1], rb.u_before[2]) > 1e-9) {
                ck_assert(rb.P_ntr[1] * rb.u_before[1] + rb.P_ntr[2] * rb.u_before[2] <= 0.0);
            }
        }
        /* free mechanisms: momentum kept to 1e-12 */
        if (kind != 2) {
            double v0[3 * 2 * MAX_BODIES], w0[3 * 2 * MAX_BODIES];
            for (int k = 0; k < m.sys.n_bodies; ++k) {
                memcpy(v0 + 3 * k, m.bodies[k].v, sizeof m.bodies[k].v);
                memcpy(w0 + 3 * k, m.bodies[k].w, sizeof m.bodies[k].w);
            }
            pln_impact_momentum(&m.sys, v0, w0, L0, A0);
            pln_impact_momentum(&m.sys, rb.v, rb.w, L1, A1);
            for (int d = 0; d < 3; ++d) scale = fmax(scale, fmax(fabs(L0[d]), fabs(A0[d])));
            for (int d = 0; d < 3; ++d) {
                ck_assert_msg(fabs(L1[d] - L0[d]) <= 1e-12 * (1.0 + scale) && fabs(A1[d] - A0[d]) <= 1e-12 * (1.0 + scale),
                              "trial %d: momentum changed by %g, %g", trial, L1[d] - L0[d], A1[d] - A0[d]);
            }
        }
        /* energy: never more after, for e in [0, 1]. Without friction or at e = 0 that is
         * Newton's law itself; with friction and e > 0 it can give energy back (the
         * Kane-Levinson paradox), and eq. I15 lowers e until it does not */
        ck_assert(!rb.energy_gain);
        ck_assert_msg(rb.energy_after <= rb.energy_before * (1.0 + 1e-12) + 1e-15,
                      "trial %d (e %g mu %g, %s): energy %g -> %g", trial, e, mu, rb.sliding ? "sliding" : "sticking",
                      rb.energy_before, rb.energy_after);
        pln_impact_work_destroy(wb);
        pln_impact_work_destroy(wd);
    }
    /* every kind and both friction cases were met */
    ck_assert(kinds[0] > 0 && kinds[1] > 0 && kinds[2] > 0);
    ck_assert(counts[0] > 20 && counts[1] > 20);
    ck_assert_msg(singular < 140, "%d of 400 singular", singular);
    ck_assert_int_gt(capped, 0); /* the cap was exercised */
}
END_TEST

/* e = 1 without friction keeps the kinetic energy (to 1e-12 relative) */
START_TEST(test_elastic_keeps_energy)
{
    Rng r = {0xe1a5ULL};
    int singular = 0;
    for (int trial = 0; trial < 200; ++trial) {
        Mech m;
        PlnImpactResult res;
        PlnImpactWork *w;
        char err[512];
        rand_mech(&r, &m, trial % 3, 1.0, 0.0);
        w = work_for(&m);
        if (pln_impact_solve(w, &m.sys, PLN_IMPACT_BLOCK, &res, err, sizeof err) != PLN_OK) {
            ck_assert_ptr_nonnull(strstr(err, "singular")); /* as above; rare without friction */
            ++singular;
            pln_impact_work_destroy(w);
            continue;
        }
        ck_assert_msg(fabs(res.energy_after - res.energy_before) <= 1e-12 * res.energy_before,
                      "trial %d: %.17g -> %.17g", trial, res.energy_before, res.energy_after);
        pln_impact_work_destroy(w);
    }
    ck_assert_int_lt(singular, 20);
}
END_TEST

/* a ball dropped on the floor: v_after = -e v (no spin, no friction needed); a ball
 * sliding as it lands: the friction impulse is mu P_N against the slip, so it loses
 * mu (1 + e) |v_z| of tangential speed (rolling not reached) */
START_TEST(test_ball_on_floor)
{
    Mech m;
    PlnImpactResult res;
    PlnImpactWork *w;
    char err[256];
    double rad = 0.1, mass = 2.0, I = 0.4 * mass * rad * rad;
    memset(&m, 0, sizeof m);
    snprintf(m.bodies[0].name, sizeof m.bodies[0].name, "ball");
    m.bodies[0].mass = mass;
    m.bodies[0].inertia[0] = m.bodies[0].inertia[4] = m.bodies[0].inertia[8] = I;
    m.bodies[0].com[2] = rad;
    m.bodies[0].v[2] = -3.0;
    m.sys.n_bodies = 1;
    m.sys.bodies = m.bodies;
    m.sys.contact = (PlnImpactContact){0, PLN_IMPACT_WORLD, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0}, 0.6, 0.3, 0};
    w = work_for(&m);
    ck_assert(pln_impact_solve(w, &m.sys, PLN_IMPACT_BLOCK, &res, err, sizeof err) == PLN_OK);
    ck_assert(!res.sliding);
    ck_assert(fabs(res.v[2] - 1.8) < 1e-14 && fabs(res.P[2] - mass * 4.8) < 1e-13);
    /* now also moving along x at 2 m/s: stopping the contact point takes
     * v / (1/m + r^2/I) = 2 / 1.75 = 1.1429 N s, inside mu P_N = 0.3 * 9.6 = 2.88 N s, so
     * it sticks; with mu = 0.05 (0.48 N s) it slides: v_x after = 2 - 0.48 / 2 = 1.76 */
    m.bodies[0].v[0] = 2.0;
    m.sys.contact.mu = 0.3;
    ck_assert(pln_impact_solve(w, &m.sys, PLN_IMPACT_BLOCK, &res, err, sizeof err) == PLN_OK);
    ck_assert(!res.sliding);
    ck_assert_msg(fabs(res.P[0] + 2.0 * 2.0 / 3.5) < 1e-13, "stick P_x %g", res.P[0]);
    ck_assert(fabs(res.v[0] - res.w[1] * rad) < 1e-13); /* the contact point stops: v_x = r w_y */
    m.sys.contact.mu = 0.05;
    ck_assert(pln_impact_solve(w, &m.sys, PLN_IMPACT_DENSE, &res, err, sizeof err) == PLN_OK);
    ck_assert(res.sliding);
    ck_assert_msg(fabs(res.v[0] - (2.0 - 0.05 * 9.6 / mass)) < 1e-13, "slide v_x %g", res.v[0]);
    pln_impact_work_destroy(w);
}
END_TEST

/* a uniform rod of length L hanging from a nail at its top, struck horizontally at a
 * point below: the nail's reaction vanishes at the centre of percussion, 2 L / 3 below
 * the nail (a textbook result), and the rod's angular velocity follows from the angular
 * impulse about the nail */
START_TEST(test_rod_on_nail_centre_of_percussion)
{
    const double L = 0.9, mass = 1.5, e = 0.0;
    for (int at = 0; at < 3; ++at) {
        Mech m;
        PlnImpactResult res;
        PlnImpactWork *w;
        char err[256];
        double depth = at == 0 ? 2.0 * L / 3.0 : at == 1 ? 0.3 * L : L;
        double Inail = mass * L * L / 3.0, vb = -2.0;
        memset(&m, 0, sizeof m);
        snprintf(m.bodies[0].name, sizeof m.bodies[0].name, "rod");
        m.bodies[0].mass = mass;
        m.bodies[0].inertia[0] = m.bodies[0].inertia[4] = mass * L * L / 12.0;
        m.bodies[0].inertia[8] = 1e-4;
        m.bodies[0].com[2] = -L / 2.0;
        /* a ball (body 1) flying at the rod along -x */
        snprintf(m.bodies[1].name, sizeof m.bodies[1].name, "ball");
        m.bodies[1].mass = 0.5;
        m.bodies[1].inertia[0] = m.bodies[1].inertia[4] = m.bodies[1].inertia[8] = 1e-3;
        m.bodies[1].com[0] = 0.05;
        m.bodies[1].com[2] = -depth;
        m.bodies[1].v[0] = vb;
        m.joints[0] = (PlnImpactJoint){"nail", PLN_IMPACT_NAIL, 0, PLN_IMPACT_WORLD, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0}};
        m.sys = (PlnImpactSystem){2, m.bodies, 1, m.joints,
                                  {1, 0, {0.0, 0.0, -depth}, {1.0, 0.0, 0.0}, e, 0.0, 0}};
        w = work_for(&m);
        ck_assert(pln_impact_solve(w, &m.sys, PLN_IMPACT_BLOCK, &res, err, sizeof err) == PLN_OK);
        /* plastic: the ball and the rod's point move together; angular momentum about the
         * nail: m_b vb depth = (Inail + m_b depth^2) w, w about +y */
        {
            double wy = -0.5 * vb * depth / (Inail + 0.5 * depth * depth);
            ck_assert_msg(fabs(res.w[1] + wy) < 1e-12 || fabs(res.w[1] - wy) < 1e-12, "w_y %g vs %g", res.w[1], wy);
        }
        if (at == 0) {
            /* the centre of percussion: the nail takes no impulse */
            ck_assert_msg(fabs(res.joint_P[0]) < 1e-12, "nail impulse %g at the centre of percussion", res.joint_P[0]);
        } else {
            ck_assert(fabs(res.joint_P[0]) > 1e-3);
        }
        pln_impact_work_destroy(w);
    }
}
END_TEST

/* bad systems: each refused with PLN_ERR_INVALID and a message naming what is wrong */
START_TEST(test_bad_systems)
{
    Rng r = {99};
    Mech m;
    PlnImpactWork *w;
    PlnImpactResult res;
    char err[512];
    rand_mech(&r, &m, 2, 0.5, 0.5);
    w = work_for(&m);
    m.bodies[0].mass = 0.0;
    ck_assert_int_eq(pln_impact_solve(w, &m.sys, PLN_IMPACT_BLOCK, &res, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "mass"));
    m.bodies[0].mass = 1.0;
    m.bodies[0].inertia[1] += 1.0; /* not symmetric */
    ck_assert_int_eq(pln_impact_solve(w, &m.sys, PLN_IMPACT_BLOCK, &res, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "inertia"));
    m.bodies[0].inertia[1] -= 1.0;
    m.bodies[0].v[0] = NAN;
    ck_assert_int_eq(pln_impact_solve(w, &m.sys, PLN_IMPACT_BLOCK, &res, err, sizeof err), PLN_ERR_INVALID);
    m.bodies[0].v[0] = 0.0;
    m.sys.contact.normal[0] *= 2.0;
    ck_assert_int_eq(pln_impact_solve(w, &m.sys, PLN_IMPACT_BLOCK, &res, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "normal"));
    m.sys.contact.normal[0] /= 2.0;
    m.sys.contact.restitution = 1.5;
    ck_assert_int_eq(pln_impact_solve(w, &m.sys, PLN_IMPACT_BLOCK, &res, err, sizeof err), PLN_ERR_INVALID);
    m.sys.contact.restitution = 0.5;
    m.joints[0].body_j = 0; /* the nail joins its body to itself */
    ck_assert_int_eq(pln_impact_solve(w, &m.sys, PLN_IMPACT_BLOCK, &res, err, sizeof err), PLN_ERR_INVALID);
    m.joints[0].body_j = PLN_IMPACT_WORLD;
    pln_impact_work_destroy(w);
    /* redundant: a body welded to the world twice at different points and hit is
     * over-determined (the system is singular) in both solvers */
    memset(&m, 0, sizeof m);
    m.bodies[0] = (PlnImpactBody){"box", 1.0, {0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1}, {0, 0, 0}, {0, 0, -1}, {0, 0, 0}};
    m.joints[0] = (PlnImpactJoint){"w1", PLN_IMPACT_FIXED, 0, PLN_IMPACT_WORLD, {0.1, 0, 0}, {0, 0, 1}};
    m.joints[1] = (PlnImpactJoint){"w2", PLN_IMPACT_FIXED, 0, PLN_IMPACT_WORLD, {-0.1, 0, 0}, {0, 0, 1}};
    m.sys = (PlnImpactSystem){1, m.bodies, 2, m.joints, {0, PLN_IMPACT_WORLD, {0, 0, -0.1}, {0, 0, 1}, 0.5, 0.0, 0}};
    w = work_for(&m);
    ck_assert_int_eq(pln_impact_solve(w, &m.sys, PLN_IMPACT_BLOCK, &res, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "singular"));
    ck_assert_int_eq(pln_impact_solve(w, &m.sys, PLN_IMPACT_DENSE, &res, err, sizeof err), PLN_ERR_INVALID);
    pln_impact_work_destroy(w);
    /* a workspace too small, and sizes past the limits */
    ck_assert_int_eq(pln_impact_work_create(0, 0, &w, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_int_eq(pln_impact_work_create(100000, 0, &w, err, sizeof err), PLN_ERR_INVALID);
}
END_TEST

/* separating contact points: nothing happens */
START_TEST(test_separating_is_no_impact)
{
    Rng r = {5};
    Mech m;
    PlnImpactWork *w;
    PlnImpactResult res;
    char err[256];
    rand_mech(&r, &m, 2, 0.5, 0.5);
    for (int d = 0; d < 3; ++d) m.sys.contact.normal[d] = -m.sys.contact.normal[d];
    w = work_for(&m);
    ck_assert(pln_impact_solve(w, &m.sys, PLN_IMPACT_BLOCK, &res, err, sizeof err) == PLN_OK);
    ck_assert(!res.approaching);
    ck_assert(res.P[0] == 0.0 && res.P[1] == 0.0 && res.P[2] == 0.0);
    for (int k = 0; k < m.sys.n_bodies; ++k) {
        for (int d = 0; d < 3; ++d) ck_assert(res.v[3 * k + d] == m.bodies[k].v[d]);
    }
    pln_impact_work_destroy(w);
}
END_TEST

/* the shipped mechanisms load and solve; both solvers agree, the joints hold, the free
 * one keeps its momentum, the ball leaves rolling */
static const char *const EXAMPLES[] = {"scenarios/mechanisms/double_pendulum.yaml",
                                       "scenarios/mechanisms/joints_zoo.yaml",
                                       "scenarios/mechanisms/ball_on_floor.yaml"};

START_TEST(test_mechanism_examples)
{
    PlnMechanism m;
    PlnImpactWork *w;
    PlnImpactResult rb, rd;
    char err[1024];
    ck_assert_msg(pln_mechanism_load(EXAMPLES[_i], &m, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_msg(m.joint_residual < 1e-5, "%s: velocities break the joints by %g", EXAMPLES[_i], m.joint_residual);
    ck_assert(pln_impact_work_create(m.n_bodies, m.n_joints, &w, err, sizeof err) == PLN_OK);
    ck_assert_msg(pln_impact_solve(w, &m.system, PLN_IMPACT_DENSE, &rd, err, sizeof err) == PLN_OK, "%s", err);
    {
        double P[3];
        memcpy(P, rd.P, sizeof P);
        ck_assert_msg(pln_impact_solve(w, &m.system, PLN_IMPACT_BLOCK, &rb, err, sizeof err) == PLN_OK, "%s", err);
        for (int d = 0; d < 3; ++d) ck_assert(fabs(P[d] - rb.P[d]) <= 1e-10 * (1.0 + fabs(P[d])));
    }
    ck_assert(rb.approaching);
    ck_assert(pln_impact_joint_residual(w, &m.system) < 1e-12);
    ck_assert(fabs(rb.u_after[0] + m.system.contact.restitution * rb.u_before[0]) < 1e-12);
    ck_assert(rb.energy_after < rb.energy_before);
    if (_i == 1) { /* joints_zoo: free, every joint type */
        double v0[24], w0[24], L0[3], A0[3], L1[3], A1[3];
        for (int k = 0; k < m.n_bodies; ++k) {
            memcpy(v0 + 3 * k, m.bodies[k].v, sizeof m.bodies[k].v);
            memcpy(w0 + 3 * k, m.bodies[k].w, sizeof m.bodies[k].w);
        }
        pln_impact_momentum(&m.system, v0, w0, L0, A0);
        pln_impact_momentum(&m.system, rb.v, rb.w, L1, A1);
        for (int d = 0; d < 3; ++d) ck_assert(fabs(L1[d] - L0[d]) < 1e-12 && fabs(A1[d] - A0[d]) < 1e-12);
    }
    if (_i == 2) { /* sticks: leaves rolling, v_x = r w_y */
        ck_assert(!rb.sliding);
        ck_assert(fabs(rb.v[0] - 0.1 * rb.w[1]) < 1e-12);
    }
    pln_impact_work_destroy(w);
    pln_mechanism_destroy(&m);
}
END_TEST

/* bad mechanism files: exit 2 from `hrpplan impact`, a message naming file:line and the
 * field, and no output left behind */
static const char *const IMPACT_BAD[][2] = {
    {"zero_mass", "zero_mass.yaml:3:21: bodies[0].mass: must be positive"},
    {"negative_inertia", ":3:35: bodies[0].inertia: principal moments must be positive"},
    {"inertia_not_spd", ":3:35: bodies[0].inertia: must be symmetric positive definite"},
    {"unknown_body", ":6:40: joints[0].bodies[1]: unknown body 'c'"},
    {"nail_two_bodies", ":6:35: joints[0].bodies: a nail holds one body to the world"},
    {"zero_axis", ":6:75: joints[0].axis: a direction must not be zero"},
    {"world_first", ":5:19: contact.bodies: two different bodies, the first not the world"},
    {"restitution_big", ":5:84: contact.restitution: must be in [0, 1]"},
    {"duplicate_body", ":4:12: bodies[1].name: 'a' is a duplicate name"},
    {"unknown_type", ":6:21: joints[0].type: 'ball': expected point, nail"},
    {"no_contact", ":1:1: contact: required key is missing"},
    {"axis_on_point", ":6:72: joints[0].axis: a point joint has no axis"},
    {"nan_velocity", ":3:79: bodies[0].velocity[0]: expected a finite number, got '.nan'"},
    {"redundant", "the system is singular"},
    {"world_body", ":3:12: bodies[0].name: 'world' is reserved"},
    {"empty", "empty.yaml: the file is empty"},
};

START_TEST(test_bad_mechanism_files)
{
    static char out[16384], errs[16384];
    char dir[256], file[256], odir[300];
    char *argv[] = {"hrpplan", "impact", file, "-o", odir};
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(file, sizeof file, "tests/data/impact_bad/%s.yaml", IMPACT_BAD[_i][0]);
    snprintf(odir, sizeof odir, "%s/out", dir);
    ck_assert_int_eq(cli_run(5, argv, out, errs, sizeof out), PLN_EXIT_BAD_INPUT);
    ck_assert_msg(strstr(errs, IMPACT_BAD[_i][1]) != NULL, "'%s' lacks '%s'", errs, IMPACT_BAD[_i][1]);
    ck_assert_msg(strstr(errs, IMPACT_BAD[_i][0]) != NULL, "'%s' does not name the file", errs);
    ck_assert_int_eq(ckutil_count_entries(dir), 0);
    ckutil_rm_flat(dir);
}
END_TEST

/* the command end to end: impact.json with the impulse, the same from both solvers */
START_TEST(test_impact_command)
{
    static char out[16384], errs[16384], json[1 << 16];
    char dir[256], odir[300], path[400];
    char *argv[] = {"hrpplan", "impact", "scenarios/mechanisms/double_pendulum.yaml", "-o", odir, "--solver", "dense"};
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(odir, sizeof odir, "%s/out", dir);
    ck_assert_int_eq(cli_run(7, argv, out, errs, sizeof out), PLN_EXIT_OK);
    ck_assert_ptr_nonnull(strstr(out, "impulse on lower"));
    ck_assert_ptr_nonnull(strstr(out, "elbow"));
    ck_assert_ptr_nonnull(strstr(out, "kinetic energy"));
    snprintf(path, sizeof path, "%s/impact.json", odir);
    ck_assert(ckutil_read_file(path, json, sizeof json) > 0);
    ck_assert_ptr_nonnull(strstr(json, "\"solver\": \"dense\""));
    ck_assert_ptr_nonnull(strstr(json, "\"friction_case\": \"sliding\""));
    ck_assert_ptr_nonnull(strstr(json, "\"kinetic_energy_after_j\""));
    argv[6] = "block";
    ck_assert_int_eq(cli_run(7, argv, out, errs, sizeof out), PLN_EXIT_OK);
    ck_assert(ckutil_read_file(path, json, sizeof json) > 0);
    ck_assert_ptr_nonnull(strstr(json, "\"solver\": \"block\""));
    /* usage */
    argv[6] = "qr";
    ck_assert_int_eq(cli_run(7, argv, out, errs, sizeof out), PLN_EXIT_BAD_INPUT);
    ck_assert_ptr_nonnull(strstr(errs, "--solver 'qr': expected block or dense"));
    remove(path);
    rmdir(odir);
    rmdir(dir);
}
END_TEST

/* The robot form: a plan made without collision constraints (the right hand passes
 * through a crate); the first contact of hand and crate is certified (the real distance
 * is positive at 3000 instants before it and reaches zero within 1e-7 s after it); the
 * robot as a mechanism takes the impulse with its joints and welded feet holding; the
 * command writes impact.json; bad uses are refused. */
START_TEST(test_robot_impact)
{
    static char out[1 << 16], errs[16384], json[1 << 17];
    char dir[256], odir[300], traj[400], path[400], err[1024];
    char *plan[] = {"hrpplan", "plan", "tests/data/reach_box.yaml", "--no-collision", "-q",
                    "--max-time", "86400", "-o", odir}; /* never stopped by the clock */
    PlnPlanOptions opt = pln_plan_options_default();
    PlnLoaded l;
    PlnKinWork *kin = NULL;
    PlnRobotImpact ri;
    PlnImpactWork *w = NULL;
    PlnImpactResult r;
    double *ctrl, *q, t = -1.0, *qd_after;
    int pair = -1, found = 0;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(odir, sizeof odir, "%s/plan", dir);
    snprintf(traj, sizeof traj, "%s/trajectory.json", odir);
    (void)cli_run(9, plan, out, errs, sizeof out);
    ck_assert_msg(access(traj, R_OK) == 0, "%s", errs);
    ck_assert_msg(pln_plan_load("tests/data/reach_box.yaml", &opt, &l, err, sizeof err) == PLN_OK, "%s", err);
    ctrl = calloc((size_t)l.p->n_active * l.p->n_ctrl, sizeof *ctrl);
    q = calloc((size_t)l.robot.n_joints, sizeof *q);
    qd_after = calloc((size_t)l.robot.n_joints, sizeof *qd_after);
    ck_assert(ctrl && q && qd_after);
    ck_assert_msg(pln_plan_read_trajectory_json(traj, l.p, ctrl, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert(pln_robotimpact_find_pair(l.p, "crate,RARM_LINK6", &pair, err, sizeof err) == PLN_OK);
    ck_assert_int_eq(pln_robotimpact_find_pair(l.p, "RARM_LINK6,HEAD_LINK1", &pair, err, sizeof err), PLN_ERR_INVALID);
    ck_assert(pln_robotimpact_find_pair(l.p, "RARM_LINK6,crate", &pair, err, sizeof err) == PLN_OK);
    ck_assert(pln_robotimpact_first_contact(l.p, ctrl, pair, &t, &found, err, sizeof err) == PLN_OK);
    ck_assert(found && t > 0.0 && t < l.sc.duration);
    ck_assert(pln_kin_create(&l.robot, &kin, err, sizeof err) == PLN_OK);
    for (int k = 0; k <= 3000; ++k) {
        PlnPairDistance pd;
        double tk = t * k / 3000.0;
        ck_assert_int_eq(pln_problem_joints_at(l.p, ctrl, tk, q), PLN_OK);
        ck_assert_int_eq(pln_kin_forward(kin, &l.robot, q), PLN_OK);
        pln_problem_pair_distance(l.p, kin, pair, &pd);
        ck_assert_msg(pd.distance > 0.0, "distance %g at %g s, before the first contact %g s", pd.distance, tk, t);
    }
    {
        double dmin = HUGE_VAL;
        for (int k = 1; k <= 10; ++k) {
            PlnPairDistance pd;
            ck_assert_int_eq(pln_problem_joints_at(l.p, ctrl, t + PLN_IMPACT_TOC_TOL_S * k / 10.0, q), PLN_OK);
            ck_assert_int_eq(pln_kin_forward(kin, &l.robot, q), PLN_OK);
            pln_problem_pair_distance(l.p, kin, pair, &pd);
            dmin = fmin(dmin, pd.distance);
        }
        ck_assert_msg(dmin <= 0.0, "no contact within %g s after %g s (%g m)", PLN_IMPACT_TOC_TOL_S, t, dmin);
    }
    ck_assert_msg(pln_robotimpact_build(l.p, ctrl, pair, t, 0.0, 0.5, &ri, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(ri.system.n_bodies, l.robot.n_links);
    ck_assert(ri.welds_feet && ri.n_welds == 2);
    {
        /* the velocities from q, qd satisfy every joint and keep the feet still */
        double v0[3 * 64], w0[3 * 64];
        ck_assert(ri.system.n_bodies <= 64);
        for (int k = 0; k < ri.system.n_bodies; ++k) {
            memcpy(v0 + 3 * k, ri.bodies[k].v, sizeof ri.bodies[k].v);
            memcpy(w0 + 3 * k, ri.bodies[k].w, sizeof ri.bodies[k].w);
        }
        ck_assert_msg(pln_impact_velocity_residual(&ri.system, v0, w0) < 1e-12, "pre-impact joint residual %g",
                      pln_impact_velocity_residual(&ri.system, v0, w0));
    }
    ck_assert(pln_impact_work_create(ri.system.n_bodies, ri.system.n_joints, &w, err, sizeof err) == PLN_OK);
    ck_assert_msg(pln_impact_solve(w, &ri.system, PLN_IMPACT_BLOCK, &r, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert(r.approaching);
    ck_assert_msg(pln_impact_joint_residual(w, &ri.system) < 1e-10, "joint residual %g",
                  pln_impact_joint_residual(w, &ri.system));
    ck_assert(fabs(r.u_after[0]) < 1e-10);          /* plastic */
    ck_assert(r.energy_after <= r.energy_before);
    pln_robotimpact_rates(l.p, &ri, r.w, qd_after);
    /* the rates before agree with the spline's, and a moving arm joint changes */
    {
        double qd[64], qdd[64], change = 0.0;
        ck_assert_int_eq(pln_problem_state_at(l.p, ctrl, t, q, qd, qdd), PLN_OK);
        for (int j = 0; j < l.robot.n_joints; ++j) {
            ck_assert(fabs(ri.qd[j] - qd[j]) < 1e-15);
            change = fmax(change, fabs(qd_after[j] - qd[j]));
        }
        ck_assert(change > 1e-3);
    }
    pln_impact_work_destroy(w);
    pln_robotimpact_destroy(&ri);
    /* the command */
    {
        char *argv[] = {"hrpplan", "impact", "tests/data/reach_box.yaml", traj, "--pair", "RARM_LINK6,crate", "-o", odir};
        char *nopair[] = {"hrpplan", "impact", "tests/data/reach_box.yaml", traj};
        char *mixed[] = {"hrpplan", "impact", "scenarios/mechanisms/ball_on_floor.yaml", "--pair", "a,b"};
        char *never[] = {"hrpplan", "impact", "tests/data/reach_box.yaml", traj, "--pair", "RARM_LINK6,WAIST", "-o", odir};
        ck_assert_int_eq(cli_run(8, argv, out, errs, sizeof out), PLN_EXIT_OK);
        ck_assert_ptr_nonnull(strstr(out, "(first contact)"));
        snprintf(path, sizeof path, "%s/impact.json", odir);
        ck_assert(ckutil_read_file(path, json, sizeof json) > 0);
        ck_assert_ptr_nonnull(strstr(json, "\"robot_joints\""));
        ck_assert_ptr_nonnull(strstr(json, "\"time_source\": \"first contact\""));
        ck_assert_ptr_nonnull(strstr(json, "\"body_b\": \"world\""));
        ck_assert_int_eq(cli_run(4, nopair, out, errs, sizeof out), PLN_EXIT_BAD_INPUT);
        ck_assert_ptr_nonnull(strstr(errs, "--pair LINK_A,LINK_B is required"));
        ck_assert_int_eq(cli_run(5, mixed, out, errs, sizeof out), PLN_EXIT_BAD_INPUT);
        ck_assert_ptr_nonnull(strstr(errs, "are for a planned robot"));
        ck_assert_int_eq(cli_run(8, never, out, errs, sizeof out), PLN_EXIT_OK);
        ck_assert_ptr_nonnull(strstr(out, "never touch"));
    }
    free(ctrl);
    free(q);
    free(qd_after);
    pln_kin_destroy(kin);
    pln_plan_unload(&l);
    {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        ck_assert_int_eq(system(cmd), 0);
    }
}
END_TEST

/* the robot's impact mechanism has revolute joints and welds: a prismatic joint (tests/data/
 * arm3p.yaml's LIFT) is refused by name, never welded */
START_TEST(test_robot_impact_refuses_prismatic)
{
    PlnPlanOptions opt = pln_plan_options_default();
    PlnLoaded l;
    PlnRobotImpact ri;
    char err[1024];
    double *ctrl;
    ck_assert_msg(pln_plan_load("tests/data/lift_reach.yaml", &opt, &l, err, sizeof err) == PLN_OK, "%s", err);
    ctrl = calloc((size_t)l.p->n_active * l.p->n_ctrl, sizeof *ctrl);
    ck_assert_ptr_nonnull(ctrl);
    ck_assert_int_eq(pln_robotimpact_build(l.p, ctrl, 0, 1.0, 0.0, 0.5, &ri, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_msg(strstr(err, "'LIFT' is prismatic") != NULL, "%s", err);
    free(ctrl);
    pln_plan_unload(&l);
}
END_TEST

Suite *pln_impact_suite(void)
{
    Suite *s = suite_create("pln_impact");
    TCase *tc = tcase_create("impulse");
    tcase_set_timeout(tc, 120); /* the robot test plans a motion; slow under ASan */
    tcase_add_loop_test(tc, test_random_mechanisms, 0, 2);
    tcase_add_test(tc, test_elastic_keeps_energy);
    tcase_add_test(tc, test_ball_on_floor);
    tcase_add_test(tc, test_rod_on_nail_centre_of_percussion);
    tcase_add_test(tc, test_bad_systems);
    tcase_add_test(tc, test_separating_is_no_impact);
    tcase_add_loop_test(tc, test_mechanism_examples, 0, 3);
    tcase_add_loop_test(tc, test_bad_mechanism_files, 0, (int)(sizeof IMPACT_BAD / sizeof IMPACT_BAD[0]));
    tcase_add_test(tc, test_impact_command);
    tcase_add_test(tc, test_robot_impact);
    tcase_add_test(tc, test_robot_impact_refuses_prismatic);
    suite_add_tcase(s, tc);
    return s;
}
