/* pln_cmd.h — the subcommands of hrpplan, one file each (DESIGN.md section 3).
 *
 * Each runs one parsed command line (pln_cli.h) with its output streams passed in:
 * results on `out`, diagnostics and progress on `errs`. Each returns the process exit
 * code (PLN_EXIT_*): 0 success (certified for plan and check), 2 bad input or usage, 3
 * not certified or a limit violated, 1 internal error.
 *   plan    load the scenario and its robot, optimise, certify independently, write the
 *           outputs (a report.json always; a trajectory.pos only when certified) and
 *           print a summary;
 *   check   re-certify a trajectory (.json from plan, or a .pos / .csv table) against a
 *           scenario and print the certified clearance of every pair and the margins;
 *   robot   load, validate and print a robot model;
 *   export  sample a planned trajectory.json for a controller;
 *   export-mjcf  write the robot as a MuJoCo MJCF model;
 *   simulate  replay a trajectory in MuJoCo physics and say whether the robot stands;
 *   impact  the impulse response of a mechanism to one collision (seed 004);
 *   batch   plan many scenarios as child `hrpplan plan` processes, N at once, and write
 *           OUTDIR/summary.csv and summary.json (or rebuild them from the folders). */
#ifndef PLN_CMD_H
#define PLN_CMD_H

#include <stdio.h>

#include "cli/pln_cli.h"
#include "problem/pln_problem.h"

int pln_cmd_plan(const PlnCliArgs *args, FILE *out, FILE *errs);
int pln_cmd_check(const PlnCliArgs *args, FILE *out, FILE *errs);
int pln_cmd_robot(const PlnCliArgs *args, FILE *out, FILE *errs);
int pln_cmd_export(const PlnCliArgs *args, FILE *out, FILE *errs);
int pln_cmd_export_mjcf(const PlnCliArgs *args, FILE *out, FILE *errs);
int pln_cmd_simulate(const PlnCliArgs *args, FILE *out, FILE *errs);
int pln_cmd_impact(const PlnCliArgs *args, FILE *out, FILE *errs);
/* batch: *summary_written is set to 1 once OUTDIR/summary.csv and summary.json are
 * written in full (the output set then lands whatever the scenarios' worst status). */
int pln_cmd_batch(const PlnCliArgs *args, FILE *out, FILE *errs, int *summary_written);

/* Simulates control points ctrl of the loaded problem p (plan --simulate and simulate
 * on a trajectory.json): prints the summary (or, quiet, the one line) on out and writes
 * out_dir/sim.json and sim.svg. Returns the exit code. */
int pln_cmd_simulate_spline(const PlnCliArgs *args, const PlnProblem *p, const double *ctrl,
                            const char *trajectory, const char *out_dir, int quiet, FILE *out,
                            FILE *errs);

#endif /* PLN_CMD_H */
