/* bench_plan_random.c — the planner on motions nobody tuned it for (issue 21): COUNT
 * problems per seed drawn at random for the HRP-2 model, each planned with collision
 * constraints and, as the baseline of the same run, without them (which shows whether the
 * constraints were needed at all). The distributions (docs/PERFORMANCE.md, "Random
 * problems"):
 *   moving joints  the upper body: chest, head and both arms without the grippers (16);
 *                  the legs and the waist stay fixed (support phases wait for the dynamics
 *                  issue, and foot targets with them);
 *   timing         duration U[3, 6] s, 6-12 spans of degree 5, rest at start and end,
 *                  acceleration or jerk cost (1/2 each);
 *   start posture  every moving joint at its half-sitting value + U[-0.3, 0.3] rad,
 *                  inside its limits by 0.05 rad;
 *   waypoints      1-3, at times drawn in [0.25 T, T] at least 0.6 s apart; the posture of
 *                  each is the one before + U[-a, a] per joint, a = min(0.8, 0.3 v_max dt)
 *                  (so that the velocity limits leave room), inside the limits by 0.05;
 *   tasks          per problem one family (1/3 each) from the waypoint postures, so every
 *                  task set is reachable at its time: joint (1-4 joints, tolerance 0.02
 *                  rad), hands (one or both hand points 6 cm below the wrist, tolerance
 *                  1 cm, often across the body), mixed (one hand and 1-2 joints);
 *   obstacles      0-3 boxes, capsules or spheres (1/3 each) in front of and beside the
 *                  robot (x U[0.15, 0.65], y U[-0.6, 0.6], z U[0.5, 1.5] m, sizes 3-12 cm),
 *                  measured against the whole robot (`pairs: default`: every pair of
 *                  links and every link with every obstacle, docs/SCENARIO_FORMAT.md);
 *                  `--pairs robot` measures HRP-2's 19 pairs of Table 6.1 and each
 *                  obstacle with both forearms and hands, the chest and the head (the
 *                  session-4 setting);
 *   clearance      a draw is kept only if, at the start and at every waypoint posture,
 *                  every measured pair is at least 2 cm apart; otherwise it is drawn
 *                  again (the count is printed).
 * `--support` draws support-phase problems instead (family "support", issue 21 item 1
 * with the dynamics of issue 16): the legs and the 16 upper-body joints above move (28
 * joints); support phases both feet [0, t1], one foot (right or left, 1/2 each)
 * [t1, t2], both feet [t2, T], t1 = U[0.3, 0.4] T, t2 = t1 + U[0.3, 0.4] T; the other
 * foot's sole centre is lifted at (t1 + t2) / 2 to where it stood + (U[-0.04, 0.04],
 * 0, U[0.03, 0.08]) m (tolerance 1 cm) and must come back (its stance rows hold it
 * where it stood); with probability 1/2 a hand target from an arm waypoint posture as
 * above at a time in [0.25 T, T]; arms start at half-sitting + U[-0.2, 0.2] rad; T
 * U[3.5, 5] s, 8-10 spans; no obstacles. The robot must shift its weight over the
 * standing foot before the other one leaves the floor: dynamics (ZMP, torques, friction)
 * and the stance feet decide these plans. `--steps` (implies --support) makes the lifted
 * foot land elsewhere (issue 16, `place`): moved by U[-0.08, 0.12] m forwards, U[-0.01,
 * 0.05] m outwards (away from the standing foot) and U[-0.25, 0.25] rad about the
 * vertical; the lift target lies halfway between where it stood and where it lands.
 * Each problem is reproducible from (seed, index): `--keep DIR` leaves them as YAML
 * (`--write-only` with it: write them, plan none).
 * Prints `name: value` lines: random_certified_fraction, random_median_s, random_p95_s,
 * and the count of each failure cause (random_support_* with --support, random_steps_*
 * with --steps); a line per problem goes to stderr. `make bench` runs the default set and
 * `--support --count 5 --no-baseline` (10 problems).
 * Usage: bench_plan_random [--seed N]... [--count N] [--keep DIR] [--pairs all|robot]
 *        [--algorithm auto|slsqp|sqp|mma|ccsaq|auglag] [--no-baseline] [--support] [--steps]
 *        [--write-only]
 * (defaults: seeds 1 and 2, 120 problems each, the whole robot, the scenario's default
 * algorithm auto, with the no-collision baseline). `--algorithm` plans the same problems
 * with one algorithm: NLopt's (issue 21 item 4, docs/PERFORMANCE.md "Algorithms") or the
 * project's SQP (`sqp`, docs/math/sqp.md) alone; its lines then carry its name
 * (random_slsqp_median_s, ...), so that make bench prints both; `--no-baseline` skips the
 * plans without collision constraints. Run from the top directory (reads robots/hrp2.yaml). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cblas.h>

#include "bench_util.h"

#include "model/pln_kin.h"
#include "model/pln_robot.h"
#include "problem/pln_certify.h"
#include "problem/pln_plan.h"
#include "problem/pln_problem.h"

enum { MAX_UPPER = 32, MAX_WAY = 3, MAX_OBST = 3, MAX_SEEDS = 16, MAX_ATTEMPTS = 200 };

#define CLEARANCE_M 0.02
#define LIMIT_MARGIN 0.05

static const char *const OBSTACLE_LINKS[] = {"RARM_LINK3", "RARM_LINK5", "RARM_LINK6",
                                             "LARM_LINK3", "LARM_LINK5", "LARM_LINK6",
                                             "CHEST_LINK1", "HEAD_LINK1"};

typedef struct Rng {
    uint64_t s;
} Rng;

/* splitmix64 */
static double uni(Rng *r, double lo, double hi)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return lo + (hi - lo) * (double)(z >> 11) * 0x1.0p-53;
}

