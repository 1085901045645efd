/* check_pln_dynmotion.c — tests of planner/motion/pln_dynmotion.c and
 * planner/model/pln_contact.c: the interval enclosures of the floor wrench, the joint
 * torques (without and with the soles' share) and the ZMP hold at every one of dense
 * samples of random motions of HRP-2 (0 violations), and stay tight, also with prismatic
 * joints in the legs (between the waist and the soles), the chest and an arm; the contact split
 * sums to the wrench and its derivative matches central differences; pln_taylor_recip
 * encloses 1/x. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kin_fixture.h"
#include "model/pln_contact.h"
#include "model/pln_dyn.h"
#include "model/pln_kin.h"
#include "motion/pln_dynmotion.h"
#include "motion/pln_linkmotion.h"

#define DM_TRIALS 40          /* random motions */
#define DM_SAMPLES 201        /* dense samples per interval */
#define DM_DEG 5              /* joint polynomials, as quintic B-spline spans */
/* the point-wise reference rounds too: an enclosure may miss it by this, relative to the
 * largest magnitude involved */
#define DM_REF_REL 1e-9
#define DM_MIN_FZ 1.0         /* N */

static const double GRAVITY[3] = {0.0, 0.0, -PLN_GRAVITY_MS2};

static int is_upper_body(const char *name)
{
    return strncmp(name, "LEG", 3) != 0 && strstr(name, "LEG_") == NULL;
}

/* the polynomial q(s) of joint j: the initial value plus a random smooth motion of
 * amplitude amp over the interval */
static void random_poly(KfRng *rng, double q0, double amp, double *c)
{
    double f = 1.0;
    c[0] = q0 + kf_uniform(rng, -0.3, 0.3);
    for (int k = 1; k <= DM_DEG; ++k) {
        f *= (double)k;
        c[k] = kf_uniform(rng, -amp, amp) * 2.0 / f;
    }
}

static double poly(const double *c, int deg, double s, int derivative)
{
    double v = 0.0;
    for (int k = deg; k >= derivative; --k) {
        double f = 1.0;
        for (int m = 0; m < derivative; ++m) f *= (double)(k - m);
        v = v * s + f * c[k];
    }
    return v;
}

static int encloses(const PlnTaylor *tm, double tau, double value, double scale)
{
    double p = pln_taylor_eval(tm, tau);
    double slack = DM_REF_REL * scale;
    return value >= p + tm->lo - slack && value <= p + tm->hi + slack;
}

/* HRP-2 with its hip yaws and chest yaw turned into vertical slides and the right elbow
 * into a slide along its axis (initial 0, so that the half-sitting soles stay level on
 * z = 0 and the hip joints take the soles' force, eq. D21b) */
static void make_prismatic(PlnRobot *rb)
{
    static const char *const names[4] = {"RLEG_JOINT0", "LLEG_JOINT0", "CHEST_JOINT0", "RARM_JOINT3"};
    for (int k = 0; k < 4; ++k) {
        int j = pln_robot_find_joint(rb, names[k]);
        ck_assert_int_ge(j, 0);
        rb->joints[j].type = PLN_JOINT_PRISMATIC;
        rb->joints[j].lower = -0.2;
        rb->joints[j].upper = 0.2;
        rb->joints[j].initial = 0.0;
    }
}

