/* plan_fixture.h — a planning problem loaded in process for the output tests: scenario,
 * robot, problem, and a moving (not optimised) spline inside the joint limits.
 * Header-only, test code only. */
#ifndef PLAN_FIXTURE_H
#define PLAN_FIXTURE_H

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "problem/pln_problem.h"
#include "model/pln_robot.h"
#include "problem/pln_scenario.h"

typedef struct PlanFixture {
    PlnScenario sc;
    PlnRobot robot;
    PlnProblem *p;
    double *x;      /* [n_vars] */
    double *ctrl;   /* [n_active * n_ctrl] */
} PlanFixture;

/* Loads `scenario`, builds its problem and a spline that moves: the initial variables
 * shifted by `amplitude` * sin(1.7 i) rad, clamped into the variable bounds. */
static inline void plan_fixture_load(PlanFixture *fx, const char *scenario, double amplitude)
{
    char err[1024];
    PlnPlanOptions opt = pln_plan_options_default();
    memset(fx, 0, sizeof *fx);
    ck_assert_msg(pln_scenario_parse(scenario, &fx->sc, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_msg(pln_robot_load(fx->sc.robot_path, &fx->robot, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_msg(pln_scenario_resolve(&fx->sc, &fx->robot, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_msg(pln_problem_create(&fx->p, &fx->robot, &fx->sc, &opt, err, sizeof err) == PLN_OK,
                  "%s", err);
    fx->x = calloc((size_t)(fx->p->n_vars > 0 ? fx->p->n_vars : 1), sizeof *fx->x);
    fx->ctrl = calloc((size_t)fx->p->n_active * fx->p->n_ctrl, sizeof *fx->ctrl);
    ck_assert(fx->x != NULL && fx->ctrl != NULL);
    pln_problem_initial_x(fx->p, fx->x);
    for (int i = 0; i < fx->p->n_vars; ++i) {
        double v = fx->x[i] + amplitude * sin(1.7 * i);
        fx->x[i] = fmin(fmax(v, fx->p->lb[i]), fx->p->ub[i]);
    }
    pln_problem_ctrl(fx->p, fx->x, fx->ctrl);
}

static inline void plan_fixture_free(PlanFixture *fx)
{
    free(fx->x);
    free(fx->ctrl);
    pln_problem_destroy(fx->p);
    pln_robot_destroy(&fx->robot);
    pln_scenario_destroy(&fx->sc);
    memset(fx, 0, sizeof *fx);
}

#endif /* PLAN_FIXTURE_H */