/* The splitmix64 finaliser (a bijection of 64-bit words). A problem's stream starts at
 * mix64(mix64(seed) ^ index): splitmix64 advances its state by a constant, so states that
 * differ by a multiple of it (as seed * a + index * 0x9E37... did, before session 15) give
 * one stream shifted by a few draws, and rejected draws then made whole problems repeat
 * (134 distinct in the 240 of seeds 1 and 2). The finaliser puts streams far apart. */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* FNV-1a of a file's bytes (0 when it cannot be read): two problems are the same draw when
 * their YAML files are */
static uint64_t file_hash(const char *path)
{
    uint64_t h = 1469598103934665603ULL;
    FILE *f = fopen(path, "rb");
    int ch;
    if (f == NULL) return 0;
    while ((ch = fgetc(f)) != EOF) h = (h ^ (uint64_t)(unsigned char)ch) * 1099511628211ULL;
    fclose(f);
    return h;
}

static int pick(Rng *r, int n)
{
    int k = (int)uni(r, 0.0, (double)n);
    return k < n ? k : n - 1;
}

typedef struct Problem {
    double duration;
    int spans, jerk, family;       /* family 0 joint, 1 hands, 2 mixed, 3 support */
    int stand;                     /* support: the foot that stands throughout (0 right, 1 left) */
    double t1, t2, lift[3];        /* support: single-support phase, the lift of the other foot */
    int step;                      /* --steps: the lifted foot lands elsewhere */
    double step_at[3];             /* its move (dx, dy outwards, dyaw) from where it stood */
    int hand_task;                 /* support: a hand target too */
    double q0[MAX_UPPER];          /* start posture of the moving joints */
    int n_way;
    double t[MAX_WAY], q[MAX_WAY][MAX_UPPER];
    int n_obst;
    int obst_type[MAX_OBST];       /* 0 box, 1 capsule, 2 sphere */
    double obst[MAX_OBST][9];      /* box: centre, yaw, size[3]; capsule: p0, p1, r; sphere: c, r */
} Problem;

typedef struct Ctx {
    const PlnRobot *robot;
    const char *robot_path;
    int upper[MAX_UPPER], n_upper;
    int hand[2];                   /* RARM_LINK6, LARM_LINK6 */
    PlnKinWork *kin;
    int whole_robot;               /* 1: pairs: default (every pair of the robot and every
                                      link-obstacle pair); 0: Table 6.1 + OBSTACLE_LINKS */
    const char *algorithm;         /* optimizer.algorithm of every problem */
    int support;                   /* --support: support-phase problems */
    int steps;                     /* --steps (with --support): the lifted foot steps */
    int legs[12], n_legs;
    int foot[2];                   /* RLEG_LINK5, LLEG_LINK5 */
    double sole[2][3];             /* their sole centres, link frame */
} Ctx;

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

/* draws the motion part of a problem (postures and times) */
static void draw_motion(const Ctx *c, Rng *r, Problem *pb)
{
    pb->duration = floor(uni(r, 3.0, 6.0) * 100.0) / 100.0;
    pb->spans = 6 + pick(r, 7);
    pb->jerk = uni(r, 0.0, 1.0) < 0.5;
    pb->family = pick(r, 3);
    for (int u = 0; u < c->n_upper; ++u) {
        const PlnJoint *jt = &c->robot->joints[c->upper[u]];
        pb->q0[u] = clampd(jt->initial + uni(r, -0.3, 0.3), jt->lower + LIMIT_MARGIN,
                           jt->upper - LIMIT_MARGIN);
    }
    pb->n_way = 1 + pick(r, MAX_WAY);
    for (;;) {
        int ok = 1;
        for (int w = 0; w < pb->n_way; ++w) pb->t[w] = uni(r, 0.25, 1.0) * pb->duration;
        qsort(pb->t, (size_t)pb->n_way, sizeof pb->t[0], bench_cmp_double);
        ok = pb->t[0] >= 0.6;
        for (int w = 1; w < pb->n_way; ++w) ok &= pb->t[w] - pb->t[w - 1] >= 0.6;
        if (ok) break;
    }
    for (int w = 0; w < pb->n_way; ++w) {
        double dt = pb->t[w] - (w == 0 ? 0.0 : pb->t[w - 1]);
        const double *prev = w == 0 ? pb->q0 : pb->q[w - 1];
        for (int u = 0; u < c->n_upper; ++u) {
            const PlnJoint *jt = &c->robot->joints[c->upper[u]];
            double a = fmin(0.8, 0.3 * jt->velocity_max * dt);
            pb->q[w][u] = clampd(prev[u] + uni(r, -a, a), jt->lower + LIMIT_MARGIN,
                                 jt->upper - LIMIT_MARGIN);
        }
    }
}

