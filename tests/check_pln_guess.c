/* check_pln_guess.c — tests of planner/problem/pln_guess.c: the IK initial guess passes
 * through postures that meet the tasks, keeps the fixed start and the bounds, names an
 * unreachable task; and, end to end through pln_plan_run(), position tasks certify from
 * many start postures on robots other than HRP-2 (tests/data/arm2.yaml, arm3.yaml),
 * including the straight arm whose first-order task rows used to be blind. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/pln_tolerance.h"
#include "check_rng.h"
#include "check_util.h"
#include "model/pln_kin.h"
#include "model/pln_robot.h"
#include "problem/pln_guess.h"
#include "problem/pln_plan.h"
#include "problem/pln_problem.h"
#include "problem/pln_scenario.h"

/* how near the guess puts a task the IK met, in tolerances: the IK aims at half the
 * optimiser's 0.9 tolerance, and the interpolation is exact up to rounding unless it
 * holds control points at joint limits (hand_cross does: the shoulder rolls to its
 * limit), so the guess is near the target, not always within its tolerance */
#define GUESS_TASK_FRACTION 2.0
/* the step-in-place guess (eq. G0): the spline through the waypoints bends between them, so
 * the stance foot is near, not on, its place: 8.1 mm measured, against 50 mm with
 * waypoints at the task time only; and the centre of mass over the standing foot at the
 * lift-off (13 mm outside its polygon before), m */
#define GUESS_STEP_SLIDE_M 0.015
#define GUESS_STEP_COM_M 0.001
/* the stance foot at a task time of the leaning reach: the spline blends control points
 * that the IK projected onto the stance one by one (eq. G5), so it passes near, not
 * through, the waypoint that holds the foot (1.46 mm measured, 0 before G5); buying reach
 * with the stance moves it by centimetres, m */
#define GUESS_STANCE_AT_TASK_M 0.003
/* rounding of the spline interpolation at the task times, rad */
#define GUESS_INTERP_TOL 1e-9

typedef struct Loaded1 {
    PlnLoaded l;
    double *x, *ctrl;
    PlnKinWork *kin;
} Loaded1;

static void load(Loaded1 *f, const char *scenario)
{
    char err[1024];
    PlnPlanOptions opt = pln_plan_options_default();
    memset(f, 0, sizeof *f);
    ck_assert_msg(pln_plan_load(scenario, &opt, &f->l, err, sizeof err) == PLN_OK, "%s", err);
    f->x = calloc((size_t)f->l.p->n_vars, sizeof *f->x);
    f->ctrl = calloc((size_t)f->l.p->n_active * f->l.p->n_ctrl, sizeof *f->ctrl);
    ck_assert(f->x != NULL && f->ctrl != NULL);
    ck_assert_msg(pln_kin_create(&f->l.robot, &f->kin, err, sizeof err) == PLN_OK, "%s", err);
}

static void unload(Loaded1 *f)
{
    pln_kin_destroy(f->kin);
    free(f->x);
    free(f->ctrl);
    pln_plan_unload(&f->l);
}

/* the distance of position task t from its target on the spline of f->ctrl */
static double task_miss(Loaded1 *f, int t)
{
    const PlnTask *task = &f->l.sc.tasks[t];
    double q[64], x[3];
    ck_assert_int_le(f->l.robot.n_joints, 64);
    ck_assert_int_eq(pln_problem_joints_at(f->l.p, f->ctrl, task->time, q), PLN_OK);
    ck_assert_int_eq(pln_kin_forward(f->kin, &f->l.robot, q), PLN_OK);
    pln_kin_point(f->kin, task->link.index, task->point, x);
    return sqrt((x[0] - task->target[0]) * (x[0] - task->target[0]) +
                (x[1] - task->target[1]) * (x[1] - task->target[1]) +
                (x[2] - task->target[2]) * (x[2] - task->target[2]));
}

/* writes an arm scenario into dir: tasks as YAML flow lines, initial posture as given */
static void write_scenario(const char *path, const char *robot, double duration,
                           const char *joints, const char *initial, const char *tasks)
{
    FILE *f = fopen(path, "w");
    char cwd[1024];
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    fprintf(f, "name: guess_test\nrobot: %s/tests/data/%s\nduration: %g\n", cwd, robot, duration);
    fprintf(f, "spline: {degree: 5, spans: 5}\njoints: [%s]\n", joints);
    if (initial != NULL) fprintf(f, "initial: {%s}\n", initial);
    fprintf(f, "tasks:\n%s", tasks);
    fprintf(f, "collision: {enabled: false, pairs: []}\n");
    fclose(f);
}

