/* check_pln_certify.c — tests of planner/problem/pln_certify.c: a motion whose true
 * clearance is at least 5 mm always certifies its pairs, however fast it moves over a
 * constraint interval (wide Taylor enclosures are refined, not reported as contact), and
 * every certified lower bound lies below the true minimum found by dense sampling, and
 * every reported upper end is a distance the motion attains (above that minimum). Random
 * fast motions of tests/data/arm2.yaml past random spheres and capsules. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_rng.h"
#include "check_util.h"
#include "base/pln_tolerance.h"
#include "model/pln_contact.h"
#include "model/pln_dyn.h"
#include "model/pln_kin.h"
#include "problem/pln_certify.h"
#include "problem/pln_dynrows.h"
#include "problem/pln_guess.h"
#include "problem/pln_plan.h"
#include "problem/pln_problem.h"

/* true clearance above which the pairs must certify, m (issue 21) */
#define CERT_CLEAR_M 0.005
/* samples of the dense reference over the motion */
#define CERT_SAMPLES 4000
/* rounding allowance of a lower bound against the sampled minimum, m */
#define CERT_BOUND_TOL 1e-9
/* random motions tried */
#define CERT_MOTIONS 160

/* the minimum over dense samples of every pair's static distance */
static double sampled_min(const PlnLoaded *l, PlnKinWork *kin, const double *ctrl)
{
    double best = HUGE_VAL, q[8];
    for (int s = 0; s <= CERT_SAMPLES; ++s) {
        double t = l->sc.duration * s / CERT_SAMPLES;
        ck_assert_int_eq(pln_problem_joints_at(l->p, ctrl, t, q), PLN_OK);
        ck_assert_int_eq(pln_kin_forward(kin, &l->robot, q), PLN_OK);
        for (int pr = 0; pr < l->sc.n_pairs; ++pr) {
            PlnPairDistance d;
            pln_problem_pair_distance(l->p, kin, pr, &d);
            if (d.distance < best) best = d.distance;
        }
    }
    return best;
}