/* draws a support-phase problem (--support; the distributions in the header) */
static void draw_support(const Ctx *c, Rng *r, Problem *pb)
{
    pb->duration = floor(uni(r, 3.5, 5.0) * 100.0) / 100.0;
    pb->spans = 8 + pick(r, 3);
    pb->jerk = uni(r, 0.0, 1.0) < 0.5;
    pb->family = 3;
    pb->stand = pick(r, 2);
    pb->t1 = uni(r, 0.3, 0.4) * pb->duration;
    pb->t2 = pb->t1 + uni(r, 0.3, 0.4) * pb->duration;
    pb->lift[0] = uni(r, -0.04, 0.04);
    pb->lift[1] = 0.0;
    pb->lift[2] = uni(r, 0.03, 0.08);
    pb->hand_task = uni(r, 0.0, 1.0) < 0.5;
    pb->step = c->steps;
    if (c->steps) {
        pb->step_at[0] = uni(r, -0.08, 0.12);
        pb->step_at[1] = uni(r, -0.01, 0.05);
        pb->step_at[2] = uni(r, -0.25, 0.25);
    }
    for (int u = 0; u < c->n_upper; ++u) {
        const PlnJoint *jt = &c->robot->joints[c->upper[u]];
        pb->q0[u] = clampd(jt->initial + uni(r, -0.2, 0.2), jt->lower + LIMIT_MARGIN,
                           jt->upper - LIMIT_MARGIN);
    }
    pb->n_way = 1;
    pb->t[0] = uni(r, 0.25, 1.0) * pb->duration;
    for (int u = 0; u < c->n_upper; ++u) {
        const PlnJoint *jt = &c->robot->joints[c->upper[u]];
        double a = fmin(0.8, 0.3 * jt->velocity_max * pb->t[0]);
        pb->q[0][u] = clampd(pb->q0[u] + uni(r, -a, a), jt->lower + LIMIT_MARGIN,
                             jt->upper - LIMIT_MARGIN);
    }
    pb->n_obst = 0;
}

