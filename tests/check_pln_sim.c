/* check_pln_sim.c — planner/output/pln_sim.c: the robot in MuJoCo physics.
 *
 * MuJoCo is an engine nobody here wrote, so these tests are also a check of the
 * project's dynamics: with the feed-forward torques of model/pln_dyn.h and the floor's
 * wrench split by model/pln_contact.h, the simulated centre of pressure must follow the
 * planned ZMP to a fraction of a millimetre and the joints the plan, while the PD servo
 * alone (no feed-forward) lags. Standing still, a minimum-jerk bow, a welded two-joint
 * arm, a motion played too fast, the model MuJoCo loads, and refused options. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mujoco/mujoco.h>

#include "check_util.h"
#include "output/pln_sim.h"
#include "problem/pln_plan.h"

/* a reference: joint `joint` goes from its initial value by `delta` rad along a
 * minimum-jerk profile over [0, duration]; every other joint holds its initial value */
typedef struct MinJerk {
    const PlnProblem *p;
    int joint;
    double delta, duration;
} MinJerk;

static PlnStatus minjerk_state(void *ctx, double t, double *q, double *qd, double *qdd)
{
    const MinJerk *m = ctx;
    double T = m->duration, u = t / T;
    memcpy(q, m->p->q_init, sizeof *q * (size_t)m->p->n_joints);
    memset(qd, 0, sizeof *qd * (size_t)m->p->n_joints);
    memset(qdd, 0, sizeof *qdd * (size_t)m->p->n_joints);
    if (m->joint >= 0) {
        q[m->joint] += m->delta * (10 * u * u * u - 15 * u * u * u * u + 6 * u * u * u * u * u);
        qd[m->joint] = m->delta * (30 * u * u - 60 * u * u * u + 30 * u * u * u * u) / T;
        qdd[m->joint] = m->delta * (60 * u - 180 * u * u + 120 * u * u * u) / (T * T);
    }
    return PLN_OK;
}

static void load(const char *scenario, PlnLoaded *l)
{
    char err[1024];
    PlnPlanOptions opt = pln_plan_options_default();
    ck_assert_msg(pln_plan_load(scenario, &opt, l, err, sizeof err) == PLN_OK, "%s", err);
}

static void run(const PlnProblem *p, MinJerk *mj, const PlnSimOptions *o, PlnSimResult *res)
{
    char err[1024];
    PlnSimReference ref = {mj->duration, minjerk_state, mj};
    ck_assert_msg(pln_sim_run(p, &ref, o, res, err, sizeof err) == PLN_OK, "%s", err);
}

START_TEST(test_standing_still)
{
    /* static balance scenario (no support phases): every sole on the floor */
    PlnLoaded l;
    PlnSimResult res;
    PlnSimOptions o = pln_sim_options_default();
    MinJerk mj;
    load("tests/data/bow.yaml", &l);
    mj = (MinJerk){l.p, -1, 0.0, 2.0};
    run(l.p, &mj, &o, &res);
    ck_assert(res.ok && res.floating && !res.fell);
    ck_assert_msg(res.slip_max_mm < 0.1, "slip %g mm", res.slip_max_mm);
    ck_assert_msg(res.waist_drop_max_m < 0.002, "sank %g m", res.waist_drop_max_m);
    ck_assert_msg(res.cop_margin_min_m > 0.01, "CoP margin %g", res.cop_margin_min_m);
    ck_assert_msg(res.cop_zmp_max_m < 1e-3, "CoP-ZMP %g m", res.cop_zmp_max_m);
    ck_assert_int_eq(res.n_contacts, 0);
    ck_assert_int_eq(res.steps, 3500);  /* 0.5 s settle + 2 s + 1 s hold at 1 kHz */
    pln_sim_result_destroy(&res);
    pln_plan_unload(&l);
}
END_TEST

START_TEST(test_bow_follows_the_zmp)
{
    /* a 0.6 rad bow of the chest in 1.5 s, with support phases (dynamics on): the centre
     * of pressure follows the planned ZMP; without the feed-forward torques the PD
     * servo alone lags the plan by far more */
    PlnLoaded l;
    PlnSimResult res, pd;
    PlnSimOptions o = pln_sim_options_default();
    MinJerk mj;
    load("tests/data/bow_dyn.yaml", &l);
    ck_assert_int_ge(l.p->n_phases, 1);
    mj = (MinJerk){l.p, pln_robot_find_joint(l.p->robot, "CHEST_JOINT1"), 0.6, 1.5};
    run(l.p, &mj, &o, &res);
    ck_assert_msg(res.ok, "fell %d slipped %d tipped %d lost %d", res.fell, res.slipped,
                  res.tipped, res.lost_track);
    ck_assert_msg(res.cop_zmp_rms_m < 2e-3, "CoP-ZMP rms %g m", res.cop_zmp_rms_m);
    ck_assert_msg(res.track_max_rad < 2e-3, "tracking %g rad", res.track_max_rad);
    ck_assert(res.torque_ratio_max > 0.0 && res.torque_ratio_max < 1.0);
    ck_assert(res.energy_j > 0.0);
    ck_assert(res.n_series > 100);
    o.feedforward = 0;
    run(l.p, &mj, &o, &pd);
    ck_assert_msg(pd.track_max_rad > 5.0 * res.track_max_rad, "PD alone %g vs %g rad",
                  pd.track_max_rad, res.track_max_rad);
    pln_sim_result_destroy(&res);
    pln_sim_result_destroy(&pd);
    pln_plan_unload(&l);
}
END_TEST

