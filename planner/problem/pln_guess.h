/* pln_guess.h — the optimiser's initial guess by inverse kinematics (docs/math/planner.md
 * sec. 8).
 *
 * Contract. pln_guess_initial_x() places the variables of a problem near a motion that
 * meets its tasks, before the optimiser starts: the tasks are grouped by time; from the
 * initial posture, damped least-squares IK (model/pln_ik.h) solves each group in time
 * order, each from the posture of the group before; the spline of every moving joint is
 * then the one nearest (least change of control points, LAPACKE_dgelsd) to the
 * piecewise-linear path through those postures sampled at the Greville abscissae, that
 * passes through the IK postures at the task times (eq. G1-G2), clamped to the joint
 * limits. The start (and the rest at the end) stay as the problem fixes them. Position
 * and joint targets are solved; orientations are left to the optimiser. The IK ranks its
 * targets (eq. IK3-IK5): the stance feet of the waypoint's phase where they stand, then
 * the centre of mass inside the support polygon, then the tasks, then the least change. A group the IK
 * cannot meet still gives its best posture, and is reported in *report (nullable) with
 * the task that misses most, so that an unreachable target can be named up front. */
#ifndef PLN_GUESS_H
#define PLN_GUESS_H

#include <stddef.h>

#include "base/pln_status.h"
#include "problem/pln_problem.h"

typedef struct PlnGuessReport {
    int groups;           /* task times solved */
    int unmet;            /* groups whose IK did not meet every target */
    int worst_task;       /* index into scenario tasks of the largest IK miss (-1: none) */
    double worst_miss;    /* its distance beyond the tolerance, m or rad */
} PlnGuessReport;

/* x[n_vars] of the initial guess. PLN_ERR_NOMEM, or PLN_ERR_INTERNAL if a factorisation
 * fails; on failure x holds pln_problem_initial_x(). */
PlnStatus pln_guess_initial_x(const PlnProblem *p, double *x, PlnGuessReport *report, char *err,
                              size_t err_size);

#endif /* PLN_GUESS_H */