/* writes a support-phase problem as a scenario */
static int write_support(const Ctx *c, const Problem *pb, Rng *r, const char *path)
{
    const PlnRobot *rb = c->robot;
    const int lifted = 1 - pb->stand;
    double q[256], x[3];
    FILE *f = fopen(path, "w");
    if (f == NULL) return 0;
    fprintf(f, "name: random_support\nrobot: %s\nduration: %.2f\n", c->robot_path, pb->duration);
    fprintf(f, "spline: {degree: 5, spans: %d}\njoints: [", pb->spans);
    for (int k = 0; k < c->n_legs; ++k) fprintf(f, "%s%s", k ? ", " : "", rb->joints[c->legs[k]].name);
    for (int u = 0; u < c->n_upper; ++u) fprintf(f, ", %s", rb->joints[c->upper[u]].name);
    fprintf(f, "]\ninitial: {");
    for (int u = 0; u < c->n_upper; ++u) {
        fprintf(f, "%s%s: %.6f", u ? ", " : "", rb->joints[c->upper[u]].name, pb->q0[u]);
    }
    fprintf(f, "}\nrest: {start: true, end: true}\nsupport:\n");
    fprintf(f, "  - {feet: [RLEG_LINK5, LLEG_LINK5], from: 0.0, to: %.4f}\n", pb->t1);
    fprintf(f, "  - {feet: [%s], from: %.4f, to: %.4f}\n", rb->links[c->foot[pb->stand]].name,
            pb->t1, pb->t2);
    /* the lifted foot's sole centre where it stands at the start */
    for (int j = 0; j < rb->n_joints && j < 256; ++j) q[j] = rb->joints[j].initial;
    for (int u = 0; u < c->n_upper; ++u) q[c->upper[u]] = pb->q0[u];
    if (pln_kin_forward(c->kin, rb, q) != PLN_OK) {
        fclose(f);
        return 0;
    }
    pln_kin_point(c->kin, c->foot[lifted], c->sole[lifted], x);
    fprintf(f, "  - {feet: [RLEG_LINK5, LLEG_LINK5], from: %.4f, to: %.2f", pb->t2, pb->duration);
    if (pb->step) {
        /* --steps: it lands moved by step_at (y outwards, away from the standing foot) */
        const double *R = pln_kin_link_rot(c->kin, c->foot[lifted]);
        double out = lifted == 0 ? -1.0 : 1.0;
        fprintf(f, ", place: {foot: %s, at: [%.6f, %.6f, %.6f]}", rb->links[c->foot[lifted]].name,
                x[0] + pb->step_at[0], x[1] + out * pb->step_at[1], atan2(R[3], R[0]) + pb->step_at[2]);
        /* the lift target halfway between where it stood and where it lands */
        x[0] += 0.5 * pb->step_at[0];
        x[1] += 0.5 * out * pb->step_at[1];
    }
    fprintf(f, "}\n");
    fprintf(f, "tasks:\n  - {type: position, link: %s, point: [%.4f, %.4f, %.4f], target: [%.6f, "
               "%.6f, %.6f], time: %.4f, tolerance: 0.01}\n",
            rb->links[c->foot[lifted]].name, c->sole[lifted][0], c->sole[lifted][1],
            c->sole[lifted][2], x[0] + pb->lift[0], x[1] + pb->lift[1], x[2] + pb->lift[2],
            0.5 * (pb->t1 + pb->t2));
    if (pb->hand_task) {
        const double point[3] = {0.0, 0.0, -0.06};
        int link = c->hand[pick(r, 2)];
        for (int u = 0; u < c->n_upper; ++u) q[c->upper[u]] = pb->q[0][u];
        if (pln_kin_forward(c->kin, rb, q) != PLN_OK) {
            fclose(f);
            return 0;
        }
        pln_kin_point(c->kin, link, point, x);
        fprintf(f, "  - {type: position, link: %s, point: [0, 0, -0.06], target: [%.6f, %.6f, "
                   "%.6f], time: %.4f, tolerance: 0.01}\n",
                rb->links[link].name, x[0], x[1], x[2], pb->t[0]);
    }
    fprintf(f, "cost: {type: %s}\n", pb->jerk ? "jerk" : "acceleration");
    fprintf(f, "optimizer: {algorithm: %s, max_iterations: 600, time_limit: 120}\n", c->algorithm);
    fprintf(f, "collision: {method: hybrid, eps: 0.001, pairs: default}\n");
    return fclose(f) == 0;
}

static void draw_obstacles(Rng *r, Problem *pb)
{
    pb->n_obst = pick(r, MAX_OBST + 1);
    for (int k = 0; k < pb->n_obst; ++k) {
        double x = uni(r, 0.15, 0.65), y = uni(r, -0.6, 0.6), z = uni(r, 0.5, 1.5);
        double *o = pb->obst[k];
        pb->obst_type[k] = pick(r, 3);
        if (pb->obst_type[k] == 0) {
            o[0] = x, o[1] = y, o[2] = z, o[3] = uni(r, -1.0, 1.0);
            for (int i = 0; i < 3; ++i) o[4 + i] = uni(r, 0.06, 0.24);
        } else if (pb->obst_type[k] == 1) {
            double d[3], len = uni(r, 0.1, 0.4), n;
            for (int i = 0; i < 3; ++i) d[i] = uni(r, -1.0, 1.0);
            n = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) + 1e-9;
            o[0] = x - 0.5 * len * d[0] / n, o[1] = y - 0.5 * len * d[1] / n,
            o[2] = z - 0.5 * len * d[2] / n;
            o[3] = x + 0.5 * len * d[0] / n, o[4] = y + 0.5 * len * d[1] / n,
            o[5] = z + 0.5 * len * d[2] / n;
            o[6] = uni(r, 0.03, 0.08);
        } else {
            o[0] = x, o[1] = y, o[2] = z, o[3] = uni(r, 0.03, 0.12);
        }
    }
}

