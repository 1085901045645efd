/* bench_plan.c — wall time of certified plans of the three capsule benchmarks (thesis
 * sec. VI.A.3, Fig. 6.6), beside the same scenarios planned without collision
 * constraints (the MCD-free baseline, measured in the same run). Medians of 5 runs
 * after one warm-up. Prints `name: value` lines. Run from the top directory. */
#include <stdio.h>
#include <stdlib.h>

#include <cblas.h>

#include "bench_util.h"

#include "problem/pln_plan.h"

#define RUNS 5



int main(void)
{
    openblas_set_num_threads(1); /* as the hrpplan command (cli/hrpplan_main.c) */
    static const char *const names[] = {"hand_cross", "twist", "pick"};
    char err[1024], path[256];
    double mcd_total = 0.0, plan_total = 0.0;
    for (int s = 0; s < 3; ++s) {
        double wall[RUNS], base[RUNS], share[RUNS];
        int evals = 0, certified = 1;
        PlnPlanRun run;
        PlnPlanOptions opt = pln_plan_options_default();
        snprintf(path, sizeof path, "scenarios/%s.yaml", names[s]);
        if (pln_plan_run(path, &opt, &run, err, sizeof err) != PLN_OK) { /* warm-up */
            fprintf(stderr, "bench_plan: %s\n", err);
            return 1;
        }
        for (int r = 0; r < RUNS; ++r) {
            opt.no_collision = 0;
            if (pln_plan_run(path, &opt, &run, err, sizeof err) != PLN_OK) {
                fprintf(stderr, "bench_plan: %s\n", err);
                return 1;
            }
            wall[r] = run.wall_time_s;
            share[r] = run.mcd_time_s / run.wall_time_s;
            evals = run.evaluations;
            certified &= run.certified;
            mcd_total += run.mcd_time_s;
            plan_total += run.wall_time_s;
            opt.no_collision = 1;
            if (pln_plan_run(path, &opt, &run, err, sizeof err) != PLN_OK) {
                fprintf(stderr, "bench_plan: %s\n", err);
                return 1;
            }
            base[r] = run.wall_time_s;
        }
        printf("plan_%s_s: %.3f\n", names[s], bench_median(wall, RUNS));
        printf("plan_%s_no_collision_s: %.3f\n", names[s], bench_median(base, RUNS));
        printf("plan_iterations_%s: %d\n", names[s], evals);
        printf("plan_%s_certified: %d\n", names[s], certified);
        printf("mcd_share_of_plan_%s: %.3f\n", names[s], bench_median(share, RUNS));
    }
    printf("mcd_share_of_plan: %.3f\n", mcd_total / plan_total);
    return 0;
}