/* the guess meets every task at its time, keeps the start and the bounds (HRP-2's
 * hand_cross: two hands at each of three times) */
START_TEST(test_hand_cross_guess_meets_every_task)
{
    Loaded1 f;
    char err[512];
    PlnGuessReport rep;
    double q0[64];
    load(&f, "scenarios/hand_cross.yaml");
    ck_assert_msg(pln_guess_initial_x(f.l.p, f.x, &rep, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(rep.groups, 3);
    ck_assert_int_eq(rep.unmet, 0);
    ck_assert_int_eq(rep.worst_task, -1);
    for (int v = 0; v < f.l.p->n_vars; ++v) {
        ck_assert(f.x[v] >= f.l.p->lb[v] && f.x[v] <= f.l.p->ub[v]);
    }
    pln_problem_ctrl(f.l.p, f.x, f.ctrl);
    for (int t = 0; t < f.l.sc.n_tasks; ++t) {
        double miss = task_miss(&f, t);
        ck_assert_msg(miss <= GUESS_TASK_FRACTION * f.l.sc.tasks[t].tolerance,
                      "task %d missed by %g m", t, miss);
    }
    /* the start is the initial posture */
    ck_assert_int_eq(pln_problem_joints_at(f.l.p, f.ctrl, 0.0, q0), PLN_OK);
    for (int j = 0; j < f.l.robot.n_joints; ++j) ck_assert(q0[j] == f.l.p->q_init[j]);
    unload(&f);
}
END_TEST

/* an unreachable target is named by the guess, and the guess still moves toward it */
START_TEST(test_unreachable_task_is_named)
{
    Loaded1 f;
    char dir[512], path[600], err[512];
    PlnGuessReport rep;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/far.yaml", dir);
    write_scenario(path, "arm2.yaml", 2.0, "SHOULDER, ELBOW", NULL,
                   "  - {type: position, link: FORE, point: [0.3, 0, 0], target: [0.5, 0.2, 1.0], "
                   "time: 1.0, tolerance: 0.01}\n"
                   "  - {type: position, link: FORE, point: [0.3, 0, 0], target: [0.0, 1.2, 1.0], "
                   "time: 2.0, tolerance: 0.01}\n");
    load(&f, path);
    ck_assert_msg(pln_guess_initial_x(f.l.p, f.x, &rep, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(rep.groups, 2);
    ck_assert_int_eq(rep.unmet, 1);
    ck_assert_int_eq(rep.worst_task, 1);
    ck_assert_double_eq_tol(rep.worst_miss, 1.2 - 0.7 - 0.01, 1e-4);
    pln_problem_ctrl(f.l.p, f.x, f.ctrl);
    ck_assert(task_miss(&f, 0) <= GUESS_TASK_FRACTION * 0.01);
    unload(&f);
    unlink(path);
    rmdir(dir);
}
END_TEST

/* Priorities (docs/math/planner.md sec. 8, eq. IK3): HRP-2 standing on both feet with its
 * legs, chest and right arm moving (re-rooted at the right foot, the left foot a stance
 * foot), asked to touch a point 1.2 m in front of the chest. The IK may not buy reach
 * with the stance: at the task's time the guess keeps the left foot where it stands and
 * the centre of mass inside the support polygon, and still moves the hand forward. */
START_TEST(test_guess_keeps_stance_and_balance)
{
    Loaded1 f;
    char dir[512], path[600], err[512], cwd[1024];
    PlnGuessReport rep;
    FILE *fp;
    double q[64], x[3], c[3], hand0[3], hand1[3], worst = -HUGE_VAL;
    const double t_task = 0.8, point[3] = {0.0, 0.0, -0.06};
    const PlnPhaseGeom *ph;
    int hand;
    ckutil_mkdtemp(dir, sizeof dir);
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    snprintf(path, sizeof path, "%s/lean.yaml", dir);
    fp = fopen(path, "w");
    ck_assert_ptr_nonnull(fp);
    fprintf(fp, "name: lean\nrobot: %s/robots/hrp2.yaml\nduration: 2.0\n"
                "spline: {degree: 5, spans: 6}\n"
                "joints: [RLEG_JOINT0, RLEG_JOINT1, RLEG_JOINT2, RLEG_JOINT3, RLEG_JOINT4, RLEG_JOINT5,\n"
                "         LLEG_JOINT0, LLEG_JOINT1, LLEG_JOINT2, LLEG_JOINT3, LLEG_JOINT4, LLEG_JOINT5,\n"
                "         CHEST_JOINT0, CHEST_JOINT1, RARM_JOINT0, RARM_JOINT1, RARM_JOINT2,\n"
                "         RARM_JOINT3, RARM_JOINT4, RARM_JOINT5]\n"
                "support:\n  - {feet: [RLEG_LINK5, LLEG_LINK5], from: 0.0, to: 2.0}\n"
                "tasks:\n  - {type: position, link: RARM_LINK6, point: [0, 0, -0.06], "
                "target: [1.2, -0.2, 0.9], time: %g, tolerance: 0.01}\n"
                "collision: {enabled: false, pairs: []}\n", cwd, t_task);
    fclose(fp);
    load(&f, path);
    ck_assert_int_eq(f.l.p->n_stance, 1);
    ck_assert_int_ge(f.l.p->n_phases, 1);
    ck_assert_msg(pln_guess_initial_x(f.l.p, f.x, &rep, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(rep.unmet, 1); /* 1.2 m is out of reach standing */
    pln_problem_ctrl(f.l.p, f.x, f.ctrl);
    hand = pln_robot_find_link(&f.l.robot, "RARM_LINK6");
    ck_assert_int_eq(pln_kin_forward(f.kin, &f.l.robot, f.l.p->q_init), PLN_OK);
    pln_kin_point(f.kin, hand, point, hand0);
    ck_assert_int_eq(pln_problem_joints_at(f.l.p, f.ctrl, t_task, q), PLN_OK);
    ck_assert_int_eq(pln_kin_forward(f.kin, &f.l.robot, q), PLN_OK);
    pln_kin_point(f.kin, hand, point, hand1);
    ck_assert_msg(hand1[0] > hand0[0] + 0.1, "the hand moved %g m forward", hand1[0] - hand0[0]);
    /* the stance foot */
    pln_kin_point(f.kin, f.l.p->stance[0].link, f.l.p->stance[0].point, x);
    for (int i = 0; i < 3; ++i) {
        ck_assert_msg(fabs(x[i] - f.l.p->stance[0].target[i]) <= GUESS_STANCE_AT_TASK_M,
                      "the stance foot moved %g m along %d", x[i] - f.l.p->stance[0].target[i], i);
    }
    /* balance: the centre of mass inside the phase's (ZMP) polygon */
    ck_assert_int_eq(pln_kin_com(f.kin, &f.l.robot, c), PLN_OK);
    ph = &f.l.p->phases[0];
    for (int e = 0; e < ph->n_edges; ++e) {
        worst = fmax(worst, ph->edge_n[e][0] * c[0] + ph->edge_n[e][1] * c[1] - ph->edge_b[e]);
    }
    ck_assert_msg(worst <= 1e-6, "the centre of mass is %g m beyond the support polygon", worst);
    unload(&f);
    unlink(path);
    rmdir(dir);
}
END_TEST

/* the worst of n . c - b over a phase's ZMP polygon (> 0: the centre of mass is outside) */
static double polygon_excess(const PlnPhaseGeom *ph, const double c[3])
{
    double worst = -HUGE_VAL;
    for (int e = 0; e < ph->n_edges; ++e) {
        worst = fmax(worst, ph->edge_n[e][0] * c[0] + ph->edge_n[e][1] * c[1] - ph->edge_b[e]);
    }
    return worst;
}

/* writes the step-in-place scenario: both feet, the right foot alone while the left one is
 * lifted by 5 cm at 2.1 s, both feet; lifted: the left sole centre where the guess must lift
 * it. The test first loads the scenario with lifted = NULL (the task's target then is
 * (0, 0.1, 0.05), never planned) only to read where the sole stands at the initial posture. */
static void write_step(const char *path, const double lifted[3])
{
    char cwd[1024];
    FILE *fp = fopen(path, "w");
    ck_assert_ptr_nonnull(fp);
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    fprintf(fp, "name: step\nrobot: %s/robots/hrp2.yaml\nduration: 4.0\n"
                "spline: {degree: 5, spans: 9}\nrest: {start: true, end: true}\n"
                "joints: [RLEG_JOINT0, RLEG_JOINT1, RLEG_JOINT2, RLEG_JOINT3, RLEG_JOINT4, RLEG_JOINT5,\n"
                "         LLEG_JOINT0, LLEG_JOINT1, LLEG_JOINT2, LLEG_JOINT3, LLEG_JOINT4, LLEG_JOINT5,\n"
                "         CHEST_JOINT0, CHEST_JOINT1, RARM_JOINT0, RARM_JOINT1, LARM_JOINT0, LARM_JOINT1]\n"
                "support:\n  - {feet: [RLEG_LINK5, LLEG_LINK5], from: 0.0, to: 1.4}\n"
                "  - {feet: [RLEG_LINK5], from: 1.4, to: 2.8}\n"
                "  - {feet: [RLEG_LINK5, LLEG_LINK5], from: 2.8, to: 4.0}\n"
                "tasks:\n  - {type: position, link: LLEG_LINK5, point: [0.012, 0.008, -0.105], "
                "target: [%.9f, %.9f, %.9f], time: 2.1, tolerance: 0.01}\n"
                "collision: {enabled: false, pairs: []}\n", cwd,
            lifted ? lifted[0] : 0.0, lifted ? lifted[1] : 0.1, lifted ? lifted[2] : 0.05);
    fclose(fp);
}

/* eq. G0: between the task times too, the guess keeps the stance foot of a closed chain
 * near where it stands and moves the weight over the standing foot through the two-foot
 * phase before the other foot lifts (a joint-space path from the start to the lifted
 * posture slid the left foot 50 mm and left the centre of mass 13 mm outside the one-foot
 * polygon at the lift-off) */
START_TEST(test_guess_shifts_weight_before_a_step)
{
    Loaded1 f;
    char dir[512], path[600], err[512];
    PlnGuessReport rep;
    double q[64], x[3], c[3], sole[3], slide = 0.0, excess_lift, excess_half;
    const double point[3] = {0.012, 0.008, -0.105};
    int foot;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/step.yaml", dir);
    write_step(path, NULL);
    load(&f, path);
    foot = pln_robot_find_link(&f.l.robot, "LLEG_LINK5");
    ck_assert_int_ge(foot, 0);
    ck_assert_int_eq(pln_kin_forward(f.kin, &f.l.robot, f.l.p->q_init), PLN_OK);
    pln_kin_point(f.kin, foot, point, sole);
    unload(&f);
    sole[2] += 0.05;
    write_step(path, sole);
    load(&f, path);
    ck_assert_int_eq(f.l.p->n_phases, 3);
    ck_assert_int_ge(f.l.p->n_stance, 1);
    ck_assert_msg(pln_guess_initial_x(f.l.p, f.x, &rep, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(rep.unmet, 0);
    pln_problem_ctrl(f.l.p, f.x, f.ctrl);
    /* the left foot in the two-foot phases, densely */
    for (int k = 0; k <= 400; ++k) {
        double t = 4.0 * k / 400.0;
        for (int s = 0; s < f.l.p->n_stance; ++s) {
            const PlnStance *st = &f.l.p->stance[s];
            const PlnPhaseGeom *ph = &f.l.p->phases[st->phase];
            if (t < ph->t0 || t > ph->t1) continue;
            ck_assert_int_eq(pln_problem_joints_at(f.l.p, f.ctrl, t, q), PLN_OK);
            ck_assert_int_eq(pln_kin_forward(f.kin, &f.l.robot, q), PLN_OK);
            pln_kin_point(f.kin, st->link, st->point, x);
            {
                double d = sqrt((x[0] - st->target[0]) * (x[0] - st->target[0]) +
                                (x[1] - st->target[1]) * (x[1] - st->target[1]) +
                                (x[2] - st->target[2]) * (x[2] - st->target[2]));
                slide = fmax(slide, d);
            }
        }
    }
    /* the centre of mass at the lift-off, against the one-foot polygon */
    ck_assert_int_eq(pln_problem_joints_at(f.l.p, f.ctrl, 1.4, q), PLN_OK);
    ck_assert_int_eq(pln_kin_forward(f.kin, &f.l.robot, q), PLN_OK);
    ck_assert_int_eq(pln_kin_com(f.kin, &f.l.robot, c), PLN_OK);
    excess_lift = polygon_excess(&f.l.p->phases[1], c);
    /* and half way through the two-foot phase: on its way (neither still at the start nor
     * already over the foot) */
    ck_assert_int_eq(pln_problem_joints_at(f.l.p, f.ctrl, 0.7, q), PLN_OK);
    ck_assert_int_eq(pln_kin_forward(f.kin, &f.l.robot, q), PLN_OK);
    ck_assert_int_eq(pln_kin_com(f.kin, &f.l.robot, c), PLN_OK);
    excess_half = polygon_excess(&f.l.p->phases[1], c);
    fprintf(stderr, "step guess: stance slide %.3g mm, com beyond the one-foot polygon %.3g mm "
                    "at the lift-off, %.3g mm half way\n", 1e3 * slide, 1e3 * excess_lift,
            1e3 * excess_half);
    ck_assert_msg(slide <= GUESS_STEP_SLIDE_M, "the stance foot slid %g m", slide);
    ck_assert_msg(excess_lift <= GUESS_STEP_COM_M, "the centre of mass is %g m outside at the lift-off",
                  excess_lift);
    ck_assert_msg(excess_half > excess_lift, "the weight is over the foot already half way");
    unload(&f);
    unlink(path);
    rmdir(dir);
}
END_TEST

/* eqs. G4, G5: a lifted foot follows its path and the stance holds between waypoints too.
 * tests/data/lift_and_reach.yaml lifts the right foot 5.5 cm while the right hand reaches
 * behind. Before G4 the IK left the lifted leg where the reach carried it, and before G5
 * the fit (G2) swung the hips against each other between waypoints: the guess's right
 * foot was 35-42 cm from where it stands (report.json of the guess, certified bound).
 * Sampled every 10 ms: the stance feet in their phases, and the lifted sole centre above
 * the floor through its phase and clear of it half way. */
START_TEST(test_guess_holds_the_lifted_foot)
{
    Loaded1 f;
    char err[512];
    PlnGuessReport rep;
    double q[64], x[3], slide = 0.0, low = HUGE_VAL, mid = -HUGE_VAL;
    load(&f, "tests/data/lift_and_reach.yaml");
    ck_assert_int_eq(f.l.p->n_phases, 3);
    ck_assert_int_eq(f.l.p->n_swing, 1);
    ck_assert_msg(pln_guess_initial_x(f.l.p, f.x, &rep, err, sizeof err) == PLN_OK, "%s", err);
    pln_problem_ctrl(f.l.p, f.x, f.ctrl);
    for (int k = 0; k <= 377; ++k) {
        const double t = 0.01 * k;
        ck_assert_int_eq(pln_problem_joints_at(f.l.p, f.ctrl, fmin(t, f.l.sc.duration), q), PLN_OK);
        ck_assert_int_eq(pln_kin_forward(f.kin, &f.l.robot, q), PLN_OK);
        for (int s = 0; s < f.l.p->n_stance; ++s) {
            const PlnStance *st = &f.l.p->stance[s];
            const PlnPhaseGeom *ph = &f.l.p->phases[st->phase];
            double d = 0.0;
            if (t < ph->t0 || t > ph->t1) continue;
            pln_kin_point(f.kin, st->link, st->point, x);
            for (int i = 0; i < 3; ++i) d += (x[i] - st->target[i]) * (x[i] - st->target[i]);
            slide = fmax(slide, sqrt(d));
        }
        {
            const PlnSwing *w = &f.l.p->swing[0];
            const PlnPhaseGeom *ph = &f.l.p->phases[w->phase];
            const PlnStance *st = &f.l.p->stance[0];
            double h;
            if (t < ph->t0 || t > ph->t1) continue;
            ck_assert_int_eq(st->link, w->link);
            pln_kin_point(f.kin, st->link, st->point, x);
            h = x[2] - st->target[2];
            low = fmin(low, h);
            if (fabs(t - 0.5 * (ph->t0 + ph->t1)) < 0.2) mid = fmax(mid, h);
        }
    }
    fprintf(stderr, "lift and reach guess: stance slide %.3g mm, lifted sole %.3g mm above its "
                    "stance height at least, %.3g mm half way\n", 1e3 * slide, 1e3 * low, 1e3 * mid);
    ck_assert_msg(slide <= GUESS_STEP_SLIDE_M, "a stance foot slid %g m", slide);
    ck_assert_msg(low >= -PLN_STANCE_POS_TOL_M, "the lifted sole went %g m below its stance height", -low);
    ck_assert_msg(mid >= 0.02, "the lifted sole is only %g m up half way", mid);
    unload(&f);
}
END_TEST

/* a joint task is interpolated exactly at its time */
START_TEST(test_joint_task_interpolated_exactly)
{
    Loaded1 f;
    char dir[512], path[600], err[512];
    PlnGuessReport rep;
    double q[8];
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/joint.yaml", dir);
    write_scenario(path, "arm3.yaml", 2.0, "YAW, SHOULDER, ELBOW", NULL,
                   "  - {type: joint, joint: YAW, value: 1.3, time: 0.8, tolerance: 0.01}\n"
                   "  - {type: joint, joint: ELBOW, value: -1.7, time: 1.4, tolerance: 0.01}\n");
    load(&f, path);
    ck_assert_msg(pln_guess_initial_x(f.l.p, f.x, &rep, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(rep.unmet, 0);
    pln_problem_ctrl(f.l.p, f.x, f.ctrl);
    ck_assert_int_eq(pln_problem_joints_at(f.l.p, f.ctrl, 0.8, q), PLN_OK);
    ck_assert(fabs(q[0] - 1.3) <= 0.5 * 0.9 * 0.01 + GUESS_INTERP_TOL);
    ck_assert_int_eq(pln_problem_joints_at(f.l.p, f.ctrl, 1.4, q), PLN_OK);
    ck_assert(fabs(q[2] + 1.7) <= 0.5 * 0.9 * 0.01 + GUESS_INTERP_TOL);
    unload(&f);
    unlink(path);
    rmdir(dir);
}
END_TEST

/* plans one scenario in memory and says whether it certified */
static int plans_certified(const char *path, char *why, size_t why_size)
{
    PlnPlanOptions opt = pln_plan_options_default();
    PlnPlanRun run;
    char err[1024];
    PlnStatus st = pln_plan_run(path, &opt, &run, err, sizeof err);
    if (st != PLN_OK) {
        snprintf(why, why_size, "%s", err);
        return 0;
    }
    snprintf(why, why_size, "%d evaluations", run.evaluations);
    return run.certified;
}

/* the 2-joint arm from the straight start and from random starts, to targets a rotation
 * of the shoulder reaches (the case the per-axis task rows could not leave) and to
 * random reachable targets: every plan certifies */
START_TEST(test_arm2_plans_certify_from_many_starts)
{
    char dir[512], path[600], why[1100], initial[128], tasks[512];
    const double turns[] = {0.5, 1.0, 1.5707963267948966, 2.0, 2.5, 3.0, -1.0, -2.5};
    Rng r = {0x5eedULL};
    int n = 0, failed = 0;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/arm2.yaml", dir);
    for (int i = 0; i < 20; ++i) {
        double q1, q2, th, a0, a1;
        if (i < 8) {
            /* straight start, target a rotation of the whole arm */
            q1 = 0.0;
            q2 = 0.0;
            th = turns[i];
            a0 = th;
            a1 = 0.0;
        } else {
            /* within the velocity limit: at most 1.5 rad per joint in the 2 s */
            q1 = rng_uniform(&r, -2.8, 2.8);
            q2 = rng_uniform(&r, -2.5, 2.5);
            a0 = fmin(fmax(q1 + rng_uniform(&r, -1.5, 1.5), -2.9), 2.9);
            a1 = fmin(fmax(q2 + rng_uniform(&r, -1.5, 1.5), -2.6), 2.6);
        }
        snprintf(initial, sizeof initial, "SHOULDER: %.6f, ELBOW: %.6f", q1, q2);
        /* the hand point of posture (a0, a1) */
        snprintf(tasks, sizeof tasks,
                 "  - {type: position, link: FORE, point: [0.3, 0, 0], target: [%.9f, %.9f, 1.0], "
                 "time: 2.0, tolerance: 0.01}\n",
                 0.4 * cos(a0) + 0.3 * cos(a0 + a1), 0.4 * sin(a0) + 0.3 * sin(a0 + a1));
        write_scenario(path, "arm2.yaml", 2.0, "SHOULDER, ELBOW", initial, tasks);
        ++n;
        if (!plans_certified(path, why, sizeof why)) {
            ++failed;
            fprintf(stderr, "arm2 case %d (start %g %g, goal %g %g): %s\n", i, q1, q2, a0, a1, why);
        }
    }
    ck_assert_msg(failed == 0, "%d of %d arm2 plans not certified", failed, n);
    unlink(path);
    rmdir(dir);
}
END_TEST

/* the spatial arm: two position tasks at two times from random starts, each the hand of a
 * posture at most 1.2 rad per joint from the one before (so that the 2 s between them are
 * well within the velocity limits: a rest-to-rest move of d rad in T s peaks near 1.9 d / T) */
START_TEST(test_arm3_plans_certify_from_many_starts)
{
    char dir[512], path[600], why[1100], initial[160], tasks[640];
    Rng r = {0xa3a3ULL};
    PlnRobot robot;
    PlnKinWork *kin;
    char err[512];
    int failed = 0;
    const int n = 12;
    ck_assert_msg(pln_robot_load("tests/data/arm3.yaml", &robot, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert(pln_kin_create(&robot, &kin, err, sizeof err) == PLN_OK);
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/arm3.yaml", dir);
    for (int i = 0; i < n; ++i) {
        double q0[3], g[2][3], x[2][3], p[3] = {0.3, 0.0, 0.0};
        for (int j = 0; j < 3; ++j) {
            q0[j] = rng_uniform(&r, robot.joints[j].lower, robot.joints[j].upper);
        }
        for (int k = 0; k < 2; ++k) {
            for (int j = 0; j < 3; ++j) {
                double from = k == 0 ? q0[j] : g[0][j];
                g[k][j] = fmin(fmax(from + rng_uniform(&r, -1.2, 1.2), robot.joints[j].lower + 0.1),
                               robot.joints[j].upper - 0.1);
            }
            ck_assert_int_eq(pln_kin_forward(kin, &robot, g[k]), PLN_OK);
            pln_kin_point(kin, robot.n_links - 1, p, x[k]);
        }
        snprintf(initial, sizeof initial, "YAW: %.6f, SHOULDER: %.6f, ELBOW: %.6f", q0[0], q0[1],
                 q0[2]);
        snprintf(tasks, sizeof tasks,
                 "  - {type: position, link: FORE, point: [0.3, 0, 0], target: [%.9f, %.9f, %.9f], "
                 "time: 2.0, tolerance: 0.01}\n"
                 "  - {type: position, link: FORE, point: [0.3, 0, 0], target: [%.9f, %.9f, %.9f], "
                 "time: 4.0, tolerance: 0.01}\n",
                 x[0][0], x[0][1], x[0][2], x[1][0], x[1][1], x[1][2]);
        write_scenario(path, "arm3.yaml", 4.0, "YAW, SHOULDER, ELBOW", initial, tasks);
        if (!plans_certified(path, why, sizeof why)) {
            ++failed;
            fprintf(stderr, "arm3 case %d: %s\n", i, why);
        }
    }
    ck_assert_msg(failed == 0, "%d of %d arm3 plans not certified", failed, n);
    pln_kin_destroy(kin);
    pln_robot_destroy(&robot);
    unlink(path);
    rmdir(dir);
}
END_TEST

Suite *pln_guess_suite(void)
{
    Suite *s = suite_create("pln_guess");
    TCase *tc = tcase_create("guess");
    tcase_add_test(tc, test_hand_cross_guess_meets_every_task);
    tcase_add_test(tc, test_unreachable_task_is_named);
    tcase_add_test(tc, test_joint_task_interpolated_exactly);
    tcase_add_test(tc, test_guess_keeps_stance_and_balance);
    tcase_add_test(tc, test_guess_shifts_weight_before_a_step);
    tcase_add_test(tc, test_guess_holds_the_lifted_foot);
    suite_add_tcase(s, tc);
    tc = tcase_create("plans");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_arm2_plans_certify_from_many_starts);
    tcase_add_test(tc, test_arm3_plans_certify_from_many_starts);
    suite_add_tcase(s, tc);
    return s;
}