START_TEST(test_clear_fast_motions_certify)
{
    char dir[512], path[600], err[1024];
    Rng r = {0xce47ULL};
    int tried = 0, clear = 0, certified = 0, refined_needed = 0;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/fast.yaml", dir);
    for (int m = 0; m < CERT_MOTIONS; ++m) {
        char cwd[1024];
        FILE *f = fopen(path, "w");
        PlnLoaded l;
        PlnPlanOptions opt = pln_plan_options_default();
        PlnKinWork *kin;
        PlnCertificate c;
        double *x, *ctrl, truth, lower = HUGE_VAL;
        int spans = 1 + (int)rng_uniform(&r, 0.0, 2.999);
        double ang = rng_uniform(&r, -3.0, 3.0), rad = rng_uniform(&r, 0.45, 0.65);
        ck_assert_ptr_nonnull(f);
        ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
        /* one sphere and one capsule near the arm's reach */
        fprintf(f, "name: fast\nrobot: %s/tests/data/arm2.yaml\nduration: 2.0\n"
                   "spline: {degree: 5, spans: %d}\njoints: [SHOULDER, ELBOW]\n"
                   "rest: {start: false, end: false}\ntasks: []\n"
                   "environment:\n"
                   "  - {name: ball, type: sphere, center: [%.4f, %.4f, 1.0], radius: %.4f}\n"
                   "  - {name: bar, type: capsule, p0: [%.4f, %.4f, 0.8], p1: [%.4f, %.4f, 1.2], radius: 0.03}\n"
                   "collision: {pairs: [[FORE, ball], [UPPER, ball], [FORE, bar]]}\n",
                cwd, spans, rad * cos(ang), rad * sin(ang), rng_uniform(&r, 0.03, 0.1),
                0.6 * cos(ang + 1.5), 0.6 * sin(ang + 1.5), 0.6 * cos(ang + 1.5),
                0.6 * sin(ang + 1.5));
        fclose(f);
        ck_assert_msg(pln_plan_load(path, &opt, &l, err, sizeof err) == PLN_OK, "%s", err);
        ck_assert(pln_kin_create(&l.robot, &kin, err, sizeof err) == PLN_OK);
        x = calloc((size_t)l.p->n_vars, sizeof *x);
        ctrl = calloc((size_t)l.p->n_active * l.p->n_ctrl, sizeof *ctrl);
        ck_assert(x != NULL && ctrl != NULL);
        /* a fast motion: every free control point anywhere in the joint ranges */
        for (int v = 0; v < l.p->n_vars; ++v) x[v] = rng_uniform(&r, l.p->lb[v], l.p->ub[v]);
        pln_problem_ctrl(l.p, x, ctrl);
        truth = sampled_min(&l, kin, ctrl);
        ck_assert_msg(pln_certify_spline(l.p, ctrl, opt.cert_eps_ratio, &c, err, sizeof err) == PLN_OK,
                      "%s", err);
        for (int pr = 0; pr < c.n_pairs; ++pr) lower = fmin(lower, c.pairs[pr].lower);
        /* every pair's upper end is the distance the motion attains at its t_min */
        for (int pr = 0; pr < c.n_pairs; ++pr) {
            double q[8];
            PlnPairDistance d;
            ck_assert_int_eq(pln_problem_joints_at(l.p, ctrl, c.pairs[pr].t_min, q), PLN_OK);
            ck_assert_int_eq(pln_kin_forward(kin, &l.robot, q), PLN_OK);
            pln_problem_pair_distance(l.p, kin, pr, &d);
            ck_assert_msg(fabs(c.pairs[pr].upper - d.distance) <= CERT_BOUND_TOL,
                          "motion %d pair %d: upper %.9g, distance at t_min %.9g", m, pr,
                          c.pairs[pr].upper, d.distance);
            ck_assert(c.pairs[pr].lower <= c.pairs[pr].upper);
        }
        /* sound: never above the true minimum */
        ck_assert_msg(lower <= truth + CERT_BOUND_TOL, "motion %d: lower %.9g above the sampled %.9g",
                      m, lower, truth);
        ++tried;
        if (truth >= CERT_CLEAR_M) {
            ++clear;
            certified += lower >= 0.0;

            ck_assert_msg(lower >= 0.0,
                          "motion %d (%d spans): true clearance %.4f m, certified lower %.4f m", m,
                          spans, truth, lower);
            /* the refinement ran: more MCD calls than pairs x intervals */
            refined_needed += c.mcd_calls > (long)c.n_pairs * c.n_intervals;
        }
        pln_certificate_destroy(&c);
        free(x);
        free(ctrl);
        pln_kin_destroy(kin);
        pln_plan_unload(&l);
    }
    ck_assert_int_eq(tried, CERT_MOTIONS);
    ck_assert_msg(clear >= CERT_MOTIONS / 8, "only %d clear motions drawn", clear);
    ck_assert_int_eq(certified, clear);
    /* the draws are fast enough that whole-interval enclosures do not always certify */
    ck_assert_msg(refined_needed >= 3, "only %d clear motions needed refining", refined_needed);

    unlink(path);
    rmdir(dir);
}
END_TEST

/* control points around the start (x of the start plus amp U[-1, 1], inside the bounds)
 * and their spline, for the stance and floor tests */
static void random_motion(const PlnProblem *p, double amp, Rng *r, double *x, double *ctrl)
{
    pln_problem_initial_x(p, x);
    for (int v = 0; v < p->n_vars; ++v) {
        x[v] = fmin(fmax(x[v] + amp * rng_uniform(r, -1.0, 1.0), p->lb[v]), p->ub[v]);
    }
    pln_problem_ctrl(p, x, ctrl);
}

