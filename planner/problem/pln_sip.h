/* pln_sip.h — the semi-infinite programme solved by NLopt (thesis sec. VI.A.1, Fig. 6.1).
 *
 * The optimiser proposes control points; for every constraint interval the distance
 * library returns the minimum of the continuous distance of every collision pair with
 * its witness time, and the constraint MCD - eps >= 0 (eq. 6.1) with its envelope-theorem
 * gradient goes back to the optimiser as one row of a vector constraint. Each iteration
 * therefore re-finds the MCD times of the current motion: the SIP loop of the thesis is
 * what one evaluation of the vector constraint does.
 *
 * Algorithms: the project's SQP and NLopt's SLSQP (optimizer.algorithm auto, the default,
 * chooses between them: pln_sip_algorithm), NLopt's MMA, CCSAQ and AUGLAG around L-BFGS,
 * all gradient-based. Stopping: relative
 * tolerances on x and on the cost, an evaluation cap and a wall-time budget. Progress
 * (evaluation, cost, worst violation and the row it is on, MCD calls, elapsed) goes to a
 * stream when one is given. NLopt's random seed is never used by these local algorithms;
 * pln_sip_solve() nevertheless fixes it (nlopt_srand) so runs are reproducible — the one
 * place the project calls it. */
#ifndef PLN_SIP_H
#define PLN_SIP_H

#include <stdio.h>

#include "problem/pln_problem.h"

typedef struct PlnSipResult {
    int nlopt_code;              /* nlopt_result of the run */
    char message[384];           /* NLopt's reason, or ours */
    int evaluations;             /* objective evaluations */
    int row_evaluations;         /* evaluations that computed the rows; NLopt's SLSQP asks
                                    again, with gradients, for the point its line search
                                    accepted, and those are answered from the last
                                    evaluation (docs/math/planner.md eq. P7d) */
    double cost;                 /* objective at x */
    double worst_violation;      /* max over rows of c_i(x) (> 0: violated), row units */
    int worst_row;               /* its row, -1 if there are no rows */
    double wall_time_s;
    long mcd_calls;
    double mcd_time_s;
    long phong_calls;            /* collision.distance phong: PhongDist queries of the rows */
    long phong_fallbacks;        /* of which did not converge (the Euclidean row was used) */
    double phong_time_s;
    int tasks_relaxed;           /* 1: the result is the elastic phase's (docs/math/planner.md
                                    sec. 5b): the tasks could not all be met with every other
                                    row, and x is the motion nearest them that meets the rest */
    int reverted;                /* 1: the loop ended infeasible and x is its point of least
                                    worst row; run->x_last holds where it ended */
    int preconditioned;          /* 1: the run's rounds started in the preconditioned
                                    variables (docs/math/planner.md eq. P23) */
    PlnAlgorithm algorithm;      /* the algorithm that ran (optimizer.algorithm auto
                                    resolved, pln_sip_algorithm) */
    int restarts;                /* pln_plan_optimise: the restart (1..PLN_PLAN_RESTARTS)
                                    whose result x is; 0: the first run's (or the elastic
                                    phase's, tasks_relaxed) */
} PlnSipResult;

/* How a run is carried out (not what it solves). */
typedef struct PlnSipRun {
    FILE *progress;   /* nullable: progress lines go here */
    int threads;      /* collision and dynamics rows on this many threads (1..PLN_MAX_THREADS,
                         or PLN_THREADS_AUTO) */
    FILE *dump;       /* nullable: every MCD query is appended here */
    int verbose;      /* 1: a progress line after every objective evaluation; 0: at most
                         one every PLN_PROGRESS_PERIOD_S (pln_sip.c) */
    int elastic;      /* 1: the elastic phase only (docs/math/planner.md sec. 5b): the tasks
                         in the objective (eq. P15), every other row a constraint, half the
                         scenario's evaluations; pln_plan_optimise() decides when */
    double time_used; /* s of the scenario's time limit spent already (the elastic phase
                         after a run gets what the run left) */
    int elastic_from_rest; /* elastic: start from the motion that stays at the initial
                         posture whatever x is (pln_plan_optimise: after a first run that
                         failed on something other than its tasks, a restart) */
    double *x_last;   /* nullable [n_vars]: when the loop ends infeasible and goes back to
                         its point of least worst row, where it ended (the worst row mixes
                         units, so pln_plan_optimise lets the certificate choose) */
    int max_evaluations; /* > 0: this budget instead of the scenario's max_iterations (a
                         restart, pln_plan_optimise); 0: the scenario's */
    int fresh_rows;   /* 1: every constraint callback computes the rows and only the
                         gradients NLopt asks for (no reuse, eq. P7d): the same plan, more
                         evaluations of the rows; tests compare the two */
    int slsqp;        /* 1: SLSQP whatever the scenario's algorithm (pln_plan_optimise's
                         second run when auto's SQP did not certify) */
} PlnSipRun;

/* The algorithm a run of p uses when PlnSipRun.slsqp is 0: the scenario's, with auto
 * resolved (the SQP; SLSQP when p has mesh collision rows; docs/math/sqp.md sec. 7). */
PlnAlgorithm pln_sip_algorithm(const PlnProblem *p);

/* Runs the optimiser from x (n_vars; overwritten with the result). Returns PLN_OK when
 * NLopt ran to a stop of its own (success, tolerance, evaluation or time limit; the
 * certification decides whether the result is usable), PLN_ERR_INTERNAL when NLopt or
 * an evaluation failed (message in err). */
PlnStatus pln_sip_solve(const PlnProblem *p, double *x, const PlnSipRun *run,
                        PlnSipResult *result, char *err, size_t err_size);

#endif /* PLN_SIP_H */
