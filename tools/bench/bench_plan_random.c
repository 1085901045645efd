/* bench_plan_random.c — the planner on motions nobody tuned it for: NSCEN scenarios drawn
 * at random (fixed seed) for the HRP-2 model, each planned with and without collision
 * constraints in the same run (the no-collision plan is the baseline, and shows whether
 * the constraints were needed at all).
 *
 * Two families, half each, both with rest at start and end, feet fixed, the default
 * self-collision pairs and 0-2 random box or sphere obstacles in front of the robot:
 *   joint     1-3 waypoints, each setting 1-4 upper-body joints to values drawn from the
 *             middle 70 % of their range (tolerance 0.02 rad);
 *   position  1-2 waypoints, each taking one or both hands (a point 6 cm below the wrist)
 *             to a point drawn in a box in front of the chest, reaching across the body
 *             up to 0.15 m (tolerance 1 cm). Some draws are infeasible (both hands asked to
 *             the same place): the planner must then say "not certified", never certify.
 * Duration 3-6 s, 6-12 spans of degree 5, acceleration or jerk cost, 600 evaluations and
 * 60 s per plan. Prints `name: value` lines; a line per scenario goes to stderr.
 * Run from the top directory (reads robots/hrp2.yaml). `--keep DIR` leaves the scenarios
 * in DIR as random_NN.yaml, so that any of them can be replayed with `hrpplan plan`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_util.h"

#include "problem/pln_plan.h"
#include "model/pln_robot.h"

enum { NSCEN = 30, MAX_UPPER = 64 };

typedef struct Rng {
    unsigned long long s;
} Rng;

static double uni(Rng *r, double lo, double hi)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return lo + (hi - lo) * (double)((r->s * 0x2545F4914F6CDD1DULL) >> 11) *
                    (1.0 / 9007199254740992.0);
}

static int pick(Rng *r, int n)
{
    int k = (int)uni(r, 0.0, (double)n);
    return k < n ? k : n - 1;
}

/* writes scenario k of the family (0 joint, 1 position) to path */
static int write_scenario(const char *path, const char *robot_path, const PlnRobot *robot,
                          const int *upper, int n_upper, int family, Rng *r)
{
    FILE *f = fopen(path, "w");
    double dur = floor(uni(r, 3.0, 6.0) * 100.0) / 100.0;
    int first = 1;
    if (f == NULL) return 0;
    fprintf(f, "name: random\nrobot: %s\nduration: %.2f\n", robot_path, dur);
    fprintf(f, "spline: {degree: 5, spans: %d}\njoints: [", 6 + pick(r, 7));
    for (int j = 0; j < n_upper; ++j) {
        fprintf(f, "%s%s", first ? "" : ", ", robot->joints[upper[j]].name);
        first = 0;
    }
    fprintf(f, "]\nrest: {start: true, end: true}\ntasks:\n");
    if (family == 0) {
        int nw = 1 + pick(r, 3);
        for (int w = 0; w < nw; ++w) {
            double t = dur * (w + 1) / (nw + 1) + uni(r, -0.2, 0.2);
            int nj = 1 + pick(r, 4), used[4];
            for (int k = 0; k < nj; ++k) {
                int j, dup;
                do {
                    j = upper[pick(r, n_upper)];
                    dup = 0;
                    for (int q = 0; q < k; ++q) dup |= used[q] == j;
                } while (dup);
                used[k] = j;
                double mid = 0.5 * (robot->joints[j].lower + robot->joints[j].upper);
                double half = 0.35 * (robot->joints[j].upper - robot->joints[j].lower);
                fprintf(f, "  - {type: joint, joint: %s, value: %.4f, time: %.3f, tolerance: 0.02}\n",
                        robot->joints[j].name, uni(r, mid - half, mid + half), t);
            }
        }
    } else {
        int nw = 1 + pick(r, 2);
        for (int w = 0; w < nw; ++w) {
            double t = dur * (w + 1) / (nw + 1);
            int both = uni(r, 0.0, 1.0) < 0.5, first_arm = pick(r, 2);
            for (int a = 0; a < 2; ++a) {
                int arm = (first_arm + a) % 2; /* 0 right (y < 0), 1 left */
                double side = arm == 0 ? -1.0 : 1.0;
                if (a == 1 && !both) break;
                fprintf(f,
                        "  - {type: position, link: %s, point: [0, 0, -0.06], target: [%.4f, %.4f, "
                        "%.4f], time: %.3f, tolerance: 0.01}\n",
                        arm == 0 ? "RARM_LINK6" : "LARM_LINK6", uni(r, 0.2, 0.42),
                        side * uni(r, -0.15, 0.35), uni(r, 0.75, 1.15), t);
            }
        }
    }
    fprintf(f, "cost: {type: %s}\n", uni(r, 0.0, 1.0) < 0.5 ? "acceleration" : "jerk");
    fprintf(f, "collision: {method: hybrid, eps: 0.001, pairs: default}\n");
    fprintf(f, "optimizer: {algorithm: slsqp, max_iterations: 600, time_limit: 60}\n");
    {
        int nob = pick(r, 3);
        if (nob > 0) fprintf(f, "environment:\n");
        for (int k = 0; k < nob; ++k) {
            double x = uni(r, 0.3, 0.6), y = uni(r, -0.5, 0.5), z = uni(r, 0.6, 1.4);
            if (uni(r, 0.0, 1.0) < 0.5) {
                fprintf(f, "  - {name: ob%d, type: sphere, center: [%.4f, %.4f, %.4f], radius: %.4f}\n",
                        k, x, y, z, uni(r, 0.03, 0.1));
            } else {
                double yaw = uni(r, -1.0, 1.0), sx = uni(r, 0.05, 0.2), sy = uni(r, 0.05, 0.2),
                       sz = uni(r, 0.05, 0.2);
                fprintf(f,
                        "  - {name: ob%d, type: box, center: [%.4f, %.4f, %.4f], rpy: [0, 0, %.3f], "
                        "size: [%.4f, %.4f, %.4f]}\n",
                        k, x, y, z, yaw, sx, sy, sz);
            }
        }
    }
    return fclose(f) == 0;
}

