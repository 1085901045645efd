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
#include "model/pln_kin.h"
#include "problem/pln_certify.h"
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

Suite *pln_certify_suite(void)
{
    Suite *s = suite_create("pln_certify");
    TCase *tc = tcase_create("refine");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_clear_fast_motions_certify);
    suite_add_tcase(s, tc);
    return s;
}
