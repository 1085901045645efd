/* check_pln_ik.c — tests of planner/model/pln_ik.c: damped least-squares IK on robots
 * other than HRP-2 (tests/data/arm2.yaml, a planar 2-joint arm; tests/data/arm3.yaml, a
 * spatial 3-joint arm), from many start postures, including the straight-arm start whose
 * Jacobian is blind to the residual, unreachable targets, and joint targets. */
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

/* a posture drawn inside the limits, `margin` rad from each end */
static void random_posture(Arm *a, Rng *r, double margin, double *q)
{
    for (int j = 0; j < a->robot.n_joints; ++j) {
        const PlnJoint *jt = &a->robot.joints[j];
        q[j] = rng_uniform(r, jt->lower + margin, jt->upper - margin);
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
    memset(&t[1], 0, sizeof t[1]);
    t[1].kind = PLN_IK_JOINT;
    t[1].joint = 2;
    t[1].value = -1.1;
    t[1].tolerance = IK_TOL;
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
    tcase_add_test(tc, test_joint_and_point_targets_together);
    suite_add_tcase(s, tc);
    tc = tcase_create("limits");
    tcase_add_test(tc, test_unreachable_target_reports_the_miss);
    tcase_add_test(tc, test_inactive_joints_stay_and_met_start_returns);
    tcase_add_test(tc, test_bad_calls_refused);
    suite_add_tcase(s, tc);
    return s;
}