/* writes the problem as a scenario: tasks from the waypoint postures */
static int write_problem(const Ctx *c, const Problem *pb, Rng *r, const char *path)
{
    const PlnRobot *rb = c->robot;
    FILE *f = fopen(path, "w");
    if (f == NULL) return 0;
    fprintf(f, "name: random\nrobot: %s\nduration: %.2f\n", c->robot_path, pb->duration);
    fprintf(f, "spline: {degree: 5, spans: %d}\njoints: [", pb->spans);
    for (int u = 0; u < c->n_upper; ++u) {
        fprintf(f, "%s%s", u ? ", " : "", rb->joints[c->upper[u]].name);
    }
    fprintf(f, "]\ninitial: {");
    for (int u = 0; u < c->n_upper; ++u) {
        fprintf(f, "%s%s: %.6f", u ? ", " : "", rb->joints[c->upper[u]].name, pb->q0[u]);
    }
    fprintf(f, "}\nrest: {start: true, end: true}\ntasks:\n");
    for (int w = 0; w < pb->n_way; ++w) {
        int n_joint = pb->family == 0 ? 1 + pick(r, 4) : pb->family == 2 ? 1 + pick(r, 2) : 0;
        int n_hand = pb->family == 0 ? 0 : pb->family == 2 ? 1 : 1 + pick(r, 2);
        int first_hand = pick(r, 2), used[4];
        for (int k = 0; k < n_joint; ++k) {
            int u, dup;
            do {
                u = pick(r, c->n_upper);
                dup = 0;
                for (int q = 0; q < k; ++q) dup |= used[q] == u;
            } while (dup);
            used[k] = u;
            fprintf(f, "  - {type: joint, joint: %s, value: %.6f, time: %.4f, tolerance: 0.02}\n",
                    rb->joints[c->upper[u]].name, pb->q[w][u], pb->t[w]);
        }
        if (n_hand > 0) {
            double q[256], x[3], point[3] = {0.0, 0.0, -0.06};
            for (int j = 0; j < rb->n_joints && j < 256; ++j) q[j] = rb->joints[j].initial;
            for (int u = 0; u < c->n_upper; ++u) q[c->upper[u]] = pb->q[w][u];
            if (pln_kin_forward(c->kin, rb, q) != PLN_OK) {
                fclose(f);
                return 0;
            }
            for (int h = 0; h < n_hand; ++h) {
                int link = c->hand[(first_hand + h) % 2];
                pln_kin_point(c->kin, link, point, x);
                fprintf(f,
                        "  - {type: position, link: %s, point: [0, 0, -0.06], target: [%.6f, "
                        "%.6f, %.6f], time: %.4f, tolerance: 0.01}\n",
                        rb->links[link].name, x[0], x[1], x[2], pb->t[w]);
            }
        }
    }
    fprintf(f, "cost: {type: %s}\n", pb->jerk ? "jerk" : "acceleration");
    fprintf(f, "optimizer: {algorithm: %s, max_iterations: 600, time_limit: 60}\n", c->algorithm);
    if (pb->n_obst > 0) fprintf(f, "environment:\n");
    for (int k = 0; k < pb->n_obst; ++k) {
        const double *o = pb->obst[k];
        if (pb->obst_type[k] == 0) {
            fprintf(f,
                    "  - {name: ob%d, type: box, center: [%.4f, %.4f, %.4f], rpy: [0, 0, %.3f], "
                    "size: [%.4f, %.4f, %.4f]}\n",
                    k, o[0], o[1], o[2], o[3], o[4], o[5], o[6]);
        } else if (pb->obst_type[k] == 1) {
            fprintf(f,
                    "  - {name: ob%d, type: capsule, p0: [%.4f, %.4f, %.4f], p1: [%.4f, %.4f, "
                    "%.4f], radius: %.4f}\n",
                    k, o[0], o[1], o[2], o[3], o[4], o[5], o[6]);
        } else {
            fprintf(f, "  - {name: ob%d, type: sphere, center: [%.4f, %.4f, %.4f], radius: %.4f}\n",
                    k, o[0], o[1], o[2], o[3]);
        }
    }
    if (c->whole_robot) {
        /* the default: the whole robot, every obstacle with every link (pln_pairs.h) */
        fprintf(f, "collision: {method: hybrid, eps: 0.001, pairs: default}\n");
        return fclose(f) == 0;
    }
    /* the robot's own pairs, and every obstacle with the links that move near it */
    fprintf(f, "collision: {method: hybrid, eps: 0.001, pairs: [");
    for (int p = 0; p < rb->n_collision_pairs; ++p) {
        fprintf(f, "%s[%s, %s]", p ? ", " : "", rb->links[rb->collision_pairs[p][0]].name,
                rb->links[rb->collision_pairs[p][1]].name);
    }
    for (int k = 0; k < pb->n_obst; ++k) {
        for (size_t l = 0; l < sizeof OBSTACLE_LINKS / sizeof OBSTACLE_LINKS[0]; ++l) {
            fprintf(f, ", [%s, ob%d]", OBSTACLE_LINKS[l], k);
        }
    }
    fprintf(f, "]}\n");
    return fclose(f) == 0;
}

