/* bench_plan_mesh.c — wall time of certified plans on meshes (issue 6: twist_mesh, pass,
 * place) beside the same scenarios planned without collision constraints (the MCD-free
 * baseline, same run), and the geometry comparison of issue 7 on twist: the same scenario
 * planned with capsules, convex hulls, ellipsoids and meshes (clearance, time, whether
 * certified). One run each (the plans take seconds to minutes); the time is the wall
 * time of pln_plan_run (optimisation and certification), on one thread (--threads 1; the
 * geometry comparison with the default, auto). twist_mesh and pass also run on
 * two threads (issue 20): the speed-up over the one-thread run of the same bench run, and
 * whether the two motions are bit-identical (control points, evaluations, cost). Issue 19:
 * `bench_plan_mesh phong` instead plans the three mesh scenarios with the Euclidean rows
 * and with collision.distance phong (PhongDist working rows, docs/math/planner.md sec.
 * 7b), side by side: evaluations, time, certified clearance (not in `make bench`: the
 * Phong plans take 1-10 minutes each). Prints `name: value` lines.
 * Run from the top directory after `make env-meshes`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "bench_util.h"

#include "problem/pln_plan.h"

static int run(const char *name, const PlnPlanOptions *opt, PlnPlanRun *out)
{
    char err[1024], path[256];
    snprintf(path, sizeof path, "scenarios/%s.yaml", name);
    if (pln_plan_run(path, opt, out, err, sizeof err) != PLN_OK) {
        fprintf(stderr, "bench_plan_mesh: %s\n", err);
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    openblas_set_num_threads(1); /* as the hrpplan command (cli/hrpplan_main.c) */
    static const char *const mesh_names[] = {"twist_mesh", "pass", "place"};
    static const char *const kinds[] = {"capsule", "convex", "ellipsoid", "mesh"};
    int phong_only = argc > 1 && strcmp(argv[1], "phong") == 0;
    PlnPlanRun r;
    for (int s = 0; s < 3; ++s) {
        PlnPlanOptions opt = pln_plan_options_default();
        double t;
        /* one thread: the lines of every session before the default became auto (session
         * 30), and the baseline of the two-thread run below */
        opt.threads = 1;
        if (!run(mesh_names[s], &opt, &r)) return 1;
        t = r.wall_time_s;
        printf("plan_%s_s: %.3f\n", mesh_names[s], t);
        printf("plan_%s_certified: %d\n", mesh_names[s], r.certified);
        printf("plan_%s_min_clearance_m: %.6f\n", mesh_names[s], r.min_clearance);
        printf("plan_iterations_%s: %d\n", mesh_names[s], r.evaluations);
        printf("plan_%s_cost: %.6g\n", mesh_names[s], r.cost);
        printf("plan_%s_nlopt_code: %d\n", mesh_names[s], r.nlopt_code);
        printf("mcd_share_of_plan_%s: %.3f\n", mesh_names[s], r.mcd_time_s / t);
        fflush(stdout);
        if (phong_only) {
            /* issue 19: the same scenario with PhongDist working rows (only when asked:
             * these plans take 1-10 minutes each, docs/math/phong.md sec. 8) */
            PlnPlanOptions op = opt;
            PlnPlanRun rp;
            op.distance_override = 1;
            op.distance = PLN_DISTANCE_PHONG;
            if (!run(mesh_names[s], &op, &rp)) return 1;
            printf("plan_%s_phong_s: %.3f\n", mesh_names[s], rp.wall_time_s);
            printf("plan_%s_phong_certified: %d\n", mesh_names[s], rp.certified);
            printf("plan_%s_phong_min_clearance_m: %.6f\n", mesh_names[s], rp.min_clearance);
            printf("plan_iterations_%s_phong: %d\n", mesh_names[s], rp.evaluations);
            printf("plan_%s_phong_cost: %.6g\n", mesh_names[s], rp.cost);
            printf("plan_%s_phong_queries: %ld\n", mesh_names[s], rp.phong_calls);
            printf("plan_%s_phong_fallbacks: %ld\n", mesh_names[s], rp.phong_fallbacks);
            printf("phong_share_of_plan_%s_phong: %.3f\n", mesh_names[s], rp.phong_time_s / rp.wall_time_s);
            /* nlopt_result: 3 ftol_rel, 4 xtol_rel, 5 evaluation limit, 6 time limit */
            printf("plan_%s_phong_nlopt_code: %d\n", mesh_names[s], rp.nlopt_code);
            fflush(stdout);
        }
        if (phong_only) continue;
        if (s < 2) {
            /* issue 20: the same plan on two threads (collision rows spread over them),
             * bit-identical to one thread's */
            PlnPlanOptions o2 = opt;
            PlnPlanRun r2;
            o2.threads = 2;
            if (!run(mesh_names[s], &o2, &r2)) return 1;
            printf("plan_%s_threads2_s: %.3f\n", mesh_names[s], r2.wall_time_s);
            printf("plan_%s_thread_speedup: %.2f\n", mesh_names[s], t / r2.wall_time_s);
            printf("plan_%s_threads_identical: %d\n", mesh_names[s],
                   r2.ctrl_hash == r.ctrl_hash && r2.evaluations == r.evaluations && r2.cost == r.cost);
        }
        opt.no_collision = 1;
        if (!run(mesh_names[s], &opt, &r)) return 1;
        printf("plan_%s_no_collision_s: %.3f\n", mesh_names[s], r.wall_time_s);
    }
    if (phong_only) return 0;
    /* issue 7: twist.yaml (its own 60 s time limit) in every geometry via the override;
     * each plan's clearance is measured in its own geometry */
    for (int k = 0; k < 4; ++k) {
        PlnPlanOptions opt = pln_plan_options_default();
        opt.geometry_override = 1;
        opt.geometry = (PlnGeometryKind)k;
        if (!run("twist", &opt, &r)) return 1;
        printf("plan_twist_geometry_%s_s: %.3f\n", kinds[k], r.wall_time_s);
        printf("plan_twist_geometry_%s_certified: %d\n", kinds[k], r.certified);
        printf("plan_twist_geometry_%s_min_clearance_m: %.6f\n", kinds[k], r.min_clearance);
        printf("plan_twist_geometry_%s_cost: %.6f\n", kinds[k], r.cost);
    }
    return 0;
}