/* The stance foot's certified slide and turn (Taylor-model bounds over its phase, a part
 * of an interval included) are never below what dense sampling of the motion finds:
 * random leg motions of growing size under a floating base (tests/data/stance_knees.yaml).
 * At rest both bounds vanish, and a large motion fails with cause "stance". */
START_TEST(test_stance_bounds_sound)
{
    const double amps[4] = {0.0, 0.003, 0.03, 0.15};
    char err[2048];
    PlnPlanOptions opt = pln_plan_options_default();
    PlnLoaded l;
    PlnKinWork *kin = NULL;
    Rng r = {77};
    int failed_stance = 0;
    ck_assert_msg(pln_plan_load("tests/data/stance_knees.yaml", &opt, &l, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_str_eq(l.robot.links[0].name, "RLEG_LINK5");
    ck_assert_int_eq(l.p->n_stance, 1);
    ck_assert_str_eq(l.robot.links[l.p->stance[0].link].name, "LLEG_LINK5");
    ck_assert(pln_kin_create(&l.robot, &kin, err, sizeof err) == PLN_OK);
    for (int trial = 0; trial < 12; ++trial) {
        const PlnStance *s = &l.p->stance[0];
        double amp = amps[trial % 4], slide = 0.0, turn = 0.0, q[64];
        double *x = calloc((size_t)l.p->n_vars, sizeof *x);
        double *ctrl = calloc((size_t)l.p->n_active * l.p->n_ctrl, sizeof *ctrl);
        PlnCertificate c;
        ck_assert(x != NULL && ctrl != NULL);
        random_motion(l.p, amp, &r, x, ctrl);
        for (int k = 0; k <= 4000; ++k) {
            double t = 1.0 * k / 4000.0, p[3], e = 0.0, tr = 0.0;
            const double *R;
            ck_assert_int_eq(pln_problem_joints_at(l.p, ctrl, t, q), PLN_OK);
            ck_assert_int_eq(pln_kin_forward(kin, &l.robot, q), PLN_OK);
            pln_kin_point(kin, s->link, s->point, p);
            for (int d = 0; d < 3; ++d) e += (p[d] - s->target[d]) * (p[d] - s->target[d]);
            R = pln_kin_link_rot(kin, s->link);
            for (int d = 0; d < 9; ++d) tr += R[d] * s->target_rot[d];
            slide = fmax(slide, sqrt(e));
            /* the angle of M = R*^T R: atan2(|vee(M - M^T)| / 2, (tr M - 1) / 2), accurate
             * for small angles too */
            {
                double M[9], w[3];
                for (int a = 0; a < 3; ++a) {
                    for (int b = 0; b < 3; ++b) {
                        M[3 * a + b] = 0.0;
                        for (int k2 = 0; k2 < 3; ++k2) M[3 * a + b] += s->target_rot[3 * k2 + a] * R[3 * k2 + b];
                    }
                }
                w[0] = 0.5 * (M[7] - M[5]);
                w[1] = 0.5 * (M[2] - M[6]);
                w[2] = 0.5 * (M[3] - M[1]);
                turn = fmax(turn, atan2(sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]), 0.5 * (tr - 1.0)));
            }
        }
        ck_assert_msg(pln_certify_spline(l.p, ctrl, opt.cert_eps_ratio, &c, err, sizeof err) == PLN_OK,
                      "%s", err);
        ck_assert(c.stance_checked);
        ck_assert_msg(c.stance_pos_max >= slide - 1e-12 && c.stance_rot_max >= turn - 1e-12,
                      "trial %d (amplitude %g): bounds %.6g m, %.6g rad below the sampled %.6g m, "
                      "%.6g rad", trial, amp, c.stance_pos_max, c.stance_rot_max, slide, turn);
        if (amp == 0.0) ck_assert(c.stance_pos_max < 1e-9 && c.stance_rot_max < 1e-6);
        if (slide > 2.0 * PLN_STANCE_POS_TOL_M) {
            ck_assert(!c.certified);
            failed_stance += c.cause == PLN_CAUSE_STANCE || c.cause == PLN_CAUSE_CONTACT ||
                             c.cause == PLN_CAUSE_DYNAMICS;
            if (c.cause == PLN_CAUSE_STANCE) ck_assert_ptr_nonnull(strstr(c.reason, "LLEG_LINK5 may slide"));
        }
        pln_certificate_destroy(&c);
        free(x);
        free(ctrl);
    }
    ck_assert_int_gt(failed_stance, 0);
    pln_kin_destroy(kin);
    pln_plan_unload(&l);
}
END_TEST