/* every checked pair at least CLEARANCE_M apart at the start and at every waypoint */
static int clear_at_postures(const Ctx *c, const Problem *pb, const char *path)
{
    PlnLoaded l;
    PlnPlanOptions opt = pln_plan_options_default();
    char err[1024];
    int ok = 1;
    double q[256];
    if (pln_plan_load(path, &opt, &l, err, sizeof err) != PLN_OK) {
        fprintf(stderr, "bench_plan_random: %s\n", err);
        pln_plan_unload(&l);
        return 0;
    }
    for (int w = -1; w < pb->n_way && ok; ++w) {
        const double *qu = w < 0 ? pb->q0 : pb->q[w];
        for (int j = 0; j < c->robot->n_joints && j < 256; ++j) q[j] = l.p->q_init[j];
        for (int u = 0; u < c->n_upper; ++u) q[c->upper[u]] = qu[u];
        if (pln_kin_forward(c->kin, c->robot, q) != PLN_OK) ok = 0;
        for (int pr = 0; ok && pr < l.sc.n_pairs; ++pr) {
            PlnPairDistance d;
            pln_problem_pair_distance(l.p, c->kin, pr, &d);
            ok = d.distance >= CLEARANCE_M;
        }
    }
    pln_plan_unload(&l);
    return ok;
}

/* q-quantile of v[n] (sorts v) */
static double quantile(double *v, int n, double q)
{
    int k = (int)ceil(q * n) - 1;
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return v[k < 0 ? 0 : (k >= n ? n - 1 : k)];
}

static const char *family_name(int f)
{
    return f == 0 ? "joint" : f == 1 ? "hands" : f == 2 ? "mixed" : "support";
}