/* loop 0: HRP-2; loop 1: with the slides of make_prismatic (eq. D23b, D25b, D21b) */
START_TEST(test_enclosures_hold_on_dense_samples)
{
    PlnRobot rb;
    char err[256];
    PlnLinkMotion *lm;
    PlnDynMotion *dm;
    PlnDynWork *dw;
    PlnKinWork *kin;
    KfRng rng = {0x5eedULL + 17};
    ck_assert_msg(pln_robot_load("robots/hrp2.yaml", &rb, err, sizeof err) == PLN_OK, "%s", err);
    if (_i) make_prismatic(&rb);
    const int nj = rb.n_joints, nv = 6 + nj, k1 = DM_DEG + 1;
    double *coef = calloc((size_t)nj * k1, sizeof *coef), *q = calloc((size_t)nj, sizeof *q);
    double *nu = calloc((size_t)nv, sizeof *nu), *nudot = calloc((size_t)nv, sizeof *nudot);
    double *tau = calloc((size_t)nv, sizeof *tau);
    unsigned char *moving = calloc((size_t)nj, 1);
    long checked = 0, contact_checked = 0;
    double width_sum = 0.0, mag_sum = 0.0;
    ck_assert_int_eq(pln_linkmotion_create(&rb, PLN_TM_MAX_DEGREE, &lm, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_dynmotion_create(&rb, &dm, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_dyn_create(&rb, &dw, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_kin_create(&rb, &kin, err, sizeof err), PLN_OK);

    /* the soles at the initial posture (legs still in every trial but the last few) */
    for (int j = 0; j < nj; ++j) q[j] = rb.joints[j].initial;
    ck_assert_int_eq(pln_kin_forward(kin, &rb, q), PLN_OK);
    PlnSupport sup;
    {
        int feet[2] = {rb.soles[0].link, rb.soles[1].link};
        const double *rot[2] = {pln_kin_link_rot(kin, feet[0]), pln_kin_link_rot(kin, feet[1])};
        const double *pos[2] = {pln_kin_link_pos(kin, feet[0]), pln_kin_link_pos(kin, feet[1])};
        ck_assert_msg(pln_contact_support(&rb, feet, 2, rot, pos, 1e-9, &sup, err, sizeof err) == PLN_OK,
                      "%s", err);
        ck_assert(fabs(sup.floor_z) < 1e-3);  /* the half-sitting feet stand on z = 0 */
        /* the feet are named (eq. D21 takes their share off the joints above them; a
         * support that lost them took nothing off the stance legs) */
        ck_assert_int_eq(sup.link[0], feet[0]);
        ck_assert_int_eq(sup.link[1], feet[1]);
    }

    for (int trial = 0; trial < DM_TRIALS; ++trial) {
        int legs = trial >= DM_TRIALS - 5;  /* last trials: legs move too, no contact */
        double h = kf_uniform(&rng, 0.1, 0.8), amp = kf_uniform(&rng, 0.05, 1.0) * h;
        for (int j = 0; j < nj; ++j) {
            double *c = coef + (size_t)j * k1;
            memset(c, 0, sizeof *c * k1);
            moving[j] = legs || is_upper_body(rb.joints[j].name);
            if (moving[j]) random_poly(&rng, rb.joints[j].initial, amp, c);
            else c[0] = rb.joints[j].initial;
        }
        ck_assert_int_eq(pln_linkmotion_compute(lm, &rb, coef, DM_DEG, NULL, err, sizeof err), PLN_OK);
        ck_assert_msg(pln_dynmotion_compute(dm, &rb, lm, coef, DM_DEG, h, NULL, moving,
                                            PLN_GRAVITY_MS2, err, sizeof err) == PLN_OK, "%s", err);
        PlnTaylor W[6], T[64], zmp[2];
        memcpy(W, pln_dynmotion_wrench(dm), sizeof W);
        memcpy(T, pln_dynmotion_torque(dm), sizeof(PlnTaylor) * nj);
        int contact = !legs && pln_dynmotion_contact(dm, &rb, &sup, DM_MIN_FZ, zmp);
        const PlnTaylor *TC = pln_dynmotion_torque(dm);
        ck_assert(legs || contact);
        for (int si = 0; si < DM_SAMPLES; ++si) {
            double s = (double)si / (DM_SAMPLES - 1), tn = 2.0 * s - 1.0, scale;
            PlnDynState st;
            memset(&st, 0, sizeof st);
            memcpy(st.base_pos, rb.base_pos, sizeof st.base_pos);
            memcpy(st.base_rot, rb.base_rot, sizeof st.base_rot);
            memset(nu, 0, sizeof *nu * nv);
            memset(nudot, 0, sizeof *nudot * nv);
            for (int j = 0; j < nj; ++j) {
                const double *c = coef + (size_t)j * k1;
                q[j] = poly(c, DM_DEG, s, 0);
                nu[6 + j] = poly(c, DM_DEG, s, 1) / h;
                nudot[6 + j] = poly(c, DM_DEG, s, 2) / (h * h);
            }
            st.q = q;
            st.nu = nu;
            st.nudot = nudot;
            ck_assert_int_eq(pln_dyn_rnea(dw, &rb, &st, GRAVITY, tau), PLN_OK);
            scale = 0.0;
            for (int r = 0; r < nv; ++r) scale = fmax(scale, fabs(tau[r]));
            for (int r = 0; r < 6; ++r) {
                ck_assert_msg(encloses(&W[r], tn, tau[r], scale), "trial %d s %g: W[%d] = %.12g outside "
                              "[%.12g, %.12g]", trial, s, r, tau[r],
                              pln_taylor_eval(&W[r], tn) + W[r].lo, pln_taylor_eval(&W[r], tn) + W[r].hi);
                ++checked;
            }
            for (int j = 0; j < nj; ++j) {
                ck_assert_msg(encloses(&T[j], tn, tau[6 + j], scale), "trial %d s %g: tau[%s] = %.12g "
                              "outside", trial, s, rb.joints[j].name, tau[6 + j]);
                ++checked;
            }
            if (!contact) continue;
            /* with the soles: the split's wrenches taken off the leg joints */
            PlnContactSplit sp;
            ck_assert(pln_contact_split(&sup, tau, DM_MIN_FZ, &sp, 0));
            ck_assert(encloses(&zmp[0], tn, sp.zmp[0], 1.0) && encloses(&zmp[1], tn, sp.zmp[1], 1.0));
            ck_assert_int_eq(pln_kin_forward(kin, &rb, q), PLN_OK);
            for (int j = 0; j < nj; ++j) {
                double v = tau[6 + j];
                int l = rb.joints[j].link;
                for (int k = 0; k < 2; ++k) {
                    int in = 0;
                    for (int a = sup.link[k]; a >= 0; a = rb.links[a].parent) in |= a == l;
                    if (!in) continue;
                    const double *p = pln_kin_link_pos(kin, l), *z = pln_kin_joint_axis(kin, l);
                    const double *w = sp.wrench[k];
                    double m[3] = {w[0] - (p[1] * w[5] - p[2] * w[4]), w[1] - (p[2] * w[3] - p[0] * w[5]),
                                   w[2] - (p[0] * w[4] - p[1] * w[3])};
                    if (rb.joints[j].type == PLN_JOINT_PRISMATIC) {
                        /* a slide takes the force along its axis (eq. D21b) */
                        m[0] = w[3];
                        m[1] = w[4];
                        m[2] = w[5];
                    }
                    v -= z[0] * m[0] + z[1] * m[1] + z[2] * m[2];
                }
                ck_assert_msg(encloses(&TC[j], tn, v, scale), "trial %d s %g: contact tau[%s] = %.12g "
                              "outside [%.12g, %.12g]", trial, s, rb.joints[j].name, v,
                              pln_taylor_eval(&TC[j], tn) + TC[j].lo, pln_taylor_eval(&TC[j], tn) + TC[j].hi);
                ++contact_checked;
            }
        }
        /* tightness: the remainders are a small part of the range */
        for (int r = 0; r < 6; ++r) {
            width_sum += W[r].hi - W[r].lo;
            mag_sum += pln_taylor_bound_abs(&W[r]);
            if (getenv("DM_VERBOSE")) printf("trial %d h %.3f amp %.3f W[%d] width %g |W| %g\n", trial, h, amp, r, W[r].hi - W[r].lo, pln_taylor_bound_abs(&W[r]));
        }
    }
    ck_assert_int_gt(checked, 0);
    ck_assert_int_gt(contact_checked, 0);
    /* measured 1.3% over these motions (up to ~1 rad/s): the wide ones are the fastest */
    ck_assert_msg(width_sum < 0.02 * mag_sum, "remainders %g against magnitudes %g", width_sum, mag_sum);
    pln_kin_destroy(kin);
    pln_dyn_destroy(dw);
    pln_dynmotion_destroy(dm);
    pln_linkmotion_destroy(lm);
    free(coef);
    free(q);
    free(nu);
    free(nudot);
    free(tau);
    free(moving);
    pln_robot_destroy(&rb);
}
END_TEST

/* pln_contact_joint_torque and its derivative in q at fixed wrenches, on the random tree
 * with prismatic joints (kin_fixture.h): the value is tau0 - z . (n - p x f) (revolute)
 * or tau0 - z . f (prismatic, eq. D21b) summed over the feet below the joint, and
 * pln_contact_joint_torque_dq matches central differences of it (relative 1e-6) */
START_TEST(test_contact_torque_prismatic)
{
    PlnRobot rb;
    PlnKinWork *kin;
    char err[256];
    KfRng rng = {0xc0ffeeULL};
    double q[30], qq[30], g[36];
    PlnSupport sup;
    PlnContactSplit sp;
    int slides = 0;
    ck_assert_int_eq(kf_humanoid(&rb, 8), 0);
    kf_humanoid_prismatic(&rb);
    ck_assert_int_eq(pln_kin_create(&rb, &kin, err, sizeof err), PLN_OK);
    memset(&sup, 0, sizeof sup);
    sup.n_feet = 2;
    sup.link[0] = 6;
    sup.link[1] = 12;
    for (int trial = 0; trial < 20; ++trial) {
        memset(&sp, 0, sizeof sp);
        for (int k = 0; k < 2; ++k) {
            for (int c = 0; c < 6; ++c) sp.wrench[k][c] = kf_uniform(&rng, -100.0, 100.0);
        }
        for (int j = 0; j < 30; ++j) q[j] = kf_uniform(&rng, -1.0, 1.0);
        for (int j = 0; j < 30; ++j) {
            int l = rb.joints[j].link;
            double v, ref = 0.0, worst = 0.0, big = 0.0;
            ck_assert_int_eq(pln_kin_forward(kin, &rb, q), PLN_OK);
            const double *z = pln_kin_joint_axis(kin, l), *p = pln_kin_link_pos(kin, l);
            v = pln_contact_joint_torque(&rb, &sup, &sp, j, 0.0, z, p, NULL);
            for (int k = 0; k < 2; ++k) {
                const double *w = sp.wrench[k];
                if (!pln_robot_link_below(&rb, sup.link[k], l)) continue;
                if (rb.joints[j].type == PLN_JOINT_PRISMATIC) {
                    ref -= z[0] * w[3] + z[1] * w[4] + z[2] * w[5];
                    ++slides;
                } else {
                    double m[3] = {w[0] - (p[1] * w[5] - p[2] * w[4]), w[1] - (p[2] * w[3] - p[0] * w[5]),
                                   w[2] - (p[0] * w[4] - p[1] * w[3])};
                    ref -= z[0] * m[0] + z[1] * m[1] + z[2] * m[2];
                }
            }
            ck_assert_msg(fabs(v - ref) <= 1e-12 * (1.0 + fabs(ref)), "joint %s: %.17g vs %.17g",
                          rb.joints[j].name, v, ref);
            memset(g, 0, sizeof g);
            pln_contact_joint_torque_dq(&rb, kin, &sup, &sp, j, 1.0, g);
            for (int i = 0; i < 30; ++i) {
                double tp, tm;
                memcpy(qq, q, sizeof qq);
                qq[i] += 1e-6;
                ck_assert_int_eq(pln_kin_forward(kin, &rb, qq), PLN_OK);
                tp = pln_contact_joint_torque(&rb, &sup, &sp, j, 0.0, pln_kin_joint_axis(kin, l),
                                              pln_kin_link_pos(kin, l), NULL);
                qq[i] -= 2e-6;
                ck_assert_int_eq(pln_kin_forward(kin, &rb, qq), PLN_OK);
                tm = pln_contact_joint_torque(&rb, &sup, &sp, j, 0.0, pln_kin_joint_axis(kin, l),
                                              pln_kin_link_pos(kin, l), NULL);
                big = fmax(big, fabs((tp - tm) / 2e-6));
                worst = fmax(worst, fabs((tp - tm) / 2e-6 - g[6 + i]));
            }
            ck_assert_msg(worst <= 1e-6 * fmax(1.0, big), "joint %s trial %d: d/dq off by %.3g (largest %.3g)",
                          rb.joints[j].name, trial, worst, big);
        }
    }
    ck_assert_int_gt(slides, 0);
    pln_kin_destroy(kin);
    kf_robot_free(&rb);
}
END_TEST

/* the feet's wrenches sum to W; each centre of pressure lies on the floor; the derivative
 * matches central differences */
START_TEST(test_split_sums_and_derivative)
{
    KfRng rng = {0xc0ffeeULL};
    PlnSupport s = {2, {5, 11}, {{0.01, -0.1}, {0.01, 0.1}}, 0.02};
    for (int trial = 0; trial < 200; ++trial) {
        double W[6], sum[6] = {0};
        PlnContactSplit sp, a, b;
        for (int i = 0; i < 3; ++i) W[i] = kf_uniform(&rng, -60.0, 60.0);
        W[3] = kf_uniform(&rng, -50.0, 50.0);
        W[4] = kf_uniform(&rng, -50.0, 50.0);
        W[5] = kf_uniform(&rng, 100.0, 800.0);
        s.n_feet = trial % 5 == 0 ? 1 : 2;
        ck_assert(pln_contact_split(&s, W, 1.0, &sp, 1));
        for (int k = 0; k < s.n_feet; ++k) {
            for (int r = 0; r < 6; ++r) sum[r] += sp.wrench[k][r];
        }
        for (int r = 0; r < 6; ++r) ck_assert_msg(fabs(sum[r] - W[r]) <= 1e-10 * 800.0, "row %d", r);
        for (int c = 0; c < 6; ++c) {
            double Wp[6], Wm[6], hstep = 1e-5 * fmax(1.0, fabs(W[c]));
            memcpy(Wp, W, sizeof Wp);
            memcpy(Wm, W, sizeof Wm);
            Wp[c] += hstep;
            Wm[c] -= hstep;
            ck_assert(pln_contact_split(&s, Wp, 1.0, &a, 0) && pln_contact_split(&s, Wm, 1.0, &b, 0));
            if ((a.alpha <= 0.0 || a.alpha >= 1.0) != (b.alpha <= 0.0 || b.alpha >= 1.0)) continue;
            for (int k = 0; k < s.n_feet; ++k) {
                for (int r = 0; r < 6; ++r) {
                    double fd = (a.wrench[k][r] - b.wrench[k][r]) / (2.0 * hstep);
                    ck_assert_msg(fabs(fd - sp.dwrench[k][r][c]) <= 1e-6 * (1.0 + fabs(fd)),
                                  "trial %d foot %d d[%d]/dW[%d]: %g vs %g", trial, k, r, c,
                                  sp.dwrench[k][r][c], fd);
                }
            }
        }
    }
    /* no ZMP when the floor would have to pull */
    {
        double W[6] = {0, 0, 0, 0, 0, -5.0}, zmp[2];
        PlnContactSplit sp;
        ck_assert_int_eq(pln_contact_zmp(W, 0.0, 1.0, zmp, NULL), 0);
        ck_assert_int_eq(pln_contact_split(&s, W, 1.0, &sp, 0), 0);
    }
}
END_TEST

/* 1/x encloses on dense samples, and refuses ranges through zero */
START_TEST(test_recip_encloses)
{
    KfRng rng = {42};
    for (int trial = 0; trial < 500; ++trial) {
        double c[6];
        PlnTaylor a, r;
        double base = kf_uniform(&rng, 0.5, 3.0) * (trial % 2 ? 1.0 : -1.0);
        c[0] = base;
        /* decaying like a smooth function's Taylor coefficients */
        for (int k = 1, f = 1; k < 6; ++k, f *= k) c[k] = kf_uniform(&rng, -0.05, 0.05) * fabs(base) / f;
        pln_taylor_from_poly(&a, 5, c, 5);
        pln_taylor_add_interval(&a, &a, -1e-6, 2e-6);
        ck_assert(pln_taylor_recip(&r, &a));
        for (int i = 0; i <= 400; ++i) {
            double t = -1.0 + 2.0 * i / 400.0, x = 0.0;
            for (int k = 5; k >= 0; --k) x = x * t + c[k];
            for (int e = 0; e < 2; ++e) {
                double xv = x + (e == 0 ? -1e-6 : 2e-6), p = pln_taylor_eval(&r, t);
                ck_assert_msg(1.0 / xv >= p + r.lo - 1e-14 && 1.0 / xv <= p + r.hi + 1e-14,
                              "trial %d t %g", trial, t);
            }
        }
        ck_assert_msg(r.hi - r.lo < 1e-3, "trial %d width %g", trial, r.hi - r.lo);
    }
    {
        PlnTaylor a, r;
        double c[2] = {0.1, 0.2};
        pln_taylor_from_poly(&a, 3, c, 1);
        ck_assert_int_eq(pln_taylor_recip(&r, &a), 0);
        ck_assert(!pln_taylor_is_finite(&r));
    }
}
END_TEST

Suite *pln_dynmotion_suite(void)
{
    Suite *s = suite_create("pln_dynmotion");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_enclosures_hold_on_dense_samples, 0, 2);
    tcase_add_test(tc, test_split_sums_and_derivative);
    tcase_add_test(tc, test_contact_torque_prismatic);
    tcase_add_test(tc, test_recip_encloses);
    suite_add_tcase(s, tc);
    return s;
}
