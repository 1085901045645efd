/* pln_plan.h — the `hrpplan plan` and `hrpplan check` commands (DESIGN.md sec. 3).
 *
 * plan: load the scenario and its robot, optimise (pln_sip.h), certify independently
 * (pln_certify.h), write the outputs (pln_output.h) and print a summary. Exit 0 for a
 * certified plan, 3 when the result is not certified (a report.json says why and no
 * trajectory.pos exists), 2 for bad input, 1 for an internal error.
 * check: re-certify a trajectory (.json from plan, or a .pos / .csv table) against a
 * scenario and print the certified clearance of every pair and the limit margins; exit
 * 0 when certified, 3 when not. */
#ifndef PLN_PLAN_H
#define PLN_PLAN_H

#include <stdio.h>

#include "pln_cli.h"
#include "pln_problem.h"

int pln_plan_command(const PlnCliArgs *args, FILE *out, FILE *errs);

/* What one planning run measured, for benchmarks and scripts. */
typedef struct PlnPlanRun {
    int certified;
    double min_clearance;   /* m */
    double wall_time_s;     /* load + optimise + certify, no output files */
    double optimise_s;      /* the SIP loop alone */
    double mcd_time_s;      /* MCD calls inside the SIP loop */
    long mcd_calls;
    int evaluations;
    double cost;            /* the objective at the optimiser's result (dimensionless) */
} PlnPlanRun;

/* Plans a scenario in memory (no files written): load, optimise, certify. */
PlnStatus pln_plan_run(const char *scenario, const PlnPlanOptions *options, PlnPlanRun *run,
                       char *err, size_t err_size);
int pln_check_command(const PlnCliArgs *args, FILE *out, FILE *errs);

/* Reads the control points of a trajectory.json written by plan into ctrl
 * [n_active * n_ctrl] of problem p; the file's spline (degree, knots, moving joints)
 * must be the problem's. */
PlnStatus pln_plan_read_trajectory_json(const char *path, const PlnProblem *p, double *ctrl,
                                        char *err, size_t err_size);

#endif /* PLN_PLAN_H */