/* The lifted sole's certified lowest corner (eq. P13c: the lower end of each corner's
 * Taylor-model height over the phase where the foot is off the floor, a part of an
 * interval included) is never above what dense sampling finds, on random leg motions of
 * growing size (tests/data/stance_knees.yaml: the left foot is off the floor over [1, 2]
 * s). At rest it is on the floor; motions that push the foot down are not certified. */
START_TEST(test_floor_bound_sound)
{
    const double amps[4] = {0.0, 0.003, 0.03, 0.15};
    char err[2048];
    PlnPlanOptions opt = pln_plan_options_default();
    PlnLoaded l;
    PlnKinWork *kin = NULL;
    Rng r = {1313};
    int below = 0;
    ck_assert_msg(pln_plan_load("tests/data/stance_knees.yaml", &opt, &l, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(l.p->n_swing, 1);
    ck_assert_str_eq(l.robot.links[l.p->swing[0].link].name, "LLEG_LINK5");
    ck_assert(pln_kin_create(&l.robot, &kin, err, sizeof err) == PLN_OK);
    for (int trial = 0; trial < 16; ++trial) {
        const PlnSwing *sw = &l.p->swing[0];
        const PlnPhaseGeom *g = &l.p->phases[sw->phase];
        double amp = amps[trial % 4], lowest = HUGE_VAL, q[64];
        double *x = calloc((size_t)l.p->n_vars, sizeof *x);
        double *ctrl = calloc((size_t)l.p->n_active * l.p->n_ctrl, sizeof *ctrl);
        PlnCertificate c;
        ck_assert(x != NULL && ctrl != NULL);
        random_motion(l.p, amp, &r, x, ctrl);
        for (int k = 0; k <= 4000; ++k) {
            double t = g->t0 + (g->t1 - g->t0) * k / 4000.0;
            ck_assert_int_eq(pln_problem_joints_at(l.p, ctrl, t, q), PLN_OK);
            ck_assert_int_eq(pln_kin_forward(kin, &l.robot, q), PLN_OK);
            for (int k2 = 0; k2 < 4; ++k2) {
                double local[3], pt[3];
                pln_sole_corner(&l.robot.soles[sw->sole], k2, local);
                pln_kin_point(kin, sw->link, local, pt);
                lowest = fmin(lowest, pt[2] - g->support.floor_z);
            }
        }
        ck_assert_msg(pln_certify_spline(l.p, ctrl, opt.cert_eps_ratio, &c, err, sizeof err) == PLN_OK,
                      "%s", err);
        ck_assert(c.floor_checked);
        ck_assert_msg(c.floor_min <= lowest + 1e-12, "trial %d (amplitude %g): bound %.9g m above the sampled %.9g m",
                      trial, amp, c.floor_min, lowest);
        if (amp == 0.0) ck_assert_msg(fabs(c.floor_min) < 1e-9, "at rest: %g", c.floor_min);
        if (lowest < -2.0 * PLN_STANCE_POS_TOL_M) {
            /* a foot in the floor is never certified (the reason names the first failed
             * check, often the stance foot's slide or the dynamics of so wild a motion) */
            ck_assert(!c.certified);
            ck_assert(c.floor_min < -PLN_STANCE_POS_TOL_M && c.floor_link == sw->link);
            if (c.cause == PLN_CAUSE_STANCE && strstr(c.reason, "below the floor") != NULL) {
                ck_assert_ptr_nonnull(strstr(c.reason, "LLEG_LINK5"));
            }
            ++below;
        }
        pln_certificate_destroy(&c);
        free(x);
        free(ctrl);
    }
    ck_assert_int_gt(below, 0);
    pln_kin_destroy(kin);
    pln_plan_unload(&l);
}
END_TEST

/* The certified dynamics of fast motions against dense sampling of the point-wise inverse
 * dynamics (pln_dyn_rnea, pln_contact_split, eq. D16-D21): every certified bound holds
 * (torque ratio and friction ratio above, ZMP distance and floor force below the sampled
 * extremes), and the bisection of wide intervals makes a motion whose sampled torque
 * stays below 0.8 of the limits certify its torques. */
START_TEST(test_dynamics_bounds_sound)
{
    char err[2048];
    PlnPlanOptions opt = pln_plan_options_default();
    PlnLoaded l;
    PlnKinWork *kin = NULL;
    PlnDynWork *dw = NULL;
    Rng r = {4242};
    int torque_certified_low = 0;
    const double gravity[3] = {0.0, 0.0, -PLN_GRAVITY_MS2};
    ck_assert_msg(pln_plan_load("tests/data/arms_fast.yaml", &opt, &l, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert(l.p->dynamics && l.sc.torque_limits && l.p->n_phases == 1);
    ck_assert(pln_kin_create(&l.robot, &kin, err, sizeof err) == PLN_OK);
    ck_assert(pln_dyn_create(&l.robot, &dw, err, sizeof err) == PLN_OK);
    for (int trial = 0; trial < 8; ++trial) {
        const int nj = l.robot.n_joints, nv = 6 + nj;
        const PlnPhaseGeom *g = &l.p->phases[0];
        double amp = 0.15 + 0.1 * trial, torque = 0.0, friction = 0.0, zmp = HUGE_VAL, fz = HUGE_VAL;
        double *x = calloc((size_t)l.p->n_vars, sizeof *x);
        double *ctrl = calloc((size_t)l.p->n_active * l.p->n_ctrl, sizeof *ctrl);
        double *q = calloc((size_t)nj, sizeof *q), *qd = calloc((size_t)nj, sizeof *qd);
        double *qdd = calloc((size_t)nj, sizeof *qdd), *nu = calloc((size_t)nv, sizeof *nu);
        double *nudot = calloc((size_t)nv, sizeof *nudot), *tau = calloc((size_t)nv, sizeof *tau);
        PlnCertificate c;
        ck_assert(x && ctrl && q && qd && qdd && nu && nudot && tau);
        random_motion(l.p, amp, &r, x, ctrl);
        for (int k = 0; k <= 3000; ++k) {
            double t = l.sc.duration * k / 3000.0;
            PlnDynState s;
            PlnContactSplit sp;
            ck_assert_int_eq(pln_problem_state_at(l.p, ctrl, t, q, qd, qdd), PLN_OK);
            memset(&s, 0, sizeof s);
            memcpy(s.base_pos, l.robot.base_pos, sizeof s.base_pos);
            memcpy(s.base_rot, l.robot.base_rot, sizeof s.base_rot);
            memcpy(nu + 6, qd, (size_t)nj * sizeof *nu);
            memcpy(nudot + 6, qdd, (size_t)nj * sizeof *nudot);
            s.q = q;
            s.nu = nu;
            s.nudot = nudot;
            ck_assert_int_eq(pln_kin_forward(kin, &l.robot, q), PLN_OK);
            ck_assert_int_eq(pln_dyn_rnea(dw, &l.robot, &s, gravity, tau), PLN_OK);
            fz = fmin(fz, tau[5] / l.p->weight);
            friction = fmax(friction, sqrt(tau[3] * tau[3] + tau[4] * tau[4]) / (l.sc.mu * tau[5]));
            ck_assert(pln_contact_split(&g->support, tau, 0.0, &sp, 0));
            for (int e = 0; e < g->n_edges; ++e) {
                zmp = fmin(zmp, g->edge_b[e] + l.sc.zmp_margin - (g->edge_n[e][0] * sp.zmp[0] + g->edge_n[e][1] * sp.zmp[1]));
            }
            for (int j = 0; j < nj; ++j) {
                const PlnJoint *jt = &l.robot.joints[j];
                int lk = jt->link;
                double v;
                if (jt->type == PLN_JOINT_FIXED) continue;
                v = pln_contact_joint_torque(&l.robot, &g->support, &sp, j, tau[6 + j],
                                             pln_kin_joint_axis(kin, lk), pln_kin_link_pos(kin, lk), NULL);
                torque = fmax(torque, fabs(v) / jt->effort_max);
            }
        }
        ck_assert_msg(pln_certify_spline(l.p, ctrl, opt.cert_eps_ratio, &c, err, sizeof err) == PLN_OK,
                      "%s", err);
        ck_assert(c.dynamics_checked);
        ck_assert_msg(c.torque_ratio_max >= torque - 1e-9 && c.friction_ratio_max >= friction - 1e-9 &&
                          c.zmp_margin_min <= zmp + 1e-9 && c.fz_min_rel <= fz + 1e-9,
                      "trial %d: certified torque %g friction %g zmp %g fz %g; sampled %g %g %g %g",
                      trial, c.torque_ratio_max, c.friction_ratio_max, c.zmp_margin_min, c.fz_min_rel,
                      torque, friction, zmp, fz);
        if (torque < 0.8) {
            ck_assert_msg(c.torque_ratio_max <= 1.0, "trial %d: sampled torque ratio %g, certified %g",
                          trial, torque, c.torque_ratio_max);
            ++torque_certified_low;
        }
        pln_certificate_destroy(&c);
        free(x);
        free(ctrl);
        free(q);
        free(qd);
        free(qdd);
        free(nu);
        free(nudot);
        free(tau);
    }
    ck_assert_int_gt(torque_certified_low, 0);
    pln_dyn_destroy(dw);
    pln_kin_destroy(kin);
    pln_plan_unload(&l);
}
END_TEST

/* Eq. P6d (docs/math/planner.md sec. 4c): each support phase's ZMP and torques certified on
 * the part of its intervals where it holds. support_phase_boundary.yaml's single-support
 * phase starts and ends inside constraint intervals; its planned motion brings the ZMP to
 * its margin near the phase's start. The certified least ZMP margin and largest torque
 * ratio against the point-wise dynamics of the phase holding at each of 4000 instants
 * (pln_dynrows_sample): sound (never above / below them) and within 5 mm / 0.05 of them
 * (0.3 mm and 0.0024 here). Whole-interval bounds bisected by the certificate come within
 * 0.46 mm on this motion too: the rows' test (check_pln_problem) and the plan's
 * (check_pln_plan) are the ones that fail without eq. P6d. */
START_TEST(test_phase_parts_certified)
{
    char err[2048];
    PlnPlanOptions opt = pln_plan_options_default();
    PlnLoaded l;
    PlnProblemWork *w = NULL;
    PlnCertificate c;
    double zmp = HUGE_VAL, torque = 0.0;
    ck_assert_msg(pln_plan_load("tests/data/support_phase_boundary.yaml", &opt, &l, err, sizeof err) == PLN_OK,
                  "%s", err);
    const PlnProblem *p = l.p;
    double *x = calloc((size_t)p->n_vars, sizeof *x), *tau = calloc((size_t)l.robot.n_joints, sizeof *tau);
    ck_assert(p->dynamics && p->n_phases == 3 && x && tau);
    ck_assert_msg(pln_guess_initial_x(p, x, NULL, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_msg(pln_problem_work_create(p, &w, err, sizeof err) == PLN_OK, "%s", err);
    {
        /* the planned motion (certified), whose ZMP comes to its margin near the phase's start */
        PlnSipRun sr = {NULL, 1, NULL, 0, 0, 0.0, 0, NULL, 0, 0, 0};
        PlnSipResult sip;
        ck_assert_msg(pln_plan_optimise(p, &opt, &sr, x, w->ctrl, &sip, &c, err, sizeof err) == PLN_OK, "%s", err);
        ck_assert_msg(c.certified, "%s", c.reason);
        pln_certificate_destroy(&c);
    }
    for (int k = 0; k < 4000; ++k) {
        double t = l.sc.duration * (k + 0.5) / 4000.0, z[2];
        int ph;
        ck_assert_msg(pln_dynrows_sample(p, w, t, &ph, z, tau, err, sizeof err) == PLN_OK, "%s", err);
        ck_assert(ph >= 0 && !isnan(z[0]));
        for (int e = 0; e < p->phases[ph].n_edges; ++e) {
            const PlnPhaseGeom *g = &p->phases[ph];
            zmp = fmin(zmp, g->edge_b[e] + l.sc.zmp_margin - (g->edge_n[e][0] * z[0] + g->edge_n[e][1] * z[1]));
        }
        for (int j = 0; j < l.robot.n_joints; ++j) {
            const PlnJoint *jt = &p->robot->joints[j];
            if (jt->type == PLN_JOINT_FIXED || pln_robot_joint_is_virtual(p->robot, j)) continue;
            torque = fmax(torque, fabs(tau[j]) / jt->effort_max);
        }
    }
    ck_assert_msg(pln_certify_spline(p, w->ctrl, opt.cert_eps_ratio, &c, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert(c.dynamics_checked);
    ck_assert_msg(c.zmp_margin_min <= zmp + 1e-9 && c.zmp_margin_min >= zmp - 0.005,
                  "certified ZMP margin %.6f m, sampled %.6f m", c.zmp_margin_min, zmp);
    ck_assert_msg(c.torque_ratio_max >= torque - 1e-9 && c.torque_ratio_max <= torque + 0.05,
                  "certified torque ratio %.6f, sampled %.6f", c.torque_ratio_max, torque);
    pln_certificate_destroy(&c);
    pln_problem_work_destroy(w);
    free(x);
    free(tau);
    pln_plan_unload(&l);
}
END_TEST

/* the rule that chooses between a plan's runs (eq. P20b): certified first, then a missed
 * task, then the smaller miss on the same cause; two different other causes are not ranked */
START_TEST(test_certificate_ranking)
{
    PlnScenario sc;
    PlnProblem pb;
    PlnCertificate a, b;
    memset(&sc, 0, sizeof sc);
    memset(&pb, 0, sizeof pb);
    sc.zmp_margin = 0.01;
    pb.scenario = &sc;
    pb.eps = 0.001;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.fz_min_rel = b.fz_min_rel = 1.0;
    a.zmp_margin_min = b.zmp_margin_min = 0.05;
    a.torque_joint = b.torque_joint = -1;
    /* certified beats anything, and nothing beats certified */
    a.cause = PLN_CAUSE_CONTACT;
    a.min_clearance = -0.01;
    b.certified = 1;
    ck_assert_int_eq(pln_certificate_better(&pb, &a, &b), 1);
    ck_assert_int_eq(pln_certificate_better(&pb, &b, &a), 0);
    /* a missed task beats a contact, not the other way round */
    b.certified = 0;
    b.cause = PLN_CAUSE_TASK;
    b.max_task_violation = 0.3;
    ck_assert_int_eq(pln_certificate_better(&pb, &a, &b), 1);
    ck_assert_int_eq(pln_certificate_better(&pb, &b, &a), 0);
    /* two contacts: the shallower one */
    b.cause = PLN_CAUSE_CONTACT;
    b.min_clearance = -0.002;
    ck_assert_int_eq(pln_certificate_better(&pb, &a, &b), 1);
    ck_assert_int_eq(pln_certificate_better(&pb, &b, &a), 0);
    /* two ZMP failures: the one nearer its margin (73 mm outside vs 1 mm short) */
    a.cause = b.cause = PLN_CAUSE_DYNAMICS;
    a.zmp_margin_min = -0.073;
    b.zmp_margin_min = 0.009;
    ck_assert_int_eq(pln_certificate_better(&pb, &a, &b), 1);
    ck_assert_int_eq(pln_certificate_better(&pb, &b, &a), 0);
    /* a ZMP 1 mm short of its margin but inside the polygon (the motion balances) ranks
     * above a torque 2 % over its limit; 1 mm outside the polygon (110 % of the margin
     * short) ranks below it */
    a.zmp_margin_min = 0.05;
    a.torque_joint = 3;
    a.torque_ratio_max = 1.02;
    ck_assert_int_eq(pln_certificate_better(&pb, &a, &b), 1);
    ck_assert_int_eq(pln_certificate_better(&pb, &b, &a), 0);
    b.zmp_margin_min = -0.001;
    ck_assert_int_eq(pln_certificate_better(&pb, &b, &a), 1);
    ck_assert_int_eq(pln_certificate_better(&pb, &a, &b), 0);
    /* stance: the slide and the turn each relative to its tolerance */
    a.cause = b.cause = PLN_CAUSE_STANCE;
    a.stance_pos_max = 0.9 * PLN_STANCE_POS_TOL_M;
    a.stance_rot_max = 3.0 * PLN_STANCE_ROT_TOL_RAD;
    b.stance_pos_max = 2.0 * PLN_STANCE_POS_TOL_M;
    b.stance_rot_max = 0.0;
    ck_assert_int_eq(pln_certificate_better(&pb, &a, &b), 1);
    ck_assert_int_eq(pln_certificate_better(&pb, &b, &a), 0);
    /* different causes other than a task: the kept one stays */
    b.cause = PLN_CAUSE_DYNAMICS;
    b.zmp_margin_min = -0.002;
    ck_assert_int_eq(pln_certificate_better(&pb, &a, &b), 0);
    ck_assert_int_eq(pln_certificate_better(&pb, &b, &a), 0);
    /* unless one is a ZMP short of its margin but inside the polygon, all else passing: it
     * beats a contact, and loses to a missed task */
    a.cause = PLN_CAUSE_CONTACT;
    a.min_clearance = -0.0014;
    b.zmp_margin_min = 0.0095;
    b.torque_joint = -1;
    b.friction_ratio_max = 0.1;
    ck_assert_int_eq(pln_certificate_better(&pb, &a, &b), 1);
    ck_assert_int_eq(pln_certificate_better(&pb, &b, &a), 0);
    b.torque_joint = 2;
    b.torque_ratio_max = 1.3; /* a torque over its limit too: not margin-only */
    ck_assert_int_eq(pln_certificate_better(&pb, &a, &b), 0);
    b.torque_joint = -1;
    a.cause = PLN_CAUSE_TASK;
    a.max_task_violation = 0.1;
    ck_assert_int_eq(pln_certificate_better(&pb, &a, &b), 0);
    ck_assert_int_eq(pln_certificate_better(&pb, &b, &a), 1);
}
END_TEST

Suite *pln_certify_suite(void)
{
    Suite *s = suite_create("pln_certify");
    TCase *tc = tcase_create("refine");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_clear_fast_motions_certify);
    tcase_add_test(tc, test_stance_bounds_sound);
    tcase_add_test(tc, test_floor_bound_sound);
    tcase_add_test(tc, test_dynamics_bounds_sound);
    tcase_add_test(tc, test_phase_parts_certified);
    tcase_add_test(tc, test_certificate_ranking);
    suite_add_tcase(s, tc);
    return s;
}