int main(int argc, char **argv)
{
    openblas_set_num_threads(1); /* as the hrpplan command (cli/hrpplan_main.c) */
    char err[1024], tmp[] = "/tmp/hrpplan_bench_random.XXXXXX", path[4608], robot_path[4096];
    const char *dir = tmp, *keep = NULL;
    unsigned long long seeds[MAX_SEEDS];
    int n_seeds = 0, count = 120, n = 0, total_certified = 0, needed = 0, needed_certified = 0;
    int whole_robot = 1, baseline = 1;
    const char *algorithm = "auto";
    double *evals;
    int fam_total[4] = {0, 0, 0, 0}, fam_cert[4] = {0, 0, 0, 0}, causes[16] = {0}, errors = 0;
    int support = 0, steps = 0, relaxed = 0, write_only = 0;
    int stops_timeout = 0, stops_maxeval = 0, stops_roundoff = 0, ik_unmet = 0;
    long rejected = 0;
    double *t_plan, *t_base;
    uint64_t *hashes;
    int n_written = 0;
    PlnRobot robot;
    Ctx c;

    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc && n_seeds < MAX_SEEDS) {
            seeds[n_seeds++] = strtoull(argv[++i], NULL, 0);
        } else if (strcmp(argv[i], "--count") == 0 && i + 1 < argc) {
            count = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--keep") == 0 && i + 1 < argc) {
            keep = argv[++i];
        } else if (strcmp(argv[i], "--pairs") == 0 && i + 1 < argc &&
                   (strcmp(argv[i + 1], "all") == 0 || strcmp(argv[i + 1], "robot") == 0)) {
            whole_robot = strcmp(argv[++i], "all") == 0;
        } else if (strcmp(argv[i], "--algorithm") == 0 && i + 1 < argc &&
                   (strcmp(argv[i + 1], "slsqp") == 0 || strcmp(argv[i + 1], "mma") == 0 ||
                    strcmp(argv[i + 1], "ccsaq") == 0 || strcmp(argv[i + 1], "auglag") == 0 ||
                    strcmp(argv[i + 1], "sqp") == 0 || strcmp(argv[i + 1], "auto") == 0)) {
            algorithm = argv[++i];
        } else if (strcmp(argv[i], "--no-baseline") == 0) {
            baseline = 0;
        } else if (strcmp(argv[i], "--support") == 0) {
            support = 1;
        } else if (strcmp(argv[i], "--steps") == 0) {
            support = 1;
            steps = 1;
        } else if (strcmp(argv[i], "--write-only") == 0) {
            write_only = 1;
        } else {
            fprintf(stderr, "usage: bench_plan_random [--seed N]... [--count N] [--keep DIR] "
                            "[--pairs all|robot] [--algorithm auto|slsqp|sqp|mma|ccsaq|auglag] "
                            "[--no-baseline] [--support] [--steps] [--write-only]\n");
            return 2;
        }
    }
    if (write_only && keep == NULL) {
        fprintf(stderr, "bench_plan_random: --write-only needs --keep DIR\n");
        return 2;
    }
    if (n_seeds == 0) {
        seeds[n_seeds++] = 1;
        seeds[n_seeds++] = 2;
    }
    if (count < 1) {
        fprintf(stderr, "bench_plan_random: --count must be >= 1\n");
        return 2;
    }
    if (getcwd(robot_path, sizeof robot_path - 32) == NULL) return 1;
    strcat(robot_path, "/robots/hrp2.yaml");
    if (pln_robot_load(robot_path, &robot, err, sizeof err) != PLN_OK) {
        fprintf(stderr, "bench_plan_random: %s\n", err);
        return 1;
    }
    memset(&c, 0, sizeof c);
    c.robot = &robot;
    c.whole_robot = whole_robot;
    c.robot_path = robot_path;
    c.algorithm = algorithm;
    c.support = support;
    c.steps = steps;
    for (int j = 0; j < robot.n_joints && c.n_legs < 12; ++j) {
        if (strstr(robot.joints[j].name, "LEG") != NULL) c.legs[c.n_legs++] = j;
    }
    c.foot[0] = pln_robot_find_link(&robot, "RLEG_LINK5");
    c.foot[1] = pln_robot_find_link(&robot, "LLEG_LINK5");
    for (int k = 0; k < 2; ++k) {
        int sole = c.foot[k] >= 0 ? pln_robot_find_sole(&robot, c.foot[k]) : -1;
        if (sole < 0) {
            fprintf(stderr, "bench_plan_random: robots/hrp2.yaml: no soles\n");
            return 1;
        }
        memcpy(c.sole[k], robot.soles[sole].offset, sizeof c.sole[k]);
    }    for (int j = 0; j < robot.n_joints && c.n_upper < MAX_UPPER; ++j) {
        if (strstr(robot.joints[j].name, "LEG") == NULL && strstr(robot.joints[j].name, "JOINT6") == NULL)
            c.upper[c.n_upper++] = j;
    }
    c.hand[0] = pln_robot_find_link(&robot, "RARM_LINK6");
    c.hand[1] = pln_robot_find_link(&robot, "LARM_LINK6");
    if (c.hand[0] < 0 || c.hand[1] < 0 || pln_kin_create(&robot, &c.kin, err, sizeof err) != PLN_OK) {
        fprintf(stderr, "bench_plan_random: robots/hrp2.yaml: no hands or no kinematics\n");
        return 1;
    }
    if (keep != NULL) {
        dir = keep;
    } else if (mkdtemp(tmp) == NULL) {
        perror("bench_plan_random: mkdtemp");
        return 1;
    }
    t_plan = calloc((size_t)n_seeds * count, sizeof *t_plan);
    t_base = calloc((size_t)n_seeds * count, sizeof *t_base);
    evals = calloc((size_t)n_seeds * count, sizeof *evals);
    hashes = calloc((size_t)n_seeds * count, sizeof *hashes);
    if (t_plan == NULL || t_base == NULL || evals == NULL || hashes == NULL) return 1;

    fprintf(stderr, "seed    #  family  certified  cause        time_s  evals        cost  no_collision: clearance_m\n");
    for (int s = 0; s < n_seeds; ++s) {
        for (int k = 0; k < count; ++k) {
            Rng r = {mix64(mix64(seeds[s]) ^ (uint64_t)k)};
            Problem pb;
            PlnPlanRun run, base;
            PlnPlanOptions opt = pln_plan_options_default();
            int attempt;
            snprintf(path, sizeof path, "%s/random_%llu_%03d.yaml", dir, seeds[s], k);
            for (attempt = 0; attempt < MAX_ATTEMPTS && support; ++attempt) {
                draw_support(&c, &r, &pb);
                if (!write_support(&c, &pb, &r, path)) {
                    fprintf(stderr, "bench_plan_random: cannot write %s\n", path);
                    return 1;
                }
                break; /* no obstacles: nothing to reject */
            }
            for (; attempt < MAX_ATTEMPTS && !support; ++attempt) {
                Rng tasks_r;
                draw_motion(&c, &r, &pb);
                draw_obstacles(&r, &pb);
                tasks_r = r;
                if (!write_problem(&c, &pb, &tasks_r, path)) {
                    fprintf(stderr, "bench_plan_random: cannot write %s\n", path);
                    return 1;
                }
                if (clear_at_postures(&c, &pb, path)) break;
                ++rejected;
            }
            if (attempt == MAX_ATTEMPTS) {
                fprintf(stderr, "bench_plan_random: seed %llu #%d: no clear draw\n", seeds[s], k);
                return 1;
            }
            hashes[n_written] = file_hash(path);
            for (int j = 0; j < n_written; ++j) {
                if (hashes[j] == hashes[n_written]) {
                    fprintf(stderr, "bench_plan_random: %s repeats an earlier problem of this run\n", path);
                    return 1;
                }
            }
            ++n_written;
            if (write_only) continue;
            if (pln_plan_run(path, &opt, &run, err, sizeof err) != PLN_OK) {
                fprintf(stderr, "bench_plan_random: %s: %s\n", path, err);
                ++errors;
                continue;
            }
            opt.no_collision = 1;
            memset(&base, 0, sizeof base);
            if (baseline && pln_plan_run(path, &opt, &base, err, sizeof err) != PLN_OK) {
                fprintf(stderr, "bench_plan_random: %s: %s\n", path, err);
                ++errors;
                continue;
            }
            t_plan[n] = run.wall_time_s;
            t_base[n] = base.wall_time_s;
            evals[n] = (double)run.evaluations;
            ++n;
            fam_total[pb.family] += 1;
            fam_cert[pb.family] += run.certified;
            total_certified += run.certified;
            ik_unmet += run.ik_unmet > 0;
            if (!run.certified) {
                causes[run.cause] += 1;
                relaxed += run.tasks_relaxed;
                stops_timeout += run.nlopt_code == 6;   /* NLOPT_MAXTIME_REACHED */
                stops_maxeval += run.nlopt_code == 5;   /* NLOPT_MAXEVAL_REACHED */
                stops_roundoff += run.nlopt_code == -4; /* NLOPT_ROUNDOFF_LIMITED */
            }
            if (baseline && base.min_clearance < 0.0) {
                ++needed;
                needed_certified += run.certified;
            }
            fprintf(stderr, "%4llu  %3d  %-6s  %9d  %-11s  %6.2f  %5d  %10.4e  %12.4f%s%s\n", seeds[s], k,
                    family_name(pb.family), run.certified, pln_cert_cause_string(run.cause),
                    run.wall_time_s, run.evaluations, run.cost, base.min_clearance, run.certified ? "" : "  ", run.reason);
            if (keep == NULL) unlink(path);
        }
    }
    if (keep == NULL) rmdir(dir);
    if (write_only) {
        fprintf(stderr, "bench_plan_random: %d problems written to %s\n", n_seeds * count, dir);
        return 0;
    }
    /* a support run's lines carry its own prefix, so that make bench can print both sets */
    char pfx_buf[64];
    const char *pfx = steps ? "random_steps" : support ? "random_support" : "random";
    /* another optimiser than the default: its name too (random_slsqp_..., random_support_slsqp_...) */
    if (strcmp(algorithm, "auto") != 0) {
        snprintf(pfx_buf, sizeof pfx_buf, "%s_%s", pfx, algorithm);
        pfx = pfx_buf;
    }
    printf("%s_problems: %d\n", pfx, n);
    printf("%s_seeds: %d\n", pfx, n_seeds);
    printf("%s_certified_fraction: %.4f\n", pfx, n ? (double)total_certified / n : 0.0);
    for (int f = 0; f < 3 && !support; ++f) {
        printf("%s_%s_certified_fraction: %.4f\n", pfx, family_name(f),
               fam_total[f] ? (double)fam_cert[f] / fam_total[f] : 0.0);
    }
    printf("%s_median_s: %.3f\n", pfx, n ? quantile(t_plan, n, 0.5) : 0.0);
    printf("%s_p95_s: %.3f\n", pfx, n ? quantile(t_plan, n, 0.95) : 0.0);
    printf("%s_algorithm: %s\n", pfx, algorithm);
    printf("%s_median_evaluations: %.0f\n", pfx, n ? quantile(evals, n, 0.5) : 0.0);
    if (baseline) {
        printf("%s_no_collision_median_s: %.3f\n", pfx, n ? quantile(t_base, n, 0.5) : 0.0);
        printf("%s_colliding_without_constraints: %d\n", pfx, needed);
        printf("%s_colliding_certified_with_constraints: %d\n", pfx, needed_certified);
    }
    printf("%s_fail_contact: %d\n", pfx, causes[PLN_CAUSE_CONTACT]);
    printf("%s_fail_task: %d\n", pfx, causes[PLN_CAUSE_TASK]);
    printf("%s_fail_joint_limit: %d\n", pfx, causes[PLN_CAUSE_JOINT_LIMIT]);
    printf("%s_fail_velocity: %d\n", pfx, causes[PLN_CAUSE_VELOCITY]);
    printf("%s_fail_balance: %d\n", pfx, causes[PLN_CAUSE_BALANCE]);
    printf("%s_fail_dynamics: %d\n", pfx, causes[PLN_CAUSE_DYNAMICS]);
    printf("%s_fail_stance: %d\n", pfx, causes[PLN_CAUSE_STANCE]);
    printf("%s_tasks_relaxed: %d\n", pfx, relaxed);
    printf("%s_fail_error: %d\n", pfx, errors);
    printf("%s_fail_stop_timeout: %d\n", pfx, stops_timeout);
    printf("%s_fail_stop_maxeval: %d\n", pfx, stops_maxeval);
    printf("%s_fail_stop_roundoff: %d\n", pfx, stops_roundoff);
    printf("%s_ik_unmet_problems: %d\n", pfx, ik_unmet);
    printf("%s_draws_rejected: %ld\n", pfx, rejected);
    printf("%s_distinct_problems: %d\n", pfx, n_written);
    free(t_plan);
    free(t_base);
    free(evals);
    free(hashes);
    pln_kin_destroy(c.kin);
    pln_robot_destroy(&robot);
    return 0;
}