START_TEST(test_too_fast_fails)
{
    /* the same bow played 8 times faster asks a ZMP far outside the feet: the robot
     * falls or its feet roll over an edge */
    PlnLoaded l;
    PlnSimResult res;
    PlnSimOptions o = pln_sim_options_default();
    MinJerk mj;
    load("tests/data/bow_dyn.yaml", &l);
    mj = (MinJerk){l.p, pln_robot_find_joint(l.p->robot, "CHEST_JOINT1"), 0.6, 1.5};
    o.speed = 8.0;
    run(l.p, &mj, &o, &res);
    ck_assert(!res.ok);
    ck_assert_msg(res.fell || res.tipped, "fell %d tipped %d", res.fell, res.tipped);
    pln_sim_result_destroy(&res);
    pln_plan_unload(&l);
}
END_TEST

START_TEST(test_welded_arm_tracks)
{
    /* a robot without soles is welded at its base: no floor, no fall, tracking only */
    PlnLoaded l;
    PlnSimResult res;
    PlnSimOptions o = pln_sim_options_default();
    MinJerk mj;
    load("tests/data/sim_arm2.yaml", &l);
    mj = (MinJerk){l.p, pln_robot_find_joint(l.p->robot, "SHOULDER"), 1.0, 1.0};
    run(l.p, &mj, &o, &res);
    ck_assert(res.ok && !res.floating);
    ck_assert_msg(res.track_max_rad < 1e-3, "tracking %g", res.track_max_rad);
    ck_assert(isnan(res.cop_zmp_rms_m));
    pln_sim_result_destroy(&res);
    pln_plan_unload(&l);
}
END_TEST

START_TEST(test_model_loads_in_mujoco)
{
    PlnLoaded l;
    MinJerk mj;
    char dir[256], path[512], err[1024], merr[1000] = "";
    FILE *f;
    mjModel *m;
    int revolute = 0;
    load("scenarios/hand_cross.yaml", &l);
    mj = (MinJerk){l.p, -1, 0.0, 1.0};
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/scene.xml", dir);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    {
        PlnSimReference ref = {1.0, minjerk_state, &mj};
        ck_assert_msg(pln_sim_write_mjcf(l.p, &ref, f, err, sizeof err) == PLN_OK, "%s", err);
    }
    fclose(f);
    m = mj_loadXML(path, NULL, merr, sizeof merr);
    ck_assert_msg(m != NULL, "%s", merr);
    for (int j = 0; j < l.robot.n_joints; ++j) revolute += l.robot.joints[j].type == PLN_JOINT_REVOLUTE;
    ck_assert_int_eq(m->nu, revolute);                        /* a motor per joint */
    ck_assert_int_ge(m->npair, l.sc.n_pairs + 2);             /* the pairs, two soles */
    ck_assert_int_ge(mj_name2id(m, mjOBJ_GEOM, "LLEG_LINK5_sole"), 0);
    ck_assert_int_ge(mj_name2id(m, mjOBJ_GEOM, "floor"), 0);
    mj_deleteModel(m);
    ckutil_rm_flat(dir);
    pln_plan_unload(&l);
}
END_TEST

START_TEST(test_options_refused)
{
    PlnLoaded l;
    PlnSimResult res;
    PlnSimOptions o = pln_sim_options_default();
    MinJerk mj;
    char err[512];
    load("tests/data/bow.yaml", &l);
    mj = (MinJerk){l.p, -1, 0.0, 1.0};
    {
        PlnSimReference ref = {1.0, minjerk_state, &mj};
        o.speed = 0.0;
        ck_assert_int_eq(pln_sim_run(l.p, &ref, &o, &res, err, sizeof err), PLN_ERR_INVALID);
        pln_sim_result_destroy(&res);
        o = pln_sim_options_default();
        o.timestep = NAN;
        ck_assert_int_eq(pln_sim_run(l.p, &ref, &o, &res, err, sizeof err), PLN_ERR_INVALID);
        pln_sim_result_destroy(&res);
        o = pln_sim_options_default();
        ref.duration = -1.0;
        ck_assert_int_eq(pln_sim_run(l.p, &ref, &o, &res, err, sizeof err), PLN_ERR_INVALID);
        pln_sim_result_destroy(&res);
    }
    pln_plan_unload(&l);
}
END_TEST

Suite *pln_sim_suite(void);
Suite *pln_sim_suite(void)
{
    Suite *s = suite_create("pln_sim");
    TCase *tc = tcase_create("sim");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_standing_still);
    tcase_add_test(tc, test_bow_follows_the_zmp);
    tcase_add_test(tc, test_too_fast_fails);
    tcase_add_test(tc, test_welded_arm_tracks);
    tcase_add_test(tc, test_model_loads_in_mujoco);
    tcase_add_test(tc, test_options_refused);
    suite_add_tcase(s, tc);
    return s;
}
