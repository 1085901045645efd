/* check_pln_ik.c — tests of planner/model/pln_ik.c: damped least-squares IK on robots
 * other than HRP-2 (tests/data/arm2.yaml, a planar 2-joint arm; tests/data/arm3.yaml, a
 * spatial 3-joint arm; tests/data/arm3p.yaml, a yaw, a prismatic lift and a pitch), from
 * many start postures, including the straight-arm start whose
 * Jacobian is blind to the residual, unreachable targets, and joint targets; frame
 * targets, and priorities (HRP-2 standing on one foot: stance > balance > hand). */
#include <check.h>
#include <math.h>
#include <string.h>

#include "check_rng.h"
#include "model/pln_ik.h"
#include "model/pln_kin.h"
#include "model/pln_robot.h"

/* target tolerance of the tests, m or rad */
#define IK_TOL 1e-3
/* agreement of a reported miss with its geometric value, m */
#define IK_MISS_TOL 1e-6
/* random trials per robot */
#define IK_TRIALS 300

typedef struct Arm {
    PlnRobot robot;
    PlnKinWork *kin;
    PlnIkWork *ik;
    int active[8];
    int n_active;
    int hand;              /* link index of the last link */
    double point[3];       /* the hand point in its frame */
} Arm;

static void arm_load(Arm *a, const char *path, double hand_length)
{
    char err[512];
    memset(a, 0, sizeof *a);
    ck_assert_msg(pln_robot_load(path, &a->robot, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_msg(pln_kin_create(&a->robot, &a->kin, err, sizeof err) == PLN_OK, "%s", err);
    a->n_active = a->robot.n_joints;
    for (int j = 0; j < a->n_active; ++j) a->active[j] = j;
    ck_assert_msg(pln_ik_create(&a->robot, 4, a->n_active, &a->ik, err, sizeof err) == PLN_OK,
                  "%s", err);
    a->hand = a->robot.n_links - 1;
    a->point[0] = hand_length;
}

static void arm_free(Arm *a)
{
    pln_ik_destroy(a->ik);
    pln_kin_destroy(a->kin);
    pln_robot_destroy(&a->robot);
}

/* world position of the hand point at posture q */
static void hand_at(Arm *a, const double *q, double x[3])
{
    ck_assert_int_eq(pln_kin_forward(a->kin, &a->robot, q), PLN_OK);
    pln_kin_point(a->kin, a->hand, a->point, x);
}

/* a posture drawn inside the limits, `margin` rad (or m) from each end, at most a quarter
 * of the range */
static void random_posture(Arm *a, Rng *r, double margin, double *q)
{
    for (int j = 0; j < a->robot.n_joints; ++j) {
        const PlnJoint *jt = &a->robot.joints[j];
        double m = fmin(margin, 0.25 * (jt->upper - jt->lower));
        q[j] = rng_uniform(r, jt->lower + m, jt->upper - m);
    }
}

static PlnIkTarget point_target(const Arm *a, const double target[3], double tol)
{
    PlnIkTarget t;
    memset(&t, 0, sizeof t);
    t.kind = PLN_IK_POINT;
    t.link = a->hand;
    memcpy(t.point, a->point, sizeof t.point);
    memcpy(t.target, target, sizeof t.target);
    t.tolerance = tol;
    return t;
}

static PlnIkTarget joint_target(int joint, double value, double tol)
{
    PlnIkTarget t;
    memset(&t, 0, sizeof t);
    t.kind = PLN_IK_JOINT;
    t.joint = joint;
    t.value = value;
    t.tolerance = tol;
    return t;
}

/* solves and checks the result against the forward kinematics at the returned posture */
static PlnIkResult solve(Arm *a, const PlnIkTarget *t, int n, double *q)
{
    char err[256];
    PlnIkOptions opt = pln_ik_options_default();
    PlnIkResult res;
    ck_assert_msg(pln_ik_solve(a->ik, a->kin, &a->robot, a->active, a->n_active, t, n, &opt, q,
                               &res, err, sizeof err) == PLN_OK,
                  "%s", err);
    for (int j = 0; j < a->robot.n_joints; ++j) {
        ck_assert(q[j] >= a->robot.joints[j].lower && q[j] <= a->robot.joints[j].upper);
    }
    return res;
}

/* the straight arm at rest is singular for every target on its circle: the Jacobian of
 * the shoulder is perpendicular to the residual along the arm; the IK must still swing
 * it round, in either direction, up to almost half a turn */
START_TEST(test_straight_arm_reaches_every_rotation)
{
    Arm a;
    const double angles[] = {0.3, 1.0, 1.5707963267948966, 2.0, 2.5, 3.0, 3.09,
                             -0.3, -1.2, -2.5, -3.09};
    arm_load(&a, "tests/data/arm2.yaml", 0.3);
    for (size_t i = 0; i < sizeof angles / sizeof angles[0]; ++i) {
        double q[2] = {0.0, 0.0}, goal[2] = {angles[i], 0.0}, target[3], x[3];
        PlnIkTarget t;
        PlnIkResult res;
        hand_at(&a, goal, target);
        t = point_target(&a, target, IK_TOL);
        res = solve(&a, &t, 1, q);
        hand_at(&a, q, x);
        ck_assert_msg(res.met, "rotation %g: missed by %g m", angles[i], res.worst_miss);
        ck_assert(hypot(x[0] - target[0], x[1] - target[1]) <= IK_TOL);
    }
    arm_free(&a);
}
END_TEST

/* random reachable targets (the hand of a random posture) from random start postures */
static void random_trials(const char *path, double hand, unsigned long long seed)
{
    Arm a;
    Rng r = {seed};
    int failures = 0;
    arm_load(&a, path, hand);
    for (int trial = 0; trial < IK_TRIALS; ++trial) {
        double q[8], goal[8], target[3];
        PlnIkTarget t;
        PlnIkResult res;
        random_posture(&a, &r, 0.3, goal);
        random_posture(&a, &r, 0.0, q);
        hand_at(&a, goal, target);
        t = point_target(&a, target, IK_TOL);
        res = solve(&a, &t, 1, q);
        if (!res.met) ++failures;
    }
    ck_assert_msg(failures == 0, "%s: %d of %d reachable targets missed", path, failures,
                  IK_TRIALS);
    arm_free(&a);
}

START_TEST(test_random_targets_planar)
{
    random_trials("tests/data/arm2.yaml", 0.3, 0x2a2a2a2aULL);
}
END_TEST

START_TEST(test_random_targets_spatial)
{
    random_trials("tests/data/arm3.yaml", 0.3, 0x3b3b3b3bULL);
}
END_TEST

/* a yaw, a prismatic lift (kinematics.md K.15: its column is the world axis) and a
 * pitch: random reachable targets, and a point 1.15 m high that the hand reaches only
 * with the lift raised >= 0.356 m (|(0.35, 0.55 - lift)| <= 0.4) */
START_TEST(test_random_targets_prismatic)
{
    random_trials("tests/data/arm3p.yaml", 0.4, 0x3c3c3c3cULL);
}
END_TEST

START_TEST(test_prismatic_lift_reaches_high_target)
{
    Arm a;
    double q[3] = {0.0, 0.0, 0.0}, target[3] = {0.35, 0.0, 1.15}, x[3];
    PlnIkTarget t;
    PlnIkResult res;
    arm_load(&a, "tests/data/arm3p.yaml", 0.4);
    ck_assert_int_eq(a.robot.joints[1].type, PLN_JOINT_PRISMATIC);
    t = point_target(&a, target, IK_TOL);
    res = solve(&a, &t, 1, q);
    ck_assert_msg(res.met, "missed by %g m", res.worst_miss);
    hand_at(&a, q, x);
    ck_assert(sqrt((x[0] - target[0]) * (x[0] - target[0]) + (x[1] - target[1]) * (x[1] - target[1]) +
                   (x[2] - target[2]) * (x[2] - target[2])) <= IK_TOL);
    ck_assert_double_ge(q[1], 0.35);
    arm_free(&a);
}
END_TEST

/* a target beyond the reach is reported with its true miss: the straight arm pointing
 * at it leaves |target - shoulder| - reach */
START_TEST(test_unreachable_target_reports_the_miss)
{
    Arm a;
    double q[2] = {0.4, 1.0}, target[3] = {0.0, 1.0, 1.0}, x[3];
    PlnIkTarget t;
    PlnIkResult res;
    arm_load(&a, "tests/data/arm2.yaml", 0.3);
    t = point_target(&a, target, IK_TOL);
    res = solve(&a, &t, 1, q);
    ck_assert(!res.met);
    ck_assert(!res.converged);
    ck_assert_int_eq(res.worst, 0);
    hand_at(&a, q, x);
    ck_assert_double_eq_tol(res.worst_miss, 1.0 - 0.7 - IK_TOL, 1e-4);
    ck_assert_double_eq_tol(res.worst_miss,
                            sqrt((x[0] - target[0]) * (x[0] - target[0]) +
                                 (x[1] - target[1]) * (x[1] - target[1])) - IK_TOL,
                            IK_MISS_TOL);
    arm_free(&a);
}
END_TEST

/* a joint target and a point target together: the elbow is set, the yaw and shoulder
 * place the hand on the circle the elbow allows */
START_TEST(test_joint_and_point_targets_together)
{
    Arm a;
    double goal[3] = {0.7, 0.5, -1.1}, q[3] = {0.0, 0.0, -0.2}, target[3], x[3];
    PlnIkTarget t[2];
    PlnIkResult res;
    arm_load(&a, "tests/data/arm3.yaml", 0.3);
    hand_at(&a, goal, target);
    t[0] = point_target(&a, target, IK_TOL);
    t[1] = joint_target(2, -1.1, IK_TOL);
    res = solve(&a, t, 2, q);
    ck_assert_msg(res.met, "missed by %g", res.worst_miss);
    ck_assert(fabs(q[2] + 1.1) <= IK_TOL);
    hand_at(&a, q, x);
    ck_assert(sqrt((x[0] - target[0]) * (x[0] - target[0]) + (x[1] - target[1]) * (x[1] - target[1]) +
                   (x[2] - target[2]) * (x[2] - target[2])) <= IK_TOL);
    arm_free(&a);
}
END_TEST

/* joints outside the active set never move, and a met start returns at once */
START_TEST(test_inactive_joints_stay_and_met_start_returns)
{
    Arm a;
    char err[256];
    double q[3] = {0.2, 0.3, -0.5}, target[3], q0[3];
    PlnIkTarget t;
    PlnIkResult res;
    PlnIkOptions opt = pln_ik_options_default();
    arm_load(&a, "tests/data/arm3.yaml", 0.3);
    memcpy(q0, q, sizeof q);
    hand_at(&a, q, target);
    t = point_target(&a, target, IK_TOL);
    res = solve(&a, &t, 1, q);
    ck_assert(res.met && res.converged);
    ck_assert_int_eq(res.iterations, 0);
    ck_assert(memcmp(q, q0, sizeof q) == 0);
    /* only the shoulder moves: the target 5 cm higher is met by pitch alone or missed,
     * but yaw and elbow keep their values */
    target[2] += 0.05;
    t = point_target(&a, target, IK_TOL);
    {
        int only[1] = {1};
        PlnIkWork *ik1;
        ck_assert(pln_ik_create(&a.robot, 1, 1, &ik1, err, sizeof err) == PLN_OK);
        ck_assert(pln_ik_solve(ik1, a.kin, &a.robot, only, 1, &t, 1, &opt, q, &res, err,
                               sizeof err) == PLN_OK);
        pln_ik_destroy(ik1);
    }
    ck_assert(q[0] == q0[0] && q[2] == q0[2]);
    ck_assert(q[1] != q0[1]);
    arm_free(&a);
}
END_TEST

/* Priorities (eq. IK3): a point target above a joint target that conflicts with it is met
 * and the joint target is missed; swapped, the joint target is met. */
START_TEST(test_priorities_decide_a_conflict)
{
    Arm a;
    const double goal[3] = {0.2, 0.5, -1.0};
    double q[3], target[3];
    PlnIkTarget t[2];
    PlnIkResult res;
    arm_load(&a, "tests/data/arm3.yaml", 0.3);
    hand_at(&a, goal, target);
    t[0] = point_target(&a, target, IK_TOL);
    t[1] = joint_target(0, 1.2, IK_TOL); /* the hand target needs about 0.2 */
    for (int swap = 0; swap < 2; ++swap) {
        double miss[2];
        q[0] = 0.0, q[1] = 0.3, q[2] = -0.6;
        t[0].priority = swap ? 1 : 0;
        t[1].priority = swap ? 0 : 1;
        res = solve(&a, t, 2, q);
        ck_assert(!res.met);
        pln_ik_misses(a.ik, t, 2, miss);
        ck_assert_msg(miss[swap] <= 0.0, "swap %d: the first level misses by %g", swap, miss[swap]);
        ck_assert_msg(miss[1 - swap] > 0.01, "swap %d: the second level is met (%g)", swap, miss[1 - swap]);
        ck_assert_double_eq_tol(res.level_miss[0], miss[swap], 1e-15);
        ck_assert_double_eq_tol(res.level_miss[1], miss[1 - swap], 1e-15);
        ck_assert(res.level_miss[2] == -HUGE_VAL && res.level_miss[3] == -HUGE_VAL);
    }
    arm_free(&a);
}
END_TEST

/* A frame target (position and orientation, eq. IK4) that a posture reaches exactly is met
 * to 1e-9 from postures around it: the rotation error's sign and Jacobian are right. */
START_TEST(test_frame_target_converges)
{
    Arm a;
    Rng r = {0x5eedULL};
    const double goal[3] = {0.4, -0.7, -1.3};
    double q[3];
    PlnIkTarget t;
    PlnIkResult res;
    PlnIkOptions opt = pln_ik_options_default();
    char err[256];
    arm_load(&a, "tests/data/arm3.yaml", 0.3);
    memset(&t, 0, sizeof t);
    t.kind = PLN_IK_FRAME;
    t.link = a.hand;
    memcpy(t.point, a.point, sizeof t.point);
    hand_at(&a, goal, t.target);
    memcpy(t.target_rot, pln_kin_link_rot(a.kin, a.hand), sizeof t.target_rot);
    t.tolerance = 1e-9;
    t.rot_tolerance = 1e-9;
    opt.restarts = 0;
    for (int k = 0; k < 50; ++k) {
        for (int j = 0; j < 3; ++j) q[j] = goal[j] + rng_uniform(&r, -0.3, 0.3);
        ck_assert(pln_ik_solve(a.ik, a.kin, &a.robot, a.active, a.n_active, &t, 1, &opt, q, &res,
                               err, sizeof err) == PLN_OK);
        ck_assert_msg(res.met, "start %d: missed by %g", k, res.worst_miss);
        for (int j = 0; j < 3; ++j) ck_assert_double_eq_tol(q[j], goal[j], 1e-6);
    }
    arm_free(&a);
}
END_TEST

/* HRP-2 standing on its right foot (re-rooted there), legs, chest and right arm moving,
 * reaching for a point 1.5 m in front: with priorities the left foot stays where it
 * stands and the centre of mass inside its polygon, and the hand comes as near as they
 * let it; with every target on one level the least-squares compromise moves the foot or
 * the centre of mass out of tolerance (so the priorities are what holds them). */
START_TEST(test_stance_and_balance_outrank_the_hand)
{
    PlnRobot file, rr;
    PlnKinWork *kin = NULL;
    PlnIkWork *ik = NULL;
    PlnIkOptions opt = pln_ik_options_default();
    PlnIkTarget t[3];
    PlnIkResult res;
    char err[512];
    double q0[64], q[64], com[3], edge_n[4][2], edge_b[4];
    int active[64], n_active = 0, rfoot, lfoot, hand;
    ck_assert_msg(pln_robot_load("robots/hrp2.yaml", &file, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert(file.n_joints <= 64);
    for (int j = 0; j < file.n_joints; ++j) q0[j] = file.joints[j].initial;
    ck_assert(pln_kin_create(&file, &kin, err, sizeof err) == PLN_OK);
    ck_assert(pln_kin_forward(kin, &file, q0) == PLN_OK);
    rfoot = pln_robot_find_link(&file, "RLEG_LINK5");
    ck_assert(rfoot >= 0);
    ck_assert_msg(pln_robot_reroot(&file, rfoot, pln_kin_link_pos(kin, rfoot),
                                   pln_kin_link_rot(kin, rfoot), &rr, err, sizeof err) == PLN_OK,
                  "%s", err);
    pln_kin_destroy(kin);
    kin = NULL;
    ck_assert(pln_kin_create(&rr, &kin, err, sizeof err) == PLN_OK);
    for (int j = 0; j < rr.n_joints; ++j) {
        const char *nm = rr.joints[j].name;
        if (strstr(nm, "LEG") || strstr(nm, "CHEST") || (strstr(nm, "RARM") && !strstr(nm, "JOINT6")))
            active[n_active++] = j;
    }
    ck_assert(pln_ik_create(&rr, 3, n_active, &ik, err, sizeof err) == PLN_OK);
    lfoot = pln_robot_find_link(&rr, "LLEG_LINK5");
    hand = pln_robot_find_link(&rr, "RARM_LINK6");
    ck_assert(pln_kin_forward(kin, &rr, q0) == PLN_OK);
    memset(t, 0, sizeof t);
    t[0].kind = PLN_IK_FRAME;
    t[0].link = lfoot;
    memcpy(t[0].target, pln_kin_link_pos(kin, lfoot), sizeof t[0].target);
    memcpy(t[0].target_rot, pln_kin_link_rot(kin, lfoot), sizeof t[0].target_rot);
    t[0].tolerance = 1e-4;
    t[0].rot_tolerance = 1e-3;
    t[0].priority = 0;
    /* balance: the centre of mass within 4 cm of where it stands, a square */
    ck_assert(pln_kin_com(kin, &rr, com) == PLN_OK);
    for (int k = 0; k < 4; ++k) {
        edge_n[k][0] = k == 0 ? 1.0 : k == 2 ? -1.0 : 0.0;
        edge_n[k][1] = k == 1 ? 1.0 : k == 3 ? -1.0 : 0.0;
        edge_b[k] = edge_n[k][0] * com[0] + edge_n[k][1] * com[1] + 0.04;
    }
    t[1].kind = PLN_IK_COM;
    t[1].n_edges = 4;
    t[1].edge_n = (const double (*)[2])edge_n;
    t[1].edge_b = edge_b;
    t[1].tolerance = 0.005;
    t[1].priority = 1;
    t[2].kind = PLN_IK_POINT;
    t[2].link = hand;
    t[2].point[2] = -0.06;
    pln_kin_point(kin, hand, t[2].point, t[2].target);
    t[2].target[0] += 1.5;
    t[2].tolerance = 0.01;
    t[2].priority = 2;
    for (int flat = 0; flat < 2; ++flat) {
        double miss[3], x0[3], x1[3], moved;
        for (int k = 0; k < 3; ++k) t[k].priority = flat ? 0 : k;
        memcpy(q, q0, sizeof q);
        ck_assert(pln_ik_solve(ik, kin, &rr, active, n_active, t, 3, &opt, q, &res, err,
                               sizeof err) == PLN_OK);
        pln_ik_misses(ik, t, 3, miss);
        /* the hand came nearer than at the start in both cases */
        pln_kin_point(kin, hand, t[2].point, x1);
        ck_assert(pln_kin_forward(kin, &rr, q0) == PLN_OK);
        pln_kin_point(kin, hand, t[2].point, x0);
        moved = x1[0] - x0[0];
        ck_assert_msg(moved > 0.05, "flat %d: the hand moved %g m forward", flat, moved);
        if (!flat) {
            ck_assert_msg(miss[0] <= 0.0, "the stance foot moved: miss %g", miss[0]);
            ck_assert_msg(miss[1] <= 0.0, "the centre of mass left its square by %g m", miss[1]);
            ck_assert(miss[2] > 0.5);
        } else {
            ck_assert_msg(miss[0] > 0.0 || miss[1] > 0.0, "one level: foot %g, com %g", miss[0], miss[1]);
        }
    }
    pln_ik_destroy(ik);
    pln_kin_destroy(kin);
    pln_robot_destroy(&rr);
    pln_robot_destroy(&file);
}
END_TEST

START_TEST(test_bad_calls_refused)
{
    Arm a;
    char err[256];
    double q[2] = {0.0, 0.0}, target[3] = {0.5, 0.0, 1.0};
    PlnIkTarget t[5];
    PlnIkResult res;
    PlnIkOptions opt = pln_ik_options_default();
    PlnIkWork *w = NULL;
    arm_load(&a, "tests/data/arm2.yaml", 0.3);
    for (int i = 0; i < 5; ++i) t[i] = point_target(&a, target, IK_TOL);
    /* more targets than the workspace holds */
    ck_assert_int_eq(pln_ik_solve(a.ik, a.kin, &a.robot, a.active, 2, t, 5, &opt, q, &res, err,
                                  sizeof err),
                     PLN_ERR_INVALID);
    opt.damping = 0.0;
    ck_assert_int_eq(pln_ik_solve(a.ik, a.kin, &a.robot, a.active, 2, t, 1, &opt, q, &res, err,
                                  sizeof err),
                     PLN_ERR_INVALID);
    /* a priority out of range, a negative tolerance */
    t[0].priority = PLN_IK_MAX_LEVELS;
    ck_assert_int_eq(pln_ik_solve(a.ik, a.kin, &a.robot, a.active, 2, t, 1, &opt, q, &res, err,
                                  sizeof err),
                     PLN_ERR_INVALID);
    t[0].priority = 0;
    t[0].tolerance = -1.0;
    opt = pln_ik_options_default();
    ck_assert_int_eq(pln_ik_solve(a.ik, a.kin, &a.robot, a.active, 2, t, 1, &opt, q, &res, err,
                                  sizeof err),
                     PLN_ERR_INVALID);
    ck_assert_int_eq(pln_ik_create(&a.robot, 0, 2, &w, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_null(w);
    ck_assert_int_eq(pln_ik_create(&a.robot, 1, 3, &w, err, sizeof err), PLN_ERR_INVALID);
    pln_ik_destroy(NULL);
    arm_free(&a);
}
END_TEST

Suite *pln_ik_suite(void)
{
    Suite *s = suite_create("pln_ik");
    TCase *tc = tcase_create("reach");
    tcase_add_test(tc, test_straight_arm_reaches_every_rotation);
    tcase_add_test(tc, test_random_targets_planar);
    tcase_add_test(tc, test_random_targets_spatial);
    tcase_add_test(tc, test_random_targets_prismatic);
    tcase_add_test(tc, test_prismatic_lift_reaches_high_target);
    tcase_add_test(tc, test_joint_and_point_targets_together);
    tcase_add_test(tc, test_frame_target_converges);
    suite_add_tcase(s, tc);
    tc = tcase_create("priorities");
    tcase_add_test(tc, test_priorities_decide_a_conflict);
    tcase_add_test(tc, test_stance_and_balance_outrank_the_hand);
    suite_add_tcase(s, tc);
    tc = tcase_create("limits");
    tcase_add_test(tc, test_unreachable_target_reports_the_miss);
    tcase_add_test(tc, test_inactive_joints_stay_and_met_start_returns);
    tcase_add_test(tc, test_bad_calls_refused);
    suite_add_tcase(s, tc);
    return s;
}