/* q-quantile of v[n] (sorts v) */
static double quantile(double *v, int n, double q)
{
    int k = (int)ceil(q * n) - 1;
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return v[k < 0 ? 0 : (k >= n ? n - 1 : k)];
}

int main(int argc, char **argv)
{
    char err[1024], tmp[] = "/tmp/hrpplan_bench_random.XXXXXX", path[4608], robot_path[4096];
    const char *dir = tmp;
    int keep = argc == 3 && strcmp(argv[1], "--keep") == 0;
    PlnRobot robot;
    Rng rng = {0x9E3779B97F4A7C15ULL};
    int upper[MAX_UPPER], n_upper = 0;
    int certified[2] = {0, 0}, total[2] = {0, 0}, needed = 0, needed_certified = 0;
    double t_plan[NSCEN], t_base[NSCEN];

    if (getcwd(robot_path, sizeof robot_path - 32) == NULL) return 1;
    strcat(robot_path, "/robots/hrp2.yaml");
    if (pln_robot_load(robot_path, &robot, err, sizeof err) != PLN_OK) {
        fprintf(stderr, "bench_plan_random: %s\n", err);
        return 1;
    }
    /* the upper body: every joint but the legs (the feet stay fixed) and the grippers
     * (ARM_JOINT6) */
    for (int j = 0; j < robot.n_joints && n_upper < MAX_UPPER; ++j) {
        if (strstr(robot.joints[j].name, "LEG") == NULL && strstr(robot.joints[j].name, "JOINT6") == NULL)
            upper[n_upper++] = j;
    }
    if (argc != 1 && !keep) {
        fprintf(stderr, "usage: bench_plan_random [--keep DIR]\n");
        return 2;
    }
    if (keep) {
        dir = argv[2];
    } else if (mkdtemp(tmp) == NULL) {
        perror("bench_plan_random: mkdtemp");
        return 1;
    }
    fprintf(stderr, "  #  family    certified  clearance_m   time_s  no_collision: certified time_s\n");
    for (int k = 0; k < NSCEN; ++k) {
        int family = k % 2;
        PlnPlanRun run, base;
        PlnPlanOptions opt = pln_plan_options_default();
        snprintf(path, sizeof path, "%s/random_%02d.yaml", dir, k);
        if (!write_scenario(path, robot_path, &robot, upper, n_upper, family, &rng)) {
            fprintf(stderr, "bench_plan_random: cannot write %s\n", path);
            return 1;
        }
        if (pln_plan_run(path, &opt, &run, err, sizeof err) != PLN_OK) {
            fprintf(stderr, "bench_plan_random: scenario %d: %s\n", k, err);
            return 1;
        }
        opt.no_collision = 1;
        if (pln_plan_run(path, &opt, &base, err, sizeof err) != PLN_OK) {
            fprintf(stderr, "bench_plan_random: scenario %d: %s\n", k, err);
            return 1;
        }
        t_plan[k] = run.wall_time_s;
        t_base[k] = base.wall_time_s;
        total[family] += 1;
        certified[family] += run.certified;
        /* the constraints were needed: without them the motion collides */
        if (base.min_clearance < 0.0) {
            ++needed;
            needed_certified += run.certified;
        }
        fprintf(stderr, "%3d  %-8s  %9d  %11.6f  %7.2f  %23d %7.2f\n", k,
                family ? "position" : "joint", run.certified, run.min_clearance, run.wall_time_s,
                base.certified, base.wall_time_s);
        if (!keep) unlink(path);
    }
    if (!keep) rmdir(dir);
    pln_robot_destroy(&robot);
    printf("plan_random_scenarios: %d\n", NSCEN);
    printf("plan_random_certified_fraction: %.3f\n",
           (double)(certified[0] + certified[1]) / NSCEN);
    printf("plan_random_joint_certified_fraction: %.3f\n", (double)certified[0] / total[0]);
    printf("plan_random_position_certified_fraction: %.3f\n", (double)certified[1] / total[1]);
    printf("plan_random_colliding_without_constraints: %d\n", needed);
    printf("plan_random_colliding_certified_with_constraints: %d\n", needed_certified);
    printf("plan_random_median_s: %.3f\n", quantile(t_plan, NSCEN, 0.5));
    printf("plan_random_p90_s: %.3f\n", quantile(t_plan, NSCEN, 0.9));
    printf("plan_random_no_collision_median_s: %.3f\n", quantile(t_base, NSCEN, 0.5));
    return 0;
}
