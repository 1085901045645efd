/* bench_impact.c — speed of seed 004's impulse solve (planner/model/pln_impact.c) on the
 * whole HRP-2 as a mechanism (31 links, 30 revolute joints, both feet welded: 381
 * unknowns), built by pln_robotimpact_build from scenarios/hand_cross.yaml with moving
 * arms, the two hands in contact.
 *
 * Prints `name: value` lines:
 *   impact_unknowns       3 (2 n + m + 1)
 *   impact_block_us       3x3-block elimination (the paper's sec. 4), assembly included
 *   impact_dense_us       baseline in the same run: LAPACKE_dgesv on the same system
 *   impact_block_speedup  impact_dense_us / impact_block_us
 *   impact_block_ops      3x3 block products of one block solve
 *   impact_max_diff       largest difference of the two solutions' velocities (m/s, rad/s)
 * Timings are medians of 31 repeats of 20 solves each (CPU time of the thread). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "model/pln_impact.h"
#include "problem/pln_plan.h"
#include "problem/pln_robotimpact.h"

#define REPEATS 31
#define SOLVES 20

static double time_solver(PlnImpactWork *w, const PlnImpactSystem *s, PlnImpactSolver solver, PlnImpactResult *r)
{
    double t[REPEATS];
    char err[512];
    for (int k = 0; k < REPEATS; ++k) {
        double t0 = bench_cpu_ns();
        for (int i = 0; i < SOLVES; ++i) {
            if (pln_impact_solve(w, s, solver, r, err, sizeof err) != PLN_OK) {
                fprintf(stderr, "bench_impact: %s\n", err);
                exit(1);
            }
        }
        t[k] = (bench_cpu_ns() - t0) / SOLVES;
    }
    return bench_median(t, REPEATS) * 1e-3;
}

int main(void)
{
    char err[1024];
    PlnPlanOptions opt = pln_plan_options_default();
    PlnLoaded l;
    PlnRobotImpact ri;
    PlnImpactWork *wb = NULL, *wd = NULL;
    PlnImpactResult rb, rd;
    double *x, *ctrl, tb, td, diff = 0.0;
    int pair;
    if (pln_plan_load("scenarios/hand_cross.yaml", &opt, &l, err, sizeof err) != PLN_OK ||
        pln_robotimpact_find_pair(l.p, "RARM_LINK6,LARM_LINK6", &pair, err, sizeof err) != PLN_OK) {
        fprintf(stderr, "bench_impact: %s\n", err);
        return 1;
    }
    x = calloc((size_t)l.p->n_vars, sizeof *x);
    ctrl = calloc((size_t)l.p->n_active * l.p->n_ctrl, sizeof *ctrl);
    pln_problem_initial_x(l.p, x);
    for (int i = 0; i < l.p->n_vars; ++i) x[i] = fmin(fmax(x[i] + 0.3 * sin(1.7 * i), l.p->lb[i]), l.p->ub[i]);
    pln_problem_ctrl(l.p, x, ctrl);
    if (pln_robotimpact_build(l.p, ctrl, pair, 2.0, 0.3, 0.5, &ri, err, sizeof err) != PLN_OK ||
        pln_impact_work_create(ri.system.n_bodies, ri.system.n_joints, &wb, err, sizeof err) != PLN_OK ||
        pln_impact_work_create(ri.system.n_bodies, ri.system.n_joints, &wd, err, sizeof err) != PLN_OK) {
        fprintf(stderr, "bench_impact: %s\n", err);
        return 1;
    }
    /* the hands approach: the normal is turned against their relative velocity */
    if (pln_impact_solve(wb, &ri.system, PLN_IMPACT_BLOCK, &rb, err, sizeof err) != PLN_OK) {
        fprintf(stderr, "bench_impact: %s\n", err);
        return 1;
    }
    if (!rb.approaching) {
        for (int d = 0; d < 3; ++d) ri.system.contact.normal[d] = -ri.system.contact.normal[d];
    }
    tb = time_solver(wb, &ri.system, PLN_IMPACT_BLOCK, &rb);
    td = time_solver(wd, &ri.system, PLN_IMPACT_DENSE, &rd);
    for (int k = 0; k < 3 * ri.system.n_bodies; ++k) {
        diff = fmax(diff, fmax(fabs(rb.v[k] - rd.v[k]), fabs(rb.w[k] - rd.w[k])));
    }
    printf("impact_unknowns: %d\n", rb.unknowns);
    printf("impact_block_us: %.1f\n", tb);
    printf("impact_dense_us: %.1f\n", td);
    printf("impact_block_speedup: %.2f\n", td / tb);
    printf("impact_block_ops: %ld\n", rb.block_ops);
    printf("impact_max_diff: %.3g\n", diff);
    pln_impact_work_destroy(wb);
    pln_impact_work_destroy(wd);
    pln_robotimpact_destroy(&ri);
    free(x);
    free(ctrl);
    pln_plan_unload(&l);
    return 0;
}
